//! The policy's reading of a shell command: every part is judged and the most restrictive
//! part decides.

mod destructive;
mod effects;
mod files;
mod git;
mod git_state;
pub(crate) mod judge;
mod producer;
mod programs;
mod reach;

use warrant_core::decision::Risk;
use warrant_core::evaluator::Stance;

use super::codes::{
    FILESYSTEM_OUTSIDE_WORKSPACE, SHELL_DESTRUCTIVE, SHELL_READ_ONLY, SHELL_UNPARSEABLE,
};
use super::finding::{Finding, most_restrictive, quote_text};
use crate::paths::{Place, Places};
use crate::shell::{self, Script, WorkingDir};

/// A check of the command's text beyond its parse, and the finding it adds: the stance, the
/// reason code, the risk and the reason.
type TextCheck = (fn(&str) -> bool, Stance, &'static str, Risk, &'static str);

/// What the command's text says beyond its parse ([`judge_command`]).
const TEXT_CHECKS: &[TextCheck] = &[
    (
        reach::duplicates_input,
        Stance::DefaultAsk,
        super::codes::SHELL_WRITE,
        Risk::Medium,
        "The command sends output to its input (`>&0`), which may be the user's terminal.",
    ),
    (
        reach::reopens_redirected_descriptor,
        Stance::RequireAsk,
        super::codes::SHELL_WRITE,
        Risk::High,
        "The command names a descriptor's alias (`/dev/stderr`, `/dev/fd/N`) while a descriptor is open on a file: opening the alias opens that file again, for writing too.",
    ),
    (
        reach::here_document_end_unsure,
        Stance::RequireAsk,
        SHELL_UNPARSEABLE,
        Risk::High,
        "A here-document's end may be found by bash elsewhere than here (a backslash-newline, the delimiter followed by more on its line, or a delimiter quoted otherwise than plainly): the lines after it would run as commands.",
    ),
    (
        reach::parser_reads_otherwise,
        Stance::RequireAsk,
        SHELL_UNPARSEABLE,
        Risk::High,
        "Part of the command may be read by bash otherwise than by the policy's parser (an escaped `$` before a quote, a comment inside `$(…)`, a `<<` or a process substitution inside `${…}` or `[[ … ]]`): bash could run text the policy never read.",
    ),
];

/// Judges a command line (`vector`: given as an argument vector, see
/// [`shell::parse_given`]): the finding that decides, and every finding about its parts.
pub(crate) fn judge_command(
    cx: &warrant_core::call::EvaluationContext,
    command: &str,
    vector: bool,
    places: &Places<'_>,
    start: &shell::WorkingDir,
) -> (Finding, Vec<Finding>) {
    let parsed = if *start == shell::WorkingDir::Root {
        shell::parse_in(cx, command, vector)
    } else {
        std::sync::Arc::new(shell::parse_given(command, start.clone(), vector))
    };
    match &*parsed {
        Ok(script) => {
            let (decided, mut all) = judge_script(script, places);
            let judged = all.len();
            for &(check, stance, code, risk, reason) in TEXT_CHECKS {
                if check(command) {
                    all.push(Finding::new(stance, code, risk, reason));
                }
            }
            if all.len() == judged {
                return (decided, all);
            }
            let decided = most_restrictive(all.iter().cloned()).unwrap_or(decided);
            (decided, all)
        }
        // A command the policy could not read completely (a syntax error or a parser limit
        // after commands the shell runs first, a NUL byte, more than is read) is never
        // settled by a mode: it asks in every one.
        Err(e) => {
            let f = Finding::new(
                Stance::RequireAsk,
                SHELL_UNPARSEABLE,
                Risk::Medium,
                format!("The command cannot be checked because {e}."),
            );
            (f.clone(), vec![f])
        }
    }
}

/// Judges a parsed command: the most restrictive part decides.
pub(crate) fn judge_script(script: &Script, places: &Places<'_>) -> (Finding, Vec<Finding>) {
    let j = judge::Judge {
        places,
        script,
        findings: Vec::new(),
        unmodeled: None,
        digest: false,
    };
    let mut j = j;
    for name in &script.fork_bombs {
        let reason = format!(
            "The function `{name}` calls itself in the background without end: a fork bomb."
        );
        j.add(Stance::HardDeny, SHELL_DESTRUCTIVE, Risk::Critical, reason);
    }
    for u in &script.unreadable {
        let reason = format!(
            "Part of the command ({}) cannot be checked because {}.",
            quote_text(&u.code),
            u.error
        );
        j.add(Stance::RequireAsk, SHELL_UNPARSEABLE, Risk::Medium, reason);
    }
    for cmd in &script.commands {
        programs::judge(&mut j, cmd);
        j.globbed_names(cmd);
    }
    reach::judge(&mut j);
    // The shell may be left where a `cd` moved it: an agent's shell that lives from one
    // command to the next runs the next one there, which is judged as run in the workspace.
    for dir in &script.moves {
        let here = places.locate(".", dir);
        if !matches!(here.place, Place::Inside) {
            let reason = match dir {
                WorkingDir::Unknown => "The command may leave its shell in a directory only known when it runs: what runs next in the same shell runs there.".to_owned(),
                WorkingDir::Dir(d) => format!(
                    "The command may leave its shell in `{d}`, outside the workspace or in a directory that does not exist: what runs next in the same shell runs there."
                ),
                WorkingDir::Root => continue,
            };
            j.add(
                Stance::DefaultAsk,
                FILESYSTEM_OUTSIDE_WORKSPACE,
                Risk::Medium,
                reason,
            );
        }
    }
    let reads: Vec<String> = j
        .findings
        .iter()
        .filter(|f| f.code == SHELL_READ_ONLY)
        .map(|f| f.reason.clone())
        .collect();
    let all = j.findings;
    let Some(mut decided) = most_restrictive(all.iter().cloned()) else {
        let f = Finding::new(
            Stance::DefaultAsk,
            SHELL_UNPARSEABLE,
            Risk::Medium,
            "The command runs nothing that can be checked.",
        );
        return (f.clone(), vec![f]);
    };
    if decided.code == SHELL_READ_ONLY && reads.len() > 1 {
        decided.reason = format!("Every part of the command only reads: {}", reads.join(" "));
    }
    (decided, all)
}
