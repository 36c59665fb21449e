//! git: its own options, then the subcommands that only read, each with the options it takes.
//! Configuration overrides (`-c`, `--git-dir`, `--exec-path`, …), unknown subcommands and
//! unknown options are not modeled.

use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

use super::cursor::{self, Item, Syntax};
use super::spec::{Opt, Options};
use super::table::GIT_LOG;
use super::{Effects, Result, literal};
use crate::shell::{Word, WorkingDir};

/// git's own options.
const GLOBAL: &str = "C=v c=v!x p|paginate P|no-pager no-replace-objects literal-pathspecs \
    glob-pathspecs noglob-pathspecs icase-pathspecs no-optional-locks git-dir=v!x \
    work-tree=v!x namespace=v!x exec-path=?!x config-env=v!x bare!x super-prefix=v!x \
    version html-path man-path info-path";

/// git's own options that take the next word as their value (those spelled `--NAME` also
/// take it attached, `--NAME=VALUE`).
const GLOBAL_VALUED: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--attr-source",
];

/// git's own options that take no value, or only an attached one (`--exec-path[=DIR]`,
/// `--list-cmds=GROUPS`).
const GLOBAL_FLAGS: &[&str] = &[
    "-p",
    "--paginate",
    "-P",
    "--no-pager",
    "--no-replace-objects",
    "--no-lazy-fetch",
    "--no-advice",
    "--literal-pathspecs",
    "--glob-pathspecs",
    "--noglob-pathspecs",
    "--icase-pathspecs",
    "--no-optional-locks",
    "--bare",
    "--exec-path",
    "--list-cmds",
    "--version",
    "-v",
    "--help",
    "-h",
    "--html-path",
    "--man-path",
    "--info-path",
];

/// How many words git's own option `t` spans (itself and its value); `None` for an option
/// git does not know (git reads its own options by their full names only).
pub(crate) fn global_option_span(t: &str) -> Option<usize> {
    if GLOBAL_VALUED.contains(&t) {
        return Some(2);
    }
    let name = t.split_once('=').map_or(t, |(n, _)| n);
    let attached = name.len() < t.len();
    let known = GLOBAL_FLAGS.contains(&name)
        || (attached && name.starts_with("--") && GLOBAL_VALUED.contains(&name));
    known.then_some(1)
}

/// git's own commands (`git --list-cmds=main`, git 2.47): the built-in ones and the programs
/// of its exec path. git runs one of them, or a `git-NAME` program on the `PATH`, before it
/// looks for an alias of that name, so an alias never stands for one of them.
const MAIN_COMMANDS: &str = "add am annotate apply archimport archive bisect blame branch \
    bugreport bundle cat-file check-attr check-ignore check-mailmap check-ref-format checkout \
    checkout--worker checkout-index cherry cherry-pick clean clone column commit commit-graph \
    commit-tree config count-objects credential credential-cache credential-cache--daemon \
    credential-store cvsexportcommit cvsimport cvsserver daemon describe diagnose diff \
    diff-files diff-index diff-tree difftool difftool--helper fast-export fast-import fetch \
    fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch fsck \
    fsck-objects fsmonitor--daemon gc get-tar-commit-id grep hash-object help hook \
    http-backend http-fetch http-push imap-send index-pack init init-db instaweb \
    interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge \
    merge-base merge-file merge-index merge-octopus merge-one-file merge-ours merge-recursive \
    merge-recursive-ours merge-recursive-theirs merge-resolve merge-subtree merge-tree \
    mergetool mktag mktree multi-pack-index mv name-rev notes p4 pack-objects pack-redundant \
    pack-refs patch-id pickaxe prune prune-packed pull push quiltimport range-diff read-tree \
    rebase receive-pack reflog refs remote remote-ext remote-fd remote-ftp remote-ftps \
    remote-http remote-https repack replace replay request-pull rerere reset restore rev-list \
    rev-parse revert rm send-email send-pack sh-i18n--envsubst shell shortlog show \
    show-branch show-index show-ref sparse-checkout stage stash status stripspace submodule \
    submodule--helper svn switch symbolic-ref tag unpack-file unpack-objects update-index \
    update-ref update-server-info upload-archive upload-archive--writer upload-pack var \
    verify-commit verify-pack verify-tag version web--browse whatchanged worktree write-tree";

/// Whether `name` is one of git's own commands ([`MAIN_COMMANDS`]), which no alias stands
/// for.
pub(crate) fn is_git_command(name: &str) -> bool {
    MAIN_COMMANDS.split_whitespace().any(|c| c == name)
}

/// What a subcommand's operands are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Revisions and other names: data.
    Text,
    /// Pathspecs looked at (`status`, `ls-files`).
    Meta,
    /// Revisions, `REV:PATH` objects and pathspecs whose contents it prints: checked against
    /// secrets.
    Objects,
    /// A pattern, then trees searched (`grep`).
    Grep,
    /// None at all.
    None,
}

// Not `-v`/`--verbose`: it prints the staged changes (and, twice, the unstaged ones).
const STATUS: &str = "s|short b|branch porcelain=? long u|untracked-files=? \
    ignore-submodules=? ignored=? z column=? no-column ahead-behind no-ahead-behind renames \
    no-renames find-renames=? show-stash";
// Not `--reverse`: the file is printed as the range's first revision holds it.
const BLAME: &str = "L=v s e|show-email w M=? C=? p|porcelain line-porcelain incremental c l \
    t n|show-number f|show-name root show-stats since=v first-parent date=v \
    ignore-rev=v abbrev=? b score-debug color-lines color-by-age progress no-progress \
    contents=r encoding=v minimal";
const LS_FILES: &str = "c|cached d|deleted m|modified o|others i|ignored s|stage u|unmerged \
    k|killed z t v f full-name recurse-submodules!x abbrev=? x|exclude=v X|exclude-from=r \
    exclude-per-directory=v exclude-standard error-unmatch with-tree=v debug eol \
    deduplicate sparse format=v";
const GREP: &str = "e=v!p f=r!p E|extended-regexp G|basic-regexp F|fixed-strings \
    P|perl-regexp i|ignore-case I w|word-regexp v|invert-match h H full-name n|line-number \
    column l|files-with-matches name-only L|files-without-match z|null o|only-matching \
    c|count color=? no-color break heading p|show-function W|function-context \
    A|after-context=v B|before-context=v C|context=v max-depth=v r|recursive no-recursive \
    a|text no-textconv untracked!H no-index!H no-exclude-standard!H exclude-standard \
    recurse-submodules!x cached q|quiet all-match and or not threads=v m|max-count=v";
const REV_PARSE: &str = "abbrev-ref=? short=? verify q|quiet sq symbolic symbolic-full-name \
    show-toplevel show-prefix show-cdup git-dir git-common-dir absolute-git-dir \
    is-inside-work-tree is-inside-git-dir is-bare-repository is-shallow-repository \
    show-superproject-working-tree shared-index-path show-object-format=? local-env-vars \
    all branches=? tags=? remotes=? glob=v default=v revs-only no-revs flags no-flags \
    since=v after=v until=v before=v path-format=v show-ref-format";
const BRANCH: &str = "a|all r|remotes v|verbose l|list show-current color=? no-color \
    column=? no-column sort=v merged=v!o no-merged=v!o contains=v!o no-contains=v!o \
    points-at=v format=v i|ignore-case omit-empty abbrev=? no-abbrev q|quiet";
