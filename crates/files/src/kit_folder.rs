//! The kit folder that `matchbox kit` writes: where it goes by default, how an older
//! kit's folder is told from a user's, and the write itself, whole or not at all. The
//! files are made in memory by `matchbox_print::make`.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use matchbox_engine::Error;
use matchbox_engine::i18n::id;
use matchbox_engine::kit::Kit;
use matchbox_print::make::{Progress, make_files_telling};
use matchbox_report::KitReport;

use crate::NewFolder;

/// The folder that holds the kit folders by default.
pub const OUT: &str = "out";

/// The default output folder: `out/<kit name>`.
pub fn default_dir(kit: &Kit) -> PathBuf {
    Path::new(OUT).join(crate::slug(&kit.name))
}

/// The folder of the PNG previews inside a kit's folder.
const PREVIEWS: &str = "previews";

/// The first path inside a kit folder written before kit folders had a manifest that
/// such a run would not have written: it wrote `labels.pdf`, `kit.pdf` and
/// `previews/box-N.png`, and a folder lacking either PDF holds no kit at all.
fn not_an_old_kit(inside: &[(PathBuf, bool)]) -> Option<PathBuf> {
    let is_preview = |path: &Path| {
        let mut parts = path.iter().map(|p| p.to_string_lossy());
        parts.next().as_deref() == Some(PREVIEWS)
            && parts.next().is_some_and(|file| {
                file.strip_prefix("box-")
                    .and_then(|f| f.strip_suffix(".png"))
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            })
            && parts.next().is_none()
    };
    let stray = inside.iter().find(|(path, is_dir)| {
        let own = if *is_dir {
            path == Path::new(PREVIEWS)
        } else {
            path == Path::new("labels.pdf") || path == Path::new("kit.pdf") || is_preview(path)
        };
        !own
    });
    if let Some((path, _)) = stray {
        return Some(path.clone());
    }
    let has = |name: &str| inside.iter().any(|(p, d)| !d && p == Path::new(name));
    match (has("labels.pdf"), has("kit.pdf")) {
        (true, true) => None,
        _ => inside.first().map(|(p, _)| p.clone()),
    }
}

/// Makes the kit and writes it into `dir`, replacing the folder whole: at every instant
/// `dir` holds the complete old kit or the complete new one (see [`NewFolder`]). The
/// previews are written as they are made, while the figures and kit.pdf are still being
/// worked out. `progress` is told how far the making is.
pub fn write_kit(
    kit: &Kit,
    dir: &Path,
    dpi: f32,
    progress: &dyn Progress,
) -> Result<KitReport, Error> {
    if !(dpi.is_finite() && (36.0..=1200.0).contains(&dpi)) {
        return Err(crate::mistake(id::ERROR_DPI, &[("dpi", &dpi.to_string())]));
    }
    let folder = NewFolder::begin(dir, &not_an_old_kit)?;
    let writing = Writing {
        progress,
        folder: &folder,
        previews: Mutex::new(Vec::new()),
    };
    let files = make_files_telling(kit, kit.previews.then_some(dpi), &writing)?;
    let mut previews = writing
        .previews
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    // Box ids are written with leading zeros: in name order is in box order.
    previews.sort();
    let mut written = vec![PathBuf::from("labels.pdf"), PathBuf::from("kit.pdf")];
    folder.put(written[0].clone(), files.labels_pdf);
    folder.put(written[1].clone(), files.kit_pdf);
    folder.finish()?;
    let preview_count = previews.len();
    written.extend(previews);
    Ok(KitReport {
        dir: dir.to_path_buf(),
        files: written.into_iter().map(|name| dir.join(name)).collect(),
        boxes: files.boxes,
        label_pages: files.pages.0,
        kit_pages: files.pages.1,
        previews: preview_count,
    })
}

/// The making of a kit told to `progress`, its previews put into the new folder at once.
struct Writing<'a> {
    progress: &'a dyn Progress,
    folder: &'a NewFolder<'a>,
    /// The previews put in, by their path inside the folder.
    previews: Mutex<Vec<PathBuf>>,
}

impl Progress for Writing<'_> {
    fn boxes_found(&self, labels: usize, previews: bool) {
        self.progress.boxes_found(labels, previews);
    }

    fn step(&self) {
        self.progress.step();
    }

    fn preview(&self, name: String, png: Vec<u8>) -> Option<(String, Vec<u8>)> {
        let path = Path::new(PREVIEWS).join(name);
        self.folder.put(path.clone(), png);
        self.previews
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(path);
        None
    }
}
