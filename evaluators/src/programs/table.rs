//! The program table: every program the policy can prove harmless, with its options (their
//! arity and effect, in the language of [`super::spec`]) and what its operands are. A program
//! or an option that is not here is not modeled, and a call that uses it is never allowed by
//! the policy.

use super::cursor::Syntax;

/// Programs that talk to other machines, each operand a host or a URL (`curl evil.com`,
/// `ssh user@host`, `nc host 80`): never modeled, and the rules read their hosts.
pub const NETWORK: &[&str] = &[
    "curl", "wget", "ssh", "scp", "sftp", "nc", "ncat", "netcat", "telnet", "ftp", "http", "https",
    "xh", "aria2c", "socat", "ping", "dig", "nslookup", "host", "whois", "fetch",
];

/// Options of network clients whose value is a file naming further hosts (`curl -K cfg`,
/// `wget -i urls.txt`, `ssh -F cfg`): with one, the hosts reached are only known when it runs.
pub const NETWORK_HOST_FILES: &[(&str, &[&str])] = &[
    ("curl", &["-K", "--config"]),
    ("wget", &["-i", "--input-file", "--config"]),
    ("aria2c", &["-i", "--input-file", "--conf-path"]),
    ("ssh", &["-F"]),
    ("scp", &["-F"]),
    ("sftp", &["-F"]),
];

/// Whether `arg` of network client `program` names a file of further hosts
/// ([`NETWORK_HOST_FILES`]), separate (`-K`), attached (`-Kcfg`) or with `=` (`--config=x`).
pub fn names_host_file(program: &str, arg: &str) -> bool {
    let options = NETWORK_HOST_FILES
        .iter()
        .find(|(p, _)| *p == program)
        .map_or(&[][..], |(_, o)| *o);
    options.iter().any(|o| {
        arg == *o
            || (o.len() == 2 && arg.starts_with(o) && !arg.starts_with("--"))
            || arg
                .strip_prefix(o)
                .is_some_and(|rest| rest.starts_with('='))
    })
}

/// What an option of a downloader does to the names it writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// Its value is a file it writes.
    File,
    /// Its value is the directory downloads are written in.
    Dir,
    /// Downloads are written under the URL's file name (`curl -O`).
    RemoteName,
    /// What is written cannot be told from the text (a file of further options, names the
    /// server gives, trees).
    Unknown,
}

/// A downloader's options, as far as what it writes goes.
#[derive(Debug, Clone, Copy)]
pub struct Downloader {
    /// Its name.
    pub name: &'static str,
    /// Its options whose value is the next word (or the rest of a short option's word).
    pub valued: &'static [&'static str],
    /// Its options that change what it writes, by their full names, with how.
    pub outputs: &'static [(&'static str, Output)],
    /// Whether it saves each URL under its file name without being asked (`wget`).
    pub saves_by_default: bool,
}

/// The downloaders whose writes are read from their options: `curl` (its options from
/// `curl --help all`) and `wget` (GNU getopt: `-n` takes the rest of its word, `-nv`; its
/// short options and the long ones that write or read a file of commands).
pub const DOWNLOADERS: &[Downloader] = &[
    Downloader {
        name: "curl",
        valued: CURL_VALUED,
        outputs: CURL_OUTPUTS,
        saves_by_default: false,
    },
    Downloader {
        name: "wget",
        valued: WGET_VALUED,
        outputs: WGET_OUTPUTS,
        saves_by_default: true,
    },
];

/// The downloader `name` ([`DOWNLOADERS`]).
pub fn downloader(name: &str) -> Option<&'static Downloader> {
    DOWNLOADERS.iter().find(|d| d.name == name)
}

const CURL_VALUED: &[&str] = &[
    "-A",
    "-C",
    "-D",
    "-E",
    "-F",
    "-H",
    "-K",
    "-P",
    "-Q",
    "-T",
    "-U",
    "-X",
    "-Y",
    "-b",
    "-c",
    "-d",
    "-e",
    "-h",
    "-m",
    "-o",
    "-r",
    "-t",
    "-u",
    "-w",
    "-x",
    "-y",
    "-z",
    "--abstract-unix-socket",
    "--alt-svc",
    "--aws-sigv4",
    "--cacert",
    "--capath",
    "--cert",
    "--cert-type",
    "--ciphers",
    "--config",
    "--connect-timeout",
    "--connect-to",
    "--continue-at",
    "--cookie",
    "--cookie-jar",
    "--create-file-mode",
    "--crlfile",
    "--curves",
    "--data",
    "--data-ascii",
    "--data-binary",
    "--data-raw",
    "--data-urlencode",
    "--delegation",
    "--dns-interface",
    "--dns-ipv4-addr",
    "--dns-ipv6-addr",
    "--dns-servers",
    "--doh-url",
    "--dump-header",
    "--egd-file",
    "--engine",
    "--etag-compare",
    "--etag-save",
    "--expect100-timeout",
    "--form",
    "--form-string",
    "--ftp-account",
    "--ftp-alternative-to-user",
    "--ftp-method",
    "--ftp-port",
    "--ftp-ssl-ccc-mode",
    "--happy-eyeballs-timeout-ms",
    "--header",
    "--help",
    "--hostpubmd5",
    "--hostpubsha256",
    "--hsts",
    "--interface",
    "--json",
    "--keepalive-time",
    "--key",
    "--key-type",
    "--krb",
    "--libcurl",
    "--limit-rate",
    "--local-port",
    "--login-options",
    "--mail-auth",
    "--mail-from",
    "--mail-rcpt",
    "--max-filesize",
    "--max-redirs",
    "--max-time",
    "--netrc-file",
    "--noproxy",
    "--oauth2-bearer",
    "--output",
    "--output-dir",
    "--parallel-max",
    "--pass",
    "--pinnedpubkey",
    "--preproxy",
    "--proto",
    "--proto-default",
    "--proto-redir",
    "--proxy",
    "--proxy-cacert",
    "--proxy-capath",
    "--proxy-cert",
    "--proxy-cert-type",
    "--proxy-ciphers",
    "--proxy-crlfile",
    "--proxy-header",
    "--proxy-key",
    "--proxy-key-type",
    "--proxy-pass",
    "--proxy-pinnedpubkey",
    "--proxy-service-name",
    "--proxy-tls13-ciphers",
    "--proxy-tlsauthtype",
    "--proxy-tlspassword",
    "--proxy-tlsuser",
    "--proxy-user",
    "--proxy1.0",
    "--pubkey",
    "--quote",
    "--random-file",
    "--range",
    "--rate",
    "--referer",
    "--request",
    "--request-target",
    "--resolve",
    "--retry",
    "--retry-delay",
    "--retry-max-time",
    "--sasl-authzid",
    "--service-name",
    "--socks4",
    "--socks4a",
    "--socks5",
    "--socks5-gssapi-service",
    "--socks5-hostname",
    "--speed-limit",
    "--speed-time",
    "--stderr",
    "--telnet-option",
    "--tftp-blksize",
    "--time-cond",
    "--tls-max",
    "--tls13-ciphers",
    "--tlsauthtype",
    "--tlspassword",
    "--tlsuser",
    "--trace",
    "--trace-ascii",
    "--unix-socket",
    "--upload-file",
    "--url",
    "--url-query",
    "--user",
    "--user-agent",
    "--write-out",
];

const CURL_OUTPUTS: &[(&str, Output)] = &[
    ("-o", Output::File),
    ("--output", Output::File),
    ("-D", Output::File),
    ("--dump-header", Output::File),
    ("-c", Output::File),
    ("--cookie-jar", Output::File),
    ("--trace", Output::File),
    ("--trace-ascii", Output::File),
    ("--stderr", Output::File),
    ("--etag-save", Output::File),
    ("--libcurl", Output::File),
    ("--hsts", Output::File),
    ("--alt-svc", Output::File),
    ("--output-dir", Output::Dir),
    ("-O", Output::RemoteName),
    ("--remote-name", Output::RemoteName),
    ("--remote-name-all", Output::RemoteName),
    ("-J", Output::Unknown),
    ("--remote-header-name", Output::Unknown),
    ("-K", Output::Unknown),
    ("--config", Output::Unknown),
];

const WGET_VALUED: &[&str] = &[
    "-A",
    "-B",
    "-D",
    "-I",
    "-O",
    "-P",
    "-Q",
    "-R",
    "-T",
    "-U",
    "-X",
    "-a",
    "-e",
    "-i",
    "-l",
    "-n",
    "-o",
    "-t",
    "-w",
    "--append-output",
    "--config",
    "--directory-prefix",
    "--execute",
    "--input-file",
    "--output-document",
    "--output-file",
    "--save-cookies",
    "--warc-file",
    "--hsts-file",
    "--rejected-log",
    "--accept",
    "--reject",
    "--domains",
    "--base",
    "--tries",
    "--timeout",
    "--wait",
    "--quota",
    "--level",
    "--user-agent",
    "--header",
    "--user",
    "--password",
    "--post-data",
    "--post-file",
    "--referer",
    "--load-cookies",
];

const WGET_OUTPUTS: &[(&str, Output)] = &[
    ("-O", Output::File),
    ("--output-document", Output::File),
    ("-o", Output::File),
    ("--output-file", Output::File),
    ("-a", Output::File),
    ("--append-output", Output::File),
    ("--save-cookies", Output::File),
    ("--rejected-log", Output::File),
    ("--hsts-file", Output::File),
    ("-P", Output::Dir),
    ("--directory-prefix", Output::Dir),
    ("-e", Output::Unknown),
    ("--execute", Output::Unknown),
    ("-i", Output::Unknown),
    ("--input-file", Output::Unknown),
    ("--config", Output::Unknown),
    ("-x", Output::Unknown),
    ("--force-directories", Output::Unknown),
    ("-r", Output::Unknown),
    ("--recursive", Output::Unknown),
    ("-m", Output::Unknown),
    ("--mirror", Output::Unknown),
    ("-p", Output::Unknown),
    ("--page-requisites", Output::Unknown),
    ("--content-disposition", Output::Unknown),
    ("--warc-file", Output::Unknown),
    ("-k", Output::Unknown),
    ("--convert-links", Output::Unknown),
    ("-F", Output::Unknown),
    ("--force-html", Output::Unknown),
    ("--input-metalink", Output::Unknown),
    ("--metalink-over-http", Output::Unknown),
    ("--backups", Output::Unknown),
];

/// How a shell builtin assigns the shell's own variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Assigns {
    /// It declares the names it is given, each with the value written after `=` (`declare
    /// f=x`, `export f`, `local f`): the values are in the text.
    Declares,
    /// It sets the variables it names to values only known when it runs (`read f`, `printf
    /// -v f`, `getopts o f`, `unset f`, `let f=1`, `wait -p f`, `compgen -V f`).
    Sets,
    /// It runs code, now or later, that may assign any variable (`eval`, `source`, `trap`,
    /// an alias, a key binding, a completion's function).
    RunsCode,
}

/// The builtins that assign variables, by how ([`Assigns`]).
pub const ASSIGNING: &[(&[&str], Assigns)] = &[
    (
        &["declare", "typeset", "local", "export", "readonly"],
        Assigns::Declares,
    ),
    (
        &[
            "read",
            "mapfile",
            "readarray",
            "getopts",
            "unset",
            "let",
            "wait",
            "printf",
            "compgen",
        ],
        Assigns::Sets,
    ),
    (
        &[
            "eval", "source", ".", "trap", "alias", "enable", "fc", "bind", "complete",
        ],
        Assigns::RunsCode,
    ),
];

/// How builtin `program` assigns variables ([`ASSIGNING`]); `None` when it assigns none.
pub fn assigns_variables(program: &str) -> Option<Assigns> {
    ASSIGNING
        .iter()
        .find(|(names, _)| names.contains(&program))
        .map(|(_, how)| *how)
}

/// What a program is, for the reviewer and for reasons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Prints or looks at files: `cat`, `head`, `ls`, `stat`.
    FileReader,
    /// Filters text: `sort`, `cut`, `sed`, `awk`, `jq`.
    TextFilter,
    /// Searches trees: `grep`, `rg`, `find`.
    Search,
    /// `git`.
    Git,
    /// Tells about the system or the shell: `date`, `uname`, `pwd`.
    Info,
    /// Shell builtins that only change the shell itself: `cd`, `export`, `set`.
    Shell,
    /// Runs another command: `env`, `xargs`, `timeout`.
    Wrapper,
    /// Toolchains asked for their version or metadata: `cargo`, `go`, `node`.
    Toolchain,
}

/// What a program's operands are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operands {
    /// It takes none.
    None,
    /// Data, not paths (`echo`, `basename`, `seq`).
    Text,
    /// Paths whose contents it reads (none: standard input).
    Paths,
    /// Paths it only looks at: names, sizes, types (`ls`, `stat`), one level down at most
    /// unless an option walks the tree (`ls -R`).
    Meta,
    /// Trees whose every name, size and type it looks at (`du`, `tree`).
    MetaTrees,
    /// Paths whose files it reads, whole directories included, through symlinks (`diff`).
    Trees,
    /// Trees whose files it reads as `rg` walks them: hidden and ignored files left out
    /// unless its options say otherwise (`tokei`, `scc`).
    Walked,
    /// A pattern first (unless an option gave it), then paths it reads.
    PatternPaths,
    /// A pattern first, then trees whose names it lists (`fd`).
    PatternMeta,
    /// An input path it reads, then an output path it writes (`uniq IN OUT`).
    InOut,
    /// The first operand is a command it runs (wrappers).
    Command,
    /// Read by a dedicated parser (sed scripts, find expressions, git subcommands, …).
    Special(Special),
}

