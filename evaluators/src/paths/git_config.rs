//! A repository's configuration files, read for what a call could print from them:
//! credentials.
//!
//! `**/.git/config` is a secret by name, because remote URLs may carry a token
//! (`https://user:TOKEN@host/…`), `http.extraheader` an `Authorization` header (CI checkouts
//! write one), and other keys passwords (`sendemail.smtppass`, a tool's `oauthtoken`); so are
//! the other configurations git keeps under `.git` (`config.worktree`, a submodule clone's
//! `.git/modules/…/config`, a linked worktree's `.git/worktrees/…/config.worktree`). Nothing
//! else under `.git` is: git strips credentials from the URLs it writes to `FETCH_HEAD` and
//! the reflogs, objects are compressed (a text search does not read a secret committed
//! earlier out of them; printing history is judged on its own), and hooks are code, not
//! secrets. So a search over a tree that holds such a file reads a credential only when that
//! file may hold one: when it is proven not to (a plain file that can be read, in the strict
//! subset of git's language [`unproven`] reads), the search is not a secret read. A command
//! that names the file itself is still judged by its name.

use std::path::{Path, PathBuf};

/// The sections a configuration proven to hold no credential may have, and their keys (as
/// git spells them lower-cased). Any other section (`include`, `includeIf`, `http`, `url`,
/// `credential`, `sendemail`, a tool's own) or key may hold or pull in a credential.
const KNOWN_KEYS: &[(&str, &[&str])] = &[
    (
        "core",
        &[
            "repositoryformatversion",
            "filemode",
            "bare",
            "logallrefupdates",
            "ignorecase",
            "precomposeunicode",
            "symlinks",
            "autocrlf",
            "safecrlf",
            "eol",
            "longpaths",
            "quotepath",
            "sharedrepository",
            "checkstat",
            "trustctime",
            "untrackedcache",
            "preloadindex",
            "fscache",
            "commitgraph",
            "worktree",
        ],
    ),
    (
        "remote",
        &[
            "url",
            "pushurl",
            "fetch",
            "push",
            "tagopt",
            "prune",
            "prunetags",
            "mirror",
            "promisor",
            "partialclonefilter",
            "skipdefaultupdate",
            "skipfetchall",
        ],
    ),
    (
        "branch",
        &["remote", "merge", "rebase", "pushremote", "description"],
    ),
    (
        "submodule",
        &["url", "active", "update", "branch", "shallow"],
    ),
    ("user", &["name", "email"]),
    ("init", &["defaultbranch"]),
    ("pull", &["rebase", "ff"]),
    ("push", &["default", "autosetupremote", "followtags"]),
    ("fetch", &["prune", "prunetags", "recursesubmodules"]),
    (
        "extensions",
        &[
            "worktreeconfig",
            "objectformat",
            "refstorage",
            "partialclone",
        ],
    ),
    ("gc", &["auto", "autodetach"]),
    ("lfs", &["repositoryformatversion"]),
    ("maintenance", &["auto", "strategy"]),
];

/// Keys whose value is a URL, which may carry `user:token@` or `?access_token=`.
const URL_KEYS: &[&str] = &["url", "pushurl"];

/// The text of a repository configuration file, lower-cased; `None` when there is none, an
/// error naming the file when it cannot be read, is not a regular file or is longer than
/// [`super::small_file::MAX_SMALL_FILE_BYTES`].
///
/// # Errors
///
/// Why the file cannot be read, in words.
pub(crate) fn read(path: &Path) -> Result<Option<String>, String> {
    super::small_file::read_text(path).map(|t| t.map(|t| t.to_ascii_lowercase()))
}

/// Why a configuration text (lower-cased) may hold a credential, if it may. Git's
/// configuration language is not modeled in full: the text is clean only when every line is
/// blank, a comment, a section header alone on its line (`[section]`, `[section "sub"]`) of
/// a section in [`KNOWN_KEYS`], or `key = value` (or a bare `key`) of a key known for its
/// section, with no continuation (`\` at the end), and every URL value names no user (`@`)
/// and no query (`?`). Anything else (`include`, a key on the header's line, a section of a
/// tool, a quoted or escaped URL) counts as a credential.
pub(super) fn unproven(text: &str) -> Option<&'static str> {
    walk(text, Keys::Known(&[KNOWN_KEYS]), |e| {
        let key = e.key?;
        (URL_KEYS.contains(&key) && e.value.is_none_or(url_may_hold_credential))
            .then_some("a URL that may carry a credential")
    })
}

