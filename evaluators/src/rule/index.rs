//! The compiled rules: hash maps by tool id and MCP server, a glob set over tool ids, a word
//! trie per tool for command prefixes, and glob sets for paths and arguments. A lookup costs
//! time in proportion to the call, not to the number of rules.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::shell::{Script, SimpleCommand};

/// A fast hash for the keys of the rule index (command words, tool ids, server names): the
/// keys stored are the configuration's own, so a call can only probe them, never make them
/// collide; FxHash's rotate-xor-multiply is enough.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct WordHasher(u64);

impl WordHasher {
    fn add(&mut self, word: u64) {
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(K);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        // The length tells `ab` from `ab\0`.
        self.add(u64::from_le_bytes(word) ^ ((bytes.len() as u64) << 56));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A map keyed by words of the rules, hashed with [`WordHasher`].
pub(crate) type WordMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// A trie over command words; a node keeps the rules that end there, exactly or as a prefix.
#[derive(Debug, Default)]
pub(crate) struct CommandTrie {
    exact: Vec<usize>,
    prefix: Vec<usize>,
    children: WordMap<String, CommandTrie>,
}

impl CommandTrie {
    fn insert(&mut self, words: &[String], prefix: bool, rule: usize) {
        let mut node = self;
        for w in words {
            node = node.children.entry(w.clone()).or_default();
        }
        if prefix {
            node.prefix.push(rule);
        } else {
            node.exact.push(rule);
        }
    }

    /// Prefix rules whose words (after the program) appear in `rest` in order, with gaps: a
    /// deny or ask rule is not dodged by options before or between its words
    /// (`git -C . push`, `kubectl -n prod delete`). Each branch takes the first occurrence of its
    /// word, which finds every subsequence match in time linear in the trie's size.
    ///
    /// An option word of a rule (`-rf`, `--force`) matches when the command gives every flag
    /// it stands for, however spelled (`-fr`, `-r -f`, `-Rf`, `--recursive --force`); when
    /// the command is `open` (a word only known at run time, arguments from `xargs`), every
    /// rule below what was matched may match too.
    fn lookup_loose(
        &self,
        program: &str,
        rest: &[&str],
        flags: &[String],
        open: bool,
        out: &mut Vec<usize>,
    ) {
        fn all(node: &CommandTrie, out: &mut Vec<usize>) {
            node.every(out);
        }
        fn walk(
            node: &CommandTrie,
            rest: &[&str],
            (flags, open, abbrev): (&[String], bool, bool),
            out: &mut Vec<usize>,
        ) {
            for (word, child) in &node.children {
                // `npm pub` is `npm publish`: npm takes any unambiguous beginning of a command.
                let same =
                    |w: &&str| *w == word || (abbrev && w.len() >= 2 && word.starts_with(*w));
                if word.starts_with('-') && word.len() > 1 {
                    if option_flags(word).iter().all(|f| flags.contains(f)) {
                        out.extend(&child.prefix);
                        walk(child, rest, (flags, open, abbrev), out);
                    }
                } else if let Some(k) = rest.iter().position(same) {
                    out.extend(&child.prefix);
                    walk(child, &rest[k + 1..], (flags, open, abbrev), out);
                }
                if open {
                    all(child, out);
                }
            }
        }
        if let Some(node) = self.children.get(program) {
            let abbrev = matches!(program, "npm" | "pnpm");
            walk(node, rest, (flags, open, abbrev), out);
        }
    }

    /// Every rule in the trie (for a command whose program is only known when it runs).
    fn every(&self, out: &mut Vec<usize>) {
        out.extend(&self.prefix);
        out.extend(&self.exact);
        for child in self.children.values() {
            child.every(out);
        }
    }

    /// The rules whose words start `words` (or, for exact rules, are `words`, when `complete`:
    /// a command cut short at a word only known at run time matches prefixes only).
    fn lookup(&self, words: &[&str], complete: bool, out: &mut Vec<(usize, usize)>) {
        let mut node = self;
        for (depth, w) in words.iter().enumerate() {
            match node.children.get(*w) {
                Some(next) => node = next,
                None => return,
            }
            out.extend(node.prefix.iter().map(|&r| (r, depth + 1)));
        }
        if complete {
            out.extend(node.exact.iter().map(|&r| (r, words.len())));
        }
    }
}

/// Globs compiled into one set, each mapped back to its rule.
#[derive(Debug)]
pub(crate) struct GlobIndex {
    set: GlobSet,
    rules: Vec<usize>,
}

impl GlobIndex {
    fn build(globs: Vec<(Glob, usize)>) -> Result<Self, globset::Error> {
        let mut builder = GlobSetBuilder::new();
        let mut rules = Vec::with_capacity(globs.len());
        for (g, rule) in globs {
            builder.add(g);
            rules.push(rule);
        }
        Ok(Self {
            set: builder.build()?,
            rules,
        })
    }

    fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    fn lookup(&self, candidate: &str, out: &mut Vec<usize>) {
        if self.set.is_empty() {
            return;
        }
        let mut found = Vec::new();
        self.set.matches_into(candidate, &mut found);
        out.extend(found.into_iter().map(|i| self.rules[i]));
    }
}

/// Path globs of one side (relative or absolute): those matched as written, and the folded
/// globs of deny and ask rules, matched against the path in lower case.
#[derive(Debug)]
pub(crate) struct PathIndex {
    plain: GlobIndex,
    folded: GlobIndex,
}

impl PathIndex {
    fn build(
        plain: Vec<(Glob, usize)>,
        folded: Vec<(Glob, usize)>,
    ) -> Result<Self, globset::Error> {
        Ok(Self {
            plain: GlobIndex::build(plain)?,
            folded: GlobIndex::build(folded)?,
        })
    }

    fn is_empty(&self) -> bool {
        self.plain.is_empty() && self.folded.is_empty()
    }

    fn lookup(&self, candidate: &str, out: &mut Vec<usize>) {
        self.plain.lookup(candidate, out);
        if !self.folded.is_empty() {
            self.folded.lookup(&crate::paths::fold(candidate), out);
        }
    }
}

/// What a rule looks at within the tools it selects.
#[derive(Debug, Clone)]
pub(crate) enum Condition {
    /// The whole tool.
    Whole,
    /// Shell commands starting with (or, when not a prefix, equal to) these words.
    Command { words: Vec<String>, prefix: bool },
    /// Paths matching one of these globs; `folded`: globs in lower case, matched against
    /// paths in lower case (deny and ask rules match without case).
    Path { globs: Vec<Glob>, folded: bool },
    /// An input field whose value matches one of these globs.
    Argument { field: String, globs: Vec<Glob> },
}

/// The rules of one tool selector, before their globs are compiled together.
#[derive(Debug, Default)]
pub(crate) struct BucketBuilder {
    whole: Vec<usize>,
    commands: CommandTrie,
    /// Relative and absolute globs, each as written (`[0]`) and folded (`[1]`).
    relative: [Vec<(Glob, usize)>; 2],
    absolute: [Vec<(Glob, usize)>; 2],
    arguments: HashMap<String, Vec<(Glob, usize)>>,
}

impl BucketBuilder {
    pub(crate) fn add(&mut self, condition: Condition, rule: usize) {
        match condition {
            Condition::Whole => self.whole.push(rule),
            Condition::Command { words, prefix } => self.commands.insert(&words, prefix, rule),
            Condition::Path { globs, folded } => {
                for g in globs {
                    // A relative glob names paths inside the workspace only.
                    let side = if g.glob().starts_with('/') {
                        &mut self.absolute
                    } else {
                        &mut self.relative
                    };
                    side[usize::from(folded)].push((g, rule));
                }
            }
            Condition::Argument { field, globs } => self
                .arguments
                .entry(field)
                .or_default()
                .extend(globs.into_iter().map(|g| (g, rule))),
        }
    }

    pub(crate) fn build(self) -> Result<Bucket, globset::Error> {
        Ok(Bucket {
            whole: self.whole,
            commands: self.commands,
            relative: {
                let [plain, folded] = self.relative;
                PathIndex::build(plain, folded)?
            },
            absolute: {
                let [plain, folded] = self.absolute;
                PathIndex::build(plain, folded)?
            },
            arguments: self
                .arguments
                .into_iter()
                .map(|(f, g)| Ok((f, GlobIndex::build(g)?)))
                .collect::<Result<_, globset::Error>>()?,
        })
    }
}

/// The compiled rules of one tool selector.
#[derive(Debug)]
pub(crate) struct Bucket {
    whole: Vec<usize>,
    commands: CommandTrie,
    relative: PathIndex,
    absolute: PathIndex,
    arguments: WordMap<String, GlobIndex>,
}

impl Bucket {
    /// Whether a rule of this selector looks at paths.
    fn has_paths(&self) -> bool {
        !(self.relative.is_empty() && self.absolute.is_empty())
    }
}

/// A rule that matched, and for a command rule the command it matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hit {
    pub rule: usize,
    pub command: Option<usize>,
    /// Matched only with options skipped (`git -C . push` for `git push:*`): counts for deny
    /// and ask rules, never for allow rules.
    pub loose: bool,
    /// For a command rule matched word for word: how many words of the command it names
    /// (the rest are what the command adds to the rule's plain form).
    pub words: usize,
    /// Set when the rule may apply but the call cannot be read well enough to tell (a path,
    /// host or program only known at run time): a deny or ask rule then asks, never allows.
    pub doubt: Option<Doubt>,
}

/// Why a deny or ask rule may apply to a call that cannot be read well enough to tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Doubt {
    /// A path the call reads or writes is only known when it runs.
    Path,
    /// A host the call reaches is only known when it runs, or clients read it differently.
    Host,
    /// The program a command runs is only known when it runs.
    Program,
    /// The call prints files from the repository's history (`git log -p`, `git show REV`),
    /// which may hold the path.
    History,
}

