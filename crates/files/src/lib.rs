//! Writing files and folders whole or not at all: everything is written under a
//! temporary name beside the target, synced to disk, then renamed into place.
//!
//! Temporary names are recognisable (`.NAME.matchbox-tmp-PID`, and for a folder being
//! replaced `.NAME.matchbox-old-PID` and `.NAME.matchbox-trash-PID`), so that a run can
//! remove what a killed run left behind, and touch nothing else. SIGINT and SIGTERM
//! remove the temporaries of the running process (see [`clean_up_on_signals`]).
//!
//! A folder replaced whole carries a list of the files written into it ([`MANIFEST`]),
//! so that the next replacement can tell its own files from a user's: anything the list
//! does not name, at any depth, stops the replacement before anything is changed. A file
//! that the new folder holds byte for byte as the old one did is linked from the old
//! folder rather than written again.

pub mod kit_folder;
pub mod lock;
mod platform;

pub use platform::ignore_file_size_signal;
#[cfg(target_os = "linux")]
pub use platform::{set_xattr, xattr};

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, mpsc};

use matchbox_engine::Error;
use matchbox_engine::i18n::{Id, Language, Messages, id};

/// Exit status after SIGINT or SIGTERM, once the temporaries are removed (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// The kinds of sibling a write leaves while it runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Being written.
    Temporary,
    /// The previous folder, complete, between the two renames of a swap.
    Old,
    /// The previous folder after the swap, being removed.
    Trash,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::Temporary, Kind::Old, Kind::Trash];

    fn tag(self) -> &'static str {
        match self {
            Kind::Temporary => "tmp",
            Kind::Old => "old",
            Kind::Trash => "trash",
        }
    }
}

/// The folder of `path` and its own name.
fn split(path: &Path) -> Result<(PathBuf, String), Error> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| mistake(id::ERROR_NO_NAME, &[("path", &path.display().to_string())]))?;
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    Ok((parent, name))
}

/// The process that made a sibling: its id and, where the system tells it, its start
/// time (clock ticks after boot), so that another process given the same id after the
/// ids wrap round is never taken for it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Maker {
    pid: u32,
    start: Option<u64>,
}

impl Maker {
    /// This process.
    fn this() -> Maker {
        static THIS: std::sync::OnceLock<Maker> = std::sync::OnceLock::new();
        *THIS.get_or_init(|| {
            let pid = std::process::id();
            Maker {
                pid,
                start: started(pid),
            }
        })
    }

    /// The part of a sibling's name after its kind: `PID-START`, or `PID` where the start
    /// time is unknown (and in the names of runs before start times were added).
    fn tag(self) -> String {
        match self.start {
            Some(start) => format!("{}-{start}", self.pid),
            None => self.pid.to_string(),
        }
    }

    fn parse(tag: &str) -> Option<Maker> {
        let (pid, start) = match tag.split_once('-') {
            Some((pid, start)) => (pid, Some(start.parse().ok()?)),
            None => (tag, None),
        };
        Some(Maker {
            pid: pid.parse().ok()?,
            start,
        })
    }
}

/// When process `pid` started, in clock ticks after boot (`/proc/PID/stat`, field 22),
/// if it runs and the system tells.
fn started(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces or ')'.
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// The sibling of `name` in `parent` of this kind, made by `maker`.
fn sibling(parent: &Path, name: &str, kind: Kind, maker: Maker) -> PathBuf {
    parent.join(format!(".{name}.matchbox-{}-{}", kind.tag(), maker.tag()))
}

/// The kind and maker of a sibling name of `name`, if it is one.
fn parse_sibling(file: &str, name: &str) -> Option<(Kind, Maker)> {
    let rest = file.strip_prefix('.')?.strip_prefix(name)?;
    let rest = rest.strip_prefix(".matchbox-")?;
    Kind::ALL.into_iter().find_map(|kind| {
        let tag = rest.strip_prefix(kind.tag())?.strip_prefix('-')?;
        Some((kind, Maker::parse(tag)?))
    })
}

/// Whether the process that made `sibling` still runs: the same process id started at
/// the same moment. A name without a start time (or a system without `/proc`) is
/// trusted only while the sibling is younger than an hour, as someone's work in
/// progress: a process id alone may have been handed to another program since.
fn alive(maker: Maker, sibling: &Path) -> bool {
    if maker == Maker::this() {
        return true;
    }
    let young = || {
        std::fs::symlink_metadata(sibling)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age.as_secs() < 3600))
    };
    if !Path::new("/proc/self/stat").exists() {
        return young();
    }
    match maker.start {
        Some(start) => started(maker.pid) == Some(start),
        None => Path::new("/proc").join(maker.pid.to_string()).exists() && young(),
    }
}

fn remove(path: &Path) {
    let _ = match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
        Err(_) => Ok(()),
    };
}

/// Removes `path` as [`remove`] does, a folder's entries on [`DISK_THREADS`] threads: a
/// kit folder holds thousands of previews. A symbolic link is removed, never followed. Never from
/// the signal handler, whose pool threads may be waiting for it.
fn remove_on_disk_threads(path: &Path) {
    let is_dir = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
    if is_dir && let Ok(entries) = std::fs::read_dir(path) {
        let inside: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        on_disk_threads(&inside, |p| remove_on_disk_threads(p));
    }
    remove(path);
}