/// Which keys [`walk`] reads.
#[derive(Clone, Copy)]
enum Keys<'a> {
    /// Only those listed for their section (section and key names compared lower-cased):
    /// any other section or key ends the reading.
    Known(&'a [&'a [(&'a str, &'a [&'a str])]]),
    /// Every section and key, each reported.
    Any,
}

/// One line [`walk`] reports: a section header (`key` is `None`) or a key of a section.
struct Entry<'e> {
    /// The section's name, lower-cased.
    section: &'e str,
    /// The subsection (`[section "sub"]`, `[section.sub]`), unquoted, as written.
    sub: Option<&'e str>,
    /// The key's name, lower-cased; `None` for the header itself.
    key: Option<&'e str>,
    /// The value after `=`, trimmed; `None` for a bare key (boolean true) or a header.
    value: Option<&'e str>,
}

/// Reads a configuration text in the strict subset of git's language [`unproven`]
/// describes (blank lines, comments, section headers alone on their line whose subsection
/// is plain or plainly quoted, `key [= value]` lines with no continuation), giving every
/// header and key to `each`, whose answer, if any, ends the reading. With [`Keys::Known`],
/// a section or key not listed ends it too. The answer is why the text is not in the subset
/// or what `each` found.
fn walk(
    text: &str,
    keys: Keys<'_>,
    mut each: impl FnMut(&Entry<'_>) -> Option<&'static str>,
) -> Option<&'static str> {
    let known_section = |name: &str| match keys {
        Keys::Known(known) => known.iter().any(|t| t.iter().any(|(s, _)| *s == name)),
        Keys::Any => true,
    };
    let known_key = |section: &str, key: &str| match keys {
        Keys::Known(known) => known.iter().any(|t| {
            t.iter()
                .any(|(s, keys)| *s == section && keys.contains(&key))
        }),
        Keys::Any => true,
    };
    let lenient = matches!(keys, Keys::Any);
    let mut section: Option<(String, Option<String>)> = None;
    let mut lines = text.lines();
    while let Some(first) = lines.next() {
        let mut logical = std::borrow::Cow::Borrowed(first);
        // A value continued on the next line (an odd run of `\` ends the line): joined in
        // the lenient reading, which git does, and refused in the strict one.
        while (logical.len() - logical.trim_end_matches('\\').len()) % 2 == 1 {
            if !lenient {
                return Some("a line that continues on the next");
            }
            let mut joined = logical.into_owned();
            joined.pop();
            joined.push_str(lines.next().unwrap_or_default());
            logical = joined.into();
        }
        let mut line = logical.trim_matches([' ', '\t', '\r']);
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        if line.ends_with('\\') {
            return Some("a line that continues on the next");
        }
        if let Some(header) = line.strip_prefix('[') {
            // Git reads a key after the header on the same line: so does the lenient reading.
            let Some((header, rest)) = header.split_once(']') else {
                return Some("a section header that is not closed");
            };
            let rest = rest.trim_start_matches([' ', '\t']);
            if !rest.is_empty() && !rest.starts_with(['#', ';']) && !lenient {
                return Some("a section header with more on its line");
            }
            let (name, sub) = match header.split_once([' ', '.']) {
                Some((name, sub)) => (name, Some(sub.trim_start())),
                None => (header, None),
            };
            let sub = match sub {
                None => None,
                Some(sub) => match plain_subsection(sub) {
                    Some(sub) => Some(sub),
                    None => return Some("a section header that is not plain"),
                },
            };
            let name = name.to_ascii_lowercase();
            if !known_section(&name) {
                return Some("a section that may hold or include a credential");
            }
            let entry = Entry {
                section: &name,
                sub,
                key: None,
                value: None,
            };
            if let Some(found) = each(&entry) {
                return Some(found);
            }
            section = Some((name, sub.map(str::to_owned)));
            if rest.is_empty() || rest.starts_with(['#', ';']) {
                continue;
            }
            line = rest;
        }
        let (key, value) = match line.split_once('=') {
            Some((key, value)) => (key.trim_end(), Some(value.trim())),
            None => (line, None),
        };
        let key = key.to_ascii_lowercase();
        let name_ok = key.starts_with(|c: char| c.is_ascii_alphabetic())
            && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        let Some((name, sub)) = section.as_ref() else {
            return Some("a key outside any section");
        };
        if !name_ok || !known_key(name, &key) {
            return Some("a key that may hold a credential");
        }
        let entry = Entry {
            section: name,
            sub: sub.as_deref(),
            key: Some(&key),
            value,
        };
        if let Some(found) = each(&entry) {
            return Some(found);
        }
    }
    None
}

/// A subsection as written after the section's name, unquoted, when it is plain: quoted with
/// no quote, escape or bracket inside, or unquoted letters, digits, `-` and `_`.
fn plain_subsection(sub: &str) -> Option<&str> {
    if let Some(inner) = sub.strip_prefix('"').and_then(|s| s.strip_suffix('"')) {
        return (!inner.contains(['"', '\\', ']', '['])).then_some(inner);
    }
    sub.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
        .then_some(sub)
}

/// Keys that run nothing and read nothing outside the repository, besides [`KNOWN_KEYS`]
/// (whose `core.worktree`, `core.hooksPath` and partial-clone keys are told apart by
/// [`program_free`]): what repositories commonly set, CI checkouts' `http.extraHeader` and
/// the marks GitHub's CLI and editors leave on remotes and branches among them. The editor
/// and signing keys (`core.editor`, `sequence.editor`, `commit.gpgSign`) name programs run
/// only by commands that write (commit, rebase, tag), which are never taken to only read. Keys that name a program (`core.fsmonitor`, `core.pager`, `diff.external`,
/// `diff.<driver>.textconv`, `filter.*`, `credential.helper`, `core.sshCommand`,
/// `core.gitProxy`, `remote.<name>.uploadpack`/`receivepack`/`vcs`), enable one
/// (`protocol.<name>.allow`, `log.showSignature`), rewrite URLs (`url.<base>.insteadOf`),
/// read files outside the repository (`core.excludesFile`, `core.attributesFile`) or load
/// another configuration (`include.path`) are not among them.
const PROGRAM_FREE_KEYS: &[(&str, &[&str])] = &[
    (
        "core",
        &[
            "hookspath",
            "sparsecheckout",
            "sparsecheckoutcone",
            "splitindex",
            "abbrev",
            "whitespace",
            "compression",
            "fsmonitorhookversion",
            "multipackindex",
            "editor",
        ],
    ),
    ("sequence", &["editor"]),
    ("commit", &["gpgsign"]),
    ("tag", &["gpgsign"]),
    ("gpg", &["format"]),
    ("remote", &["gh-resolved"]),
    (
        "branch",
        &[
            "gh-merge-base",
            "vscode-merge-base",
            "github-pr-owner-number",
        ],
    ),
    (
        "http",
        &[
            "extraheader",
            "sslverify",
            "postbuffer",
            "version",
            "lowspeedlimit",
            "lowspeedtime",
        ],
    ),
    // Not `submodule.recurse`: `git grep` and `git diff` then read the submodules' files too,
    // which the checks of the repository's own files do not see.
    ("submodule", &["ignore"]),
    ("user", &["signingkey"]),
    ("lfs", &["access", "locksverify"]),
    ("protocol", &["version"]),
    ("gui", &["wmstate", "geometry"]),
    (
        "diff",
        &[
            "algorithm",
            "renames",
            "renamelimit",
            "colormoved",
            "mnemonicprefix",
        ],
    ),
    ("merge", &["conflictstyle", "ff"]),
    ("rebase", &["autosquash", "autostash", "updaterefs"]),
    (
        "status",
        &["showuntrackedfiles", "relativepaths", "short", "branch"],
    ),
    ("log", &["date", "decorate", "abbrevcommit"]),
    ("color", &["ui"]),
    ("index", &["version", "skiphash"]),
    ("feature", &["manyfiles"]),
    ("fetch", &["writecommitgraph"]),
];

/// What a repository configuration proven to name no program sets that tells where git
/// reads from: checked by the caller.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct RepoSettings {
    /// `core.worktree`, as written (relative to the repository's git directory).
    pub(crate) worktree: Option<String>,
    /// `core.hooksPath`, as written (relative to the work tree's top).
    pub(crate) hooks_path: Option<String>,
    /// Whether it is a partial clone (`extensions.partialClone`, a promisor remote, a
    /// remote's `partialCloneFilter`): git then fetches missing objects from the remote when
    /// a command reads them.
    pub(crate) partial_clone: bool,
    /// Whether object names are SHA-256 (`extensions.objectFormat = sha256`).
    pub(crate) sha256: bool,
    /// Whether it names an editor (`core.editor`, `sequence.editor`): a program commands that
    /// write run for a message or a todo list (`git commit` without `-m`, `git tag -a`).
    pub(crate) editor: bool,
    /// Whether it makes commits or tags signed, or names how (`commit.gpgSign`,
    /// `tag.gpgSign`, `gpg.format`, `user.signingKey`): commands that write then run gpg or
    /// `ssh-keygen` with a key the configuration may name outside the workspace.
    pub(crate) signing: bool,
}

/// What the repository configuration `text` (as written, not lower-cased) sets, when every
/// key is one known to run no program ([`KNOWN_KEYS`], [`PROGRAM_FREE_KEYS`]); else why it
/// may run one. A path value (`core.worktree`, `core.hooksPath`) that is quoted, escaped or
/// commented is not read.
///
/// # Errors
///
/// Why the configuration may make git run a program, in words.
pub(crate) fn program_free(text: &str) -> Result<RepoSettings, &'static str> {
    let mut settings = RepoSettings::default();
    let found = walk(text, Keys::Known(&[KNOWN_KEYS, PROGRAM_FREE_KEYS]), |e| {
        let (section, Some(key), value) = (e.section, e.key, e.value) else {
            return None;
        };
        match (section, key) {
            ("core", "worktree" | "hookspath") => {
                let Some(v) = value.filter(|v| !v.is_empty() && !v.contains(['"', '\\', '#', ';']))
                else {
                    return Some("a path that is not read here");
                };
                let slot = if key == "worktree" {
                    &mut settings.worktree
                } else {
                    &mut settings.hooks_path
                };
                *slot = Some(v.to_owned());
            }
            ("remote", "promisor" | "partialclonefilter") | ("extensions", "partialclone") => {
                settings.partial_clone = true;
            }
            ("extensions", "objectformat") => {
                settings.sha256 = value.is_some_and(|v| v.eq_ignore_ascii_case("sha256"));
            }
            ("core" | "sequence", "editor") => settings.editor = true,
            ("commit" | "tag", "gpgsign") | ("gpg", "format") | ("user", "signingkey") => {
                settings.signing = true;
            }
            _ => {}
        }
        None
    });
    match found {
        Some(why) => Err(match why {
            "a key that may hold a credential" => "a key that may name a program",
            "a section that may hold or include a credential" => {
                "a section that may name a program or include another file"
            }
            other => other,
        }),
        None => Ok(settings),
    }
}

/// The `core.hooksPath` values of the configurations git reads besides the repository's
/// own ([`outer_configs`]) and of every file they include (`include.path`,
/// `includeIf.<condition>.path`, whatever the condition), as written. A missing file is
/// read as empty. Those configurations are the person's and are trusted: they are protected
/// configuration, which no call writes, and so is git's configuration directory
/// (`$XDG_CONFIG_HOME/git`, `~/.config/git`). A file they include from anywhere else (the
/// workspace, `~/.gitconfig.local`, a dotfiles checkout) is one a call may write: it must
/// name no program ([`program_free`]), as the repository's own configuration.
///
/// # Errors
///
/// A file that cannot be read, an include whose path is not read here, includes nested
/// too deep, or an included file a call may write that may make git run a program.
pub(crate) fn outer_hooks_paths(home: Option<&Path>) -> Result<Vec<String>, String> {
    outer_hooks_paths_in(home, &process_var)
}

