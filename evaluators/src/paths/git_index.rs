//! The files git tracks, read from the repository's index (`.git/index`, versions 2 to 4), so
//! that commands reading only tracked files (`git grep`, `git ls-files | xargs …`) are judged
//! by the files they can really read; and the commit a revision name stands for, read from
//! the repository's refs, so that a command writing the work tree from a revision is known to
//! write the current commit's files or not.

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
    entries(index, hash_len).map(|e| e.into_iter().map(|(path, _, _)| path).collect())
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
        .filter(|(_, mode, _)| mode & 0o170_000 == GITLINK_MODE)
        .map(|(path, _, _)| path)
        .collect())
}

/// Each entry's path, mode and the offset of the entry in the index; a split index is an
/// error (most of its entries are in the shared index file).
fn entries(index: &[u8], hash_len: usize) -> Result<Vec<(String, u32, usize)>, String> {
    match entries_and_link(index, hash_len)? {
        (paths, None) => Ok(paths),
        (_, Some(_)) => {
            Err("the index is split: most of its entries are in a shared index file".to_owned())
        }
    }
}

/// An index's entries, as [`entries`] reads them, and the id of the shared index file a
/// split index's `link` extension names.
type EntriesAndLink = (Vec<(String, u32, usize)>, Option<Vec<u8>>);

/// The entries of an index, as [`entries`], and for a split index the id of the shared
/// index file its `link` extension names.
fn entries_and_link(index: &[u8], hash_len: usize) -> Result<EntriesAndLink, String> {
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
    let mut paths: Vec<(String, u32, usize)> = Vec::with_capacity(count);
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
        paths.push((String::from_utf8_lossy(&path).into_owned(), mode, start));
        previous = path;
    }
    // The extensions, up to the checksum: a split index (`link`) keeps its entries in a
    // shared index file as well, which these are not all of.
    let end = index.len().saturating_sub(hash_len);
    while at + 8 <= end {
        let signature = take(at, 4)?;
        let size = be32(take(at + 4, 4)?);
        if signature == b"link" {
            if size < hash_len {
                return Err("the index's link extension is too short".to_owned());
            }
            return Ok((paths, Some(take(at + 8, hash_len)?.to_vec())));
        }
        at = at
            .checked_add(8 + size)
            .filter(|next| *next <= end)
            .ok_or_else(|| format!("the index's extension at byte {at} runs past its end"))?;
    }
    Ok((paths, None))
}

