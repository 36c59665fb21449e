//! The files git tracks, read from the repository's index (`.git/index`, versions 2 to 4), so
//! that commands reading only tracked files (`git grep`, `git ls-files | xargs …`) are judged
//! by the files they can really read.

use std::path::Path;

/// The most entries read from an index; a larger one is not used.
const MAX_ENTRIES: usize = 200_000;

/// The most bytes of an index that are read (read without blocking, like every file the
/// policy decides by); a longer one is not read, and the tracked files are then not known.
const MAX_INDEX_BYTES: u64 = 256 * 1024 * 1024;

/// The paths of an index file's entries, relative to the repository's top, or why it cannot
/// be read.
///
/// # Errors
///
/// A message naming what is wrong with the file.
pub(crate) fn read(index: &[u8], hash_len: usize) -> Result<Vec<String>, String> {
    entries(index, hash_len).map(|e| e.into_iter().map(|(path, _)| path).collect())
}

/// The mode git gives a submodule's entry (a commit of another repository, a "gitlink").
const GITLINK_MODE: u32 = 0o160_000;

/// The paths of an index file's submodule entries (gitlinks), relative to the repository's
/// top, or why the index cannot be read.
///
/// # Errors
///
/// A message naming what is wrong with the file.
pub(crate) fn gitlinks(index: &[u8], hash_len: usize) -> Result<Vec<String>, String> {
    Ok(entries(index, hash_len)?
        .into_iter()
        .filter(|(_, mode)| mode & 0o170_000 == GITLINK_MODE)
        .map(|(path, _)| path)
        .collect())
}

/// Each entry's path and mode.
fn entries(index: &[u8], hash_len: usize) -> Result<Vec<(String, u32)>, String> {
    let take = |at: usize, n: usize| {
        index
            .get(at..at + n)
            .ok_or_else(|| format!("the index ends at byte {at}, inside an entry"))
    };
    if take(0, 4)? != b"DIRC" {
        return Err("the index does not start with its signature".to_owned());
    }
    let be32 = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize;
    let version = be32(take(4, 4)?);
    if !(2..=4).contains(&version) {
        return Err(format!("index version {version} is not known"));
    }
    let count = be32(take(8, 4)?);
    if count > MAX_ENTRIES {
        return Err(format!(
            "the index holds {count} entries, more than are read"
        ));
    }
    let mut paths: Vec<(String, u32)> = Vec::with_capacity(count);
    let mut at = 12;
    let mut previous: Vec<u8> = Vec::new();
    for _ in 0..count {
        let start = at;
        let m = take(at + 24, 4)?;
        let mode = u32::from_be_bytes([m[0], m[1], m[2], m[3]]);
        // ctime, mtime, dev, ino, mode, uid, gid, size: ten 32-bit fields.
        at += 40 + hash_len;
        let flags = u16::from_be_bytes(take(at, 2)?.try_into().map_err(|_| "flags")?);
        at += 2;
        if version >= 3 && flags & 0x4000 != 0 {
            at += 2;
        }
        let path = if version == 4 {
            // A varint: how many bytes of the previous path to drop.
            let mut drop = 0usize;
            loop {
                let b = *take(at, 1)?.first().ok_or("varint")?;
                at += 1;
                drop = (drop << 7) | usize::from(b & 0x7f);
                if b & 0x80 == 0 {
                    break;
                }
                drop += 1;
            }
            let end = index[at..]
                .iter()
                .position(|&b| b == 0)
                .ok_or("an entry's path is not terminated")?;
            let keep = previous
                .len()
                .checked_sub(drop)
                .ok_or("an entry drops more than the previous path")?;
            let mut p = previous[..keep].to_vec();
            p.extend_from_slice(&index[at..at + end]);
            at += end + 1;
            p
        } else {
            let end = index[at..]
                .iter()
                .position(|&b| b == 0)
                .ok_or("an entry's path is not terminated")?;
            let p = index[at..at + end].to_vec();
            // Entries are padded with 1 to 8 NUL bytes to a multiple of eight.
            let len = at + end - start;
            at = start + (len + 8) / 8 * 8;
            p
        };
        paths.push((String::from_utf8_lossy(&path).into_owned(), mode));
        previous = path;
    }
    Ok(paths)
}

