//! Whether `cargo tree` or `cargo metadata` would resolve nothing: its `Cargo.lock` already
//! answers every dependency the workspace's manifests declare, and every package the lock
//! file names is unpacked in cargo's cache. Then cargo neither contacts a registry nor
//! rewrites `Cargo.lock`; it only reads. Anything this module cannot read with certainty (a
//! git or alternative-registry source, `[patch]`, a manifest it cannot parse, a package
//! outside the cache) is not proven, in words.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use toml::{Table, Value};

use crate::paths::small_file;

/// The most bytes of `Cargo.lock` read (a large workspace's lock file is a few hundred KiB).
const MAX_LOCK_BYTES: u64 = 8 * 1024 * 1024;

/// The most manifests read for one command (members and path dependencies).
const MAX_MANIFESTS: usize = 500;

/// The sources cargo names crates.io by in a lock file.
const CRATES_IO: &[&str] = &[
    "registry+https://github.com/rust-lang/crates.io-index",
    "sparse+https://index.crates.io/",
];

/// The dependency tables of a manifest (also under `[target.'cfg(…)']`), in both of the
/// spellings cargo reads.
pub(super) const DEPENDENCY_TABLES: &[&str] = &[
    "dependencies",
    "dev-dependencies",
    "dev_dependencies",
    "build-dependencies",
    "build_dependencies",
];

/// The keys of a manifest this module knows to change nothing it does not read; any other
/// key (a new table cargo may resolve from) is not proven.
const MANIFEST_KEYS: &[&str] = &[
    "cargo-features",
    "package",
    "project",
    "lib",
    "bin",
    "example",
    "test",
    "bench",
    "dependencies",
    "dev-dependencies",
    "dev_dependencies",
    "build-dependencies",
    "build_dependencies",
    "target",
    "features",
    "workspace",
    "patch",
    "replace",
    "profile",
    "badges",
    "lints",
];

type Result<T> = std::result::Result<T, String>;

/// Whether cargo, run in `cwd` with its home at `cargo_home`, finds everything it needs in
/// `Cargo.lock` and its cache.
///
/// # Errors
///
/// Why it may download or rewrite `Cargo.lock`, or why that cannot be told.
pub(crate) fn resolves_nothing(cwd: &Path, cargo_home: &Path) -> Result<()> {
    walk(cwd, cargo_home, Purpose::OnlyReads)
}

/// What a walk of the workspace proves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// Cargo neither downloads nor rewrites `Cargo.lock` (`cargo tree`, `cargo metadata`).
    OnlyReads,
    /// A build downloads nothing: it may write `Cargo.lock` for the workspace's own packages,
    /// but every registry package is pinned by the lock file and in the cache. A workspace
    /// without a manifest, or whose packages depend on nothing from a registry, needs no lock.
    FetchesNothing,
}