/// Programs whose arguments need their own reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// A sed script, then paths.
    Sed,
    /// An awk program, then paths.
    Awk,
    /// A jq or yq filter, then paths.
    Jq,
    /// A find expression.
    Find,
    /// `test` / `[` expressions.
    Test,
    /// `date`: `+FORMAT` only.
    Date,
    /// `ps`: BSD letters or options, never the environment.
    Ps,
    /// git subcommands.
    Git,
    /// `tar` listing an archive.
    Tar,
    /// `dd` operands `key=value`.
    Dd,
    /// `export`, `declare`, `local`, `readonly`, `typeset`, `unset`: names of harmless
    /// variables only.
    Declare,
    /// `set`: shell options only.
    Set,
    /// `read`: into variables that steer nothing.
    Read,
    /// `xxd`: single-dash options, one input file, never an output file.
    Xxd,
    /// `unzip`, `zipinfo`, `gzip`, `gunzip`: an archive listed or tested, never extracted,
    /// printed or compressed.
    ArchiveList,
    /// `bash -c CODE`: the code is read on its own; start-up files are not.
    ShellCode,
    /// `printenv NAME…`: public variables only; alone it prints every one.
    Printenv,
    /// `ssh-keygen -l -f KEY`: a key's fingerprint, nothing written.
    Fingerprint,
    /// `printf` without `-v`.
    Printf,
    /// `ip [OPTIONS] OBJECT [show|list]`: iproute2's listings; its single-dash long options
    /// and its verbs' prefixes (`ip link s` is `set`) are read by their own reader.
    Ip,
    /// `netstat`: the table's options, and only with numeric output (otherwise it asks DNS
    /// for the name of every address).
    Netstat,
    /// `echo` and friends: every word is data.
    Echo,
    /// Toolchains: version queries, and the metadata subcommands the table names.
    Toolchain,
    /// `hash`: listing only; `alias`: open (it prints the aliases' definitions).
    Listing,
    /// `cd`, `pushd`, `popd`: followed by the shell reader.
    Cd,
    /// Programs that change files or processes, proven only when they print and exit:
    /// `touch --version`, `kill -l`.
    Query,
    /// `tput CAPNAME` and `stty size`: the terminal's size and the strings of its
    /// capabilities, printed; never a setting changed (`stty raw`, `tput init`, whose
    /// terminfo entry may name a program to run).
    Terminal,
}

/// One program of the table.
#[derive(Debug, Clone, Copy)]
pub struct Program {
    /// The names it is called by.
    pub names: &'static [&'static str],
    /// What it is.
    pub family: Family,
    /// Its options (see [`super::spec`]).
    pub options: &'static str,
    /// How it reads them.
    pub syntax: Syntax,
    /// Whether `-NUM` is an option (`head -5`).
    pub numeric: bool,
    /// What its operands are.
    pub operands: Operands,
    /// Programs it runs itself, by design (`cargo metadata` runs `rustc`).
    pub runs: &'static [&'static str],
    /// Whether it prints only a digest of what it reads (counts, sums, types), whatever its
    /// options but those marked `!C` ([`super::Effects::digest`]).
    pub digest: bool,
}

const fn p(
    names: &'static [&'static str],
    family: Family,
    options: &'static str,
    operands: Operands,
) -> Program {
    Program {
        names,
        family,
        options,
        syntax: Syntax::Gnu,
        numeric: false,
        operands,
        runs: &[],
        digest: false,
    }
}

const fn digest(mut program: Program) -> Program {
    program.digest = true;
    program
}

const fn numeric(mut program: Program) -> Program {
    program.numeric = true;
    program
}

const fn posix(mut program: Program) -> Program {
    program.syntax = Syntax::Posix;
    program
}

const fn clap(mut program: Program) -> Program {
    program.syntax = Syntax::Clap;
    program
}

const fn separate(mut program: Program) -> Program {
    program.syntax = Syntax::Separate;
    program
}

const fn runs(mut program: Program, programs: &'static [&'static str]) -> Program {
    program.runs = programs;
    program
}

use Family::*;
use Operands::*;

const HV: &str = "help version";

/// The options of `grep` and its aliases.
const GREP: &str = "E|extended-regexp F|fixed-strings G|basic-regexp P|perl-regexp \
    e|regexp=v!p f|file=r!p i|ignore-case no-ignore-case v|invert-match w|word-regexp \
    x|line-regexp y c|count!c color|colour=? L|files-without-match!c l|files-with-matches!c \
    m|max-count=v o|only-matching q|quiet|silent!c s|no-messages b|byte-offset H|with-filename \
    h|no-filename label=v n|line-number T|initial-tab u Z|null z|null-data A|after-context=v \
    B|before-context=v C|context=v a|text I binary-files=v D|devices=v exclude=v!e \
    exclude-from=r exclude-dir=v include=v!i r|recursive!R!H R|dereference-recursive!R!H!L \
    line-buffered U|binary V|version help";

/// The options `zgrep` passes on to `grep` (see its entry).
const ZGREP: &str = "E|extended-regexp F|fixed-strings G|basic-regexp P|perl-regexp \
    e|regexp=v!p i|ignore-case no-ignore-case v|invert-match w|word-regexp x|line-regexp y \
    c|count!c color|colour=? L|files-without-match!c l|files-with-matches!c m|max-count=v \
    o|only-matching q|quiet|silent!c s|no-messages b|byte-offset H|with-filename h|no-filename \
    n|line-number T|initial-tab u A|after-context=v B|before-context=v C|context=v a|text I \
    binary-files=v line-buffered U|binary V|version help";

/// The options of `rg`.
const RG: &str = "e|regexp=v!p f|file=r!p i|ignore-case S|smart-case s|case-sensitive \
    F|fixed-strings w|word-regexp x|line-regexp v|invert-match n|line-number N|no-line-number \
    l|files-with-matches!c files-without-match!c c|count!c count-matches!c o|only-matching \
    A|after-context=v B|before-context=v C|context=v g|glob=v!g iglob=v!g glob-case-insensitive \
    t|type=v!t T|type-not=v type-list!F hidden!H .!H u|unrestricted!H!I L|follow!L H|with-filename \
    I|no-filename heading no-heading color=v colors=v json vimgrep m|max-count=v \
    d|max-depth|maxdepth=v max-filesize=v files!F no-ignore!H!I no-ignore-vcs!H!I no-ignore-dot!I \
    no-ignore-parent!I no-ignore-global!I no-ignore-exclude!I no-messages q|quiet!c U|multiline \
    multiline-dotall P|pcre2 no-pcre2 p|pretty 0|null null-data sort=v sortr=v stats \
    trim r|replace=v column no-column b|byte-offset a|text binary E|encoding=v j|threads=v \
    M|max-columns=v max-columns-preview passthru|passthrough crlf word-regexp \
    line-buffered block-buffered no-config one-file-system include-zero \
    z|search-zip!x pre=v!x pre-glob=v hostname-bin=v!x debug!C trace!C h|help V|version";

/// The options shared by `git log`, `show`, `diff` and their kin.
pub(super) const GIT_LOG: &str = "p|u|patch s|no-patch U|unified=v stat=? numstat shortstat \
    dirstat=? summary name-only name-status raw patch-with-stat patch-with-raw z \
    abbrev=? abbrev-commit no-abbrev-commit oneline pretty=? format=v encoding=v \
    expand-tabs=? no-expand-tabs notes=? no-notes show-signature!x relative-date date=v \
    parents children left-right graph show-linear-break=? n|max-count=v skip=v since=v \
    after=v until=v before=v author=v committer=v grep-reflog=v grep=v all-match \
    invert-grep i|regexp-ignore-case basic-regexp E|extended-regexp F|fixed-strings \
    P|perl-regexp remove-empty merges no-merges min-parents=v max-parents=v no-min-parents \
    no-max-parents first-parent exclude-first-parent-only not all branches=? tags=? \
    remotes=? glob=v exclude=v reflog alternate-refs single-worktree ignore-missing \
    bisect stdin cherry-mark cherry-pick left-only right-only cherry walk-reflogs g \
    merge boundary simplify-by-decoration full-history dense sparse simplify-merges \
    ancestry-path=? date-order author-date-order topo-order reverse no-walk=? do-walk \
    decorate=? no-decorate decorate-refs=v decorate-refs-exclude=v source use-mailmap \
    mailmap log-size L=v follow full-diff S=v G=v find-object=v pickaxe-all pickaxe-regex \
    O=r R B|break-rewrites=? M|find-renames=? C|find-copies=? find-copies-harder \
    D|irreversible-delete l=v diff-filter=v w|ignore-all-space b|ignore-space-change \
    ignore-space-at-eol ignore-blank-lines ignore-cr-at-eol I|ignore-matching-lines=v \
    inter-hunk-context=v W|function-context exit-code quiet color=? no-color \
    color-moved=? no-color-moved color-words=? word-diff=? word-diff-regex=v \
    minimal patience histogram anchored=v diff-algorithm=v indent-heuristic \
    no-indent-heuristic full-index binary a|text R no-renames rename-empty no-rename-empty \
    check ws-error-highlight=v relative=? no-relative src-prefix=v dst-prefix=v \
    no-prefix default-prefix line-prefix=v ita-invisible-in-index ita-visible-in-index \
    submodule=?!x ignore-submodules=? cc c m dd remerge-diff=? combined-all-paths \
    diff-merges=v no-diff-merges t cached staged merge-base=v no-index!N \
    1|base 2|ours 3|theirs 0 show-notes=? standard-notes no-standard-notes \
    clear-decorations no-ext-diff no-textconv ext-diff!x textconv!x output=w \
    output-indicator-new=v output-indicator-old=v output-indicator-context=v \
    compact-summary no-stat histogram";

