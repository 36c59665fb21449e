//! A seeded grammar of shell commands: programs from a table, with known and unknown options
//! (GNU long-option prefixes, clusters, attached values), operands from the fixture and beyond
//! it, wrappers, quoting, expansions, substitutions, redirections, pipelines, compound lists,
//! here-documents, environment assignments and `cd` forms.
//!
//! The table is data ([`default_programs`]); a table the policy keeps can replace it.

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same commands on
/// every machine and every version of the dependencies.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// What a program's operands are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operands {
    /// Files.
    Paths,
    /// A pattern, then files.
    PatternPaths,
    /// A script in the program's own language, then files.
    ScriptPaths(&'static [&'static str]),
    /// Words of text.
    Text,
    /// A command to run (wrappers).
    Command,
    /// None.
    Nothing,
}

/// One program of the table.
#[derive(Debug, Clone)]
pub struct ProgramSpec {
    /// Its name.
    pub name: &'static str,
    /// Short flags that take no value (`"alh"`).
    pub flags: &'static str,
    /// Short options that take a value (`"n"`), with example values.
    pub valued: &'static [(char, &'static [&'static str])],
    /// Long options that take no value.
    pub long: &'static [&'static str],
    /// Long options that take a value, with example values.
    pub long_valued: &'static [(&'static str, &'static [&'static str])],
    /// Subcommands (`git status`).
    pub subcommands: &'static [&'static str],
    /// Its operands.
    pub operands: Operands,
}

const N: &[&str] = &["1", "3", "10", "+2", "-1", "0"];
const FILES: &[&str] = &[
    "README.md",
    "out.txt",
    "/tmp/out",
    "src/main.rs",
    "~/.bashrc",
    "/etc/shadow",
];

macro_rules! program {
    ($name:expr, $flags:expr, $valued:expr, $long:expr, $long_valued:expr, $subs:expr, $ops:expr) => {
        ProgramSpec {
            name: $name,
            flags: $flags,
            valued: $valued,
            long: $long,
            long_valued: $long_valued,
            subcommands: $subs,
            operands: $ops,
        }
    };
}

