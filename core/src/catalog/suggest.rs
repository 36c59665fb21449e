//! "Did you mean" for unknown tool ids: the nearest known id by edit distance.

/// The known id nearest to `unknown`, if within a third of its length (at least one edit).
/// Ties go to the id listed first.
pub(super) fn nearest<'a>(unknown: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let budget = (unknown.chars().count() / 3).max(1);
    known
        .map(|id| (edit_distance(unknown, id), id))
        .filter(|&(distance, _)| distance <= budget)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, id)| id)
}

/// Levenshtein distance over chars.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_insertions_deletions_and_substitutions() {
        assert_eq!(edit_distance("lsp_ts_hovr", "lsp_ts_hover"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn nearest_ignores_ids_that_are_too_far() {
        let known = ["view", "glob", "lsp_ts_hover"];
        assert_eq!(
            nearest("lsp_ts_hovr", known.into_iter()),
            Some("lsp_ts_hover")
        );
        assert_eq!(nearest("deploy_prod", known.into_iter()), None);
    }
}