/// The table.
pub static PROGRAMS: &[Program] = &[
    // File readers.
    p(
        &["cat"],
        FileReader,
        "A|show-all b|number-nonblank e E|show-ends n|number s|squeeze-blank t T|show-tabs u v|show-nonprinting help version",
        Paths,
    ),
    numeric(p(
        &["head"],
        FileReader,
        "c|bytes=v n|lines=v q|quiet|silent v|verbose z|zero-terminated help version",
        Paths,
    )),
    numeric(p(
        &["tail"],
        FileReader,
        // `-f`/`-F` keep reading the files as they grow: still only reads.
        "c|bytes=v n|lines=v q|quiet|silent v|verbose z|zero-terminated f|follow=? F retry s|sleep-interval=v pid=v max-unchanged-stats=v help version",
        Paths,
    )),
    digest(p(
        &["wc"],
        FileReader,
        "c|bytes m|chars l|lines w|words L|max-line-length files0-from=r!x total=v help version",
        Paths,
    )),
    p(
        &["nl"],
        FileReader,
        "b|body-numbering=v d|section-delimiter=v f|footer-numbering=v h|header-numbering=v i|line-increment=v l|join-blank-lines=v n|number-format=v p|no-renumber s|number-separator=v v|starting-line-number=v w|number-width=v help version",
        Paths,
    ),
    p(
        &["od"],
        FileReader,
        "A|address-radix=v j|skip-bytes=v N|read-bytes=v S|strings=? t|format=v v|output-duplicates w|width=? traditional a b c d f i l o s x endian=v help version",
        Paths,
    ),
    // xxd reads `-ps`, `-cols 8` as single-dash words, not clusters: its own reader.
    p(&["xxd"], FileReader, "", Special(Special::Xxd)),
    p(
        &["hexdump", "hd"],
        FileReader,
        "b c C d o x e=v n|length=v s|skip=v v L|color=? help version",
        Paths,
    ),
    p(
        &["strings"],
        FileReader,
        "a|all d|data f|print-file-name n|bytes=v t|radix=v e|encoding=v w|include-all-whitespace s|output-separator=v help version",
        Paths,
    ),
    // `-c` reads lists of sums, and every file a list names.
    digest(p(
        &[
            "md5sum",
            "sha1sum",
            "sha224sum",
            "sha256sum",
            "sha384sum",
            "sha512sum",
            "b2sum",
        ],
        FileReader,
        "b|binary t|text z|zero tag untagged l|length=v c|check!S!C ignore-missing quiet status strict w|warn help version",
        Paths,
    )),
    // `--raw` prints the sum's own bytes, still no byte of the file.
    digest(p(
        &["cksum", "sum", "shasum"],
        FileReader,
        "b|binary t|text z|zero tag untagged l|length=v a|algorithm=v base64 raw r s|sysv help version",
        Paths,
    )),
    p(
        &["tac"],
        FileReader,
        "b|before r|regex s|separator=v help version",
        Paths,
    ),
    p(&["rev"], FileReader, "0|zero h|help V|version", Paths),
    p(
        &["base64", "base32"],
        FileReader,
        "d|decode i|ignore-garbage w|wrap=v help version",
        Paths,
    ),
    // `cmp` prints where two files differ; `-b` and `-l` print the differing bytes.
    digest(p(
        &["cmp"],
        FileReader,
        "b|print-bytes!C i|ignore-initial=v l|verbose!C n|bytes=v s|quiet|silent help version",
        Paths,
    )),
    p(
        &["diff"],
        FileReader,
        "a|text b|ignore-space-change B|ignore-blank-lines c C=v context=? d|minimal e|ed q|brief i|ignore-case I|ignore-matching-lines=v N|new-file n|rcs p|show-c-function r|recursive!R!H!L s|report-identical-files t|expand-tabs T|initial-tab u U=v unified=? w|ignore-all-space W|width=v y|side-by-side x|exclude=v X|exclude-from=r color=? label=v no-dereference normal strip-trailing-cr suppress-common-lines ignore-file-name-case no-ignore-file-name-case ignore-tab-expansion Z|ignore-trailing-space left-column speed-large-files horizon-lines=v tabsize=v suppress-blank-empty help version",
        Trees,
    ),
    // `gofmt` without `-w`: each Go file formatted to standard output, or its diff (`-d`) or
    // its name (`-l`) printed; a directory's `.go` files read as it walks it. Go's flags come
    // before the first operand.
    posix(p(&["gofmt"], FileReader, "l d s e r=v", Trees)),
    p(
        &["comm"],
        TextFilter,
        "1 2 3 check-order nocheck-order output-delimiter=v total z|zero-terminated help version",
        Paths,
    ),
    p(
        &["cut"],
        TextFilter,
        "b|bytes=v c|characters=v d|delimiter=v f|fields=v n complement s|only-delimited output-delimiter=v z|zero-terminated help version",
        Paths,
    ),
    p(
        &["paste"],
        TextFilter,
        "d|delimiters=v s|serial z|zero-terminated help version",
        Paths,
    ),
    p(
        &["join"],
        TextFilter,
        "a=v e=v i|ignore-case j=v o=v t=v v=v 1=v 2=v check-order nocheck-order header z|zero-terminated help version",
        Paths,
    ),
    p(
        &["column"],
        TextFilter,
        "t|table s|separator=v o|output-separator=v c|output-width=v x|fillrows n|table-name=v N|table-columns=v R|table-right=v T|table-truncate=v W|table-wrap=v E|table-noextreme=v H|table-hide=v O|table-order=v J|json d|table-noheadings L|keep-empty-lines h|help V|version",
        Paths,
    ),
    numeric(p(
        &["fold"],
        TextFilter,
        "b|bytes s|spaces w|width=v help version",
        Paths,
    )),
    numeric(p(
        &["expand", "unexpand"],
        TextFilter,
        "i|initial t|tabs=v a|all first-only help version",
        Paths,
    )),
    p(
        &["fmt"],
        TextFilter,
        "c|crown-margin p|prefix=v s|split-only t|tagged-paragraph u|uniform-spacing w|width=v g|goal=v help version",
        Paths,
    ),
    // `-NUM` prints NUM columns.
    numeric(p(
        &["pr"],
        TextFilter,
        "a|across columns=v d|double-space F|f|form-feed h|header=v l|length=v m|merge n|number-lines=? o|indent=v r|no-file-warnings s|separator=? t|omit-header T|omit-pagination w|width=v W|page-width=v help version",
        Paths,
    )),
    p(
        &["uniq"],
        TextFilter,
        "c|count d|repeated D all-repeated=? f|skip-fields=v group=? i|ignore-case s|skip-chars=v u|unique z|zero-terminated w|check-chars=v help version",
        InOut,
    ),
    p(
        &["sort"],
        TextFilter,
        "b|ignore-leading-blanks d|dictionary-order f|ignore-case g|general-numeric-sort i|ignore-nonprinting M|month-sort h|human-numeric-sort n|numeric-sort R|random-sort random-source=r r|reverse sort=v V|version-sort c C check=? debug files0-from=r!x k|key=v m|merge o|output=w s|stable S|buffer-size=v parallel=v t|field-separator=v u|unique z|zero-terminated help version",
        Paths,
    ),
    p(
        &["tr"],
        TextFilter,
        "c|C|complement d|delete s|squeeze-repeats t|truncate-set1 help version",
        Text,
    ),
    // A character set is a name glibc looks up in its own module list, or, when it holds a
    // `/`, a charmap file it reads first (POSIX: `iconv -f ./.env`, `-t ../key`): the value
    // is read as a path (`ascii//TRANSLIT`, a file that is not there, is read as one too).
    p(
        &["iconv"],
        TextFilter,
        "f|from-code=r t|to-code=r l|list c o|output=w s|silent verbose help usage V|version",
        Paths,
    ),
    // With `-e` the operands are lines, not files: read as paths they only make the policy
    // stricter.
    p(
        &["shuf"],
        TextFilter,
        "e|echo i|input-range=v n|head-count=v o|output=w random-source=r r|repeat z|zero-terminated help version",
        Paths,
    ),
    p(
        &["numfmt"],
        TextFilter,
        "d|delimiter=v field=v format=v from=v from-unit=v grouping header=? invalid=v padding=v round=v suffix=v to=v to-unit=v z|zero-terminated help version",
        Text,
    ),
    runs(
        p(
            &["sdiff"],
            FileReader,
            "a|text b|ignore-space-change B|ignore-blank-lines d|minimal i|ignore-case I|ignore-matching-lines=v l|left-column s|suppress-common-lines t|expand-tabs tabsize=v w|width=v W|ignore-all-space Z|ignore-trailing-space strip-trailing-cr o|output=w diff-program=v!x help version",
            Trees,
        ),
        &["diff"],
    ),
    runs(
        p(
            &["diff3"],
            FileReader,
            "a|text A|show-all e|ed E|show-overlap x|overlap-only X 3|easy-only i m|merge L|label=v strip-trailing-cr T|initial-tab help version",
            Trees,
        ),
        &["diff"],
    ),
    // Looking at files without reading them.
    p(
        &["ls", "dir", "vdir"],
        FileReader,
        "a|all A|almost-all author b|escape B|ignore-backups c C color=? d|directory D|dired f F|classify=? file-type format=v full-time g group-directories-first G|no-group h|human-readable si H|dereference-command-line dereference-command-line-symlink-to-dir hide=v hyperlink=? indicator-style=v i|inode I|ignore=v k|kibibytes l L|dereference!L m n|numeric-uid-gid N|literal o p q|hide-control-chars show-control-chars Q|quote-name quoting-style=v r|reverse R|recursive!R s|size S sort=v time=v time-style=v t T|tabsize=v u U v w|width=v x X Z|context 1 help version",
        Meta,
    ),
    p(
        &["exa", "eza"],
        FileReader,
        "l|long a|all A|almost-all 1|oneline T|tree!R R|recurse!R L|level=v h|header G|grid x|across F|classify D|only-dirs f|only-files r|reverse s|sort=v git icons no-icons color=v colour=v group-directories-first group-directories-last g|group H|links i|inode b|binary B|bytes m|modified u|accessed U|created time-style=v no-permissions no-user no-time no-filesize",
        Meta,
    ),
    p(
        &["stat"],
        FileReader,
        "L|dereference f|file-system c|format=v printf=v t|terse cached=v help version",
        Meta,
    ),
    // `file` is no digest: libmagic quotes a file's first line in some kinds it describes
    // (HP-GL: a text starting with `PA`, `SP`, `NP`, `IN;`).
    p(
        &["file"],
        FileReader,
        "b|brief i|mime mime-type mime-encoding L|dereference h|no-dereference k|keep-going N|no-pad 0|print0 r|raw E F|separator=v e|exclude=v help v|version",
        // `file` reads the first bytes of what it describes.
        Paths,
    ),
    p(
        &["du"],
        FileReader,
        "a|all b|bytes c|total h|human-readable s|summarize d|max-depth=v k m x|one-file-system L|dereference!L P|no-dereference H D apparent-size B|block-size=v exclude=v time=? l|count-links 0|null S|separate-dirs si t|threshold=v inodes help version",
        MetaTrees,
    ),
    p(
        &["df"],
        Info,
        "h|human-readable H|si T|print-type i|inodes a|all l|local x|exclude-type=v t|type=v P|portability B|block-size=v output=? total no-sync help version",
        Meta,
    ),
    separate(p(
        &["tree"],
        FileReader,
        "a d l!L f i q N Q p u g s h D F r t c U v L=v P=v I=v n C J X o=w noreport charset=v filelimit=v dirsfirst du prune si gitignore matchdirs ignore-case help version",
        MetaTrees,
    )),
    p(
        &["realpath"],
        FileReader,
        "e|canonicalize-existing m|canonicalize-missing L|logical P|physical q|quiet s|strip|no-symlinks z|zero relative-to=v relative-base=v help version",
        Meta,
    ),
    p(
        &["readlink"],
        FileReader,
        "f|canonicalize e|canonicalize-existing m|canonicalize-missing n|no-newline q|quiet s|silent v|verbose z|zero help version",
        Meta,
    ),
    p(
        &["namei"],
        FileReader,
        "x|mountpoints l|long m|modes n|nosymlinks o|owners v|vertical Z|context h|help V|version",
        Meta,
    ),
    p(
        &["basename"],
        Info,
        "a|multiple s|suffix=v z|zero help version",
        Text,
    ),
    p(&["dirname"], Info, "z|zero help version", Text),
    // Searching.
    numeric(p(&["grep"], Search, GREP, PatternPaths)),
    runs(
        runs(
            numeric(p(&["egrep", "fgrep"], Search, GREP, PatternPaths)),
            &["grep"],
        ),
        &["grep"],
    ),
    // `zgrep` is a shell script that decompresses each file with `gzip -cdfq` (plain files
    // pass through) and hands it to `grep`; it refuses `-r`, `-R`, `-d`, `-z`, `-Z` and the
    // include and exclude options, and copies a pattern file that is not a regular file
    // (`-f -`) to a temporary file: `-f` is left out.
    runs(
        numeric(p(
            &["zgrep", "zegrep", "zfgrep"],
            Search,
            ZGREP,
            PatternPaths,
        )),
        &["sh", "gzip", "grep"],
    ),
    // `zcat` is `gzip -cd`; `-f` passes files that are not compressed through.
    runs(
        p(
            &["zcat"],
            FileReader,
            "f|force q|quiet v|verbose h|help V|version L|license",
            Paths,
        ),
        &["sh", "gzip"],
    ),
    // `xzcat` and `bzcat` decompress their files to standard output; with `-c` implied no
    // option of these makes them write a file.
    p(
        &["xzcat", "lzcat"],
        FileReader,
        "d|decompress k|keep f|force c|stdout q|quiet v|verbose T|threads=v h|help V|version",
        Paths,
    ),
    p(
        &["bzcat"],
        FileReader,
        "s|small d|decompress k|keep f|force c|stdout q|quiet v|verbose h|help V|version L|license",
        Paths,
    ),
    clap(p(&["rg"], Search, RG, Special(Special::Jq))),
    // ag asks git for the user's excludes file through the shell (`sh -c "git config -z
    // --path --get core.excludesfile"`), whatever its options: it runs both.
    runs(
        p(
            &["ag"],
            Search,
            "i|ignore-case s|case-sensitive S|smart-case w|word-regexp Q|literal v|invert-match l|files-with-matches L|files-without-matches c|count A|after=v B|before=v C|context=v color nocolor group nogroup heading noheading H|column f|follow!L hidden!H u|unrestricted!H!I U|skip-vcs-ignores!I t|all-text a|all-types m|max-count=v depth=v 0|null print0 vimgrep one-device ignore=v ignore-dir=v o|only-matching print-long-lines silent stats h|help version",
            Special(Special::Jq),
        ),
        &["sh", "git"],
    ),
    p(&["yes"], Info, HV, Text),
    // Line counters print counts, never a file's text.
    digest(p(
        &["tokei"],
        FileReader,
        "f|files l|languages o|output=v s|sort=v t|type=v e|exclude=v!e hidden!H no-ignore!I no-ignore-vcs!I no-ignore-parent!I no-ignore-dot!I C|compact c|columns=v n|num-format=v v|verbose h|help V|version",
        Walked,
    )),
    digest(p(
        &["scc"],
        FileReader,
        "no-cocomo no-complexity w|wide f|format=v s|sort=v exclude-dir=v i|include-ext=v no-gitignore!I no-ignore!I c|ci M|not-match=v x|exclude-ext=v by-file no-duplicates no-min-gen no-size h|help v|version",
        Walked,
    )),
    p(
        &["printenv"],
        Info,
        "0|null help version",
        Special(Special::Printenv),
    ),
    p(
        &["ssh-keygen"],
        Info,
        "l E=v f=r v",
        Special(Special::Fingerprint),
    ),
    p(
        &["bc"],
        Info,
        "l|mathlib q|quiet s|standard w|warn h|help v|version",
        Paths,
    ),
    // `-l` (`--list-details`) runs `ls -l` on what it finds.
    runs(
        clap(p(
            &["fd", "fdfind"],
            Search,
            "H|hidden!H I|no-ignore!H u|unrestricted!H s|case-sensitive i|ignore-case g|glob regex F|fixed-strings a|absolute-path p|full-path 0|print0 d|max-depth=v min-depth=v exact-depth=v E|exclude=v t|type=v e|extension=v S|size=v changed-within=v changed-before=v o|owner=v c|color=v j|threads=v max-results=v 1 l|list-details q|quiet show-errors path-separator=v prune L|follow!L h|help V|version",
            PatternMeta,
        )),
        &["ls"],
    ),
    p(&["find"], Search, "", Special(Special::Find)),
    // Embedded languages.
    p(
        &["sed"],
        TextFilter,
        "n|quiet|silent e|expression=v f|file=r E|r|regexp-extended s|separate z|null-data|zero-terminated l|line-length=v b|binary debug posix sandbox u|unbuffered follow-symlinks i|in-place=?!w help version",
        Special(Special::Sed),
    ),
    // awk reads options only before its program: `awk PROG -F .env` reads `-F` and `.env`.
    posix(p(
        &["awk", "gawk", "mawk", "nawk"],
        TextFilter,
        "F|field-separator=v v|assign=v",
        Special(Special::Awk),
    )),
    p(
        &["jq"],
        TextFilter,
        "r|raw-output j|join-output a|ascii-output c|compact-output n|null-input s|slurp e|exit-status S|sort-keys C|color-output M|monochrome-output tab indent=v unbuffered stream stream-errors seq arg=v!2 argjson=v!2 args jsonargs R|raw-input raw-output0 h|help V|version",
        Special(Special::Jq),
    ),
    // The Python `yq` is a wrapper of `jq`.
    runs(
        p(
            &["yq"],
            TextFilter,
            "r|raw-output y|yaml-output Y|yaml-roundtrip o|output-format=v p|input-format=v e|exit-status I|indent=v P|prettyPrint C|colors M|no-colors N|no-doc h|help V|version",
            Special(Special::Jq),
        ),
        &["jq"],
    ),
    p(&["test", "[", "[["], Shell, "", Special(Special::Test)),
    // Information about the system and the shell.
    p(&["echo"], Shell, "", Special(Special::Echo)),
    p(&["printf"], Shell, "", Special(Special::Printf)),
    p(&["true", "false", ":"], Shell, "", Special(Special::Echo)),
    p(&["pwd"], Shell, "L P", None),
    p(
        &["date"],
        Info,
        "d|date=v f|file=r I|iso-8601=? R|rfc-email rfc-3339=v r|reference=v u|utc|universal debug resolution help version",
        Special(Special::Date),
    ),
    p(&["whoami", "logname", "arch", "users"], Info, HV, None),
    p(
        &["id"],
        Info,
        "u|user g|group G|groups n|name r|real z|zero a Z|context help version",
        Text,
    ),
    p(
        &["uname"],
        Info,
        "a|all s|kernel-name n|nodename r|kernel-release v|kernel-version m|machine p|processor i|hardware-platform o|operating-system help version",
        None,
    ),
    p(&["hostname"], Info, "s|short h|help V|version", None),
    p(&["nproc"], Info, "all ignore=v help version", None),
    p(&["tty"], Info, "s|silent|quiet help version", None),
    // The terminal: `tput cols`, `tput setaf 1`, `stty size`, `stty -a`; never `stty -F DEVICE`
    // (opening a line may signal a modem) or `tput -S` (capability names from its input).
    p(&["tput"], Info, "T=v V", Special(Special::Terminal)),
    p(
        &["stty"],
        Info,
        "a|all g|save help version",
        Special(Special::Terminal),
    ),
    p(&["groups"], Info, HV, Text),
    p(&["uptime"], Info, "p|pretty s|since h|help V|version", None),
    // Sockets and the processes' names that hold them; never `-K` (closes sockets), `-F`
    // (reads a file) or `-N` (enters a namespace); `-D` writes the file it names. Never `-r`
    // (asks DNS for every address's name) nor a filter (`dst HOST`: ss resolves its host
    // names through DNS whatever `-n` says, a channel out of the machine).
    p(
        &["ss"],
        Info,
        "h|help V|version H|no-header O|oneline n|numeric a|all l|listening o|options          e|extended m|memory p|processes i|info s|summary 4|ipv4 6|ipv6 0|packet t|tcp          M|mptcp S|sctp u|udp d|dccp w|raw x|unix T|threads A|query|socket=v f|family=v          D|diag=w",
        None,
    ),
    // Interfaces, addresses and routes: `ip addr`, `ip -br link show`.
    p(&["ip"], Info, "", Special(Special::Ip)),
    // Sockets with the names of the processes that hold them (`-p`), never the command lines;
    // `-A|--protocol` takes a family, `--interfaces` lists interfaces.
    p(
        &["netstat"],
        Info,
        "a|all l|listening n|numeric numeric-hosts numeric-ports numeric-users t|tcp u|udp U|udplite w|raw x|unix 4|inet 6|inet6 A|protocol=v p|program e|extend o|timers W|wide r|route i|interfaces=? g|groups s|statistics M|masquerade v|verbose c|continuous C F h|help V|version",
        Special(Special::Netstat),
    ),
    // Memory, processes' counts, disks and slabs from `/proc`; the operands are a delay and a
    // count.
    p(
        &["vmstat"],
        Info,
        "a|active f|forks m|slabs n|one-header s|stats d|disk D|disk-sum p|partition=v S|unit=v w|wide t|timestamp y|no-first h|help V|version",
        Text,
    ),
    // Process ids and names (`-l`), never command lines: `-a` prints them and `-f` matches
    // against them; `-F` reads a pid file.
    p(
        &["pgrep"],
        Info,
        "d|delimiter=v l|list-name v|inverse w|lightweight c|count g|pgroup=v G|group=v i|ignore-case n|newest o|oldest O|older=v P|parent=v s|session=v t|terminal=v u|euid=v U|uid=v x|exact r|runstates=v A|ignore-ancestors h|help V|version",
        Text,
    ),
    // `shopt` and `shopt NAME`: print shell options; setting one (`-s`, `-u`) changes how
    // words expand and is not listed.
    p(&["shopt"], Shell, "p q o", Text),
    p(
        &[
            "kill", "touch", "mkdir", "cp", "mv", "ln", "install", "rm", "rmdir", "chmod", "chown",
            "chgrp", "tee", "truncate",
        ],
        Shell,
        "",
        Special(Special::Query),
    ),
    p(
        &["who"],
        Info,
        "a|all b|boot d|dead H|heading l|login m q|count r|runlevel s|short t|time T|w|mesg u|users help version",
        None,
    ),
    p(
        &["locale"],
        Info,
        "a|all-locales m|charmaps c|category-name k|keyword-name v|verbose help version",
        Text,
    ),
    p(&["getconf"], Info, "a|all", Text),
    p(
        &["lscpu"],
        Info,
        "a|all b|online c|offline e|extended=? p|parse=? J|json y|physical x|hex B|bytes h|help V|version",
        None,
    ),
    p(
        &["free"],
        Info,
        "b|bytes k|kibi m|mebi g|gibi tebi pebi kilo mega giga tera peta h|human si l|lohi t|total w|wide help V|version",
        None,
    ),
    p(
        &["lsblk"],
        Info,
        "a|all b|bytes d|nodeps f|fs J|json l|list n|noheadings o|output=v P|pairs p|paths r|raw S|scsi t|topology h|help V|version",
        None,
    ),
    p(&["factor"], Info, "h|exponents help version", Text),
    // Installed packages, asked of dpkg's database (dpkg 1.21, `dpkg --help`): only its query
    // actions, which `dpkg` hands to `dpkg-query`; an action that installs, removes or
    // configures is no option here.
    runs(
        p(
            &["dpkg"],
            Info,
            "l|list L|listfiles s|status S|search p|print-avail get-selections \
             print-architecture print-foreign-architectures help version",
            Text,
        ),
        &["dpkg-query"],
    ),
    p(
        &["dpkg-query"],
        Info,
        "l|list L|listfiles s|status S|search p|print-avail W|show f|showformat=v \
         no-pager help version",
        Text,
    ),
    // The ids of processes running the programs named (never their command lines).
    p(&["pidof"], Info, "s c n q x z o|omit-pid=v", Text),
    // Mounted filesystems: `mount` with no operand lists them (with one, it mounts);
    // `findmnt` looks at the paths or devices it is given.
    p(
        &["mount"],
        Info,
        "l|show-labels t|types=v h|help V|version",
        None,
    ),
    p(
        &["findmnt"],
        Info,
        "A|all a|ascii b|bytes D|df f|first-only J|json l|list n|noheadings o|output=v \
         P|pairs R|submounts r|raw t|types=v T|target=v M|mountpoint=v S|source=v \
         h|help V|version",
        Meta,
    ),
    // The dynamic loader's version only: `ldd FILE` may run FILE.
    p(&["ldd"], Info, "help version", None),
    // ELF headers, sections and symbol sizes of the files given (binutils 2.40).
    p(
        &["readelf"],
        FileReader,
        "a|all h|file-header l|program-headers|segments S|section-headers|sections \
         g|section-groups t|section-details e|headers s|syms|symbols dyn-syms n|notes \
         r|relocs u|unwind d|dynamic V|version-info A|arch-specific I|histogram W|wide \
         C|demangle H|help v|version",
        Paths,
    ),
    p(
        &["size"],
        FileReader,
        "A B G d o x t|totals common f format=v radix=v help V|version",
        Paths,
    ),
    p(
        &["cal", "ncal"],
        Info,
        "1 3 y|year m=v j|julian h|help V|version",
        Text,
    ),
    numeric(p(
        &["seq"],
        Info,
        "f|format=v s|separator=v w|equal-width help version",
        Text,
    )),
    p(&["sleep"], Info, HV, Text),
    p(&["expr"], Info, "", Special(Special::Echo)),
    p(&["ps"], Info, "", Special(Special::Ps)),
    p(&["which"], Info, "a s", Text),
    p(&["type"], Shell, "", Special(Special::Listing)),
    p(&["whereis"], Info, "b m s u l", Text),
    p(&["help"], Shell, "d m s", Text),
    p(&["jobs"], Shell, "l n p r s", Text),
    p(
        &[
            "exit", "return", "break", "continue", "shift", "times", "dirs",
        ],
        Shell,
        "",
        Special(Special::Echo),
    ),
    p(&["umask"], Shell, "p S", None),
    // `wait -p VAR` assigns (a subscript there is code): not listed.
    p(&["wait"], Shell, "n f", Text),
    p(
        &["ulimit"],
        Shell,
        "a S H b c d e f i k l m n p q r s t u v x P R T",
        // `ulimit -n` prints a limit; `ulimit -c unlimited` sets one (core dumps, a shell
        // whose later commands fail): a value is not modeled.
        None,
    ),
    p(&["alias", "hash"], Shell, "", Special(Special::Listing)),
    p(&["cd", "pushd", "popd"], Shell, "", Special(Special::Cd)),
    p(
        &["export", "declare", "typeset", "local", "readonly", "unset"],
        Shell,
        "",
        Special(Special::Declare),
    ),
    p(&["set"], Shell, "", Special(Special::Set)),
    p(
        &["bash", "sh", "dash"],
        Wrapper,
        "",
        Special(Special::ShellCode),
    ),
    p(
        &["read"],
        Shell,
        "r s a=v d=v n=v N=v p=v t=v u=v e i=v",
        Special(Special::Read),
    ),
    // `mapfile`/`readarray` fill an array from their input; never `-C` (a callback it runs).
    p(
        &["mapfile", "readarray"],
        Shell,
        "d=v n=v O=v s=v t u=v c=v",
        Special(Special::Read),
    ),
    // Wrappers: judged by what they run, which follows them in the script.
    posix(p(
        &["env"],
        Wrapper,
        "i|ignore-environment 0|null u|unset=v C|chdir=v!x S|split-string=v!x v|debug help version",
        Command,
    )),
    posix(p(
        &["timeout"],
        Wrapper,
        "k|kill-after=v s|signal=v foreground preserve-status v|verbose help version",
        Command,
    )),
    posix(p(
        &["nice"],
        Wrapper,
        "n|adjustment=v help version",
        Command,
    )),
    posix(p(&["nohup"], Wrapper, HV, Command)),
    posix(p(
        &["stdbuf"],
        Wrapper,
        "i|input=v o|output=v e|error=v help version",
        Command,
    )),
    posix(p(&["time"], Wrapper, "p", Command)),
    posix(p(&["command"], Wrapper, "p v V", Command)),
    posix(p(&["builtin", "exec"], Wrapper, "", Command)),
    posix(p(
        &["xargs"],
        Wrapper,
        "0|null a|arg-file=r d|delimiter=v E=v e|eof=? I=v i|replace=? L=v l|max-lines=? n|max-args=v P|max-procs=v r|no-run-if-empty s|max-chars=v t|verbose x|exit help version",
        Command,
    )),
    // Archives: listing only.
    // Compressed archives are read through the compressor.
    runs(
        p(&["tar"], FileReader, "", Special(Special::Tar)),
        &[
            "gzip", "bzip2", "xz", "lzma", "lzip", "lzop", "zstd", "compress", "unxz", "pigz",
        ],
    ),
    p(&["dd"], FileReader, "", Special(Special::Dd)),
    p(
        &["unzip", "zipinfo", "gzip"],
        FileReader,
        "",
        Special(Special::ArchiveList),
    ),
    // `gunzip` is a shell script running `gzip -d`.
    runs(
        p(&["gunzip"], FileReader, "", Special(Special::ArchiveList)),
        &["sh", "gzip"],
    ),
    // Version control.
    p(&["git"], Git, "", Special(Special::Git)),
    // Toolchains: versions and metadata.
    // `cargo fmt --version` and `cargo clippy --version` run the subcommand's program (and
    // rustfmt's) only to print their versions.
    runs(
        p(&["cargo"], Toolchain, "", Special(Special::Toolchain)),
        &["rustc", "cargo-fmt", "rustfmt", "cargo-clippy"],
    ),
    p(&["rustfmt"], Toolchain, "", Special(Special::Toolchain)),
    p(
        &[
            "rustc", "go", "node", "python", "python3", "gcc", "g++", "clang", "make", "cmake",
            "ruby", "perl", "deno", "docker", "bun", "wget", "openssl",
        ],
        Toolchain,
        "",
        Special(Special::Toolchain),
    ),
    // The C compiler driver, binutils and pkg-config: their version only.
    p(
        &["cc", "c++", "ld", "nm", "objdump", "pkg-config"],
        Toolchain,
        "",
        Special(Special::Toolchain),
    ),
    runs(
        p(&["rustup"], Toolchain, "", Special(Special::Toolchain)),
        &["rustc", "cargo"],
    ),
    runs(
        p(&["tsc"], Toolchain, "", Special(Special::Toolchain)),
        &["node"],
    ),
    // Not npm, npx, pip nor pip3, even for their version: the execution oracle saw npm
    // create `~/.npm` and pip open a socket while printing it.
];

