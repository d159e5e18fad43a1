//! What Unix (Linux, macOS) and Windows do differently for matchbox's files: the
//! file-size signal, a replaced folder's owner and access lists, mount points, and how
//! the lock file of a state file is opened, held and released. Everything else in the
//! crate is the same on every system.

use std::fs::File;
use std::io::Read;

/// Why the lock file at a path cannot be matchbox's own lock file.
#[derive(Debug)]
pub(crate) enum NotOurs {
    /// It is a symbolic link (on Windows, any reparse point), which is never followed.
    Link,
    /// It is a folder, a pipe or a device.
    NotPlain,
    /// It is another file's second name (a hard link). On Windows the lock file is only
    /// ever made new, so a second name there is never written, only read.
    #[cfg(unix)]
    SecondName,
    /// It holds something other than a process number.
    NotAProcess,
}

/// What came of one attempt at the lock file.
#[derive(Debug)]
pub(crate) enum Attempt {
    /// The lock file, held by this process until the file is dropped.
    Held(File),
    /// Another process holds it; its process number, if the file says it.
    InUse(Option<u32>),
    /// It is there but not matchbox's: refused, and left as it is.
    NotOurs(NotOurs),
    /// It changed while it was being taken (its holder just ended): try again.
    Again,
}

/// The holder's process number a lock file holds: `None` for an empty file (made by a
/// holder that has not written it yet), an error when it holds anything else.
fn holder(file: &mut File) -> Result<Option<u32>, NotOurs> {
    let mut text = String::new();
    if file.read_to_string(&mut text).is_err() || !text.trim().bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotOurs::NotAProcess);
    }
    Ok(text.trim().parse().ok())
}

#[cfg(unix)]
mod imp {
    use std::fs::{File, Metadata, OpenOptions, TryLockError};
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    use std::path::Path;

    use super::{Attempt, NotOurs, holder};

    /// Ignores SIGXFSZ: over a file-size limit (`ulimit -f`) a write then fails with
    /// EFBIG, which is said as the user's to fix, instead of the signal ending the
    /// program with its temporaries left behind.
    pub fn ignore_file_size_signal() {
        // SAFETY: ignoring a signal installs no handler.
        unsafe {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        }
    }

    /// Whether two files are on the same file system, if the system tells.
    pub fn same_device(a: &Metadata, b: &Metadata) -> Option<bool> {
        Some(a.dev() == b.dev())
    }

    /// Whether two open files are one file.
    pub fn same_file(a: &Metadata, b: &Metadata) -> bool {
        a.ino() == b.ino() && a.dev() == b.dev()
    }

    /// Gives the new folder `new` the mode (with its setgid bit), owner, group and, on
    /// Linux, access control lists of `was`'s folder `dir`, so that the files made in it
    /// inherit them as they did in `dir`. What cannot be copied (another owner, for a
    /// user who is not root) is left as it is made.
    pub fn same_access(dir: &Path, was: &Metadata, new: &Path) {
        use std::os::unix::fs::PermissionsExt;
        if std::os::unix::fs::chown(new, Some(was.uid()), Some(was.gid())).is_err() {
            let _ = std::os::unix::fs::chown(new, None, Some(was.gid()));
        }
        #[cfg(target_os = "linux")]
        for name in ["system.posix_acl_access", "system.posix_acl_default"] {
            if let Some(value) = xattr(dir, name) {
                let _ = set_xattr(new, name, &value);
            }
        }
        // macOS keeps access lists outside the extended attributes: not copied there.
        #[cfg(not(target_os = "linux"))]
        let _ = dir;
        // Last: chown clears the setgid bit, and the mode sets the access list's mask.
        let _ = std::fs::set_permissions(new, std::fs::Permissions::from_mode(was.mode() & 0o7777));
    }

    /// The C string of a path, for the calls std has no wrapper of.
    #[cfg(target_os = "linux")]
    fn c_path(path: &Path) -> Option<std::ffi::CString> {
        use std::os::unix::ffi::OsStrExt;
        std::ffi::CString::new(path.as_os_str().as_bytes()).ok()
    }