/// Threads that write or remove files at once. Each spends nearly all its time waiting
/// for the disk (a synced write, an unlink), and the file system commits together what
/// many threads wait for, so more threads than cores are quicker: 1,000 small files
/// written and synced take half the time on 8 threads as on 2.
const DISK_THREADS: usize = 8;

/// `each` of every item, on [`DISK_THREADS`] threads of their own (never the pool that
/// computes), in item order.
fn on_disk_threads<T: Sync, R: Send>(items: &[T], each: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..DISK_THREADS.min(items.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        done.push((i, each(item)));
                    }
                    done
                })
            })
            .collect();
        for thread in threads {
            let done = thread
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            for (i, result) in done {
                results[i] = Some(result);
            }
        }
    });
    results.into_iter().flatten().collect()
}

/// The name, kind and process of a sibling left by a run, if `file` is one.
fn parse_any_sibling(file: &str) -> Option<(&str, Kind, Maker)> {
    let (name, _) = file.strip_prefix('.')?.rsplit_once(".matchbox-")?;
    parse_sibling(file, name).map(|(kind, maker)| (name, kind, maker))
}

/// Repairs what killed runs left beside `name` in `parent` (beside every name there,
/// when `name` is `None`): their temporaries and trash are removed; a complete old
/// folder is put back if the folder itself is missing (a kill between the two renames of
/// a swap), and removed otherwise.
fn repair(parent: &Path, name: Option<&str>) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some((own, kind, maker)) = parse_any_sibling(&file) else {
            continue;
        };
        if name.is_some_and(|n| n != own) {
            continue;
        }
        let path = entry.path();
        if alive(maker, &path) {
            continue;
        }
        let target = parent.join(own);
        if kind == Kind::Old && std::fs::symlink_metadata(&target).is_err() {
            let _ = std::fs::rename(&path, &target);
        } else {
            remove(&path);
        }
    }
}

/// Puts back a folder that a killed run left in the crash window (missing, with its
/// complete old copy beside it), and removes dead runs' temporaries beside it; for
/// `None`, beside every name in the folder `parent`. Called before a kit is read, so that
/// a run that then fails still restores the old kit.
pub fn restore(dir: &Path) {
    let dir = through_link(dir).unwrap_or_else(|_| dir.to_path_buf());
    if let Ok((parent, name)) = split(&dir) {
        repair(&parent, Some(&name));
    }
}

/// [`restore`] for every folder in `parent`: the kit folders of `out/` when the kit,
/// which names its own folder there, cannot be read.
pub fn restore_all(parent: &Path) {
    repair(parent, None);
}

/// The temporaries of this process, removed on SIGINT and SIGTERM.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Held, shared, by every write step (several files are written at once) and by a swap;
/// taken for good, alone, by the signal handler. So the handler waits for the steps under
/// way, never removes something half-way through one, a swap always completes, and no
/// step starts after the handler.
static STEPS: RwLock<()> = RwLock::new(());

fn temporaries() -> MutexGuard<'static, Vec<PathBuf>> {
    TEMPORARIES.lock().unwrap_or_else(|e| e.into_inner())
}

/// A temporary of this process: registered for the signal handler, removed on drop
/// unless it has been renamed into place.
struct Temporary {
    path: PathBuf,
}

impl Temporary {
    fn new(path: PathBuf) -> Temporary {
        temporaries().push(path.clone());
        Temporary { path }
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        let mut list = temporaries();
        remove(&self.path);
        list.retain(|p| p != &self.path);
    }
}

/// Installs the SIGINT / SIGTERM handler that removes this process's temporaries and
/// exits with [`INTERRUPTED`], and ignores SIGXFSZ ([`ignore_file_size_signal`]).
pub fn clean_up_on_signals() {
    ignore_file_size_signal();
    let _ = ctrlc::set_handler(|| {
        // Never released: the process ends with the lock held, so no write starts again.
        let _steps = STEPS.write().unwrap_or_else(|e| e.into_inner());
        let list = temporaries();
        for path in list.iter() {
            remove(path);
        }
        std::process::exit(INTERRUPTED);
    });
}

/// One sentence for a failed write, saying what to do; a full disk, a missing or
/// read-only folder are the user's to fix (exit 2), anything else is internal.
fn write_error(path: &Path, e: &std::io::Error) -> Error {
    let shown = path.display().to_string();
    let folder = split(path).map_or_else(|_| ".".into(), |(p, _)| p.display().to_string());
    let said = |id: Id| mistake(id, &[("path", &shown), ("folder", &folder)]);
    match e.kind() {
        ErrorKind::FileTooLarge => said(id::ERROR_FILE_TOO_LARGE),
        ErrorKind::ResourceBusy => said(id::ERROR_MOUNT_POINT),
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded => said(id::ERROR_DISK_FULL),
        ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem => said(id::ERROR_NOT_WRITABLE),
        // A folder that exists but makes nothing new (/proc, /sys) says "not found" too.
        ErrorKind::NotFound if Path::new(&folder).is_dir() => said(id::ERROR_TAKES_NOTHING_NEW),
        ErrorKind::NotFound => said(id::ERROR_NO_FOLDER),
        _ => Error::Internal(format!("cannot write {shown}: {e}")),
    }
}