/// Programs that delete or change the files or processes they are given (never modeled as
/// harmless), with every option they have (GNU coreutils 9, procps-ng 4 and psmisc: `PROGRAM
/// --help` and the sources' `long_options`), so that their arguments are read as
/// `getopt_long` reads them, abbreviations included (`rm --rec --forc ~`, `pkill --eu root`).
/// `!R`: the operands are reached as whole trees; `!D`: the root's protection is off; `!M`:
/// the option is the mode (`chmod -w FILE`, `chmod -x+r FILE`); `!U`: processes are chosen by
/// owner or group (`pkill -u USER`); `!X`: the names are regular expressions (`killall -r`);
/// `!V`: the processes chosen are those the names do not match (`pkill -v`).
pub const CHANGERS: &[(&[&str], &str)] = &[
    (
        &["cp"],
        "a|archive!R!K attributes-only backup=? b copy-contents d!K debug f|force i|interactive H l|link L|dereference!L n|no-clobber P|no-dereference!K p preserve=? no-preserve=v parents r|R|recursive!R reflink=? remove-destination sparse=v strip-trailing-slashes s|symbolic-link S|suffix=v t|target-directory=v T|no-target-directory u update=? v|verbose x|one-file-system Z context=? keep-directory-symlink help version",
    ),
    (
        &["pkill"],
        "signal=v q|queue=v e|echo c|count f|full g|pgroup=v!U G|group=v!U i|ignore-case n|newest o|oldest O|older=v P|parent=v s|session=v t|terminal=v u|euid=v!U U|uid=v!U v|inverse!V x|exact F|pidfile=v L|logpidfile r|runstates=v A|ignore-ancestors cgroup=v ns=v nslist=v h|help V|version",
    ),
    (
        &["killall"],
        "e|exact I|ignore-case g|process-group i|interactive l|list q|quiet r|regexp!X s|signal=v u|user=v!U v|verbose V|version w|wait n|ns=v o|older-than=v y|younger-than=v Z|context=v!X help",
    ),
    (
        &["rm"],
        "f|force i I interactive=? one-file-system no-preserve-root!D preserve-root=? r|R|recursive!R d|dir v|verbose -presume-input-tty help version",
    ),
    (
        &["rmdir"],
        "ignore-fail-on-non-empty p|parents v|verbose help version",
    ),
    (&["unlink"], "help version"),
    (
        &["shred"],
        "f|force n|iterations=v random-source=r s|size=v u remove=? v|verbose x|exact z|zero help version",
    ),
    (
        &["truncate"],
        "c|no-create o|io-blocks r|reference=r s|size=v help version",
    ),
    (
        &["chmod"],
        "c|changes f|silent|quiet v|verbose no-preserve-root!D preserve-root reference=r R|recursive!R help version \
         r=?!M w=?!M x=?!M X=?!M s=?!M t=?!M u=?!M g=?!M o=?!M a=?!M ,=?!M +=?!M \
         0=?!M 1=?!M 2=?!M 3=?!M 4=?!M 5=?!M 6=?!M 7=?!M",
    ),
    (
        &["chown"],
        "c|changes f|silent|quiet v|verbose dereference h|no-dereference from=v no-preserve-root!D preserve-root reference=r R|recursive!R H L P help version",
    ),
    (
        &["chgrp"],
        "c|changes f|silent|quiet v|verbose dereference h|no-dereference no-preserve-root!D preserve-root reference=r R|recursive!R H L P help version",
    ),
];