/// Every path the index of the work tree `root` may record: its own entries' and, for a
/// split index, every entry's of the shared index file it names (those it deletes or
/// replaces among them: a superset). `Ok(None)` when there is no index.
///
/// # Errors
///
/// The index, its repository's configuration or its shared index cannot be read, or is
/// damaged.
pub(crate) fn tracked_paths(root: &Path) -> Result<Option<Vec<String>>, String> {
    let git_dir = git_dir_of(root);
    let path = git_dir.join("index");
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let (bytes, hash_len) =
        index_of(root).ok_or_else(|| format!("cannot read `{}`", path.display()))?;
    let (own, link) = entries_and_link(&bytes, hash_len)
        .map_err(|why| format!("cannot read `{}`: {why}", path.display()))?;
    let mut paths: Vec<String> = own
        .into_iter()
        .map(|(p, _, _)| p)
        .filter(|p| !p.is_empty())
        .collect();
    if let Some(id) = link {
        let hex: String = id.iter().map(|b| format!("{b:02x}")).collect();
        // An all-zero id names no shared index.
        if id.iter().any(|&b| b != 0) {
            let shared = git_dir.join(format!("sharedindex.{hex}"));
            let bytes = super::small_file::read_bytes(&shared, MAX_INDEX_BYTES)?
                .ok_or_else(|| format!("the shared index `{}` is missing", shared.display()))?;
            let entries = entries(&bytes, hash_len)
                .map_err(|why| format!("cannot read `{}`: {why}", shared.display()))?;
            paths.extend(entries.into_iter().map(|(p, _, _)| p));
        }
    }
    Ok(Some(paths))
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

/// A repository's index, read and parsed once: its entries, and the index file's metadata
/// that git's stat check compares them with.
pub(crate) struct Index {
    root: std::path::PathBuf,
    bytes: Vec<u8>,
    hash_len: usize,
    entries: Vec<(String, u32, usize)>,
    meta: Option<std::fs::Metadata>,
}

impl Index {
    /// The index of the repository whose work tree is `root`, when it can be read.
    pub(crate) fn of(root: &Path) -> Option<Self> {
        let (bytes, hash_len) = index_of(root)?;
        let entries = entries(&bytes, hash_len).ok()?;
        let meta = std::fs::metadata(git_dir_of(root).join("index")).ok();
        Some(Self {
            root: root.to_path_buf(),
            bytes,
            hash_len,
            entries,
            meta,
        })
    }

    /// The tracked files' paths, relative to the top (a path twice for a conflict's stages).
    pub(crate) fn paths(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(p, _, _)| p.as_str())
    }

    /// The tracked symbolic links' paths, relative to the top.
    pub(crate) fn symlinks(&self) -> impl Iterator<Item = &str> {
        self.entries
            .iter()
            .filter(|(_, mode, _)| mode & 0o170_000 == 0o120_000)
            .map(|(p, _, _)| p.as_str())
    }

    /// How many entries the index has.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the work tree's file `rel` is what the index records, by git's own stat check:
    /// one merged entry, neither assumed unchanged nor skipped nor only intended to be added,
    /// whose recorded change time, modification time, inode and size are the file's (a write
    /// changes the change time, which no call can set back), and that was modified in a
    /// second before the one the index was written in (a later or same-second change is
    /// "racily clean", and git itself compares contents then). Any doubt is `false`.
    pub(crate) fn unchanged(&self, rel: &str) -> bool {
        let mut found = self.entries.iter().filter(|(p, _, _)| p == rel);
        let (Some((_, _, start)), None) = (found.next(), found.next()) else {
            return false;
        };
        self.meta.as_ref().is_some_and(|m| {
            entry_unchanged(&self.root, &self.bytes, self.hash_len, *start, rel, m)
        })
    }

    /// The regular files the index records, as `(PATH, ID)` (the id of the content git
    /// stored, lower-case hex), that the work tree may hold otherwise ([`Self::unchanged`]
    /// cannot tell they are the same): what git prints of them from the index is not what
    /// the work tree shows. `None` when the index's own metadata cannot be read.
    pub(crate) fn staged_otherwise(&self) -> Option<Vec<(String, String)>> {
        let index_meta = self.meta.as_ref()?;
        let mut paths: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for (p, _, _) in &self.entries {
            *paths.entry(p.as_str()).or_default() += 1;
        }
        let (index, hash_len) = (&self.bytes, self.hash_len);
        self.entries
            .iter()
            .filter(|(_, mode, _)| mode & 0o170_000 == 0o100_000)
            .filter(|(p, _, start)| {
                paths.get(p.as_str()) != Some(&1)
                    || !entry_unchanged(&self.root, index, hash_len, *start, p, index_meta)
            })
            .map(|(p, _, start)| {
                let id = index.get(start + 40..start + 40 + hash_len)?;
                Some((p.clone(), id.iter().map(|b| format!("{b:02x}")).collect()))
            })
            .collect()
    }
}

/// The files tracked by the repository whose work tree is `root`, when its index can be read.
pub(crate) fn tracked(root: &Path) -> Option<Vec<String>> {
    let (index, hash_len) = index_of(root)?;
    read(&index, hash_len).ok()
}

