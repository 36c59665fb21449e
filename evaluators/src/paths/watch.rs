//! Knowing when what the machine told may have changed, without asking it again.
//!
//! The protected places only the machine tells (the hooks directory git's configuration
//! names, a separate git directory, the real directories of the `PATH`: see
//! [`super::effective`]) cost dozens of system calls to find: configuration files opened and
//! read, every directory of the `PATH` resolved component by component. They change rarely,
//! so they are found once and kept while nothing they were found from changes. What they
//! were found from is every name looked up on the way: each configuration file read, each
//! component of each path resolved (a symbolic link's target included). A [`Watch`] asks
//! the kernel (inotify) to report any change of those names — a file written, a name
//! created, removed, renamed or replaced by a link, a directory's permissions — and a kept
//! answer is used only while its watch reports none. The reports are queued by the kernel
//! when the change is made, before the call making it returns, so a later decision sees
//! them; a full queue counts as a change. Where the kernel cannot watch (no inotify, a
//! watch limit reached, a directory that cannot be watched, a relative name, too many
//! names), nothing is kept and the places are found again for every decision, as without
//! the cache.

use std::cell::RefCell;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The most names one collection records; past it the answer is not kept.
const MAX_NOTED: usize = 1024;

/// The most symbolic links followed resolving one name (the kernel's own limit).
const MAX_LINKS: usize = 40;

/// The names noted on one thread while a [`collecting`] runs there.
struct Noted {
    paths: Vec<PathBuf>,
    overflow: bool,
}

thread_local! {
    static NOTED: RefCell<Option<Noted>> = const { RefCell::new(None) };
}

/// Records that what is found depends on `path` (a file read, a directory resolved), while a
/// [`collecting`] runs on this thread; otherwise does nothing.
pub(crate) fn note(path: &Path) {
    NOTED.with(|n| {
        if let Some(noted) = n.borrow_mut().as_mut() {
            if noted.paths.len() < MAX_NOTED {
                noted.paths.push(path.to_path_buf());
            } else {
                noted.overflow = true;
            }
        }
    });
}

/// `std::fs::canonicalize` of `path`, noted ([`note`]).
///
/// # Errors
///
/// As `std::fs::canonicalize`.
pub(crate) fn canonicalize(path: &Path) -> std::io::Result<PathBuf> {
    note(path);
    std::fs::canonicalize(path)
}

/// Restores the collection that ran before, however `f` ends (a panic included).
struct Restore(Option<Option<Noted>>);

impl Drop for Restore {
    fn drop(&mut self) {
        if let Some(previous) = self.0.take() {
            NOTED.with(|n| *n.borrow_mut() = previous);
        }
    }
}

/// What `f` returns and the names it noted; `None` for the names when more than
/// [`MAX_NOTED`] were.
pub(crate) fn collecting<T>(f: impl FnOnce() -> T) -> (T, Option<Vec<PathBuf>>) {
    let previous = NOTED.with(|n| {
        n.borrow_mut().replace(Noted {
            paths: Vec::new(),
            overflow: false,
        })
    });
    let mut restore = Restore(Some(previous));
    let out = f();
    let noted = NOTED.with(|n| n.borrow_mut().take());
    if let Some(previous) = restore.0.take() {
        NOTED.with(|n| *n.borrow_mut() = previous);
    }
    let names = noted.and_then(|n| (!n.overflow).then_some(n.paths));
    (out, names)
}

/// Every (directory, name) the kernel looks up resolving the absolute path `path`, in order,
/// symbolic links followed (their targets' lookups included); `None` for a relative path.
/// A name that does not exist ends nothing: the lookups below it are listed as written.
fn lookups(path: &Path) -> Option<Vec<(PathBuf, OsString)>> {
    use std::path::Component;
    if !path.is_absolute() {
        return None;
    }
    let mut out = Vec::new();
    let mut resolved = PathBuf::from("/");
    let mut pending: std::collections::VecDeque<OsString> = std::collections::VecDeque::new();
    let push_components = |p: &Path, pending: &mut std::collections::VecDeque<OsString>| {
        let mut parts: Vec<OsString> = Vec::new();
        for c in p.components() {
            match c {
                Component::Normal(n) => parts.push(n.to_os_string()),
                Component::ParentDir => parts.push(OsString::from("..")),
                Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
            }
        }
        for part in parts.into_iter().rev() {
            pending.push_front(part);
        }
    };
    push_components(path, &mut pending);
    let mut links = 0;
    while let Some(name) = pending.pop_front() {
        if name == ".." {
            resolved.pop();
            continue;
        }
        out.push((resolved.clone(), name.clone()));
        let candidate = resolved.join(&name);
        match std::fs::read_link(&candidate) {
            Ok(target) => {
                links += 1;
                if links > MAX_LINKS {
                    return Some(out);
                }
                if target.is_absolute() {
                    resolved = PathBuf::from("/");
                }
                push_components(&target, &mut pending);
            }
            Err(_) => resolved = candidate,
        }
    }
    Some(out)
}

