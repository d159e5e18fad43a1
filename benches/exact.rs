//! Speed of the exact path (issue 12): HER, Bachet and the relay against a perfect
//! opponent (each under one second in a release build), and the fastest teacher's
//! strategy for HER (under ten seconds).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use matchbox_engine::game::AnyGame;
use matchbox_engine::game::hexapawn::Hexapawn;
use matchbox_engine::kit::Kit;
use matchbox_engine::simulate::exact::{Teaching, distribution};
use matchbox_engine::simulate::{OpponentKind, Setup};

fn exact_figures(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    group.sample_size(10);
    let kit = Kit::from_preset("hexapawn").expect("preset");
    let her = Setup::new(&Hexapawn::new(3, 3), &kit, kit.rule, false).expect("setup");
    group.bench_function("HER against perfect", |b| {
        b.iter(|| black_box(distribution(&her.tree, &her.machine, OpponentKind::Perfect).ok()))
    });
    for preset in ["bachet", "bachet-relay"] {
        let kit = Kit::from_preset(preset).expect("preset");
        let AnyGame::Nim(game) = &kit.game else {
            panic!("{preset} is a nim kit")
        };
        let setup = Setup::new(game, &kit, kit.rule, false).expect("setup");
        group.bench_function(format!("{preset} against perfect"), |b| {
            b.iter(|| {
                black_box(distribution(&setup.tree, &setup.machine, OpponentKind::Perfect).ok())
            })
        });
    }
    group.bench_function("HER fastest teacher", |b| {
        b.iter(|| {
            black_box(
                Teaching::solve(&her.tree, &her.machine)
                    .ok()
                    .map(|t| t.states()),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, exact_figures);
criterion_main!(benches);