/// A program that makes code run later, outside the session that calls it (a service
/// manager, a job queue): what it installs or starts is a person's to decide, as the
/// crontab is.
#[derive(Debug, Clone, Copy)]
pub struct Scheduler {
    /// The names it is called by.
    pub names: &'static [&'static str],
    /// Its subcommands that install or enable code to run later or elsewhere (starting a
    /// service now is not among them: it is a binding ask as any other subcommand); `["*"]`:
    /// every call does, unless an option of `reads` is given.
    pub schedules: &'static [&'static str],
    /// Its subcommands that only print (or, for a program without subcommands, the short
    /// options that make it only print or remove jobs). Any other subcommand is a binding ask.
    pub reads: &'static [&'static str],
    /// Its options that take the next word as their value (a letter, or a long name without
    /// its dashes: `systemctl -p Id show X`), so that the value is not read as the subcommand.
    pub valued: &'static [&'static str],
}

/// Methods of the service manager's bus interface (`org.freedesktop.systemd1.Manager`) that
/// install, enable or start code outside the session, as `systemctl enable` and `systemd-run`
/// do: called with `busctl call`, `gdbus call` or `dbus-send`, they are the scheduler's.
pub const SYSTEMD_SCHEDULING_METHODS: &[&str] = &[
    "EnableUnitFiles",
    "EnableUnitFilesWithFlags",
    "ReenableUnitFiles",
    "LinkUnitFiles",
    "PresetUnitFiles",
    "PresetUnitFilesWithMode",
    "PresetAllUnitFiles",
    "AddDependencyUnitFiles",
    "RevertUnitFiles",
    "UnmaskUnitFiles",
    "SetDefaultTarget",
    "StartTransientUnit",
    "SetUnitProperties",
    "SetEnvironment",
    "UnsetAndSetEnvironment",
    "BindMountUnit",
    "MountImageUnit",
    "EnqueueMarkedJobs",
    "SetUserLinger",
];

/// Valued options shared by systemd's programs (`-H HOST`, `-M MACHINE`, `-p PROPERTY`, …).
const SYSTEMD_VALUED: &[&str] = &[
    "t",
    "type",
    "s",
    "signal",
    "H",
    "host",
    "M",
    "machine",
    "n",
    "lines",
    "o",
    "output",
    "p",
    "property",
    "P",
    "state",
    "kill-whom",
    "kill-value",
    "root",
    "image",
    "image-policy",
    "what",
    "timestamp",
    "job-mode",
    "preset-mode",
    "message",
    "boot-loader-entry",
    "reboot-argument",
    "drop-in",
    "when",
    "check-inhibitors",
    "legend",
];

/// The programs that make code run later outside the session ([`Scheduler`]).
pub const SCHEDULERS: &[Scheduler] = &[
    // `at TIME`, `batch`: run the commands of their input later; `-l` lists the queue, `-c`
    // prints a job, `-r`/`-d` remove jobs, `-V` prints the version.
    Scheduler {
        names: &["at"],
        schedules: &["*"],
        reads: &["l", "c", "r", "d", "V"],
        valued: &["q", "f", "t"],
    },
    Scheduler {
        names: &["batch"],
        schedules: &["*"],
        reads: &["V"],
        valued: &["q", "f"],
    },
    // A transient unit runs outside the session, however it is started.
    Scheduler {
        names: &["systemd-run"],
        schedules: &["*"],
        reads: &["h", "version"],
        valued: &[],
    },
    Scheduler {
        names: &["systemctl"],
        schedules: &[
            "enable",
            "reenable",
            "link",
            "preset",
            "preset-all",
            "add-wants",
            "add-requires",
            "edit",
            "revert",
            "unmask",
            "set-property",
            "set-environment",
            "import-environment",
            "set-default",
            "bind",
            "mount-image",
        ],
        reads: &[
            "status",
            "show",
            "cat",
            "help",
            "list-units",
            "list-unit-files",
            "list-sockets",
            "list-timers",
            "list-jobs",
            "list-dependencies",
            "list-machines",
            "list-automounts",
            "list-paths",
            "is-active",
            "is-enabled",
            "is-failed",
            "is-system-running",
            "show-environment",
            "get-default",
        ],
        valued: SYSTEMD_VALUED,
    },
    Scheduler {
        names: &["loginctl"],
        schedules: &["enable-linger"],
        reads: &[
            "list-sessions",
            "session-status",
            "show-session",
            "list-users",
            "user-status",
            "show-user",
            "list-seats",
            "seat-status",
            "show-seat",
        ],
        valued: SYSTEMD_VALUED,
    },
    Scheduler {
        names: &["launchctl"],
        schedules: &[
            "load",
            "bootstrap",
            "submit",
            "enable",
            "setenv",
            "asuser",
            "bsexec",
            "config",
        ],
        reads: &[
            "list",
            "print",
            "print-cache",
            "print-disabled",
            "blame",
            "version",
            "help",
            "managername",
            "managerpid",
            "manageruid",
            "getenv",
            "error",
            "dumpstate",
        ],
        valued: &[],
    },
    // `incrontab FILE` and `incrontab -e` install the user's table of commands run on file
    // events, as `crontab FILE` does; `-l` lists it, `-d` reloads it.
    Scheduler {
        names: &["incrontab"],
        schedules: &["*"],
        reads: &[
            "l", "list", "d", "reload", "r", "remove", "V", "version", "h", "help",
        ],
        valued: &["u", "user", "f", "config"],
    },
    // `anacron` runs the jobs of its table (`-t FILE`: a table of the caller's) now and later;
    // `-T` only tests the table.
    Scheduler {
        names: &["anacron"],
        schedules: &["*"],
        reads: &["T", "V", "h"],
        valued: &["t", "S"],
    },
    // D-Bus clients: a call or a signal reaches any service on the bus (the service manager
    // among them: see [`SYSTEMD_SCHEDULING_METHODS`]), so every call is a binding ask unless
    // it only lists, watches or reads.
    Scheduler {
        names: &["busctl"],
        schedules: &[],
        reads: &[
            "list",
            "status",
            "monitor",
            "capture",
            "tree",
            "introspect",
            "get-property",
            "help",
        ],
        valued: &[
            "H", "host", "M", "machine", "address", "match", "size", "timeout",
        ],
    },
    Scheduler {
        names: &["gdbus"],
        schedules: &[],
        reads: &["introspect", "monitor", "wait", "help"],
        valued: &[
            "a",
            "address",
            "d",
            "dest",
            "o",
            "object-path",
            "m",
            "method",
            "t",
            "timeout",
        ],
    },
    Scheduler {
        names: &["dbus-send"],
        schedules: &[],
        reads: &[],
        valued: &[],
    },
];

/// The scheduler `name` ([`SCHEDULERS`]).
pub fn scheduler(name: &str) -> Option<&'static Scheduler> {
    SCHEDULERS.iter().find(|s| s.names.contains(&name))
}

/// The table entry for `name`, if the program is modeled.
pub fn lookup(name: &str) -> Option<&'static Program> {
    PROGRAMS.iter().find(|p| p.names.contains(&name))
}

/// Options whose value is a command the program runs, through a shell or as the program it
/// starts (in the language of [`super::spec`]; every option listed takes a value): rsync's
/// remote shell and remote program, scp's and sftp's ssh program (`-S`) and sftp's local
/// server (`-D`), man's pager, tar's compressor, volume and checkpoint scripts and the
/// command it pipes members to, zip's archive test command. A long option is matched by any
/// prefix, as the programs that read abbreviations do.
pub const COMMAND_OPTIONS: &[(&[&str], &str)] = &[
    (&["rsync"], "e|rsh=v rsync-path=v"),
    (&["scp"], "S=v"),
    (&["sftp"], "S=v D=v"),
    (&["man"], "P|pager=v"),
    (
        &["tar", "gtar"],
        "I|use-compress-program=v F|info-script|new-volume-script=v rsh-command=v to-command=v checkpoint-action=v",
    ),
    (&["zip"], "unzip-command=v"),
];

/// Programs that read ssh's `-o KEY=VALUE` options, and the keys (lower case) whose value is
/// a command ssh runs on this machine.
pub const SSH_OPTION_PROGRAMS: &[&str] = &["ssh", "scp", "sftp"];
/// See [`SSH_OPTION_PROGRAMS`].
pub const SSH_COMMAND_KEYS: &[&str] = &["proxycommand", "localcommand", "knownhostscommand"];

/// Environment variables whose value a program runs as a command: less's input
/// preprocessor (`LESSOPEN='|CMD %s'`, `LESSCLOSE`), the pagers of man, git and systemd, the
/// editor programs start, rsync's remote shell.
pub const COMMAND_VARIABLES: &[&str] = &[
    "LESSOPEN",
    "LESSCLOSE",
    "PAGER",
    "MANPAGER",
    "SYSTEMD_PAGER",
    "EDITOR",
    "VISUAL",
    "RSYNC_RSH",
    "BROWSER",
];

/// Environment variables naming a file a shell reads and runs before its own commands:
/// bash's `BASH_ENV` (non-interactive shells), `ENV` (sh and bash in POSIX mode).
pub const SOURCED_VARIABLES: &[&str] = &["BASH_ENV", "ENV"];

/// Shell variables whose value bash expands as a string every time it uses it, running the
/// command substitutions in it: `PS4` for each line `set -x` traces (`set -x;
/// PS4='$(cat .env >&2)'; ls` prints `.env`), the prompts `PS0`–`PS2` of an interactive
/// shell (`bash -i`).
pub const EXPANDED_VARIABLES: &[&str] = &["PS0", "PS1", "PS2", "PS4"];

/// ssh-keygen's short options that take a value (OpenSSH 9, its `getopt` string), and those
/// that only print (`-l` fingerprint, `-y` public key, `-F` host lookup, `-B` bubblebabble):
/// any other use creates or changes the key file `-f` names and its `.pub` companion.
pub const SSH_KEYGEN_VALUES: &str = "CDEFIMNOPRVYZabfgjmnrstwz";
/// ssh-keygen's options that only print (see [`SSH_KEYGEN_VALUES`]).
pub const SSH_KEYGEN_QUERIES: &str = "lyFB";
/// split's options (GNU coreutils 9, `split --help`): `split [OPTION]… [INPUT [PREFIX]]`
/// writes files named PREFIX (`x` when not given) followed by a suffix and
/// `--additional-suffix`; `!x` its value is a command it runs (`--filter`).
pub const SPLIT_OPTIONS: &str = "a|suffix-length=v additional-suffix=v b|bytes=v C|line-bytes=v \
    d numeric-suffixes=? x hex-suffixes=? e|elide-empty-files filter=v!x l|lines=v n|number=v \
    t|separator=v u|unbuffered verbose help version";

/// csplit's options (GNU coreutils 9, `csplit --help`): `csplit [OPTION]… FILE PATTERN…`
/// writes files named PREFIX (`-f`, `xx` when not given) followed by a suffix.
pub const CSPLIT_OPTIONS: &str = "b|suffix-format=v f|prefix=v k|keep-files \
    suppress-matched n|digits=v s|quiet|silent z|elide-empty-files help version";

/// rsync's options (rsync 3.2, `rsync --help`), read with the cursor so that its operands,
/// the files its options read or write and what it deletes are told apart as rsync tells
/// them: `=r` a file it reads (`--files-from`, `--exclude-from`, `--password-file`), `=w`
/// a file or directory it writes (`--log-file`, `--write-batch`, `--backup-dir`,
/// `--partial-dir`, `--temp-dir`); `!R` the sources are copied as trees (`-r`, `-a`); `!d`
/// the destination loses what the sources lack (`--delete` and kin); `!s` the sources are
/// deleted once sent (`--remove-source-files`); `!x` its value is a command it runs (see
/// [`COMMAND_OPTIONS`]).
pub const RSYNC_OPTIONS: &str = "v|verbose info=v debug=v stderr=v q|quiet no-motd c|checksum \
    a|archive!R r|recursive!R no-recursive|no-r R|relative no-relative \
    no-implied-dirs b|backup backup-dir=w suffix=v u|update inplace append append-verify \
    d|dirs mkpath l|links L|copy-links!L copy-unsafe-links!L safe-links munge-links \
    k|copy-dirlinks!L K|keep-dirlinks H|hard-links p|perms E|executability chmod=v A|acls \
    X|xattrs o|owner g|group devices copy-devices write-devices specials D no-D t|times \
    U|atimes open-noatime N|crtimes O|omit-dir-times J|omit-link-times super fake-super \
    S|sparse preallocate n|dry-run W|whole-file no-whole-file no-W checksum-choice|cc=v \
    x|one-file-system B|block-size=v e|rsh=v!x rsync-path=v!x existing ignore-existing \
    remove-source-files!s del!d delete!d delete-before!d delete-during!d delete-delay!d \
    delete-after!d delete-excluded!d delete-missing-args!d ignore-missing-args ignore-errors \
    force max-delete=v max-size=v min-size=v max-alloc=v partial partial-dir=w delay-updates \
    m|prune-empty-dirs numeric-ids usermap=v groupmap=v chown=v timeout=v contimeout=v \
    I|ignore-times size-only @|modify-window=v T|temp-dir=w y|fuzzy compare-dest=v \
    copy-dest=v link-dest=v z|compress no-compress no-z compress-choice|zc=v \
    compress-level|zl=v skip-compress=v C|cvs-exclude f|filter=v F exclude=v \
    exclude-from=r include=v include-from=r files-from=r 0|from0 old-args s|secluded-args|protect-args \
    trust-sender copy-as=v address=v port=v sockopts=v blocking-io outbuf=v stats 8|8-bit-output \
    h|human-readable progress P i|itemize-changes M|remote-option=v out-format=v \
    log-file=w log-file-format=v password-file=r early-input=r list-only bwlimit=v \
    stop-after=v stop-at=v fsync write-batch=w only-write-batch=w read-batch=r protocol=v \
    iconv=v checksum-seed=v 4|ipv4 6|ipv6 V|version help";