/// Whether the index entry at `start` (of the file `rel`, one merged entry of its path) is
/// what the work tree at `root` holds, by git's stat check ([`Index::unchanged`]);
/// `index_meta` is the index file's.
fn entry_unchanged(
    root: &Path,
    index: &[u8],
    hash_len: usize,
    start: usize,
    rel: &str,
    index_meta: &std::fs::Metadata,
) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let field = |k: usize| {
            index
                .get(start + 4 * k..start + 4 * k + 4)
                .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
        };
        let flags = index
            .get(start + 40 + hash_len..start + 42 + hash_len)
            .map(|b| u16::from_be_bytes([b[0], b[1]]));
        // Assume-valid, extended (skip-worktree, intent-to-add) and a conflict's stages.
        if flags.is_none_or(|f| f & 0xF000 != 0) {
            return false;
        }
        let Ok(meta) = std::fs::symlink_metadata(root.join(rel)) else {
            return false;
        };
        // git keeps the low 32 bits of each.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let stat = [
            meta.ctime() as u32,
            meta.ctime_nsec() as u32,
            meta.mtime() as u32,
            meta.mtime_nsec() as u32,
            meta.ino() as u32,
            meta.size() as u32,
        ];
        let recorded = [field(0), field(1), field(2), field(3), field(5), field(9)];
        let racy = meta.mtime() >= index_meta.mtime();
        !racy && recorded.iter().zip(stat).all(|(r, s)| *r == Some(s))
    }
    #[cfg(not(unix))]
    {
        let _ = (root, index, hash_len, start, rel, index_meta);
        false
    }
}

/// The configuration files of the repository whose work tree is `root`: the common
/// directory's `config` (a linked worktree's repository's, see [`common_dir`]) and the git
/// directory's `config.worktree`. A git directory whose `commondir` cannot be read gives its
/// own `config` and its `commondir` file, which a reader then fails to read as configuration.
pub(crate) fn local_configs(root: &Path) -> Vec<std::path::PathBuf> {
    let git_dir = git_dir_of(root);
    let common = common_dir(&git_dir).unwrap_or_else(|| git_dir.join("commondir"));
    let config = if common == git_dir.join("commondir") {
        common
    } else {
        common.join("config")
    };
    vec![config, git_dir.join("config.worktree")]
}

/// The git directory of the work tree `root`: `.git`, or the one a linked work tree's `.git`
/// file names (`gitdir: PATH`), as far as it can be read.
pub(crate) fn git_dir_of(root: &Path) -> std::path::PathBuf {
    let dot_git = root.join(".git");
    super::watch::note(&dot_git);
    if dot_git.is_file()
        && let Some(text) = super::small_file::read_text(&dot_git).ok().flatten()
        && let Some(dir) = text.strip_prefix("gitdir:")
    {
        return root.join(dir.trim());
    }
    dot_git
}

/// The directory holding what a git directory shares with its repository's other work
/// trees (configuration, objects, refs): the one its `commondir` file names (a linked
/// worktree's `../..`, relative to `git_dir`), else `git_dir` itself. `None` when that
/// file cannot be read.
pub(crate) fn common_dir(git_dir: &Path) -> Option<std::path::PathBuf> {
    match super::small_file::read_text(&git_dir.join("commondir")) {
        Ok(Some(common)) => Some(git_dir.join(common.trim())),
        Ok(None) => Some(git_dir.to_path_buf()),
        Err(_) => None,
    }
}

/// The index of the repository whose work tree is `root` and the length of its object
/// names, when it can be read. A linked worktree keeps its own index, and its repository's
/// configuration (which tells the object format) in the common directory.
fn index_of(root: &Path) -> Option<(Vec<u8>, usize)> {
    let git_dir = git_dir_of(root);
    let config = super::small_file::read_text(&common_dir(&git_dir)?.join("config"))
        .ok()?
        .unwrap_or_default();
    let sha256 = config.lines().any(|l| {
        l.replace([' ', '\t'], "")
            .eq_ignore_ascii_case("objectformat=sha256")
    });
    let index = super::small_file::read_bytes(&git_dir.join("index"), MAX_INDEX_BYTES)
        .ok()
        .flatten()?;
    Some((index, if sha256 { 32 } else { 20 }))
}