    /// The extended attribute `name` of `path` (not followed), if it has one: an access
    /// list is `system.posix_acl_access`.
    #[cfg(target_os = "linux")]
    pub fn xattr(path: &Path, name: &str) -> Option<Vec<u8>> {
        let (path, name) = (c_path(path)?, std::ffi::CString::new(name).ok()?);
        let mut value = vec![0u8; 65536];
        // SAFETY: both strings are NUL-terminated and `value` is writable for its length.
        let n = unsafe {
            libc::lgetxattr(
                path.as_ptr(),
                name.as_ptr(),
                value.as_mut_ptr().cast(),
                value.len(),
            )
        };
        let n = usize::try_from(n).ok()?;
        value.truncate(n);
        Some(value)
    }

    /// Sets the extended attribute `name` of `path` (not followed).
    #[cfg(target_os = "linux")]
    pub fn set_xattr(path: &Path, name: &str, value: &[u8]) -> std::io::Result<()> {
        let invalid = || std::io::Error::from(std::io::ErrorKind::InvalidInput);
        let path = c_path(path).ok_or_else(invalid)?;
        let name = std::ffi::CString::new(name).map_err(|_| invalid())?;
        // SAFETY: both strings are NUL-terminated and `value` is readable for its length.
        let done = unsafe {
            libc::lsetxattr(
                path.as_ptr(),
                name.as_ptr(),
                value.as_ptr().cast(),
                value.len(),
                0,
            )
        };
        if done == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }

    /// Opens `path` for reading (and writing, creating it, when `write`), never through
    /// a link (`O_NOFOLLOW`) and never blocking on a FIFO planted there.
    fn open(path: &Path, write: bool) -> std::io::Result<File> {
        OpenOptions::new()
            .read(true)
            .write(write)
            .create(write)
            .truncate(false)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path)
    }

    /// One attempt at the lock file `path`: opened or made, never followed, checked to
    /// be a plain file of one name holding a process number, and locked (`flock`, which
    /// the system releases however the program ends, so a lock file left by a crash is
    /// taken over). A holder that ends removes the file while still holding it: a file
    /// opened just before that is locked in vain, so the lock counts only on the file
    /// that is at the path now.
    pub fn take_lock_file(path: &Path) -> std::io::Result<Attempt> {
        let mut file = match open(path, true) {
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                return Ok(Attempt::NotOurs(NotOurs::Link));
            }
            opened => opened?,
        };
        let held = file.metadata()?;
        if !held.is_file() {
            return Ok(Attempt::NotOurs(NotOurs::NotPlain));
        }
        if held.nlink() > 1 {
            return Ok(Attempt::NotOurs(NotOurs::SecondName));
        }
        let holder = match holder(&mut file) {
            Ok(holder) => holder,
            Err(not) => return Ok(Attempt::NotOurs(not)),
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Ok(Attempt::InUse(holder)),
            Err(TryLockError::Error(e)) => return Err(e),
        }
        let there = std::fs::symlink_metadata(path);
        if there.is_ok_and(|there| same_file(&held, &there)) {
            Ok(Attempt::Held(file))
        } else {
            Ok(Attempt::Again)
        }
    }

    /// Releases the lock file `file` at `path`: removed while still locked, and only
    /// while the name is still this file's; the lock goes with the file handle just
    /// after.
    pub fn release_lock_file(file: &File, path: &Path) {
        let ours = match (file.metadata(), std::fs::symlink_metadata(path)) {
            (Ok(held), Ok(there)) => same_file(&held, &there),
            _ => false,
        };
        if ours {
            let _ = std::fs::remove_file(path);
        }
        let _ = file.unlock();
    }

    /// The state file `real` itself, locked, if there is one yet and the file system
    /// locks: the same file under another name (a hard link) then finds it locked.
    /// `Err(())` when another process holds it.
    pub fn lock_state_file(real: &Path) -> Result<Option<File>, ()> {
        let Ok(file) = open(real, false) else {
            return Ok(None);
        };
        if !file.metadata().is_ok_and(|m| m.is_file()) {
            return Ok(None);
        }
        match file.try_lock() {
            Ok(()) => Ok(Some(file)),
            Err(TryLockError::WouldBlock) => Err(()),
            // A file system without locks: the lock file beside it is the lock.
            Err(TryLockError::Error(_)) => Ok(None),
        }
    }
}

#[cfg(windows)]
mod imp {
    use std::fs::{File, Metadata, OpenOptions};
    use std::io::ErrorKind;
    use std::os::windows::fs::OpenOptionsExt;
    use std::path::Path;