/// Checks, before any work, that the file `path` can be written where it is: its
/// folder exists (it is never created) and `path` is not a folder, nor a pipe or a
/// device (reading one would wait for ever, or read what is not a file).
pub fn check_file_path(path: &Path) -> Result<(), Error> {
    let (parent, _) = split(path)?;
    folder_exists(&parent, path)?;
    let not = |id: Id| Err(mistake(id, &[("path", &path.display().to_string())]));
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => not(id::ERROR_IS_A_FOLDER),
        Ok(m) if !m.is_file() => not(id::ERROR_NOT_PLAIN),
        _ => Ok(()),
    }
}

/// Checks that the folder `parent` of `path` exists, without creating it.
fn folder_exists(parent: &Path, path: &Path) -> Result<(), Error> {
    let said = |id: Id| {
        let (path, folder) = (path.display().to_string(), parent.display().to_string());
        Err(mistake(id, &[("path", &path), ("folder", &folder)]))
    };
    match std::fs::metadata(parent) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => said(id::ERROR_PARENT_IS_FILE),
        Err(_) => said(id::ERROR_NO_FOLDER),
    }
}

/// Runs `step` (a write into a temporary) holding [`STEPS`], shared, so that the signal
/// handler never removes a temporary that the step then creates again.
fn locked<T>(step: impl FnOnce() -> T) -> T {
    let _held = STEPS.read().unwrap_or_else(|e| e.into_inner());
    step()
}

/// Writes `bytes` into a new file and syncs it to disk. The file is made new
/// (`O_EXCL`): a symbolic link planted at the name is never followed, so it can never
/// aim the write at another file.
fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    locked(|| {
        let mut file = File::create_new(path)?;
        file.write_all(bytes)?;
        file.sync_all()
    })
}

/// Syncs a folder's entries (the renames in it) to disk, where the platform can.
fn sync_folder(dir: &Path) {
    if cfg!(unix) {
        let _ = File::open(dir).and_then(|f| f.sync_all());
    }
}

/// Writes `bytes` to `path` atomically: readers see the old file or the new, never half.
/// The folder must exist: a missing one is named in the error, not created.
/// A `path` that is a symbolic link is written through: the file it leads to is
/// replaced, and the link stays a link (a state file kept in a synced folder, reached by
/// a link, goes on being synced).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    check_file_path(path)?;
    let real = through_link(path)?;
    let (parent, name) = split(&real)?;
    repair(&parent, Some(&name));
    let tmp = Temporary::new(sibling(&parent, &name, Kind::Temporary, Maker::this()));
    // Whatever holds this process's own temporary name (a link planted there) goes.
    remove(&tmp.path);
    write_synced(&tmp.path, bytes).map_err(|e| write_error(path, &e))?;
    locked(|| std::fs::rename(&tmp.path, &real)).map_err(|e| write_error(path, &e))?;
    sync_folder(&parent);
    Ok(())
}

/// The list of the files that a [`NewFolder`] wrote, inside the folder it wrote them
/// to: a heading, then one line a file, `CRC32 SIZE PATH`.
pub const MANIFEST: &str = ".matchbox-files";

/// For a folder written before there were manifests: the first path inside it (with
/// `true` for a folder) that such a run would not have written, if any.
pub type OldOutput<'a> = &'a (dyn Fn(&[(PathBuf, bool)]) -> Option<PathBuf> + Sync);

/// The manifest's first line, for a person who opens it.
const MANIFEST_HEADING: &str = "# Written by matchbox. The next run into this folder replaces it whole, and refuses to if the folder holds anything this list does not name.";

/// A relative path with `/` between its parts, as the manifest writes it.
fn slashed(path: &Path) -> String {
    let parts: Vec<_> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect();
    parts.join("/")
}

/// What the manifest says of each file: its path, CRC32 and size.
fn read_manifest(text: &str) -> Option<Vec<(String, u32, u64)>> {
    let mut lines = text.lines();
    if lines.next()? != MANIFEST_HEADING {
        return None;
    }
    lines
        .map(|line| {
            let mut fields = line.splitn(3, ' ');
            let crc = u32::from_str_radix(fields.next()?, 16).ok()?;
            let size = fields.next()?.parse().ok()?;
            Some((fields.next()?.to_string(), crc, size))
        })
        .collect()
}

/// Everything inside `dir`, at any depth, by its path inside, in name order; `true` for a
/// real folder. Anything that is neither a file nor a folder (a link, a socket) is given
/// as a file, which no manifest can vouch for.
fn inside(dir: &Path) -> std::io::Result<Vec<(PathBuf, bool)>> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, bool)>) -> std::io::Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let path = entry.path();
            let relative = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            if entry.file_type()?.is_dir() {
                out.push((relative, true));
                walk(root, &path, out)?;
            } else {
                out.push((relative, false));
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out)?;
    Ok(out)
}

/// Why a folder cannot be replaced whole: the first thing inside it that its run did
/// not write.
fn foreign(dir: &Path, path: &Path, why: Id) -> Error {
    let message = Messages(Language::En).message(
        id::ERROR_FOREIGN,
        &[
            ("path", &dir.join(path).display().to_string()),
            ("folder", &dir.display().to_string()),
        ],
    );
    message
        .with("why", Messages(Language::En).message(why, &[]))
        .into()
}