const TAG: &str = "l|list n=? sort=v contains=v!o no-contains=v!o merged=v!o \
    no-merged=v!o points-at=v column=? no-column format=v color=? i|ignore-case omit-empty";
const CONFIG: &str = "get get-all get-regexp get-urlmatch l|list show-origin show-scope \
    global local system worktree f|file=r blob=v type=v bool int bool-or-int path \
    expiry-date z|null name-only includes no-includes default=v";

fn subcommands() -> &'static HashMap<&'static str, (Options, Kind)> {
    static SUBS: OnceLock<HashMap<&'static str, (Options, Kind)>> = OnceLock::new();
    SUBS.get_or_init(|| {
        let log = |extra: &str| Options::parse(&format!("{GIT_LOG} {extra}"));
        let mut m = HashMap::default();
        m.insert("status", (Options::parse(STATUS), Kind::Meta));
        for name in ["log", "show", "whatchanged", "diff", "diff-tree", "diff-files", "diff-index"] {
            m.insert(name, (log("r root stdin no-commit-id always v"), Kind::Objects));
        }
        m.insert("shortlog", (log("s|summary n|numbered e|email c|committer w=? group=v"), Kind::Objects));
        m.insert("rev-list", (log("count objects objects-edge unpacked header timestamp"), Kind::Text));
        m.insert("range-diff", (log("creation-factor=v no-dual-color"), Kind::Text));
        m.insert("blame", (Options::parse(BLAME), Kind::Objects));
        m.insert("annotate", (Options::parse(BLAME), Kind::Objects));
        m.insert("ls-files", (Options::parse(LS_FILES), Kind::Meta));
        m.insert("ls-tree", (Options::parse("d r t l|long z name-only name-status object-only full-name full-tree abbrev=? format=v"), Kind::Objects));
        m.insert("grep", (Options::parse(GREP), Kind::Grep));
        m.insert("rev-parse", (Options::parse(REV_PARSE), Kind::Text));
        m.insert("describe", (Options::parse("all tags contains abbrev=? candidates=v exact-match debug long match=v exclude=v always first-parent dirty=? broken=?"), Kind::Text));
        m.insert("show-ref", (Options::parse("head heads tags branches d|dereference s|hash=? verify abbrev=? q|quiet exists"), Kind::Text));
        m.insert("merge-base", (Options::parse("a|all octopus independent is-ancestor fork-point"), Kind::Text));
        m.insert("name-rev", (Options::parse("tags refs=v exclude=v all name-only no-undefined always"), Kind::Text));
        m.insert("for-each-ref", (Options::parse("count=v shell perl python tcl sort=v format=v color=? points-at=v merged=v!o no-merged=v!o contains=v!o no-contains=v!o ignore-case omit-empty exclude=v"), Kind::Text));
        // Only a dry run (`-n`) is read-only: `-f` and `-i` delete.
        m.insert("clean", (Options::parse("n|dry-run d x X q|quiet e|exclude=v f|force!x i|interactive!x"), Kind::Meta));
        m.insert("count-objects", (Options::parse("v|verbose H|human-readable"), Kind::None));
        // The objects a pack index lists, by id, type and size: no content.
        m.insert("verify-pack", (Options::parse("v|verbose s|stat-only object-format=v"), Kind::Meta));
        m.insert("check-ignore", (Options::parse("q|quiet v|verbose z n|non-matching no-index"), Kind::Meta));
        m.insert("check-attr", (Options::parse("a|all cached z source=v"), Kind::Meta));
        m.insert("cat-file", (Options::parse("t s e p batch-check=? batch-all-objects allow-unknown-type use-mailmap"), Kind::Objects));
        m.insert("var", (Options::parse(""), Kind::Text));
        // Prints the id a file's contents would have; `-w` stores it.
        m.insert("hash-object", (Options::parse("t=v w!x path=v no-filters literally stdin"), Kind::Text));
        m.insert("version", (Options::parse("build-options"), Kind::None));
        // Lists commands or guides; a page (`git help log`, `-m`, `-w`) runs a viewer.
        m.insert("help", (Options::parse("a|all v|verbose g|guides no-external-commands no-aliases"), Kind::None));
        // The archive formats, configured ones among them, listed: no filter command runs and
        // nothing is written (an operand, `--output` or `--remote` is refused).
        m.insert("archive", (Options::parse("l|list v|verbose"), Kind::None));
        m.insert("cherry", (Options::parse("v abbrev=?"), Kind::Text));
        m.insert("show-branch", (Options::parse("r|remotes a|all current topo-order date-order sparse more=v list independent merge-base no-name sha1-name reflog=? color=? no-color"), Kind::Text));
        m.insert("branch", (Options::parse(BRANCH), Kind::Text));
        m.insert("tag", (Options::parse(TAG), Kind::Text));
        m.insert("config", (Options::parse(CONFIG), Kind::Text));
        m.insert("remote", (Options::parse("v|verbose"), Kind::Text));
        m.insert("stash", (log(""), Kind::Objects));
        m.insert("reflog", (log(""), Kind::Objects));
        m.insert("worktree", (Options::parse("porcelain v|verbose z"), Kind::Text));
        m.insert("symbolic-ref", (Options::parse("q|quiet short"), Kind::Text));
        m.insert("notes", (Options::parse(""), Kind::Objects));
        m.insert(
            "fsck",
            (
                Options::parse(
                    "no-progress progress unreachable dangling no-dangling root tags cache \
                     no-reflogs full no-full strict verbose connectivity-only name-objects",
                ),
                Kind::Text,
            ),
        );
        m
    })
}

/// The revision whose object id, or the id of one of its ancestors, is every word `git
/// ARGS` prints (`ARGS` after `git`, every one literal), when the command is known to print
/// nothing else: `rev-parse REV` (its id, or `REV` itself when it names no object),
/// `rev-list [-n N] REV` and `log --format=%H [-N] [REV]` (commits REV reaches),
/// `merge-base A B` (a commit both reach: an ancestor of `A`). Whole ids only: git reads a
/// word of full length as the object it names, but an abbreviated one (`--short`, `%h`) as a
/// ref first when one has that name, and a repository may hold a branch named like any
/// abbreviation. A command given another option, a second revision, a range or a revision
/// of another form (`:/msg`, `REF@{N}`, `REV:path`, `^{…}`) is none. A word made of such
/// output may stand for the revision where git reads it as a commit: its history, and every
/// check of it, is the revision's own.
pub(crate) fn printed_revision(args: &[&str]) -> Option<String> {
    let (&sub, rest) = args.split_first()?;
    let number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mut revisions = Vec::new();
    let mut words = rest.iter().copied();
    while let Some(t) = words.next() {
        let walks = matches!(sub, "rev-list" | "log");
        let known = match t {
            _ if plain_revision(t) => {
                revisions.push(t);
                true
            }
            "--verify" | "-q" | "--quiet" if sub == "rev-parse" => true,
            "--first-parent" | "--no-merges" | "--reverse" if walks => true,
            "-n" if walks => words.next().is_some_and(number),
            _ if walks => {
                t.strip_prefix("--max-count=").is_some_and(number)
                    || t.strip_prefix("-n").is_some_and(number)
                    || t.strip_prefix('-').is_some_and(number)
                    || (sub == "log"
                        && ["--format=", "--pretty="].iter().any(|o| {
                            t.strip_prefix(o).is_some_and(|f| {
                                let f = f
                                    .strip_prefix("format:")
                                    .or_else(|| f.strip_prefix("tformat:"))
                                    .unwrap_or(f);
                                f == "%H"
                            })
                        }))
            }
            _ => false,
        };
        if !known {
            return None;
        }
    }
    let formats = |t: &&str| t.starts_with("--format=") || t.starts_with("--pretty=");
    match (sub, revisions.as_slice()) {
        ("rev-parse" | "rev-list", [rev]) => Some((*rev).to_owned()),
        ("merge-base", [a, _]) if rest.len() == 2 => Some((*a).to_owned()),
        ("log", [rev]) if rest.iter().any(formats) => Some((*rev).to_owned()),
        ("log", []) if rest.iter().any(formats) => Some("HEAD".to_owned()),
        _ => None,
    }
}