impl Doubt {
    /// Why, in words, for a decision's reason.
    pub(crate) fn why(self) -> &'static str {
        match self {
            Self::Path => "a path it reads or writes is only known when it runs",
            Self::Host => {
                "a host it reaches is only known when it runs, or clients read it differently"
            }
            Self::Program => "the program it runs is only known when it runs",
            Self::History => {
                "it prints files from the repository's history or work tree, which may be the path"
            }
        }
    }
}

/// Whether a glob matched against the text of the input field `field` may cover more than
/// its text shows: a shell command's line (every command line may chain, redirect or
/// substitute), or a path field's value that climbs (`..`), leaves through a symlink, or
/// holds a variable, a home directory or a backslash.
fn wider_than_written(field: &str, text: &str, call: &CallView<'_>) -> bool {
    if call.script.is_some() && field == "command" {
        return text.contains([';', '&', '|', '\n', '\r', '`', '$', '<', '>', '(', ')']);
    }
    let path_field = crate::policy::filesystem::is_path_field(field);
    path_field
        && (text.contains("..")
            || text.contains(['$', '\\', '~', '`'])
            || call.paths.iter().any(|p| !p.resolves_as_written()))
}

/// The subcommand a program's first positional word does the same as, for deny and ask
/// rules: `git send-pack` pushes as `git push` does.
fn alias(program: &str, rest: &[&str]) -> Option<&'static str> {
    match (program, rest.first()?) {
        ("git", &"send-pack" | &"http-push") => Some("push"),
        ("git", &"fetch-pack") => Some("fetch"),
        ("npm" | "pnpm", &"run-script") => Some("run"),
        ("npm" | "pnpm" | "yarn", &"t" | &"tst") => Some("test"),
        ("npm", &"i" | &"add") => Some("install"),
        _ => None,
    }
}