/// The starting table: common read-only and writing programs.
pub fn default_programs() -> Vec<ProgramSpec> {
    use Operands::*;
    vec![
        program!(
            "ls",
            "alhRtrS1dFi",
            &[('I', &["*.md"]), ('w', N)],
            &[
                "all",
                "recursive",
                "human-readable",
                "directory",
                "dereference"
            ],
            &[
                ("color", &["never", "always"]),
                ("sort", &["size", "time"]),
                ("hide", &["*.rs"])
            ],
            &[],
            Paths
        ),
        program!(
            "cat",
            "nAbsvET",
            &[],
            &["number", "show-all", "squeeze-blank"],
            &[],
            &[],
            Paths
        ),
        program!(
            "head",
            "qvz",
            &[('n', N), ('c', N)],
            &["quiet", "verbose"],
            &[("lines", N), ("bytes", N)],
            &[],
            Paths
        ),
        program!(
            "tail",
            "qvr",
            &[('n', N), ('c', N)],
            &["quiet", "verbose"],
            &[("lines", N), ("bytes", N)],
            &[],
            Paths
        ),
        program!(
            "wc",
            "lcwmL",
            &[],
            &["lines", "bytes", "words"],
            &[("files0-from", &["README.md", "-"])],
            &[],
            Paths
        ),
        program!(
            "grep",
            "rRilnvcHhoqEFwxsL",
            &[
                ('e', &["main", "SECRET", "a.c"]),
                ('f', &["README.md", "~/.ssh/id_rsa"]),
                ('m', N),
                ('A', N),
                ('C', N)
            ],
            &[
                "recursive",
                "count",
                "only-matching",
                "null-data",
                "no-messages"
            ],
            &[
                ("include", &["*.rs", "*"]),
                ("exclude-dir", &[".git"]),
                ("color", &["never"]),
                ("file", &[".env"])
            ],
            &[],
            PatternPaths
        ),
        program!(
            "rg",
            "ilnvcHoqFwuS",
            &[
                ('e', &["main"]),
                ('g', &["*.rs", "!*.md"]),
                ('t', &["rust", "md"]),
                ('m', N)
            ],
            &[
                "hidden",
                "no-ignore",
                "files",
                "count",
                "search-zip",
                "follow",
                "json"
            ],
            &[
                ("pre", &["cat", "sh"]),
                ("glob", &["*"]),
                ("type-add", &["x:*.x"]),
                ("ignore-file", &[".env"])
            ],
            &[],
            PatternPaths
        ),
        program!(
            "sed",
            "nEsrzu",
            &[
                ('e', &["s/a/b/", "p", "1d", "w out.txt", "1e date"]),
                ('f', &["README.md"]),
                ('l', N)
            ],
            &["quiet", "silent", "posix", "debug", "sandbox"],
            &[
                ("expression", &["p", "s/x/y/w /tmp/o"]),
                ("in-place", &["", ".bak"]),
                ("line-length", N)
            ],
            &[],
            ScriptPaths(&[
                "p",
                "s/a/b/",
                "1d",
                "$!N",
                "/main/p",
                "s/x/y/w out.txt",
                "1e touch pwned",
                "r /etc/shadow",
                "w /tmp/copy",
                "y/abc/xyz/",
                "="
            ])
        ),
        program!(
            "awk",
            "",
            &[
                ('F', &[":", ","]),
                ('v', &["x=1", "OFS=-"]),
                ('f', &["README.md"])
            ],
            &[],
            &[("assign", &["x=1"]), ("field-separator", &[":"])],
            &[],
            ScriptPaths(&[
                "{print $1}",
                "NR==1",
                "{n++} END{print n}",
                "BEGIN{system(\"touch pwned\")}",
                "{print > \"out.txt\"}",
                "BEGIN{while((getline l < \"/etc/shadow\")>0) print l}",
                "{print | \"sh\"}",
                "BEGIN{print ENVIRON[\"HOME\"]}",
                "length > 3"
            ])
        ),
        program!(
            "sort",
            "rnufbdhicMsVz",
            &[
                ('k', &["1", "2,2n"]),
                ('t', &[":", ","]),
                ('o', FILES),
                ('T', &["/tmp", "."]),
                ('S', &["1M"])
            ],
            &["reverse", "numeric-sort", "unique", "stable", "check"],
            &[
                ("output", FILES),
                ("compress-program", &["gzip", "sh"]),
                ("files0-from", &["README.md"]),
                ("parallel", &["2"]),
                ("temporary-directory", &["."]),
                ("random-source", &["~/.ssh/id_rsa"])
            ],
            &[],
            Paths
        ),
        program!(
            "uniq",
            "cdiuzD",
            &[('f', N), ('s', N), ('w', N)],
            &["count", "repeated", "unique"],
            &[("skip-fields", N)],
            &[],
            Paths
        ),
        program!(
            "cut",
            "snz",
            &[
                ('d', &[":", ",", " "]),
                ('f', &["1", "1-3", "2,"]),
                ('c', &["1-5"]),
                ('b', &["1"])
            ],
            &["complement", "only-delimited"],
            &[
                ("delimiter", &[":"]),
                ("fields", &["1"]),
                ("output-delimiter", &["|"])
            ],
            &[],
            Paths
        ),
        program!(
            "tr",
            "dscCt",
            &[],
            &["delete", "squeeze-repeats"],
            &[],
            &[],
            ScriptPaths(&["a-z A-Z", "-d x", "'\\n' ' '", "[:lower:] [:upper:]"])
        ),
        program!(
            "find",
            "",
            &[],
            &[],
            &[],
            &[],
            ScriptPaths(&[
                ". -name '*.rs'",
                ". -type f",
                ". -maxdepth 1 -print",
                ". -name '*.tmp' -delete",
                ". -exec rm {} \\;",
                ". -execdir cat {} +",
                ". -fprint /tmp/list",
                ". -newer README.md",
                "src -size -1k -print0",
                ". -ok ls \\;",
                "/ -maxdepth 1",
                "~ -name id_rsa",
                ". -fls out.txt",
                ". -empty",
                ". -printf '%p\\n'",
                ". -L -type l"
            ])
        ),
        program!(
            "git",
            "",
            &[
                ('C', &["src", "..", "/"]),
                (
                    'c',
                    &[
                        "core.pager=cat",
                        "core.fsmonitor=touch pwned",
                        "alias.x=!touch pwned",
                        "diff.external=sh"
                    ]
                )
            ],
            &[
                "no-pager",
                "bare",
                "no-optional-locks",
                "paginate",
                "version",
                "help"
            ],
            &[
                ("git-dir", &[".git", "../x"]),
                ("work-tree", &["..", "/"]),
                ("exec-path", &["/tmp"]),
                ("config-env", &["core.pager=HOME"])
            ],
            &[
                "status",
                "log",
                "diff",
                "show",
                "config",
                "branch",
                "tag",
                "rev-parse",
                "ls-files",
                "blame",
                "grep",
                "describe",
                "remote",
                "stash",
                "add",
                "commit",
                "checkout",
                "reset",
                "clean",
                "rm",
                "mv",
                "init",
                "fetch",
                "push",
                "pull",
                "clone",
                "apply",
                "archive",
                "cat-file",
                "for-each-ref",
                "shortlog",
                "reflog",
                "notes",
                "worktree",
                "gc",
                "fsck",
                "count-objects",
                "var",
                "ls-tree",
                "name-rev",
                "merge-base",
                "switch",
                "restore",
                "help",
                "version",
                "bisect",
                "submodule",
                "format-patch",
                "difftool",
                "log --oneline",
                "config --list",
                "config --global user.name",
                "config --get user.name",
                "config core.pager cat",
                "config -l --show-origin",
                "status --short",
                "diff --stat",
                "diff --output=out.txt",
                "log -p -1",
                "log --format=%H -n 2",
                "show HEAD:README.md",
                "show --stat",
                "branch -a",
                "branch new",
                "branch -D x",
                "tag -l",
                "tag v2",
                "stash list",
                "stash",
                "ls-files -s",
                "grep -n main",
                "grep -O main",
                "blame README.md",
                "cat-file -p HEAD",
                "rev-parse HEAD",
                "describe --tags",
                "remote -v",
                "remote add o https://example.invalid/x",
                "archive HEAD -o out.tar",
                "format-patch -1",
                "diff --no-index README.md ~/.bashrc",
                "log --all --output=/tmp/log",
                "-p log",
                "diff --ext-diff",
                "show --textconv",
                "ls-remote",
                "reset --hard",
                "clean -fdx",
                "checkout -- .",
                "commit -am x",
                "add -A",
                "rm --cached README.md",
                "gc --prune=now",
                "fetch origin",
                "push --force"
            ],
            Paths
        ),
        program!(
            "tar",
            "tvxczjfOPpk",
            &[
                ('f', &["archive.tar", "-", "out.tar"]),
                ('C', &["src", "/tmp", "~"]),
                ('T', &["README.md"]),
                ('X', &["README.md"]),
                ('I', &["gzip", "sh"])
            ],
            &[
                "list",
                "extract",
                "create",
                "to-stdout",
                "verbose",
                "absolute-names",
                "overwrite",
                "remove-files"
            ],
            &[
                ("file", &["archive.tar"]),
                ("to-command", &["cat", "sh"]),
                ("checkpoint-action", &["exec=touch pwned"]),
                ("use-compress-program", &["gzip", "sh -c 'touch pwned'"]),
                ("directory", &["/tmp"]),
                ("exclude", &["*.rs"]),
                ("info-script", &["touch pwned"])
            ],
            &[],
            Paths
        ),
        program!(
            "xxd",
            "puris",
            &[('l', N), ('c', N), ('s', N), ('g', N)],
            &[],
            &[],
            &[],
            Paths
        ),
        program!(
            "jq",
            "rcnesSjaCM",
            &[('L', &["/tmp", "."])],
            &[
                "raw-output",
                "compact-output",
                "null-input",
                "slurp",
                "tab",
                "sort-keys",
                "exit-status"
            ],
            &[
                ("arg", &["x y"]),
                ("argjson", &["x 1"]),
                ("indent", &["2"]),
                ("rawfile", &["x .env", "x ~/.ssh/id_rsa"]),
                ("slurpfile", &["x README.md"]),
                ("from-file", &["README.md"])
            ],
            &[],
            ScriptPaths(&[
                ".",
                ".items",
                ".items[].name",
                "keys",
                "input_filename",
                "env",
                "$ENV.HOME",
                "$__loc__",
                "import \"x\" as x; .",
                "include \"x\"; .",
                "@base64",
                "..|numbers"
            ])
        ),
        program!(
            "env",
            "i0v",
            &[
                ('u', &["HOME", "PATH"]),
                ('C', &["src", "/"]),
                ('S', &["ls -l", "rm -rf x"])
            ],
            &["ignore-environment", "null", "debug"],
            &[
                ("unset", &["HOME"]),
                ("chdir", &["/tmp"]),
                ("split-string", &["touch x"]),
                ("block-signal", &["INT"])
            ],
            &[],
            Command
        ),
        program!(
            "xargs",
            "0rtpx",
            &[
                ('n', &["1", "2"]),
                ('I', &["{}", "X"]),
                ('a', &["README.md", "~/.ssh/id_rsa"]),
                ('d', &["\\n"]),
                ('P', &["2"]),
                ('L', &["1"]),
                ('s', &["100"])
            ],
            &["null", "no-run-if-empty", "verbose", "interactive"],
            &[
                ("arg-file", &["README.md"]),
                ("max-args", &["1"]),
                ("replace", &["{}"]),
                ("delimiter", &[","]),
                ("process-slot-var", &["X"])
            ],
            &[],
            Command
        ),
        program!("echo", "neE", &[], &[], &[], &[], Text),
        program!("printf", "", &[('v', &["var"])], &[], &[], &[], Text),
        program!(
            "tee",
            "aip",
            &[],
            &["append", "ignore-interrupts"],
            &[("output-error", &["warn"])],
            &[],
            Paths
        ),
        program!(
            "cp",
            "rRafpnvulsbiLPdx",
            &[('t', &["/tmp", "src"]), ('S', &["~"])],
            &[
                "recursive",
                "archive",
                "force",
                "no-clobber",
                "parents",
                "symbolic-link",
                "link",
                "remove-destination"
            ],
            &[
                ("target-directory", &["/tmp"]),
                ("backup", &["numbered"]),
                ("suffix", &[".bak"]),
                ("reflink", &["auto"])
            ],
            &[],
            Paths
        ),
        program!(
            "mv",
            "fniuvbT",
            &[('t', &["/tmp", "src"]), ('S', &["~"])],
            &["force", "no-clobber", "update", "verbose"],
            &[
                ("target-directory", &["/tmp"]),
                ("backup", &["t"]),
                ("suffix", &[".old"])
            ],
            &[],
            Paths
        ),
        program!(
            "rm",
            "rRfidvI",
            &[],
            &[
                "recursive",
                "force",
                "dir",
                "verbose",
                "no-preserve-root",
                "one-file-system",
                "preserve-root"
            ],
            &[("interactive", &["never"])],
            &[],
            Paths
        ),
        program!(
            "touch",
            "acmhf",
            &[
                ('d', &["2020-01-01", "now"]),
                ('r', &["README.md"]),
                ('t', &["202001010000"])
            ],
            &["no-create", "no-dereference"],
            &[
                ("date", &["yesterday"]),
                ("reference", &["README.md"]),
                ("time", &["atime"])
            ],
            &[],
            Paths
        ),
        program!(
            "date",
            "uRI",
            &[
                ('d', &["now", "@0", "yesterday"]),
                ('f', &["README.md", "/etc/shadow"]),
                ('r', &["README.md"]),
                ('s', &["2020-01-01"])
            ],
            &["utc", "rfc-email", "debug"],
            &[
                ("date", &["now"]),
                ("file", &["README.md"]),
                ("set", &["12:00"]),
                ("iso-8601", &["seconds"]),
                ("reference", &["~/.ssh/id_rsa"])
            ],
            &[],
            Text
        ),
        program!(
            "stat",
            "LftZ",
            &[('c', &["%n %s"])],
            &["dereference", "file-system", "terse"],
            &[("format", &["%n"]), ("printf", &["%n\\n"])],
            &[],
            Paths
        ),
        program!(
            "file",
            "bLhiNkz",
            &[('m', &["README.md"]), ('f', &["README.md"])],
            &["brief", "mime", "dereference"],
            &[
                ("magic-file", &["README.md"]),
                ("files-from", &["README.md"])
            ],
            &[],
            Paths
        ),
        program!(
            "du",
            "ahscLxk",
            &[('d', N)],
            &["all", "summarize", "human-readable", "total"],
            &[
                ("max-depth", N),
                ("exclude", &["*.rs"]),
                ("files0-from", &["README.md"])
            ],
            &[],
            Paths
        ),
        program!(
            "diff",
            "uqrNaiwBy",
            &[('U', N)],
            &["unified", "brief", "recursive", "new-file", "text"],
            &[
                ("to-file", &["README.md"]),
                ("from-file", &["README.md"]),
                ("label", &["x"]),
                ("exclude", &["*.rs"])
            ],
            &[],
            Paths
        ),
        program!(
            "md5sum",
            "bctwz",
            &[],
            &["check", "tag", "binary", "quiet"],
            &[],
            &[],
            Paths
        ),
        program!(
            "sha256sum",
            "bctwz",
            &[],
            &["check", "tag", "binary", "quiet"],
            &[],
            &[],
            Paths
        ),
        program!(
            "base64",
            "diw",
            &[('w', N)],
            &["decode", "ignore-garbage"],
            &[("wrap", N)],
            &[],
            Paths
        ),
        program!(
            "od",
            "bcdoxvAtN",
            &[('A', &["x", "n"]), ('t', &["x1", "c"]), ('N', N), ('j', N)],
            &["verbose"],
            &[("read-bytes", N), ("format", &["x1"])],
            &[],
            Paths
        ),
        program!(
            "nl",
            "bnpw",
            &[('b', &["a"]), ('s', &[":"])],
            &[],
            &[("body-numbering", &["a"])],
            &[],
            Paths
        ),
        program!(
            "tac",
            "brs",
            &[('s', &["x"])],
            &["before", "regex"],
            &[("separator", &["x"])],
            &[],
            Paths
        ),
        program!(
            "basename",
            "az",
            &[('s', &[".md"])],
            &["multiple", "zero"],
            &[("suffix", &[".md"])],
            &[],
            Paths
        ),
        program!("dirname", "z", &[], &["zero"], &[], &[], Paths),
        program!(
            "realpath",
            "emsLPqz",
            &[],
            &[
                "canonicalize-existing",
                "no-symlinks",
                "quiet",
                "relative-to=."
            ],
            &[("relative-to", &["/"]), ("relative-base", &["."])],
            &[],
            Paths
        ),
        program!(
            "readlink",
            "fenmqsvz",
            &[],
            &["canonicalize", "no-newline"],
            &[],
            &[],
            Paths
        ),
        program!(
            "pwd",
            "LP",
            &[],
            &["logical", "physical"],
            &[],
            &[],
            Nothing
        ),
        program!("which", "a", &[], &["all"], &[], &[], Text),
        program!("whoami", "", &[], &["version"], &[], &[], Nothing),
        program!(
            "id",
            "ugnrGz",
            &[],
            &["user", "group", "name", "real"],
            &[],
            &[],
            Text
        ),
        program!(
            "uname",
            "asnrvmpio",
            &[],
            &["all", "kernel-name"],
            &[],
            &[],
            Nothing
        ),
        program!(
            "mkdir",
            "pv",
            &[('m', &["700", "a+w"])],
            &["parents", "verbose"],
            &[("mode", &["755"])],
            &[],
            Paths
        ),
        program!(
            "rmdir",
            "pv",
            &[],
            &["parents", "ignore-fail-on-non-empty"],
            &[],
            &[],
            Paths
        ),
        program!(
            "ln",
            "sfnrvTbiL",
            &[('t', &["/tmp", "src"]), ('S', &["~"])],
            &["symbolic", "force", "relative", "no-dereference"],
            &[("target-directory", &["src"]), ("suffix", &[".old"])],
            &[],
            Paths
        ),
        program!(
            "chmod",
            "Rvcf",
            &[],
            &["recursive", "changes", "silent"],
            &[("reference", &["README.md"])],
            &[],
            ScriptPaths(&["+x", "644", "u+w", "-R 777", "a-r"])
        ),
        program!(
            "truncate",
            "co",
            &[('s', &["0", "+1K"]), ('r', &["README.md"])],
            &["no-create", "io-blocks"],
            &[("size", &["0"]), ("reference", &["README.md"])],
            &[],
            Paths
        ),
        program!(
            "dd",
            "",
            &[],
            &[],
            &[],
            &[],
            ScriptPaths(&[
                "if=README.md",
                "if=README.md of=out.txt",
                "if=/etc/shadow",
                "if=~/.ssh/id_rsa of=/dev/null",
                "if=/dev/zero of=README.md count=1",
                "status=none if=README.md bs=1 count=4"
            ])
        ),
        program!(
            "comm",
            "123iz",
            &[],
            &["check-order", "nocheck-order", "total"],
            &[("output-delimiter", &[","])],
            &[],
            Paths
        ),
        program!(
            "paste",
            "sz",
            &[('d', &[","])],
            &["serial"],
            &[("delimiters", &[","])],
            &[],
            Paths
        ),
        program!(
            "fold",
            "bsw",
            &[('w', N)],
            &["bytes", "spaces"],
            &[("width", N)],
            &[],
            Paths
        ),
        program!("rev", "", &[], &[], &[], &[], Paths),
        program!(
            "seq",
            "fsw",
            &[('s', &[","])],
            &["equal-width"],
            &[("separator", &[" "]), ("format", &["%g"])],
            &[],
            Text
        ),
        program!(
            "sleep",
            "",
            &[],
            &[],
            &[],
            &[],
            ScriptPaths(&["0", "0.1", "0.2s"])
        ),
        program!(
            "test",
            "",
            &[],
            &[],
            &[],
            &[],
            ScriptPaths(&[
                "-f README.md",
                "-d src",
                "-e ~/.ssh/id_rsa",
                "-r /etc/shadow",
                "-n x"
            ])
        ),
        program!("true", "", &[], &[], &[], &[], Nothing),
        program!("false", "", &[], &[], &[], &[], Nothing),
        program!(
            "tree",
            "adfilsphL",
            &[('L', N), ('I', &["*.rs"]), ('o', &["out.txt"])],
            &["noreport", "dirsfirst"],
            &[("filelimit", N)],
            &[],
            Paths
        ),
        program!(
            "less",
            "FRSXN",
            &[('o', &["out.txt"])],
            &["quit-if-one-screen"],
            &[("log-file", &["out.txt"])],
            &[],
            Paths
        ),
        program!(
            "strings",
            "afn",
            &[('n', N), ('t', &["x"])],
            &["all"],
            &[("bytes", N)],
            &[],
            Paths
        ),
        program!(
            "column",
            "tsnxe",
            &[('s', &[":"])],
            &["table"],
            &[("separator", &[":"])],
            &[],
            Paths
        ),
        program!(
            "split",
            "nde",
            &[('l', N), ('b', &["10"])],
            &["numeric-suffixes", "elide-empty-files"],
            &[("lines", N), ("filter", &["sh", "cat > x"])],
            &[],
            Paths
        ),
        program!(
            "install",
            "dvmDC",
            &[('m', &["755"]), ('t', &["/tmp"])],
            &["directory", "verbose"],
            &[("mode", &["600"]), ("target-directory", &["src"])],
            &[],
            Paths
        ),
        program!(
            "python3",
            "cBEIsuVq",
            &[
                (
                    'c',
                    &["print(1)", "open('x','w')", "import os; os.system('id')"]
                ),
                ('m', &["json.tool", "http.server", "this"])
            ],
            &["version", "help"],
            &[],
            &[],
            Paths
        ),
        program!(
            "perl",
            "nplaeEw",
            &[('e', &["print 1", "unlink 'README.md'", "system 'id'"])],
            &["version"],
            &[],
            &[],
            Paths
        ),
        program!(
            "make",
            "nkpqsBi",
            &[('f', &["Makefile"]), ('C', &["src"]), ('j', N)],
            &["dry-run", "just-print", "question", "print-data-base"],
            &[
                ("file", &["Makefile"]),
                ("eval", &["x:=$(shell touch pwned)"]),
                ("directory", &["."])
            ],
            &["all", "test", "clean"],
            Nothing
        ),
        program!(
            "curl",
            "sSLIfko",
            &[('o', &["out.txt"]), ('d', &["@.env"]), ('H', &["X: 1"])],
            &["silent", "head", "fail"],
            &[
                ("output", &["out.txt"]),
                ("data", &["@README.md"]),
                ("config", &["README.md"])
            ],
            &[],
            ScriptPaths(&[
                "https://example.invalid/",
                "file:///etc/shadow",
                "http://127.0.0.1:1/"
            ])
        ),
        program!(
            "ssh",
            "vNTq",
            &[
                ('i', &["~/.ssh/id_rsa"]),
                ('o', &["ProxyCommand=touch pwned"]),
                ('F', &["README.md"])
            ],
            &[],
            &[],
            &[],
            ScriptPaths(&["example.invalid", "-G example.invalid", "localhost true"])
        ),
        program!(
            "npm",
            "gsy",
            &[],
            &["version", "help"],
            &[("prefix", &["/tmp"])],
            &[
                "ls",
                "test",
                "run build",
                "install",
                "view react",
                "config list",
                "pack"
            ],
            Nothing
        ),
        program!(
            "cargo",
            "qv",
            &[('p', &["demo"])],
            &["version", "offline", "locked", "frozen"],
            &[
                ("manifest-path", &["Cargo.toml"]),
                ("config", &["build.rustc='sh'"])
            ],
            &[
                "metadata",
                "tree",
                "check",
                "build",
                "test",
                "fmt --check",
                "clippy",
                "run",
                "clean",
                "version",
                "pkgid",
                "read-manifest",
                "verify-project"
            ],
            Nothing
        ),
    ]
}