/// What a revision name stands for in a repository, as far as its refs tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Revision {
    /// The object whose id (lower-case hex) a ref or the name itself gives.
    Object(String),
    /// No ref of that name, and the name is no revision expression: not a revision.
    None,
    /// Not known here: an expression (`HEAD~1`, `@{-1}`, `-`, `:/msg`), an abbreviated id,
    /// a branch git would create from a remote's (`git checkout topic`), refs not read here
    /// (the `reftable` format, a linked worktree's), or a file that cannot be read.
    Unknown,
}

/// The most symbolic refs followed from one name.
const MAX_SYMREF_DEPTH: usize = 5;

/// What `name` stands for as a revision in the repository whose git directory is `git_dir`
/// (a `.git` directory, not a linked worktree's), looked up in git's order: the git
/// directory (upper-case names: `HEAD`, `ORIG_HEAD`), `refs/`, `refs/tags/`, `refs/heads/`,
/// `refs/remotes/`, `refs/remotes/NAME/HEAD`, each a loose ref or a line of `packed-refs`.
pub(crate) fn revision(git_dir: &Path, name: &str) -> Revision {
    if name == "@" {
        return revision(git_dir, "HEAD");
    }
    let hex = |t: &str| t.bytes().all(|b| b.is_ascii_hexdigit());
    if matches!(name.len(), 40 | 64) && hex(name) {
        return Revision::Object(name.to_ascii_lowercase());
    }
    if name.is_empty()
        || name.starts_with('-')
        || name.contains(['~', '^', ':', '@', '{', '}', '*', '?', '[', '\\', ' ', '\t'])
        || name.contains("..")
        || name.bytes().any(|b| b.is_ascii_control())
        || (name.len() >= 4 && hex(name))
    {
        return Revision::Unknown;
    }
    // What no ref can be called (`.`, `src/`, `.claude/x`, `a.lock`) is a path only.
    if name
        .split('/')
        .any(|c| c.is_empty() || c.starts_with('.') || c.ends_with(".lock"))
        || name.ends_with('.')
    {
        return Revision::None;
    }
    // `v1.2-3-g1a2b3c4` is the commit the abbreviated id after `-g` names (`git describe`'s
    // form); `main-worktree/…` and `worktrees/NAME/…` are refs of other work trees.
    let described = name
        .rsplit_once("-g")
        .is_some_and(|(_, id)| id.len() >= 4 && hex(id));
    if described || name.starts_with("main-worktree/") || name.starts_with("worktrees/") {
        return Revision::Unknown;
    }
    if std::fs::symlink_metadata(git_dir.join("reftable")).is_ok() {
        return Revision::Unknown;
    }
    let packed = match super::small_file::read_text(&git_dir.join("packed-refs")) {
        Ok(text) => text.unwrap_or_default(),
        Err(_) => return Revision::Unknown,
    };
    if !packed_refs_well_formed(&packed) {
        return Revision::Unknown;
    }
    let top_level = name.bytes().all(|b| b.is_ascii_uppercase() || b == b'_');
    let mut candidates = Vec::new();
    if top_level || name.starts_with("refs/") {
        // A ref's full name is looked up as written first.
        candidates.push(name.to_owned());
    } else if std::fs::symlink_metadata(git_dir.join(name)).is_ok_and(|m| !m.is_dir()) {
        // git looks for any name in the git directory first (`.git/main` holding `ref:
        // ORIG_HEAD` is what `main` names), not for upper-case names alone.
        return Revision::Unknown;
    }
    for prefix in ["refs/", "refs/tags/", "refs/heads/", "refs/remotes/"] {
        candidates.push(format!("{prefix}{name}"));
    }
    candidates.push(format!("refs/remotes/{name}/HEAD"));
    for candidate in candidates {
        match reference(git_dir, &packed, &candidate, 0) {
            Revision::None => {}
            found => return found,
        }
    }
    // `git checkout NAME` and `git switch NAME` create NAME from a remote's branch of that
    // name: a tree of that branch.
    let remote_branch = packed.lines().any(|l| {
        l.split_once(' ').is_some_and(|(_, r)| {
            r.strip_prefix("refs/remotes/")
                .and_then(|r| r.split_once('/'))
                .is_some_and(|(_, branch)| branch == name)
        })
    });
    let loose_remote_branch = std::fs::read_dir(git_dir.join("refs/remotes"))
        .map(|remotes| {
            remotes
                .filter_map(Result::ok)
                .any(|remote| std::fs::symlink_metadata(remote.path().join(name)).is_ok())
        })
        .unwrap_or(false);
    if remote_branch || loose_remote_branch {
        return Revision::Unknown;
    }
    Revision::None
}