/// A mistake with a file or folder, said in English: the caller that knows the kit says
/// it in the kit's language ([`Error::in_language`]).
pub(crate) fn mistake(id: Id, values: &[(&str, &str)]) -> Error {
    Messages(Language::En).message(id, values).into()
}

/// The files of a kit folder that its [`MANIFEST`] lists and that were found unchanged:
/// CRC32 and size by path (`/` between its parts).
pub type Unchanged = HashMap<String, (u32, u64)>;

/// What [`check_replaceable`] found in a folder that may be replaced.
#[derive(Default)]
pub struct Replaceable {
    /// The files its [`MANIFEST`] lists, found unchanged.
    pub unchanged: Unchanged,
    /// In a folder without a manifest, its files, in name order: each must come out of
    /// this run byte for byte, or the folder is not replaced (a kit's own files, copied
    /// without the hidden manifest and then written on, must not be lost).
    pub to_prove: Vec<PathBuf>,
}

/// Checks that `dir` may be replaced whole: it does not exist, is empty, or holds only
/// what the last run wrote into it, unchanged, as its [`MANIFEST`] lists; gives those
/// files. A folder without a manifest is asked of `old_output`, which gives the first
/// path inside it that a matchbox run would not have written, if any; its files are then
/// to be proved against what this run writes ([`Replaceable::to_prove`]).
pub fn check_replaceable(dir: &Path, old_output: OldOutput) -> Result<Replaceable, Error> {
    let dir = &through_link(dir)?;
    match std::fs::metadata(dir) {
        Err(_) => return Ok(Replaceable::default()),
        Ok(m) if !m.is_dir() => {
            return Err(mistake(
                id::ERROR_OUT_IS_FILE,
                &[("path", &dir.display().to_string())],
            ));
        }
        Ok(_) => {}
    }
    let entries = inside(dir).map_err(|e| {
        mistake(
            id::ERROR_CANNOT_LOOK_INSIDE,
            &[
                ("path", &dir.display().to_string()),
                ("why", &e.to_string()),
            ],
        )
    })?;
    let Ok(text) = std::fs::read_to_string(dir.join(MANIFEST)) else {
        return without_manifest(dir, entries, old_output);
    };
    let Some(listed) = read_manifest(&text) else {
        return Err(foreign(
            dir,
            Path::new(MANIFEST),
            id::ERROR_FOREIGN_NOT_AS_WRITTEN,
        ));
    };
    let listed: Unchanged = listed
        .into_iter()
        .map(|(path, crc, size)| (path, (crc, size)))
        .collect();
    Ok(Replaceable {
        unchanged: as_listed(dir, &entries, &listed)?,
        to_prove: Vec::new(),
    })
}

/// [`check_replaceable`] for a folder without a manifest: refused if `old_output` finds
/// a path a matchbox run would not have written; else its files are to be proved.
fn without_manifest(
    dir: &Path,
    entries: Vec<(PathBuf, bool)>,
    old_output: OldOutput,
) -> Result<Replaceable, Error> {
    match old_output(&entries) {
        Some(path) => Err(foreign(dir, &path, id::ERROR_FOREIGN_NOT_WRITTEN)),
        None => Ok(Replaceable {
            unchanged: Unchanged::new(),
            to_prove: entries
                .into_iter()
                .filter(|(_, is_dir)| !is_dir)
                .map(|(path, _)| path)
                .collect(),
        }),
    }
}

/// Checks that `entries` (the folder `dir`'s, in name order) are what its manifest
/// `listed`: every file listed and unchanged, every folder above one; gives those files.
/// The refusal names the first thing wrong in name order, changed or not listed.
fn as_listed(
    dir: &Path,
    entries: &[(PathBuf, bool)],
    listed: &Unchanged,
) -> Result<Unchanged, Error> {
    // Every folder above a listed file.
    let folders: HashSet<&str> = listed
        .keys()
        .flat_map(|path| path.match_indices('/').map(|(end, _)| &path[..end]))
        .collect();
    // The first thing not listed, in name order; then the listed files, each read and
    // checked on the disk threads (a kit folder can hold thousands).
    let mut stray = None;
    let mut files = Vec::new();
    for (i, (path, is_dir)) in entries.iter().enumerate() {
        let name = slashed(path);
        if *is_dir {
            if !folders.contains(name.as_str()) {
                stray = Some(i);
                break;
            }
        } else if name != MANIFEST {
            let Some(&held) = listed.get(&name) else {
                stray = Some(i);
                break;
            };
            files.push((i, name, held));
        }
    }
    let same = on_disk_threads(&files, |&(i, _, (crc, size))| {
        let full = dir.join(&entries[i].0);
        std::fs::symlink_metadata(&full).is_ok_and(|m| m.is_file() && m.len() == size)
            && std::fs::read(&full).is_ok_and(|bytes| crc32fast::hash(&bytes) == crc)
    });
    // Only the files before the first stray were read: a changed one comes first.
    if let Some(((i, _, _), _)) = files.iter().zip(&same).find(|(_, same)| !**same) {
        return Err(foreign(dir, &entries[*i].0, id::ERROR_FOREIGN_CHANGED));
    }
    if let Some(i) = stray {
        return Err(foreign(dir, &entries[i].0, id::ERROR_FOREIGN_NOT_WRITTEN));
    }
    Ok(files
        .into_iter()
        .map(|(_, name, held)| (name, held))
        .collect())
}