fn walk(cwd: &Path, cargo_home: &Path, purpose: Purpose) -> Result<()> {
    let builds = purpose == Purpose::FetchesNothing;
    if builds && !cwd.ancestors().any(|d| d.join("Cargo.toml").exists()) {
        // Cargo stops before it reads anything: there is no manifest.
        return Ok(());
    }
    let (root, root_manifest) = workspace_root(cwd)?;
    for key in ["patch", "replace"] {
        if root_manifest.contains_key(key) {
            return Err(format!(
                "the workspace's manifest has `[{key}]`, whose sources are not checked"
            ));
        }
    }
    // Read when the walk first needs it: a build of packages that depend on no registry
    // package does not.
    let mut lock: Option<Lock> = None;
    let lock_of = |lock: &mut Option<Lock>| -> Result<()> {
        if lock.is_none() {
            *lock = Some(read_lock(&root.join("Cargo.lock"))?);
        }
        Ok(())
    };
    if !builds {
        lock_of(&mut lock)?;
    }
    let mut queue: Vec<PathBuf> = members(&root, &root_manifest)?;
    let mut seen: HashSet<PathBuf> = HashSet::new();
    while let Some(dir) = queue.pop() {
        if !seen.insert(dir.clone()) {
            continue;
        }
        if seen.len() > MAX_MANIFESTS {
            return Err(format!(
                "the workspace has more than {MAX_MANIFESTS} manifests"
            ));
        }
        let manifest = read_manifest(&dir.join("Cargo.toml"))?
            .ok_or_else(|| format!("`{}` has no `Cargo.toml`", dir.display()))?;
        if let Some(key) = manifest
            .keys()
            .find(|k| !MANIFEST_KEYS.contains(&k.as_str()))
        {
            return Err(format!(
                "`{}/Cargo.toml` has `{key}`, which is not read",
                dir.display()
            ));
        }
        let deps = dependencies(&manifest, &dir, &root_manifest, &root)?;
        if let Some(package) = manifest
            .get("package")
            .and_then(Value::as_table)
            .filter(|_| !builds)
        {
            let lock = lock.as_ref().ok_or("`Cargo.lock` is not read")?;
            let name = package
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| format!("`{}/Cargo.toml` names no package", dir.display()))?;
            let Some((version, edges)) = lock.local.get(name) else {
                return Err(format!("`Cargo.lock` does not list the package `{name}`"));
            };
            // The lock file as cargo would write it again: the package's version and its
            // dependencies, or cargo rewrites it.
            if let Some(declared) = package.get("version").and_then(Value::as_str)
                && declared != version
            {
                return Err(format!(
                    "`Cargo.lock` has `{name} {version}`, the manifest `{declared}`"
                ));
            }
            let declared: HashSet<&str> = deps.iter().map(Dependency::name).collect();
            if declared != edges.iter().map(String::as_str).collect() {
                return Err(format!(
                    "`Cargo.lock` does not list the dependencies `{name}` declares"
                ));
            }
        }
        for dep in deps {
            match dep {
                Dependency::Path { dir, .. } => queue.push(dir),
                Dependency::Registry { name, req } => {
                    lock_of(&mut lock)?;
                    if let Some(lock) = &lock {
                        lock.answers(&name, &req)?;
                    }
                }
            }
        }
    }
    match &lock {
        Some(lock) => lock.cached(cargo_home),
        None => Ok(()),
    }
}

/// [`resolves_nothing`] for every cargo home cargo may use: `.cargo` in the user's `home`,
/// and the directory `CARGO_HOME` names in this process's environment, when it names one
/// (the agent's own environment is not seen, so both must hold everything).
///
/// # Errors
///
/// Why cargo may download or rewrite `Cargo.lock`, or why that cannot be told.
pub(crate) fn resolves_nothing_in_homes(cwd: &Path, home: Option<&Path>) -> Result<()> {
    in_homes(home, |h| resolves_nothing(cwd, h))
}

/// Whether a cargo build, run in `cwd`, finds every registry package it needs in
/// `Cargo.lock` and the cache of every home it may use (as [`resolves_nothing_in_homes`]);
/// it may still write `Cargo.lock` for the workspace's own packages.
///
/// # Errors
///
/// Why the build may download packages, or why that cannot be told.
pub(crate) fn fetches_nothing_in_homes(cwd: &Path, home: Option<&Path>) -> Result<()> {
    in_homes(home, |h| walk(cwd, h, Purpose::FetchesNothing))
}

/// `check` of every cargo home cargo may use (see [`resolves_nothing_in_homes`]).
fn in_homes(home: Option<&Path>, check: impl Fn(&Path) -> Result<()>) -> Result<()> {
    let home = home.ok_or_else(|| "cargo's home is not known".to_owned())?;
    let mut homes = vec![home.join(".cargo")];
    if let Some(set) = crate::process_env::non_empty("CARGO_HOME") {
        homes.push(PathBuf::from(&*set));
    }
    homes.iter().try_for_each(|h| check(h))
}