/// The nearest directory above `root` that git may take for a repository or a work tree (a
/// `.git`, or a bare repository's `HEAD`, `commondir` or `gitdir`), if any: git looks there
/// when the workspace holds no repository git accepts.
pub(crate) fn repository_above(root: &std::path::Path) -> Option<String> {
    root.ancestors().skip(1).find_map(|d| {
        [".git", "HEAD", "commondir", "gitdir"]
            .iter()
            .any(|n| std::fs::symlink_metadata(d.join(n)).is_ok())
            .then(|| d.display().to_string())
    })
}

/// Whether `packed` (a `packed-refs` file's text) is laid out as git writes it, so that its
/// refs are read here as git reads them: an optional `# pack-refs with:` first line, then
/// lines `ID refs/NAME` (one space, a full object id, a name with no blank or control
/// character, each name once), each optionally followed by its peeled `^ID`. Anything else
/// (a tab, a name outside `refs/`, a name twice) git may read otherwise.
pub(crate) fn packed_refs_well_formed(packed: &str) -> bool {
    let id = |t: &str| matches!(t.len(), 40 | 64) && t.bytes().all(|b| b.is_ascii_hexdigit());
    let mut names = std::collections::HashSet::new();
    let mut after_ref = false;
    for (n, line) in packed.split_terminator('\n').enumerate() {
        if n == 0 && line.starts_with("# pack-refs with:") {
            continue;
        }
        if let Some(peeled) = line.strip_prefix('^') {
            if !after_ref || !id(peeled) {
                return false;
            }
            after_ref = false;
            continue;
        }
        let Some((object, name)) = line.split_once(' ') else {
            return false;
        };
        let plain = name.starts_with("refs/")
            && !name
                .bytes()
                .any(|b| b.is_ascii_whitespace() || b.is_ascii_control());
        if !id(object) || !plain || !names.insert(name) {
            return false;
        }
        after_ref = true;
    }
    true
}

