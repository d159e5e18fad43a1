//! The enumeration reproduces the historic figures, and canonical forms respect symmetry.

use matchbox_engine::boxes::{BoxSet, tag};
use matchbox_engine::game::canonical;
use matchbox_engine::kit::{Kit, presets};
use matchbox_engine::with_game;
use matchbox_print::pictures::Game;
use proptest::prelude::*;

fn kit(yaml: &str) -> Kit {
    Kit::from_yaml(yaml, "test").expect("valid kit")
}

fn figures_of<G: Game>(game: &G, kit: &Kit) -> (usize, u32, Vec<(u32, usize)>, Vec<String>) {
    let set = BoxSet::build(game, kit).expect("enumerates");
    let summary = set.summary(kit);
    let tags = set
        .boxes
        .iter()
        .map(|b| {
            format!(
                "{}:{}",
                game.format_position(&b.position),
                tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals)
            )
        })
        .collect();
    (
        summary.boxes,
        summary.beads,
        summary.per_move.into_iter().collect(),
        tags,
    )
}

fn figures(yaml: &str) -> (usize, u32, Vec<(u32, usize)>, Vec<String>) {
    let kit = kit(yaml);
    with_game!(&kit.game, |game| figures_of(game, &kit))
}

#[test]
fn her_has_19_boxes_and_45_beads() {
    let (boxes, beads, per_move, _) = figures("preset: hexapawn");
    assert_eq!(boxes, 19);
    assert_eq!(beads, 45);
    assert_eq!(per_move, [(2, 2), (4, 10), (6, 7)]);
}

#[test]
fn him_has_18_boxes() {
    assert_eq!(figures("preset: hexapawn-first").0, 18);
}

#[test]
fn her_without_symmetry_keeps_mirror_images_apart() {
    let (boxes, ..) = figures("preset: hexapawn\nsymmetry: false");
    assert!(boxes > 19, "{boxes}");
}

#[test]
fn menace_has_304_boxes_and_1720_beads() {
    let (boxes, beads, per_move, _) = figures("preset: menace");
    assert_eq!(boxes, 304);
    assert_eq!(beads, 1720);
    assert_eq!(per_move, [(1, 1), (3, 12), (5, 108), (7, 183)]);
}

#[test]
fn menace_with_the_forced_ninth_move_has_338_boxes() {
    let (boxes, _, per_move, _) = figures("preset: menace\nskip_forced: false");
    assert_eq!(boxes, 338);
    assert_eq!(per_move.last(), Some(&(9, 34)));
}

#[test]
fn bachet_has_7_boxes_18_beads_and_the_articles_tags() {
    let (boxes, beads, _, tags) = figures("preset: bachet");
    assert_eq!(boxes, 7);
    assert_eq!(beads, 18);
    assert_eq!(
        tags,
        [
            "7:I",
            "6:I",
            "5:I, II",
            "4:II",
            "3:II, III",
            "2:II, III",
            "1:II, III, IV"
        ]
    );
}

#[test]
fn the_relay_wiring_leaves_out_moves() {
    let (boxes, beads, ..) = figures("preset: bachet-relay");
    assert_eq!(boxes, 7);
    // 7: 2 moves, 6: 2, 5: 1, 4: 3, 3: 3, 2: 2, 1: 1.
    assert_eq!(beads, 14);
}

#[test]
fn a_nim_pile_arises_at_several_move_numbers() {
    let (_, _, _, tags) = figures("game: nim\nstones: 10\ntake: [1, 2]\nmachine: first");
    assert!(tags.iter().any(|t| t.starts_with("6:3, 5")), "{tags:?}");
}

/// The positions a nim machine faces, counted independently of the library: every
/// position reachable from `heaps` (any count from any heap) with stones left and the
/// machine (second) to move, as sorted heap sizes, so that orders of the heaps merge.
fn nim_boxes_by_hand(heaps: &[u16]) -> usize {
    use std::collections::BTreeSet;
    let mut start = heaps.to_vec();
    start.sort_unstable();
    let mut seen = BTreeSet::new();
    let mut todo = vec![(start, 0u32)];
    let mut boxes = BTreeSet::new();
    while let Some((position, ply)) = todo.pop() {
        if !seen.insert((position.clone(), ply % 2)) || position.iter().all(|&h| h == 0) {
            continue;
        }
        if ply % 2 == 1 {
            boxes.insert(position.clone());
        }
        for (i, &h) in position.iter().enumerate() {
            for take in 1..=h {
                let mut next = position.clone();
                next[i] -= take;
                next.sort_unstable();
                todo.push((next, ply + 1));
            }
        }
    }
    boxes.len()
}