/// Operands from the fixture, and beyond it.
const PATHS: &[&str] = &[
    "README.md",
    "src/main.rs",
    "src/lib.rs",
    "Makefile",
    "Cargo.toml",
    "docs/guide.md",
    "data/items.json",
    "notes.txt",
    "archive.tar",
    "scripts/build.sh",
    ".github/workflows/ci.yml",
    ".gitignore",
    ".git/config",
    ".git/HEAD",
    ".",
    "src",
    "docs",
    "..",
    "/",
    "~",
    "~/",
    ".env",
    "server.key",
    "link-out",
    "link-etc/passwd",
    "link-etc/shadow",
    "../.ssh/id_rsa",
    "~/.ssh/id_rsa",
    "~/.aws/credentials",
    "~/.bashrc",
    "~/.gitconfig",
    "~/.config/google-chrome/Default/Cookies",
    "/etc/shadow",
    "/etc/passwd",
    "/etc/hostname",
    "/proc/self/environ",
    "/proc/1/root/etc/shadow",
    "/dev/null",
    "-",
    "*",
    "*.md",
    "src/*",
    ".*",
    "*.key",
    ".e*",
    "**",
    "?EADME.md",
    "[R]EADME.md",
    "{README.md,Makefile}",
    ".git",
    "nonexistent.txt",
    "out.txt",
    "/tmp/out",
    "new-dir",
    "\"$HOME/.ssh/id_rsa\"",
    "\"${HOME}\"",
    "\"$PWD/README.md\"",
    "$(echo README.md)",
    "`echo .env`",
    "~root",
    "$OLDPWD",
    "./-n",
    "\"$(printf %s .env)\"",
    "${HOME}/.aws/credentials",
    "/home/agent/project/README.md",
    "/home/agent/.ssh",
    "../project/README.md",
    "./scripts/build.sh",
];

