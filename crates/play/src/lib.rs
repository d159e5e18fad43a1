//! A person plays the machine in the terminal: the board, the box, its beads, the bead
//! drawn and the move; after the game, the rule and what it changed.
//!
//! Moves are read line by line from any reader, so a pipe works as well as a keyboard.
//! One job: the game at the terminal. The game itself is the engine's `play_game`, the
//! same loop that simulation and the classroom screen play; this crate is the person's
//! side of it and its words.

#![warn(missing_docs)]

use std::cell::{Cell, RefCell};
use std::io::{BufRead, Write};

use matchbox_engine::Error;
use matchbox_engine::boxes::tag;
use matchbox_engine::game::Notation;
use matchbox_engine::i18n::{Id, Language, Messages, id, strings};
use matchbox_engine::kit::{Kit, Tags};
use matchbox_engine::machine::{Beads, Draw, End, Learner, Node, SimRng, Tree, rng_for};
use matchbox_engine::rule::Rule;
use matchbox_engine::simulate::state::Saved;
use matchbox_engine::simulate::{Opponent, Played, Setup, Turn, play_game};
use matchbox_report::{Words, board_text};

/// Whether to colour the beads: asked for, or by default when the output is a terminal
/// and `NO_COLOR` is not set (<https://no-color.org>: a flag given overrides it).
pub fn use_colour(choice: Option<bool>, is_terminal: bool, no_color: Option<&str>) -> bool {
    choice.unwrap_or(is_terminal && no_color.is_none_or(str::is_empty))
}

/// A bead: a coloured dot when colour is on, and always its colour's name in the
/// kit's language.
fn bead(kit: &Kit, colour: usize, coloured: bool) -> String {
    let c = &kit.palette[colour];
    let name = strings(kit.language).colour_name(c);
    if coloured {
        let [r, g, b] = c.rgb;
        format!("\x1b[38;2;{r};{g};{b}m●\x1b[0m {name}")
    } else {
        format!("● {name}")
    }
}

/// The heading of a turn: the move as the labels number it. Where they count the
/// machine's own moves (I, II), only the machine's turns carry a number.
fn turn_heading(kit: &Kit, move_number: u32, machine: bool) -> String {
    let s = strings(kit.language);
    let label_tag = tag(&[move_number], kit.machine, kit.tags, kit.numerals);
    match (kit.tags, machine) {
        (Tags::GameMove, false) => s.fill(id::PLAY_YOUR_TURN, &[("n", &label_tag)]),
        (Tags::GameMove, true) => s.fill(id::PLAY_MACHINE_TURN, &[("n", &label_tag)]),
        (Tags::MachineMove, false) => s.get(id::PLAY_YOUR_TURN_PLAIN).to_string(),
        (Tags::MachineMove, true) => s.fill(id::PLAY_MACHINE_MOVE, &[("tag", &label_tag)]),
    }
}

/// The person at the keyboard, as the machine's opponent.
struct Human<'a, G: Notation, R, W> {
    game: &'a G,
    kit: &'a Kit,
    input: R,
    out: &'a RefCell<W>,
    turn: &'a Cell<u32>,
    /// Write each line read back after its prompt (piped input).
    echo: bool,
}

fn normalise(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn io_error(e: std::io::Error) -> Error {
    Error::Internal(format!("cannot write to the terminal: {e}"))
}

/// The most bytes of a line that are kept; the rest of a longer line is skipped.
const MAX_LINE_BYTES: usize = 256;

/// The most characters of a refused line that are shown back.
const ECHO_CHARS: usize = 40;

/// Reads one line, of at most [`MAX_LINE_BYTES`], as text (bytes that are not UTF-8
/// become U+FFFD, so they are simply not a move); `None` at the end of the input.
fn read_line(input: &mut impl BufRead) -> Result<Option<String>, Error> {
    let mut line = Vec::new();
    let mut read_any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let why = e.to_string();
                // Said in English: the caller that has the kit says it in its language.
                let said =
                    Messages(Language::En).message(id::ERROR_CANNOT_READ_MOVE, &[("why", &why)]);
                return Err(said.into());
            }
        };
        if buffer.is_empty() {
            break;
        }
        read_any = true;
        let end = buffer.iter().position(|&b| b == b'\n');
        let part = &buffer[..end.map_or(buffer.len(), |i| i + 1)];
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&part[..part.len().min(room)]);
        let used = part.len();
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    Ok(read_any.then(|| String::from_utf8_lossy(&line).into_owned()))
}