/// The first of `to_prove` (paths inside `dir`) that `new` (the folder this run wrote)
/// does not hold byte for byte, as the refusal to replace `dir`.
fn prove(dir: &Path, new: &Path, to_prove: &[PathBuf]) -> Result<(), Error> {
    let same = on_disk_threads(to_prove, |path| {
        match (std::fs::read(dir.join(path)), std::fs::read(new.join(path))) {
            (Ok(old), Ok(made)) => old == made,
            _ => false,
        }
    });
    match to_prove.iter().zip(same).find(|(_, same)| !same) {
        Some((path, _)) => Err(foreign(dir, path, id::ERROR_FOREIGN_NOT_PROVED)),
        None => Ok(()),
    }
}

/// Gives the new folder `new` what the folder `dir` it replaces has of owner, mode and
/// access lists, before any file goes in, so that the files made in it inherit them as
/// they did in `dir` (on Unix: mode with its setgid bit, owner, group and Linux's access
/// lists; on Windows the access list comes from the same parent).
fn same_access(dir: &Path, new: &Path) {
    if let Ok(was) = std::fs::metadata(dir) {
        platform::same_access(dir, &was, new);
    }
}

/// The file or folder a path names: itself, or where it leads when it is a symbolic link
/// (even to one not made yet), so that a link given as `--out` or `--state` is written
/// through and never replaced.
pub(crate) fn through_link(dir: &Path) -> Result<PathBuf, Error> {
    let mut path = dir.to_path_buf();
    // As many links in a row as Linux follows.
    for _ in 0..40 {
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return Ok(path);
        }
        let target = std::fs::read_link(&path).map_err(|e| write_error(dir, &e))?;
        path = match path.parent() {
            Some(parent) if target.is_relative() => parent.join(target),
            _ => target,
        };
    }
    Err(mistake(
        id::ERROR_LINK_CIRCLE,
        &[("path", &dir.display().to_string())],
    ))
}

/// Refuses to replace the folder the user is in (`--out .` is refused as naming no
/// folder of its own; this is `--out "$PWD"` and the folders above it): the shell would
/// be left in a removed folder.
fn not_where_you_are(dir: &Path) -> Result<(), Error> {
    let (Ok(here), Ok(dir_real)) = (
        std::env::current_dir().and_then(|d| d.canonicalize()),
        dir.canonicalize(),
    ) else {
        return Ok(());
    };
    if here.starts_with(&dir_real) {
        return Err(mistake(
            id::ERROR_FOLDER_YOU_ARE_IN,
            &[("path", &dir.display().to_string())],
        ));
    }
    Ok(())
}

/// Refuses a folder that is a mount point (of another file system than its parent): it
/// cannot be renamed, so it cannot be replaced whole. A bind mount within one file system
/// is told by the rename's EBUSY instead (see [`write_error`]), and so is a mount point on
/// a system that does not tell its device (Windows).
fn not_a_mount_point(dir: &Path, parent: &Path, m: &std::fs::Metadata) -> Result<(), Error> {
    match std::fs::metadata(parent) {
        Ok(p) if platform::same_device(&p, m) == Some(false) => Err(write_error(
            dir,
            &std::io::Error::from(ErrorKind::ResourceBusy),
        )),
        _ => Ok(()),
    }
}

/// A folder made to replace `dir` whole, its files put in from any thread as they are
/// made: each is written and synced at once on `DISK_THREADS` threads of its own, so
/// the disk works while the files still to come are being made.
///
/// The new folder is written and synced beside `dir`, then swapped in by
/// [`NewFolder::finish`] with two renames: `dir` to `.DIR.matchbox-old-PID`, the new
/// folder to `dir`; then the old one is removed. Between the two renames `dir` is missing
/// and the complete old folder sits beside it under the `old` name; the next run puts it
/// back. The folders above `dir` are created when missing. A symbolic link is followed:
/// the swap happens where it leads. The folder must pass [`check_replaceable`], and the
/// new one gets a [`MANIFEST`]. Dropped unfinished, it leaves `dir` as it was.
pub struct NewFolder<'a> {
    dir: PathBuf,
    old_output: OldOutput<'a>,
    /// Files put in and not yet written; `None` once the last is put.
    queue: Option<mpsc::Sender<(PathBuf, Vec<u8>)>>,
    disk: Vec<std::thread::JoinHandle<()>>,
    written: Arc<Written>,
}