/// A deny or ask rule's hit on command `i`, whose program may be the rule's: only in doubt.
fn program_doubt(rule: usize, i: usize) -> Hit {
    Hit {
        rule,
        command: Some(i),
        loose: true,
        words: 0,
        doubt: Some(Doubt::Program),
    }
}

/// What a command is by another spelling, for deny and ask rules.
pub(crate) enum FrontEnd {
    /// The words it runs as (`git push origin` for `/usr/lib/git-core/git-push origin`, `hub
    /// push`, or `git -c alias.p=push p`).
    As(Vec<String>),
    /// Any subcommand of this program: a git alias whose meaning is not on the command line
    /// (the user's or the repository's configuration, a shell alias `!…`).
    Any(&'static str),
}

/// git's own commands: any other first word is an alias from configuration, or a
/// `git-NAME` program on the path, either of which may be any command.
pub(crate) const GIT_COMMANDS: &[&str] = &[
    "add",
    "am",
    "annotate",
    "apply",
    "archive",
    "bisect",
    "blame",
    "branch",
    "bugreport",
    "bundle",
    "cat-file",
    "check-attr",
    "check-ignore",
    "check-mailmap",
    "check-ref-format",
    "checkout",
    "checkout-index",
    "cherry",
    "cherry-pick",
    "clean",
    "clone",
    "column",
    "commit",
    "commit-graph",
    "commit-tree",
    "config",
    "count-objects",
    "describe",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "difftool",
    "fetch",
    "fetch-pack",
    "for-each-ref",
    "format-patch",
    "fsck",
    "gc",
    "grep",
    "hash-object",
    "help",
    "init",
    "log",
    "ls-files",
    "ls-remote",
    "ls-tree",
    "merge",
    "merge-base",
    "merge-file",
    "merge-tree",
    "mv",
    "name-rev",
    "notes",
    "pull",
    "push",
    "range-diff",
    "read-tree",
    "rebase",
    "reflog",
    "remote",
    "repack",
    "replace",
    "reset",
    "restore",
    "rev-list",
    "rev-parse",
    "revert",
    "rm",
    "send-pack",
    "shortlog",
    "show",
    "show-branch",
    "show-ref",
    "sparse-checkout",
    "stash",
    "status",
    "stripspace",
    "submodule",
    "switch",
    "symbolic-ref",
    "tag",
    "update-index",
    "update-ref",
    "var",
    "verify-commit",
    "version",
    "whatchanged",
    "worktree",
    "write-tree",
    "lfs",
    "maintenance",
    "patch-id",
    "cherry",
];

/// The other spelling of a command ([`FrontEnd`]), if it has one.
pub(crate) fn front_end(cmd: &crate::shell::SimpleCommand, words: &[&str]) -> Option<FrontEnd> {
    let (&first, args) = words.split_first()?;
    let base = first.rsplit('/').next().unwrap_or(first);
    // `git-push …` (git's exec path) and `hub …` are `git push …`.
    let git_words: Vec<String> =
        if let Some(sub) = base.strip_prefix("git-").filter(|s| !s.is_empty()) {
            ["git", sub]
                .into_iter()
                .chain(args.iter().copied())
                .map(str::to_owned)
                .collect()
        } else if matches!(base, "hub") {
            std::iter::once("git")
                .chain(args.iter().copied())
                .map(str::to_owned)
                .collect()
        } else if base == "git" {
            if first == "git" {
                // Spelled as the rules spell it: only aliases are left to read.
                words.iter().map(|w| (*w).to_owned()).collect()
            } else {
                std::iter::once("git")
                    .chain(args.iter().copied())
                    .map(str::to_owned)
                    .collect()
            }
        } else {
            return None;
        };
    // Configuration from the environment may define any alias.
    let env_config = cmd
        .assignments
        .iter()
        .any(|a| a.starts_with("GIT_CONFIG") || a.starts_with("GIT_EXEC_PATH"));
    // Global options, and the aliases they define.
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut i = 1;
    let mut open = env_config;
    while let Some(w) = git_words.get(i) {
        let w = w.as_str();
        if !w.starts_with('-') {
            break;
        }
        i += 1;
        let value = match w {
            "-c" | "--config-env" => {
                let v = git_words.get(i).map(String::as_str).unwrap_or_default();
                i += 1;
                Some((w, v))
            }
            "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix" => {
                i += 1;
                None
            }
            _ if w.starts_with("-c") && w.len() > 2 => Some(("-c", &w[2..])),
            _ if w.starts_with("--config-env=") => Some(("--config-env", &w[13..])),
            _ if w.starts_with("--exec-path") => {
                open = true;
                None
            }
            _ => None,
        };
        if let Some((option, v)) = value
            && let Some((key, val)) = v.split_once('=')
            && let Some(name) = key
                .get(..6)
                .filter(|head| head.eq_ignore_ascii_case("alias."))
                .and_then(|_| key.get(6..))
                .filter(|name| !name.is_empty())
        {
            // An alias git would read differently from its words (quotes, escapes), or one
            // naming another alias: its meaning is not on the command line as written.
            let plain = !val.contains(['"', '\'', '\\']);
            if option == "--config-env" || val.starts_with('!') || !plain {
                open = true;
            } else {
                aliases.push((name.to_ascii_lowercase(), val.to_owned()));
            }
        }
    }
    // Past the words that could be read (a run-time word), any subcommand.
    let words_known = words.len() == cmd.words.len();
    let Some(sub) = git_words.get(i) else {
        return (open || !words_known).then_some(FrontEnd::Any("git"));
    };
    if let Some((_, value)) = aliases
        .iter()
        .rev()
        .find(|(name, _)| *name == sub.to_ascii_lowercase())
    {
        // An alias of an alias is expanded again by git: what it runs is not read here.
        let first = value.split_whitespace().next().unwrap_or("");
        if aliases
            .iter()
            .any(|(name, _)| *name == first.to_ascii_lowercase())
        {
            return Some(FrontEnd::Any("git"));
        }
        let mut out: Vec<String> = vec!["git".to_owned()];
        out.extend(value.split_whitespace().map(str::to_owned));
        out.extend(git_words[i + 1..].iter().cloned());
        return Some(FrontEnd::As(out));
    }
    if open || !GIT_COMMANDS.contains(&sub.as_str()) {
        return Some(FrontEnd::Any("git"));
    }
    (first != "git").then_some(FrontEnd::As(git_words))
}

/// Options that take the next word as their value, by program, skipped in a loose match.
fn value_options(program: &str) -> &'static [&'static str] {
    match program {
        "git" => &[
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--super-prefix",
            "--config-env",
        ],
        "kubectl" | "oc" => &[
            "-n",
            "--namespace",
            "--context",
            "--cluster",
            "--user",
            "--kubeconfig",
            "-s",
            "--server",
            "--token",
            "--as",
        ],
        "npm" | "pnpm" | "yarn" => &[
            "--registry",
            "--prefix",
            "-C",
            "--dir",
            "-w",
            "--workspace",
            "--userconfig",
            "--cache",
        ],
        "docker" | "podman" => &["-H", "--host", "--context", "-c", "--config", "-l"],
        "cargo" => &["-C", "--config", "-Z"],
        _ => &[],
    }
}

