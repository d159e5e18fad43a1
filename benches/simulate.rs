//! Speed of the simulation (issue 5): MENACE under `menace` against `random`, in games
//! per second on one core, and 2,000 HER training runs to completion.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use matchbox_engine::game::hexapawn::Hexapawn;
use matchbox_engine::game::tictactoe::TicTacToe;
use matchbox_engine::kit::Kit;
use matchbox_engine::machine::{Learner, rng_for};
use matchbox_engine::simulate::{Automatic, OpponentKind, Setup, play_game, train};

/// Games per measured batch: enough that one batch dwarfs the timer's overhead.
const GAMES: u64 = 10_000;

fn menace_against_random(c: &mut Criterion) {
    let kit = Kit::from_preset("menace").expect("preset");
    let setup = Setup::new(&TicTacToe, &kit, kit.rule, false).expect("setup");
    let mut group = c.benchmark_group("menace");
    group.throughput(Throughput::Elements(GAMES));
    // Each batch starts from a fresh machine, so the figure covers learning from the
    // start rather than a machine that has long settled.
    group.bench_function("games against random", |b| {
        let mut rng = rng_for(1, 0);
        b.iter(|| {
            let mut me = Learner::new(&setup.machine);
            for _ in 0..GAMES {
                let played = play_game(
                    &setup.tree,
                    &mut me,
                    &mut Automatic::Random,
                    &mut rng,
                    |_| {},
                );
                black_box(played.ok());
            }
        });
    });
    group.finish();
}

fn her_training_runs(c: &mut Criterion) {
    let kit = Kit::from_preset("hexapawn").expect("preset");
    let setup = Setup::new(&Hexapawn::new(3, 3), &kit, kit.rule, false).expect("setup");
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let mut group = c.benchmark_group("her");
    group.throughput(Throughput::Elements(2000));
    group.sample_size(20);
    group.bench_function("2000 runs against perfect, one thread", |b| {
        b.iter(|| {
            one_thread.install(|| {
                black_box(train(&setup, OpponentKind::Perfect, 2000, 100_000, 7, &|_| {}).ok())
            })
        });
    });
    group.finish();
}

criterion_group!(benches, menace_against_random, her_training_runs);
criterion_main!(benches);
