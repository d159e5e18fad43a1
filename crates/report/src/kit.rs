//! What `kit`, `presets` and `labels` print: the files a kit was written into, the
//! built-in kits, and the label sizes and sticker sheets a kit can print on.

use std::path::{Path, PathBuf};

use serde::Serialize;

use matchbox_engine::i18n::id;
use matchbox_engine::kit::{Kit, presets};
use matchbox_engine::media::{LABEL_SIZES, Paper, STICKER_SHEETS, cut_grid};

use crate::words::Words;

/// What `matchbox kit` wrote.
#[derive(Debug, Serialize)]
pub struct KitReport {
    /// The folder written into.
    pub dir: PathBuf,
    /// Every file written, in order.
    pub files: Vec<PathBuf>,
    /// Number of boxes (and labels).
    pub boxes: usize,
    /// Pages of labels.pdf.
    pub label_pages: usize,
    /// Pages of kit.pdf.
    pub kit_pages: usize,
    /// PNG previews written.
    pub previews: usize,
}

/// What `matchbox kit` wrote, as it tells the user: the files and their pages.
pub fn kit_text(kit: &Kit, dir: &Path, report: &KitReport) -> String {
    let words = Words::of(kit);
    let pages = |n: usize| words.count(n as i64, id::PROBLEM_COUNT_PAGE);
    let boxes = words.count(report.boxes as i64, id::PROBLEM_COUNT_BOX);
    let mut text = format!(
        "{}\n  {}  ({})\n  {}  ({})\n",
        words.fill(id::CLI_KIT, &[("name", &kit.name), ("boxes", &boxes)]),
        dir.join("labels.pdf").display(),
        pages(report.label_pages),
        dir.join("kit.pdf").display(),
        pages(report.kit_pages)
    );
    if report.previews > 0 {
        text.push_str(&format!(
            "  {}  ({})\n",
            dir.join("previews").display(),
            words.count(report.previews as i64, id::PROBLEM_COUNT_PREVIEW)
        ));
    }
    text
}

/// The label sizes and sticker sheets `label:` accepts, a line each, as `matchbox labels`
/// prints them.
pub fn label_stocks() -> String {
    let mut out =
        String::from("Labels cut from plain paper (label: NAME, or {width_mm, height_mm}):\n");
    for (name, size) in LABEL_SIZES {
        let per = |paper| {
            let (across, down) = cut_grid(paper, size);
            format!(
                "{} per {} ({across} x {down})",
                across * down,
                Paper::name(paper)
            )
        };
        out.push_str(&format!(
            "  {name:<12} {:>5} x {:<5} mm  {}, {}\n",
            size.width_mm,
            size.height_mm,
            per(Paper::A4),
            per(Paper::Letter)
        ));
    }
    out.push_str("Sticker sheets (label: CODE; print at 100%, no scaling):\n");
    for sheet in STICKER_SHEETS {
        out.push_str(&format!(
            "  {:<12} {:>5.1} x {:<5.1} mm  {} per {} ({} x {}), pitch {:.2} x {:.2} mm, first label at {:.2}, {:.2} mm\n",
            sheet.code,
            sheet.label.width_mm,
            sheet.label.height_mm,
            sheet.across * sheet.down,
            sheet.paper.name(),
            sheet.across,
            sheet.down,
            sheet.pitch_x_mm,
            sheet.pitch_y_mm,
            sheet.left_mm,
            sheet.top_mm,
        ));
    }
    out.push_str("A custom sheet: label: {width_mm, height_mm, across, down, left_mm, top_mm, pitch_x_mm, pitch_y_mm, corner_mm}\n");
    out
}

/// The built-in kits, a line each: the name, then what it is, in a column.
pub fn presets_text() -> String {
    let width = presets().map(|p| p.name.len()).max().unwrap_or(0);
    presets()
        .map(|p| format!("{:<width$}  {}\n", p.name, p.about))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_has_a_line_and_the_descriptions_start_in_one_column() {
        let text = presets_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), presets().count(), "{text}");
        let columns: Vec<usize> = presets()
            .zip(&lines)
            .map(|(p, line)| {
                assert!(
                    line.starts_with(p.name) && line.ends_with(p.about),
                    "{line}"
                );
                line.len() - p.about.len()
            })
            .collect();
        assert!(columns.windows(2).all(|w| w[0] == w[1]), "{text}");
    }

    #[test]
    fn every_label_size_and_sticker_sheet_is_listed() {
        let text = label_stocks();
        for (name, _) in LABEL_SIZES {
            assert!(text.contains(&format!("  {name} ")), "{name}: {text}");
        }
        for sheet in STICKER_SHEETS {
            assert!(text.contains(&format!("  {} ", sheet.code)), "{text}");
        }
    }

    #[test]
    fn the_previews_are_named_only_when_some_were_written() {
        let kit = Kit::from_preset("bachet").unwrap();
        let mut written = KitReport {
            dir: PathBuf::from("out/b"),
            files: Vec::new(),
            boxes: 7,
            label_pages: 1,
            kit_pages: 12,
            previews: 0,
        };
        let text = kit_text(&kit, &written.dir.clone(), &written);
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(
            text.contains("(12 pages)") && text.contains("7 boxes"),
            "{text}"
        );
        written.previews = 7;
        let text = kit_text(&kit, &written.dir.clone(), &written);
        assert!(text.ends_with("previews  (7 previews)\n"), "{text}");
    }
}