/// The words after the program with options (and the values of known value options) left
/// out, for a loose match.
/// The flags an option word gives, folded: each letter of a short cluster (`-rf`: `r`,
/// `f`; `R` is `r`), a long option by its name, `--recursive` and `--force` as `r` and `f`.
fn option_flags(word: &str) -> Vec<String> {
    if let Some(long) = word.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        return vec![match name {
            "recursive" => "r".to_owned(),
            "force" => "f".to_owned(),
            other => other.to_owned(),
        }];
    }
    match word.strip_prefix('-') {
        Some(cluster) if cluster.chars().all(|c| c.is_ascii_alphabetic()) => cluster
            .chars()
            .map(|c| {
                if c == 'R' {
                    "r".to_owned()
                } else {
                    c.to_string()
                }
            })
            .collect(),
        _ => vec![word.to_owned()],
    }
}

/// The flags a command's option words give (before `--`), folded as [`option_flags`].
fn command_flags(args: &[&str]) -> Vec<String> {
    args.iter()
        .take_while(|w| **w != "--")
        .filter(|w| w.starts_with('-') && w.len() > 1)
        .flat_map(|w| option_flags(w))
        .collect()
}

fn positional_words<'a>(program: &str, args: &[&'a str]) -> Vec<&'a str> {
    let with_value = value_options(program);
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(w) = args.get(i) {
        i += 1;
        if with_value.contains(w) {
            i += 1;
        } else if !w.starts_with('-') {
            out.push(*w);
        }
    }
    out
}