/// Whether `t` names a commit by a ref or an id, with `~N`/`^N` steps at most: letters,
/// digits and `_ . / - ~ ^`, not starting with `-`, `^`, `.` or `/`, no `..` (a range), no
/// `@{`, `:` or `^{` (a reflog entry, a file of a tree, a peeled or searched object).
pub(crate) fn plain_revision(t: &str) -> bool {
    !t.is_empty()
        && !t.starts_with(['-', '^', '.', '/', '~'])
        && !t.contains("..")
        && t.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'/' | b'-' | b'~' | b'^')
        })
}

/// Whether `git -c KEY=VALUE` (`text`) sets only how git shows what it prints: colours,
/// dates, decorations, abbreviations. Such a key names no program, reads no file and makes
/// git print no other contents.
pub(crate) fn display_setting(text: &str) -> bool {
    let key = text
        .split_once('=')
        .map_or(text, |(k, _)| k)
        .to_ascii_lowercase();
    key.starts_with("color.")
        || matches!(
            key.as_str(),
            "log.date" | "log.decorate" | "log.abbrevcommit" | "core.abbrev" | "column.ui"
        )
}

pub(super) fn model(args: &[Word], e: &mut Effects) -> Result<()> {
    static OPTIONS: OnceLock<Options> = OnceLock::new();
    let global = OPTIONS.get_or_init(|| Options::parse(GLOBAL));
    let items = cursor::read(args, global, Syntax::Posix, false)?;
    e.repository = true;
    let mut sub_at = None;
    for item in items {
        match item {
            Item::Opt(opt, Some(v))
                if opt.display == "-c" && v.literal().is_some_and(display_setting) => {}
            // The repository git finds anyway: the `.git` of the directory it runs in, that
            // directory its work tree's top (or git fails). Not `--work-tree=.`: below the
            // top, every tracked file elsewhere reads as deleted, and `git diff` prints it.
            Item::Opt(opt, Some(v))
                if opt.display == "--git-dir"
                    && matches!(v.literal(), Some(".git" | "./.git" | ".git/" | "./.git/")) => {}
            Item::Opt(opt, _) if opt.has('x') => {
                return Err(format!(
                    "`git {}` overrides where git reads its configuration or programs",
                    opt.display
                ));
            }
            // The history's check reads commits as the replace refs make them; this shows the
            // commits they hide, a secret removed by a replacement among them.
            Item::Opt(opt, _) if opt.display == "--no-replace-objects" => {
                return Err(
                    "`git --no-replace-objects` shows the objects replace refs hide, which no check of the history read"
                        .to_owned(),
                );
            }
            // Pathspecs matched without case name other files than the paths they spell, in
            // the index and the work tree as in the history.
            Item::Opt(opt, _) if opt.display == "--icase-pathspecs" => {
                return Err(
                    "`git --icase-pathspecs` matches pathspecs without case, other files than they name"
                        .to_owned(),
                );
            }
            // Each `-C` is relative to the directory the ones before it chose, and an empty
            // one is ignored.
            Item::Opt(opt, Some(dir)) if opt.display == "-C" => {
                let d = literal(&dir)?;
                if d.is_empty() {
                    continue;
                }
                let joined = match &e.cwd {
                    Some(WorkingDir::Dir(before)) if !d.starts_with(['/', '~']) => {
                        format!("{}/{d}", before.trim_end_matches('/'))
                    }
                    _ => d.to_owned(),
                };
                e.meta.push(if joined == d {
                    dir.clone()
                } else {
                    Word::literal_text(&joined)
                });
                e.cwd = Some(WorkingDir::Dir(joined));
            }
            Item::Opt(..) => {}
            Item::Operand(at, _) => {
                sub_at = Some(at);
                break;
            }
        }
    }
    let Some(at) = sub_at else {
        return Ok(());
    };
    let sub = literal(&args[at])?;
    let (options, kind) = subcommands()
        .get(sub)
        .ok_or_else(|| format!("`git {sub}` is not a subcommand known to only read"))?;
    let rest = &args[at + 1..];
    // `-h` alone: the subcommand's usage, printed while its options are parsed (exit 129),
    // before any file of the repository is read or a program run.
    if matches!(rest, [w] if w.literal() == Some("-h")) {
        return Ok(());
    }
    let items = cursor::read(rest, options, Syntax::Gnu, true)?;
    let mut operands = Vec::new();
    let (mut pattern_given, mut no_index, mut action, mut hidden) = (false, false, false, false);
    no_index |= sub == "diff" && implicit_no_index(rest);
    let mut action_lists = false;
    let mut patch = false;
    let mut history = HistoryReach::default();
    // Where `--` ends the revisions, for `git grep PATTERN REV -- PATH`.
    let dashdash = rest.iter().position(|w| w.literal() == Some("--"));
    let mut revisions_at = Vec::new();
    // The options given, in order, with their values.
    let mut given: Vec<(&Opt, Option<Word>)> = Vec::new();
    for item in items {
        match item {
            Item::Operand(at, w) => {
                if dashdash.is_none_or(|d| at < d) {
                    revisions_at.push(operands.len());
                }
                operands.push(w);
            }
            Item::Opt(opt, value) => {
                given.push((opt, value.clone()));
                history.note(opt.display.as_str());
                e.remote_urls |= sub == "remote" && opt.display == "-v";
                if opt.has('x') {
                    return Err(format!("`git {sub} {}` is not read-only", opt.display));
                }
                pattern_given |= opt.has('p');
                no_index |= opt.has('N');
                hidden |= opt.has('H');
                action |= matches!(
                    opt.display.as_str(),
                    "--get" | "--get-all" | "--get-regexp" | "--get-urlmatch" | "-l" | "--list"
                ) || (sub == "clean"
                    && matches!(opt.display.as_str(), "-n" | "--dry-run"))
                    || lists_implied(sub, &opt.display);
                patch |= matches!(
                    opt.display.as_str(),
                    "-p" | "-U"
                        | "--word-diff"
                        | "--color-words"
                        | "-W"
                        | "--cc"
                        | "-c"
                        | "--full-diff"
                        | "-L"
                        | "--patch-with-stat"
                        | "--patch-with-raw"
                        | "--remerge-diff"
                        | "-m"
                        | "--dd"
                );
                action_lists |= matches!(
                    opt.display.as_str(),
                    "--get-regexp" | "--get-urlmatch" | "-l" | "--list"
                );
                if let Some(v) = &value
                    && matches!(opt.display.as_str(), "--pretty" | "--format")
                    && v.literal().is_none_or(verifies_signatures)
                {
                    return Err("its format checks signatures, which runs gpg".to_owned());
                }
                // Messages re-encoded (`ASCII//TRANSLIT` makes look-alike letters plain ones)
                // are not what the objects hold.
                if opt.display == "--encoding"
                    && !value.as_ref().and_then(Word::literal).is_some_and(|v| {
                        ["utf-8", "utf8", "none"]
                            .iter()
                            .any(|e| v.eq_ignore_ascii_case(e))
                    })
                {
                    return Err(
                        "`--encoding` prints messages re-encoded, not as the objects hold them"
                            .to_owned(),
                    );
                }
                if let Some(v) = &value
                    && opt.display == "--format"
                    && v.literal().is_none_or(prints_raw_objects)
                {
                    return Err(
                        "its format prints the objects the refs name whole (`%(raw)`), a blob among them"
                            .to_owned(),
                    );
                }
                match (opt.value, value) {
                    (super::spec::Value::Reads, Some(v)) => e.reads.push(v),
                    (super::spec::Value::Writes, Some(v)) => e.writes.push(v),
                    _ => {}
                }
            }
        }
    }
    // `git hash-object FILE` (or `--path`) runs the clean filter the attributes name for
    // it (git-lfs's writes the object store), unless `--no-filters`.
    if sub == "hash-object"
        && !rest.iter().any(|w| w.literal() == Some("--no-filters"))
        && (!operands.is_empty()
            || rest
                .iter()
                .any(|w| w.literal().is_none_or(|t| t.starts_with("--path"))))
    {
        return Err(
            "`git hash-object` of a file runs the clean filter its attributes name (give `--no-filters`)"
                .to_owned(),
        );
    }
    // Contents from history: a secret committed once is printed again.
    e.history = match sub {
        "show" | "diff" | "diff-tree" | "diff-index" | "diff-files" | "cat-file" | "range-diff" => {
            true
        }
        // A search of the contents (`-S`, `-G`) answers whether a file held a text: asked
        // again and again, it prints the file.
        "log" | "whatchanged" | "reflog" | "shortlog" => patch || history.pickaxe,
        "stash" => patch || operands.first().and_then(Word::literal) == Some("show"),
        _ => false,
    };
    e.messages = prints_messages(sub, rest, &given, &operands);
    let said = |name: &str| given.iter().any(|(o, _)| o.display == name);
    e.ignore_patterns = sub == "check-ignore" && said("-v");
    e.attribute_values = sub == "check-attr";
    // Attributes read from a commit's tree or the index are not the work tree's files.
    if e.attribute_values && (said("--source") || said("--cached")) {
        return Err(
            "`git check-attr --source`/`--cached` prints attributes of another tree than the work tree's"
                .to_owned(),
        );
    }
    e.in_progress = (sub == "status" && (said("--long") || !(said("-s") || said("--porcelain"))))
        || (sub == "worktree" && (said("-v") || said("--porcelain")))
        || e.ignore_patterns
        || e.attribute_values;
    e.ref_names = matches!(
        sub,
        "branch"
            | "tag"
            | "show-ref"
            | "for-each-ref"
            | "describe"
            | "name-rev"
            | "symbolic-ref"
            | "rev-parse"
            | "rev-list"
            | "remote"
            | "log"
            | "show"
            | "whatchanged"
            | "reflog"
            | "shortlog"
            | "status"
            | "worktree"
            | "stash"
            | "show-branch"
    );
    // Names of files: what the index and the work tree hold, and what commits hold.
    let names_given = patch
        || given.iter().any(|(o, _)| {
            matches!(
                o.display.as_str(),
                "--stat"
                    | "--numstat"
                    | "--dirstat"
                    | "--summary"
                    | "--name-only"
                    | "--name-status"
                    | "--raw"
                    | "--compact-summary"
                    | "--objects"
                    | "--objects-edge"
                    | "--patch-with-stat"
                    | "--patch-with-raw"
            )
        });
    // `git status`, `git diff` and `git grep` print names of HEAD's tree or of the commits
    // they are given (a file deleted from the index and the work tree, or only a branch's):
    // which commits is told when the call is judged.
    e.history_names = match sub {
        "ls-tree" | "whatchanged" | "show" | "diff-tree" | "archive" | "range-diff" | "stash"
        | "status" | "diff" | "diff-index" | "grep" | "blame" | "annotate" => true,
        "log" | "reflog" | "rev-list" | "shortlog" | "format-patch" => names_given,
        // A tree's entries (`git cat-file -p HEAD~1:`), another tree's files beside the
        // index's (`git ls-files --with-tree=REV`).
        "cat-file" => !given
            .iter()
            .any(|(o, _)| matches!(o.display.as_str(), "-t" | "-s" | "-e")),
        "ls-files" => given
            .iter()
            .any(|(o, _)| o.display.starts_with("--with-tree")),
        _ => false,
    };
    // Ignored files are named too by `git status --ignored`, `git ls-files -o`/`-i` and
    // `git clean -x`/`-X`.
    let said_any = |names: &[&str]| {
        given
            .iter()
            .any(|(o, _)| names.contains(&o.display.as_str()))
    };
    e.ignored_names = match sub {
        "status" => given
            .iter()
            .any(|(o, _)| o.display.starts_with("--ignored")),
        "ls-files" => said_any(&["-o", "--others", "-i", "--ignored"]),
        "clean" => said_any(&["-x", "-X"]),
        _ => false,
    };
    e.path_names = e.history_names
        || matches!(
            sub,
            "ls-files"
                | "status"
                | "diff"
                | "diff-files"
                | "diff-index"
                | "grep"
                | "clean"
                | "check-ignore"
                | "check-attr"
                | "blame"
                | "annotate"
                | "stash"
                | "difftool"
                | "add"
                | "rm"
                | "mv"
                | "restore"
                | "commit"
        );
    if sub == "config" && matches!(operands.first().and_then(Word::literal), Some("list")) {
        action_lists = true;
    }
    history.stash_untracked = sub == "stash"
        && rest.iter().any(|w| {
            w.literal()
                .is_none_or(|t| t.starts_with('-') && !t.starts_with("--") && t.contains('u'))
        });
    e.paths_not_revisions
        .extend(history.check(sub, patch, &operands)?);
    if !no_index {
        let revisions: Vec<&Word> = revisions_at.iter().map(|&i| &operands[i]).collect();
        e.paths_not_revisions
            .extend(history.revisions(sub, patch, &revisions)?);
    }
    if sub == "grep" {
        // After the pattern and before `--`, a word is a revision unless it is a path (and
        // a revision whatever files exist when a `--` follows: the judge reads it so).
        let skip = usize::from(!pattern_given);
        let words = revisions_at.iter().filter(|&&i| i >= skip);
        e.paths_not_revisions
            .extend(words.map(|&i| operands[i].clone()));
    }
    subcommand_operands(
        sub,
        *kind,
        operands,
        pattern_given,
        no_index,
        action,
        action_lists,
        hidden,
        patch,
        e,
    )
}