/// Changes of a name in a watched directory that may change what was found there.
#[cfg(target_os = "linux")]
fn mask() -> rustix::fs::inotify::WatchFlags {
    use rustix::fs::inotify::WatchFlags;
    WatchFlags::MODIFY
        | WatchFlags::CLOSE_WRITE
        | WatchFlags::ATTRIB
        | WatchFlags::CREATE
        | WatchFlags::DELETE
        | WatchFlags::MOVED_FROM
        | WatchFlags::MOVED_TO
        | WatchFlags::DELETE_SELF
        | WatchFlags::MOVE_SELF
        | WatchFlags::DONT_FOLLOW
        | WatchFlags::ONLYDIR
}

/// The kernel's reports of changes to the names something was found from.
#[cfg(target_os = "linux")]
#[derive(Debug)]
pub(crate) struct Watch {
    fd: std::os::fd::OwnedFd,
    /// The directories watched, by path.
    dirs: std::collections::HashMap<PathBuf, i32>,
    /// The names watched in each watched directory, by watch descriptor.
    names: std::collections::HashMap<i32, Vec<OsString>>,
}

#[cfg(target_os = "linux")]
impl Watch {
    /// A watch of nothing yet; `None` when the kernel gives none.
    pub(crate) fn new() -> Option<Self> {
        use rustix::fs::inotify::CreateFlags;
        let fd = rustix::fs::inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC).ok()?;
        Some(Self {
            fd,
            dirs: std::collections::HashMap::new(),
            names: std::collections::HashMap::new(),
        })
    }

    /// Watches every name looked up resolving `path`; `false` when one cannot be watched
    /// (the path is relative, a directory that exists cannot be watched, a limit is met).
    pub(crate) fn add(&mut self, path: &Path) -> bool {
        let Some(lookups) = lookups(path) else {
            return false;
        };
        for (dir, name) in lookups {
            let wd = match self.dirs.get(&dir) {
                Some(wd) => *wd,
                None => match rustix::fs::inotify::add_watch(&self.fd, &dir, mask()) {
                    Ok(wd) => {
                        self.dirs.insert(dir, wd);
                        wd
                    }
                    // A directory that is not there (or is no directory): the lookup of its
                    // name in the directory before it is watched already.
                    Err(rustix::io::Errno::NOENT | rustix::io::Errno::NOTDIR) => continue,
                    Err(_) => return false,
                },
            };
            let names = self.names.entry(wd).or_default();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        true
    }

    /// Whether any watched name may have changed since it was watched: a report about one
    /// of them, about a watched directory itself, a lost report (the queue overflowed), or a
    /// report that cannot be read.
    pub(crate) fn changed(&self) -> bool {
        use rustix::fs::inotify::ReadFlags;
        use std::os::unix::ffi::OsStrExt;
        let mut buffer = [std::mem::MaybeUninit::<u8>::uninit(); 4096];
        let mut reader = rustix::fs::inotify::Reader::new(&self.fd, &mut buffer);
        let mut changed = false;
        loop {
            let event = match reader.next() {
                Ok(event) => event,
                Err(rustix::io::Errno::AGAIN) => return changed,
                Err(_) => return true,
            };
            if event.events().contains(ReadFlags::QUEUE_OVERFLOW) {
                changed = true;
                continue;
            }
            let Some(name) = event.file_name() else {
                // A report about a watched directory itself.
                changed = true;
                continue;
            };
            let name = std::ffi::OsStr::from_bytes(name.to_bytes());
            if self
                .names
                .get(&event.wd())
                .is_none_or(|names| names.iter().any(|n| n == name))
            {
                changed = true;
            }
        }
    }
}

/// Where the kernel has no inotify, nothing is watched and nothing kept.
#[cfg(not(target_os = "linux"))]
#[derive(Debug)]
pub(crate) struct Watch;

#[cfg(not(target_os = "linux"))]
impl Watch {
    /// None: nothing can be watched here.
    pub(crate) fn new() -> Option<Self> {
        None
    }

    /// Nothing is watched.
    pub(crate) fn add(&mut self, _path: &Path) -> bool {
        false
    }

    /// Always: nothing is watched.
    pub(crate) fn changed(&self) -> bool {
        true
    }
}
