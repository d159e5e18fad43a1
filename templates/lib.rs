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

/// A message of the word store (`<language>/strings.yaml` and every game's own), by its
/// key: one of the constants of [`id`], generated from the English files when the
/// program is built, so that a message that does not exist is a compile error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Id(&'static str);

impl Id {
    /// Its key in the word store (`cli.verify.header`).
    pub fn key(self) -> &'static str {
        self.0
    }

    /// The id of a key known only at run time (a game's name, a bead colour a kit names),
    /// if the word store has it.
    pub fn find(key: &str) -> Option<Id> {
        id::ALL
            .binary_search_by(|id| id.0.cmp(key))
            .ok()
            .map(|i| id::ALL[i])
    }

    /// Every id, sorted by its key.
    pub fn all() -> &'static [Id] {
        id::ALL
    }
}

impl std::fmt::Display for Id {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

/// Every message id, named by its key in capitals (`cli.verify.header` is
/// `CLI_VERIFY_HEADER`).
pub mod id {
    use super::Id;
    include!(concat!(env!("OUT_DIR"), "/ids.rs"));
}