/// The submodule entries (gitlinks) of the index in the git directory `git_dir`, whose object
/// names are SHA-256 ones when `sha256`; none when there is no index.
///
/// # Errors
///
/// The index cannot be read or is damaged.
pub(crate) fn gitlinks_of(git_dir: &Path, sha256: bool) -> Result<Vec<String>, String> {
    let path = git_dir.join("index");
    match super::small_file::read_bytes(&path, MAX_INDEX_BYTES)? {
        None => Ok(Vec::new()),
        Some(index) => gitlinks(&index, if sha256 { 32 } else { 20 })
            .map_err(|why| format!("cannot read `{}`: {why}", path.display())),
    }
}

/// The files tracked by the repository whose work tree is `root`, when its index can be read.
pub(crate) fn tracked(root: &Path) -> Option<Vec<String>> {
    let dot_git = root.join(".git");
    let git_dir = if dot_git.is_file() {
        // A linked work tree: `gitdir: PATH`.
        let text = super::small_file::read_text(&dot_git).ok().flatten()?;
        let dir = text.strip_prefix("gitdir:")?.trim();
        root.join(dir)
    } else {
        dot_git
    };
    let config = super::small_file::read_text(&git_dir.join("config"))
        .ok()?
        .unwrap_or_default();
    let sha256 = config.lines().any(|l| {
        l.replace(' ', "")
            .eq_ignore_ascii_case("objectformat=sha256")
    });
    let index = super::small_file::read_bytes(&git_dir.join("index"), MAX_INDEX_BYTES)
        .ok()
        .flatten()?;
    read(&index, if sha256 { 32 } else { 20 }).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, hash_len: usize) -> Vec<u8> {
        let mut e = vec![0u8; 40 + hash_len];
        e.extend_from_slice(&(path.len() as u16).to_be_bytes());
        e.extend_from_slice(path.as_bytes());
        let len = e.len();
        e.resize((len + 8) / 8 * 8, 0);
        e
    }

    #[test]
    fn a_version_2_index_lists_its_paths() {
        let mut index = b"DIRC".to_vec();
        index.extend_from_slice(&2u32.to_be_bytes());
        index.extend_from_slice(&2u32.to_be_bytes());
        index.extend(entry("README.md", 20));
        index.extend(entry("src/main.rs", 20));
        assert_eq!(read(&index, 20).unwrap(), ["README.md", "src/main.rs"]);
    }

    #[test]
    fn submodule_entries_are_told_by_their_mode() {
        let mut index = b"DIRC".to_vec();
        index.extend_from_slice(&2u32.to_be_bytes());
        index.extend_from_slice(&2u32.to_be_bytes());
        index.extend(entry("a.txt", 20));
        let mut link = entry("sub", 20);
        link[24..28].copy_from_slice(&0o160_000u32.to_be_bytes());
        index.extend(link);
        assert_eq!(gitlinks(&index, 20).unwrap(), ["sub"]);
        let missing = tempfile::tempdir().unwrap();
        assert!(gitlinks_of(missing.path(), false).unwrap().is_empty());
    }

    #[test]
    fn damaged_indexes_are_refused() {
        assert!(read(b"DIRX", 20).is_err());
        let mut index = b"DIRC".to_vec();
        index.extend_from_slice(&2u32.to_be_bytes());
        index.extend_from_slice(&3u32.to_be_bytes());
        index.extend(entry("a", 20));
        assert!(read(&index, 20).is_err(), "fewer entries than announced");
    }

    #[test]
    fn the_index_git_writes_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .current_dir(dir.path())
                .output()
        };
        if git(&["init", "-q"]).is_err() {
            eprintln!("git is not installed; the index written by git is not checked");
            return;
        }
        std::fs::create_dir_all(dir.path().join("src/deep")).unwrap();
        for f in [
            "README.md",
            "src/main.rs",
            "src/deep/a-very-long-file-name.rs",
        ] {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        git(&["add", "."]).unwrap();
        let mut got = tracked(dir.path()).unwrap();
        got.sort();
        assert_eq!(
            got,
            [
                "README.md",
                "src/deep/a-very-long-file-name.rs",
                "src/main.rs"
            ]
        );
        git(&["update-index", "--index-version", "4"]).unwrap();
        let mut got = tracked(dir.path()).unwrap();
        got.sort();
        assert_eq!(
            got,
            [
                "README.md",
                "src/deep/a-very-long-file-name.rs",
                "src/main.rs"
            ]
        );
    }
}