/// A call as the rules look at it.
pub(crate) struct CallView<'a> {
    /// The id the call names the tool by (`Bash` for every shell spelling).
    pub tool: &'a str,
    /// The other ids it goes by: `mcp__S__T` for each MCP server `S` offering it as `T`.
    pub mcp_ids: Vec<String>,
    /// The MCP servers that offer it.
    pub servers: Vec<&'a str>,
    /// The parsed shell command, for the shell tool.
    pub script: Option<&'a Script>,
    /// The paths it names, as written and as resolved.
    pub paths: Vec<super::effects::NamedPath>,
    /// Its input.
    pub input: &'a serde_json::Value,
    /// For each command of the script, whether it runs in the workspace (its directory,
    /// the tool's working-directory field and links followed, inside it): an allow rule on
    /// a command covers it only there (`cd ~ && cargo test` builds another project).
    pub in_workspace: Vec<bool>,
    /// How many privileged runners (`pkexec`, `chroot`) the script is found inside, when
    /// it is what one of them runs (0: the call's own command).
    pub run_as_depth: usize,
}

impl CallView<'_> {
    /// Every id the tool goes by (`Bash`; `git.status` and `mcp__git__git.status`).
    fn identities(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.tool).chain(self.mcp_ids.iter().map(String::as_str))
    }
}