const TEXT: &[&str] = &[
    "hello",
    "'a b'",
    "\"$HOME\"",
    "$((1+2))",
    "${X:-x}",
    "-n",
    "--help",
    "%s\\n",
    "'%s\\n' a b",
    "\\$x",
    "$'a\\tb'",
    "$(id -u)",
    "`date`",
    "$RANDOM",
    "${#HOME}",
    "~",
    "*",
    "\"$(cat .env)\"",
    "$(< ~/.ssh/id_rsa)",
    "-e 'x\\ny'",
    "\"$(git rev-parse HEAD)\"",
    "5",
    "0.1",
];

const PATTERNS: &[&str] = &[
    "main",
    "'fn .*'",
    "-e x",
    "SECRET",
    "''",
    "\"$USER\"",
    "'^#'",
    "TODO",
    "'a|b'",
    ".",
];

const ASSIGNMENTS: &[&str] = &[
    "LANG=C",
    "LC_ALL=C",
    "TZ=UTC",
    "NO_COLOR=1",
    "FOO=bar",
    "PATH=.:$PATH",
    "GIT_DIR=../x",
    "GIT_PAGER='sh -c id'",
    "PAGER=cat",
    "LD_PRELOAD=/tmp/x.so",
    "BASH_ENV=~/.bashrc",
    "HOME=/tmp",
    "TMPDIR=.",
    "IFS=/",
    "GIT_CONFIG_GLOBAL=/dev/null",
    "GIT_EXTERNAL_DIFF=sh",
    "EDITOR=vi",
    "PS4='$(id)'",
    "SHELLOPTS=xtrace",
    "GIT_SSH_COMMAND=touch",
];