/// A line typed by the user as it may be shown back: no control characters or escape
/// sequences reach the terminal, and at most [`ECHO_CHARS`] characters.
fn echo(line: &str) -> String {
    let clean = matchbox_engine::kit::without_controls(line.trim());
    let shown: String = clean.chars().take(ECHO_CHARS).collect();
    if clean.chars().count() > ECHO_CHARS {
        format!("{shown}…")
    } else {
        shown
    }
}

impl<G: Notation, R: BufRead, W: Write> Human<'_, G, R, W> {
    /// The legal moves at `node` as a numbered list, in the kit's words.
    fn list(&self, tree: &Tree<G>, node: Node) -> String {
        let position = &tree.positions[node as usize];
        let words = strings(self.kit.language);
        tree.moves(node)
            .iter()
            .enumerate()
            .map(|(i, &m)| format!("{}) {}", i + 1, self.game.say_move(position, m, words)))
            .collect::<Vec<_>>()
            .join("   ")
    }

    /// The child of `node` that `line` names: the move's words in the kit's language or
    /// in the notation, either before the comma (`take 2`), or its number in the list.
    fn parse(&self, tree: &Tree<G>, node: Node, line: &str) -> Option<Node> {
        let position = &tree.positions[node as usize];
        let moves = tree.moves(node);
        let words = strings(self.kit.language);
        let said = |m: &G::Move| normalise(&self.game.say_move(position, *m, words));
        let wanted = normalise(line);
        let by_kit_words = || {
            moves
                .iter()
                .position(|m| said(m) == wanted || said(m).split(',').next() == Some(&wanted))
        };
        let by_words = self
            .game
            .read_move(position, moves, line)
            .or_else(by_kit_words);
        let by_number = || {
            line.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=moves.len()).contains(n))
                .map(|n| n - 1)
        };
        by_words.or_else(by_number).map(|i| tree.children(node)[i])
    }
}

impl<G: Notation, R: BufRead, W: Write> Opponent<G> for Human<'_, G, R, W> {
    fn choose(
        &mut self,
        tree: &Tree<G>,
        node: Node,
        _machine: &Learner,
        _rng: &mut SimRng,
    ) -> Result<Option<Node>, Error> {
        self.turn.set(self.turn.get() + 1);
        let s = strings(self.kit.language);
        let mut text = format!(
            "\n{}\n{}{}\n> ",
            turn_heading(self.kit, self.turn.get(), false),
            board_text(self.game, self.kit, &tree.positions[node as usize]),
            s.fill(id::PLAY_YOUR_MOVES, &[("moves", &self.list(tree, node))])
        );
        loop {
            write_out(self.out, &text)?;
            let Some(line) = read_line(&mut self.input)? else {
                let said = Messages(self.kit.language).message(id::PLAY_INPUT_ENDED, &[]);
                return Err(said.into());
            };
            if self.echo {
                write_out(self.out, &format!("{}\n", echo(&line)))?;
            }
            if let Some(child) = self.parse(tree, node, &line) {
                return Ok(Some(child));
            }
            let values = [("line", echo(&line)), ("moves", self.list(tree, node))];
            text = format!(
                "{}\n> ",
                s.fill(
                    id::PLAY_ILLEGAL,
                    &values.each_ref().map(|(k, v)| (*k, v.as_str()))
                )
            );
        }
    }
}

/// Where a session reads moves from and writes to.
pub struct Console<R, W> {
    /// Lines typed or piped in.
    pub input: R,
    /// The terminal or pipe out.
    pub output: W,
}

/// How a session is set up.
pub struct Options {
    /// Colour the beads with ANSI escapes.
    pub colour: bool,
    /// Seed of the draws; game `n` of the saved machine draws from stream `n`.
    pub seed: u64,
    /// Write each line read back after its prompt, where the input is not a terminal
    /// (piped moves), so that the transcript reads as the game went.
    pub echo: bool,
}