#[test]
fn marienbad_has_134_boxes_and_3_4_5_has_45_as_counted_by_hand() {
    let (boxes, beads, _, _) = figures("preset: marienbad");
    assert_eq!((boxes, beads), (134, 1052));
    assert_eq!(boxes, nim_boxes_by_hand(&[1, 3, 5, 7]));
    let (boxes, _, _, _) = figures("game: nim\nheaps: [3, 4, 5]\nlast_stone: wins");
    assert_eq!(boxes, 45);
    assert_eq!(boxes, nim_boxes_by_hand(&[3, 4, 5]));
    // Without merging, the heaps keep their places on the table.
    let (apart, _, _, _) = figures("preset: marienbad\nsymmetry: false");
    assert!(apart > 134, "{apart}");
}

#[test]
fn beads_follow_the_schedule_by_earliest_move() {
    // MENACE: the first box holds 3 merged moves x 4 beads.
    let kit = kit("preset: menace");
    fn first<G: Game>(game: &G, kit: &Kit) -> (usize, u32) {
        let set = BoxSet::build(game, kit).unwrap();
        (set.boxes[0].moves.len(), set.boxes[0].beads())
    }
    assert_eq!(with_game!(&kit.game, |game| first(game, &kit)), (3, 12));
}

#[test]
fn an_oversized_board_is_refused_with_a_reason() {
    let kit = kit("game: hexapawn\nrows: 8\ncols: 8");
    let err = with_game!(&kit.game, |game| figures2(game, &kit));
    assert!(err.contains("too many"), "{err}");
}

fn figures2<G: Game>(game: &G, kit: &Kit) -> String {
    match BoxSet::build(game, kit) {
        Ok(set) => format!("built {} boxes", set.boxes.len()),
        Err(e) => e.to_string(),
    }
}

/// Plays `choices` (each taken modulo the number of legal moves) from the start.
fn play_line<G: Game>(game: &G, choices: &[usize]) -> G::Position {
    let mut position = game.start();
    let mut moves = Vec::new();
    for &c in choices {
        moves.clear();
        game.legal_moves(&position, &mut moves);
        if moves.is_empty() {
            break;
        }
        position = game.play(&position, moves[c % moves.len()]);
    }
    position
}

/// Every symmetric image of a position has the same canonical form, and a machine
/// position's box lists only legal moves of the label's position.
fn check_symmetry<G: Game>(game: &G, kit: &Kit, set: &BoxSet<G>, choices: &[usize]) {
    let position = play_line(game, choices);
    let n = game.symmetry_count();
    let canon = canonical(game, &position, n).0;
    for s in 0..n {
        let image = game.transform(&position, s);
        assert_eq!(canonical(game, &image, n).0, canon);
        assert_eq!(game.transform(&image, game.inverse(s)), position);
    }
    if game.outcome(&position).is_none() && game.to_move(&position) == kit.machine {
        let (i, s) = set
            .locate(game, &position)
            .expect("every machine position has a box");
        let b = &set.boxes[i];
        assert_eq!(game.transform(&position, s), b.position);
        let mut legal = Vec::new();
        game.legal_moves(&b.position, &mut legal);
        for m in &b.moves {
            assert!(legal.contains(&m.mv));
            // Played back on the real board, the label's move is legal there too.
            let mut real = Vec::new();
            game.legal_moves(&position, &mut real);
            assert!(real.contains(&game.transform_move(m.mv, game.inverse(s))));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Every preset's game, along any line of play, from the one list of games: a new
    /// game's presets are checked with no line here.
    #[test]
    fn every_games_symmetries_and_boxes(
        preset in 0..presets().count(),
        choices in proptest::collection::vec(0usize..64, 0..16),
    ) {
        let name = presets().nth(preset).expect("a preset").name;
        let kit = kit(&format!("preset: {name}\nskip_forced: false"));
        with_game!(&kit.game, |game| {
            let set = BoxSet::build(game, &kit).unwrap();
            check_symmetry(game, &kit, &set, &choices);
        });
    }
}

proptest! {
    /// Whatever a kit file holds, reading it gives a kit or an error, never a panic.
    #[test]
    fn any_kit_text_is_read_without_panicking(text in "(game|rows|cols|stones|take|preset|beads|label|palette|allowed|[a-z_]{1,8})(: )?(hexapawn|nim|\\[1, 2\\]|\\{7: \\[1\\]\\}|-?[0-9]{1,4}|menace|\\{width_mm: [0-9]{1,3}\\}|[ -~]{0,12})(\\n[a-z_]{1,10}: [ -~]{0,10}){0,4}") {
        let _ = Kit::from_yaml(&text, "fuzz.yaml");
    }
}