const CDS: &[&str] = &[
    "cd src",
    "cd ..",
    "cd ~",
    "cd /",
    "cd -",
    "cd \"$HOME\"",
    "cd docs/",
    "cd /tmp",
    "pushd src >/dev/null",
    "cd $(dirname src/main.rs)",
    "cd ~/.ssh",
    "cd -P link-etc",
    "cd ''",
    "cd ../..",
    "CDPATH=.. cd .ssh",
    "cd \"$OLDPWD\"",
];

const REDIRECTS: &[&str] = &[
    "> out.txt",
    ">> out.txt",
    "2> err.txt",
    "2>/dev/null",
    "2>&1",
    "< README.md",
    "&> out.txt",
    ">| out.txt",
    "> /dev/null",
    ">&2",
    "3> x",
    "< ~/.ssh/id_rsa",
    "< /etc/shadow",
    "1<> README.md",
    "<<< \"text\"",
    "<<< $HOME",
    "> /tmp/o",
    "2>>/tmp/log",
    "< /dev/null",
    "> /dev/stdout",
    "<&0",
    "> ~/.bashrc",
    "> .env",
    "0< .env",
];

const WRAPPERS: &[&str] = &[
    "env",
    "env -i",
    "env LANG=C",
    "command",
    "builtin",
    "timeout 5",
    "timeout -s KILL 2",
    "nice",
    "nice -n 5",
    "nohup",
    "stdbuf -oL",
    "time",
    "exec",
    "sudo",
    "xargs",
    "bash -c",
    "sh -c",
    "eval",
    "env --",
    "command -p",
    "\\command",
    "nice --adjustment=1",
];

