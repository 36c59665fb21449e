//! Options and embedded commands through which a program runs a program or command it is
//! given, whatever else it does: tar's `-I`/`--use-compress-program`, `-F`/`--info-script`,
//! `--new-volume-script`, `--rsh-command`, `--to-command` and `--checkpoint-action=exec=`; a
//! sed script's `e` command and `s///e` flag (and any script the policy cannot read, which may
//! hold them). A command the older readers take for a plain write is not one when it may run
//! such a program: the policy says so with a high risk, so that the auto reviewer never takes
//! it for routine work inside the workspace.

use super::program_named;
use super::table::{Operands, Special};
use crate::shell::{SimpleCommand, Word};

/// tar's long options whose value is a program or command it runs.
const TAR_LONG: &[&str] = &[
    "use-compress-program",
    "info-script",
    "new-volume-script",
    "rsh-command",
    "to-command",
    "checkpoint-action",
];

/// tar's short options whose value is a program it runs (`-I PROG`, `-F SCRIPT`).
const TAR_SHORT: &[char] = &['I', 'F'];

/// tar's short options that take a value (GNU tar), attached or in the next word.
const TAR_SHORT_VALUE: &[char] = &[
    'b', 'C', 'f', 'F', 'g', 'H', 'I', 'K', 'L', 'N', 'T', 'V', 'X',
];

/// Why the command may run a program or command it is given (an option's value, an embedded
/// command), if it may.
pub fn runs_given(cmd: &SimpleCommand) -> Option<String> {
    let program = cmd.program()?;
    match program_named(program)?.operands {
        Operands::Special(Special::Tar) => tar(cmd.args()),
        Operands::Special(Special::Sed) => sed(program, cmd.args()),
        _ => None,
    }
}

/// A long option of tar as written (`--use-comp=x`), when it is, or may be by an unambiguous
/// abbreviation, one of [`TAR_LONG`]: `--checkpoint` itself is another option, and
/// `--checkpoint-action` runs a program only with `exec=` (or a value only known when it
/// runs).
fn tar_long(name: &str, value: Option<&Word>) -> Option<&'static str> {
    if name.len() < 2 || name == "checkpoint" {
        return None;
    }
    let full = TAR_LONG.iter().find(|full| full.starts_with(name))?;
    if *full == "checkpoint-action" {
        let runs = value.is_none_or(|v| v.literal().is_none_or(|t| t.contains("exec")));
        return runs.then_some(full);
    }
    Some(full)
}

fn tar(args: &[Word]) -> Option<String> {
    let runs = |what: &str| Some(format!("runs the program its option `{what}` names"));
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        let Some(t) = w.literal() else {
            // A word only known when it runs may be any option.
            if w.prefix.is_empty() || w.prefix.starts_with('-') {
                return Some(format!(
                    "is given `{}`, which may be an option that runs a program",
                    w.raw
                ));
            }
            continue;
        };
        if t == "--" {
            return None;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(Word::literal_text(v))),
                None => (long, args.get(i).cloned()),
            };
            if let Some(full) = tar_long(name, value.as_ref()) {
                return runs(&format!("--{full}"));
            }
            continue;
        }
        // Old-style letters as the first word (`cfI x.tar PROG`): every letter is an option.
        if i == 1 && !t.starts_with('-') {
            if let Some(c) = t.chars().find(|c| TAR_SHORT.contains(c)) {
                return runs(&format!("-{c}"));
            }
            continue;
        }
        let Some(letters) = t.strip_prefix('-') else {
            continue;
        };
        for (k, c) in letters.char_indices() {
            if TAR_SHORT.contains(&c) {
                return runs(&format!("-{c}"));
            }
            if TAR_SHORT_VALUE.contains(&c) {
                // Its value is attached, or the next word.
                if k + c.len_utf8() == letters.len() {
                    i += 1;
                }
                break;
            }
        }
    }
    None
}

fn sed(program: &str, args: &[Word]) -> Option<String> {
    let entry = super::entries().get(program)?;
    // A script the parser cannot prove harmless may run a command; so may one read from a
    // file or only known when it runs.
    super::sed::model(entry, args, &mut super::Effects::default())
        .err()
        .map(|why| format!("may run a command its script holds: {why}"))
}

#[cfg(test)]
mod tests {
    use super::runs_given;
    use crate::shell::{WorkingDir, parse_given};

    fn runs(command: &str) -> bool {
        let script = parse_given(command, WorkingDir::Root, false).unwrap();
        script.commands.iter().any(|c| runs_given(c).is_some())
    }

    #[test]
    fn tar_options_that_run_a_program_are_found_in_every_spelling() {
        for c in [
            "tar -cf x.tar -I 'touch p' src",
            "tar -cf x.tar -Itouch src",
            "tar -cIf touch x.tar src",
            "tar cfI x.tar touch src",
            "tar --use-compress-program='touch p' -cf x.tar src",
            "tar --use-comp=./evil.sh -cf x.tar src",
            "tar -cf x.tar --use-compress-program ./evil.sh src",
            "tar -cf x.tar --checkpoint=1 --checkpoint-action=exec='touch p' src",
            "tar -cf x.tar --checkpoint-act exec=touch src",
            "tar -cf x.tar --rsh-command='touch p' h:/x src",
            "tar -cf x.tar -F 'touch p' -M src",
            "tar -cf x.tar --info-script='touch p' src",
            "tar -cf x.tar --new-volume-script=x src",
            "tar -xf x.tar --to-command='sh -c x'",
            "tar -cf x.tar $OPTS src",
        ] {
            assert!(runs(c), "{c}");
        }
        for c in [
            "tar -czf x.tar.gz src",
            "tar -cf x.tar --checkpoint=100 --checkpoint-action=dot src",
            "tar -cf \"$out\" src",
            "tar -xvf x.tar -C out",
            "tar -cf x.tar -- -I",
            "tar -tf x.tar",
        ] {
            assert!(!runs(c), "{c}");
        }
    }

    #[test]
    fn sed_scripts_that_run_a_command_or_are_not_read_are_found() {
        for c in [
            "sed -i '1e touch p' f",
            "sed -i '$e touch p' f",
            "sed -i '/fn/e touch p' f",
            "sed -i -e 's/a/b/' -e '1e touch p' f",
            "sed -i '1 e rm -rf ~/.cache' f",
            "sed --in-place '1e touch p' f",
            "sed -i.bak 's/.*/&/e' f",
            "sed -i 'w /tmp/x' f",
            "sed -i -f s.sed f",
            "sed -i \"s/$a/b/\" f",
            "sed -i --expression='1e x' f",
            // A word only known when it runs may be `-e1e CMD`.
            "sed -i 's/a/b/' \"$f\"",
        ] {
            assert!(runs(c), "{c}");
        }
        for c in [
            "sed -i 's/a/b/' f",
            "sed -i -e 's/a/b/g' -e '/x/d' f",
            "sed -n '1,5p' f",
            "sed -i 's/a/b/' -- \"$f\"",
        ] {
            assert!(!runs(c), "{c}");
        }
    }
}
