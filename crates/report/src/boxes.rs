//! What `boxes` and `find` print: a box set as text, one box as a block, a position as a
//! board; the engine writes the same as JSON for programs.

use matchbox_engine::boxes::{BoxSet, MatchBox, tag};
use matchbox_engine::game::{Notation, Orientation, Symmetry, notation};
use matchbox_engine::i18n::{id, strings};
use matchbox_engine::kit::Kit;

use crate::words::Words;

/// A position as an indented board, one row a line, squares spaced apart, each piece
/// in the kit's language's letter (`B` and `C` for a Polish hexapawn, whose reader
/// would take the notation's `B` for *białe*, White). `find` reads it back.
pub fn board_text<G: Notation>(game: &G, kit: &Kit, position: &G::Position) -> String {
    let s = strings(kit.language);
    let mut out = String::new();
    for row in game.format_position(position).split('/') {
        out.push_str("    ");
        let squares: Vec<String> = notation::shown_letters(game.pieces(), s, row)
            .chars()
            .map(String::from)
            .collect();
        out.push_str(&squares.join(" "));
        out.push('\n');
    }
    out
}

/// How wide the columns of a box's moves are: the widest move and colour name of the
/// boxes shown together, so that the colours and the beads stand in line from box to box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns {
    moves: usize,
    colours: usize,
}

impl Columns {
    /// The columns for `boxes`, shown together.
    pub fn of<'a, G: Notation + 'a>(
        game: &G,
        kit: &Kit,
        boxes: impl IntoIterator<Item = &'a MatchBox<G::Position, G::Move>>,
    ) -> Columns {
        let s = strings(kit.language);
        let mut columns = Columns {
            moves: 0,
            colours: 0,
        };
        for b in boxes {
            for m in &b.moves {
                let said = game.say_move(&b.position, m.mv, s).chars().count();
                let colour = s.colour_name(&kit.palette[m.colour]).chars().count();
                columns.moves = columns.moves.max(said);
                columns.colours = columns.colours.max(colour);
            }
        }
        columns
    }
}

/// One box as a text block: id, move numbers, the board, the moves in `columns`.
pub fn box_text<G: Notation>(
    game: &G,
    kit: &Kit,
    b: &MatchBox<G::Position, G::Move>,
    columns: Columns,
) -> String {
    let words = Words::of(kit);
    let key = if b.move_numbers.len() == 1 {
        id::CLI_BOX
    } else {
        id::CLI_BOX_MANY
    };
    // The move numbers as the label writes them: "moves 2, 4", or the machine's own
    // moves in Roman numerals where the labels count those ("moves I, II").
    let numbers = tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals);
    let mut out = words.fill(key, &[("id", &b.id.to_string()), ("moves", &numbers)]);
    out.push('\n');
    out.push_str(&board_text(game, kit, &b.position));
    let Columns { moves, colours } = columns;
    for m in &b.moves {
        let said = game.say_move(&b.position, m.mv, words.strings);
        let colour = words.strings.colour_name(&kit.palette[m.colour]);
        // Two spaces between columns, so that a move of several words never reads on
        // into its colour's name.
        out.push_str(&format!(
            "  {said:<moves$}  {colour:<colours$}  {}\n",
            words.count(m.beads, id::PROBLEM_COUNT_BEAD)
        ));
    }
    out
}

/// What the board's letters and the moves' notation mean, as a paragraph of its own,
/// for a game whose notation needs it.
fn notation_text<G: Notation>(game: &G, kit: &Kit) -> String {
    game.explain_notation(strings(kit.language))
        .map(|said| format!("{said}\n\n"))
        .unwrap_or_default()
}

/// Every box as text, then the totals.
pub fn boxes_text<G: Notation>(game: &G, kit: &Kit, set: &BoxSet<G>) -> String {
    let words = Words::of(kit);
    let mut out = words.fill(
        id::CLI_PLAYS,
        &[("name", &kit.name), ("side", &words.side(kit))],
    );
    out.push_str("\n\n");
    out.push_str(&notation_text(game, kit));
    let columns = Columns::of(game, kit, &set.boxes);
    for b in &set.boxes {
        out.push_str(&box_text(game, kit, b, columns));
        out.push('\n');
    }
    let summary = set.summary(kit);
    let totals = [
        (
            "boxes",
            words.count(summary.boxes as i64, id::PROBLEM_COUNT_BOX),
        ),
        ("beads", words.count(summary.beads, id::PROBLEM_COUNT_BEAD)),
    ];
    let totals: Vec<(&str, &str)> = totals.iter().map(|(k, v)| (*k, v.as_str())).collect();
    out.push_str(&words.fill(id::CLI_TOTALS, &totals));
    out.push('\n');
    let per_move: Vec<String> = summary
        .per_move
        .iter()
        .map(|(k, v)| {
            words.fill(
                id::CLI_BY_MOVE_ITEM,
                &[
                    ("n", &tag(&[*k], kit.machine, kit.tags, kit.numerals)),
                    ("count", &words.number(*v as i64)),
                ],
            )
        })
        .collect();
    out.push_str(&words.fill(id::CLI_BY_MOVE, &[("list", &per_move.join(", "))]));
    out.push('\n');
    let colours: Vec<String> = summary
        .colours
        .iter()
        .map(|c| {
            let name = words.strings.colour_name(&kit.palette[c.colour]);
            format!("{name} {}", words.number(c.beads))
        })
        .collect();
    out.push_str(&words.fill(id::CLI_BY_COLOUR, &[("list", &colours.join(", "))]));
    out.push('\n');
    out
}

