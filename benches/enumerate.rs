//! How long enumeration takes for the presets (octapawn must be well under a second).

use criterion::{Criterion, criterion_group, criterion_main};
use matchbox::boxes::BoxSet;
use matchbox::game::Game;
use matchbox::game::GameVisitor;
use matchbox::kit::Kit;

struct Count<'a>(&'a Kit);

impl GameVisitor for Count<'_> {
    type Output = usize;
    fn visit<G: Game>(self, game: &G) -> usize {
        BoxSet::build(game, self.0).expect("enumerates").boxes.len()
    }
}

fn enumerate(c: &mut Criterion) {
    for preset in ["hexapawn", "octapawn", "menace"] {
        let kit = Kit::from_preset(preset).expect("preset");
        c.bench_function(&format!("enumerate {preset}"), |b| {
            b.iter(|| kit.visit(Count(&kit)))
        });
    }
}

criterion_group!(benches, enumerate);
criterion_main!(benches);