/// Plays games against a person reading `input` and writing to `output`, until they
/// decline another game or the input ends between games; `save` is called after each
/// game with the machine as it now is. Returns the machine at the end.
pub fn session<G: Notation, R: BufRead, W: Write>(
    game: &G,
    kit: &Kit,
    setup: &Setup<G>,
    saved: Saved,
    options: &Options,
    console: Console<R, W>,
    mut save: impl FnMut(&Saved) -> Result<(), Error>,
) -> Result<Saved, Error> {
    let machine = &setup.machine;
    let Console { input, output } = console;
    let out = RefCell::new(output);
    let write = |text: &str| write_out(&out, text);
    write(&greeting(game, kit, setup))?;
    let turn = Cell::new(0);
    let mut me = Learner::with_beads(machine, saved.beads.clone());
    let mut now = saved;
    let mut human = Human {
        game,
        kit,
        input,
        out: &out,
        turn: &turn,
        echo: options.echo,
    };
    loop {
        turn.set(0);
        let before = me.beads.clone();
        let mut rng = rng_for(options.seed, now.games);
        // The watcher cannot return an error: keep the first, report it after the game.
        let mut failed = None;
        let played = play_game(&setup.tree, &mut me, &mut human, &mut rng, |t| {
            if let Turn::Machine { node, draw } = t {
                turn.set(turn.get() + 1);
                let text = narrate(
                    game,
                    kit,
                    setup,
                    &before,
                    node,
                    draw,
                    turn.get(),
                    options.colour,
                );
                if let (None, Err(e)) = (&failed, write(&text)) {
                    failed = Some(e);
                }
            }
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        write(&game_over(game, kit, setup, &played, &before, &me.beads))?;
        keep_game(&mut now, played.end, &before, &me.beads);
        save(&now)?;
        if !another_game(kit, &mut human.input, options.echo, write)? {
            write("\n")?;
            return Ok(now);
        }
    }
}

/// Writes `text` to the session's output at once: a person reads it before typing.
fn write_out<W: Write>(out: &RefCell<W>, text: &str) -> Result<(), Error> {
    let mut out = out.borrow_mut();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(io_error)
}

/// The session's first line: the kit, the machine's rule, and who moves first; then
/// what the boards and moves mean where the game's notation needs it.
fn greeting<G: Notation>(game: &G, kit: &Kit, setup: &Setup<G>) -> String {
    let machine = &setup.machine;
    let intro = match machine.side {
        matchbox_engine::game::Side::First => id::PLAY_YOU_SECOND,
        matchbox_engine::game::Side::Second => id::PLAY_YOU_FIRST,
    };
    let s = strings(kit.language);
    let mut text = s.fill(
        intro,
        &[
            ("name", &kit.name),
            ("rule", &Words::of(kit).rule(machine.rule)),
        ],
    );
    text.push('\n');
    if let Some(notation) = game.explain_notation(s) {
        text.push_str(&notation);
        text.push('\n');
    }
    text
}

/// The end of a game in words: the last board, who won and why, and what the rule
/// changed from the beads `before` to those `after`.
fn game_over<G: Notation>(
    game: &G,
    kit: &Kit,
    setup: &Setup<G>,
    played: &Played,
    before: &Beads,
    after: &Beads,
) -> String {
    let last = &setup.tree.positions[played.last as usize];
    // The reason is said of whoever made the last move, which is not always the winner
    // (in Marienbad, whoever takes the last stone loses).
    let ending = game.end_reason(last);
    let why = if game.to_move(last) == setup.machine.side {
        ending.you
    } else {
        ending.machine
    };
    let s = strings(kit.language);
    let why = s.get(why);
    let key = match played.end {
        End::Won => id::PLAY_WON,
        End::Drew => id::PLAY_DREW,
        End::Lost => id::PLAY_LOST,
        End::Resigned => id::PLAY_RESIGNED,
    };
    format!(
        "\n{}{}\n{}",
        board_text(game, kit, last),
        s.fill(key, &[("why", why)]),
        changes(game, kit, setup, before, after)
    )
}

/// Keeps a game played in `now`: its end on the score with the beads the rule added or
/// took, and the beads `after` it (the step before it kept for undo).
fn keep_game(now: &mut Saved, end: End, before: &Beads, after: &Beads) {
    let total = |b: &Beads| i64::from(b.counts().iter().sum::<u32>());
    now.remember();
    now.record(end, Some(total(after) - total(before)));
    now.beads = after.clone();
}

/// Asks whether to play another game until the answer is yes or no; the input ending
/// is a no, said as such.
fn another_game<R: BufRead>(
    kit: &Kit,
    input: &mut R,
    echo_input: bool,
    write: impl Fn(&str) -> Result<(), Error>,
) -> Result<bool, Error> {
    let s = strings(kit.language);
    write(&format!("\n{}\n> ", s.get(id::PLAY_AGAIN)))?;
    // The kit's words for yes and no, and the English ones too.
    let answers = |key: Id, english: &'static [&'static str]| {
        let mut words: Vec<String> = s.get(key).split('|').map(normalise).collect();
        words.extend(english.iter().map(|w| w.to_string()));
        words
    };
    let (yes, no) = (
        answers(id::PLAY_YES, &["y", "yes"]),
        answers(id::PLAY_NO, &["n", "no"]),
    );
    loop {
        let Some(answer) = read_line(input)? else {
            // Said, so that a piped or closed input does not end the session in silence.
            write(&format!("\n{}\n", s.get(id::PLAY_NO_ANSWER)))?;
            return Ok(false);
        };
        if echo_input {
            write(&format!("{}\n", echo(&answer)))?;
        }
        let answer_words = normalise(&answer);
        if yes.contains(&answer_words) {
            return Ok(true);
        }
        if no.contains(&answer_words) {
            return Ok(false);
        }
        write(&format!(
            "{}\n> ",
            s.fill(id::PLAY_YES_OR_NO, &[("answer", &echo(&answer))])
        ))?;
    }
}

/// The machine's turn in words: the board, the box, its beads, the bead drawn and the move.
#[allow(clippy::too_many_arguments)]
fn narrate<G: Notation>(
    game: &G,
    kit: &Kit,
    setup: &Setup<G>,
    beads: &Beads,
    node: Node,
    draw: Draw,
    turn: u32,
    coloured: bool,
) -> String {
    let tree = &setup.tree;
    let s = strings(kit.language);
    let position = &tree.positions[node as usize];
    let say = |mv| game.say_move(position, mv, s);
    // What the machine did, said as a statement, not as the pupil's instruction.
    let played = |mv| game.say_machine_move(position, mv, s);
    let mut text = format!(
        "\n{}\n{}",
        turn_heading(kit, turn, true),
        board_text(game, kit, position)
    );
    let Some((b, symmetry)) = setup.set.locate(game, position) else {
        if let Draw::Forced { child } = draw
            && let Some(m) = tree.move_to(node, child)
        {
            text.push_str(&s.fill(id::PLAY_FORCED, &[("move", &played(m))]));
            text.push('\n');
        }
        return text;
    };
    let mbox = &setup.set.boxes[b];
    let back = game.inverse(symmetry);
    let box_id = mbox.id.to_string();
    let holds = match matchbox_report::label_turn(game, symmetry) {
        Some(turned) => s.fill(
            id::PLAY_BOX,
            &[("id", &box_id), ("symmetry", s.get(turned.said()))],
        ),
        None => s.fill(id::PLAY_BOX_PLAIN, &[("id", &box_id)]),
    };
    text.push_str(&holds);
    text.push('\n');
    let slots = setup.machine.slots(b as u32);
    // The colour names padded alike, so that the counts and moves stand in columns.
    let names = strings(kit.language);
    let widest = mbox
        .moves
        .iter()
        .map(|m| names.colour_name(&kit.palette[m.colour]).chars().count())
        .max()
        .unwrap_or(0);
    for (m, slot) in mbox.moves.iter().zip(slots) {
        let pad = widest - names.colour_name(&kit.palette[m.colour]).chars().count();
        text.push_str(&format!(
            "  {}{:pad$} ×{}  {}\n",
            bead(kit, m.colour, coloured),
            "",
            beads.count(slot),
            say(game.transform_move(m.mv, back))
        ));
    }
    match draw {
        Draw::Bead { slot, child, .. } => {
            let m = &mbox.moves[(slot - setup.machine.slots(b as u32).start) as usize];
            let key = if setup.machine.rule == Rule::Relay {
                id::PLAY_RELAY
            } else {
                id::PLAY_DRAWN
            };
            let mv = tree.move_to(node, child).map(played).unwrap_or_default();
            let values = [("bead", bead(kit, m.colour, coloured)), ("move", mv)];
            text.push_str(&s.fill(key, &values.each_ref().map(|(k, v)| (*k, v.as_str()))));
            text.push('\n');
        }
        Draw::Resign { .. } => {
            text.push_str(s.get(id::PLAY_RESIGNS));
            text.push('\n');
        }
        Draw::Forced { .. } => {}
    }
    text
}

/// What the rule changed, one line per move whose beads changed.
fn changes<G: Notation>(
    game: &G,
    kit: &Kit,
    setup: &Setup<G>,
    before: &Beads,
    after: &Beads,
) -> String {
    let machine = &setup.machine;
    let s = strings(kit.language);
    let mut text = String::new();
    for change in setup.changes(before, after) {
        let (mbox, m) = (change.matchbox, change.entry);
        let values = [
            ("id", mbox.id.to_string()),
            ("colour", s.colour_name(&kit.palette[m.colour])),
            ("move", game.say_move(&mbox.position, m.mv, s)),
            ("before", change.before.to_string()),
            ("after", change.after.to_string()),
        ];
        text.push_str("  ");
        text.push_str(&s.fill(
            id::PLAY_CHANGE,
            &values.each_ref().map(|(k, v)| (*k, v.as_str())),
        ));
        text.push('\n');
    }
    // The rule opens the line: `Rule gardner`, `Reguła Gardnera`.
    let rule = Words::of(kit).rule(machine.rule);
    let mut letters = rule.chars();
    let rule: String = letters
        .next()
        .into_iter()
        .flat_map(char::to_uppercase)
        .chain(letters)
        .collect();
    let rule = [("rule", rule.as_str())];
    if text.is_empty() {
        format!("{}\n", s.fill(id::PLAY_NO_CHANGE, &rule))
    } else {
        format!("{}\n{text}", s.fill(id::PLAY_CHANGED, &rule))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::i18n::Language;
    use matchbox_engine::kit::fixtures;
    use matchbox_engine::simulate::state::Settings;

    fn run(input: impl AsRef<[u8]>, colour: bool) -> (Result<Saved, Error>, String, u32) {
        run_in(Language::En, input, colour)
    }

    fn run_in(
        language: Language,
        input: impl AsRef<[u8]>,
        colour: bool,
    ) -> (Result<Saved, Error>, String, u32) {
        run_preset("bachet", language, input, colour)
    }

    fn run_preset(
        preset: &str,
        language: Language,
        input: impl AsRef<[u8]>,
        colour: bool,
    ) -> (Result<Saved, Error>, String, u32) {
        let (game, _) = fixtures::stones(preset);
        let yaml = format!("preset: {preset}\nlanguage: {}\n", language.code());
        let kit = Kit::from_yaml(&yaml, "kit.yaml").unwrap();
        let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
        let mut out = Vec::new();
        let mut saves = 0;
        let fresh = Saved::fresh(&setup.machine, Settings::of_kit(&kit, kit.rule));
        let options = Options {
            colour,
            seed: 4,
            echo: false,
        };
        let console = Console {
            input: input.as_ref(),
            output: &mut out,
        };
        let result = session(&game, &kit, &setup, fresh, &options, console, |_| {
            saves += 1;
            Ok(())
        });
        (result, String::from_utf8(out).unwrap(), saves)
    }

    #[test]
    fn colour_follows_the_flag_then_the_terminal_and_no_color() {
        assert!(use_colour(None, true, None));
        assert!(use_colour(None, true, Some("")));
        assert!(!use_colour(None, true, Some("1")));
        assert!(!use_colour(None, false, None));
        assert!(use_colour(Some(true), false, Some("1")));
        assert!(!use_colour(Some(false), true, None));
    }

    #[test]
    fn a_bad_move_is_refused_with_the_legal_ones_listed() {
        // Take 3 from 8 always leaves the machine 5; then keep taking 1 until the end.
        let input = "take 4\n3\n1\n1\n1\n1\n1\nn\n";
        let (result, out, saves) = run(input, false);
        let saved = result.unwrap();
        assert!(
            out.contains("“take 4” is not a legal move here. Your moves: 1) take 1, leave 7"),
            "{out}"
        );
        assert!(out.contains("Box 3"), "{out}");
        // The colour names padded into a column: the counts stand one under another.
        assert!(out.contains("● red    ×1  take 1"), "{out}");
        assert!(out.contains("● blue   ×1  take 2"), "{out}");
        assert!(!out.contains('\x1b'));
        assert_eq!((saved.games, saves), (1, 1));
        // The game joins the score, with the beads the rule changed, for `serve` to show.
        assert_eq!(saved.history.games, [(End::Won, Some(0))], "{out}");
        assert!(
            out.contains("The punish-only rule: no beads change"),
            "{out}"
        );
    }

    #[test]
    fn odd_input_is_not_a_move_and_is_never_echoed_raw() {
        let mut input = b"\xff\xfe take\n\x1b[2J\x1b]0;title\x07\n".to_vec();
        input.extend(vec![b'9'; 10_000_000]);
        input.extend(b"\n3\n1\n1\n1\n1\n1\nmaybe\nno\n");
        let (result, out, _) = run(&input, false);
        assert_eq!(result.unwrap().games, 1, "{out}");
        assert!(!out.contains('\x1b') && !out.contains('\x07'), "{out}");
        assert_eq!(out.matches("is not a legal move here").count(), 3, "{out}");
        assert!(
            out.contains(&format!("“{}…”", "9".repeat(ECHO_CHARS))),
            "{out}"
        );
        assert!(out.len() < 20_000, "a huge line is not echoed whole");
        assert!(
            out.contains("“maybe” is not an answer. Please answer y (yes) or n (no)."),
            "{out}"
        );
    }

    #[test]
    fn the_board_draws_pawns_in_the_kits_language_letters_and_says_which_is_which() {
        let (game, _) = fixtures::pawns("hexapawn");
        for (language, pieces, not) in [
            (Language::En, ['W', 'B'], ['C', 'Ч']),
            (Language::Pl, ['B', 'C'], ['W', 'Ч']),
            (Language::Ru, ['Б', 'Ч'], ['W', 'B']),
        ] {
            let yaml = format!("preset: hexapawn\nlanguage: {}\n", language.code());
            let kit = Kit::from_yaml(&yaml, "kit.yaml").unwrap();
            let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
            let fresh = Saved::fresh(&setup.machine, Settings::of_kit(&kit, kit.rule));
            let mut out = Vec::new();
            let console = Console {
                input: "1\n1\n1\n1\n1\nn\nn\nn\nn\n".as_bytes(),
                output: &mut out,
            };
            let options = Options {
                colour: false,
                seed: 4,
                echo: false,
            };
            let result = session(&game, &kit, &setup, fresh, &options, console, |_| Ok(()));
            let out = String::from_utf8(out).unwrap();
            assert_eq!(result.unwrap().games, 1, "{out}");
            // The board's rows: indented, squares one space apart.
            let board: String = out
                .lines()
                .filter(|l| l.starts_with("    ") && l.trim().chars().nth(1) == Some(' '))
                .collect();
            assert!(pieces.iter().all(|p| board.contains(*p)), "{out}");
            assert!(!not.iter().any(|p| board.contains(*p)), "{out}");
            // Which letter is which, and what the moves mean, said once before the game.
            let before_the_board = out.split("\n    ").next().unwrap();
            let [white, black] = pieces.map(String::from);
            assert!(
                before_the_board.contains(&format!("{white} "))
                    && before_the_board.contains(&format!("{black} "))
                    && before_the_board.contains("a3xb2"),
                "{out}"
            );
            assert_eq!(out.matches("a3xb2:").count(), 1, "{out}");
        }
    }

    #[test]
    fn a_polish_or_russian_game_prints_no_english() {
        // The kit's own words are typed: `weź 3`, `возьмите 3`; then the numbers.
        for (language, first, no) in [
            (Language::Pl, "weź 3", "nie"),
            (Language::Ru, "возьмите 3", "нет"),
        ] {
            let input = format!("{first}\nxyz\n1\n1\n1\n1\n1\nmaybe\n{no}\n");
            let (result, out, _) = run_in(language, input, false);
            assert_eq!(result.unwrap().games, 1, "{out}");
            // No word of the English strings that the kit's own strings do not use too
            // (the rule's kit.yaml name is printed as it is in every language).
            let words = |text: &str| -> Vec<String> {
                text.split(|c: char| !c.is_alphabetic())
                    .filter(|w| w.chars().count() > 2)
                    .map(str::to_lowercase)
                    .collect()
            };
            let own: Vec<String> = strings(language)
                .entries()
                .flat_map(|(_, text)| words(text))
                .collect();
            let english = strings(Language::En);
            let printed = words(&out);
            let found: Vec<String> = english
                .entries()
                .flat_map(|(_, text)| words(text))
                .filter(|w| !own.contains(w) && w != "maybe" && printed.contains(w))
                .filter(|w| {
                    matchbox_engine::rule::Rule::ALL
                        .iter()
                        .all(|r| r.name() != w)
                })
                .collect();
            assert!(found.is_empty(), "{language:?}: {found:?}\n{out}");
            // The labels count the machine's moves: so does the game.
            assert!(!out.contains(" 2:") && out.contains(" I"), "{out}");
        }
    }

    #[test]
    fn the_machines_move_is_a_statement_and_the_winner_is_named_once() {
        // Always the first move listed, and another game, twenty times: both sides win.
        // A yes in each language (the others are not moves); the last game is ended by
        // moves enough for any, then declined.
        let input = format!(
            "{}{}n\n",
            "1\n1\n1\n1\n1\n1\n1\n1\nt\nд\ny\n".repeat(20),
            "1\n".repeat(40)
        );
        for (preset, language, statement, won, lost) in [
            (
                "bachet",
                Language::Pl,
                ". Maszyna bierze ",
                "Wygrała maszyna: wzięła ostatni kamyk.",
                "Wygrał przeciwnik: wziął ostatni kamyk.",
            ),
            (
                "bachet",
                Language::Ru,
                ". Ход машины: берёт ",
                "Машина выиграла: взяла последний камешек.",
                "Вы выиграли: взяли последний камешек.",
            ),
            (
                "bachet",
                Language::En,
                ". The machine takes ",
                "The machine won by taking the last stone.",
                "You won by taking the last stone.",
            ),
            // Marienbad's last stone loses: its taker is named after the winner.
            (
                "marienbad",
                Language::En,
                ". The machine takes ",
                "The machine won because you took the last stone.",
                "You won because the machine took the last stone.",
            ),
        ] {
            let (result, out, _) = run_preset(preset, language, &input, false);
            assert!(result.unwrap().games > 1, "{out}");
            assert!(out.contains(statement), "{out}");
            assert!(out.contains(won) && out.contains(lost), "{out}");
            // The machine's moves are not the pupil's orders.
            assert!(
                !out.contains(". Ruch: weź") && !out.contains("возьмите 1."),
                "{out}"
            );
            for line in out.lines() {
                assert!(line.matches("przeciwnik").count() <= 1, "{line}");
            }
        }
    }

    #[test]
    fn beads_are_coloured_when_asked() {
        let (_, out, _) = run("3\n1\n1\n1\n1\n1\n", true);
        assert!(out.contains("\x1b[38;2;215;38;30m●\x1b[0m red"), "{out}");
    }

    #[test]
    fn the_input_ending_at_the_question_ends_the_session_in_words() {
        // One game of first-listed moves, then nothing: no game is lost, and it is said.
        let (result, out, saves) = run("1\n".repeat(8), false);
        assert_eq!(result.unwrap().games, 1, "{out}");
        assert!(
            out.trim_end()
                .ends_with("No answer: that was the last game."),
            "{out}"
        );
        assert!(saves > 0, "{out}");
    }

    #[test]
    fn the_input_ending_mid_game_is_an_input_error() {
        let (result, _, saves) = run("1\n", false);
        assert!(matches!(result, Err(Error::Input(m)) if m.id == id::PLAY_INPUT_ENDED));
        assert_eq!(saves, 0);
    }
}