/// The object the ref `refname` points to, a loose file under `git_dir` or a line of
/// `packed` (the `packed-refs` text), following symbolic refs (`ref: refs/heads/main`).
fn reference(git_dir: &Path, packed: &str, refname: &str, depth: usize) -> Revision {
    if depth > MAX_SYMREF_DEPTH {
        return Revision::Unknown;
    }
    // A loose ref as git writes it, `ID` or `ref: refs/NAME` and a newline; anything else
    // (a vertical tab, trailing text) git may read otherwise or not at all.
    let parse = |value: &str| {
        let value = value.strip_suffix('\n').unwrap_or(value);
        if value.bytes().any(|b| b.is_ascii_control()) {
            return Revision::Unknown;
        }
        if let Some(target) = value.strip_prefix("ref: ") {
            if !target.starts_with("refs/") || target.contains("..") || target.contains(' ') {
                return Revision::Unknown;
            }
            return reference(git_dir, packed, target, depth + 1);
        }
        if matches!(value.len(), 40 | 64) && value.bytes().all(|b| b.is_ascii_hexdigit()) {
            Revision::Object(value.to_ascii_lowercase())
        } else {
            Revision::Unknown
        }
    };
    let path = git_dir.join(refname);
    match std::fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_file() => {
            return match super::small_file::read_text(&path) {
                Ok(Some(text)) => parse(&text),
                _ => Revision::Unknown,
            };
        }
        // A directory of refs (`refs/heads/team/`) is no ref itself.
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => return Revision::Unknown,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {}
        Err(_) => return Revision::Unknown,
    }
    packed
        .lines()
        .filter(|l| !l.starts_with(['#', '^']))
        .find_map(|l| {
            let (id, name) = l.split_once(' ')?;
            (name == refname).then(|| parse(id))
        })
        .unwrap_or(Revision::None)
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

    /// git run in `dir` by a fixed author, with no configuration but the repository's.
    fn git_in(dir: &Path, args: &[&str]) -> std::io::Result<std::process::Output> {
        std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_AUTHOR_NAME", "a")
            .env("GIT_AUTHOR_EMAIL", "a@b")
            .env("GIT_COMMITTER_NAME", "a")
            .env("GIT_COMMITTER_EMAIL", "a@b")
            .output()
    }

    #[test]
    fn the_index_git_writes_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| git_in(dir.path(), args);
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

    #[test]
    fn a_linked_worktree_index_is_read_with_its_common_directory_configuration() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main");
        std::fs::create_dir(&main).unwrap();
        let git = |args: &[&str]| git_in(&main, args);
        let made = git(&["init", "-q", "--object-format=sha256"]);
        if !made.is_ok_and(|o| o.status.success()) {
            eprintln!("git cannot make a SHA-256 repository; not checked");
            return;
        }
        std::fs::write(main.join("a.txt"), "x").unwrap();
        git(&["add", "."]).unwrap();
        git(&["commit", "-qm", "i"]).unwrap();
        // The format is read from `[extensions]` as git writes it, indented by a tab.
        assert_eq!(tracked(&main).unwrap(), ["a.txt"]);
        let wt = dir.path().join("wt");
        let added = git(&["worktree", "add", "-q", wt.to_str().unwrap()]).unwrap();
        assert!(added.status.success(), "{added:?}");
        std::fs::write(wt.join("b.txt"), "y").unwrap();
        git_in(&wt, &["add", "b.txt"]).unwrap();
        let mut got = tracked(&wt).unwrap();
        got.sort();
        assert_eq!(got, ["a.txt", "b.txt"]);
        let git_dir = git_dir_of(&wt);
        assert_eq!(
            std::fs::canonicalize(common_dir(&git_dir).unwrap()).unwrap(),
            std::fs::canonicalize(main.join(".git")).unwrap()
        );
        let configs = local_configs(&wt);
        assert_eq!(
            std::fs::canonicalize(&configs[0]).unwrap(),
            std::fs::canonicalize(main.join(".git/config")).unwrap()
        );
        assert!(configs[1].starts_with(&git_dir));
    }

    #[test]
    fn revisions_are_read_from_refs_as_git_reads_them() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| git_in(dir.path(), args);
        if git(&["init", "-q", "-b", "main"]).is_err() {
            eprintln!("git is not installed; refs written by git are not checked");
            return;
        }
        let id = |rev: &str| {
            let out = git(&["rev-parse", rev]).unwrap();
            Revision::Object(String::from_utf8(out.stdout).unwrap().trim().to_owned())
        };
        std::fs::write(dir.path().join("a"), "a").unwrap();
        git(&["add", "a"]).unwrap();
        git(&["commit", "-qm", "one"]).unwrap();
        git(&["branch", "same"]).unwrap();
        git(&["commit", "-qm", "two", "--allow-empty"]).unwrap();
        git(&["branch", "team/other", "same"]).unwrap();
        git(&["tag", "v1", "same"]).unwrap();
        git(&["update-ref", "refs/remotes/origin/topic", "same"]).unwrap();
        let g = dir.path().join(".git");
        assert_eq!(revision(&g, "HEAD"), id("HEAD"));
        assert_eq!(revision(&g, "@"), id("HEAD"));
        assert_eq!(revision(&g, "main"), id("HEAD"));
        assert_eq!(revision(&g, "same"), id("same"));
        assert_eq!(revision(&g, "team/other"), id("same"));
        assert_eq!(revision(&g, "v1"), id("v1"));
        assert_eq!(revision(&g, "origin/topic"), id("same"));
        // Packed refs are read as loose ones are.
        git(&["pack-refs", "--all"]).unwrap();
        assert_eq!(revision(&g, "same"), id("same"));
        assert_eq!(revision(&g, "main"), id("HEAD"));
        assert_eq!(revision(&g, "origin/topic"), id("same"));
        // A branch git creates from a remote's, expressions, abbreviations: not known.
        for unknown in ["topic", "HEAD~1", "@{-1}", "-", "main^", ":/two", "abcdef1"] {
            assert_eq!(revision(&g, unknown), Revision::Unknown, "{unknown}");
        }
        for path in ["a", "src", ".", "./a", ".claude/settings.json", "src/"] {
            assert_eq!(revision(&g, path), Revision::None, "{path}");
        }
        // A ref's full name, packed; `git describe`'s names; other work trees' refs.
        assert_eq!(revision(&g, "refs/tags/v1"), id("v1"));
        assert_eq!(revision(&g, "refs/heads/same"), id("same"));
        for unknown in [
            "notes-gabcdef1",
            "v1.2-3-g0123abcd",
            "main-worktree/HEAD",
            "worktrees/x/HEAD",
        ] {
            assert_eq!(revision(&g, unknown), Revision::Unknown, "{unknown}");
        }
        // `packed-refs` as git does not write it: git may read it otherwise.
        let packed = std::fs::read_to_string(g.join("packed-refs")).unwrap();
        assert!(packed_refs_well_formed(&packed), "{packed}");
        let same = match id("same") {
            Revision::Object(o) => o,
            other => panic!("{other:?}"),
        };
        for written in [
            format!("{same}\trefs/heads/x\n"),
            format!("{same} x\n"),
            format!("{same} refs/heads/x\n{same} refs/heads/x\n"),
            format!("{same} refs/heads/x \n"),
            format!("^{same}\n"),
        ] {
            assert!(!packed_refs_well_formed(&written), "{written:?}");
            std::fs::write(g.join("packed-refs"), &written).unwrap();
            assert_eq!(revision(&g, "same"), Revision::Unknown, "{written:?}");
        }
        std::fs::write(g.join("packed-refs"), &packed).unwrap();
        // A loose ref as git does not write it.
        std::fs::write(g.join("refs/heads/odd"), format!("{same}\x0b\n")).unwrap();
        assert_eq!(revision(&g, "odd"), Revision::Unknown);
        std::fs::write(g.join("refs/heads/odd"), format!("{same}\n")).unwrap();
        assert_eq!(revision(&g, "odd"), id("same"));
    }

    #[test]
    fn a_split_index_is_not_read_as_whole() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| git_in(dir.path(), args);
        if git(&["init", "-q"]).is_err() {
            return;
        }
        std::fs::write(dir.path().join("a"), "a").unwrap();
        git(&["add", "a"]).unwrap();
        assert_eq!(tracked(dir.path()), Some(vec!["a".to_owned()]));
        git(&["update-index", "--split-index"]).unwrap();
        assert_eq!(tracked(dir.path()), None);
    }
}
