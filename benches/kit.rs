//! What a kit costs to build: MENACE's labels.pdf alone, and with its 304 previews.

use criterion::{Criterion, criterion_group, criterion_main};
use matchbox::kit::Kit;
use matchbox::make::{DEFAULT_DPI, make_files};

fn kit(c: &mut Criterion) {
    let menace = Kit::from_preset("menace").expect("preset");
    let mut group = c.benchmark_group("menace kit");
    group.sample_size(10);
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
