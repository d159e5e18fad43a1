//! How long enumeration takes for the presets (octapawn must be well under a second).

use criterion::{Criterion, criterion_group, criterion_main};
use matchbox_engine::boxes::BoxSet;
use matchbox_engine::kit::Kit;
use matchbox_engine::with_game;
use matchbox_print::pictures::Game;

fn count<G: Game>(game: &G, kit: &Kit) -> usize {
    BoxSet::build(game, kit).expect("enumerates").boxes.len()
}

fn enumerate(c: &mut Criterion) {
    for preset in ["hexapawn", "octapawn", "menace"] {
        let kit = Kit::from_preset(preset).expect("preset");
        c.bench_function(&format!("enumerate {preset}"), |b| {
            b.iter(|| with_game!(&kit.game, |game| count(game, &kit)))
        });
    }
}

criterion_group!(benches, enumerate);
criterion_main!(benches);