/// The directory of the workspace `cwd` belongs to and its manifest, as cargo finds them:
/// the nearest `Cargo.toml`, or the nearest one above it with a `[workspace]` that lists it.
fn workspace_root(cwd: &Path) -> Result<(PathBuf, Table)> {
    let mut dir = Some(cwd);
    let mut nearest: Option<(PathBuf, Table)> = None;
    while let Some(d) = dir {
        if let Some(manifest) = read_manifest(&d.join("Cargo.toml"))? {
            if manifest.contains_key("workspace") {
                if let Some((member, member_manifest)) = nearest {
                    if member_manifest
                        .get("package")
                        .and_then(|p| p.get("workspace"))
                        .is_some()
                    {
                        return Err("a package names its workspace by path".to_owned());
                    }
                    let listed = members(d, &manifest)?.contains(&member);
                    if !listed {
                        return Err(format!(
                            "`{}` is below the workspace at `{}` but not one of its members",
                            member.display(),
                            d.display()
                        ));
                    }
                }
                return Ok((d.to_path_buf(), manifest));
            }
            if nearest.is_none() {
                nearest = Some((d.to_path_buf(), manifest));
            }
        }
        dir = d.parent();
    }
    nearest.ok_or_else(|| "no `Cargo.toml` in the directory or above".to_owned())
}

/// The manifest at `path`, parsed; `None` when there is none.
fn read_manifest(path: &Path) -> Result<Option<Table>> {
    let Some(text) = small_file::read_text(path)? else {
        return Ok(None);
    };
    text.parse::<Table>()
        .map(Some)
        .map_err(|e| format!("`{}` is not read as cargo reads it ({e})", path.display()))
}

/// The member directories of the workspace at `root` (the root itself when it is a package).
fn members(root: &Path, manifest: &Table) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    if manifest.contains_key("package") {
        out.push(root.to_path_buf());
    }
    let Some(workspace) = manifest.get("workspace").and_then(Value::as_table) else {
        return Ok(out);
    };
    let excluded: Vec<PathBuf> = strings(workspace.get("exclude"))?
        .iter()
        .map(|e| root.join(e))
        .collect();
    for pattern in strings(workspace.get("members"))? {
        for dir in expand(root, &pattern)? {
            if !excluded.iter().any(|e| dir.starts_with(e)) && dir.join("Cargo.toml").is_file() {
                out.push(dir);
            }
        }
    }
    Ok(out)
}

/// The strings of an optional array.
fn strings(value: Option<&Value>) -> Result<Vec<String>> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    value
        .as_array()
        .and_then(|items| {
            items
                .iter()
                .map(|i| i.as_str().map(str::to_owned))
                .collect()
        })
        .ok_or_else(|| "a workspace list is not a list of strings".to_owned())
}

/// The directories a `members` pattern names below `root`, one component at a time.
fn expand(root: &Path, pattern: &str) -> Result<Vec<PathBuf>> {
    let mut dirs = vec![root.to_path_buf()];
    for component in pattern.split('/').filter(|c| !c.is_empty() && *c != ".") {
        if component == ".." || component == "**" {
            return Err(format!("the member pattern `{pattern}` is not followed"));
        }
        let glob = component.contains(['*', '?', '[']);
        let matcher = if glob {
            Some(
                globset::Glob::new(component)
                    .map_err(|e| format!("the member pattern `{pattern}` is not read ({e})"))?
                    .compile_matcher(),
            )
        } else {
            None
        };
        let mut next = Vec::new();
        for dir in &dirs {
            let Some(matcher) = &matcher else {
                next.push(dir.join(component));
                continue;
            };
            let entries = std::fs::read_dir(dir)
                .map_err(|e| format!("cannot list `{}` ({e})", dir.display()))?;
            for entry in entries {
                let entry = entry.map_err(|e| format!("cannot list `{}` ({e})", dir.display()))?;
                if matcher.is_match(entry.file_name()) && entry.path().is_dir() {
                    next.push(entry.path());
                }
            }
        }
        dirs = next;
    }
    Ok(dirs)
}

