//! What a kit costs to build: MENACE's labels.pdf alone, and with its 304 previews.

use criterion::{Criterion, criterion_group, criterion_main};
use matchbox::boxes::BoxSet;
use matchbox::game::Game;
use matchbox::game::GameVisitor;
use matchbox::kit::Kit;
use matchbox::make::{DEFAULT_DPI, LabelSheets, make_files};

/// labels.pdf alone: enumerate, draw every label, lay out the sheets, write the PDF
/// (the library's own first half of `matchbox kit`).
struct LabelsPdf<'a>(&'a Kit);

impl GameVisitor for LabelsPdf<'_> {
    type Output = usize;
    fn visit<G: Game>(self, game: &G) -> usize {
        let kit = self.0;
        let set = BoxSet::build(game, kit).expect("enumerates");
        LabelSheets::make(game, kit, &set)
            .expect("writes")
            .pdf
            .len()
    }
}

fn kit(c: &mut Criterion) {
    let menace = Kit::from_preset("menace").expect("preset");
    let mut group = c.benchmark_group("menace kit");
    group.sample_size(10);
    group.bench_function("labels.pdf alone", |b| {
        b.iter(|| menace.visit(LabelsPdf(&menace)))
    });
    group.bench_function("pdfs without previews", |b| {
        b.iter(|| make_files(&menace, None).expect("builds"))
    });
    group.bench_function("pdfs and 304 previews at 150 dpi", |b| {
        b.iter(|| make_files(&menace, Some(DEFAULT_DPI)).expect("builds"))
    });
    group.finish();
}

criterion_group!(benches, kit);
criterion_main!(benches);
