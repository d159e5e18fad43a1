//! Hexapawn (Martin Gardner, 1962) on any board from 3 x 3 to 8 x 8.
//!
//! White starts on row 1 (the bottom row as printed) and moves first. A pawn steps
//! forward onto an empty square or captures diagonally forward. A side wins by reaching
//! the far row, by capturing every enemy pawn, or when the opponent cannot move.

use super::{
    Bound, Claim, Descriptor, Ending, Field, GamesClaim, Historic, MachineSettings, Notation,
    Orientation, Outcome, RewardClaim, Rules, Side, StricterClaim, Symmetry, as_in_the_articles,
    game_settings, notation, one_bead_each, written_vars,
};
use crate::Error;
use crate::i18n::{Id, Named, Said, Strings, id};
use crate::rule::Rule;
use crate::settings::{KitText, Preset};

/// The built-in kits of this game: Gardner's HER and HIM, and octapawn.
const PRESETS: &[Preset] = &[
    Preset {
        name: "hexapawn",
        about: "Gardner's HER (1962): hexapawn 3 x 3, the machine plays Black, second",
        yaml: "game: hexapawn\nrows: 3\ncols: 3\nmachine: second\nbeads: 1\nrule: gardner\n",
    },
    Preset {
        name: "hexapawn-first",
        about: "Gardner's HIM: the same machine playing White, first",
        yaml: "game: hexapawn\nrows: 3\ncols: 3\nmachine: first\nbeads: 1\nrule: gardner\n",
    },
    Preset {
        name: "octapawn",
        about: "hexapawn on 4 x 4 (octapawn), the machine plays second",
        yaml: "game: hexapawn\nrows: 4\ncols: 4\nmachine: second\nbeads: 1\nrule: gardner\n",
    },
];

game_settings! {
    /// A hexapawn board of a given size.
    #[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
    pub Hexapawn in HexapawnFile {
        /// Rows of the board.
        rows: u8 = 3, from 3, to 8,
            Field::named(id::DESIGNER_FIELD_ROWS).hint(id::DESIGNER_FIELD_ROWS_HINT);
        /// Squares in a row.
        cols: u8 = 3, from 3, to 8, Field::named(id::DESIGNER_FIELD_COLS);
    }
}

/// A hexapawn position: one bit per square for each side, and whose turn it is.
/// Square `row * cols + col`; row 0 is White's home row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    /// White's pawns.
    pub white: u64,
    /// Black's pawns.
    pub black: u64,
    /// Whose turn it is.
    pub to_move: Side,
}

/// A pawn's move from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    /// Square the pawn leaves.
    pub from: u8,
    /// Square the pawn lands on.
    pub to: u8,
}

impl Hexapawn {
    /// A board of `rows` x `cols` squares (each 3 to 8; checked by the kit).
    pub fn new(rows: u8, cols: u8) -> Hexapawn {
        Hexapawn { rows, cols }
    }

    /// Rows of the board.
    pub fn rows(&self) -> u8 {
        self.rows
    }

    /// Squares in a row.
    pub fn cols(&self) -> u8 {
        self.cols
    }

    /// The game's name on this board, the same in every language: Gardner's hexapawn on
    /// 3 x 3, octapawn on 4 x 4; none on other boards (the sheets say "hexapawn on R x C").
    pub fn known_name(&self) -> Option<&'static str> {
        match (self.rows, self.cols) {
            (3, 3) => Some("hexapawn"),
            (4, 4) => Some("octapawn"),
            _ => None,
        }
    }

    fn square(&self, row: u8, col: u8) -> u8 {
        row * self.cols + col
    }

    fn row_mask(&self, row: u8) -> u64 {
        ((1u64 << self.cols) - 1) << (row * self.cols)
    }

    fn mirror_square(&self, sq: u8) -> u8 {
        let (row, col) = (sq / self.cols, sq % self.cols);
        self.square(row, self.cols - 1 - col)
    }

    fn square_name(&self, sq: u8) -> String {
        let (row, col) = (sq / self.cols, sq % self.cols);
        format!("{}{}", (b'a' + col) as char, row + 1)
    }
}

impl Rules for Hexapawn {
    const NAME: &'static str = "hexapawn";
    type Position = Board;

    type Move = Step;

    fn start(&self) -> Board {
        Board {
            white: self.row_mask(0),
            black: self.row_mask(self.rows - 1),
            to_move: Side::First,
        }
    }

