//! The progress bars on stderr: over fresh machines trained, games played, and a large
//! kit's labels and previews (hidden when stderr is not a terminal).

use std::io::{IsTerminal, Write};

use indicatif::{ProgressBar, ProgressStyle};
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

/// A kit's making on stderr: for a large kit, how long it will take, then a bar over its
/// labels and previews.
#[derive(Default)]
pub struct KitProgress {
    /// The bar, once the kit is known to be large.
    pub bar: std::sync::OnceLock<ProgressBar>,
}

impl Progress for KitProgress {
    fn boxes_found(&self, labels: usize, previews: bool) {
        if labels < LONG_KIT_BOXES {
            return;
        }
        // Measured on one core of a small machine: a label drawn and laid out in about
        // 0.35 ms, its preview made in about 1.7 ms; the cores share both.
        let ms = labels as f64 * if previews { 2.05 } else { 0.35 };
        let seconds = (ms / 1000.0 / rayon::current_num_threads() as f64)
            .ceil()
            .max(1.0);
        let skip = if previews {
            " (most of it the previews: `previews: false` in kit.yaml leaves them out)"
        } else {
            ""
        };
        let _ = writeln!(
            std::io::stderr(),
            "matchbox: {} boxes: making this kit takes about {seconds} s{skip}",
            matchbox_engine::i18n::grouped(matchbox_engine::i18n::Language::En, labels as i64)
        );
        let steps = if previews { 2 * labels } else { labels };
        let _ = self.bar.set(progress_bar(steps as u64));
    }

    fn step(&self) {
        if let Some(bar) = self.bar.get() {
            bar.inc(1);
        }
    }
}