/// What `find` prints: the box found (`id`), how the position lies against its label
/// (where a label can lie any other way), what the notation means, then the box, whose
/// moves are the label's.
pub fn found_text<G: Notation>(
    game: &G,
    kit: &Kit,
    b: &MatchBox<G::Position, G::Move>,
    symmetry: Symmetry,
) -> String {
    format!(
        "{}\n\n{}{}",
        Words::of(kit).found(b.id, label_turn(game, symmetry)),
        notation_text(game, kit),
        box_text(game, kit, b, Columns::of(game, kit, [b]))
    )
}

/// How a pupil turns a label to match the board, or none for a game whose labels lie
/// only one way (a single pile), where "as drawn" would say nothing.
pub fn label_turn<G: Notation>(game: &G, symmetry: Symmetry) -> Option<Orientation> {
    (game.symmetry_count() > 1).then(|| game.describe_symmetry(symmetry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::i18n::Language;
    use matchbox_engine::kit::fixtures;
    use matchbox_engine::with_game;

    #[test]
    fn find_says_how_the_position_lies_then_shows_the_box() {
        let (game, kit) = fixtures::pawns(fixtures::HER);
        let set = BoxSet::build(&game, &kit).unwrap();
        for (position, lies) in [
            (
                "BBB/W../.WW",
                "box 1, not turned or mirrored; below, its label as printed:\n\n",
            ),
            ("BBB/..W/WW.", "box 1, mirrored: read the label"),
        ] {
            let (i, symmetry) = set.find_notation(&game, position, kit.language).unwrap();
            let b = &set.boxes[i];
            let text = found_text(&game, &kit, b, symmetry);
            assert!(text.starts_with(lies), "{text}");
            let columns = Columns::of(&game, &kit, [b]);
            assert!(text.ends_with(&box_text(&game, &kit, b, columns)), "{text}");
            // The notation is explained before the board.
            assert!(text.contains("a3xb2: the pawn on a3 takes"), "{text}");
        }
    }

    #[test]
    fn a_mirrored_position_is_answered_with_the_labels_moves_said_plainly() {
        let (game, kit) = fixtures::pawns(fixtures::HER);
        let set = BoxSet::build(&game, &kit).unwrap();
        let (i, symmetry) = set
            .find_notation(&game, "BBB/..W/WW.", kit.language)
            .unwrap();
        let text = found_text(&game, &kit, &set.boxes[i], symmetry);
        assert!(
            text.contains("the moves are written as on the label, not as on your board"),
            "{text}"
        );
    }

    #[test]
    fn a_polish_board_is_drawn_and_read_in_polish_letters() {
        let (game, mut kit) = fixtures::pawns(fixtures::HER);
        kit.language = Language::Pl;
        let set = BoxSet::build(&game, &kit).unwrap();
        // B is białe (White), C czarne (Black); the notation's W is read too.
        for typed in ["CCC/B../.BB", "ccc/b../.bb", "CCC/W../.WW"] {
            let (i, symmetry) = set.find_notation(&game, typed, kit.language).unwrap();
            let text = found_text(&game, &kit, &set.boxes[i], symmetry);
            assert!(text.contains("    C C C\n    B . .\n    . B B\n"), "{text}");
            assert!(
                text.contains("B oznacza białego pionka, C – czarnego"),
                "{text}"
            );
        }
    }

    #[test]
    fn a_russian_board_is_drawn_in_russian_letters() {
        let (game, mut kit) = fixtures::pawns(fixtures::HER);
        kit.language = Language::Ru;
        let set = BoxSet::build(&game, &kit).unwrap();
        let text = boxes_text(&game, &kit, &set);
        assert!(text.contains("    Ч Ч Ч\n"), "{text}");
        assert!(!text.contains("    B B B\n"), "{text}");
        // Said once, before the first box.
        assert_eq!(
            text.matches("Б — белая пешка, Ч — чёрная").count(),
            1,
            "{text}"
        );
        let (i, symmetry) = set
            .find_notation(&game, "ЧЧЧ/Б../.ББ", kit.language)
            .unwrap();
        assert_eq!(set.boxes[i].id, 1);
        assert_eq!(symmetry, 0);
    }

    #[test]
    fn the_colours_and_beads_stay_in_columns_over_the_whole_box_set() {
        for preset in ["marienbad", "kayles", "hexapawn"] {
            for language in Language::ALL {
                let yaml = format!("preset: {preset}\nlanguage: {}\n", language.code());
                let kit = Kit::from_yaml(&yaml, "kit.yaml").unwrap();
                let text = with_game!(&kit.game, |game| {
                    boxes_text(game, &kit, &BoxSet::build(game, &kit).unwrap())
                });
                // Where each move line's colour and bead count start: after the first
                // run of two spaces past the move, and after the last one.
                let starts: Vec<(usize, usize)> = text
                    .lines()
                    .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
                    .map(|l| {
                        let chars: Vec<char> = l.chars().collect();
                        let gap = |at: usize| chars[at] == ' ' && chars[at + 1] == ' ';
                        let moved = (2..chars.len() - 1).find(|&at| gap(at)).unwrap();
                        let colour = (moved..chars.len()).find(|&at| chars[at] != ' ').unwrap();
                        let beads = (0..chars.len() - 1).rev().find(|&at| gap(at)).unwrap() + 2;
                        (colour, beads)
                    })
                    .collect();
                assert!(starts.len() > 10, "{preset} {language:?}\n{text}");
                assert!(
                    starts.windows(2).all(|w| w[0] == w[1]),
                    "{preset} {language:?}\n{text}"
                );
            }
        }
    }
}