/// The most configuration entries `GIT_CONFIG_COUNT` may give that are read.
const MAX_ENV_ENTRIES: usize = 100;

/// [`outer_hooks_paths`] with the variables `var` gives. A file `GIT_CONFIG_GLOBAL` or
/// `GIT_CONFIG_SYSTEM` names is the person's only where their own configuration is
/// (`~/.gitconfig`, `/etc/gitconfig`, git's configuration directory); anywhere else (the
/// workspace) a call may write it, and it must name no program, as a file included from
/// there. Entries the environment gives (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>`,
/// `GIT_CONFIG_VALUE_<n>`) are the person's: their `core.hooksPath` counts and the files
/// their `include.path` names are read as included files.
fn outer_hooks_paths_in(home: Option<&Path>, var: Vars<'_>) -> Result<Vec<String>, String> {
    let mut named = Named::default();
    for file in outer_configs_in(home, var) {
        hooks_paths_in(&file, home, 0, false, &mut named)?;
    }
    let Named {
        hooks: mut found,
        mut included,
        ..
    } = named;
    for name in ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"] {
        included.extend(var(name).map(PathBuf::from));
    }
    if let Some(count) = var("GIT_CONFIG_COUNT") {
        let count = count
            .to_str()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .filter(|c| *c <= MAX_ENV_ENTRIES)
            .ok_or("`GIT_CONFIG_COUNT` is not a count read here")?;
        for i in 0..count {
            let (Some(key), Some(value)) = (
                var(&format!("GIT_CONFIG_KEY_{i}")),
                var(&format!("GIT_CONFIG_VALUE_{i}")),
            ) else {
                return Err(format!("`GIT_CONFIG_KEY_{i}` or its value is missing"));
            };
            let key = key.to_string_lossy().to_ascii_lowercase();
            let value = value.to_string_lossy().into_owned();
            if key == "core.hookspath" {
                found.push(value);
            } else if key.starts_with("include") && key.ends_with(".path") {
                let file = match value.strip_prefix("~/") {
                    Some(rest) => home.ok_or("`~` without a home directory")?.join(rest),
                    None => PathBuf::from(&value),
                };
                included.push(file.clone());
                let mut more = Named::default();
                hooks_paths_in(&file, home, 1, false, &mut more)?;
                found.extend(more.hooks);
                included.extend(more.included);
            }
        }
    }
    let person = [
        home.map(|h| h.join(".gitconfig")),
        Some(PathBuf::from("/etc/gitconfig")),
    ];
    let person: Vec<PathBuf> = person
        .into_iter()
        .flatten()
        .filter_map(|p| super::watch::canonicalize(&p).ok())
        .collect();
    let var = var("XDG_CONFIG_HOME");
    let git_dir = match (var, home) {
        (Some(xdg), _) => Some(Path::new(&xdg).join("git")),
        (None, Some(home)) => Some(home.join(".config/git")),
        (None, None) => None,
    };
    let git_dir = git_dir.map(|d| super::watch::canonicalize(&d).unwrap_or(d));
    for file in included {
        // A missing file reads as empty; a call creating it is judged when git next runs.
        let Ok(real) = super::watch::canonicalize(&file) else {
            continue;
        };
        if git_dir.as_ref().is_some_and(|d| real.starts_with(d)) || person.contains(&real) {
            continue;
        }
        let text = super::small_file::read_text(&real)?.unwrap_or_default();
        if let Err(why) = program_free(&text) {
            return Err(format!(
                "`{}`, which the user's git configuration includes or the environment names, is a file a call may write, and holds {why}",
                file.display()
            ));
        }
    }
    Ok(found)
}

/// What a configuration file and the files it includes name ([`hooks_and_includes`]).
#[derive(Debug, Default)]
pub(crate) struct Named {
    /// The `core.hooksPath` values, as written.
    pub(crate) hooks: Vec<String>,
    /// The files included, as named (relative ones joined to the directory of the file
    /// including them).
    pub(crate) included: Vec<PathBuf>,
    /// The files credentials are kept in: a credential helper's `--file` (`store --file F`,
    /// `netrc -f F`) and `http.cookieFile`, `~/` joined to the home; a relative one is
    /// relative to the directory git runs in. Also what `core.askPass` runs (a script that
    /// prints a password), `http.sslKey`'s key and `user.signingKey`'s when a path.
    pub(crate) stores: Vec<PathBuf>,
    /// The command lines of the keys that name a program git runs by itself
    /// ([`program_key`]: `core.fsmonitor`, a diff driver's `textconv`, a filter's `clean`,
    /// an alias's `!…`), as written.
    pub(crate) programs: Vec<String>,
}

/// Whether the key `key` of `section` names a program git runs by itself, as a command
/// line: `core.fsmonitor` (every `git status`), `core.pager`, `core.editor`,
/// `core.sshCommand`, `diff.external`, a diff driver's `textconv` or `command`, a filter's
/// `clean`, `smudge` or `process`, a merge driver, `gpg.program`, a tool's `cmd`, a pager,
/// a credential helper, `uploadpack.packObjectsHook`, an alias (a `!` one runs a shell).
pub(crate) fn program_key(section: &str, key: &str) -> bool {
    matches!(section, "alias" | "pager")
        || matches!(
            key,
            "fsmonitor"
                | "pager"
                | "editor"
                | "sshcommand"
                | "external"
                | "textconv"
                | "command"
                | "clean"
                | "smudge"
                | "process"
                | "driver"
                | "program"
                | "cmd"
                | "helper"
                | "packobjectshook"
        )
}

/// What the configuration file `config` (a repository's own) and every file it includes
/// (`include.path`, `includeIf.<condition>.path`, whatever the condition) set git to use:
/// the `core.hooksPath` values, the included files and the files credentials are kept in
/// ([`Named`]). A missing file is read as empty.
///
/// # Errors
///
/// A file that cannot be read, an include whose path is not read here, or includes nested
/// too deep.
pub(crate) fn hooks_and_includes(config: &Path, home: Option<&Path>) -> Result<Named, String> {
    let mut named = Named::default();
    hooks_paths_in(config, home, 0, false, &mut named)?;
    Ok(named)
}

/// What [`hooks_and_includes`] finds, read leniently: an entry or an include that cannot be
/// read is passed over and the reading goes on, so that everything the configuration names
/// that can be read still counts (a file as long as [`LENIENT_BYTES`] among them).
pub(crate) fn named_so_far(config: &Path, home: Option<&Path>) -> Named {
    let mut named = Named::default();
    // The error only says where a reading stopped; what it found is kept.
    let _stopped = hooks_paths_in(config, home, 0, true, &mut named);
    named
}

/// The most bytes of a configuration file read leniently ([`named_so_far`]).
const LENIENT_BYTES: u64 = 16 * 1024 * 1024;

/// The files a credential helper's command line (`store --file=F`, `store --file F`,
/// `netrc -f F`, `netrc --file F`) keeps credentials in, as written (quotes removed).
fn helper_files(helper: &str) -> Vec<&str> {
    let words: Vec<&str> = helper
        .split_whitespace()
        .map(|w| w.trim_matches(['"', '\'']))
        .collect();
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if let Some(v) = w.strip_prefix("--file=") {
            out.push(v);
        } else if matches!(*w, "--file" | "-f")
            && let Some(v) = words.get(i + 1)
        {
            out.push(*v);
        } else if let Some(v) = w.strip_prefix("-f").filter(|v| !v.is_empty()) {
            out.push(v);
        }
    }
    out.retain(|v| !v.is_empty());
    out
}

/// The most nested includes followed by [`outer_hooks_paths`].
const MAX_INCLUDE_DEPTH: usize = 8;

