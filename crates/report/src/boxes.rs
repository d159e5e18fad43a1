//! What `boxes` and `find` print: a box set as text, one box as a block, a position as a
//! board; the engine writes the same as JSON for programs.

use matchbox_engine::boxes::{BoxSet, MatchBox, tag};
use matchbox_engine::game::{Notation, Symmetry};
use matchbox_engine::i18n::{Id, strings};
use matchbox_engine::kit::Kit;

use crate::words::Words;

/// A position as an indented board, one row a line, squares spaced apart, each piece
/// drawn as the kit's language draws it (`play.square.LETTER`: ○ and ● for a Polish
/// hexapawn, whose reader would take B for *biały*, white). `find` reads it back.
pub fn board_text<G: Notation>(game: &G, kit: &Kit, position: &G::Position) -> String {
    let s = strings(kit.language);
    let mut out = String::new();
    for row in game.format_position(position).split('/') {
        out.push_str("    ");
        let squares: Vec<String> = row
            .chars()
            .map(|c| {
                let key = format!("play.square.{c}");
                match s.get(&key) {
                    piece if piece != key => piece.to_string(),
                    _ => c.to_string(),
                }
            })
            .collect();
        out.push_str(&squares.join(" "));
        out.push('\n');
    }
    out
}

/// One box as a text block: id, move numbers, the board, the moves.
pub fn box_text<G: Notation>(game: &G, kit: &Kit, b: &MatchBox<G::Position, G::Move>) -> String {
    let words = Words::of(kit);
    let key = if b.move_numbers.len() == 1 {
        "box"
    } else {
        "box_many"
    };
    // The move numbers as the label writes them: "moves 2, 4", or the machine's own
    // moves in Roman numerals where the labels count those ("moves I, II").
    let numbers = tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals);
    let mut out = words.fill(key, &[("id", &b.id.to_string()), ("moves", &numbers)]);
    out.push('\n');
    out.push_str(&board_text(game, kit, &b.position));
    let moves: Vec<String> = b
        .moves
        .iter()
        .map(|m| game.say_move(&b.position, m.mv, words.strings))
        .collect();
    let colours: Vec<String> = b
        .moves
        .iter()
        .map(|m| words.strings.colour_name(&kit.palette[m.colour]))
        .collect();
    // Columns as wide as the longest move and colour name, so that the beads stay in line.
    let width = moves.iter().map(|m| m.chars().count()).fold(22, usize::max);
    let colour_width = colours
        .iter()
        .map(|c| c.chars().count())
        .fold(10, usize::max);
    for ((m, said), colour) in b.moves.iter().zip(&moves).zip(&colours) {
        out.push_str(&format!(
            "  {said:<width$} {colour:<colour_width$} {}\n",
            words.count(m.beads, "bead")
        ));
    }
    out
}

/// Every box as text, then the totals.
pub fn boxes_text<G: Notation>(game: &G, kit: &Kit, set: &BoxSet<G>) -> String {
    let words = Words::of(kit);
    let mut out = words.fill("plays", &[("name", &kit.name), ("side", &words.side(kit))]);
    out.push_str("\n\n");
    for b in &set.boxes {
        out.push_str(&box_text(game, kit, b));
        out.push('\n');
    }
    let summary = set.summary(kit);
    let totals = [
        ("boxes", words.count(summary.boxes as i64, "box")),
        ("beads", words.count(summary.beads, "bead")),
    ];
    let totals: Vec<(&str, &str)> = totals.iter().map(|(k, v)| (*k, v.as_str())).collect();
    out.push_str(&words.fill("totals", &totals));
    out.push('\n');
    let per_move: Vec<String> = summary
        .per_move
        .iter()
        .map(|(k, v)| {
            words.fill(
                "by_move_item",
                &[
                    ("n", &tag(&[*k], kit.machine, kit.tags, kit.numerals)),
                    ("count", &words.number(*v as i64)),
                ],
            )
        })
        .collect();
    out.push_str(&words.fill("by_move", &[("list", &per_move.join(", "))]));
    out.push('\n');
    let colours: Vec<String> = summary
        .colours
        .iter()
        .map(|c| {
            let name = words.strings.colour_name(&kit.palette[c.colour]);
            format!("{name} {}", words.number(c.beads))
        })
        .collect();
    out.push_str(&words.fill("by_colour", &[("list", &colours.join(", "))]));
    out.push('\n');
    out
}

/// What `find` prints: the box found (`id`), how the position lies against its label
/// (where a label can lie any other way), then the box.
pub fn found_text<G: Notation>(
    game: &G,
    kit: &Kit,
    b: &MatchBox<G::Position, G::Move>,
    symmetry: Symmetry,
) -> String {
    format!(
        "{}

{}",
        Words::of(kit).found(b.id, label_turn(game, symmetry)),
        box_text(game, kit, b)
    )
}

/// How a pupil turns a label to match the board (its words' id, such as
/// `id::SYMMETRY_AS_DRAWN`), or none for a game whose labels lie only one way (a single
/// pile), where "as drawn" would say nothing.
pub fn label_turn<G: Notation>(game: &G, symmetry: Symmetry) -> Option<Id> {
    (game.symmetry_count() > 1).then(|| game.describe_symmetry(symmetry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::kit::fixtures;

    #[test]
    fn find_says_how_the_position_lies_then_shows_the_box() {
        let (game, kit) = fixtures::pawns(fixtures::HER);
        let set = BoxSet::build(&game, &kit).unwrap();
        for (position, lies) in [
            (
                "BBB/W../.WW",
                "box 1, as drawn; below, its label as printed:\n\n",
            ),
            ("BBB/..W/WW.", "box 1, mirrored: read the label"),
        ] {
            let (i, symmetry) = set.find_notation(&game, position, kit.language).unwrap();
            let b = &set.boxes[i];
            let text = found_text(&game, &kit, b, symmetry);
            assert!(text.starts_with(lies), "{text}");
            assert!(text.ends_with(&box_text(&game, &kit, b)), "{text}");
        }
    }

    #[test]
    fn the_beads_stay_in_a_column_whatever_the_moves_are_called() {
        let (game, kit) = fixtures::stones("marienbad");
        let set = BoxSet::build(&game, &kit).unwrap();
        let text = boxes_text(&game, &kit, &set);
        // Where the last two words (`3 beads`) start, on every line of a move.
        let columns: Vec<usize> = text
            .lines()
            .filter(|l| l.starts_with("  ") && (l.ends_with(" bead") || l.ends_with(" beads")))
            .map(|l| {
                let count: usize = l.rsplit(' ').take(2).map(|w| w.chars().count()).sum();
                l.chars().count() - count - 1
            })
            .collect();
        assert!(columns.len() > 100, "{text}");
        assert!(columns.windows(2).all(|w| w[0] == w[1]), "{text}");
    }
}
