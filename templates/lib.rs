//! The instruction pages and words of matchbox's kits, in every language, compiled in:
//! the files of this folder's language folders (see README.md), for the engine.

/// Every file of `templates/<language>/`, as (its path under templates/, its text),
/// sorted by the path so that it can be searched.
pub static FILES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/templates.rs"));