fn hooks_paths_in(
    file: &Path,
    home: Option<&Path>,
    depth: usize,
    lenient: bool,
    named: &mut Named,
) -> Result<(), String> {
    let reading = Reading {
        home,
        lower: false,
        unproven: "is not read here",
        lenient,
    };
    let (hooks, stores, programs) = (&mut named.hooks, &mut named.stores, &mut named.programs);
    let mut store = |written: &str| {
        stores.push(match (written.strip_prefix("~/"), home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => PathBuf::from(written),
        });
    };
    let mut each = |e: &Entry<'_>| {
        // An alias runs a shell only when it starts with `!` (else it is git's own words).
        if let (Some(key), Some(value)) = (e.key, e.value)
            && program_key(e.section, key)
            && (e.section != "alias" || value.trim_start().starts_with('!'))
        {
            programs.push(value.to_owned());
        }
        match (e.section, e.key) {
            ("core", Some("hookspath")) => match e.value.and_then(plain_path) {
                Some(value) => hooks.push(value.to_owned()),
                None => return Some("a path that is not read here"),
            },
            ("credential", Some("helper")) => {
                for f in helper_files(e.value.unwrap_or_default()) {
                    store(f);
                }
            }
            ("http", Some("cookiefile" | "sslkey")) | ("core", Some("askpass")) => {
                if let Some(value) = e.value.and_then(plain_path) {
                    store(value);
                }
            }
            ("user", Some("signingkey")) => {
                if let Some(value) = e.value.and_then(plain_path).filter(|v| v.contains('/')) {
                    store(value.strip_prefix("key::").unwrap_or(value));
                }
            }
            _ => {}
        }
        None
    };
    let included_files = &mut named.included;
    reading.file(file, depth, &mut each, &mut |f| {
        included_files.push(f.to_path_buf())
    })
}

/// How [`Reading::file`] reads configuration files.
struct Reading<'a> {
    /// The user's home, for includes of `~/…`.
    home: Option<&'a Path>,
    /// Whether the text is lower-cased before it is read ([`read`]).
    lower: bool,
    /// What a file is when an entry's answer or its language stops the reading (`is not
    /// read here`, `may hold a secret`).
    unproven: &'a str,
    /// Whether an entry's answer, an include that cannot be read and a file longer than a
    /// small one are passed over rather than ending the reading.
    lenient: bool,
}

impl Reading<'_> {
    /// Reads the configuration `file` (nested `depth` includes deep) and, after it, each file
    /// it includes (`include.path`, `includeIf.<condition>.path`, whatever the condition),
    /// giving `each` every other entry ([`walk`], leniently) and `included` every file
    /// included. A missing file is read as empty.
    ///
    /// # Errors
    ///
    /// A file that cannot be read or is not in git's language as read here, an answer of
    /// `each`, an include whose path is not read here, or includes nested too deep.
    fn file(
        &self,
        file: &Path,
        depth: usize,
        each: &mut dyn FnMut(&Entry<'_>) -> Option<&'static str>,
        included: &mut dyn FnMut(&Path),
    ) -> Result<(), String> {
        if depth > MAX_INCLUDE_DEPTH {
            return Err(format!("`{}` nests includes too deep", file.display()));
        }
        let text = if self.lower {
            read(file)?
        } else if self.lenient {
            super::small_file::read_bytes(file, LENIENT_BYTES)?
                .map(|b| String::from_utf8_lossy(&b).into_owned())
        } else {
            super::small_file::read_text(file)?
        };
        let Some(text) = text else {
            return Ok(());
        };
        let mut includes = Vec::new();
        let why = walk(&text, Keys::Any, |e| {
            if let ("include" | "includeif", Some("path")) = (e.section, e.key) {
                return match e.value.and_then(plain_path) {
                    Some(v) => {
                        includes.push(v.to_owned());
                        None
                    }
                    None if self.lenient => None,
                    None => Some("an include whose path is not read here"),
                };
            }
            each(e).filter(|_| !self.lenient)
        });
        if let Some(why) = why {
            return Err(format!("`{}` {} ({why})", file.display(), self.unproven));
        }
        for value in includes {
            let path = match included_path(file, self.home, &value) {
                Ok(path) => path,
                Err(_) if self.lenient => continue,
                Err(why) => return Err(why),
            };
            included(&path);
            match self.file(&path, depth + 1, each, included) {
                Err(_) if self.lenient => {}
                read => read?,
            }
        }
        Ok(())
    }
}

/// Every definition of the alias `name` (any case) in the configuration files `files` and
/// the files they include (`include.path`, `includeIf.<condition>.path`, whatever the
/// condition), each read as git reads a value (quotes and escapes undone, a comment
/// dropped). Every one counts, not only the last git keeps: an alias defined twice is
/// judged by each definition. A missing file defines none.
///
/// # Errors
///
/// A file that cannot be read, is not in git's configuration language as read here, holds
/// a value of the alias that is not, includes a file whose path is not read here, or nests
/// includes too deep.
pub(crate) fn alias_definitions(
    files: &[PathBuf],
    home: Option<&Path>,
    name: &str,
) -> Result<Vec<String>, String> {
    let name = name.to_ascii_lowercase();
    let mut found = Vec::new();
    let mut each = |e: &Entry<'_>| {
        if (e.section, e.sub, e.key) == ("alias", None, Some(name.as_str())) {
            match e.value.map(git_value) {
                Some(Some(v)) => found.push(v),
                // A bare key is `true`: git runs `git true`.
                None => found.push("true".to_owned()),
                Some(None) => return Some("an alias value that is not read here"),
            }
        }
        None
    };
    let reading = Reading {
        home,
        lower: false,
        unproven: "is not read here",
        lenient: false,
    };
    for file in files {
        reading.file(file, 0, &mut each, &mut |_| {})?;
    }
    Ok(found)
}

/// A value as git reads it (`parse_value`): blanks outside quotes each one space and
/// dropped at either end, `"` toggling quoting, the escapes `\\`, `\"`, `\n`, `\t`, `\b`,
/// and `#` or `;` outside quotes starting a comment; `None` for another escape or an
/// unclosed quote, which git refuses.
fn git_value(raw: &str) -> Option<String> {
    let mut out = String::new();
    let (mut quoted, mut spaces) = (false, 0usize);
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c.is_whitespace() && !quoted {
            spaces += usize::from(!out.is_empty());
            continue;
        }
        if !quoted && (c == '#' || c == ';') {
            break;
        }
        out.extend(std::iter::repeat_n(' ', spaces));
        spaces = 0;
        match c {
            '\\' => out.push(match chars.next()? {
                'n' => '\n',
                't' => '\t',
                'b' => '\u{8}',
                e @ ('\\' | '"') => e,
                _ => return None,
            }),
            '"' => quoted = !quoted,
            c => out.push(c),
        }
    }
    (!quoted).then_some(out)
}

/// The file an include of `file` names (`value`, a plain path): `~/…` below `home`, a
/// relative path beside `file`.
///
/// # Errors
///
/// `~` without a home, or `~USER/…`, which is not read here.
fn included_path(file: &Path, home: Option<&Path>, value: &str) -> Result<PathBuf, String> {
    let unread = || {
        format!(
            "`{}` includes `{value}`, a path not read here",
            file.display()
        )
    };
    if let Some(rest) = value.strip_prefix("~/") {
        Ok(home.ok_or_else(unread)?.join(rest))
    } else if value.starts_with('~') {
        Err(unread())
    } else {
        Ok(file.parent().unwrap_or_else(|| Path::new("/")).join(value))
    }
}

/// A path value as git reads it, when it is plain: wholly quoted with no quote or escape
/// inside, or unquoted with no quote or escape (a comment, `#` or `;`, ends it); never empty.
fn plain_path(value: &str) -> Option<&str> {
    let value = match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(inner) => (!inner.contains(['"', '\\'])).then_some(inner)?,
        None if value.contains(['"', '\\']) => return None,
        None => value
            .split(['#', ';'])
            .next()
            .unwrap_or_default()
            .trim_end_matches([' ', '\t']),
    };
    (!value.is_empty()).then_some(value)
}

/// Whether a URL value may carry a credential: a user (`user:token@host`, in any scheme), a
/// query (`?access_token=…`), or quoting and escapes that are not read here. A scp-like
/// `git@host:path` names only a user.
fn url_may_hold_credential(value: &str) -> bool {
    if value.contains(['"', '\\', '?', '#', ';', '%', ' ', '\t']) {
        return true;
    }
    match value.split_once('@') {
        None => false,
        Some((user, _)) => {
            value.contains("://")
                || !user
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
        }
    }
}

