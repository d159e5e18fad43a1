//! Noughts and crosses on 3 x 3: X moves first, three in a row wins, a full board draws.

use super::{
    Descriptor, Ending, Field, Historic, KeyFields, MachineSettings, Notation, Orientation,
    Outcome, Rules, Side, Symmetry, notation,
};
use crate::Error;
use crate::i18n::{Id, Said, Strings, id};
use crate::rule::Rule;
use crate::settings::{KitText, Preset};

/// The built-in kits of this game: Michie's MENACE, playing first or second.
const PRESETS: &[Preset] = &[
    Preset {
        name: "menace",
        about: "Michie's MENACE (1961): noughts and crosses, plays X first, beads 4/3/2/1, 304 boxes",
        yaml: "game: tictactoe\nmachine: first\nbeads: {1: 4, 3: 3, 5: 2, 7: 1}\nskip_forced: true\nrule: menace\n",
    },
    Preset {
        name: "menace-second",
        about: "a MENACE that plays O, second; beads 4/3/2/1 at moves 2/4/6/8",
        yaml: "game: tictactoe\nmachine: second\nbeads: {2: 4, 4: 3, 6: 2, 8: 1}\nskip_forced: true\nrule: menace\n",
    },
];

/// Noughts and crosses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TicTacToe;

/// A position: one bit per square for each mark, square `row * 3 + col`, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Grid {
    /// Squares holding X.
    pub x: u16,
    /// Squares holding O.
    pub o: u16,
}

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// Where each square goes under each of the 8 symmetries of the square.
const SYMMETRIES: [[u8; 9]; 8] = build_symmetries();

const fn build_symmetries() -> [[u8; 9]; 8] {
    let mut table = [[0u8; 9]; 8];
    let mut s = 0;
    while s < 8 {
        let mut sq = 0;
        while sq < 9 {
            let (r, c) = (sq / 3, sq % 3);
            // Rotate a quarter turn clockwise `s % 4` times, then mirror left-right if s >= 4.
            let (mut r2, mut c2) = (r, c);
            let mut k = 0;
            while k < s % 4 {
                let t = r2;
                r2 = c2;
                c2 = 2 - t;
                k += 1;
            }
            if s >= 4 {
                c2 = 2 - c2;
            }
            table[s][sq] = (r2 * 3 + c2) as u8;
            sq += 1;
        }
        s += 1;
    }
    table
}

const DESCRIPTIONS: [Orientation; 8] = [
    Orientation::AsDrawn,
    Orientation::QuarterClockwise,
    Orientation::HalfTurn,
    Orientation::QuarterAnticlockwise,
    Orientation::MirrorLeftRight,
    Orientation::MirrorDiagonal,
    Orientation::MirrorTopBottom,
    Orientation::MirrorAntidiagonal,
];

fn permute(bits: u16, map: &[u8; 9]) -> u16 {
    let mut out = 0;
    for (sq, to) in map.iter().enumerate() {
        if bits & (1 << sq) != 0 {
            out |= 1 << to;
        }
    }
    out
}

fn has_line(bits: u16) -> bool {
    LINES.iter().any(|line| bits & line == *line)
}

impl Rules for TicTacToe {
    const NAME: &'static str = "tictactoe";
    type Position = Grid;

    type Move = u8;

    fn start(&self) -> Grid {
        Grid { x: 0, o: 0 }
    }

    fn to_move(&self, position: &Grid) -> Side {
        if position.x.count_ones() > position.o.count_ones() {
            Side::Second
        } else {
            Side::First
        }
    }

    fn legal_moves(&self, position: &Grid, out: &mut Vec<u8>) {
        if self.outcome(position).is_some() {
            return;
        }
        let empty = !(position.x | position.o) & FULL;
        out.extend((0..9u8).filter(|sq| empty & (1 << sq) != 0));
    }

    fn play(&self, position: &Grid, mv: u8) -> Grid {
        let mut next = *position;
        match self.to_move(position) {
            Side::First => next.x |= 1 << mv,
            Side::Second => next.o |= 1 << mv,
        }
        next
    }

    /// Only a line ends a game with a winner; a full board is a draw, said as such.
    fn end_reason(&self, _position: &Grid) -> Ending {
        Ending {
            you: id::PLAY_END_YOU_LINE,
            machine: id::PLAY_END_MACHINE_LINE,
        }
    }

    fn outcome(&self, position: &Grid) -> Option<Outcome> {
        if has_line(position.x) {
            Some(Outcome::Win(Side::First))
        } else if has_line(position.o) {
            Some(Outcome::Win(Side::Second))
        } else if position.x | position.o == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn symmetry_count(&self) -> usize {
        8
    }

    fn transform(&self, position: &Grid, symmetry: Symmetry) -> Grid {
        let map = &SYMMETRIES[symmetry];
        Grid {
            x: permute(position.x, map),
            o: permute(position.o, map),
        }
    }

    fn transform_move(&self, mv: u8, symmetry: Symmetry) -> u8 {
        SYMMETRIES[symmetry][mv as usize]
    }

    fn inverse(&self, symmetry: Symmetry) -> Symmetry {
        (0..8)
            .find(|&t| {
                (0..9).all(|sq| SYMMETRIES[t][SYMMETRIES[symmetry][sq] as usize] as usize == sq)
            })
            .unwrap_or(0)
    }

    fn colour_slot(&self, _position: &Grid, mv: u8) -> Option<usize> {
        Some(mv as usize)
    }

    fn relay_order(&self, mv: u8) -> u32 {
        u32::from(mv)
    }
}

impl Notation for TicTacToe {
    fn move_marks(&self) -> (Id, Id) {
        (id::CLI_VERIFY_LEGAL_DOT, id::PROBLEM_COUNT_DOT)
    }