/// One declared dependency.
#[derive(Debug)]
enum Dependency {
    /// A package in a directory, by its name.
    Path { name: String, dir: PathBuf },
    /// A crates.io package and its version requirement.
    Registry { name: String, req: String },
}

/// Every dependency the manifest in `dir` declares, `workspace = true` ones read from the
/// root's `[workspace.dependencies]` (their paths relative to the root's directory).
fn dependencies(
    manifest: &Table,
    dir: &Path,
    root: &Table,
    root_dir: &Path,
) -> Result<Vec<Dependency>> {
    let inherited = root
        .get("workspace")
        .and_then(|w| w.get("dependencies"))
        .and_then(Value::as_table);
    let mut owners: Vec<&Table> = vec![manifest];
    if let Some(targets) = manifest.get("target").and_then(Value::as_table) {
        owners.extend(targets.values().filter_map(Value::as_table));
    }
    let tables = owners.into_iter().flat_map(|t| {
        DEPENDENCY_TABLES
            .iter()
            .filter_map(move |name| t.get(*name).and_then(Value::as_table))
    });
    let mut out = Vec::new();
    for deps in tables {
        for (key, spec) in deps {
            let (spec, base) = match spec.get("workspace").and_then(Value::as_bool) {
                Some(true) => (
                    inherited.and_then(|i| i.get(key)).ok_or_else(|| {
                        format!("`{key}` is inherited from a workspace that does not declare it")
                    })?,
                    root_dir,
                ),
                _ => (spec, dir),
            };
            out.push(dependency(key, spec, base)?);
        }
    }
    Ok(out)
}

/// One dependency as declared (a requirement string or a table), its path relative to `base`.
fn dependency(key: &str, spec: &Value, base: &Path) -> Result<Dependency> {
    let table = match spec {
        Value::String(req) => {
            return Ok(Dependency::Registry {
                name: key.to_owned(),
                req: req.clone(),
            });
        }
        Value::Table(t) => t,
        _ => return Err(format!("the dependency `{key}` is not read")),
    };
    for source in ["git", "registry", "registry-index", "base"] {
        if table.contains_key(source) {
            return Err(format!(
                "the dependency `{key}` comes from a `{source}` source, which is not checked"
            ));
        }
    }
    let name = match table.get("package") {
        Some(p) => p
            .as_str()
            .ok_or_else(|| format!("the package of `{key}` is not a string"))?,
        None => key,
    };
    if let Some(path) = table.get("path") {
        return path
            .as_str()
            .map(|p| Dependency::Path {
                name: name.to_owned(),
                dir: base.join(p),
            })
            .ok_or_else(|| format!("the path of `{key}` is not a string"));
    }
    let req = match table.get("version") {
        Some(v) => v
            .as_str()
            .ok_or_else(|| format!("the version of `{key}` is not a string"))?,
        None => "*",
    };
    Ok(Dependency::Registry {
        name: name.to_owned(),
        req: req.to_owned(),
    })
}

impl Dependency {
    /// The package's name.
    fn name(&self) -> &str {
        match self {
            Dependency::Path { name, .. } | Dependency::Registry { name, .. } => name,
        }
    }
}

/// What a lock file pins.
struct Lock {
    /// Packages without a source (the workspace's own and its path dependencies): their
    /// version and the names of their dependencies.
    local: HashMap<String, (String, HashSet<String>)>,
    /// crates.io packages by name, with their pinned versions.
    registry: HashMap<String, Vec<semver::Version>>,
}