/// Why the repository configuration at `path` may hold a credential, if it may: it holds
/// anything [`unproven`] cannot show is free of one, or cannot be read (not a regular file,
/// longer than [`super::small_file::MAX_SMALL_FILE_BYTES`]).
pub(crate) fn credential(path: &Path) -> Option<String> {
    let text = match read(path) {
        Ok(Some(t)) => t,
        Ok(None) => return None,
        Err(why) => return Some(why),
    };
    unproven(&text).map(|what| format!("`{}` may hold a credential ({what})", path.display()))
}

/// The configuration files git reads besides the repository's own, whose remotes and URL
/// rewrites (`url.<base>.insteadOf`) show in the remote URLs it prints: the global one
/// (`GIT_CONFIG_GLOBAL`, else `~/.gitconfig` and `$XDG_CONFIG_HOME/git/config`, else
/// `~/.config/git/config`) and the system one (`GIT_CONFIG_SYSTEM`, else `/etc/gitconfig`).
/// The variables are the evaluating process's.
pub(crate) fn outer_configs(home: Option<&Path>) -> Vec<std::path::PathBuf> {
    outer_configs_in(home, &process_var)
}

/// An environment variable of the evaluating process, when set and not empty.
fn process_var(name: &str) -> Option<std::ffi::OsString> {
    crate::process_env::non_empty(name).map(std::borrow::Cow::into_owned)
}

/// A reader of environment variables: the process's, or a test's.
type Vars<'a> = &'a dyn Fn(&str) -> Option<std::ffi::OsString>;

/// [`outer_configs`] with the variables `var` gives.
fn outer_configs_in(home: Option<&Path>, var: Vars<'_>) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    match var("GIT_CONFIG_GLOBAL") {
        Some(global) => files.push(global.into()),
        None => {
            if let Some(home) = home {
                files.push(home.join(".gitconfig"));
            }
            match var("XDG_CONFIG_HOME") {
                Some(xdg) => files.push(Path::new(&xdg).join("git/config")),
                None => files.extend(home.map(|h| h.join(".config/git/config"))),
            }
        }
    }
    files.push(var("GIT_CONFIG_SYSTEM").map_or_else(|| "/etc/gitconfig".into(), Into::into));
    files
}

/// Why the remote URLs git prints may carry a credential from the configuration at `path`
/// (a global or system one, which holds much else: only what shows in a remote URL is
/// read), if they may: a remote's `url`/`pushurl` or a `[url "<base>"]` rewrite whose URL
/// [`url_may_hold_credential`], an `include`/`includeIf` (another file), a continued line or
/// a header that is not plain; or the file cannot be read.
pub(crate) fn remote_url_credential(path: &Path) -> Option<String> {
    let text = match read(path) {
        Ok(Some(t)) => t,
        Ok(None) => return None,
        Err(why) => return Some(why),
    };
    let why = walk(&text, Keys::Any, |e| match (e.section, e.key) {
        ("include" | "includeif", _) => Some("an include of another file"),
        ("url", None) if e.sub.is_none_or(url_may_hold_credential) => {
            Some("a URL rewrite to a URL that may carry one")
        }
        ("remote", Some(key))
            if URL_KEYS.contains(&key) && e.value.is_none_or(url_may_hold_credential) =>
        {
            Some("a remote URL that may carry one")
        }
        _ => None,
    });
    why.map(|what| format!("`{}` may put a credential in them ({what})", path.display()))
}

/// Keys (lower case) known to hold no credential, each with whether its value also names
/// no program, path, remote or other file, so that setting it changes nothing git runs. The
/// one list of plain keys: what a call may print ([`credential_free_key`]) and what it may
/// set ([`harmless_to_set`]) both read it.
const PLAIN_KEYS: &[(&str, bool)] = &[
    ("user.name", true),
    ("user.email", true),
    ("init.defaultbranch", true),
    ("pull.rebase", true),
    ("pull.ff", true),
    ("push.default", true),
    ("push.autosetupremote", true),
    ("fetch.prune", true),
    ("merge.conflictstyle", true),
    ("rebase.autosquash", true),
    ("rebase.autostash", true),
    ("diff.algorithm", true),
    ("color.ui", true),
    ("core.autocrlf", true),
    ("core.filemode", true),
    ("core.ignorecase", true),
    ("core.quotepath", true),
    ("advice.detachedhead", true),
    ("tag.sort", false),
    ("commit.gpgsign", false),
    ("tag.gpgsign", false),
    ("gpg.format", false),
    ("protocol.version", false),
    ("merge.ff", false),
    ("rebase.updaterefs", false),
    ("diff.colormoved", false),
    ("log.date", false),
    ("status.showuntrackedfiles", false),
    ("safe.directory", false),
    ("feature.manyfiles", false),
    ("index.version", false),
    ("rerere.enabled", false),
    ("column.ui", false),
    ("help.autocorrect", false),
    ("transfer.fsckobjects", false),
];

/// Whether setting the git configuration key `key` (any case) changes nothing git runs,
/// reads or sends: a key of [`PLAIN_KEYS`] marked so.
pub(crate) fn harmless_to_set(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    PLAIN_KEYS.iter().any(|(k, set)| *set && *k == key)
}

/// Whether a git configuration key (lower case) is one known to hold no credential: one of
/// [`PLAIN_KEYS`], a `core` key but those naming a proxy, SSH command or askpass program, a
/// key of git's own sections (`color`, `advice`, `gc`, `pack`, `submodule`) but a URL, and
/// a branch's or remote's refs and modes. Any other key (`imap.pass`, `remote.origin.proxy`,
/// a tool's own `azure.pat`) may hold one.
pub(crate) fn credential_free_key(key: &str) -> bool {
    // Sections whose keys are settings of git itself, never secrets.
    const SECTIONS: &[&str] = &["color", "advice", "gc", "pack", "submodule"];
    if PLAIN_KEYS.iter().any(|(k, _)| *k == key) {
        return true;
    }
    let parts: Vec<&str> = key.split('.').collect();
    match parts.as_slice() {
        ["core", name] => !matches!(*name, "gitproxy" | "sshcommand" | "askpass"),
        [section, ..] if SECTIONS.contains(section) => {
            !parts.last().is_some_and(|n| n.ends_with("url"))
        }
        ["branch", .., "remote" | "merge" | "rebase" | "pushremote"] => true,
        [
            "remote",
            ..,
            "fetch" | "push" | "tagopt" | "prune" | "mirror",
        ] => true,
        _ => false,
    }
}

/// What a `git config` read prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Printed<'a> {
    /// Every key with its value (`--list`, `--get-regexp`, `get --regexp`, `--get-urlmatch`).
    Every,
    /// The values of one key (its name, any case).
    Key(&'a str),
}

/// Why the configuration file `path` and the files it includes may show a secret in what a
/// `git config` read prints (`printed`), if they may: a value of a key named for one
/// (`http.extraHeader`, `*.token`, `*.password`, `sendemail.smtpPass`), a URL with a user
/// or a query (`remote.*.url`, `url.<base>.insteadOf`'s base, `http.proxy`), a credential
/// helper with more than a helper's name and options (`!f() { echo password=…; }; f`), or a
/// value holding a token's or an authorization header's marks; or a file that cannot be
/// read, an include not read here or includes nested too deep. A missing file prints
/// nothing.
pub(crate) fn printed_secret(
    path: &Path,
    home: Option<&Path>,
    printed: Printed<'_>,
) -> Option<String> {
    let reading = Reading {
        home,
        lower: false,
        unproven: "may hold a secret",
        lenient: false,
    };
    let mut each = |e: &Entry<'_>| {
        let name = |key: &str| match e.sub {
            Some(sub) => format!("{}.{sub}.{key}", e.section),
            None => format!("{}.{key}", e.section),
        };
        match (printed, e.key) {
            (Printed::Every, None) => (matches!(e.section, "url" | "http" | "credential")
                && e.sub
                    .is_some_and(|sub| url_may_hold_credential(&sub.to_ascii_lowercase())))
            .then_some("a section named by a URL that may carry a credential"),
            (Printed::Key(_), None) => None,
            (Printed::Key(k), Some(key)) if !name(key).eq_ignore_ascii_case(k) => None,
            // Named for a secret, or holding one whatever its key (`core.editor = env
            // TOKEN=ghp_… vim`), read as written: a token's letters keep their case.
            (_, Some(key)) => {
                let value = e.value?;
                secret_value(e.section, key, &value.to_ascii_lowercase())
                    .or_else(|| super::bytes_secret(value.as_bytes()))
            }
        }
    };
    reading.file(path, 0, &mut each, &mut |_| {}).err()
}

