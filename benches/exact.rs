//! Speed of the exact figures, one problem at a time: HER's chains against a perfect and a
//! random opponent (in rationals and in proven bounds), the fastest teacher and the most
//! expected losses over its 19,648 bead states, the losses in its first 100 games against
//! a random opponent, and Bachet and the relay against a perfect opponent.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use matchbox_engine::game::AnyGame;
use matchbox_engine::game::hexapawn::Hexapawn;
use matchbox_engine::kit::Kit;
use matchbox_engine::simulate::exact::{
    Teaching, distribution, distribution_bounded, losses_in_first,
};
use matchbox_engine::simulate::{OpponentKind, Setup};

fn exact_figures(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    group.sample_size(10);
    let kit = Kit::from_preset("hexapawn").expect("preset");
    let her = Setup::new(&Hexapawn::new(3, 3), &kit, kit.rule, false).expect("setup");
    let (tree, machine) = (&her.tree, &her.machine);
    group.bench_function("HER against perfect, rationals", |b| {
        b.iter(|| black_box(distribution(tree, machine, OpponentKind::Perfect).ok()))
    });
    group.bench_function("HER against perfect, bounds", |b| {
        b.iter(|| black_box(distribution_bounded(tree, machine, OpponentKind::Perfect).ok()))
    });
    group.bench_function("HER against random", |b| {
        b.iter(|| black_box(distribution(tree, machine, OpponentKind::Random).ok()))
    });
    group.bench_function("HER fastest teacher", |b| {
        b.iter(|| black_box(Teaching::solve(tree, machine).ok().map(|t| t.states())))
    });
    let teaching = Teaching::solve(tree, machine).expect("HER's teaching");
    group.bench_function("HER most expected losses", |b| {
        b.iter(|| black_box(teaching.most_expected_losses(tree, machine).ok()))
    });
    group.bench_function("HER first 100 games against random", |b| {
        b.iter(|| {
            let games = [20, 50, 100];
            black_box(losses_in_first(tree, machine, OpponentKind::Random, &games).ok())
        })
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
    group.finish();
}

criterion_group!(benches, exact_figures);
criterion_main!(benches);
