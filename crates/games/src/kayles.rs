//! Kayles, the game of bowling pins: a row of pins; a move knocks down one pin or two
//! neighbouring pins; whoever knocks down the last pin wins.
//!
//! A position is the row as it stands, so a row and its mirror image share a box.

use serde::Serialize;

use super::{
    Descriptor, Ending, Field, Historic, MachineSettings, Notation, Orientation, Outcome, Rules,
    Side, Symmetry, game_settings,
};
use crate::Error;
use crate::i18n::{Id, Said, Strings, id};
use crate::rule::Rule;
use crate::settings::{KitText, Preset};

/// The built-in kit: seven pins, a row a class sets up on a desk, with the machine
/// moving first, the side that can always win.
const PRESETS: &[Preset] = &[Preset {
    name: "kayles",
    about: "Kayles: a row of 7 pins, knock down one pin or two neighbours, the last pin wins; the machine moves first",
    yaml: "game: kayles\npins: 7\nmachine: first\nbeads: 1\nrule: gardner\n",
}];

/// The most pins a row may have: a box for nearly every row that can stand, and these
/// are already some thousands.
pub const MAX_PINS: i64 = 12;

game_settings! {
    /// A game of Kayles: how many pins stand in the row at the start.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    pub Kayles in KaylesFile {
        /// Pins in the row at the start; a kit that gives none has 7.
        pins: u8 = 7, from 1, to MAX_PINS,
            Field::named(id::DESIGNER_FIELD_PINS).hint(id::DESIGNER_FIELD_PINS_HINT);
    }
}

/// A position: which pins of the row still stand, and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Row {
    /// Bit `i` is the `i`-th pin from the left, set while it stands.
    pub standing: u16,
    /// Whose turn it is.
    pub to_move: Side,
}

impl Row {
    /// Whether pin `i` (from the left, counted from 0) stands.
    pub fn stands(&self, i: u8) -> bool {
        self.standing & (1 << i) != 0
    }
}

/// Knocking down one pin, or two neighbouring pins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Knock {
    /// The leftmost pin knocked down, counted from 0.
    pub first: u8,
    /// Pins knocked down: 1, or 2 for `first` and its right neighbour.
    pub pins: u8,
}

impl Knock {
    /// The pins this move knocks down, as bits of [`Row::standing`].
    fn bits(self) -> u16 {
        ((1 << self.pins) - 1) << self.first
    }
}

impl Kayles {
    /// A row of `pins` pins (1 to [`MAX_PINS`], checked by the kit).
    pub fn new(pins: u8) -> Kayles {
        Kayles { pins }
    }

    /// Pins in the row at the start.
    pub fn pins(&self) -> u8 {
        self.pins
    }

    /// The row as it stands, one character a pin: `I` standing, `-` knocked down (not
    /// `.`, which a sentence's full stop after it would lengthen).
    fn row_text(&self, standing: u16) -> String {
        (0..self.pins)
            .map(|i| if standing & (1 << i) != 0 { 'I' } else { '-' })
            .collect()
    }
}

impl Rules for Kayles {
    const NAME: &'static str = "kayles";
    type Position = Row;
    type Move = Knock;

    fn start(&self) -> Row {
        Row {
            standing: (1 << self.pins) - 1,
            to_move: Side::First,
        }
    }

    fn to_move(&self, position: &Row) -> Side {
        position.to_move
    }

    /// Left to right: each standing pin alone, then with its right neighbour.
    fn legal_moves(&self, position: &Row, out: &mut Vec<Knock>) {
        for first in 0..self.pins {
            for pins in 1..=2 {
                let mv = Knock { first, pins };
                if first + pins <= self.pins && position.standing & mv.bits() == mv.bits() {
                    out.push(mv);
                }
            }
        }
    }

    fn play(&self, position: &Row, mv: Knock) -> Row {
        Row {
            standing: position.standing & !mv.bits(),
            to_move: position.to_move.other(),
        }
    }

    /// The last pin down wins: the side to move in an empty row has lost.
    /// The game ends only when the last pin falls.
    fn end_reason(&self, _position: &Row) -> Ending {
        Ending {
            you: id::PLAY_END_YOU_LAST_PIN,
            machine: id::PLAY_END_MACHINE_LAST_PIN,
        }
    }

    fn outcome(&self, position: &Row) -> Option<Outcome> {
        (position.standing == 0).then_some(Outcome::Win(position.to_move.other()))
    }

    /// The row as it stands and its mirror image.
    fn symmetry_count(&self) -> usize {
        2
    }

    fn transform(&self, position: &Row, symmetry: Symmetry) -> Row {
        if symmetry == 0 {
            return *position;
        }
        let standing = (0..self.pins)
            .filter(|&i| position.stands(i))
            .fold(0, |bits, i| bits | 1 << (self.pins - 1 - i));
        Row {
            standing,
            ..*position
        }
    }

    fn transform_move(&self, mv: Knock, symmetry: Symmetry) -> Knock {
        if symmetry == 0 {
            return mv;
        }
        Knock {
            first: self.pins - mv.first - mv.pins,
            ..mv
        }
    }

    fn relay_order(&self, mv: Knock) -> u32 {
        u32::from(mv.first) * 2 + u32::from(mv.pins)
    }
}

impl Notation for Kayles {
    /// A row is written with a letter per pin, counted from the left.
    fn explain_notation(&self, words: &Strings) -> Option<String> {
        Some(words.get(id::CLI_NOTATION_PINS).to_string())
    }

