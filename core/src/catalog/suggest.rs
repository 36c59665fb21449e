//! "Did you mean" for unknown tool ids: the nearest known id by edit distance, a swap of two
//! neighbouring characters counting as one edit (`Wirte` → `Write`).

/// The known id nearest to `unknown`, if within a third of its length (at least one edit).
/// Ties go to the id listed first.
pub(super) fn nearest<'a>(unknown: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let budget = (unknown.chars().count() / 3).max(1);
    known
        .map(|id| (strsim::osa_distance(unknown, id), id))
        .filter(|&(distance, _)| distance <= budget)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, id)| id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_ignores_ids_that_are_too_far() {
        let known = ["view", "glob", "lsp_ts_hover"];
        assert_eq!(
            nearest("lsp_ts_hovr", known.into_iter()),
            Some("lsp_ts_hover")
        );
        assert_eq!(nearest("deploy_prod", known.into_iter()), None);
    }

    #[test]
    fn a_transposition_is_one_edit() {
        let known = ["Read", "Write", "Edit"];
        assert_eq!(nearest("Wirte", known.into_iter()), Some("Write"));
        assert_eq!(nearest("Eidt", known.into_iter()), Some("Edit"));
    }
}