/// The lock file at `path`.
fn read_lock(path: &Path) -> Result<Lock> {
    let bytes = small_file::read_bytes(path, MAX_LOCK_BYTES)?
        .ok_or_else(|| "there is no `Cargo.lock` yet, so cargo would write one".to_owned())?;
    let table: Table = String::from_utf8_lossy(&bytes)
        .parse()
        .map_err(|e| format!("`Cargo.lock` is not read as cargo reads it ({e})"))?;
    let mut lock = Lock {
        local: HashMap::new(),
        registry: HashMap::new(),
    };
    let packages = match table.get("package") {
        None => return Ok(lock),
        Some(p) => p
            .as_array()
            .ok_or_else(|| "`Cargo.lock` lists no packages".to_owned())?,
    };
    for package in packages {
        let field = |name: &str| package.get(name).and_then(Value::as_str);
        let name = field("name").ok_or_else(|| "a locked package has no name".to_owned())?;
        let version = field("version")
            .ok_or_else(|| format!("the locked package `{name}` has no version"))?;
        // Crate names are ASCII letters, digits, `-` and `_`.
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(format!(
                "`Cargo.lock` names a package `{name}` cargo would not"
            ));
        }
        match field("source") {
            None => {
                let edges = package
                    .get("dependencies")
                    .and_then(Value::as_array)
                    .map(|deps| {
                        deps.iter()
                            .filter_map(Value::as_str)
                            .filter_map(|d| d.split_whitespace().next())
                            .map(str::to_owned)
                            .collect()
                    })
                    .unwrap_or_default();
                lock.local
                    .insert(name.to_owned(), (version.to_owned(), edges));
            }
            Some(_) if field("checksum").is_none() => {
                return Err(format!(
                    "`Cargo.lock` has no checksum for `{name} {version}`, so cargo would write one"
                ));
            }
            Some(source) if CRATES_IO.contains(&source) => {
                let version = semver::Version::parse(version)
                    .map_err(|e| format!("`{name} {version}` is not a version cargo pins ({e})"))?;
                lock.registry
                    .entry(name.to_owned())
                    .or_default()
                    .push(version);
            }
            Some(source) => {
                return Err(format!(
                    "`Cargo.lock` pins `{name}` from `{source}`, a source that is not checked"
                ));
            }
        }
    }
    Ok(lock)
}

impl Lock {
    /// Whether the lock pins a crates.io version of `name` that `req` accepts.
    fn answers(&self, name: &str, req: &str) -> Result<()> {
        let parsed = semver::VersionReq::parse(req)
            .map_err(|e| format!("the requirement `{name} = \"{req}\"` is not read ({e})"))?;
        let pinned = self.registry.get(name).into_iter().flatten();
        if pinned.clone().any(|v| parsed.matches(v)) {
            return Ok(());
        }
        Err(format!(
            "`Cargo.lock` pins no `{name}` that `{req}` accepts, so cargo would resolve it again"
        ))
    }

