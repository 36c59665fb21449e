//! Everyday read-only commands the policy proves harmless, next to the near misses that read
//! contents, walk whole trees or write and so stay open.

mod support;

use support::{bash, context, decided, policy, verdict, workspace};
use warrant_core::call::PermissionMode;
use warrant_core::evaluator::Stance;

/// A private key, as a file holding one reads.
const PEM: &str =
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n";

/// Whether the policy allows `command` in default mode in a fresh workspace holding
/// `README.md` and, tracked by no ignore file, the keys `deploy.pem` and `x.key`.
async fn allowed(command: &str) -> bool {
    let ws = workspace();
    std::fs::write(ws.path().join("README.md"), "# demo\n").expect("README.md");
    std::fs::write(ws.path().join("deploy.pem"), PEM).expect("deploy.pem");
    std::fs::write(ws.path().join("x.key"), PEM).expect("x.key");
    let cx = context(PermissionMode::Default, ws.path());
    let (stance, _) = decided(verdict(&policy(), &bash(command), &cx).await);
    stance == Stance::PolicyAllow
}

async fn assert_allowed(commands: &[&str]) {
    for c in commands {
        assert!(allowed(c).await, "`{c}` should be allowed");
    }
}

async fn assert_open(commands: &[&str]) {
    for c in commands {
        assert!(!allowed(c).await, "`{c}` must not be allowed");
    }
}

#[tokio::test]
async fn a_look_one_level_down_outside_the_workspace_is_no_read() {
    assert_allowed(&[
        "ls -l ~/.ssh",
        "ls -la ~/.ssh/",
        "ls ~/.ssh/*",
        "ls -L ~/.aws",
        "stat ~/.ssh/id_rsa",
        "stat -c '%a %U' ~/.ssh",
        "stat -L /etc/hosts",
        "ls /usr/lib",
        "ls -ld /tmp",
    ])
    .await;
}

#[tokio::test]
async fn walks_and_contents_outside_the_workspace_stay_open() {
    assert_open(&[
        // Whole trees: every name below.
        "ls -R ~/.ssh",
        "ls -laR ~",
        "du -sh ~/.ssh",
        "du -a ~",
        "tree ~/.ssh",
        "eza -T ~",
        "exa -R ~",
        "exa --recurse ~",
        "find ~/.ssh -name 'id*'",
        "fd . ~/.ssh",
        // Contents.
        "cat ~/.ssh/id_rsa",
        "file ~/.ssh/id_rsa",
        "ls ~/.ssh | xargs cat",
        "ls ~/.ssh | while read f; do cat ~/.ssh/$f; done",
        "head -c 100 ~/.aws/credentials",
        // What `ls` lists, fed to a look that is no longer one level.
        "ls ~ | xargs ls -l",
    ])
    .await;
}

#[tokio::test]
async fn compressed_files_are_searched_and_printed_through_gzip() {
    assert_allowed(&[
        "zgrep -c foo README.md",
        "zgrep -in foo README.md",
        "zegrep 'foo|bar' README.md",
        "zfgrep -l foo README.md",
        "zcat -f README.md",
        "zcat -f README.md | head -3",
    ])
    .await;
    assert_open(&[
        // Recursion zgrep refuses, and a pattern file it copies to a temporary file.
        "zgrep -r foo .",
        "zgrep -f - foo README.md",
        "zgrep --file=p.txt foo README.md",
        "zgrep foo ~/.ssh/id_rsa",
        "zgrep foo .env",
        "zcat ~/.ssh/id_rsa",
        "zcat -r .",
        "zcat README.md > out.txt",
    ])
    .await;
}

#[tokio::test]
async fn version_and_installed_package_queries_only_read() {
    assert_allowed(&[
        "cc --version",
        "c++ --version",
        "ld --version",
        "nm --version",
        "objdump --version",
        "pkg-config --version",
    ])
    .await;
    assert_open(&[
        // `npm` creates `~/.npm` on start; `npm ls` writes a log and asks the registry
        // whether npm is out of date.
        "npm --version",
        "npm ls",
        "npm ls --depth=0",
        "npm list --all --json",
        "pnpm ls",
        // pip may check its own version over the network and write a cache.
        "pip --version",
        "pip3 -V",
        "pip list",
        "python3 -m pip freeze",
        // A script running programs it does not name (`getopt`, `python3`).
        "lsb_release -a",
        "cc --version > out.txt",
        "cc --bogus",
    ])
    .await;
}