/// What a subcommand of a program does that no mode lets a call do unasked (the program table's
/// [`EFFECTFUL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Prints credentials the program keeps in its own store (a token, a password, a key):
    /// the hard deny of reading the credentials file itself, in every mode, since what is
    /// printed lands in the transcript and cannot be taken back.
    PrintsCredentials,
    /// Writes the configuration files listed (`~/` the home directory, else the directory the
    /// command runs in): judged as a write of each, so that a setter gets the verdict of
    /// writing the file it owns (`npm config set script-shell X` writes `~/.npmrc`).
    WritesConfig(&'static [&'static str]),
    /// Changes the running system (accounts, firewall, network links, mounts, kernel
    /// parameters and modules, privileged containers): a binding ask, not a hard deny, since
    /// a person can undo it and may mean it; the agent never decides it alone.
    ChangesSystem,
    /// Destroys data kept elsewhere (databases, buckets, clusters, infrastructure, volumes):
    /// a binding ask. Nothing here can be undone, but the data is not the agent's to judge
    /// as precious or disposable (a test stack is torn down on purpose): a person decides.
    DestroysRemote,
    /// Removes or replaces packages or programs installed for the system or the user
    /// (`apt-get remove`, `brew uninstall`, `npm uninstall -g`, `pip uninstall` of a Python
    /// that is not the workspace's): a binding ask, as a change to the running system is.
    /// A program run from a path inside the workspace (`.venv/bin/pip`) changes the
    /// workspace's environment only, and has no such effect.
    ChangesPackages,
    /// Writes below the directory given by the option named (`cargo install --root DIR`
    /// writes `DIR/bin/`): judged as a write of that directory joined with the text given.
    WritesRoot(&'static str, &'static str),
    /// Writes the configuration files listed through a setter (`set KEY VALUE`, `set
    /// KEY=VALUE …`): when every key set is one of the list (keys that run, fetch and
    /// authenticate nothing: `fund`, `loglevel`) to a plain value, with no option that may
    /// choose another file, the write keeps what the file holds and is only an ask in
    /// default mode; any other key gets the verdict of writing each file, as
    /// [`Effect::WritesConfig`] does.
    WritesSetting(&'static [&'static str], &'static [&'static str]),
}

/// One row of a program's effects: the subcommand path, the options that must be given and
/// what it does then.
#[derive(Debug, Clone, Copy)]
pub struct EffectRow {
    /// The operands that name the subcommand, in order, matched without regard to case
    /// (`["configure", "get"]`; `*` in a word any text: `"*"` any one word, `"*=*"` one
    /// holding `=`); empty: the program itself.
    pub path: &'static [&'static str],
    /// Options one of which must be given, by full name (`--raw`, `-w`): a long one is also
    /// matched by its prefixes and with `=VALUE`, a short one inside a cluster; empty: none.
    pub with: &'static [&'static str],
    /// What it does.
    pub effect: Effect,
}

/// A program some of whose subcommands have an [`Effect`].
#[derive(Debug, Clone, Copy)]
pub struct Effectful {
    /// The names it is called by.
    pub names: &'static [&'static str],
    /// Its options that take the next word as their value, by full name (`-h`, `--profile`),
    /// so that the value is not read as a subcommand.
    pub valued: &'static [&'static str],
    /// Its rows, the first that matches decides.
    pub rows: &'static [EffectRow],
    /// What a subcommand no row names does, when every subcommand of the program reaches
    /// the same store (`pass NAME` prints a password): then an unknown one is that effect's
    /// binding ask. `None`: an unknown subcommand is only unmodeled.
    pub unknown: Option<Effect>,
}

const fn row(
    path: &'static [&'static str],
    with: &'static [&'static str],
    effect: Effect,
) -> EffectRow {
    EffectRow { path, with, effect }
}

use Effect::{
    ChangesPackages as PKG, ChangesSystem as SYS, DestroysRemote as GONE,
    PrintsCredentials as CREDS,
};

/// npm's settings that change only what it prints, how it saves the manifest and the
/// lockfile, and how long it waits: they run, fetch and authenticate nothing.
pub const NPM_HARMLESS_KEYS: &[&str] = &[
    "fund",
    "audit",
    "audit-level",
    "update-notifier",
    "progress",
    "loglevel",
    "color",
    "unicode",
    "save-exact",
    "save-prefix",
    "init-author-name",
    "init-author-email",
    "init-author-url",
    "init-license",
    "init-version",
    "package-lock",
    "fetch-retries",
    "fetch-timeout",
];

/// What npm's `config set` does: [`Effect::WritesSetting`] of the user's or the project's
/// file.
const NPM_SETTER: Effect = Effect::WritesSetting(&["~/.npmrc", ".npmrc"], NPM_HARMLESS_KEYS);

/// The file `kubectl config`'s setters write.
const KUBECONFIG: Effect = Effect::WritesConfig(&["~/.kube/config"]);

/// Where docker keeps its contexts (`docker context create` writes one).
const DOCKER_CONTEXTS: Effect = Effect::WritesConfig(&["~/.docker/contexts/meta"]);

/// The files gcloud's configuration setters write.
const GCLOUD_CONFIG: Effect = Effect::WritesConfig(&[
    "~/.config/gcloud/configurations/config_default",
    "~/.config/gcloud/active_config",
]);

/// The files npm's `config set` writes (the user's, or the project's with `--location`).
const NPMRC: Effect = Effect::WritesConfig(&["~/.npmrc", ".npmrc"]);