    fn to_move(&self, position: &Board) -> Side {
        position.to_move
    }

    fn legal_moves(&self, position: &Board, out: &mut Vec<Step>) {
        if self.outcome(position).is_some() {
            return;
        }
        pawn_moves(self, position, out);
    }

    fn play(&self, position: &Board, mv: Step) -> Board {
        let (from, to) = (1u64 << mv.from, 1u64 << mv.to);
        let mut next = *position;
        match position.to_move {
            Side::First => {
                next.white = (next.white & !from) | to;
                next.black &= !to;
            }
            Side::Second => {
                next.black = (next.black & !from) | to;
                next.white &= !to;
            }
        }
        next.to_move = position.to_move.other();
        next
    }

    fn end_reason(&self, position: &Board) -> Ending {
        let far_rows =
            self.row_mask(self.rows - 1) & position.white | self.row_mask(0) & position.black;
        if far_rows != 0 {
            Ending {
                you: id::PLAY_END_YOU_FAR_ROW,
                machine: id::PLAY_END_MACHINE_FAR_ROW,
            }
        } else if position.white == 0 || position.black == 0 {
            Ending {
                you: id::PLAY_END_YOU_NO_PAWNS,
                machine: id::PLAY_END_MACHINE_NO_PAWNS,
            }
        } else {
            Ending {
                you: id::PLAY_END_YOU_NO_MOVE,
                machine: id::PLAY_END_MACHINE_NO_MOVE,
            }
        }
    }

    fn outcome(&self, position: &Board) -> Option<Outcome> {
        if position.white & self.row_mask(self.rows - 1) != 0 || position.black == 0 {
            return Some(Outcome::Win(Side::First));
        }
        if position.black & self.row_mask(0) != 0 || position.white == 0 {
            return Some(Outcome::Win(Side::Second));
        }
        let mut moves = Vec::new();
        pawn_moves(self, position, &mut moves);
        if moves.is_empty() {
            return Some(Outcome::Win(position.to_move.other()));
        }
        None
    }

    fn no_move_left(&self, position: &Board) -> bool {
        let mut moves = Vec::new();
        pawn_moves(self, position, &mut moves);
        moves.is_empty()
            && position.white & self.row_mask(self.rows - 1) == 0
            && position.black & self.row_mask(0) == 0
            && position.white != 0
            && position.black != 0
    }

    fn symmetry_count(&self) -> usize {
        2
    }

    fn transform(&self, position: &Board, symmetry: Symmetry) -> Board {
        if symmetry == 0 {
            return *position;
        }
        let mirror = |bits: u64| {
            (0..self.rows * self.cols)
                .filter(|sq| bits & (1u64 << sq) != 0)
                .fold(0u64, |acc, sq| acc | 1u64 << self.mirror_square(sq))
        };
        Board {
            white: mirror(position.white),
            black: mirror(position.black),
            to_move: position.to_move,
        }
    }

    fn transform_move(&self, mv: Step, symmetry: Symmetry) -> Step {
        if symmetry == 0 {
            return mv;
        }
        Step {
            from: self.mirror_square(mv.from),
            to: self.mirror_square(mv.to),
        }
    }

    fn relay_order(&self, mv: Step) -> u32 {
        u32::from(mv.from) * 64 + u32::from(mv.to)
    }
}

impl Notation for Hexapawn {
    fn describe_symmetry(&self, symmetry: Symmetry) -> Orientation {
        match symmetry {
            0 => Orientation::AsDrawn,
            _ => Orientation::MirrorLeftRight,
        }
    }

    fn format_position(&self, position: &Board) -> String {
        notation::write(usize::from(self.rows), usize::from(self.cols), |r, col| {
            let bit = 1u64 << self.square(self.rows - 1 - r as u8, col as u8);
            if position.white & bit != 0 {
                'W'
            } else if position.black & bit != 0 {
                'B'
            } else {
                '.'
            }
        })
    }

