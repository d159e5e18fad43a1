//! One program at a time on a state file: `serve` and `play` each take the lock next to
//! it (`STATE.lock`) for as long as they run, so that neither overwrites the other's
//! games. The lock is the operating system's (`flock` on Unix; on Windows a lock file made
//! new and deleted when its handle closes): it is released when the program ends however
//! it ends, so a lock file left by a crash is stale and taken over.
//!
//! One file, one lock, whatever path reaches it: a symbolic link is followed to the real
//! file, and the lock file is made beside that one; a folder reached by `..`, a link or a
//! bind mount holds the same lock file (`flock` is on the file itself, not its path); and
//! on Unix the state file itself is locked too, so that a second name of it (a hard link)
//! is refused as well. The lock file is never followed: one that is a link, or a file with
//! other names, or holding anything but a process id, is refused rather than written.
//! What differs between the systems is in the crate's `platform` module.

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use matchbox_engine::Error;
use matchbox_engine::i18n::{Id, id};

use crate::mistake;
use crate::platform::{self, Attempt, NotOurs};

/// The lock on a state file, held until dropped; the lock file is removed then.
#[derive(Debug)]
pub struct StateLock {
    file: File,
    path: PathBuf,
    /// The state file as it was when the lock was taken, locked too: its other names
    /// (hard links) reach this lock, and keep reaching it after a save gives the path a
    /// new file.
    _state: Option<File>,
}

/// The lock file of a state file: its name with `.lock` added.
pub fn lock_path(state: &Path) -> PathBuf {
    let mut name = state.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    state.with_file_name(name)
}

/// The message for a state file that another program holds.
fn in_use(state: &Path, holder: Option<u32>) -> Error {
    let path = state.display().to_string();
    match holder {
        Some(pid) => mistake(
            id::ERROR_STATE_IN_USE_BY,
            &[("path", &path), ("pid", &pid.to_string())],
        ),
        None => mistake(id::ERROR_STATE_IN_USE, &[("path", &path)]),
    }
}

impl StateLock {
    /// Takes the lock of the state file `state`, or says which process holds it.
    pub fn take(state: &Path) -> Result<StateLock, Error> {
        let real = crate::through_link(state)?;
        let path = lock_path(&real);
        let (shown, lock) = (state.display().to_string(), path.display().to_string());
        let cannot = |id: Id| mistake(id, &[("path", &shown), ("lock", &lock)]);
        let failed = |e: std::io::Error| {
            let why = e.to_string();
            mistake(
                id::ERROR_LOCK_FAILED,
                &[("path", &shown), ("lock", &lock), ("why", &why)],
            )
        };
        for _ in 0..20 {
            let mut file = match platform::take_lock_file(&path).map_err(failed)? {
                Attempt::Held(file) => file,
                Attempt::Again => continue,
                Attempt::InUse(holder) => return Err(in_use(state, holder)),
                Attempt::NotOurs(NotOurs::Link) => {
                    return Err(cannot(id::ERROR_LOCK_IS_LINK));
                }
                Attempt::NotOurs(NotOurs::NotPlain) => {
                    return Err(cannot(id::ERROR_LOCK_NOT_PLAIN));
                }
                #[cfg(unix)]
                Attempt::NotOurs(NotOurs::SecondName) => {
                    return Err(cannot(id::ERROR_LOCK_SECOND_NAME));
                }
                Attempt::NotOurs(NotOurs::NotAProcess) => {
                    return Err(cannot(id::ERROR_LOCK_NOT_A_PROCESS));
                }
            };
            let state_file = platform::lock_state_file(&real).map_err(|()| in_use(state, None))?;
            // The holder's process id, for the message of the next one refused.
            let written = file
                .set_len(0)
                .and_then(|()| file.seek(SeekFrom::Start(0)))
                .and_then(|_| write!(file, "{}", std::process::id()));
            written.map_err(failed)?;
            return Ok(StateLock {
                file,
                path,
                _state: state_file,
            });
        }
        Err(cannot(id::ERROR_LOCK_KEEPS_CHANGING))
    }
}

impl Drop for StateLock {
    fn drop(&mut self) {
        platform::release_lock_file(&self.file, &self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_until_the_first_ends() {
        let dir = std::env::temp_dir().join(format!("matchbox-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let state = dir.join("beads.json");
        let first = StateLock::take(&state).unwrap();
        assert!(lock_path(&state).exists());
        let refused = StateLock::take(&state).unwrap_err().to_string();
        assert!(refused.contains("in use by another"), "{refused}");
        assert!(
            refused.contains(&format!("process {}", std::process::id())),
            "{refused}"
        );
        drop(first);
        assert!(!lock_path(&state).exists(), "removed on release");
        // A lock file left by a crash holds no lock: taken over.
        std::fs::write(lock_path(&state), "999999").unwrap();
        let again = StateLock::take(&state).unwrap();
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    fn scratch(what: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("matchbox-lock-{what}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        dir
    }

    // Links are made by Unix calls here; the Windows guard is in `platform`.
    #[cfg(unix)]
    #[test]
    fn a_link_planted_as_the_lock_file_is_refused_and_its_target_untouched() {
        let dir = scratch("planted");
        let state = dir.join("s.json");
        std::fs::write(dir.join("report.txt"), b"the report").unwrap();
        std::os::unix::fs::symlink("report.txt", lock_path(&state)).unwrap();
        let refused = StateLock::take(&state).unwrap_err();
        assert!(matches!(refused, Error::Input(_)), "{refused}");
        assert!(refused.to_string().contains("symbolic link"), "{refused}");
        assert_eq!(
            std::fs::read(dir.join("report.txt")).unwrap(),
            b"the report"
        );
        assert!(
            std::fs::symlink_metadata(lock_path(&state))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // A second name of the report (a hard link) is refused as well.
        std::fs::remove_file(lock_path(&state)).unwrap();
        std::fs::hard_link(dir.join("report.txt"), lock_path(&state)).unwrap();
        let refused = StateLock::take(&state).unwrap_err().to_string();
        assert!(refused.contains("hard link"), "{refused}");
        assert_eq!(
            std::fs::read(dir.join("report.txt")).unwrap(),
            b"the report"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    // Links are made by Unix calls here; the Windows guard is in `platform`.
    #[cfg(unix)]
    #[test]
    fn every_path_to_one_state_file_reaches_one_lock() {
        let dir = scratch("paths");
        let state = dir.join("s.json");
        std::fs::write(&state, b"{}").unwrap();
        std::os::unix::fs::symlink("s.json", dir.join("link.json")).unwrap();
        std::fs::hard_link(&state, dir.join("sub/second.json")).unwrap();
        let first = StateLock::take(&state).unwrap();
        for other in [
            dir.join("link.json"),
            dir.join("sub/second.json"),
            dir.join("sub/../s.json"),
        ] {
            let refused = StateLock::take(&other).unwrap_err().to_string();
            assert!(
                refused.contains("in use by another"),
                "{other:?}: {refused}"
            );
        }
        drop(first);
        // Through the link: the lock file beside the real file, not beside the link.
        let again = StateLock::take(&dir.join("link.json")).unwrap();
        assert!(lock_path(&state).exists());
        assert!(!lock_path(&dir.join("link.json")).exists());
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