/// Why the value (lower-cased) of `section`'s `key` may be a secret, if it may (see
/// [`printed_secret`]).
fn secret_value(section: &str, key: &str, value: &str) -> Option<&'static str> {
    const NAMES: &[&str] = &[
        "token",
        "password",
        "passwd",
        "pass",
        "secret",
        "extraheader",
        "cookie",
        "apikey",
        "api-key",
        "auth",
    ];
    const MARKS: &[&str] = &[
        "ghp_",
        "gho_",
        "ghu_",
        "ghs_",
        "ghr_",
        "github_pat_",
        "glpat-",
        "xoxb-",
        "xoxp-",
        "bearer ",
        "basic ",
        "authorization",
        "private-token",
        "x-access-token",
        "sshpass",
        "password=",
        "token=",
        "secret=",
    ];
    // A boolean is no secret (`http.emptyAuth = true`, `savecookies = false`).
    if value.is_empty()
        || matches!(
            value,
            "true" | "false" | "yes" | "no" | "on" | "off" | "0" | "1"
        )
    {
        return None;
    }
    let named = section != "credential"
        && !key.ends_with("method")
        && (key.ends_with("pat")
            || NAMES
                .iter()
                .any(|n| key.contains(n) && !matches!(key, "askpass" | "cookiefile" | "authors")));
    if named {
        return Some("a key named for a secret");
    }
    if section == "credential" && key == "helper" {
        // A helper's name or a program (`!gh auth git-credential`, as `gh auth setup-git`
        // writes) with plain words and `--option=value`s; shell code (`!f() { echo
        // password=…; }; f`), quoting and assignments are not read here.
        let mut words = value.strip_prefix('!').unwrap_or(value).split_whitespace();
        let word = |w: &str, extra: &str| {
            w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_./~:-".contains(c) || extra.contains(c))
        };
        let plain = words.next().is_some_and(|w| word(w, ""))
            && words.all(|w| word(w, "") || (w.starts_with("--") && word(w, "=")));
        if !plain {
            return Some("a credential helper given more than a helper's name and options");
        }
    }
    let url_key = key.ends_with("url")
        || key.ends_with("insteadof")
        || key.ends_with("proxy")
        || section == "url";
    if url_key && url_may_hold_credential(value) {
        return Some("a URL that may carry a credential");
    }
    if let Some((_, after)) = value.split_once("://") {
        let authority = after.split(['/', '?', '#']).next().unwrap_or_default();
        if authority.contains('@') || after.contains('?') {
            return Some("a URL that may carry a credential");
        }
    }
    // An AWS access key id (`AKIA` and 16 letters or digits), lower-cased here.
    let aws_key = value.match_indices("akia").any(|(at, _)| {
        let rest = &value[at + 4..];
        rest.len() >= 16 && rest.bytes().take(16).all(|b| b.is_ascii_alphanumeric())
    });
    (aws_key || MARKS.iter().any(|m| value.contains(m)))
        .then_some("a value with a token's or an authorization header's marks")
}

/// Whether `path` names a configuration git reads from a repository directory: `config`
/// or `config.worktree` anywhere under a `.git` directory (the repository's own, a
/// submodule's clone in `.git/modules/…`, a linked worktree's in `.git/worktrees/…`).
pub(crate) fn is_git_config_name(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n == "config" || n == "config.worktree")
        && path
            .ancestors()
            .skip(1)
            .any(|a| a.file_name().is_some_and(|n| n == ".git"))
}

/// Whether `path` is a plain file (not a link) named as a repository configuration
/// ([`is_git_config_name`]) that holds no credential: then reading it in a search reads no
/// secret.
pub(crate) fn is_clean_git_config(path: &Path, meta: &std::fs::Metadata) -> bool {
    is_git_config_name(path) && meta.is_file() && credential(path).is_none()
}

#[cfg(test)]
mod tests {

    #[test]
    fn what_a_configuration_names_counts_whatever_of_it_cannot_be_read() {
        let dir = tempfile::tempdir().unwrap();
        let inc = dir.path().join("git.inc");
        std::fs::write(&inc, "[url \"https://u:t@h/\"]\n\tinsteadOf = https://h/\n").unwrap();
        let pad = "# pad\n".repeat(12_000);
        for config in [
            // A hooks path not read here, before the store.
            "[core]\n\thooksPath = \"a\\\\b\"\n[credential]\n\thelper = store --file=c.txt\n".to_owned(),
            // An include not read here, after one that is and before the store.
            "[include]\n\tpath = git.inc\n\tpath = x\\\\y\n\tpath = /dev/null\n[credential]\n\thelper = store --file=c.txt\n".to_owned(),
            // Longer than a small file.
            format!("{pad}[include]\n\tpath = git.inc\n[credential]\n\thelper = store --file=c.txt\n"),
        ] {
            let file = dir.path().join("config");
            std::fs::write(&file, &config).unwrap();
            let named = super::named_so_far(&file, None);
            assert_eq!(named.stores, [std::path::PathBuf::from("c.txt")], "{config:.200}");
            if config.contains("git.inc") {
                assert!(named.included.contains(&inc), "{config:.200}");
            }
        }
    }
    use super::*;

    fn config(text: &str) -> Option<String> {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let path = dir.path().join(".git/config");
        std::fs::write(&path, text).unwrap();
        let meta = std::fs::symlink_metadata(&path).unwrap();
        let found = credential(&path);
        assert_eq!(is_clean_git_config(&path, &meta), found.is_none());
        found
    }

    #[test]
    fn credentials_in_a_repository_configuration_are_found() {
        let plain = "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = https://github.com/a/b.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n";
        assert_eq!(config(plain), None);
        assert_eq!(
            config("[remote \"o\"]\n\turl = git@github.com:a/b.git\n"),
            None
        );
        for secret in [
            "[remote \"o\"]\n\turl = https://x:ghp_abc@github.com/a/b\n",
            "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic abc\n",
            "[sendemail]\n\tsmtppass = hunter2\n",
            "[hub]\n\toauthtoken = abc\n",
            // What git reads that a line-by-line match missed.
            "[core]\n\tbare = false\n[http] extraheader = Authorization: Bearer tok\n",
            "[sendemail] smtppass = hunter2\n",
            "[remote \"o\"]\n\turl = https://x:ghp_tok\\\n@github.com/a/b\n",
            "[remote \"o\"]\n\turl = https:/\\\n/x:tok@github.com/a\n",
            "[remote \"o\"]\n\turl = ftp://u:pw@h/x\n",
            "[remote \"o\"]\n\turl = ssh://u:pw@h/x\n",
            "[remote \"o\"]\n\turl = https://github.com/a/b?access_token=ghp_abc\n",
            "[remote \"o\"]\n\turl = \"https://x:tok@github.com/a\"\n",
            "[github]\n\tapi = ghp_abc\n",
            "[include]\n\tpath = ../creds\n",
            "[includeIf \"gitdir:~/\"]\n\tpath = ../creds\n",
            "[core]\n\tsshcommand = sshpass -p hunter2 ssh\n",
            "[remote \"o\"] url = https://github.com/a/b\n",
            "url = https://x:tok@h/a\n",
        ] {
            assert!(config(secret).is_some(), "{secret}");
        }
    }