    fn parse_position(&self, text: &str, to_move: Side) -> Result<Board, Said> {
        let example = self.format_position(&self.start());
        let marks = notation::read(
            text,
            usize::from(self.rows),
            usize::from(self.cols),
            &example,
        )?;
        let mut board = Board {
            white: 0,
            black: 0,
            to_move,
        };
        for (r, line) in marks.iter().enumerate() {
            for (col, mark) in line.iter().enumerate() {
                let bit = 1u64 << self.square(self.rows - 1 - r as u8, col as u8);
                match mark.to_ascii_uppercase() {
                    'W' => board.white |= bit,
                    'B' => board.black |= bit,
                    '.' | '-' => {}
                    _ => {
                        return Err(Said::new(id::CLI_POSITION_PAWNS).with("mark", mark));
                    }
                }
            }
        }
        Ok(board)
    }

    fn pieces(&self) -> &'static [(char, Id)] {
        &[('W', id::PLAY_SQUARE_W), ('B', id::PLAY_SQUARE_B)]
    }

    /// Columns by letter from the left, rows by number from White's side (the bottom),
    /// `-` a step straight on, `x` a capture.
    fn explain_notation(&self, words: &Strings) -> Option<String> {
        let last_column = char::from(b'a' + self.cols - 1).to_string();
        Some(words.fill(
            id::CLI_NOTATION_PAWNS,
            &[
                ("white", words.get(id::PLAY_SQUARE_W)),
                ("black", words.get(id::PLAY_SQUARE_B)),
                ("last_column", &last_column),
                ("rows", &self.rows.to_string()),
            ],
        ))
    }

    fn format_move(&self, _position: &Board, mv: Step) -> String {
        let capture = mv.from % self.cols != mv.to % self.cols;
        let sep = if capture { 'x' } else { '-' };
        format!(
            "{}{sep}{}",
            self.square_name(mv.from),
            self.square_name(mv.to)
        )
    }
}

impl Descriptor for Hexapawn {
    type File = HexapawnFile;
    const PRESETS: &'static [Preset] = PRESETS;

    fn read(text: &KitText) -> Result<Hexapawn, Error> {
        Hexapawn::read_keys(text)
    }

    fn default_rule(&self) -> Rule {
        Rule::Gardner
    }

    /// A board without a name of its own says its size.
    fn default_name(&self, words: &Strings) -> String {
        match self.known_name() {
            Some(known) => words.named(Named::KitName, known),
            None => words.fill(
                id::NAME_PAWNS,
                &[
                    ("rows", &self.rows.to_string()),
                    ("cols", &self.cols.to_string()),
                ],
            ),
        }
    }

    /// Gardner's HER (second) and HIM (first) play on 3 x 3.
    fn historic(&self, kit: &MachineSettings) -> Option<Historic> {
        if (self.rows, self.cols) != (3, 3) {
            return None;
        }
        let as_theirs = as_in_the_articles(kit) && one_bead_each(kit);
        let described = as_theirs && kit.rule == Rule::Gardner;
        let rewarded = as_theirs && matches!(kit.rule, Rule::Gardner | Rule::GardnerReward);
        Some(Historic {
            name: match kit.machine {
                Side::First => "him",
                Side::Second => "her",
            },
            claim: described.then_some(Claim {
                source: Said::new(id::CLI_VERIFY_SOURCE_GARDNER),
                text: Said::new(id::CLI_VERIFY_CLAIM_HER),
                bound: Bound::AtMost(11),
                games: Some(GamesClaim {
                    source: Said::new(id::CLI_VERIFY_SOURCE_POLISH_SHEET),
                    text: Said::new(id::CLI_VERIFY_CLAIM_HER_GAMES),
                    games: 40,
                }),
                stricter: Some(StricterClaim {
                    source: Said::new(id::CLI_VERIFY_SOURCE_POLISH_SHEET),
                    text: Said::new(id::CLI_VERIFY_CLAIM_HER_EXACTLY),
                    bound: Bound::Exactly(11),
                }),
            }),
            reward_claim: rewarded.then_some(RewardClaim {
                source: Said::new(id::CLI_VERIFY_SOURCE_POLISH_SHEET),
                text: Said::new(id::CLI_VERIFY_CLAIM_HER_REWARD),
            }),
            described: None,
        })
    }

    fn can_draw(&self) -> bool {
        false
    }

    /// Its keys, and the board's name where it has one.
    fn template_vars(&self) -> minijinja::Value {
        minijinja::context! { known_as => self.known_name(), ..written_vars(self) }
    }
}