/// Whether `git SUB REST…` prints the messages of commits or annotated tags (a subject line
/// is part of one) or their authors' identities: logs in every pretty format but one whose
/// placeholders print neither (`--format=%H %ad`), every `git show` (a tag's message is
/// printed whatever the format), `blame`, `describe`, `fsck`, `diff-tree -v`,
/// a commit or tag printed whole (`cat-file -p`), reflogs
/// and stash lists, `branch -v`, `tag -n`, `show-branch`, `cherry -v`, `rev-list` with a
/// format, and a ref listing whose format names a message's parts or an identity. A word
/// only known when it runs counts.
fn prints_messages(
    sub: &str,
    rest: &[Word],
    given: &[(&Opt, Option<Word>)],
    operands: &[Word],
) -> bool {
    if rest.iter().any(|w| w.literal().is_none()) {
        return true;
    }
    let has = |names: &[&str]| {
        given
            .iter()
            .any(|(o, _)| names.contains(&o.display.as_str()))
    };
    // The formats given (`--format=X`, `--format X`; `--pretty` alone is `medium`); one only
    // known when it runs prints anything.
    let mut formats = Vec::new();
    for (opt, value) in given {
        if !matches!(opt.display.as_str(), "--format" | "--pretty") {
            continue;
        }
        match value.as_ref().map(Word::literal) {
            Some(Some(f)) => formats.push(f),
            Some(None) => return true,
            None => formats.push("medium"),
        }
    }
    let format_prints = |f: &str| {
        let f = f
            .strip_prefix("format:")
            .or_else(|| f.strip_prefix("tformat:"))
            .unwrap_or(f);
        if !f.contains('%') {
            // A named format (`oneline`, `medium`, …) prints the subject at least.
            return true;
        }
        let f = f.replace("%%", "");
        f.split('%').skip(1).any(|p| {
            let p = p.trim_start_matches(['-', '+', ' ']);
            // An author's or committer's name or address (`%an`, `%cE`, `%aL`).
            let identity =
                p.starts_with(['a', 'c']) && p[1..].starts_with(['n', 'N', 'e', 'E', 'l', 'L']);
            identity
                || p.starts_with(['s', 'b', 'B', 'f', 'g', 'G', 'N', '(', 'e', 'w', 'm'])
                || p.is_empty()
        })
    };
    let log_like = |default: bool| {
        if formats.is_empty() {
            default || has(&["--oneline"])
        } else {
            formats.iter().any(|f| format_prints(f)) || has(&["--oneline"])
        }
    };
    // Ref listings: `%(contents…)`, `%(subject)`, `%(body)`, `%(trailers…)`, of the ref's
    // object or (`%(*…)`) of the one a tag points to.
    let ref_format = || {
        formats.iter().any(|f| {
            f.split("%(").skip(1).any(|atom| {
                let atom = atom.trim_start_matches('*');
                [
                    "contents",
                    "subject",
                    "body",
                    "trailers",
                    "author",
                    "committer",
                    "tag",
                    "creator",
                    "signature",
                ]
                .iter()
                .any(|k| atom.starts_with(k))
            })
        })
    };
    match sub {
        // `git show TAG` prints an annotated tag's message whatever the format.
        "show" => true,
        "log" | "whatchanged" | "shortlog" | "reflog" | "range-diff" | "show-branch" => {
            log_like(true)
        }
        "rev-list" => has(&["--header"]) || log_like(false),
        "diff-tree" => has(&["-v"]) || log_like(false),
        // A tag's own name (`describe` warns when it differs from the ref's) and whatever
        // `fsck` finds wrong in an object are read from the objects.
        "describe" | "fsck" => true,
        "cat-file" => !has(&["-t", "-s", "-e", "--batch-check"]),
        "stash" => operands.first().and_then(Word::literal) == Some("list"),
        "branch" => has(&["-v"]) || ref_format(),
        "tag" => has(&["-n"]) || ref_format(),
        "for-each-ref" => ref_format(),
        "cherry" => has(&["-v"]),
        // Every line's author, and with the porcelains the commit's summary.
        "blame" | "annotate" => true,
        _ => false,
    }
}

