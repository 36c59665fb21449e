//! What the text a file tool writes names, for the reviewer.
//!
//! A file written inside the workspace is routine work, and so is running the project's
//! tests and builds: together they run whatever the written file says, one call after the
//! other, without any call naming it (a test that runs `cat ~/.ssh/id_rsa`, a build script
//! that appends to `~/.bashrc`). The reviewer cannot prove what written code does, but it can
//! read the names it spells: a text that names a secret (`~/.ssh/id_rsa`, `.env`, a cloud
//! credentials file) or a file that runs code later (a shell start-up file, a git hook) is
//! code that does, when run, what no call may do directly, and the write is asked about.
//! Names are read as the policy reads a path (`~` and `$HOME` for the home directory, globs
//! over secret names, a secret's name alone, such as `id_rsa` or `.env`, joined at run time).

use crate::paths::{Place, Places};
use crate::shell::WorkingDir;

/// The most bytes of written text read; a longer text is not read, and is asked about.
const MAX_TEXT_BYTES: usize = 1 << 20;

/// The most names read from one text.
const MAX_NAMES: usize = 50_000;

/// The fields of a file tool's input that hold what it writes (every other string field is
/// a name or text it replaces).
const TEXT_FIELDS: &[&str] = &["content", "new_string", "new_source", "file_text", "text"];

/// Files whose text is read by people, not run: what they name is not code's. (A runner
/// that runs one is judged by the command naming it.)
const DOCUMENTS: &[&str] = &[
    "md", "markdown", "rst", "txt", "adoc", "asciidoc", "org", "csv", "tsv", "svg", "html", "htm",
    "tex", "log",
];

/// Why the text `input` (a file tool's input) writes may run what no call may, if it may: a
/// name it spells that [`Places`] finds a secret, or that `protected` says runs code later.
/// Documents ([`DOCUMENTS`]) are not read. A text too long to read is asked about.
pub(super) fn named_harm(
    input: &serde_json::Value,
    written: &[String],
    places: &Places<'_>,
    protected: &dyn Fn(&str) -> Option<&'static str>,
) -> Option<String> {
    if !written.is_empty() && written.iter().all(|p| is_document(p)) {
        return None;
    }
    let mut texts = Vec::new();
    collect(input, 0, &mut texts);
    let total: usize = texts.iter().map(|t| t.len()).sum();
    if total > MAX_TEXT_BYTES {
        return Some(format!(
            "the text written is longer than {MAX_TEXT_BYTES} bytes and is not read for what it names"
        ));
    }
    let mut seen = 0usize;
    for text in texts {
        for name in names(text) {
            seen += 1;
            if seen > MAX_NAMES {
                return Some(format!(
                    "the text written spells more than {MAX_NAMES} names and is not read to the end"
                ));
            }
            if let Some(why) = harm(&name, places, protected) {
                return Some(why);
            }
        }
    }
    None
}

/// Files that list names for a tool to skip, and documents without an extension: what they
/// name is not run.
const DOCUMENT_NAMES: &[&str] = &[
    ".gitignore",
    ".dockerignore",
    ".npmignore",
    ".eslintignore",
    ".prettierignore",
    ".gitattributes",
    ".ignore",
    ".rgignore",
    "README",
    "LICENSE",
    "CHANGELOG",
    "NOTICE",
    "AUTHORS",
];

/// Whether `path` is a document: by its extension ([`DOCUMENTS`]) or its name
/// ([`DOCUMENT_NAMES`]).
fn is_document(path: &str) -> bool {
    let path = std::path::Path::new(path);
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| DOCUMENTS.iter().any(|d| d.eq_ignore_ascii_case(e)))
        || path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| DOCUMENT_NAMES.contains(&n))
}

/// The written text of `value`: the strings of its [`TEXT_FIELDS`], at any depth (an edit
/// list's new strings included).
fn collect<'a>(value: &'a serde_json::Value, depth: usize, out: &mut Vec<&'a str>) {
    if depth > 8 {
        return;
    }
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                match v {
                    serde_json::Value::String(s) if TEXT_FIELDS.contains(&k.as_str()) => {
                        out.push(s);
                    }
                    serde_json::Value::Array(items) if TEXT_FIELDS.contains(&k.as_str()) => {
                        // A notebook cell's source as a list of lines.
                        out.extend(items.iter().filter_map(serde_json::Value::as_str));
                    }
                    _ => collect(v, depth + 1, out),
                }
            }
        }
        serde_json::Value::Array(items) => {
            for v in items {
                collect(v, depth + 1, out);
            }
        }
        _ => {}
    }
}

/// The path-like names `text` spells: runs of the characters a path is written with, the
/// home directory's spellings (`$HOME`, `${HOME}`, `os.homedir()`, `Path.home()`,
/// `expanduser("~")`) read as `~`.
fn names(text: &str) -> impl Iterator<Item = String> + '_ {
    let is_name = |c: char| c.is_ascii_alphanumeric() || "._-~/$*?[]{}+@,".contains(c);
    text.split(move |c: char| !is_name(c))
        .filter(|t| !t.is_empty() && t.len() <= 4096)
        .map(|t| {
            t.replace("${HOME}", "~")
                .replace("$HOME", "~")
                .trim_end_matches([',', '.'])
                .to_owned()
        })
        .filter(|t| t.chars().any(|c| c.is_ascii_alphanumeric()))
}

/// Why the name `name` is harm in code, if it is: a secret, or a file that runs code later.
fn harm(
    name: &str,
    places: &Places<'_>,
    protected: &dyn Fn(&str) -> Option<&'static str>,
) -> Option<String> {
    // A name in code is relative to wherever the code runs: read from the workspace's top,
    // and from the home directory when it names a dot file (`.ssh/id_rsa` joined to the home).
    let mut readings = vec![name.to_owned()];
    if name.starts_with('.') && !name.starts_with("./") && !name.starts_with("..") {
        readings.push(format!("~/{name}"));
    }
    for reading in &readings {
        if let Place::Sensitive(what) = places.locate(reading, &WorkingDir::Root).place {
            return Some(format!("it names `{name}`, {what}"));
        }
        if let Some(what) = protected(reading) {
            return Some(format!("it names `{name}`, {what}"));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_path_like_runs_of_the_text() {
        let got: Vec<String> =
            names("import os\nos.system(\"cat $HOME/.ssh/id_rsa\")\nx = open('.env')").collect();
        assert!(got.contains(&"~/.ssh/id_rsa".to_owned()), "{got:?}");
        assert!(got.contains(&".env".to_owned()), "{got:?}");
        assert!(got.contains(&"os.system".to_owned()), "{got:?}");
    }

    #[test]
    fn documents_are_not_read() {
        assert!(is_document("docs/setup.md"));
        assert!(is_document("NOTES.TXT"));
        assert!(is_document("sub/.gitignore"));
        assert!(!is_document("tests/test_a.py"));
        assert!(!is_document("Makefile"));
    }

    #[test]
    fn the_written_text_is_every_text_field_at_any_depth() {
        let input = serde_json::json!({
            "file_path": "a.py",
            "edits": [{"old_string": "old .env", "new_string": "new ~/.aws/credentials"}],
            "content": "x",
        });
        let mut got = Vec::new();
        collect(&input, 0, &mut got);
        got.sort_unstable();
        assert_eq!(got, vec!["new ~/.aws/credentials", "x"]);
    }
}