    #[test]
    fn only_keys_known_to_run_nothing_make_a_configuration_program_free() {
        let plain = "[core]\n\tbare = false\n\thooksPath = .husky/_\n[remote \"origin\"]\n\turl = https://github.com/acme/command-palette.git\n[branch \"fix-pager-bug\"]\n\tremote = origin\n\tvscode-merge-base = origin/main\n[core]\n\teditor = vim\n[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic eA==\n";
        let found = program_free(plain).unwrap();
        assert_eq!(found.hooks_path.as_deref(), Some(".husky/_"));
        assert!(!found.partial_clone);
        let worktree = program_free("[core]\n\tworktree = /Home/Else\n").unwrap();
        assert_eq!(worktree.worktree.as_deref(), Some("/Home/Else"));
        for partial in [
            "[remote \"o\"]\n\tpromisor = true\n",
            "[remote \"o\"]\n\tpartialclonefilter = blob:none\n",
            "[extensions]\n\tpartialClone = o\n",
        ] {
            assert!(program_free(partial).unwrap().partial_clone, "{partial}");
        }
        for runs in [
            "[remote \"o\"]\n\tuploadpack = touch x\n",
            "[remote \"o\"]\n\treceivepack = touch x\n",
            "[remote \"o\"]\n\tvcs = x\n",
            "[core]\n\tgitProxy = x\n",
            "[core]\n\tsshCommand = x\n",
            "[core]\n\tfsmonitor = x\n",
            "[core]\n\tpager = x\n",
            "[credential]\n\thelper = x\n",
            "[protocol \"ext\"]\n\tallow = always\n",
            "[url \"ext::sh\"]\n\tinsteadOf = https://\n",
            "[diff \"x\"]\n\ttextconv = x\n",
            "[log]\n\tshowSignature = true\n",
            "[include]\n\tpath = x\n",
            "[core]\n\thooksPath = \"a\\\"b\"\n",
            "[core] pager = x\n",
            "[core]\n\tbare = false \\\n",
        ] {
            assert!(program_free(runs).is_err(), "{runs}");
        }
    }

    #[test]
    fn hooks_paths_of_outer_configurations_are_found_through_includes() {
        if std::env::var_os("GIT_CONFIG_GLOBAL").is_some() {
            return;
        }
        let home = tempfile::tempdir().unwrap();
        std::fs::write(
            home.path().join(".gitconfig"),
            "[user]\n\tname = a\n[includeIf \"gitdir:~/w/\"]\n\tpath = ~/.more\n",
        )
        .unwrap();
        std::fs::write(
            home.path().join(".more"),
            "[core]\n  hooksPath = .githooks\n",
        )
        .unwrap();
        let found = outer_hooks_paths(Some(home.path())).unwrap();
        assert!(found.contains(&".githooks".to_owned()), "{found:?}");
        std::fs::write(home.path().join(".more"), "[core] hooksPath = \"a\\tb\"\n").unwrap();
        assert!(outer_hooks_paths(Some(home.path())).is_err());
        // Read as git reads them (`git config -f FILE --get-all core.hooksPath`): a comment
        // ends an unquoted value, a key may follow the header, a value may continue.
        for (text, want) in [
            ("[core]\n\thooksPath = .gh # note\n", ".gh"),
            ("[core] hooksPath = .x ;c\n", ".x"),
            ("[core]\n\thooksPath = \".g h\"\n", ".g h"),
            ("[core]\n\thooksPath = .git\\\nhooks\n", ".githooks"),
            (
                "[alias]\n\tl = log \\\n[core]\n[core]\n\thooksPath = h\n",
                "h",
            ),
        ] {
            std::fs::write(home.path().join(".gitconfig"), text).unwrap();
            let found = outer_hooks_paths(Some(home.path())).unwrap();
            assert!(found.contains(&want.to_owned()), "{text}: {found:?}");
        }
        for unread in ["[core]\n\thooksPath = a\\tb\n", "[core\n\thooksPath = x\n"] {
            std::fs::write(home.path().join(".gitconfig"), unread).unwrap();
            assert!(outer_hooks_paths(Some(home.path())).is_err(), "{unread}");
        }
    }