/// How far into history a `log` or `show` reaches for contents. Searching history for a
/// string (`-S`, `-G`) with its diffs is how a secret removed since is found again; so are
/// diffs of refs beyond the current branch (`--all`, stashes, reflogs) and `git show` of an
/// older commit, or of one named by its message (`:/fix`), a reflog entry (`HEAD@{2}`) or the
/// stash. Diffs of other commits (`git show v1.2`, `git diff main...topic`) name words the
/// policy must find to be paths or commits the repository's refs reach; the names every
/// such commit holds are then checked for secrets (`git rev-list --objects`, bounded).
#[derive(Default)]
struct HistoryReach {
    /// `-S`, `-G`: a search of history contents.
    pickaxe: bool,
    /// `--all`, `--branches`, `--reflog`, `-g`, `--bisect`, `--merge`, …: refs beyond the
    /// current branch; `--not`, which turns the exclusions after it into revisions.
    other_refs: bool,
    /// `--stat`, `-s`, `--name-only`, …: no diff is printed by `git show`.
    no_patch: bool,
    /// `-t`, `-s`, `-e` of `git cat-file`: its type, size or existence, not its contents.
    cat_file_meta: bool,
    /// `-u` of `git stash show` (read as `--patch` by the log options): the stash's
    /// untracked files too.
    stash_untracked: bool,
}

/// Whether `REV:path` names a file of the current branch's history: `REV` is HEAD or an
/// ancestor ([`head_chain`]), or the index (`:path`, `:N:path`).
fn head_blob(t: &str) -> bool {
    match t.split_once(':') {
        Some(("", _)) => !t.starts_with(":/"),
        Some((rev, _)) => head_chain(rev),
        None => false,
    }
}

/// Whether `t` names HEAD or one of its ancestors: `HEAD` or `@` followed by `~N` / `^N`
/// steps, optionally ending in `^!`, `^@` or `^-N` (ancestors of it too).
fn head_chain(t: &str) -> bool {
    let Some(mut rest) = t.strip_prefix("HEAD").or_else(|| t.strip_prefix('@')) else {
        return false;
    };
    for end in ["^!", "^@"] {
        if let Some(r) = rest.strip_suffix(end) {
            rest = r;
            break;
        }
    }
    if let Some(at) = rest.rfind("^-")
        && rest[at + 2..].bytes().all(|b| b.is_ascii_digit())
    {
        rest = &rest[..at];
    }
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        if !matches!(c, '~' | '^') {
            return false;
        }
        while chars.peek().is_some_and(char::is_ascii_digit) {
            chars.next();
        }
    }
    true
}