impl Bucket {
    fn lookup(&self, call: &CallView<'_>, hits: &mut Vec<Hit>) {
        let whole = self.whole.iter().map(|&rule| Hit {
            rule,
            command: None,
            loose: false,
            words: 0,
            doubt: None,
        });
        hits.extend(whole);
        // A path rule hits when a form of a path matches it; it covers (for an allow) only
        // when every path, as resolved, matches it.
        let mut found = Vec::new();
        // How many paths each rule matches as resolved.
        let mut real_matches: Vec<(usize, usize)> = Vec::new();
        let mut any = Vec::new();
        let mut here = Vec::new();
        for p in &call.paths {
            // The written form (when it differs), then the resolved one, whose matches also
            // count toward covering.
            let written = (!p.resolves_as_written()).then(|| p.written());
            for (form, real) in written
                .map(|w| (w, false))
                .into_iter()
                .chain(std::iter::once((&p.real, true)))
            {
                here.clear();
                if let Some(rel) = form.relative() {
                    self.relative.lookup(rel, &mut here);
                }
                self.absolute.lookup(form.absolute(), &mut here);
                here.sort_unstable();
                here.dedup();
                if real {
                    for &r in &here {
                        match real_matches.iter_mut().find(|(rule, _)| *rule == r) {
                            Some((_, n)) => *n += 1,
                            None => real_matches.push((r, 1)),
                        }
                    }
                }
                any.extend_from_slice(&here);
            }
        }
        any.sort_unstable();
        any.dedup();
        hits.extend(any.into_iter().map(|rule| {
            Hit {
                rule,
                command: None,
                loose: real_matches
                    .iter()
                    .find(|(r, _)| *r == rule)
                    .map_or(0, |&(_, n)| n)
                    < call.paths.len(),
                words: 0,
                doubt: None,
            }
        }));
        for (field, index) in &self.arguments {
            if let Some(value) = call.input.get(field) {
                let text = value
                    .as_str()
                    .map_or_else(|| value.to_string(), str::to_owned);
                index.lookup(&text, &mut found);
                // A glob over text is wider than it reads where the text is a command line
                // (`npm test*` matches `npm test && rm -rf src`) or a path (`src/*` matches
                // `src/../../etc/passwd`, a link out of `src`): there it counts for deny and
                // ask rules only, never to allow.
                let loose = wider_than_written(field, &text, call);
                hits.extend(found.drain(..).map(|rule| Hit {
                    rule,
                    command: None,
                    loose,
                    words: 0,
                    doubt: None,
                }));
                // For deny and ask rules, a path field also matches as it resolves
                // (`src/priv/p.txt` through a link to `private/`).
                if crate::policy::filesystem::is_path_field(field) {
                    for p in call.paths.iter().filter(|p| !p.resolves_as_written()) {
                        for form in [p.real.relative(), Some(p.real.absolute())]
                            .into_iter()
                            .flatten()
                        {
                            index.lookup(form, &mut found);
                        }
                    }
                    hits.extend(found.drain(..).map(|rule| Hit {
                        rule,
                        command: None,
                        loose: true,
                        words: 0,
                        doubt: None,
                    }));
                }
            }
        }
        self.lookup_commands(call, hits);
    }

