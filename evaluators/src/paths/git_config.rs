//! A repository's `.git/config`, read for what a call could print from it: credentials.
//!
//! `**/.git/config` is a secret by name, because remote URLs may carry a token
//! (`https://user:TOKEN@host/…`), `http.extraheader` an `Authorization` header (CI checkouts
//! write one), and other keys passwords (`sendemail.smtppass`, a tool's `oauthtoken`). Nothing
//! else under `.git` is: git strips credentials from the URLs it writes to `FETCH_HEAD` and
//! the reflogs, objects are compressed (a text search does not read a secret committed
//! earlier out of them; printing history is judged on its own), and hooks are code, not
//! secrets. So a search over a tree that holds a `.git/config` reads a credential only when
//! that file holds one: when it does not (and is a plain file that can be read), the search
//! is not a secret read. A command that names the file itself is still judged by its name.

use std::path::Path;

/// The most bytes of a repository configuration that are read; a longer one is not proven.
pub(crate) const MAX_GIT_CONFIG_BYTES: u64 = 64 * 1024;

/// Words in a configuration key that name a credential (`smtppass`, `oauthtoken`,
/// `extraheader` with `Authorization`).
const CREDENTIAL_KEYS: &[&str] = &[
    "pass",
    "token",
    "secret",
    "auth",
    "extraheader",
    "cookie",
    "credential",
    "key",
];

/// The text of a repository configuration file, lower-cased; `None` when there is none, an
/// error naming the file when it cannot be read or is longer than [`MAX_GIT_CONFIG_BYTES`].
///
/// # Errors
///
/// Why the file cannot be read, in words.
pub(crate) fn read(path: &Path) -> Result<Option<String>, String> {
    let shown = path.display();
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read `{shown}` ({e})")),
    };
    if meta.len() > MAX_GIT_CONFIG_BYTES {
        return Err(format!(
            "`{shown}` is longer than {MAX_GIT_CONFIG_BYTES} bytes and is not read"
        ));
    }
    std::fs::read(path)
        .map(|t| Some(String::from_utf8_lossy(&t).to_ascii_lowercase()))
        .map_err(|e| format!("cannot read `{shown}` ({e})"))
}

/// Why the repository configuration at `path` may hold a credential, if it may: a
/// `http(s)://user[:token]@host` URL, a key whose name reads as a credential
/// ([`CREDENTIAL_KEYS`]), or a file that cannot be read.
pub(crate) fn credential(path: &Path) -> Option<String> {
    let text = match read(path) {
        Ok(Some(t)) => t,
        Ok(None) => return None,
        Err(why) => return Some(why),
    };
    let userinfo = text.lines().any(|line| {
        ["http://", "https://"].iter().any(|scheme| {
            line.split(scheme).skip(1).any(|rest| {
                rest.split('/')
                    .next()
                    .is_some_and(|host| host.contains('@'))
            })
        })
    });
    let credential_key = text.lines().any(|line| {
        let line = line.trim_start();
        !line.starts_with(['[', '#', ';'])
            && line
                .split('=')
                .next()
                .is_some_and(|key| CREDENTIAL_KEYS.iter().any(|k| key.contains(k)))
    });
    (userinfo || credential_key).then(|| format!("`{}` holds a credential", path.display()))
}

/// Whether `path` is a plain file named `.git/config` (not a link) that holds no credential:
/// then reading it in a search reads no secret.
pub(crate) fn is_clean_git_config(path: &Path, meta: &std::fs::Metadata) -> bool {
    let named = path.file_name().is_some_and(|n| n == "config")
        && path
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == ".git");
    named && meta.is_file() && credential(path).is_none()
}

#[cfg(test)]
mod tests {
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
        ] {
            assert!(config(secret).is_some(), "{secret}");
        }
    }
}