impl HistoryReach {
    /// The revisions a subcommand printing contents from history is given, checked: only
    /// HEAD and its ancestors (and, where the subcommand shows only what they add, ranges
    /// ending in them) are the current branch's history; any other branch, tag, remote ref,
    /// commit id or `FETCH_HEAD` may hold a secret the current branch never had. A single word
    /// that is not a revision of that shape is returned: it must be an existing path in the
    /// workspace (git reads a word that is both as neither), else the call is unmodeled.
    fn revisions(&self, sub: &str, patch: bool, words: &[&Word]) -> Result<Vec<Word>> {
        let shows_contents = match sub {
            "diff" | "range-diff" => patch || !self.no_patch,
            "diff-tree" | "diff-index" | "diff-files" | "log" | "whatchanged" => patch,
            "reflog" if patch => {
                return Err(format!(
                    "`git {sub}` prints diffs of every commit HEAD pointed to, beyond the current branch"
                ));
            }
            // `git stash show` of the stash's tracked changes: the objects' check reads the
            // stash's commits. `git stash list -p` prints every stash.
            "stash"
                if patch
                    && (self.stash_untracked
                        || words.first().and_then(|w| w.literal()) != Some("show")) =>
            {
                return Err(format!(
                    "`git {sub}` prints diffs of the stash (its untracked files among them) or of every stash, beyond the current branch"
                ));
            }
            "cat-file" => {
                // `-t`, `-s`, `-e` tell an object's type, size or existence; `-p` and
                // `cat-file TYPE OBJECT` print it.
                let prints = words.len() == 2 || !(self.cat_file_meta || self.no_patch);
                let peeled = |t: &str| {
                    let t = t
                        .strip_suffix("^{tree}")
                        .or_else(|| t.strip_suffix("^{commit}"));
                    t.is_some_and(head_chain)
                };
                return match words.last().map(|w| w.literal()) {
                    None => Ok(Vec::new()),
                    Some(Some(t)) if !prints || head_blob(t) || head_chain(t) || peeled(t) => {
                        Ok(Vec::new())
                    }
                    Some(_) => Err(format!(
                        "`git cat-file` prints `{}`, an object that may be any file of any commit",
                        words.last().map_or("", |w| w.raw.as_str())
                    )),
                };
            }
            _ => false,
        };
        if !shows_contents {
            return Ok(Vec::new());
        }
        // `A...B` of a diff is the merge base of A and B (an ancestor of B) against B; `A..B`
        // of a log is what B has and A lacks: only B's side must be the current branch's.
        let log_like = matches!(sub, "log" | "whatchanged" | "range-diff");
        let head = |t: &str| t.is_empty() || head_chain(t);
        let mut paths = Vec::new();
        for (i, w) in words.iter().enumerate() {
            let Some(t) = w.literal() else {
                return Err(format!(
                    "`git {sub}` is given `{}`, a revision only known when it runs",
                    w.raw
                ));
            };
            // `range-diff BASE REV1 REV2`: the base only bounds what is shown.
            if sub == "range-diff" && words.len() == 3 && i == 0 {
                continue;
            }
            let within = if let Some((a, b)) = t.split_once("...") {
                head(b) && (!log_like || head(a))
            } else if let Some((a, b)) = t.split_once("..") {
                head(b) && (log_like || head(a))
            } else if let Some(excluded) = t.strip_prefix('^') {
                // `^A` excludes: of a log it only narrows; of a diff it is a range's start.
                log_like || head(excluded)
            } else {
                head_chain(t)
            };
            // Anything else must be a path, or commits the refs reach: the history's check
            // covers those.
            if !within {
                paths.push((*w).clone());
            }
        }
        Ok(paths)
    }

    fn note(&mut self, display: &str) {
        match display {
            "-S" | "-G" | "--pickaxe-regex" | "--pickaxe-all" | "--find-object" => {
                self.pickaxe = true;
            }
            "--all" | "--branches" | "--remotes" | "--tags" | "--glob" | "--reflog"
            | "--walk-reflogs" | "-g" | "--alternate-refs" | "--stdin" | "--bisect" | "--merge" => {
                self.other_refs = true
            }
            // `--not` flips every revision after it: `--not ^other` is `other`.
            "--not" => self.other_refs = true,
            "-s" | "--stat" | "--numstat" | "--shortstat" | "--dirstat" | "--summary"
            | "--name-only" | "--name-status" | "--raw" => self.no_patch = true,
            "-t" | "-e" => self.cat_file_meta = true,
            _ => {}
        }
    }

    /// Why the contents `git sub` prints may hold a secret no check reaches, or the words
    /// it reads as commits beyond HEAD's chain that must be paths or commits the
    /// repository's refs reach (see [`super::Effects::paths_not_revisions`]).
    fn check(&self, sub: &str, patch: bool, operands: &[Word]) -> Result<Vec<Word>> {
        // `:/message` names the youngest commit of any ref whose message matches, `REF@{N}` a
        // reflog entry, `REV^{/message}` a commit by its message, `stash` the stash: each
        // reaches beyond the current branch, so its contents may hold a secret removed since.
        // A branch's upstream or push target (`@{u}`, `main@{push}`) is a ref, not a reflog
        // entry.
        let beyond = |t: &str| {
            let mut refs_only = t.to_ascii_lowercase();
            for upstream in ["@{upstream}", "@{u}", "@{push}"] {
                refs_only = refs_only.replace(upstream, "");
            }
            t.starts_with(":/")
                || refs_only.contains("@{")
                || t.contains("^{/")
                || t == "stash"
                || t.starts_with("stash^")
                || t.starts_with("stash~")
                || t.starts_with("refs/stash")
        };
        if matches!(
            sub,
            "show" | "diff" | "diff-tree" | "diff-index" | "log" | "whatchanged" | "range-diff"
        ) && (sub != "log" && sub != "whatchanged" || patch)
            && let Some(w) = operands
                .iter()
                .find(|w| w.literal().is_some_and(|t| t.split("..").any(beyond)))
        {
            return Err(format!(
                "`git {sub} {}` names a commit beyond the current branch (by message, reflog or stash), whose contents may hold a secret removed since",
                w.raw
            ));
        }
        // What `git show` names beyond HEAD's chain (another commit, whose diff it prints, or
        // `REV:path`, a file of REV's tree, with or without a patch) must be a commit the
        // refs reach: the history's check covers those.
        let beyond_head = |w: &&Word| w.literal().is_none_or(|t| !head_chain(t) && !head_blob(t));
        let shown: Vec<Word> = if sub == "show" {
            operands.iter().filter(beyond_head).cloned().collect()
        } else {
            Vec::new()
        };
        let shows_diffs = match sub {
            "log" | "whatchanged" => patch,
            "show" => patch || !self.no_patch,
            _ => return Ok(Vec::new()),
        };
        if !shows_diffs {
            return Ok(shown);
        }
        if self.pickaxe {
            return Err(format!(
                "`git {sub}` searches history contents and prints the diffs that match, where a secret removed since is found again"
            ));
        }
        if self.other_refs {
            return Err(format!(
                "`git {sub}` prints diffs of refs beyond the current branch (stashes, reflogs, other branches)"
            ));
        }
        Ok(shown)
    }
}

/// Whether `git SUB OPTION` lists, whatever names follow (they are patterns then): a
/// filter by commit, or annotation lines, makes `git tag` list (`git tag -n9 v1`); a filter
/// by commit or the remote branches make `git branch` list. (`-v`, `--sort`, `--format`
/// and `--column` do not: `git branch -v x` creates `x`.)
fn lists_implied(sub: &str, option: &str) -> bool {
    let filter = matches!(
        option,
        "--contains" | "--no-contains" | "--merged" | "--no-merged" | "--points-at"
    );
    match sub {
        "tag" => filter || option == "-n",
        "branch" => filter || matches!(option, "-a" | "--all" | "-r" | "--remotes"),
        _ => false,
    }
}