    /// The command rules that match the commands of a shell call's script.
    fn lookup_commands(&self, call: &CallView<'_>, hits: &mut Vec<Hit>) {
        let Some(script) = call.script else { return };
        let mut found = Vec::new();
        let mut matched = Vec::new();
        for (i, cmd) in script.commands.iter().enumerate() {
            let Some(program) = cmd.program() else {
                // A program only known when it runs may be the one any command rule names:
                // deny and ask rules may apply (the hits are loose: no allow covers it).
                if !cmd.words.is_empty() {
                    self.commands.every(&mut found);
                    hits.extend(found.drain(..).map(|rule| program_doubt(rule, i)));
                }
                continue;
            };
            // A word only known at run time ends what can be matched.
            let words: Vec<&str> = std::iter::once(program)
                .chain(cmd.args().iter().map_while(|w| w.literal()))
                .collect();
            let complete = words.len() == cmd.words.len() && !cmd.extra_args;
            self.commands.lookup(&words, complete, &mut matched);
            let elsewhere = !call.in_workspace.get(i).copied().unwrap_or(false);
            hits.extend(matched.drain(..).map(|(rule, words)| Hit {
                rule,
                command: Some(i),
                loose: elsewhere,
                words,
                doubt: None,
            }));
            // The same program by another spelling (`/usr/lib/git-core/git-push`, `hub`),
            // and git's aliases: for deny and ask rules. An alias whose meaning is not on the
            // command line may be any subcommand: every rule on the program may apply.
            let front = front_end(cmd, &words);
            if let Some(FrontEnd::Any(program)) = front {
                self.commands
                    .lookup_loose(program, &[], &[], true, &mut found);
                hits.extend(found.drain(..).map(|rule| program_doubt(rule, i)));
            }
            let spelled: Option<Vec<&str>> = match &front {
                Some(FrontEnd::As(v)) => Some(v.iter().map(String::as_str).collect()),
                _ => None,
            };
            for (k, words) in std::iter::once(&words).chain(spelled.as_ref()).enumerate() {
                let program = words[0];
                let mut rest = positional_words(program, &words[1..]);
                let flags = command_flags(&words[1..]);
                // A word only known at run time before any positional word (`git $x`,
                // `xargs git`) may be the subcommand: any word of a deny or ask rule on the
                // program.
                let open = k == 0 && !complete && rest.is_empty();
                self.commands
                    .lookup_loose(program, &rest, &flags, open, &mut found);
                // What does the same by another name (`git send-pack` pushes): for deny and
                // ask.
                if let Some(alias) = alias(program, &rest) {
                    rest[0] = alias;
                    self.commands
                        .lookup_loose(program, &rest, &flags, open, &mut found);
                }
            }
            hits.extend(found.drain(..).map(|rule| Hit {
                rule,
                command: Some(i),
                loose: true,
                words: 0,
                doubt: None,
            }));
            if PRIVILEGED.contains(&program) {
                self.lookup_run_as(call, cmd, i, hits);
            }
        }
    }