#[tokio::test]
async fn find_prints_only_the_names_every_branch_of_a_disjunction_tests() {
    assert_allowed(&[
        "find . -name '*.c' -o -name '*.h' | xargs wc -l",
        "find . -type f -name '*.md' -o -name '*.txt' | xargs wc -l",
        "find . -name '*.rs' -or -not -name x -name '*.toml' | xargs wc -l",
        "find src -name '*.rs' | xargs wc -l",
    ])
    .await;
    assert_open(&[
        "find . -name '*.rs' -o -name '*.pem' | xargs cat",
        "find . -name '*.rs' -o -iname '*.KEY' | xargs cat",
        // A branch without a name test prints any path.
        "find . -name '*.rs' -o -type f | xargs cat",
        "find . -name '*.rs' -o ! -name '*.md' | xargs cat",
        "find . -name '*.rs' -o -not -name '*.md' | xargs cat",
        // A word that may be an option's value is no name test.
        "find . -newer -name -name '*.pem' | xargs cat",
        // Groups are not read.
        "find . \\( -name '*.rs' -o -name '*.md' \\) -o -type f | xargs cat",
        "find . -name '*.rs' , -type f | xargs cat",
    ])
    .await;
}

#[tokio::test]
async fn a_searcher_walks_the_roots_the_table_reads_not_its_options_values() {
    assert_allowed(&[
        "rg --files src | xargs wc -l",
        "rg -l main src | xargs head -1",
        "rg -l -t rust main | xargs wc -l",
        "fd -e rs . src | xargs wc -l",
    ])
    .await;
    assert_open(&[
        // `-g`, `--max-depth`, `--sort`, `-e`, `-t` take values, which are no roots.
        "rg --files -g '*.key' | xargs cat",
        "rg --files --glob '*.pem' | xargs cat",
        "rg --files --max-depth 5 | xargs cat",
        "rg --files -d 3 | xargs head -c 500",
        "rg --files --sort path | xargs cat",
        "rg -l -m 1 PRIVATE | xargs cat",
        "fd -e pem deploy | xargs cat",
        "fd -t f deploy | xargs cat",
        "fd -H -I -e key x | xargs cat",
        "fd -d 2 key | xargs cat",
    ])
    .await;
}

#[tokio::test]
async fn a_toolchain_prints_its_usage_before_loading_anything() {
    assert_allowed(&[
        "node --help",
        "python3 --help",
        "make --help",
        "gcc --help",
        "pkg-config --help",
    ])
    .await;
    assert_open(&[
        // rustup's proxies write their settings on start; docker loads its credentials.
        "cargo --help",
        "rustc --help",
        "docker --help",
        // Anything beside `--help` is read as it would be without it.
        "node --help --require ./x.js",
        "python3 --help -c 'import os'",
        "make --help -f Makefile all",
        "gcc --help=common",
        "make -h",
    ])
    .await;
}

#[tokio::test]
async fn decompressing_to_standard_output_reads_the_files_as_zcat_does() {
    assert_allowed(&[
        "gunzip -c README.md | head -3",
        "gzip -dc README.md | wc -c",
        "gzip -cd README.md",
        "gzip -c README.md | wc -c",
        "gunzip --stdout README.md",
        "gzip --decompress --to-stdout README.md",
        "gzip -c9 README.md | wc -c",
        "xzcat README.md | head -3",
        "lzcat -k README.md",
        "bzcat -s README.md",
    ])
    .await;
    assert_open(&[
        // In place: the file is replaced by its (de)compressed copy.
        "gzip README.md",
        "gunzip README.md",
        "gzip -d README.md",
        "gzip -k README.md",
        // A key read, a tree walked, a suffix or options from elsewhere.
        "gzip -c deploy.pem",
        "gunzip -c ~/.ssh/id_rsa",
        "gzip -rc .",
        "gzip -c -S .x README.md",
        "gzip -c README.md > README.md.gz",
        "gunzip -c",
        "xzcat deploy.pem",
        "xzcat -z README.md",
        "xzcat --files=list.txt",
        "bzcat README.md > out.txt",
    ])
    .await;
}

#[tokio::test]
async fn paths_printed_by_ls_sorting_and_by_which_are_read_as_those_paths() {
    assert_allowed(&[
        "head -3 $(ls -t *.md | head -1)",
        "cat $(ls -1tr README.md)",
        "wc -l $(ls -S *.md)",
        "ls -l $(which sh)",
        "ls -l \"$(which sh)\"",
        "readlink -f $(which sh)",
    ])
    .await;
    assert_open(&[
        // Long listings print more than names; a key among the names is read.
        "cat $(ls -lt *.md | head -1)",
        "cat $(ls -t *.pem | head -1)",
        "cat $(ls -t)",
        // Not found: the command runs without the word (`grep -r x` walks `.`).
        "grep -r x $(which no-such-program-here)",
        "cat $(which -a sh)",
        "cat $(which ./sh)",
    ])
    .await;
}