#[allow(clippy::too_many_arguments)]
fn subcommand_operands(
    sub: &str,
    kind: Kind,
    mut operands: Vec<Word>,
    pattern_given: bool,
    no_index: bool,
    action: bool,
    action_lists: bool,
    hidden: bool,
    patch: bool,
    e: &mut Effects,
) -> Result<()> {
    let first = operands.first().map(literal).transpose()?;
    match sub {
        "branch" | "tag" if !operands.is_empty() && !action => {
            return Err(format!("`git {sub} NAME` creates or changes a {sub}"));
        }
        "config" => {
            if action_lists {
                return Err(
                    "`git config` listing prints every setting, credentials among them".to_owned(),
                );
            }
            for key in &operands {
                let key = literal(key)?.to_ascii_lowercase();
                // A word without a dot is a subcommand (`get`) or a value pattern, not a key.
                if !key.contains('.') {
                    continue;
                }
                if key.ends_with("url") && !key.starts_with("url.") {
                    // The URL is checked for credentials in the configuration it comes from.
                    e.remote_urls = true;
                    continue;
                }
                if !crate::paths::git_config::credential_free_key(&key) {
                    return Err(format!(
                        "`git config {key}` may print a credential: only keys known to hold none are read"
                    ));
                }
            }
            let first = first.unwrap_or_default();
            let reads = action
                || matches!(first, "get" | "list")
                || (operands.len() == 1
                    && !matches!(
                        first,
                        "edit" | "set" | "unset" | "rename-section" | "remove-section"
                    ));
            if !reads {
                return Err("`git config` with a value changes the configuration".to_owned());
            }
            return Ok(());
        }
        "remote" => {
            return match (first, operands.len()) {
                (None, _) => Ok(()),
                // A remote's URL may carry a token (`https://user:token@host/…`).
                (Some("get-url"), _) => {
                    Err("`git remote get-url` prints a URL that may carry a token".to_owned())
                }
                // Without a name it lists the remotes' names, as `git remote` does.
                (Some("show"), 1) => Ok(()),
                (Some("show"), _) => Err("`git remote show` contacts the remote".to_owned()),
                _ => Err("`git remote` with a subcommand changes or contacts remotes".to_owned()),
            };
        }
        "clean" if !action => {
            return Err("`git clean` deletes files unless it is a dry run (`-n`)".to_owned());
        }
        "stash" if !matches!(first, Some("list" | "show")) => {
            return Err("`git stash` changes the work tree unless it lists or shows".to_owned());
        }
        "reflog" if matches!(first, Some("expire" | "delete" | "drop" | "write")) => {
            return Err("`git reflog` expire/delete discards history".to_owned());
        }
        "symbolic-ref" if operands.len() > 1 => {
            return Err("`git symbolic-ref NAME REF` changes a reference".to_owned());
        }
        "notes" if !matches!(first, Some("list" | "show")) => {
            return Err("`git notes` changes notes unless it lists or shows them".to_owned());
        }
        // The files whose contents it reads.
        "hash-object" => e.reads.append(&mut operands),
        // `git blame [REV] [--] FILE`, `git blame [--] FILE REV`, `git annotate` alike: every
        // line of FILE as REV holds it. Which word is the revision git decides by what it
        // names (the last, if it is a revision): both readings are judged, each file read
        // from the objects (`REV:./FILE`) as well as the work tree's.
        "blame" | "annotate" if operands.len() > 1 => {
            let [a, b] = operands.as_slice() else {
                return Err(format!(
                    "`git {sub}` is given more than a revision and a file"
                ));
            };
            let (Some(a), Some(b)) = (a.literal(), b.literal()) else {
                return Err(format!(
                    "`git {sub}` is given a revision or file only known when it runs"
                ));
            };
            for (rev, file) in [(a, b), (b, a)] {
                // Not a range (`A..B`, `^A`, `A^!`, `A^@`, `A^-1`), a reflog entry (`@{1}`)
                // or a file of a tree.
                if rev.contains("..")
                    || rev.starts_with(['^', '-'])
                    || rev.contains([':', '!', '@'])
                    || rev.contains("^-")
                {
                    return Err(format!(
                        "`git {sub}` is given `{rev}`, a range or not a revision"
                    ));
                }
                let file_in_rev = file.strip_prefix("./").unwrap_or(file);
                e.objects.push(Word::literal_text(file));
                e.objects
                    .push(Word::literal_text(format!("{rev}:./{file_in_rev}")));
            }
            return Ok(());
        }
        "worktree" if first != Some("list") => {
            return Err("`git worktree` changes worktrees unless it lists them".to_owned());
        }
        _ => {}
    }
    match kind {
        Kind::None if !operands.is_empty() => Err(format!("`git {sub}` takes no operand")),
        Kind::None | Kind::Text => Ok(()),
        Kind::Meta => {
            e.meta.extend(operands);
            Ok(())
        }
        // `git diff --no-index A B` compares two files or two directories of the file system
        // (every file below them, hidden and ignored ones too): trees read whole.
        Kind::Objects if no_index => {
            e.trees
                .extend(operands.into_iter().map(|w| super::Tree::whole(w, false)));
            Ok(())
        }
        // A log without patches names commits, not contents: its pathspecs are looked at.
        Kind::Objects if !patch && matches!(sub, "log" | "whatchanged" | "shortlog") => {
            e.meta.extend(operands);
            Ok(())
        }
        Kind::Objects => {
            e.objects.extend(operands);
            Ok(())
        }
        Kind::Grep => {
            if !pattern_given && !operands.is_empty() {
                operands.remove(0);
            }
            if operands.is_empty() {
                operands.push(Word::literal_text("."));
            }
            for spec in operands {
                // A pathspec read as git reads it: a glob's directory, narrowed by name only
                // when every path it matches ends with that name.
                let (root, names) = match spec.literal() {
                    Some(t) => {
                        let (root, names) = pathspec_tree(t)?;
                        (Word::literal_text(root), names.map(str::to_owned))
                    }
                    None => (spec, None),
                };
                e.trees.push(super::Tree {
                    // Without `--untracked` or `--no-index`, only tracked files are searched.
                    tracked: !hidden,
                    names: names.into_iter().collect(),
                    ..super::Tree::whole(root, false)
                });
            }
            Ok(())
        }
    }
}

/// The tree a git pathspec (used in the working directory) reads, and the name filter that
/// narrows it, if any. Git matches a glob pathspec against the whole path, a `*` or `?`
/// crossing `/`: the tree is the literal directory before the first wildcard, narrowed only
/// by a last component `*SUFFIX` with a plain suffix (`*.rs`), which every path it matches
/// ends with. A pathspec with magic (`:(exclude)`, `:!`, `:(icase)`, `:/`, the top of the
/// repository) or a backslash escape is not modeled.
///
/// # Errors
///
/// Why the pathspec is not modeled.
pub(crate) fn pathspec_tree(spec: &str) -> Result<(&str, Option<&str>)> {
    if spec.starts_with(':') || spec.contains('\\') {
        return Err(format!(
            "its pathspec `{spec}` uses git's magic or escapes, which the policy does not model"
        ));
    }
    let Some(wild) = spec.find(['*', '?', '[']) else {
        return Ok((spec, None));
    };
    let root = spec[..wild].rfind('/').map_or(".", |cut| &spec[..cut]);
    let last = spec.rsplit('/').next().unwrap_or(spec);
    let plain_suffix = last
        .strip_prefix('*')
        // Git reads braces as text, the walk's matcher as alternatives: none may be read.
        .is_some_and(|suffix| !suffix.contains(['*', '?', '[', ']', '{', '}']));
    Ok((
        if root.is_empty() { "/" } else { root },
        plain_suffix.then_some(last),
    ))
}