    #[test]
    fn printed_configuration_is_searched_for_secrets_beyond_remote_urls() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config");
        let check = |text: &str, printed: Printed<'_>| {
            std::fs::write(&path, text).unwrap();
            printed_secret(&path, Some(dir.path()), printed)
        };
        for secret in [
            "[http]\n\textraHeader = AUTHORIZATION: basic eA==\n",
            "[http \"https://github.com/\"]\n\textraheader = X-Custom: 1\n",
            "[hub]\n\toauthtoken = abc\n",
            "[github]\n\ttoken = abc\n",
            "[sendemail]\n\tsmtpPass = hunter2\n",
            "[azure]\n\tpat = abc\n",
            "[credential]\n\thelper = \"!f() { echo password=abc; }; f\"\n",
            "[credential]\n\thelper = !f() { echo password=x; }; f\n",
            "[credential]\n\thelper = !echo password=x\n",
            "[aws]\n\tkeyid = AKIAABCDEFGHIJKLMNOP\n",
            "[url \"https://u:tok@github.com/\"]\n\tinsteadOf = https://github.com/\n",
            "[url \"https://github.com/\"]\n\tinsteadOf = https://x:y@h/\n",
            "[http]\n\tproxy = http://u:p@proxy:8080\n",
            "[remote \"o\"]\n\turl = https://u:ghp_x@github.com/a\n",
            "[alias]\n\tapi = !curl -H 'Authorization: token ghp_abc' https://api\n",
            "[core]\n\tsshCommand = sshpass -p pw ssh\n",
            "[tool]\n\tendpoint = https://h/x?key=abc\n",
            "[include]\n\tpath = more\n",
        ] {
            if secret.contains("include") {
                std::fs::write(dir.path().join("more"), "[gitlab]\n\ttoken = x\n").unwrap();
            }
            assert!(check(secret, Printed::Every).is_some(), "{secret}");
        }
        for clean in [
            "[user]\n\tname = A\n\temail = a@b.c\n[core]\n\teditor = vim\n\thooksPath = .githooks\n",
            "[credential]\n\thelper = store\n\thelper = cache --timeout=3600\n\tusername = me\n",
            "[remote \"o\"]\n\turl = git@github.com:a/b.git\n[alias]\n\tst = status\n",
            "[url \"git@github.com:\"]\n\tinsteadOf = https://github.com/\n",
            "[http]\n\tcookieFile = ~/.cookies\n\tsslVerify = true\n",
            "[core]\n\taskPass = /usr/bin/ksshaskpass\n",
            "[credential \"https://github.com\"]\n\thelper =\n\thelper = !/usr/bin/gh auth git-credential\n",
            "[http]\n\temptyAuth = true\n\tproxyAuthMethod = anyauth\n",
            "[user]\n\tname = Slovakia Takia\n",
        ] {
            assert_eq!(check(clean, Printed::Every), None, "{clean}");
        }
        // One key is printed: only its values count, and the files included.
        let text = "[http]\n\textraheader = Authorization: Bearer x\n[user]\n\tname = A\n";
        assert!(check(text, Printed::Key("http.extraHeader")).is_some());
        assert_eq!(check(text, Printed::Key("user.name")), None);
        assert_eq!(check(text, Printed::Key("http.sslverify")), None);
        std::fs::write(dir.path().join("more"), "[http]\n\textraheader = x\n").unwrap();
        let text = "[include]\n\tpath = more\n";
        assert!(check(text, Printed::Key("http.extraheader")).is_some());
        assert!(check("[include]\n\tpath = \"a\\\"b\"\n", Printed::Key("x.y")).is_some());
        assert_eq!(
            printed_secret(&dir.path().join("missing"), None, Printed::Every),
            None
        );
    }

    #[test]
    fn one_list_of_plain_keys_answers_printing_and_setting() {
        for key in [
            "user.name",
            "core.autocrlf",
            "color.ui",
            "advice.detachedhead",
        ] {
            assert!(harmless_to_set(key) && credential_free_key(key), "{key}");
        }
        assert!(harmless_to_set("User.Name"));
        for key in ["safe.directory", "core.pager", "core.fsmonitor", "alias.x"] {
            assert!(!harmless_to_set(key), "{key}");
        }
        assert!(credential_free_key("safe.directory") && credential_free_key("core.bare"));
        for key in [
            "http.extraheader",
            "core.sshcommand",
            "github.token",
            "submodule.a.url",
        ] {
            assert!(!credential_free_key(key), "{key}");
        }
    }

    #[test]
    fn a_configuration_the_environment_names_where_a_call_may_write_must_run_nothing() {
        let home = tempfile::tempdir().unwrap();
        let ws = tempfile::tempdir().unwrap();
        let named = ws.path().join("agent.gitconfig");
        std::fs::write(home.path().join(".gitconfig"), "[core]\n\tpager = delta\n").unwrap();
        let vars = |pairs: Vec<(&'static str, String)>| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let home_path = home.path();
        let run = |text: &str, pairs: Vec<(&'static str, String)>| {
            std::fs::write(&named, text).unwrap();
            outer_hooks_paths_in(Some(home_path), &vars(pairs))
        };
        let file = named.display().to_string();
        for name in ["GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"] {
            for runs in [
                "[core]\n\tfsmonitor = touch x\n",
                "[core]\n\tpager = sh\n",
                "[alias]\n\tx = !sh\n",
                "[core]\n\tsshCommand = sh\n",
            ] {
                assert!(
                    run(runs, vec![(name, file.clone())]).is_err(),
                    "{name}: {runs}"
                );
            }
            let found = run("[core]\n\thooksPath = .hooks\n", vec![(name, file.clone())]).unwrap();
            assert!(found.contains(&".hooks".to_owned()), "{found:?}");
        }
        // The person's own file, named by the variable, stays trusted.
        let own = home.path().join(".gitconfig").display().to_string();
        assert!(run("", vec![("GIT_CONFIG_GLOBAL", own)]).is_ok());
        // Entries given as variables: their hooks path counts, their includes are read.
        let found = run(
            "",
            vec![
                ("GIT_CONFIG_COUNT", "1".to_owned()),
                ("GIT_CONFIG_KEY_0", "core.hooksPath".to_owned()),
                ("GIT_CONFIG_VALUE_0", "/x/hooks".to_owned()),
            ],
        )
        .unwrap();
        assert!(found.contains(&"/x/hooks".to_owned()));
        let included = vec![
            ("GIT_CONFIG_COUNT", "1".to_owned()),
            ("GIT_CONFIG_KEY_0", "include.path".to_owned()),
            ("GIT_CONFIG_VALUE_0", file.clone()),
        ];
        assert!(run("[core]\n\tfsmonitor = x\n", included.clone()).is_err());
        assert!(run("[user]\n\tname = a\n", included).is_ok());
        assert!(run("", vec![("GIT_CONFIG_COUNT", "x".to_owned())]).is_err());
        assert!(run("", vec![("GIT_CONFIG_COUNT", "2".to_owned())]).is_err());
    }

    #[test]
    fn alias_definitions_are_read_as_git_reads_values() {
        for (raw, want) in [
            ("!rm -rf ~", Some("!rm -rf ~")),
            ("\"!f() { echo a; }; f\"", Some("!f() { echo a; }; f")),
            ("!echo \"a;b\" # note", Some("!echo a;b")),
            ("!echo a ; rm x", Some("!echo a")),
            ("!printf \\\"x\\\"", Some("!printf \"x\"")),
            ("log\t--oneline", Some("log --oneline")),
            ("!echo \\q", None),
            ("\"!echo", None),
        ] {
            assert_eq!(git_value(raw).as_deref(), want, "{raw}");
        }
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("config");
        std::fs::write(
            &main,
            "[alias]\n\tX = !one\n[alias] x = two \\\n three\n[include]\n\tpath = more\n[alias \"x\"]\n\tx = no\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("more"), "[alias]\n\tx\n").unwrap();
        let found = alias_definitions(&[main.clone(), dir.path().join("gone")], None, "X").unwrap();
        assert_eq!(found, ["!one", "two  three", "true"]);
        assert!(
            alias_definitions(std::slice::from_ref(&main), None, "y")
                .unwrap()
                .is_empty()
        );
        std::fs::write(dir.path().join("more"), "[alias\n").unwrap();
        assert!(alias_definitions(std::slice::from_ref(&main), None, "y").is_err());
        std::fs::write(&main, "[include]\n\tpath = ~/x\n").unwrap();
        assert!(alias_definitions(&[main], None, "y").is_err());
    }

    #[test]
    fn a_configuration_that_is_not_a_small_regular_file_is_not_proven() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let path = dir.path().join(".git/config");
        std::fs::write(&path, "[core]\n".repeat(20_000)).unwrap();
        assert!(credential(&path).is_some());
        std::fs::remove_file(&path).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        assert!(credential(&path).is_some());
    }

    #[test]
    fn configurations_git_keeps_elsewhere_under_git_are_named() {
        for name in [
            "r/.git/config",
            "r/.git/config.worktree",
            "r/.git/modules/sub/config",
            "r/.git/modules/a/modules/b/config",
            "r/.git/worktrees/w/config.worktree",
        ] {
            assert!(is_git_config_name(Path::new(name)), "{name}");
        }
        assert!(!is_git_config_name(Path::new("r/config")));
        assert!(!is_git_config_name(Path::new("r/.git/HEAD")));
    }

    #[test]
    fn a_global_configuration_is_read_for_what_shows_in_remote_urls_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".gitconfig");
        let check = |text: &str| {
            std::fs::write(&path, text).unwrap();
            remote_url_credential(&path)
        };
        // What a person's global configuration usually holds is no credential in a URL.
        for clean in [
            "[user]\n\tname = A\n[alias]\n\tst = status\n[core]\n\teditor = vim\n",
            "[credential]\n\thelper = store\n[pager]\n\tlog = less\n",
            "[url \"git@github.com:\"]\n\tinsteadOf = https://github.com/\n",
            "[remote \"up\"]\n\turl = https://github.com/x/y\n",
            "[alias]\n\tlg = log \\\n\t  --oneline\n[core] editor = vim\n",
        ] {
            assert_eq!(check(clean), None, "{clean}");
        }
        for credential in [
            "[url \"https://tok:ghp_x@github.com/\"]\n\tinsteadOf = https://github.com/\n",
            "[url \"https://github.com/?access_token=x\"]\n\tpushInsteadOf = gh:\n",
            "[url.https://u:p@host/]\n\tinsteadOf = h:\n",
            "[remote \"up\"]\n\turl = https://u:p@github.com/x/y\n",
            "[remote \"up\"]\n\tpushurl = \"https://x\"\n",
            "[include]\n\tpath = ~/.secrets.gitconfig\n",
            "[includeIf \"gitdir:~/w/\"]\n\tpath = w.gitconfig\n",
            "[url \"https://a\\\n@b/\"]\n",
            "[remote \"up\"] url = https://u:p@h/\n",
            // One reader of headers: the old syntax, padding and a key after the header.
            "[remote.up]\n\turl = https://u:p@h/\n",
            "[remote  \"up\"]\n\turl = https://u:p@h/\n",
            "[url \"https://u:p@h/\"] insteadOf = h:\n",
            "[remote \"up\"]\n\turl = https://u:p@\\\nh/\n",
            "[alias \"a\\\"b\"]\n",
            "\turl = https://u:p@h/\n",
        ] {
            assert!(check(credential).is_some(), "{credential}");
        }
        assert_eq!(remote_url_credential(&dir.path().join("missing")), None);
        let unread = dir.path().join("a-directory");
        std::fs::create_dir(&unread).unwrap();
        assert!(remote_url_credential(&unread).is_some());
    }

    #[test]
    fn a_file_the_user_configuration_includes_where_a_call_may_write_must_run_nothing() {
        if std::env::var_os("GIT_CONFIG_GLOBAL").is_some()
            || std::env::var_os("XDG_CONFIG_HOME").is_some()
        {
            return;
        }
        let home = tempfile::tempdir().unwrap();
        let ws = tempfile::tempdir().unwrap();
        std::fs::create_dir(ws.path().join("tools")).unwrap();
        std::fs::create_dir_all(home.path().join(".config/git")).unwrap();
        let included = ws.path().join("tools/gitconfig");
        std::fs::write(
            home.path().join(".gitconfig"),
            format!(
                "[alias]\n\tst = !git status\n[include]\n\tpath = {}\n\tpath = ~/.config/git/more\n",
                included.display()
            ),
        )
        .unwrap();
        // git's configuration directory is the person's, as `~/.gitconfig` is.
        std::fs::write(
            home.path().join(".config/git/more"),
            "[core]\n\tpager = delta\n",
        )
        .unwrap();
        let check = |text: &str| {
            std::fs::write(&included, text).unwrap();
            outer_hooks_paths(Some(home.path()))
        };
        assert!(check("[user]\n\tname = a\n").is_ok());
        for runs in [
            "[core]\n\tfsmonitor = touch x\n",
            "[core]\n\tpager = sh\n",
            "[alias]\n\tx = !sh\n",
            "[include]\n\tpath = ../more\n",
        ] {
            assert!(check(runs).is_err(), "{runs}");
        }
    }
}