    /// A label marks a one-pin move with an arrow and a two-pin move with a bracket.
    fn move_marks(&self) -> (Id, Id) {
        (id::CLI_VERIFY_LEGAL_PIN_MARK, id::PROBLEM_COUNT_PIN_MARK)
    }

    fn describe_symmetry(&self, symmetry: Symmetry) -> Orientation {
        match symmetry {
            0 => Orientation::AsDrawn,
            _ => Orientation::MirrorLeftRight,
        }
    }

    /// One character a pin, left to right: `I` standing, `-` down (`III-III`).
    fn format_position(&self, position: &Row) -> String {
        self.row_text(position.standing)
    }

    fn parse_position(&self, text: &str, to_move: Side) -> Result<Row, Said> {
        let expected = || {
            Said::new(id::CLI_POSITION_PINS)
                .with("pins", self.pins)
                .with("example", self.row_text(self.start().standing & !0b1000))
        };
        let marks: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        if marks.len() != usize::from(self.pins) {
            return Err(expected());
        }
        let mut standing = 0;
        for (i, mark) in marks.into_iter().enumerate() {
            match mark {
                'I' | 'i' | '|' | '1' => standing |= 1 << i,
                '.' | '-' | '0' => {}
                _ => return Err(expected()),
            }
        }
        Ok(Row { standing, to_move })
    }

    /// `pin 4, leave III-III`; two pins `pins 4-5, leave III--II`.
    fn format_move(&self, position: &Row, mv: Knock) -> String {
        let leave = self.format_position(&self.play(position, mv));
        match mv.pins {
            1 => format!("pin {}, leave {leave}", mv.first + 1),
            _ => format!("pins {}-{}, leave {leave}", mv.first + 1, mv.first + 2),
        }
    }

    fn say_move(&self, position: &Row, mv: Knock, words: &Strings) -> String {
        let leave = self.format_position(&self.play(position, mv));
        let (first, second) = ((mv.first + 1).to_string(), (mv.first + 2).to_string());
        match mv.pins {
            1 => words.fill(id::MOVE_KAYLES_ONE, &[("pin", &first), ("leave", &leave)]),
            _ => words.fill(
                id::MOVE_KAYLES_TWO,
                &[("first", &first), ("second", &second), ("leave", &leave)],
            ),
        }
    }

    fn say_machine_move(&self, position: &Row, mv: Knock, words: &Strings) -> String {
        let leave = self.format_position(&self.play(position, mv));
        let (first, second) = ((mv.first + 1).to_string(), (mv.first + 2).to_string());
        match mv.pins {
            1 => words.fill(
                id::PLAY_MOVED_KAYLES_ONE,
                &[("pin", &first), ("leave", &leave)],
            ),
            _ => words.fill(
                id::PLAY_MOVED_KAYLES_TWO,
                &[("first", &first), ("second", &second), ("leave", &leave)],
            ),
        }
    }
}

impl Descriptor for Kayles {
    type File = KaylesFile;
    const PRESETS: &'static [Preset] = PRESETS;

    fn read(text: &KitText) -> Result<Kayles, Error> {
        Kayles::read_keys(text)
    }

    fn default_rule(&self) -> Rule {
        Rule::Gardner
    }

    /// Dudeney's and Loyd's game; they claim nothing about machines.
    fn historic(&self, _kit: &MachineSettings) -> Option<Historic> {
        Some(Historic {
            name: "kayles",
            claim: None,
            reward_claim: None,
            described: None,
        })
    }

    fn can_draw(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical;

    fn row(game: &Kayles, text: &str) -> Row {
        game.parse_position(text, Side::First).unwrap()
    }

    #[test]
    fn a_move_knocks_down_one_pin_or_two_neighbours() {
        let game = Kayles::new(5);
        let mut moves = Vec::new();
        game.legal_moves(&row(&game, "II.II"), &mut moves);
        let said: Vec<String> = moves
            .iter()
            .map(|&m| game.format_move(&row(&game, "II.II"), m))
            .collect();
        assert_eq!(
            said,
            [
                "pin 1, leave -I-II",
                "pins 1-2, leave ---II",
                "pin 2, leave I--II",
                "pin 4, leave II--I",
                "pins 4-5, leave II---",
                "pin 5, leave II-I-",
            ]
        );
        let start = game.start();
        moves.clear();
        game.legal_moves(&start, &mut moves);
        assert_eq!(moves.len(), 5 + 4);
    }

    #[test]
    fn whoever_knocks_down_the_last_pin_wins() {
        let game = Kayles::new(3);
        let last = row(&game, ".I.");
        assert_eq!(game.outcome(&last), None);
        let after = game.play(&last, Knock { first: 1, pins: 1 });
        assert_eq!(game.outcome(&after), Some(Outcome::Win(Side::First)));
    }

    #[test]
    fn a_row_and_its_mirror_image_share_a_box() {
        let game = Kayles::new(7);
        let a = row(&game, "II.I..I");
        let b = row(&game, "I..I.II");
        assert_eq!(canonical(&game, &a, 2).0, canonical(&game, &b, 2).0);
        let mut moves = Vec::new();
        game.legal_moves(&a, &mut moves);
        for &m in &moves {
            let mirrored = game.transform_move(m, 1);
            assert_eq!(
                game.transform(&game.play(&a, m), 1),
                game.play(&b, mirrored)
            );
            assert_eq!(game.transform_move(mirrored, game.inverse(1)), m);
        }
        assert!(game.parse_position("III", Side::First).is_err());
        assert!(game.parse_position("IIIxIII", Side::First).is_err());
    }
}
