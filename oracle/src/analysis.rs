//! What the policy's analysis says a command runs.

use std::collections::BTreeSet;

/// The programs the analysis names as part of `command`: the basename of every simple
/// command's program, wrappers (`env`, `xargs`, `timeout`, `bash -c`) and the commands they
/// wrap included, and the programs the program table says each runs by design. A command the parser rejects names no program.
///
/// This is the one place the oracle asks the analysis; a richer analysis replaces this body.
pub fn named_programs(command: &str) -> BTreeSet<String> {
    match warrant_evaluators::shell::parse(command) {
        Ok(script) => script
            .commands
            .iter()
            .filter_map(|c| c.program())
            .flat_map(|p| {
                // The program table names the programs a program runs by design (`egrep`
                // runs `grep`, `cargo` runs `rustc`).
                std::iter::once(p.to_owned()).chain(
                    warrant_evaluators::programs::also_runs(p)
                        .iter()
                        .map(|r| (*r).to_owned()),
                )
            })
            .collect(),
        Err(_) => BTreeSet::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(command: &str) -> Vec<String> {
        named_programs(command).into_iter().collect()
    }

    #[test]
    fn pipelines_wrappers_and_substitutions_are_named() {
        assert_eq!(names("ls -l | /usr/bin/grep x"), ["grep", "ls"]);
        assert_eq!(
            names("env LANG=C timeout 5 cat README.md"),
            ["cat", "env", "timeout"]
        );
        assert_eq!(names("echo $(date)"), ["date", "echo"]);
        assert_eq!(names("bash -c 'wc -l x'"), ["bash", "wc"]);
    }

    #[test]
    fn programs_run_by_design_are_named() {
        assert_eq!(names("egrep x f"), ["egrep", "grep"]);
        assert!(names("tar -tzf x.tgz").contains(&"gzip".to_owned()));
    }

    #[test]
    fn text_the_parser_rejects_names_nothing() {
        assert_eq!(names("echo 'unterminated"), Vec::<String>::new());
    }
}