/// Programs that print credentials, write configuration that later runs code, change the
/// system or destroy data kept elsewhere through their own subcommands.
pub const EFFECTFUL: &[Effectful] = &[
    Effectful {
        names: &["aws"],
        valued: &[
            "--profile",
            "--region",
            "--output",
            "--endpoint-url",
            "--query",
            "--cli-read-timeout",
            "--cli-connect-timeout",
            "--color",
            "--ca-bundle",
            "--cli-input-json",
            "--cli-input-yaml",
        ],
        rows: &[
            row(&["configure", "get"], &[], CREDS),
            row(&["configure", "export-credentials"], &[], CREDS),
            row(
                &["configure", "set"],
                &[],
                Effect::WritesConfig(&["~/.aws/config", "~/.aws/credentials"]),
            ),
            row(&["sts", "get-session-token"], &[], CREDS),
            row(&["sts", "assume-role"], &[], CREDS),
            row(&["sts", "assume-role-with-web-identity"], &[], CREDS),
            row(&["sts", "get-federation-token"], &[], CREDS),
            row(&["ecr", "get-login-password"], &[], CREDS),
            row(&["ecr", "get-authorization-token"], &[], CREDS),
            row(&["codeartifact", "get-authorization-token"], &[], CREDS),
            row(&["secretsmanager", "get-secret-value"], &[], CREDS),
            row(&["ssm", "get-parameter"], &["--with-decryption"], CREDS),
            row(&["ssm", "get-parameters"], &["--with-decryption"], CREDS),
            row(&["s3", "rm"], &["--recursive"], GONE),
            row(&["s3", "rb"], &[], GONE),
            row(&["s3api", "delete-bucket"], &[], GONE),
            row(&["rds", "delete-db-instance"], &[], GONE),
            row(&["rds", "delete-db-cluster"], &[], GONE),
            row(&["dynamodb", "delete-table"], &[], GONE),
            row(&["ec2", "terminate-instances"], &[], GONE),
            row(&["cloudformation", "delete-stack"], &[], GONE),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["gcloud"],
        valued: &[
            "--project",
            "--account",
            "--configuration",
            "--format",
            "--verbosity",
            "--impersonate-service-account",
        ],
        rows: &[
            row(&["auth", "print-access-token"], &[], CREDS),
            row(&["auth", "print-identity-token"], &[], CREDS),
            row(
                &["auth", "application-default", "print-access-token"],
                &[],
                CREDS,
            ),
            row(&["config", "config-helper"], &[], CREDS),
            row(&["config", "set"], &[], GCLOUD_CONFIG),
            row(&["config", "unset"], &[], GCLOUD_CONFIG),
            row(
                &["config", "configurations", "activate"],
                &[],
                GCLOUD_CONFIG,
            ),
            row(&["config", "configurations", "create"], &[], GCLOUD_CONFIG),
            row(&["config", "configurations", "delete"], &[], GCLOUD_CONFIG),
            row(&["secrets", "versions", "access"], &[], CREDS),
            row(&["projects", "delete"], &[], GONE),
            row(&["sql", "instances", "delete"], &[], GONE),
            row(&["sql", "databases", "delete"], &[], GONE),
            row(&["compute", "instances", "delete"], &[], GONE),
            row(&["container", "clusters", "delete"], &[], GONE),
            row(&["storage", "rm"], &[], GONE),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["gsutil"],
        valued: &["-o", "-h", "-u"],
        rows: &[row(&["rm"], &[], GONE), row(&["rb"], &[], GONE)],
        unknown: Option::None,
    },
    Effectful {
        names: &["az"],
        valued: &["--subscription", "--output", "-o", "--query"],
        rows: &[
            row(&["account", "get-access-token"], &[], CREDS),
            row(&["keyvault", "secret", "show"], &[], CREDS),
            row(&["acr", "login"], &["--expose-token"], CREDS),
            row(&["group", "delete"], &[], GONE),
            row(&["storage", "account", "delete"], &[], GONE),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["gh"],
        valued: &["-R", "--repo", "--hostname", "-h"],
        rows: &[
            row(&["auth", "token"], &[], CREDS),
            row(&["auth", "status"], &["--show-token", "-t"], CREDS),
            row(&["repo", "delete"], &[], GONE),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["heroku"],
        valued: &["-a", "--app"],
        rows: &[
            row(&["auth:token"], &[], CREDS),
            row(&["authorizations:create"], &[], CREDS),
            row(&["apps:destroy"], &[], GONE),
            row(&["pg:reset"], &[], GONE),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["vault"],
        valued: &["-address", "-namespace", "-format", "-field"],
        rows: &[
            row(&["read"], &[], CREDS),
            row(&["kv", "get"], &[], CREDS),
            row(&["token", "lookup"], &[], CREDS),
            row(&["token", "create"], &[], CREDS),
            row(&["print", "token"], &[], CREDS),
            row(&["login"], &[], CREDS),
        ],
        unknown: Some(CREDS),
    },
    Effectful {
        names: &["op"],
        valued: &["--account", "--vault", "--format", "--session", "--fields"],
        rows: &[
            row(&["read"], &[], CREDS),
            row(&["item", "get"], &[], CREDS),
            row(&["inject"], &[], CREDS),
            row(&["run"], &[], CREDS),
            row(&["signin"], &[], CREDS),
        ],
        unknown: Some(CREDS),
    },
    Effectful {
        names: &["pass", "gopass"],
        valued: &[],
        rows: &[row(&["show"], &[], CREDS)],
        unknown: Some(CREDS),
    },
    Effectful {
        names: &["secret-tool"],
        valued: &["--label"],
        rows: &[row(&["lookup"], &[], CREDS), row(&["search"], &[], CREDS)],
        unknown: Some(CREDS),
    },
    // gpg prints private keys (`--export-secret-keys`, `--export-secret-subkeys`) and what
    // its keys decrypt (`-d`, `--decrypt`, `--decrypt-files`). The first row only keeps the
    // public `--export` from being read as an abbreviation of the secret exports.
    Effectful {
        names: &["gpg", "gpg2"],
        valued: &[
            "-u",
            "--local-user",
            "-r",
            "--recipient",
            "-o",
            "--output",
            "--homedir",
            "--default-key",
        ],
        rows: &[
            row(&[], &["--export"], Effect::WritesConfig(&[])),
            row(
                &[],
                &["--export-secret-keys", "--export-secret-subkeys"],
                CREDS,
            ),
            row(&[], &["-d", "--decrypt", "--decrypt-files"], CREDS),
        ],
        unknown: Option::None,
    },
    // The kernel's key store: `keyctl print|read|pipe KEY` print a key's payload.
    Effectful {
        names: &["keyctl"],
        valued: &[],
        rows: &[
            row(&["print"], &[], CREDS),
            row(&["read"], &[], CREDS),
            row(&["pipe"], &[], CREDS),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["security"],
        valued: &["-s", "-a", "-l", "-c", "-D", "-r", "-k"],
        rows: &[
            row(&["find-generic-password"], &["-w", "-g"], CREDS),
            row(&["find-internet-password"], &["-w", "-g"], CREDS),
            row(&["dump-keychain"], &[], CREDS),
            row(&["export"], &[], CREDS),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["kubectl", "oc"],
        valued: &[
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-o",
            "--output",
            "-l",
            "--selector",
        ],
        rows: &[
            row(&["config", "view"], &["--raw"], CREDS),
            row(&["create", "token"], &[], CREDS),
            row(
                &["config", "set-credentials"],
                &[],
                Effect::WritesConfig(&["~/.kube/config"]),
            ),
            row(
                &["config", "set"],
                &[],
                Effect::WritesConfig(&["~/.kube/config"]),
            ),
            row(&["config", "use-context"], &[], KUBECONFIG),
            row(&["config", "set-context"], &[], KUBECONFIG),
            row(&["config", "rename-context"], &[], KUBECONFIG),
            row(&["config", "use"], &[], KUBECONFIG),
            row(&["config", "set-cluster"], &[], KUBECONFIG),
            row(&["config", "delete-*"], &[], KUBECONFIG),
            row(&["config", "unset"], &[], KUBECONFIG),
            row(&["delete"], &[], GONE),
            row(&["drain"], &[], SYS),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["helm"],
        valued: &["-n", "--namespace", "--kube-context", "--kubeconfig"],
        rows: &[
            row(&["uninstall"], &[], GONE),
            row(&["delete"], &[], GONE),
            row(&["del"], &[], GONE),
            row(&["un"], &[], GONE),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["docker", "podman"],
        valued: &[
            "-H",
            "--host",
            "--context",
            "-c",
            "--config",
            "--log-level",
            "-l",
        ],
        rows: &[
            row(
                &["login"],
                &[],
                Effect::WritesConfig(&["~/.docker/config.json"]),
            ),
            row(
                &["context", "use"],
                &[],
                Effect::WritesConfig(&["~/.docker/config.json"]),
            ),
            row(&["context", "create"], &[], DOCKER_CONTEXTS),
            row(&["context", "rm"], &[], DOCKER_CONTEXTS),
            row(&["context", "remove"], &[], DOCKER_CONTEXTS),
            row(&["context", "update"], &[], DOCKER_CONTEXTS),
            row(&["context", "import"], &[], DOCKER_CONTEXTS),
            row(&["system", "prune"], &[], GONE),
            row(&["volume", "rm"], &[], GONE),
            row(&["volume", "prune"], &[], GONE),
            row(
                &["run"],
                &[
                    "--privileged",
                    "--pid",
                    "--cap-add",
                    "--device",
                    "--security-opt",
                    "--userns",
                    "--ipc",
                    "--uts",
                ],
                SYS,
            ),
            row(
                &["create"],
                &[
                    "--privileged",
                    "--pid",
                    "--cap-add",
                    "--device",
                    "--security-opt",
                    "--userns",
                    "--ipc",
                    "--uts",
                ],
                SYS,
            ),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["terraform", "tofu"],
        valued: &["-chdir"],
        rows: &[
            row(&["destroy"], &[], GONE),
            row(&["apply"], &["-destroy", "-auto-approve"], GONE),
            row(&["state", "rm"], &[], GONE),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["dropdb"],
        valued: &[],
        rows: &[row(&[], &[], GONE)],
        unknown: Option::None,
    },
    Effectful {
        names: &["npm"],
        valued: &[
            "--location",
            "-w",
            "--workspace",
            "--prefix",
            "--userconfig",
        ],
        rows: &[
            row(&["token"], &[], CREDS),
            row(&["config", "set"], &[], NPM_SETTER),
            row(&["config", "edit"], &[], NPMRC),
            row(&["config", "delete"], &[], NPMRC),
            row(&["c", "set"], &[], NPM_SETTER),
            row(&["set"], &[], NPM_SETTER),
            row(&["adduser"], &[], NPMRC),
            row(&["login"], &[], NPMRC),
            row(&["uninstall"], &["-g", "--global"], PKG),
            row(&["un"], &["-g", "--global"], PKG),
            row(&["unlink"], &["-g", "--global"], PKG),
            row(&["remove"], &["-g", "--global"], PKG),
            row(&["rm"], &["-g", "--global"], PKG),
            row(&["r"], &["-g", "--global"], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["pnpm"],
        valued: &["--location", "-C", "--dir", "--filter"],
        rows: &[
            row(
                &["config", "set"],
                &[],
                Effect::WritesConfig(&["~/.npmrc", ".npmrc", "~/.config/pnpm/rc"]),
            ),
            row(
                &["config", "delete"],
                &[],
                Effect::WritesConfig(&["~/.npmrc", ".npmrc", "~/.config/pnpm/rc"]),
            ),
            row(
                &["set"],
                &[],
                Effect::WritesConfig(&["~/.npmrc", ".npmrc", "~/.config/pnpm/rc"]),
            ),
            row(&["remove"], &["-g", "--global"], PKG),
            row(&["rm"], &["-g", "--global"], PKG),
            row(&["uninstall"], &["-g", "--global"], PKG),
            row(&["un"], &["-g", "--global"], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["yarn"],
        valued: &["--cwd"],
        rows: &[
            row(
                &["config", "set"],
                &[],
                Effect::WritesConfig(&["~/.yarnrc", "~/.yarnrc.yml", ".yarnrc.yml"]),
            ),
            row(
                &["config", "delete"],
                &[],
                Effect::WritesConfig(&["~/.yarnrc", "~/.yarnrc.yml", ".yarnrc.yml"]),
            ),
            row(
                &["config", "unset"],
                &[],
                Effect::WritesConfig(&["~/.yarnrc", "~/.yarnrc.yml", ".yarnrc.yml"]),
            ),
            row(
                &["npm", "login"],
                &[],
                Effect::WritesConfig(&["~/.yarnrc.yml"]),
            ),
            row(&["global", "remove"], &[], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["pip", "pip3"],
        valued: &[
            "--log",
            "--proxy",
            "--cert",
            "--client-cert",
            "--timeout",
            "--retries",
        ],
        rows: &[
            row(
                &["config", "set"],
                &[],
                Effect::WritesConfig(&["~/.config/pip/pip.conf"]),
            ),
            row(
                &["config", "edit"],
                &[],
                Effect::WritesConfig(&["~/.config/pip/pip.conf"]),
            ),
            row(
                &["config", "unset"],
                &[],
                Effect::WritesConfig(&["~/.config/pip/pip.conf"]),
            ),
            row(&["uninstall"], &[], PKG),
        ],
        unknown: Option::None,
    },
    // `rustup default` alone prints the default toolchain.
    Effectful {
        names: &["rustup"],
        valued: &[],
        rows: &[
            row(
                &["default", "*"],
                &[],
                Effect::WritesConfig(&["~/.rustup/settings.toml"]),
            ),
            row(
                &["override", "set"],
                &[],
                Effect::WritesConfig(&["~/.rustup/settings.toml"]),
            ),
            row(
                &["set", "*"],
                &[],
                Effect::WritesConfig(&["~/.rustup/settings.toml"]),
            ),
            row(
                &["toolchain", "link"],
                &[],
                Effect::WritesConfig(&["~/.rustup/settings.toml"]),
            ),
            row(&["toolchain", "uninstall"], &[], PKG),
            row(&["toolchain", "remove"], &[], PKG),
            row(&["uninstall"], &[], PKG),
            row(&["component", "remove"], &[], PKG),
            row(&["self", "uninstall"], &[], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["bundle", "bundler"],
        valued: &[],
        rows: &[row(
            &["config"],
            &[],
            Effect::WritesConfig(&["~/.bundle/config", ".bundle/config"]),
        )],
        unknown: Option::None,
    },
    Effectful {
        names: &["gem"],
        valued: &["--config-file"],
        rows: &[
            row(
                &["sources"],
                &["-a", "--add", "-r", "--remove", "-c", "--clear-all"],
                Effect::WritesConfig(&["~/.gemrc"]),
            ),
            row(&["uninstall"], &[], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["poetry"],
        valued: &["-C", "--directory", "-P", "--project"],
        // `poetry config KEY VALUE` and `--unset` write; `--list` and `KEY` alone print.
        rows: &[
            row(
                &["config", "*", "*"],
                &[],
                Effect::WritesConfig(&["~/.config/pypoetry/config.toml"]),
            ),
            row(
                &["config", "*"],
                &["--unset"],
                Effect::WritesConfig(&["~/.config/pypoetry/config.toml"]),
            ),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["conda", "mamba", "micromamba"],
        valued: &[],
        rows: &[
            row(
                &["config"],
                &[
                    "--set",
                    "--add",
                    "--append",
                    "--prepend",
                    "--remove",
                    "--remove-key",
                    "--stdin",
                ],
                Effect::WritesConfig(&["~/.condarc"]),
            ),
            row(&["remove"], &[], PKG),
            row(&["uninstall"], &[], PKG),
            row(&["env", "remove"], &[], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["go"],
        valued: &[],
        rows: &[row(
            &["env"],
            &["-w", "-u"],
            Effect::WritesConfig(&["~/.config/go/env"]),
        )],
        unknown: Option::None,
    },
    Effectful {
        names: &[
            "passwd", "chpasswd", "usermod", "useradd", "userdel", "groupadd", "groupdel",
            "groupmod", "gpasswd", "adduser", "deluser", "chsh", "chfn", "chage", "vipw", "vigr",
            "visudo", "newusers",
        ],
        valued: &[],
        rows: &[row(&[], &[], SYS)],
        unknown: Option::None,
    },
    Effectful {
        names: &[
            "iptables",
            "ip6tables",
            "iptables-restore",
            "ip6tables-restore",
            "nft",
            "ufw",
            "firewall-cmd",
            "ebtables",
            "arptables",
        ],
        valued: &[],
        rows: &[row(&[], &[], SYS)],
        unknown: Option::None,
    },
    Effectful {
        names: &["ip"],
        valued: &["-n", "-netns", "-f", "-family"],
        rows: &[
            row(&["link", "set"], &[], SYS),
            row(&["link", "delete"], &[], SYS),
            row(&["link", "del"], &[], SYS),
            row(&["addr", "add"], &[], SYS),
            row(&["addr", "replace"], &[], SYS),
            row(&["address", "add"], &[], SYS),
            row(&["link", "add"], &[], SYS),
            row(&["addr", "del"], &[], SYS),
            row(&["addr", "flush"], &[], SYS),
            row(&["address", "del"], &[], SYS),
            row(&["address", "flush"], &[], SYS),
            row(&["route", "del"], &[], SYS),
            row(&["route", "flush"], &[], SYS),
            row(&["route", "replace"], &[], SYS),
            row(&["route", "add"], &[], SYS),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &[
            "ifdown",
            "ifup",
            "umount",
            "swapoff",
            "modprobe",
            "insmod",
            "rmmod",
            "setfacl",
            "chattr",
            "losetup",
            "cryptsetup",
            "lvremove",
            "vgremove",
            "pvremove",
            "wipefs",
        ],
        valued: &[],
        rows: &[row(&[], &[], SYS)],
        unknown: Option::None,
    },
    // Without an operand these only print (`mount`, `ifconfig`, `route -n`, `hostname`).
    Effectful {
        names: &["mount", "swapon", "ifconfig", "route", "hostname"],
        valued: &["-t", "-o", "-O", "-L", "-U", "-F"],
        rows: &[
            row(&["*"], &[], SYS),
            row(&[], &["-a", "--all", "-F", "--file"], SYS),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["nmcli"],
        valued: &[
            "-f",
            "--fields",
            "-g",
            "--get-values",
            "-m",
            "--mode",
            "-w",
            "--wait",
        ],
        rows: &[
            row(&["networking", "off"], &[], SYS),
            row(&["radio", "*", "off"], &[], SYS),
            row(&["connection", "down"], &[], SYS),
            row(&["connection", "delete"], &[], SYS),
            row(&["connection", "modify"], &[], SYS),
            row(&["con", "down"], &[], SYS),
            row(&["con", "delete"], &[], SYS),
            row(&["device", "disconnect"], &[], SYS),
            row(&["device", "down"], &[], SYS),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["timedatectl", "hostnamectl"],
        valued: &["-H", "--host", "-M", "--machine"],
        rows: &[
            row(&["set-time"], &[], SYS),
            row(&["set-timezone"], &[], SYS),
            row(&["set-ntp"], &[], SYS),
            row(&["set-local-rtc"], &[], SYS),
            row(&["set-hostname"], &[], SYS),
            row(&["hostname", "*"], &[], SYS),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["zfs", "zpool"],
        valued: &[],
        rows: &[row(&["destroy"], &[], GONE)],
        unknown: Option::None,
    },
    Effectful {
        names: &["sysctl"],
        valued: &[],
        rows: &[
            row(&[], &["-w", "--write", "-p", "--load", "--system"], SYS),
            row(&["*=*"], &[], SYS),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["setenforce", "loadkeys", "ldconfig", "setfont", "kbdrate"],
        valued: &[],
        rows: &[row(&[], &[], SYS)],
        unknown: Option::None,
    },
    // `date MMDDhhmm[[CC]YY]` and `-s` set the clock; `date +FORMAT` and `-d` print.
    Effectful {
        names: &["date"],
        valued: &["-d", "--date", "-r", "--reference", "-f", "--file"],
        rows: &[
            row(&[], &["-s", "--set"], SYS),
            row(&["0*"], &[], SYS),
            row(&["1*"], &[], SYS),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["hwclock"],
        valued: &["-f", "--rtc", "--date"],
        rows: &[row(
            &[],
            &[
                "--set",
                "-w",
                "--systohc",
                "-s",
                "--hctosys",
                "-a",
                "--adjust",
                "--systz",
            ],
            SYS,
        )],
        unknown: Option::None,
    },
    Effectful {
        names: &["dmesg"],
        valued: &[
            "-f",
            "--facility",
            "-l",
            "--level",
            "-F",
            "--file",
            "-s",
            "--buffer-size",
            "--time-format",
        ],
        rows: &[row(
            &[],
            &[
                "-C",
                "--clear",
                "-c",
                "--read-clear",
                "-D",
                "--console-off",
                "-E",
                "--console-on",
                "-n",
                "--console-level",
            ],
            SYS,
        )],
        unknown: Option::None,
    },
    Effectful {
        names: &["update-alternatives"],
        valued: &["--altdir", "--admindir", "--log"],
        rows: &[row(
            &[],
            &[
                "--set",
                "--install",
                "--remove",
                "--remove-all",
                "--config",
                "--auto",
                "--all",
                "--set-selections",
            ],
            SYS,
        )],
        unknown: Option::None,
    },
    // Packages installed for the system or the user: removing one takes a program away from
    // every session, not only from this workspace.
    Effectful {
        names: &["apt-get", "apt", "aptitude"],
        valued: &["-o", "-c", "-t", "--target-release"],
        rows: &[
            row(&["remove"], &[], PKG),
            row(&["purge"], &[], PKG),
            row(&["autoremove"], &[], PKG),
            row(&["auto-remove"], &[], PKG),
            row(&["autopurge"], &[], PKG),
            row(&["dist-upgrade"], &[], PKG),
            row(&["full-upgrade"], &[], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["dpkg"],
        valued: &["--root", "--admindir", "--instdir"],
        rows: &[row(&[], &["-r", "--remove", "-P", "--purge"], PKG)],
        unknown: Option::None,
    },
    Effectful {
        names: &["dnf", "yum", "microdnf", "zypper", "tdnf"],
        valued: &["-c", "--config", "--installroot", "--repo", "--releasever"],
        rows: &[
            row(&["remove"], &[], PKG),
            row(&["erase"], &[], PKG),
            row(&["autoremove"], &[], PKG),
            row(&["rm"], &[], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["apk"],
        valued: &["-X", "--repository", "-p", "--root"],
        rows: &[row(&["del"], &[], PKG)],
        unknown: Option::None,
    },
    Effectful {
        names: &["pacman"],
        valued: &["-r", "--root", "-b", "--dbpath", "--config"],
        rows: &[row(&[], &["-R", "--remove"], PKG)],
        unknown: Option::None,
    },
    Effectful {
        names: &["brew"],
        valued: &[],
        rows: &[
            row(&["uninstall"], &[], PKG),
            row(&["remove"], &[], PKG),
            row(&["rm"], &[], PKG),
            row(&["autoremove"], &[], PKG),
            row(&["untap"], &[], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["snap", "flatpak", "port", "pipx"],
        valued: &[],
        rows: &[
            row(&["remove"], &[], PKG),
            row(&["uninstall"], &[], PKG),
            row(&["uninstall-all"], &[], PKG),
        ],
        unknown: Option::None,
    },
    Effectful {
        names: &["nix-env"],
        valued: &["-f", "--file", "-p", "--profile"],
        rows: &[row(&[], &["-e", "--uninstall"], PKG)],
        unknown: Option::None,
    },
    // `cargo install --root DIR` writes `DIR/bin` (judged as that write), `cargo uninstall`
    // takes a program from the user's.
    Effectful {
        names: &["cargo"],
        valued: &[
            "--root",
            "--color",
            "--config",
            "-Z",
            "--version",
            "--git",
            "--path",
        ],
        rows: &[
            row(&["uninstall"], &[], PKG),
            row(
                &["install"],
                &["--root"],
                Effect::WritesRoot("--root", "bin/"),
            ),
        ],
        unknown: Option::None,
    },
    // `service NAME ACTION`: any action but printing one's status.
    Effectful {
        names: &["service"],
        valued: &[],
        rows: &[
            row(&["*", "stop"], &[], SYS),
            row(&["*", "start"], &[], SYS),
            row(&["*", "restart"], &[], SYS),
            row(&["*", "reload"], &[], SYS),
            row(&["*", "force-reload"], &[], SYS),
        ],
        unknown: Option::None,
    },
];

/// The language a database client's statements are written in, as far as the policy proves
/// them read-only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// SQL (or CQL) sent to a server: a single `SELECT`, `SHOW`, `EXPLAIN` or `DESCRIBE`
    /// statement calling only [`HARMLESS_SQL_FUNCTIONS`] is proven read-only.
    Sql,
    /// psql: SQL as [`Dialect::Sql`], or one of its `\d…`/`\l` listings.
    Psql,
    /// SQLite on a database file named by the first operand: SQL as [`Dialect::Sql`] or a
    /// listing dot-command ([`SQLITE_LISTINGS`]) reads the file; other statements write it,
    /// unless they reach other files or programs (dot-commands, `ATTACH`, `VACUUM INTO`,
    /// the shell's file functions): then they are never proven.
    Sqlite,
    /// A Redis command as the operands: proven read-only when it is one of
    /// [`REDIS_READ_COMMANDS`].
    Redis,
    /// A scripting language (mongosh's JavaScript): never proven read-only.
    Script,
}

/// A database client: how it is given statements, and which of its options only print.
#[derive(Debug, Clone, Copy)]
pub struct DatabaseClient {
    /// The names it is called by.
    pub names: &'static [&'static str],
    /// Its statements' language.
    pub dialect: Dialect,
    /// Options whose value is a statement run inline (`-c`, `-e`, `--eval`, `-q`).
    pub inline: &'static [&'static str],
    /// Options that run statements or programs the call does not show, or write files
    /// (`-f FILE`, `--init-command`, `--pager`, `-o FILE`): the call is never proven.
    pub hidden: &'static [&'static str],
    /// Other options that take a value (the next word, or attached).
    pub valued: &'static [&'static str],
    /// Options whose value, when given, is attached to them (mysql's `-pSECRET` and
    /// `--password=SECRET`; alone they prompt): they never take the next word.
    pub attached: &'static [&'static str],
    /// Options that take no value and change nothing the statements do.
    pub flags: &'static [&'static str],
    /// Options after which the client only prints information and runs no statement
    /// (`--version`, psql's `-l`).
    pub info: &'static [&'static str],
}

/// Database clients: a statement they run against a server that is not proven read-only
/// is a binding ask, as `dropdb` is; statements read from standard input or a file are
/// never proven. An option not listed makes the call unproven.
pub const DATABASE_CLIENTS: &[DatabaseClient] = &[
    DatabaseClient {
        names: &["psql"],
        dialect: Dialect::Psql,
        inline: &["-c", "--command"],
        hidden: &["-f", "--file", "-L", "--log-file", "-o", "--output"],
        valued: &[
            "-d",
            "--dbname",
            "-h",
            "--host",
            "-p",
            "--port",
            "-U",
            "--username",
            "-F",
            "--field-separator",
            "-R",
            "--record-separator",
            "-P",
            "--pset",
            "-T",
            "--table-attr",
        ],
        attached: &[],
        flags: &[
            "-a",
            "--echo-all",
            "-A",
            "--no-align",
            "-b",
            "--echo-errors",
            "-e",
            "--echo-queries",
            "-E",
            "--echo-hidden",
            "-H",
            "--html",
            "-n",
            "--no-readline",
            "-q",
            "--quiet",
            "-S",
            "--single-line",
            "-t",
            "--tuples-only",
            "-w",
            "--no-password",
            "-W",
            "--password",
            "-x",
            "--expanded",
            "-X",
            "--no-psqlrc",
            "-z",
            "--field-separator-zero",
            "-0",
            "--record-separator-zero",
            "-1",
            "--single-transaction",
            "--csv",
        ],
        info: &["-l", "--list", "-V", "--version", "-?", "--help"],
    },
    DatabaseClient {
        names: &["mysql", "mariadb"],
        dialect: Dialect::Sql,
        inline: &["-e", "--execute"],
        hidden: &[
            "--init-command",
            "--pager",
            "--tee",
            "--defaults-file",
            "--defaults-extra-file",
            "--plugin-dir",
            "--default-auth",
        ],
        valued: &[
            "-h",
            "--host",
            "-u",
            "--user",
            "-P",
            "--port",
            "-D",
            "--database",
            "-S",
            "--socket",
            "--protocol",
            "--default-character-set",
            "--ssl-ca",
            "--ssl-cert",
            "--ssl-key",
            "--ssl-mode",
            "--connect-timeout",
            "--login-path",
        ],
        attached: &["-p", "--password"],
        flags: &[
            "-B",
            "--batch",
            "-N",
            "--skip-column-names",
            "--column-names",
            "-s",
            "--silent",
            "-t",
            "--table",
            "-r",
            "--raw",
            "-v",
            "--verbose",
            "-E",
            "--vertical",
            "-H",
            "--html",
            "-X",
            "--xml",
            "-A",
            "--no-auto-rehash",
            "-q",
            "--quick",
            "-n",
            "--unbuffered",
            "-C",
            "--compress",
            "--ssl",
            "--no-defaults",
            "--skip-ssl",
        ],
        info: &["-V", "--version", "-?", "--help"],
    },
    DatabaseClient {
        names: &["sqlite3", "sqlite"],
        dialect: Dialect::Sqlite,
        inline: &["-cmd"],
        hidden: &["-init", "-A", "-archive"],
        valued: &[
            "-separator",
            "-newline",
            "-nullvalue",
            "-vfs",
            "-mmap",
            "-pagecache",
            "-lookaside",
            "-maxsize",
            "-heap",
            "-escape",
        ],
        attached: &[],
        flags: &[
            "-append",
            "-ascii",
            "-bail",
            "-batch",
            "-box",
            "-column",
            "-csv",
            "-echo",
            "-header",
            "-noheader",
            "-html",
            "-json",
            "-line",
            "-list",
            "-markdown",
            "-nofollow",
            "-quote",
            "-readonly",
            "-safe",
            "-table",
            "-tabs",
        ],
        info: &["-version", "-help"],
    },
    DatabaseClient {
        names: &["redis-cli", "valkey-cli", "keydb-cli"],
        dialect: Dialect::Redis,
        inline: &[],
        hidden: &[
            "-x",
            "--pipe",
            "--eval",
            "--ldb",
            "--rdb",
            "--functions-rdb",
            "--cluster",
            "--replica",
            "--lru-test",
        ],
        valued: &[
            "-h",
            "-p",
            "-s",
            "-a",
            "-u",
            "-r",
            "-i",
            "-n",
            "-t",
            "-d",
            "--user",
            "--pass",
            "--sni",
            "--cacert",
            "--cacertdir",
            "--cert",
            "--key",
            "--tls-ciphers",
            "--tls-ciphersuites",
            "--pattern",
            "--quoted-pattern",
            "--count",
            "--memkeys-samples",
            "--intrinsic-latency",
        ],
        attached: &[],
        flags: &[
            "-2",
            "-3",
            "-4",
            "-6",
            "-c",
            "-e",
            "--tls",
            "--insecure",
            "--raw",
            "--no-raw",
            "--csv",
            "--json",
            "--quoted-json",
            "--no-auth-warning",
            "--askpass",
            "--verbose",
        ],
        info: &[
            "--version",
            "-v",
            "--help",
            "--scan",
            "--bigkeys",
            "--memkeys",
            "--hotkeys",
            "--stat",
            "--latency",
            "--latency-history",
            "--latency-dist",
        ],
    },
    DatabaseClient {
        names: &["cqlsh"],
        dialect: Dialect::Sql,
        inline: &["-e", "--execute"],
        hidden: &["-f", "--file", "--cqlshrc"],
        valued: &[
            "-u",
            "--username",
            "-p",
            "--password",
            "-k",
            "--keyspace",
            "--cqlversion",
            "--protocol-version",
            "--connect-timeout",
            "--request-timeout",
            "--encoding",
        ],
        attached: &[],
        flags: &["--ssl", "--no-color", "-C", "--color", "--debug"],
        info: &["--version", "-h", "--help"],
    },
    DatabaseClient {
        names: &["clickhouse-client"],
        dialect: Dialect::Sql,
        inline: &["-q", "--query"],
        hidden: &["--queries-file", "--config-file", "-C", "--config"],
        valued: &[
            "-h",
            "--host",
            "--port",
            "-u",
            "--user",
            "--password",
            "-d",
            "--database",
            "-f",
            "--format",
        ],
        attached: &[],
        flags: &[
            "-s",
            "--secure",
            "-t",
            "--time",
            "--multiline",
            "-m",
            "-V",
            "--vertical",
        ],
        info: &["--version", "--help"],
    },
    DatabaseClient {
        names: &["mongosh", "mongo"],
        dialect: Dialect::Script,
        inline: &["--eval"],
        hidden: &["-f", "--file"],
        valued: &[],
        attached: &[],
        flags: &[],
        info: &["--version", "--help", "-h"],
    },
    // Interactive clients and servers' shells whose statements the call does not show.
    DatabaseClient {
        names: &[
            "pgcli", "mycli", "litecli", "usql", "sqlcmd", "influx", "snowsql",
        ],
        dialect: Dialect::Script,
        inline: &[],
        hidden: &[],
        valued: &[],
        attached: &[],
        flags: &[],
        info: &["--version", "--help"],
    },
];

/// Functions a read-only SQL statement may call: they compute from their arguments, read
/// nothing but the tables named, write nothing, run nothing and wait for nothing.
pub const HARMLESS_SQL_FUNCTIONS: &[&str] = &[
    "count",
    "sum",
    "avg",
    "min",
    "max",
    "coalesce",
    "nullif",
    "greatest",
    "least",
    "lower",
    "upper",
    "length",
    "char_length",
    "octet_length",
    "abs",
    "round",
    "floor",
    "ceil",
    "ceiling",
    "trunc",
    "mod",
    "power",
    "sqrt",
    "now",
    "date_trunc",
    "date_part",
    "extract",
    "to_char",
    "to_date",
    "to_timestamp",
    "cast",
    "concat",
    "concat_ws",
    "substring",
    "substr",
    "trim",
    "ltrim",
    "rtrim",
    "replace",
    "position",
    "strpos",
    "left",
    "right",
    "lpad",
    "rpad",
    "split_part",
    "string_agg",
    "array_agg",
    "json_agg",
    "jsonb_agg",
    "group_concat",
    "row_number",
    "rank",
    "dense_rank",
    "lag",
    "lead",
    "first_value",
    "last_value",
    "ntile",
    "version",
    "current_database",
    "current_schema",
    "database",
    "pg_size_pretty",
    "pg_database_size",
    "pg_relation_size",
    "pg_total_relation_size",
    "pg_table_size",
    "pg_indexes_size",
    "date",
    "time",
    "datetime",
    "strftime",
    "julianday",
    "typeof",
    "ifnull",
    "iif",
    "if",
    "isnull",
    "datediff",
    "date_format",
    "from_unixtime",
    "unix_timestamp",
    "json_extract",
    "jsonb_pretty",
    "to_json",
    "row_to_json",
    "array_length",
    "md5",
    "uniq",
    "uniqexact",
    "tostring",
    "todate",
    "totypename",
    "formatreadablesize",
    "count_if",
    "countif",
    "age",
];

/// SQLite dot-commands that only print the database's schema or content (`.tables`,
/// `.schema t`) or the shell's settings.
pub const SQLITE_LISTINGS: &[&str] = &[
    ".tables",
    ".table",
    ".schema",
    ".indexes",
    ".indices",
    ".databases",
    ".fullschema",
    ".dbinfo",
    ".dump",
    ".help",
    ".show",
    ".mode",
    ".headers",
    ".header",
];

/// Redis commands that only read (keys, values, the server's counters); any other command
/// may change or destroy what the server holds, or its configuration.
pub const REDIS_READ_COMMANDS: &[&str] = &[
    "ping",
    "echo",
    "get",
    "mget",
    "exists",
    "keys",
    "scan",
    "type",
    "ttl",
    "pttl",
    "strlen",
    "getrange",
    "hget",
    "hmget",
    "hgetall",
    "hkeys",
    "hvals",
    "hlen",
    "hexists",
    "hscan",
    "lrange",
    "llen",
    "lindex",
    "smembers",
    "scard",
    "sismember",
    "sscan",
    "zrange",
    "zrevrange",
    "zrangebyscore",
    "zcard",
    "zscore",
    "zrank",
    "zscan",
    "zcount",
    "dbsize",
    "info",
    "time",
    "lastsave",
    "xlen",
    "xrange",
    "xrevrange",
    "xinfo",
    "pfcount",
    "bitcount",
    "getbit",
    "memory",
    "object",
    "dump",
    "role",
    "command",
];

/// Process names shared by the programs of many unrelated processes (runtimes, shells,
/// interpreters and the desktop's and agent's own hosts): a pattern of `pkill` or `killall`
/// that names only these stops processes the call did not start, the agent's own host among
/// them (`pkill -f node`, `killall python3`).
pub const SHARED_PROCESS_NAMES: &[&str] = &[
    "node",
    "nodejs",
    "deno",
    "bun",
    "python",
    "python3",
    "python2",
    "java",
    "ruby",
    "perl",
    "php",
    "dotnet",
    "sh",
    "bash",
    "zsh",
    "fish",
    "dash",
    "ksh",
    "tmux",
    "screen",
    "ssh",
    "sshd",
    "code",
    "electron",
    "chrome",
    "chromium",
    "firefox",
    "systemd",
    "docker",
    "dockerd",
    "containerd",
    "claude",
    "codex",
    "gemini",
    "cursor",
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "cargo",
    "go",
    "gnome",
    "kde",
    "plasma",
    "xorg",
    "wayland",
    "pulseaudio",
    "pipewire",
    "dbus",
    "emacs",
    "vim",
    "nvim",
];

/// Prefixes of credential helpers' names (`docker-credential-pass get`): `get` and `list`
/// print what the store holds, any other call changes it.
pub const CREDENTIAL_HELPERS: &[&str] = &["docker-credential-"];

/// The program `name`'s effects ([`EFFECTFUL`]).
pub fn effectful(name: &str) -> Option<&'static Effectful> {
    EFFECTFUL.iter().find(|e| e.names.contains(&name))
}
