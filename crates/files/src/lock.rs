//! One program at a time on a state file: `serve` and `play` each take the lock next to
//! it (`STATE.lock`) for as long as they run, so that neither overwrites the other's
//! games. The lock is the operating system's (`flock`): it is released when the program
//! ends however it ends, so a lock file left by a crash is stale and taken over.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use matchbox_engine::Error;

/// The lock on a state file, held until dropped; the lock file is removed then.
#[derive(Debug)]
pub struct StateLock {
    file: File,
    path: PathBuf,
}

/// The lock file of a state file: its name with `.lock` added.
pub fn lock_path(state: &Path) -> PathBuf {
    let mut name = state.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    state.with_file_name(name)
}

impl StateLock {
    /// Takes the lock of the state file `state`, or says which process holds it.
    pub fn take(state: &Path) -> Result<StateLock, Error> {
        let path = lock_path(state);
        let cannot = |e: std::io::Error| {
            Error::Input(format!(
                "cannot lock the state file {} ({}: {e}); choose a folder you can write to",
                state.display(),
                path.display()
            ))
        };
        // A holder that ends removes the file while still holding it: a file opened
        // just before that is locked in vain, so the lock counts only on the file that
        // is at the path now.
        for _ in 0..20 {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(cannot)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = file.read_to_string(&mut holder);
                    let holder = match holder.trim().parse::<u32>() {
                        Ok(pid) => format!(" (process {pid})"),
                        Err(_) => String::new(),
                    };
                    return Err(Error::Input(format!(
                        "{} is in use by another `matchbox serve` or `matchbox play`{holder}: stop that one first, or choose another --state file",
                        state.display()
                    )));
                }
                Err(TryLockError::Error(e)) => return Err(cannot(e)),
            }
            let same = match (file.metadata(), std::fs::metadata(&path)) {
                (Ok(held), Ok(there)) => held.ino() == there.ino() && held.dev() == there.dev(),
                _ => false,
            };
            if !same {
                continue;
            }
            // The holder's process id, for the message of the next one refused.
            let written = file
                .set_len(0)
                .and_then(|()| file.seek(SeekFrom::Start(0)))
                .and_then(|_| write!(file, "{}", std::process::id()));
            written.map_err(cannot)?;
            return Ok(StateLock { file, path });
        }
        Err(cannot(std::io::Error::other(
            "the lock file keeps changing",
        )))
    }
}

impl Drop for StateLock {
    fn drop(&mut self) {
        // Removed while still locked; the lock goes with the file handle just after.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
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
}
