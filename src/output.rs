//! Writing files whole or not at all: a temporary name beside the target, then a rename.

use std::path::{Path, PathBuf};

use crate::Error;

fn io_error(path: &Path, e: std::io::Error) -> Error {
    Error::Internal(format!("cannot write {}: {e}", path.display()))
}

/// A temporary name in the same folder, so the rename cannot cross file systems.
fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Writes `bytes` to `path` atomically: readers see the old file or the new, never half.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    }
    let tmp = temporary(path);
    let result = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_error(path, e));
    }
    Ok(())
}

/// Replaces the folder `dir` by one holding exactly `files` (name, bytes): written
/// beside it first, then swapped in, so a failure leaves the old folder as it was.
pub fn replace_dir(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<(), Error> {
    let tmp = temporary(dir);
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| io_error(&tmp, e))?;
    for (name, bytes) in files {
        let path = tmp.join(name);
        if let Err(e) = std::fs::write(&path, bytes) {
            let _ = std::fs::remove_dir_all(&tmp);
            return Err(io_error(&path, e));
        }
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| io_error(dir, e))?;
    }
    std::fs::rename(&tmp, dir).map_err(|e| io_error(dir, e))
}

/// A folder name made from a kit's name: lower case letters and digits, dashes between.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
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

    #[test]
    fn slugs_keep_letters_of_any_alphabet() {
        assert_eq!(
            slug("HER, the Hexapawn Educable Robot"),
            "her-the-hexapawn-educable-robot"
        );
        assert_eq!(slug("Машина Баше"), "машина-баше");
        assert_eq!(slug("  !!  "), "kit");
    }

    #[test]
    fn atomic_write_replaces_whole_files() {
        let dir = std::env::temp_dir().join(format!("matchbox-output-{}", std::process::id()));
        let path = dir.join("a/b.txt");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file left behind");
        replace_dir(&dir.join("p"), &[("x.png".into(), vec![1])]).unwrap();
        replace_dir(&dir.join("p"), &[("y.png".into(), vec![2])]).unwrap();
        assert!(!dir.join("p/x.png").exists() && dir.join("p/y.png").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