/// What the disk threads of a [`NewFolder`] share.
struct Written {
    dir: PathBuf,
    parent: PathBuf,
    name: String,
    /// The new folder beside `dir` and the folders made in it, made with the first file
    /// (a kit refused before its first file leaves nothing behind).
    folders: Mutex<Option<(Temporary, Vec<PathBuf>)>>,
    /// The files of the folder being replaced, found unchanged: one whose bytes are
    /// written again is linked into the new folder rather than written.
    before: Unchanged,
    /// The mode, owner, group and access lists of the folder being replaced, given to
    /// the new one when it is made.
    keep_access: bool,
    /// Path, CRC32 and size of every file written, for the manifest.
    listed: Mutex<Vec<(String, u32, usize)>>,
    /// Every failed write, by the path it was to have.
    failed: Mutex<Vec<(PathBuf, Error)>>,
    /// Set when the folder is dropped unfinished: the files still queued are not written.
    abandoned: AtomicBool,
}

impl Written {
    /// The new folder beside `dir`, empty, with the folders above it made as needed.
    fn new_folder(&self) -> Result<(Temporary, Vec<PathBuf>), Error> {
        std::fs::create_dir_all(&self.parent).map_err(|e| write_error(&self.dir, &e))?;
        let tmp = Temporary::new(sibling(
            &self.parent,
            &self.name,
            Kind::Temporary,
            Maker::this(),
        ));
        locked(|| std::fs::create_dir(&tmp.path)).map_err(|e| write_error(&self.dir, &e))?;
        if self.keep_access {
            same_access(&self.dir, &tmp.path);
        }
        let root = tmp.path.clone();
        Ok((tmp, vec![root]))
    }

    /// Writes and syncs one file, making the new folder and its subfolders as needed.
    fn write(&self, relative: &Path, bytes: &[u8]) -> Result<(), Error> {
        let target = self.dir.join(relative);
        let path = {
            let mut folders = self.folders.lock().unwrap_or_else(|e| e.into_inner());
            let (tmp, made) = match folders.take() {
                Some(made) => folders.insert(made),
                None => folders.insert(self.new_folder()?),
            };
            let path = tmp.path.join(relative);
            if let Some(sub) = path.parent().filter(|p| !made.iter().any(|f| f == p)) {
                locked(|| std::fs::create_dir_all(sub)).map_err(|e| write_error(&target, &e))?;
                made.push(sub.to_path_buf());
            }
            path
        };
        let name = slashed(relative);
        let crc = crc32fast::hash(bytes);
        if !self.link_unchanged(&name, relative, crc, bytes, &path) {
            write_synced(&path, bytes).map_err(|e| write_error(&target, &e))?;
        }
        let mut listed = self.listed.lock().unwrap_or_else(|e| e.into_inner());
        listed.push((name, crc, bytes.len()));
        Ok(())
    }

    /// Links the old folder's file at `relative` to `path` in the new folder, when it
    /// holds exactly `bytes`; whether it did. A second name for a file already on disk
    /// costs no new file, no write and no sync, and removing the old folder then frees
    /// nothing: a kit made again writes only what changed (a preview folder of a
    /// thousand files made again in a minute otherwise costs the file system more than
    /// drawing them). Where links cannot be made (FAT, some network folders) the file is
    /// written.
    fn link_unchanged(
        &self,
        name: &str,
        relative: &Path,
        crc: u32,
        bytes: &[u8],
        path: &Path,
    ) -> bool {
        if self.before.get(name) != Some(&(crc, bytes.len() as u64)) {
            return false;
        }
        let old = self.dir.join(relative);
        std::fs::read(&old).is_ok_and(|held| held == bytes)
            && locked(|| std::fs::hard_link(&old, path)).is_ok()
    }
}