    use super::{Attempt, NotOurs, holder};

    /// Opens a symbolic link or junction itself, not where it leads (winbase.h).
    const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
    /// The file goes when its last handle closes, however the program ends (winbase.h).
    const FILE_FLAG_DELETE_ON_CLOSE: u32 = 0x0400_0000;
    /// Others may open the file to read it (winnt.h).
    const FILE_SHARE_READ: u32 = 0x1;
    /// Others may open a file that is deleted when closed (winnt.h).
    const FILE_SHARE_DELETE: u32 = 0x4;

    /// Windows has no file-size signal: a write over a quota fails, and is said so.
    pub fn ignore_file_size_signal() {}

    /// Whether two files are on the same volume: std does not tell on Windows, and a
    /// rename across volumes fails by itself, nothing changed.
    pub fn same_device(_: &Metadata, _: &Metadata) -> Option<bool> {
        None
    }

    /// Nothing to copy: the new folder is made beside the one it replaces, in the same
    /// parent, so it inherits the same access list from it as that one did.
    pub fn same_access(_: &Path, _: &Metadata, _: &Path) {}

    /// One attempt at the lock file `path`. It is made new (`CREATE_NEW`, which never
    /// opens what is there, a link or a second name included), shared for reading only,
    /// and deleted by the system when its handle closes, however the program ends: so
    /// a file at the name is a running holder's, or not matchbox's. One that is there is
    /// only read, never followed (`FILE_FLAG_OPEN_REPARSE_POINT`), for its holder's
    /// process number.
    pub fn take_lock_file(path: &Path) -> std::io::Result<Attempt> {
        let made = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .share_mode(FILE_SHARE_READ | FILE_SHARE_DELETE)
            .custom_flags(FILE_FLAG_DELETE_ON_CLOSE | FILE_FLAG_OPEN_REPARSE_POINT)
            .open(path);
        match made {
            Ok(file) => return Ok(Attempt::Held(file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        let mut there = match OpenOptions::new()
            .read(true)
            .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
            .open(path)
        {
            Ok(file) => file,
            // Gone (its holder ended) or being deleted: try again.
            Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::PermissionDenied) => {
                return Ok(Attempt::Again);
            }
            Err(e) => return Err(e),
        };
        let kind = there.metadata()?.file_type();
        if kind.is_symlink() {
            return Ok(Attempt::NotOurs(NotOurs::Link));
        }
        if !kind.is_file() {
            return Ok(Attempt::NotOurs(NotOurs::NotPlain));
        }
        Ok(match holder(&mut there) {
            Ok(holder) => Attempt::InUse(holder),
            Err(not) => Attempt::NotOurs(not),
        })
    }

    /// Nothing to do: the system deletes the lock file when its handle closes.
    pub fn release_lock_file(_: &File, _: &Path) {}

    /// Not locked on Windows: a lock there is mandatory, and would refuse this
    /// program's own reads and saves of the file. A second name of the state file
    /// (a hard link) has a lock file of its own there.
    pub fn lock_state_file(_: &Path) -> Result<Option<File>, ()> {
        Ok(None)
    }
}

pub use imp::ignore_file_size_signal;
pub(crate) use imp::{
    lock_state_file, release_lock_file, same_access, same_device, take_lock_file,
};
#[cfg(target_os = "linux")]
pub use imp::{set_xattr, xattr};

#[cfg(test)]
mod tests {
    use super::*;

    /// The check every system makes of a lock file found at the name (on Windows, one
    /// made by another holder): a process number, or nothing yet, or it is not ours.
    #[test]
    fn a_lock_file_holds_a_process_number_or_is_not_ours() {
        let dir = std::env::temp_dir().join(format!("matchbox-holder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let read = |text: &str| {
            let path = dir.join("s.json.lock");
            std::fs::write(&path, text).unwrap();
            holder(&mut File::open(&path).unwrap())
        };
        assert_eq!(read("4321").unwrap(), Some(4321));
        assert_eq!(read("").unwrap(), None, "made, not yet written");
        assert!(matches!(read("the report"), Err(NotOurs::NotAProcess)));
        assert!(matches!(read("12 34"), Err(NotOurs::NotAProcess)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
