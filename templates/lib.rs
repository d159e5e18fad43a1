//! The instruction pages and words of matchbox's kits, in every language, compiled in:
//! the files of this folder's language folders (see README.md), for the engine.

#[cfg(not(target_arch = "wasm32"))]
mod collect;

use std::sync::OnceLock;

/// The variable that names a templates folder to read instead of the compiled-in one,
/// so that whoever edits the words sees a kit change without building the program.
pub const FOLDER_VARIABLE: &str = "MATCHBOX_TEMPLATES";

/// Every file of `templates/<language>/` as compiled in.
static COMPILED: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/templates.rs"));

/// Every file of `templates/<language>/`, as (its path under templates/, its text),
/// sorted by the path so that it can be searched: the compiled-in files, or those of
/// the folder `MATCHBOX_TEMPLATES` names (read once; a folder that cannot be read is
/// said once on standard error and the compiled-in files are used).
pub fn files() -> &'static [(&'static str, &'static str)] {
    static FILES: OnceLock<&'static [(&'static str, &'static str)]> = OnceLock::new();
    FILES.get_or_init(|| from_folder().unwrap_or(COMPILED))
}

#[cfg(not(target_arch = "wasm32"))]
fn from_folder() -> Option<&'static [(&'static str, &'static str)]> {
    let root = std::path::PathBuf::from(std::env::var_os(FOLDER_VARIABLE)?);
    let read = || -> std::io::Result<Vec<(&'static str, &'static str)>> {
        let mut files = Vec::new();
        for (name, path) in collect::template_paths(&root)? {
            let text = std::fs::read_to_string(&path)?;
            // Read once for the program's whole run, as the compiled-in files are.
            files.push((&*name.leak(), &*text.leak()));
        }
        Ok(files)
    };
    match read() {
        Ok(files) => Some(files.leak()),
        Err(e) => {
            eprintln!(
                "{FOLDER_VARIABLE}={}: {e}; the compiled-in templates are used",
                root.display()
            );
            None
        }
    }
}

#[cfg(target_arch = "wasm32")]
fn from_folder() -> Option<&'static [(&'static str, &'static str)]> {
    None
}