/// Builds commands from a table with a seed.
#[derive(Debug, Clone)]
pub struct Generator {
    rng: Rng,
    programs: Vec<ProgramSpec>,
}

impl Generator {
    /// A generator over `programs` (non-empty) seeded with `seed`.
    pub fn new(seed: u64, programs: Vec<ProgramSpec>) -> Self {
        Self {
            rng: Rng::new(seed),
            programs,
        }
    }

    /// The next command.
    pub fn command(&mut self) -> String {
        self.list(0)
    }

    fn list(&mut self, depth: usize) -> String {
        let first = self.pipeline(depth);
        if depth > 1 || !self.rng.chance(30) {
            return first;
        }
        let op = *self.rng.pick(&[" && ", " || ", "; ", " & "]);
        let second = self.pipeline(depth + 1);
        if op == " & " {
            format!("{first} & {second}; wait")
        } else {
            format!("{first}{op}{second}")
        }
    }

    fn pipeline(&mut self, depth: usize) -> String {
        let mut out = self.compound(depth);
        if depth < 2 && self.rng.chance(25) {
            let next = if self.rng.chance(25) {
                format!("xargs {}", self.simple(depth + 1, false))
            } else {
                self.simple(depth + 1, true)
            };
            out = format!("{out} | {next}");
        }
        if self.rng.chance(3) {
            out = format!("! {out}");
        }
        out
    }