    /// The deny and ask rules on what a privileged runner (`sudo`, `pkexec`, `run0`,
    /// `chroot`, `setpriv`, …) runs: its options are not read (the shell's reading of
    /// `sudo -iu root rm` may take `root` for the command), so every word after it may start
    /// the command it runs, and any word may be shell code it hands a shell
    /// (`runuser -l u -c 'rm -rf x'`). What cannot be read (a word only known when it runs,
    /// more words or runners than are tried) may be any command.
    fn lookup_run_as(
        &self,
        call: &CallView<'_>,
        cmd: &SimpleCommand,
        i: usize,
        hits: &mut Vec<Hit>,
    ) {
        let mut found = Vec::new();
        let args = cmd.args();
        // What the shell unwrapped (`sudo CMD`) it judges as a command of its own, a word
        // only known when it runs included: here only literal words start a command.
        let dynamic = !cmd.wraps && args.iter().any(|w| w.literal().is_none());
        let nested = call.run_as_depth >= MAX_RUN_AS_DEPTH;
        if nested || args.len() > MAX_RUN_AS_WORDS || dynamic {
            self.commands.every(&mut found);
            hits.extend(found.drain(..).map(|rule| program_doubt(rule, i)));
            return;
        }
        let mut texts: Vec<String> = Vec::new();
        for (k, w) in args.iter().enumerate() {
            let Some(text) = w.literal() else { continue };
            // The words from here, as the shell would read them; a word's own text as code.
            if !text.starts_with('-') {
                let rest: Vec<&str> = args[k..].iter().map(|w| w.raw.as_str()).collect();
                texts.push(rest.join(" "));
            }
            let value = text.split_once('=').map_or(text, |(_, v)| v);
            if value.contains(char::is_whitespace) {
                texts.push(value.to_owned());
            }
        }
        for text in &texts {
            let Ok(script) = crate::shell::parse(text) else {
                self.commands.every(&mut found);
                hits.extend(found.drain(..).map(|rule| program_doubt(rule, i)));
                return;
            };
            let inner = CallView {
                tool: call.tool,
                mcp_ids: Vec::new(),
                servers: Vec::new(),
                script: Some(&script),
                paths: Vec::new(),
                input: &serde_json::Value::Null,
                in_workspace: Vec::new(),
                run_as_depth: call.run_as_depth + 1,
            };
            let mut more = Vec::new();
            self.lookup_commands(&inner, &mut more);
            hits.extend(more.into_iter().map(|h| Hit {
                command: Some(i),
                loose: true,
                words: 0,
                ..h
            }));
        }
    }
}

/// Programs that run a command as another user, with other privileges or in another root:
/// no allow rule covers what they run, whatever it names.
pub(crate) const PRIVILEGED: &[&str] = &[
    "sudo",
    "sudoedit",
    "doas",
    "su",
    "pkexec",
    "run0",
    "runuser",
    "setpriv",
    "chroot",
    "ksu",
    "sg",
    "newgrp",
    "capsh",
    "systemd-run",
    "machinectl",
    "nsenter",
    "unshare",
    "gosu",
    "su-exec",
    "setuidgid",
    "chpst",
    "s6-setuidgid",
];

/// How deep runners in runners are read before what they run may be any command (every
/// word after the outer one is tried as a start, so the inner ones' commands are among them).
const MAX_RUN_AS_DEPTH: usize = 1;
/// The most words after a runner read as where its command may start.
const MAX_RUN_AS_WORDS: usize = 16;

/// Every rule, indexed by what selects it.
#[derive(Debug)]
pub(crate) struct Selectors {
    pub exact: WordMap<String, Bucket>,
    pub servers: WordMap<String, Bucket>,
    pub globs: GlobSet,
    pub glob_buckets: Vec<Bucket>,
}

impl Selectors {
    /// Whether a rule selecting the call's tool looks at paths: else the paths the call
    /// names need not be resolved for these rules.
    pub(crate) fn wants_paths(&self, call: &CallView<'_>) -> bool {
        let by_id = call
            .identities()
            .filter_map(|id| self.exact.get(id))
            .any(Bucket::has_paths);
        let by_server = call
            .servers
            .iter()
            .filter_map(|s| self.servers.get(*s))
            .any(Bucket::has_paths);
        by_id || by_server || self.glob_buckets.iter().any(Bucket::has_paths)
    }

    /// The rules that match a call.
    pub(crate) fn lookup(&self, call: &CallView<'_>) -> Vec<Hit> {
        let mut hits = Vec::new();
        for id in call.identities() {
            if let Some(b) = self.exact.get(id) {
                b.lookup(call, &mut hits);
            }
        }
        for s in &call.servers {
            if let Some(b) = self.servers.get(*s) {
                b.lookup(call, &mut hits);
            }
        }
        if self.globs.is_empty() {
            return hits;
        }
        let mut globbed: Vec<usize> = call
            .identities()
            .flat_map(|id| self.globs.matches(id))
            .collect();
        globbed.sort_unstable();
        globbed.dedup();
        for i in globbed {
            self.glob_buckets[i].lookup(call, &mut hits);
        }
        hits
    }
}