    fn describe_symmetry(&self, symmetry: Symmetry) -> Orientation {
        DESCRIPTIONS[symmetry]
    }

    fn format_position(&self, position: &Grid) -> String {
        notation::write(3, 3, |row, col| {
            let bit = 1 << (row * 3 + col);
            if position.x & bit != 0 {
                'X'
            } else if position.o & bit != 0 {
                'O'
            } else {
                '.'
            }
        })
    }

    fn parse_position(&self, text: &str, _to_move: Side) -> Result<Grid, Said> {
        let marks = notation::read(text, 3, 3, "X.O/.X./..O")?;
        let mut grid = Grid { x: 0, o: 0 };
        for (sq, mark) in marks.iter().flatten().enumerate() {
            match mark.to_ascii_uppercase() {
                'X' => grid.x |= 1 << sq,
                'O' | '0' => grid.o |= 1 << sq,
                '.' | '-' => {}
                _ => {
                    return Err(Said::new(id::CLI_POSITION_NOUGHTS).with("mark", mark));
                }
            }
        }
        Ok(grid)
    }

    fn format_move(&self, _position: &Grid, mv: u8) -> String {
        const NAMES: [&str; 9] = [
            "top left",
            "top",
            "top right",
            "left",
            "centre",
            "right",
            "bottom left",
            "bottom",
            "bottom right",
        ];
        NAMES[mv as usize].to_string()
    }

    fn say_move(&self, _position: &Grid, mv: u8, words: &Strings) -> String {
        const WORDS: [Id; 9] = [
            id::MOVE_TOP_LEFT,
            id::MOVE_TOP,
            id::MOVE_TOP_RIGHT,
            id::MOVE_LEFT,
            id::MOVE_CENTRE,
            id::MOVE_RIGHT,
            id::MOVE_BOTTOM_LEFT,
            id::MOVE_BOTTOM,
            id::MOVE_BOTTOM_RIGHT,
        ];
        words.get(WORDS[mv as usize]).to_string()
    }
}

/// The board is always 3 × 3: no keys of its own.
impl KeyFields for TicTacToe {
    const FIELDS: &'static [(&'static str, Field)] = &[];
}

impl Descriptor for TicTacToe {
    type File = crate::settings::NoKeys;
    const PRESETS: &'static [Preset] = PRESETS;

    /// The board is always 3 x 3: nothing to read.
    fn read(_text: &KitText) -> Result<TicTacToe, Error> {
        Ok(TicTacToe)
    }

    /// Michie's rule, as MENACE learnt.
    fn default_rule(&self) -> Rule {
        Rule::Menace
    }

    /// The grid with its X and O drawn as strokes, and one coloured bead tag in each
    /// square the machine may play.
    /// Michie's MENACE; the articles claim nothing about how fast it learns.
    fn historic(&self, _kit: &MachineSettings) -> Option<Historic> {
        Some(Historic {
            name: "menace",
            claim: None,
            reward_claim: None,
            described: Some(Said::new(id::CLI_VERIFY_DESCRIBED_MENACE)),
        })
    }

    fn can_draw(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_columns_and_diagonals_win() {
        let game = TicTacToe;
        for line in LINES {
            let grid = Grid { x: line, o: 0 };
            assert_eq!(game.outcome(&grid), Some(Outcome::Win(Side::First)));
        }
        let almost = game.parse_position("XX./OO./...", Side::First).unwrap();
        assert_eq!(game.outcome(&almost), None);
    }

    #[test]
    fn a_full_board_without_a_line_is_a_draw() {
        let game = TicTacToe;
        let grid = game.parse_position("XOX/XOO/OXX", Side::First).unwrap();
        assert_eq!(game.outcome(&grid), Some(Outcome::Draw));
    }

    #[test]
    fn x_moves_first_and_turns_alternate() {
        let game = TicTacToe;
        let start = game.start();
        assert_eq!(game.to_move(&start), Side::First);
        let after = game.play(&start, 4);
        assert_eq!(game.to_move(&after), Side::Second);
        assert_eq!(game.format_position(&after), ".../.X./...");
    }

    #[test]
    fn symmetries_form_a_group_with_inverses() {
        let game = TicTacToe;
        let grid = game.parse_position("XO./.X./...", Side::First).unwrap();
        for s in 0..8 {
            let back = game.transform(&game.transform(&grid, s), game.inverse(s));
            assert_eq!(back, grid);
        }
        // A quarter turn clockwise takes the top-left corner to the top-right.
        assert_eq!(game.transform_move(0, 1), 2);
    }
}