impl<'a> NewFolder<'a> {
    /// Begins the folder that replaces `dir`, once `dir` is found replaceable (nothing
    /// is written yet).
    pub fn begin(dir: &Path, old_output: OldOutput<'a>) -> Result<NewFolder<'a>, Error> {
        let dir = through_link(dir)?;
        let (parent, name) = split(&dir)?;
        // The folders above are made with the first file; one that is a file is told now.
        if parent.exists() {
            folder_exists(&parent, &dir)?;
        }
        repair(&parent, Some(&name));
        not_where_you_are(&dir)?;
        let before = check_replaceable(&dir, old_output)?.unchanged;
        let existing = std::fs::metadata(&dir).ok();
        if let Some(m) = &existing {
            if m.permissions().readonly() {
                return Err(mistake(
                    id::ERROR_READ_ONLY,
                    &[("path", &dir.display().to_string())],
                ));
            }
            not_a_mount_point(&dir, &parent, m)?;
        }
        let written = Arc::new(Written {
            dir: dir.clone(),
            parent,
            name,
            folders: Mutex::new(None),
            before,
            keep_access: existing.is_some_and(|m| m.is_dir()),
            listed: Mutex::new(Vec::new()),
            failed: Mutex::new(Vec::new()),
            abandoned: AtomicBool::new(false),
        });
        let (queue, files) = mpsc::channel::<(PathBuf, Vec<u8>)>();
        let files = Arc::new(Mutex::new(files));
        let disk = (0..DISK_THREADS)
            .map(|_| {
                let (files, written) = (Arc::clone(&files), Arc::clone(&written));
                std::thread::spawn(move || {
                    loop {
                        let next = files.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        let Ok((relative, bytes)) = next else { break };
                        if written.abandoned.load(Ordering::Relaxed) {
                            continue;
                        }
                        if let Err(e) = written.write(&relative, &bytes) {
                            let mut failed =
                                written.failed.lock().unwrap_or_else(|e| e.into_inner());
                            failed.push((relative, e));
                        }
                    }
                })
            })
            .collect();
        Ok(NewFolder {
            dir,
            old_output,
            queue: Some(queue),
            disk,
            written,
        })
    }

    /// Puts a file in, at `relative` inside the folder: written at once on a disk thread
    /// while the caller goes on.
    pub fn put(&self, relative: PathBuf, bytes: Vec<u8>) {
        if let Some(queue) = &self.queue {
            // The threads only stop once the queue is dropped.
            let _ = queue.send((relative, bytes));
        }
    }

    /// Waits for the files put in to be written, and for the disk threads to end.
    fn drain(&mut self) {
        self.queue = None;
        for thread in self.disk.drain(..) {
            if let Err(panic) = thread.join() {
                std::panic::resume_unwind(panic);
            }
        }
    }

    /// Writes the manifest once every file put in is written, and swaps the new folder
    /// in for `dir`; of several failed writes, the first in path order is told.
    pub fn finish(mut self) -> Result<(), Error> {
        self.drain();
        let written = &self.written;
        let mut failed =
            std::mem::take(&mut *written.failed.lock().unwrap_or_else(|e| e.into_inner()));
        failed.sort_by(|a, b| a.0.cmp(&b.0));
        if let Some((_, e)) = failed.into_iter().next() {
            return Err(e);
        }
        let mut listed =
            std::mem::take(&mut *written.listed.lock().unwrap_or_else(|e| e.into_inner()));
        // In path order, whichever thread wrote which file first.
        listed.sort();
        let mut text = format!("{MANIFEST_HEADING}\n");
        for (path, crc, size) in &listed {
            text.push_str(&format!("{crc:08x} {size} {path}\n"));
        }
        written.write(Path::new(MANIFEST), text.as_bytes())?;
        let (tmp, folders) = written
            .folders
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| Error::Internal("the new folder was never made".into()))?;
        for folder in folders.iter().rev() {
            sync_folder(folder);
        }
        // Checked again just before the swap: a file put into `dir` meanwhile is kept.
        let found = check_replaceable(&self.dir, self.old_output)?;
        prove(&self.dir, &tmp.path, &found.to_prove)?;
        let (dir, parent, name) = (&written.dir, &written.parent, &written.name);
        let old = Temporary::new(sibling(parent, name, Kind::Old, Maker::this()));
        let trash = Temporary::new(sibling(parent, name, Kind::Trash, Maker::this()));
        {
            // The swap: a signal waits for it, so it is never left half-way by SIGINT or
            // SIGTERM; only SIGKILL or a crash can stop it between the renames.
            let _held = STEPS.read().unwrap_or_else(|e| e.into_inner());
            let had_old = dir.exists();
            if had_old {
                std::fs::rename(dir, &old.path).map_err(|e| write_error(dir, &e))?;
            }
            if let Err(e) = std::fs::rename(&tmp.path, dir) {
                if had_old {
                    let _ = std::fs::rename(&old.path, dir);
                }
                return Err(write_error(dir, &e));
            }
            sync_folder(parent);
            if had_old {
                let _ = std::fs::rename(&old.path, &trash.path);
            }
        }
        // Dropping `trash` removes what is left of the old folder; `tmp` and `old` no
        // longer exist.
        remove_on_disk_threads(&trash.path);
        drop(trash);
        drop(tmp);
        Ok(())
    }
}

impl Drop for NewFolder<'_> {
    /// Unfinished: the files still queued are dropped, the new folder removed.
    fn drop(&mut self) {
        self.written.abandoned.store(true, Ordering::Relaxed);
        self.drain();
    }
}

/// The longest folder name [`slug`] makes, in characters, well inside every file
/// system's limit of 255 bytes.
const SLUG_CHARS: usize = 60;