fn pawn_moves(game: &Hexapawn, position: &Board, out: &mut Vec<Step>) {
    let (mine, theirs, forward): (u64, u64, i16) = match position.to_move {
        Side::First => (position.white, position.black, 1),
        Side::Second => (position.black, position.white, -1),
    };
    let occupied = mine | theirs;
    for from in 0..game.rows * game.cols {
        if mine & (1u64 << from) == 0 {
            continue;
        }
        let (row, col) = (i16::from(from / game.cols), i16::from(from % game.cols));
        let next = row + forward;
        if next < 0 || next >= i16::from(game.rows) {
            continue;
        }
        for dc in [0i16, -1, 1] {
            let c = col + dc;
            if c < 0 || c >= i16::from(game.cols) {
                continue;
            }
            let to = game.square(next as u8, c as u8);
            let bit = 1u64 << to;
            let ok = if dc == 0 {
                occupied & bit == 0
            } else {
                theirs & bit != 0
            };
            if ok {
                out.push(Step { from, to });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(game: &Hexapawn, board: &Board) -> Vec<String> {
        let mut out = Vec::new();
        game.legal_moves(board, &mut out);
        out.iter().map(|m| game.format_move(board, *m)).collect()
    }

    #[test]
    fn a_board_of_the_wrong_size_is_said_with_each_count_in_its_own_plural() {
        use crate::i18n::Language;
        for (rows, cols, language, said) in [
            (4, 4, Language::Pl, "plansza ma tu 4 rzędy i 4 kolumny"),
            (5, 4, Language::Pl, "plansza ma tu 5 rzędów i 4 kolumny"),
            (3, 5, Language::Ru, "на доске здесь 3 ряда и 5 столбцов"),
            (4, 3, Language::En, "a board here has 4 rows and 3 columns"),
        ] {
            let game = Hexapawn::new(rows, cols);
            let refused = game.parse_position("B/W", Side::First).unwrap_err();
            let text = refused.in_language(language);
            assert!(text.contains(said), "{text}");
        }
    }

    #[test]
    fn white_opens_with_three_steps() {
        let game = Hexapawn::new(3, 3);
        let start = game.start();
        assert_eq!(game.format_position(&start), "BBB/.../WWW");
        assert_eq!(moves(&game, &start), ["a1-a2", "b1-b2", "c1-c2"]);
    }

    #[test]
    fn pawns_capture_diagonally_and_block_straight() {
        let game = Hexapawn::new(3, 3);
        let board = game.parse_position("BBB/.W./W.W", Side::Second).unwrap();
        // Black: a3 and c3 can capture b2; b3 is blocked by b2.
        assert_eq!(moves(&game, &board), ["a3-a2", "a3xb2", "c3-c2", "c3xb2"]);
    }

    #[test]
    fn reaching_the_far_row_wins() {
        let game = Hexapawn::new(3, 3);
        let board = game.parse_position("BWB/.../..W", Side::Second).unwrap();
        assert_eq!(game.outcome(&board), Some(Outcome::Win(Side::First)));
    }

    #[test]
    fn a_side_that_cannot_move_loses() {
        let game = Hexapawn::new(3, 3);
        // White's pawn on a2 faces Black on a3; Black to move has no... White to move is blocked.
        let board = game.parse_position("B../W../...", Side::First).unwrap();
        assert_eq!(game.outcome(&board), Some(Outcome::Win(Side::Second)));
        let board = game.parse_position("B../W../...", Side::Second).unwrap();
        assert_eq!(game.outcome(&board), Some(Outcome::Win(Side::First)));
    }

    #[test]
    fn capturing_every_pawn_wins() {
        let game = Hexapawn::new(3, 3);
        let board = game.parse_position(".../.W./...", Side::Second).unwrap();
        assert_eq!(game.outcome(&board), Some(Outcome::Win(Side::First)));
    }

    #[test]
    fn mirror_is_an_involution_on_moves() {
        let game = Hexapawn::new(4, 5);
        let step = Step { from: 1, to: 7 };
        assert_eq!(game.transform_move(game.transform_move(step, 1), 1), step);
        assert_eq!(game.transform_move(step, 1), Step { from: 3, to: 7 });
    }

    #[test]
    fn bad_text_is_refused() {
        let game = Hexapawn::new(3, 3);
        assert!(game.parse_position("BBB/...", Side::First).is_err());
        assert!(game.parse_position("BBB/.Q./WWW", Side::First).is_err());
        assert!(game.parse_position("BBBB/.../WWW", Side::First).is_err());
    }
}