    fn compound(&mut self, depth: usize) -> String {
        if depth >= 2 {
            return self.simple(depth, true);
        }
        match self.rng.below(100) {
            0..=64 => self.simple(depth, true),
            65..=71 => format!("{} && {}", self.rng.pick(CDS), self.simple(depth + 1, true)),
            72..=75 => format!("{{ {}; }}", self.list(depth + 1)),
            76..=79 => format!("( {} )", self.list(depth + 1)),
            80..=83 => format!(
                "for f in {}; do {} \"$f\"; done",
                self.rng.pick(&["*.md", "src/*", "*", ".*", "$(ls)", "a b"]),
                self.program_name()
            ),
            84..=86 => format!(
                "if {}; then {}; fi",
                self.simple(depth + 1, true),
                self.simple(depth + 1, true)
            ),
            87..=89 => format!(
                "while read -r l; do echo \"$l\"; done {}",
                self.rng
                    .pick(&["< README.md", "< .env", "< ~/.bashrc", "<<< x"])
            ),
            90..=91 => format!("case x in x) {};; esac", self.simple(depth + 1, true)),
            92..=94 => format!(
                "{} <<{}\n{}\n{}",
                self.simple(depth + 1, false),
                self.rng.pick(&["EOF", "'EOF'", "-EOF"]),
                self.rng
                    .pick(&["hello", "$HOME", "$(id)", "`touch pwned`", "a\tb"]),
                "EOF"
            ),
            95..=96 => format!("f() {{ {}; }}; f", self.simple(depth + 1, true)),
            _ => format!("{} {}", self.rng.pick(WRAPPERS), self.quoted_inner(depth)),
        }
    }

    /// A wrapped command: quoted for wrappers that take code as one word.
    fn quoted_inner(&mut self, depth: usize) -> String {
        let inner = self.simple(depth + 1, false);
        if self.rng.chance(50) {
            format!("'{}'", inner.replace('\'', "'\\''"))
        } else {
            inner
        }
    }