    /// Whether every crates.io package it pins is unpacked, with its index entry, in the
    /// cargo home at `home`.
    fn cached(&self, home: &Path) -> Result<()> {
        let registry = home.join("registry");
        let listed = |sub: &str| -> Vec<PathBuf> {
            std::fs::read_dir(registry.join(sub))
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default()
        };
        let (sources, indexes) = (listed("src"), listed("index"));
        for (name, versions) in &self.registry {
            let entry = index_entry(name);
            if !indexes
                .iter()
                .any(|i| i.join(".cache").join(&entry).is_file())
            {
                return Err(format!(
                    "cargo has no index entry for `{name}` cached, so it would download one"
                ));
            }
            for version in versions {
                let unpacked = format!("{name}-{version}");
                if !sources.iter().any(|s| s.join(&unpacked).is_dir()) {
                    return Err(format!(
                        "`{name} {version}` is not downloaded yet, so cargo would download it"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Where cargo caches the index entry of a crate, below an index directory's `.cache`.
fn index_entry(name: &str) -> PathBuf {
    let lower = name.to_ascii_lowercase();
    match lower.len() {
        1 => PathBuf::from("1").join(&lower),
        2 => PathBuf::from("2").join(&lower),
        3 => PathBuf::from("3").join(&lower[..1]).join(&lower),
        _ => PathBuf::from(&lower[..2]).join(&lower[2..4]).join(&lower),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cargo home whose cache holds `itoa 1.0.9` and `memchr 2.7.1`.
    fn cargo_home() -> tempfile::TempDir {
        let home = tempfile::tempdir().unwrap();
        let index = home.path().join("registry/index/index.crates.io-1/.cache");
        let src = home.path().join("registry/src/index.crates.io-1");
        for (name, version) in [("itoa", "1.0.9"), ("memchr", "2.7.1")] {
            let entry = index.join(index_entry(name));
            std::fs::create_dir_all(entry.parent().unwrap()).unwrap();
            std::fs::write(entry, "").unwrap();
            std::fs::create_dir_all(src.join(format!("{name}-{version}"))).unwrap();
        }
        home
    }

    /// A lock file pinning `itoa 1.0.9` and `memchr 2.7.1` (with checksums), and the local
    /// packages `app` and `util` with these dependencies.
    fn lock(app: &[&str], util: &[&str]) -> String {
        let list = |deps: &[&str]| {
            deps.iter()
                .map(|d| format!("\"{d}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "version = 4\n\n\
             [[package]]\nname = \"itoa\"\nversion = \"1.0.9\"\n\
             source = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"ab\"\n\n\
             [[package]]\nname = \"memchr\"\nversion = \"2.7.1\"\n\
             source = \"registry+https://github.com/rust-lang/crates.io-index\"\nchecksum = \"cd\"\n\n\
             [[package]]\nname = \"app\"\nversion = \"0.1.0\"\ndependencies = [{}]\n\n\
             [[package]]\nname = \"util\"\nversion = \"0.1.0\"\ndependencies = [{}]\n",
            list(app),
            list(util)
        )
    }

    fn workspace(manifest: &str, lock: Option<&str>) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        if let Some(lock) = lock {
            std::fs::write(dir.path().join("Cargo.lock"), lock).unwrap();
        }
        dir
    }

    const APP: &str = "[package]\nname = \"app\"\nversion = \"0.1.0\"\n";

    #[test]
    fn a_current_lock_with_a_full_cache_resolves_nothing() {
        let home = cargo_home();
        let ws = workspace(
            &format!(
                "{APP}[dependencies]\nitoa = \"1\"\nmem = {{ package = \"memchr\", version = \"2.7\" }}\n"
            ),
            Some(&lock(&["itoa", "memchr"], &[])),
        );
        assert_eq!(resolves_nothing(ws.path(), home.path()), Ok(()));
        // From a subdirectory of the package too.
        std::fs::create_dir(ws.path().join("src")).unwrap();
        assert_eq!(
            resolves_nothing(&ws.path().join("src"), home.path()),
            Ok(())
        );
    }

    #[test]
    fn a_build_fetches_nothing_only_when_every_registry_package_is_pinned_and_cached() {
        let home = cargo_home();
        let fetches =
            |ws: &tempfile::TempDir| walk(ws.path(), home.path(), Purpose::FetchesNothing);
        // No registry dependency: no lock is needed (the build writes one); a lock that
        // disagrees with the manifest's own version is rewritten, not fetched.
        let ws = workspace(APP, None);
        assert_eq!(fetches(&ws), Ok(()));
        assert!(resolves_nothing(ws.path(), home.path()).is_err());
        let ws = workspace(
            &format!("{APP}[dependencies]\nitoa = \"1\"\n"),
            Some(&lock(&["itoa"], &[]).replace("0.1.0", "0.0.9")),
        );
        assert_eq!(fetches(&ws), Ok(()));
        // No manifest at all: cargo stops before it reads anything.
        let empty = tempfile::tempdir().unwrap();
        assert_eq!(
            walk(empty.path(), home.path(), Purpose::FetchesNothing),
            Ok(())
        );
        // A registry package without a lock, one the lock does not pin, one not in the cache,
        // a git source: each is downloaded.
        for (manifest, lock_text) in [
            (format!("{APP}[dependencies]\nitoa = \"1\"\n"), None),
            (
                format!("{APP}[dependencies]\nryu = \"1\"\n"),
                Some(lock(&["itoa"], &[])),
            ),
            (
                format!("{APP}[build-dependencies]\nitoa = \"2\"\n"),
                Some(lock(&["itoa"], &[])),
            ),
            (
                format!("{APP}[dependencies]\nx = {{ git = \"https://example.com/x\" }}\n"),
                Some(lock(&[], &[])),
            ),
        ] {
            let ws = workspace(&manifest, lock_text.as_deref());
            assert!(fetches(&ws).is_err(), "{manifest}");
        }
        let ws = workspace(
            &format!("{APP}[dependencies]\nitoa = \"1\"\n"),
            Some(&lock(&["itoa"], &[])),
        );
        assert_eq!(fetches(&ws), Ok(()));
        let empty_home = tempfile::tempdir().unwrap();
        assert!(walk(ws.path(), empty_home.path(), Purpose::FetchesNothing).is_err());
    }

    #[test]
    fn what_would_make_cargo_resolve_or_download_is_not_proven() {
        let home = cargo_home();
        let cases = [
            // A requirement the lock does not answer, a crate it does not pin.
            (
                format!("{APP}[dependencies]\nitoa = \"2\"\n"),
                Some(lock(&["itoa"], &[])),
            ),
            (
                format!("{APP}[dev-dependencies]\nryu = \"1\"\n"),
                Some(lock(&["ryu"], &[])),
            ),
            (
                format!("{APP}[target.'cfg(unix)'.dependencies]\nryu = \"1\"\n"),
                Some(lock(&["ryu"], &[])),
            ),
            // No lock file: cargo writes one.
            (format!("{APP}[dependencies]\nitoa = \"1\"\n"), None),
            // Sources that are not checked.
            (
                format!("{APP}[dependencies]\nx = {{ git = \"https://example.com/x\" }}\n"),
                Some(lock(&["x"], &[])),
            ),
            (
                format!("{APP}[dependencies]\nx = {{ version = \"1\", registry = \"corp\" }}\n"),
                Some(lock(&["x"], &[])),
            ),
            (
                format!("{APP}[patch.crates-io]\nitoa = {{ path = \"../itoa\" }}\n"),
                Some(lock(&[], &[])),
            ),
            // The package itself is missing from the lock.
            (
                "[package]\nname = \"other\"\nversion = \"0.1.0\"\n".to_owned(),
                Some(lock(&[], &[])),
            ),
            // A lock pinning a git source.
            (
                APP.to_owned(),
                Some(
                    "version = 4\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n\
                     [[package]]\nname = \"x\"\nversion = \"1.0.0\"\n\
                     source = \"git+https://example.com/x#abc\"\n"
                        .to_owned(),
                ),
            ),
            // A pinned crate that is not unpacked.
            (
                APP.to_owned(),
                Some(
                    "version = 4\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n\
                     [[package]]\nname = \"itoa\"\nversion = \"1.0.10\"\n\
                     source = \"registry+https://github.com/rust-lang/crates.io-index\"\n\
                     checksum = \"ab\"\n"
                        .to_owned(),
                ),
            ),
            // A manifest cargo would not read the same way.
            (format!("{APP}[dependencies\n"), Some(lock(&[], &[]))),
            // Cargo would rewrite the lock: no checksum, another version, a missing edge.
            (
                format!("{APP}[dependencies]\nitoa = \"1\"\n"),
                Some(lock(&["itoa"], &[]).replace("checksum = \"ab\"\n", "")),
            ),
            (
                "[package]\nname = \"app\"\nversion = \"0.2.0\"\n".to_owned(),
                Some(lock(&[], &[])),
            ),
            (
                format!("{APP}[dependencies]\nitoa = \"1\"\n"),
                Some(lock(&[], &[])),
            ),
            // The underscore spelling of a dependency table, a key not read, a name cargo
            // would not give.
            (
                format!(
                    "{APP}[target.'cfg(unix)'.build_dependencies]\nx = {{ git = \"https://example.com/x\" }}\n"
                ),
                Some(lock(&["x"], &[])),
            ),
            (format!("{APP}[new-table]\nx = 1\n"), Some(lock(&[], &[]))),
            (
                format!("{APP}[dependencies]\nitoa = \"1\"\n"),
                Some(lock(&["itoa"], &[]).replace("name = \"itoa\"", "name = \"it\u{e9}a\"")),
            ),
        ];
        for (manifest, lock) in cases {
            let ws = workspace(&manifest, lock.as_deref());
            assert!(
                resolves_nothing(ws.path(), home.path()).is_err(),
                "{manifest} with {lock:?}"
            );
        }
        // No manifest at all.
        let empty = tempfile::tempdir().unwrap();
        assert!(resolves_nothing(empty.path(), home.path()).is_err());
    }

    #[test]
    fn members_and_path_dependencies_are_read_too() {
        let home = cargo_home();
        let ws = workspace(
            &format!(
                "{APP}[dependencies]\nutil = {{ path = \"crates/util\" }}\n\
                 [workspace]\nmembers = [\"crates/*\"]\n\
                 [workspace.dependencies]\nitoa = \"1.0\"\n"
            ),
            Some(&lock(&["util"], &["itoa"])),
        );
        let util = ws.path().join("crates/util");
        std::fs::create_dir_all(&util).unwrap();
        let util_manifest = |deps: &str| {
            std::fs::write(
                util.join("Cargo.toml"),
                format!("[package]\nname = \"util\"\nversion = \"0.1.0\"\n[dependencies]\n{deps}"),
            )
            .unwrap();
        };
        util_manifest("itoa = { workspace = true }\n");
        assert_eq!(resolves_nothing(ws.path(), home.path()), Ok(()));
        // An inherited path is relative to the workspace's root, not to the member.
        let helper = ws.path().join("crates/helper");
        std::fs::create_dir_all(&helper).unwrap();
        std::fs::write(
            helper.join("Cargo.toml"),
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\n[dependencies]\nutil = { workspace = true }\n",
        )
        .unwrap();
        let root_manifest = std::fs::read_to_string(ws.path().join("Cargo.toml")).unwrap();
        std::fs::write(
            ws.path().join("Cargo.toml"),
            root_manifest.replace(
                "itoa = \"1.0\"\n",
                "itoa = \"1.0\"\nutil = { path = \"crates/util\" }\n",
            ),
        )
        .unwrap();
        assert_eq!(resolves_nothing(ws.path(), home.path()), Ok(()));
        std::fs::remove_dir_all(&helper).unwrap();
        // From inside the member: the workspace above it is found.
        assert_eq!(resolves_nothing(&util, home.path()), Ok(()));
        // A member's dependency the lock does not pin.
        util_manifest("ryu = \"1\"\n");
        assert!(resolves_nothing(ws.path(), home.path()).is_err());
        assert!(resolves_nothing(&util, home.path()).is_err());
        // Inherited from a workspace that does not declare it.
        util_manifest("memchr = { workspace = true }\n");
        assert!(resolves_nothing(ws.path(), home.path()).is_err());
    }

    #[test]
    fn a_package_below_a_workspace_that_does_not_list_it_is_not_proven() {
        let home = cargo_home();
        let ws = workspace("[workspace]\nmembers = [\"a\"]\n", Some(&lock(&[], &[])));
        let stray = ws.path().join("b");
        std::fs::create_dir_all(&stray).unwrap();
        std::fs::write(stray.join("Cargo.toml"), APP).unwrap();
        assert!(resolves_nothing(&stray, home.path()).is_err());
    }

    #[test]
    fn index_entries_follow_cargos_layout() {
        assert_eq!(index_entry("a"), PathBuf::from("1/a"));
        assert_eq!(index_entry("ab"), PathBuf::from("2/ab"));
        assert_eq!(index_entry("abc"), PathBuf::from("3/a/abc"));
        assert_eq!(index_entry("Serde"), PathBuf::from("se/rd/serde"));
    }
}