/// A folder name made from a kit's name: lower case letters and digits, dashes between.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if out.chars().count() >= SLUG_CHARS {
            break;
        }
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() { "kit".into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(what: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("matchbox-output-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn slugs_keep_letters_of_any_alphabet() {
        assert_eq!(
            slug("MENACE, the Matchbox Educable Noughts And Crosses Engine"),
            "menace-the-matchbox-educable-noughts-and-crosses-engine"
        );
        assert_eq!(slug("Машина Баше"), "машина-баше");
        assert_eq!(slug("  !!  "), "kit");
        assert_eq!(slug(&"Ж".repeat(10_000)).chars().count(), SLUG_CHARS);
    }

    #[test]
    fn atomic_write_replaces_whole_files() {
        let dir = scratch("atomic");
        let path = dir.join("b.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(names(&dir), ["b.txt"], "no temporary file left behind");
        let none = |_: &[(PathBuf, bool)]| None;
        let replace = |name: &str| {
            let folder = NewFolder::begin(&dir.join("p"), &none).unwrap();
            folder.put(PathBuf::from(name), vec![1]);
            folder.finish().unwrap();
        };
        replace("sub/x.png");
        replace("y.png");
        assert_eq!(names(&dir.join("p")), [MANIFEST, "y.png"]);
        assert_eq!(names(&dir), ["b.txt", "p"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn files_put_from_any_thread_land_whole_or_not_at_all() {
        let dir = scratch("new-folder");
        let kit = dir.join("kit");
        let none = |_: &[(PathBuf, bool)]| None;
        let folder = NewFolder::begin(&kit, &none).unwrap();
        folder.put(PathBuf::from("old.txt"), b"old".to_vec());
        folder.finish().unwrap();
        // Dropped unfinished: the old folder as it was, nothing beside it.
        {
            let folder = NewFolder::begin(&kit, &none).unwrap();
            folder.put(PathBuf::from("new.txt"), b"new".to_vec());
        }
        assert_eq!(names(&dir), ["kit"]);
        assert_eq!(names(&kit), [MANIFEST, "old.txt"]);
        // Put from several threads in any order: the manifest lists them in path order.
        let folder = NewFolder::begin(&kit, &none).unwrap();
        std::thread::scope(|threads| {
            for i in (0..20usize).rev() {
                let folder = &folder;
                threads.spawn(move || folder.put(format!("sub/{i:02}.txt").into(), vec![7; i]));
            }
        });
        folder.finish().unwrap();
        assert_eq!(names(&kit), [MANIFEST, "sub"]);
        assert_eq!(names(&kit.join("sub")).len(), 20);
        let manifest = std::fs::read_to_string(kit.join(MANIFEST)).unwrap();
        let listed: Vec<_> = read_manifest(&manifest).unwrap();
        let paths: Vec<_> = listed.iter().map(|(path, _, _)| path.clone()).collect();
        let expected: Vec<_> = (0..20).map(|i| format!("sub/{i:02}.txt")).collect();
        assert_eq!(paths, expected);
        assert!(listed.iter().zip(0..).all(|((_, _, size), i)| *size == i));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_made_again_keeps_its_unchanged_files_and_writes_the_rest() {
        use std::os::unix::fs::MetadataExt;
        let dir = scratch("again");
        let kit = dir.join("kit");
        let none = |_: &[(PathBuf, bool)]| None;
        let make = |files: &[(&str, &[u8])]| {
            let folder = NewFolder::begin(&kit, &none).unwrap();
            for (name, bytes) in files {
                folder.put(PathBuf::from(name), bytes.to_vec());
            }
            folder.finish().unwrap();
        };
        let inode = |name: &str| std::fs::metadata(kit.join(name)).unwrap().ino();
        make(&[
            ("same.png", b"same"),
            ("sub/changed.png", b"one"),
            ("resized.png", b"ab"),
        ]);
        let before = [
            inode("same.png"),
            inode("sub/changed.png"),
            inode("resized.png"),
        ];
        make(&[
            ("same.png", b"same"),
            ("sub/changed.png", b"two"),
            ("resized.png", b"abc"),
        ]);
        assert_eq!(
            inode("same.png"),
            before[0],
            "an unchanged file is kept, not written again"
        );
        assert_ne!(inode("sub/changed.png"), before[1]);
        assert_ne!(inode("resized.png"), before[2]);
        assert_eq!(std::fs::read(kit.join("same.png")).unwrap(), b"same");
        assert_eq!(std::fs::read(kit.join("sub/changed.png")).unwrap(), b"two");
        assert_eq!(std::fs::read(kit.join("resized.png")).unwrap(), b"abc");
        assert_eq!(
            std::fs::metadata(kit.join("same.png")).unwrap().nlink(),
            1,
            "the old name is gone"
        );
        assert_eq!(names(&dir), ["kit"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_named_not_created() {
        let dir = scratch("missing");
        let e = write_atomic(&dir.join("no/such/state.json"), b"{}").unwrap_err();
        assert!(matches!(e, Error::Input(_)), "{e}");
        assert!(e.to_string().contains("no/such does not exist"), "{e}");
        assert!(!dir.join("no").exists());
        std::fs::write(dir.join("file"), b"").unwrap();
        let e = write_atomic(&dir.join("file/state.json"), b"{}").unwrap_err();
        assert!(e.to_string().contains("is a file, not a folder"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A process id that is not running: the largest one Linux can hand out, plus one.
    const DEAD: Maker = Maker {
        pid: 4_194_305,
        start: None,
    };

    #[test]
    fn leftovers_of_a_killed_run_are_repaired() {
        let dir = scratch("repair");
        let kit = dir.join("kit");
        // Killed between the renames: only the complete old folder is there.
        std::fs::create_dir_all(sibling(&dir, "kit", Kind::Old, DEAD)).unwrap();
        std::fs::write(sibling(&dir, "kit", Kind::Old, DEAD).join("a"), b"old").unwrap();
        std::fs::create_dir_all(sibling(&dir, "kit", Kind::Temporary, DEAD)).unwrap();
        std::fs::create_dir_all(sibling(&dir, "kit", Kind::Trash, DEAD)).unwrap();
        std::fs::write(sibling(&dir, "b.txt", Kind::Temporary, DEAD), b"half").unwrap();
        std::fs::write(dir.join(".notes.tmp-1"), b"not ours").unwrap();
        repair(&dir, Some("kit"));
        assert_eq!(std::fs::read(kit.join("a")).unwrap(), b"old");
        write_atomic(&dir.join("b.txt"), b"whole").unwrap();
        assert_eq!(names(&dir), [".notes.tmp-1", "b.txt", "kit"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
