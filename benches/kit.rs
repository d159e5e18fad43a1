//! What a kit costs to build: MENACE's labels.pdf alone, and with its 304 previews; and
//! the drawing side of nim kits at 1x, 4x and 16x the boxes, which must grow linearly.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use matchbox_engine::boxes::BoxSet;
use matchbox_engine::kit::Kit;
use matchbox_engine::with_game;
use matchbox_print::make::{DEFAULT_DPI, LabelSheets, make_files, previews};
use matchbox_print::pictures::Game;

/// labels.pdf alone: enumerate, draw every label, lay out the sheets, write the PDF
/// (the library's own first half of `matchbox kit`); with `dpi`, the previews too.
fn labels_pdf<G: Game>(game: &G, kit: &Kit, dpi: Option<f32>) -> usize {
    let set = BoxSet::build(game, kit).expect("enumerates");
    let sheets = LabelSheets::draw(game, kit, &set, &());
    let pdf = sheets.pdf(kit).expect("writes");
    let pngs = previews(&sheets.labels, &set, dpi, &()).expect("renders");
    pdf.len() + pngs.len()
}

fn kit(c: &mut Criterion) {
    let menace = Kit::from_preset("menace").expect("preset");
    let mut group = c.benchmark_group("menace kit");
    group.sample_size(10);
    group.bench_function("labels.pdf alone", |b| {
        b.iter(|| with_game!(&menace.game, |game| labels_pdf(game, &menace, None)))
    });
    group.bench_function("pdfs without previews", |b| {
        b.iter(|| make_files(&menace, None).expect("builds"))
    });
    group.bench_function("pdfs and 304 previews at 150 dpi", |b| {
        b.iter(|| make_files(&menace, Some(DEFAULT_DPI)).expect("builds"))
    });
    group.finish();
}

/// Nim with 63, 250 and 1,000 stones: 62, 249 and 999 boxes. The simulations behind the
/// teacher's sheet are left out: this is labels, sheets, labels.pdf and the previews.
fn big_kits(c: &mut Criterion) {
    let mut group = c.benchmark_group("nim labels.pdf and previews");
    group.sample_size(10);
    for stones in [63, 250, 1000] {
        let kit =
            Kit::from_yaml(&format!("preset: bachet\nstones: {stones}\n"), "bench").expect("kit");
        group.throughput(Throughput::Elements(stones - 1));
        group.bench_with_input(BenchmarkId::from_parameter(stones), &kit, |b, kit| {
            b.iter(|| with_game!(&kit.game, |game| labels_pdf(game, kit, Some(DEFAULT_DPI))))
        });
    }
    group.finish();
}

criterion_group!(benches, kit, big_kits);
criterion_main!(benches);
