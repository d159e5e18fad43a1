//! The progress bars on stderr: over fresh machines trained, games played, and a large
//! kit's labels and previews (hidden when stderr is not a terminal).

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};
use matchbox_engine::i18n::{Language, count, id, strings};
use matchbox_print::make::Progress;

/// A progress bar on stderr when it is a terminal, and a hidden one otherwise.
pub fn progress_bar(total: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} ({eta} left)")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(total).with_style(style)
}

/// Kits of at least this many boxes are said, up front, to take a while.
const LONG_KIT_BOXES: usize = 1_000;

/// Kits of more boxes than this are more than a class fills by hand (Michie's MENACE,
/// the largest machine of the sources, had 304): said, as a note, in the kit's words.
const CLASS_KIT_BOXES: usize = 500;

/// A kit's making on stderr: for a large kit, how long it will take, then a bar over its
/// labels and previews, in the kit's language.
pub struct KitProgress {
    /// The kit's language.
    language: Language,
    /// The bar, once the kit is known to be large.
    pub bar: std::sync::OnceLock<ProgressBar>,
}

impl KitProgress {
    /// No bar yet, and words in `language`.
    pub fn new(language: Language) -> KitProgress {
        KitProgress {
            language,
            bar: std::sync::OnceLock::new(),
        }
    }
}

impl Progress for KitProgress {
    fn boxes_found(&self, labels: usize, previews: bool) {
        let words = strings(self.language);
        let boxes = count(self.language, labels as i64, id::PROBLEM_COUNT_BOX);
        if labels > CLASS_KIT_BOXES {
            let note = words.fill(id::CLI_KIT_MANY_BOXES, &[("boxes", &boxes)]);
            let _ = writeln!(std::io::stderr(), "{note}");
        }
        if labels < LONG_KIT_BOXES {
            return;
        }
        // Measured on one core of a small machine: a label drawn and laid out in about
        // 0.35 ms, its preview made in about 1.7 ms; the cores share both.
        let ms = labels as f64 * if previews { 2.05 } else { 0.35 };
        let seconds = (ms / 1000.0 / rayon::current_num_threads() as f64)
            .ceil()
            .max(1.0);
        let key = if previews {
            id::CLI_KIT_SLOW_PREVIEWS
        } else {
            id::CLI_KIT_SLOW
        };
        let said = words.fill(key, &[("boxes", &boxes), ("seconds", &seconds.to_string())]);
        let _ = writeln!(std::io::stderr(), "{said}");
        let steps = if previews { 2 * labels } else { labels };
        let _ = self.bar.set(progress_bar(steps as u64));
    }

    fn step(&self) {
        if let Some(bar) = self.bar.get() {
            bar.inc(1);
        }
    }
}