    fn program_name(&mut self) -> &'static str {
        self.programs[self.rng.below(self.programs.len())].name
    }

    fn simple(&mut self, depth: usize, with_redirects: bool) -> String {
        let spec = self.programs[self.rng.below(self.programs.len())].clone();
        let mut words: Vec<String> = Vec::new();
        if self.rng.chance(12) {
            words.push((*self.rng.pick(ASSIGNMENTS)).to_owned());
        }
        if self.rng.chance(10) && depth < 2 {
            words.push((*self.rng.pick(WRAPPERS)).to_owned());
        }
        words.push(self.program_word(spec.name));
        if !spec.subcommands.is_empty() && self.rng.chance(85) {
            words.push((*self.rng.pick(spec.subcommands)).to_owned());
        }
        let options = self.rng.below(4);
        for _ in 0..options {
            words.push(self.option(&spec));
        }
        if self.rng.chance(5) {
            words.push("--".to_owned());
        }
        match spec.operands {
            Operands::Paths => self.paths(&mut words),
            Operands::PatternPaths => {
                words.push((*self.rng.pick(PATTERNS)).to_owned());
                self.paths(&mut words);
            }
            Operands::ScriptPaths(scripts) => {
                let script = *self.rng.pick(scripts);
                if script.contains(' ') && !script.starts_with(['.', '-', '/', '~', 'i', 's'])
                    || script.contains(['$', '{', '|', '>', '"', '!', '\''])
                {
                    words.push(quote_single(script));
                } else {
                    words.push(script.to_owned());
                }
                if self.rng.chance(60) {
                    self.paths(&mut words);
                }
            }
            Operands::Text => {
                for _ in 0..self.rng.below(3) {
                    words.push((*self.rng.pick(TEXT)).to_owned());
                }
            }
            Operands::Command => {
                if depth < 2 && self.rng.chance(80) {
                    words.push(self.simple(depth + 1, false));
                }
            }
            Operands::Nothing => {}
        }
        if self.rng.chance(8) {
            words.push(self.substitution(depth));
        }
        if with_redirects && self.rng.chance(25) {
            words.push((*self.rng.pick(REDIRECTS)).to_owned());
        }
        words.join(" ")
    }

    fn program_word(&mut self, name: &str) -> String {
        match self.rng.below(40) {
            0 => format!("/usr/bin/{name}"),
            1 => format!("\\{name}"),
            2 => format!("'{name}'"),
            3 => format!("\"{name}\""),
            4 => format!("command {name}"),
            _ => name.to_owned(),
        }
    }

    fn paths(&mut self, words: &mut Vec<String>) {
        let count = match self.rng.below(10) {
            0 => 0,
            1..=6 => 1,
            7..=8 => 2,
            _ => 3,
        };
        for _ in 0..count {
            words.push((*self.rng.pick(PATHS)).to_owned());
        }
    }

    fn substitution(&mut self, depth: usize) -> String {
        let inner = if depth < 2 {
            self.simple(depth + 1, false)
        } else {
            "echo README.md".to_owned()
        };
        match self.rng.below(4) {
            0 => format!("$({inner})"),
            1 => format!("\"$({inner})\""),
            2 => format!("<({inner})"),
            _ => format!("`{}`", inner.replace('`', "")),
        }
    }

    fn option(&mut self, spec: &ProgramSpec) -> String {
        let flags: Vec<char> = spec.flags.chars().collect();
        match self.rng.below(100) {
            // A known short flag, or a cluster of them.
            0..=29 if !flags.is_empty() => {
                let n = 1 + self.rng.below(3);
                let cluster: String = (0..n).map(|_| *self.rng.pick(&flags)).collect();
                format!("-{cluster}")
            }
            // A short option with a value: separate, attached, or at the end of a cluster.
            30..=49 if !spec.valued.is_empty() => {
                let (c, values) = *self.rng.pick(spec.valued);
                let value = quote_if_needed(self.rng.pick::<&str>(values));
                match self.rng.below(3) {
                    0 => format!("-{c} {value}"),
                    1 => format!("-{c}{value}"),
                    _ if !flags.is_empty() => format!("-{}{c} {value}", self.rng.pick(&flags)),
                    _ => format!("-{c} {value}"),
                }
            }
            // A known long flag, maybe shortened to a prefix.
            50..=64 if !spec.long.is_empty() => {
                let long = *self.rng.pick(spec.long);
                format!("--{}", self.maybe_prefix(long))
            }
            // A long option with a value: `--opt=value` or `--opt value`, maybe a prefix.
            65..=84 if !spec.long_valued.is_empty() => {
                let (long, values) = *self.rng.pick(spec.long_valued);
                let value = quote_if_needed(self.rng.pick::<&str>(values));
                let name = self.maybe_prefix(long);
                if self.rng.chance(60) {
                    format!("--{name}={value}")
                } else {
                    format!("--{name} {value}")
                }
            }
            // Unknown options.
            _ => (*self.rng.pick(&[
                "--frobnicate",
                "-Q",
                "--no-such=1",
                "-@",
                "--",
                "-9",
                "--help",
                "--version",
                "-",
                "--=x",
                "---x",
                "-\u{e9}",
            ]))
            .to_owned(),
        }
    }

    fn maybe_prefix(&mut self, long: &str) -> String {
        if long.len() > 4 && self.rng.chance(30) {
            let cut = 2 + self.rng.below(long.len() - 2);
            long[..cut.min(long.len())].to_owned()
        } else {
            long.to_owned()
        }
    }
}

fn quote_single(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn quote_if_needed(s: &str) -> String {
    if s.is_empty() {
        "''".to_owned()
    } else if s.contains([
        ' ', '|', '>', '<', ';', '&', '(', ')', '$', '!', '*', '{', '\\',
    ]) {
        quote_single(s)
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_commands_and_another_seed_others() {
        let a: Vec<String> = {
            let mut g = Generator::new(7, default_programs());
            (0..50).map(|_| g.command()).collect()
        };
        let b: Vec<String> = {
            let mut g = Generator::new(7, default_programs());
            (0..50).map(|_| g.command()).collect()
        };
        let c: Vec<String> = {
            let mut g = Generator::new(8, default_programs());
            (0..50).map(|_| g.command()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn the_grammar_reaches_every_program_and_most_commands_parse() {
        let mut g = Generator::new(1, default_programs());
        let commands: Vec<String> = (0..3000).map(|_| g.command()).collect();
        for spec in default_programs() {
            assert!(
                commands.iter().any(|c| c.contains(spec.name)),
                "{} never generated",
                spec.name
            );
        }
        let parsed = commands
            .iter()
            .filter(|c| warrant_evaluators::shell::parse(c).is_ok())
            .count();
        assert!(
            parsed * 10 >= commands.len() * 9,
            "only {parsed} of 3000 parse"
        );
        for needle in [" | ", " && ", "<<", "$(", "--", "cd ", "for f in", "xargs"] {
            assert!(commands.iter().any(|c| c.contains(needle)), "no {needle:?}");
        }
    }

    #[test]
    fn the_random_numbers_stay_in_range() {
        let mut r = Rng::new(3);
        assert!((0..1000).all(|_| r.below(7) < 7));
        assert!((0..1000).any(|_| r.chance(50)) && (0..1000).any(|_| !r.chance(50)));
    }
}