/// Whether the path `t` may lie outside the repository git runs in: absolute, from the home
/// (`~`), or climbing out through `..`. Given one such operand, `git diff` compares two
/// paths of the file system.
pub(crate) fn outside_repository(t: &str) -> bool {
    t.starts_with('/') || t.starts_with('~') || t.split('/').any(|c| c == "..")
}

/// Whether `git diff ARGS` may compare two paths of the file system as `--no-index` does:
/// git reads its arguments up to the first that is not an option (or past `--`), and when
/// exactly two words are left and one of them is a path outside the repository (`git diff
/// -- /etc/passwd README.md`, `git diff --stat ~/.bashrc x`), it diffs the two paths. A word
/// that may lie outside (absolute, `~`, `..`, only known when it runs) makes the two words
/// such paths.
fn implicit_no_index(args: &[Word]) -> bool {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        match w.literal() {
            Some("--") => {
                i += 1;
                break;
            }
            Some(t) if t.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let [a, b] = &args[i.min(args.len())..] else {
        return false;
    };
    let elsewhere = |w: &Word| w.literal().is_none_or(outside_repository);
    elsewhere(a) || elsewhere(b)
}

/// Whether a `--format`/`--pretty` of git verifies signatures, which runs `gpg.program` (or
/// `ssh-keygen`): `%G?`, `%GS`, … of `log`, `%(signature…)` of `for-each-ref`, `branch`, `tag`.
pub(crate) fn verifies_signatures(format: &str) -> bool {
    format.contains("%G") || format.contains("%(signature")
}

/// Whether a ref-filter `--format` (`for-each-ref`, `branch`, `tag`) prints the objects the
/// refs name whole: `%(raw)` or `%(*raw)` (`%(raw:size)` is a size), which for a ref naming a
/// blob is the file it holds, as `git cat-file -p REF` prints it.
pub(crate) fn prints_raw_objects(format: &str) -> bool {
    format.split("%(").skip(1).any(|atom| {
        let atom = atom.split(')').next().unwrap_or(atom);
        let atom = atom.strip_prefix('*').unwrap_or(atom);
        atom.split(':').next() == Some("raw") && atom != "raw:size"
    })
}

#[cfg(test)]
mod tests {
    use super::{head_chain, pathspec_tree, printed_revision};

    #[test]
    fn a_pathspec_is_read_as_git_reads_it() {
        for spec in [
            r"\.env",
            r".e\nv",
            ":/",
            ":(top)",
            ":!*.md",
            ":^README.md",
            ":(exclude)*.md",
            ":(glob).e?v",
            ":(icase).ENV",
            ":(literal).env",
            ":(attr:x)",
        ] {
            assert!(pathspec_tree(spec).is_err(), "{spec}");
        }
        assert_eq!(pathspec_tree("src"), Ok(("src", None)));
        assert_eq!(pathspec_tree("*.rs"), Ok((".", Some("*.rs"))));
        assert_eq!(pathspec_tree("src/*.rs"), Ok(("src", Some("*.rs"))));
        // A `*` or `?` crosses `/`: `s*` matches `src/.env`.
        assert_eq!(pathspec_tree("s*"), Ok((".", None)));
        assert_eq!(pathspec_tree("src/a*"), Ok(("src", None)));
        assert_eq!(pathspec_tree("*env"), Ok((".", Some("*env"))));
        assert_eq!(pathspec_tree("*.e?v"), Ok((".", None)));
        assert_eq!(pathspec_tree("[.]env"), Ok((".", None)));
        assert_eq!(pathspec_tree("*.{rs,env}"), Ok((".", None)));
    }

    #[test]
    fn formats_printing_objects_whole_are_found() {
        use super::prints_raw_objects;
        for f in [
            "%(raw)",
            "%(refname) %(*raw)",
            "%(if)%(raw)%(then)x%(end)",
            "%(raw:x)",
        ] {
            assert!(prints_raw_objects(f), "{f}");
        }
        for f in [
            "%(raw:size)",
            "%(refname) %(subject)",
            "raw",
            "%(objectname) raw",
        ] {
            assert!(!prints_raw_objects(f), "{f}");
        }
    }

    #[test]
    fn only_head_and_its_ancestors_are_the_current_branch() {
        for t in [
            "HEAD", "@", "HEAD~2", "HEAD^", "HEAD^2~3", "@~1", "HEAD^!", "HEAD^@", "HEAD^-1",
        ] {
            assert!(head_chain(t), "{t}");
        }
        for t in [
            "main",
            "HEADX",
            "HEAD@{1}",
            "HEAD:src",
            "old~1",
            "FETCH_HEAD",
            "ORIG_HEAD",
            "4b825dc",
            "HEAD~x",
        ] {
            assert!(!head_chain(t), "{t}");
        }
    }

    #[test]
    fn only_commands_that_print_a_revisions_ids_stand_for_it() {
        for (args, rev) in [
            ("rev-parse HEAD~2", "HEAD~2"),
            ("rev-parse --verify -q v1.0", "v1.0"),
            ("rev-list -n1 v0.1.0", "v0.1.0"),
            ("rev-list -n 3 --first-parent main", "main"),
            ("rev-list HEAD -3", "HEAD"),
            ("rev-list --max-count=2 feature/x", "feature/x"),
            ("merge-base main feature/x", "main"),
            ("log --format=%H -3", "HEAD"),
            ("log --pretty=format:%H -n 2 main", "main"),
            ("log --format=tformat:%H --no-merges HEAD^2", "HEAD^2"),
        ] {
            let words: Vec<&str> = args.split(' ').collect();
            assert_eq!(printed_revision(&words).as_deref(), Some(rev), "{args}");
        }
        for args in [
            "rev-parse HEAD:.env",
            "rev-parse --short HEAD",
            "rev-parse --short=8 HEAD",
            "log --format=%h -3",
            "rev-parse HEAD@{1}",
            "rev-parse :/fix",
            "rev-parse HEAD^{tree}",
            "rev-parse --symbolic HEAD",
            "rev-parse --show-toplevel",
            "rev-parse --git-dir",
            "rev-parse A B",
            "rev-parse ^HEAD",
            "rev-parse -- HEAD",
            "rev-list --all -n1",
            "rev-list --objects HEAD",
            "rev-list --count HEAD",
            "rev-list main..topic",
            "rev-list -n x HEAD",
            "rev-list",
            "log --format=%h --all",
            "log --format=%H -g",
            "log --format=%s",
            "log --format=%H%n%B",
            "log HEAD",
            "log --format=%h --reflog",
            "merge-base --octopus a b",
            "merge-base a",
            "describe --tags --abbrev=0",
            "tag",
            "branch --format=%(refname:short)",
        ] {
            let words: Vec<&str> = args.split(' ').collect();
            assert_eq!(printed_revision(&words), None, "{args}");
        }
    }
}
