//! Enumeration of the machine's boxes: every position reachable by legal play with the
//! machine to move, merged under the board's symmetries, with its move numbers, merged
//! moves, bead colours and starting beads.

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Serialize;

use crate::game::{Descriptor, Notation, Rules, Side, Symmetry, canonical, notation};
use crate::i18n::{Id, Language, Messages, Value, id, strings};
use crate::{Command, Error, Message};
use crate::{Kit, Numerals, Tags};

/// The most labels a kit prints (octapawn has 2,791; a kit for a 7 x 4 pawn board would
/// have 241,314, far past any classroom and any printer).
pub const MAX_LABELS: usize = 20_000;

/// How many of the machine's moves `move_colours` can tell apart: one edge colour and
/// pattern each.
pub const MOVE_EDGE_KINDS: usize = 6;

/// More positions than this and enumeration stops: no class builds such a kit.
pub const POSITION_BUDGET: usize = 1_000_000;

/// One move in a box: an arrow on the label and a colour of bead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxMove<M> {
    /// The move, in the label's orientation.
    pub mv: M,
    /// Index of its bead colour in the kit's palette.
    pub colour: usize,
    /// Beads of this colour the box starts with.
    pub beads: u32,
}

/// One matchbox: a position the machine can face, as its label shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchBox<P, M> {
    /// Box id, from 1, in printing order.
    pub id: usize,
    /// The position, in the orientation drawn on the label.
    pub position: P,
    /// Every move number (1-based, both sides counted) at which the position can arise.
    pub move_numbers: Vec<u32>,
    /// The machine's moves, one per arrow, symmetric duplicates merged.
    pub moves: Vec<BoxMove<M>>,
}

impl<P, M> MatchBox<P, M> {
    /// Beads in the box at the start.
    pub fn beads(&self) -> u32 {
        self.moves.iter().map(|m| m.beads).sum()
    }
}

/// Why a position has no box, for `matchbox find`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoBox {
    /// The game is already over in it.
    GameOver,
    /// It cannot arise from the start by legal play.
    Unreachable,
    /// It arises only with the other side to move.
    NotMachinesTurn,
    /// The machine has one legal move there and the kit skips such positions.
    Forced,
}

impl NoBox {
    /// The sentence for the pupil (`cli.find.*`).
    pub fn id(self) -> Id {
        match self {
            NoBox::GameOver => id::CLI_FIND_GAME_OVER,
            NoBox::Unreachable => id::CLI_FIND_UNREACHABLE,
            NoBox::NotMachinesTurn => id::CLI_FIND_NOT_MACHINES_TURN,
            NoBox::Forced => id::CLI_FIND_FORCED,
        }
    }
}

/// The kit's boxes, with what is needed to find the box for any position.
pub struct BoxSet<G: Rules> {
    /// The boxes in id order.
    pub boxes: Vec<MatchBox<G::Position, G::Move>>,
    /// Which side the boxes play.
    pub machine: Side,
    /// How many symmetries are used to merge positions (1 when `symmetry: false`).
    pub symmetries: usize,
    /// Canonical position -> index into `boxes`.
    index: FxHashMap<G::Position, usize>,
    /// Every canonical position reachable from the start, with or without a box.
    reachable: FxHashSet<G::Position>,
}

/// Totals of a box set, as `boxes` prints them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Number of boxes.
    pub boxes: usize,
    /// Beads in all boxes.
    pub beads: u32,
    /// Move number -> boxes whose position can arise at that move.
    pub per_move: std::collections::BTreeMap<u32, usize>,
    /// The beads of each colour some box uses, in palette order (JSON: name -> beads).
    #[serde(serialize_with = "colours_as_map")]
    pub colours: Vec<ColourBeads>,
}

/// The beads of one colour in all boxes at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourBeads {
    /// Index of the colour in the kit's palette.
    pub colour: usize,
    /// The colour's name in the palette.
    pub name: String,
    /// Beads of this colour.
    pub beads: u32,
}

fn colours_as_map<S: serde::Serializer>(colours: &[ColourBeads], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(colours.iter().map(|c| (&c.name, c.beads)))
}

impl<G: Rules> BoxSet<G> {
    /// Enumerates the boxes of `kit` for `game`, and refuses a kit whose settings do not
    /// fit its boxes: no box at all, bead or wiring keys that name no box.
    pub fn build(game: &G, kit: &Kit) -> Result<BoxSet<G>, Error>
    where
        G: Descriptor,
    {
        let set = BoxSet::enumerate(game, kit)?;
        set.check_keys(game, kit)?;
        Ok(set)
    }

    /// Enumerates the boxes without [`BoxSet::build`]'s checks of the kit's keys: for a
    /// machine on the other side of the kit, whose move numbers differ.
    pub fn enumerate(game: &G, kit: &Kit) -> Result<BoxSet<G>, Error> {
        let symmetries = if kit.symmetry {
            game.symmetry_count()
        } else {
            1
        };
        let graph = explore_positions(game, kit, symmetries)?;
        let depths = graph.move_numbers();

        let mut boxes = Vec::new();
        let mut index = FxHashMap::default();
        let mut legal = Vec::new();
        // Discovery is breadth first, so this order is by earliest move number.
        for (i, position) in graph.positions.iter().enumerate() {
            let Some(moves) = box_moves(game, kit, position, &depths[i], symmetries, &mut legal)?
            else {
                continue;
            };
            index.insert(position.clone(), boxes.len());
            boxes.push(MatchBox {
                id: boxes.len() + 1,
                position: position.clone(),
                move_numbers: depths[i].clone(),
                moves,
            });
        }
        Ok(BoxSet {
            boxes,
            machine: kit.machine,
            symmetries,
            index,
            reachable: graph.positions.into_iter().collect(),
        })
    }

    /// Refuses a kit of more boxes than [`MAX_LABELS`]: `kit` and `verify` print or check
    /// its labels, while `boxes` still lists them.
    pub fn check_label_count(&self, kit: &Kit) -> Result<(), Error> {
        if self.boxes.len() > MAX_LABELS {
            let say = kit.places.messages;
            return Err(kit.places.error(
                &kit.game_keys(),
                say.message(
                    id::PROBLEM_TOO_MANY_LABELS,
                    &[
                        (
                            "boxes",
                            &say.count(self.boxes.len() as i64, id::PROBLEM_COUNT_BOX),
                        ),
                        ("most", &say.number(MAX_LABELS as i64)),
                    ],
                )
                .hint(Command::Boxes, id::PROBLEM_HINT_STILL_LISTS),
            ));
        }
        Ok(())
    }

    /// Refuses a kit whose boxes make no machine, or whose `beads` and `allowed` keys
    /// name move numbers or positions that no box has.
    fn check_keys(&self, game: &G, kit: &Kit) -> Result<(), Error>
    where
        G: Descriptor,
    {
        let say = kit.places.messages;
        if self.boxes.is_empty() {
            return Err(kit.places.error(
                &choice_keys(kit),
                say.message(id::PROBLEM_NEVER_MOVES, &[("side", &kit.machine.said(say))]),
            ));
        }
        let mut numbers: Vec<u32> = self
            .boxes
            .iter()
            .flat_map(|b| b.move_numbers.iter().copied())
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        if let crate::rule::BeadSchedule::ByMoveNumber(map) = &kit.beads
            && let Some(stray) = map.keys().find(|k| numbers.binary_search(k).is_err())
        {
            let mut shown: Vec<String> = numbers.iter().take(12).map(u32::to_string).collect();
            if numbers.len() > 12 {
                shown.push("…".into());
            }
            return Err(kit.places.error(
                &["beads"],
                say.message(
                    id::PROBLEM_BEADS_STRAY_MOVE,
                    &[
                        ("key", "beads"),
                        ("move", &say.number(*stray)),
                        ("moves", &shown.join(", ")),
                    ],
                ),
            ));
        }
        if kit.move_colours {
            let moves = self
                .boxes
                .iter()
                .filter_map(|b| b.move_numbers.first())
                .map(|&m| machine_move(m, kit.machine))
                .max()
                .unwrap_or(0);
            if moves as usize > MOVE_EDGE_KINDS {
                return Err(kit.places.error(
                    &["move_colours", "preset"],
                    say.message(
                        id::PROBLEM_MOVE_COLOURS_TOO_MANY,
                        &[
                            ("key", "move_colours"),
                            ("moves", &say.count(moves, id::PROBLEM_COUNT_DIFFERENT_MOVE)),
                            ("most", &say.number(MOVE_EDGE_KINDS as i64)),
                        ],
                    ),
                ));
            }
        }
        let faced: Vec<G::Position> = self.boxes.iter().map(|b| b.position.clone()).collect();
        game.check_boxes(&kit.machine_settings(), &faced)?;
        Ok(())
    }

    /// The box for a position the machine faces, and the symmetry that takes the position
    /// onto the label (apply its inverse to the label's moves to play them).
    pub fn locate(&self, game: &G, position: &G::Position) -> Option<(usize, Symmetry)> {
        let (canon, symmetry) = canonical(game, position, self.symmetries);
        self.index.get(&canon).map(|&i| (i, symmetry))
    }

    /// The box for a position, or why there is none.
    pub fn find(&self, game: &G, position: &G::Position) -> Result<(usize, Symmetry), NoBox> {
        if let Some(found) = self.locate(game, position) {
            return Ok(found);
        }
        let (canon, _) = canonical(game, position, self.symmetries);
        if game.outcome(position).is_some() {
            return Err(NoBox::GameOver);
        }
        if !self.reachable.contains(&canon) {
            return Err(NoBox::Unreachable);
        }
        if game.to_move(position) != self.machine {
            return Err(NoBox::NotMachinesTurn);
        }
        Err(NoBox::Forced)
    }

    /// The box for a position written in the game's text notation, or a message saying
    /// why there is none, in `language`. Where the board does not tell whose turn it is, the machine's
    /// turn is assumed, and the opponent's is tried to explain a miss.
    pub fn find_notation(
        &self,
        game: &G,
        text: &str,
        language: Language,
    ) -> Result<(usize, Symmetry), Error>
    where
        G: Notation,
    {
        let say = Messages(language);
        let refuse = |why: Message| -> Error {
            say.message(id::CLI_FIND_POSITION, &[("text", text)])
                .with("why", why)
                .into()
        };
        // A board as `boxes` draws it in the kit's language (a Polish `C`) is read in the
        // notation's letters.
        let words = strings(language);
        let letters = notation::typed_letters(game.pieces(), words, text);
        let parse = |side| {
            game.parse_position(&letters, side).map_err(|mut said| {
                // The example board of the message, in the letters the kit reads.
                for (_, value) in said.values.iter_mut().filter(|(n, _)| *n == "example") {
                    if let Value::Text(board) = value {
                        *board = notation::shown_letters(game.pieces(), words, board);
                    }
                }
                refuse(say.said(&said))
            })
        };
        let position = parse(self.machine)?;
        let reason = match self.find(game, &position) {
            Ok(found) => return Ok(found),
            Err(NoBox::Unreachable) if self.is_reachable(game, &parse(self.machine.other())?) => {
                NoBox::NotMachinesTurn
            }
            Err(reason) => reason,
        };
        Err(refuse(say.message(reason.id(), &[])))
    }

    /// Whether a canonical position can arise from the start.
    pub fn is_reachable(&self, game: &G, position: &G::Position) -> bool {
        self.reachable
            .contains(&canonical(game, position, self.symmetries).0)
    }

    /// The totals: boxes, beads, boxes per move number, beads per colour.
    pub fn summary(&self, kit: &Kit) -> Summary {
        let mut per_move = std::collections::BTreeMap::<u32, usize>::new();
        let mut per_colour = vec![0u32; kit.palette.len()];
        for b in &self.boxes {
            for n in &b.move_numbers {
                *per_move.entry(*n).or_default() += 1;
            }
            for m in &b.moves {
                per_colour[m.colour] += m.beads;
            }
        }
        let colours = kit
            .palette
            .iter()
            .zip(per_colour)
            .enumerate()
            .filter(|(_, (_, beads))| *beads > 0)
            .map(|(colour, (c, beads))| ColourBeads {
                colour,
                name: c.name.clone(),
                beads,
            })
            .collect();
        Summary {
            boxes: self.boxes.len(),
            beads: self.boxes.iter().map(MatchBox::beads).sum(),
            per_move,
            colours,
        }
    }
}

/// The legal moves with those that a symmetry fixing the position maps onto each other
/// merged into one (the smallest), in the order the game lists them.
pub fn merged_moves<G: Rules>(
    game: &G,
    position: &G::Position,
    legal: &[G::Move],
    symmetries: usize,
) -> Vec<G::Move> {
    let fixing: Vec<Symmetry> = (1..symmetries)
        .filter(|&s| game.transform(position, s) == *position)
        .collect();
    let mut out: Vec<G::Move> = Vec::with_capacity(legal.len());
    for &mv in legal {
        let representative = fixing
            .iter()
            .map(|&s| game.transform_move(mv, s))
            .fold(mv, Ord::min);
        if !out.contains(&representative) {
            out.push(representative);
        }
    }
    out
}

/// What stands between two move numbers of a tag: a comma; a dash stands only between
/// the ends of a run of moves in a row (II–IV), which it includes whole.
pub const TAG_SEPARATOR: &str = ", ";

/// What stands between the ends of a run of moves in a row: an en dash.
pub const TAG_RANGE: &str = "–";

/// The tag printed under a label: the move numbers, or the machine's own move counts,
/// as a list (II, III, IV; 2, 4, 6).
pub fn tag(move_numbers: &[u32], machine: Side, tags: Tags, numerals: Numerals) -> String {
    written_tag(move_numbers, machine, tags, numerals, false)
}

/// [`tag`] with every run of three or more of the machine's moves in a row written as
/// its ends around a dash, as an editor writes pages: II–IV, CLXVII–D. Where the numbers
/// count the game's moves, a run goes up by two (4–16 is 4, 6, 8 … 16), which the
/// label says in words (`label.tag_even`, `label.tag_odd`). The tag of a box that many
/// moves reach, short enough to print on a label.
pub fn short_tag(move_numbers: &[u32], machine: Side, tags: Tags, numerals: Numerals) -> String {
    written_tag(move_numbers, machine, tags, numerals, true)
}

/// [`tag`], its runs shortened when `shorten`.
fn written_tag(
    move_numbers: &[u32],
    machine: Side,
    tags: Tags,
    numerals: Numerals,
    shorten: bool,
) -> String {
    let written = |&n: &u32| {
        let n = match tags {
            Tags::GameMove => n,
            Tags::MachineMove => machine_move(n, machine),
        };
        match numerals {
            Numerals::Arabic => n.to_string(),
            Numerals::Roman => roman(n),
        }
    };
    // The machine moves every other move of the game: its next move is two on.
    let in_a_row =
        |a: &u32, b: &u32| shorten && machine_move(*b, machine) == machine_move(*a, machine) + 1;
    let mut parts = Vec::new();
    for run in move_numbers.chunk_by(in_a_row) {
        match run {
            [first, _, .., last] => {
                parts.push(format!("{}{TAG_RANGE}{}", written(first), written(last)));
            }
            _ => parts.extend(run.iter().map(written)),
        }
    }
    parts.join(TAG_SEPARATOR)
}

/// Which of the machine's own moves a move number of the game is (1 = its first).
pub fn machine_move(move_number: u32, machine: Side) -> u32 {
    match machine {
        Side::First => move_number.div_ceil(2),
        Side::Second => move_number / 2,
    }
}

/// A number in Roman numerals (1 to 3999; larger numbers stay arabic).
pub fn roman(mut n: u32) -> String {
    if n == 0 || n >= 4000 {
        return n.to_string();
    }
    const TABLE: [(u32, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (value, letters) in TABLE {
        while n >= value {
            out.push_str(letters);
            n -= value;
        }
    }
    out
}

/// Every position of `game` reachable under `symmetries`, breadth first; refused when
/// there are too many, or when a box the machine faces needs more colours than the
/// palette has, as soon as that box is found rather than after a game of a million
/// positions is explored.
fn explore_positions<G: Rules>(
    game: &G,
    kit: &Kit,
    symmetries: usize,
) -> Result<Graph<G::Position>, Error> {
    let mut legal = Vec::new();
    Graph::explore(game, symmetries, |position| {
        if game.to_move(position) != kit.machine || game.outcome(position).is_some() {
            return Ok(());
        }
        legal.clear();
        game.legal_moves(position, &mut legal);
        let merged = merged_moves(game, position, &legal, symmetries);
        let wired = merged.into_iter().filter(|m| game.wired(position, *m));
        wired
            .enumerate()
            .try_for_each(|(rank, mv)| colour_of(game, kit, position, mv, rank).map(drop))
    })
    .map_err(|e| match e {
        Explored::TooLarge => kit.places.error(
            &kit.game_keys(),
            kit.places.messages.message(
                id::PROBLEM_TOO_MANY_POSITIONS,
                &[
                    ("game", G::NAME),
                    ("most", &kit.places.messages.number(POSITION_BUDGET as i64)),
                ],
            ),
        ),
        Explored::Refused(e) => e,
    })
}

/// The moves of the box for `position`, faced at `move_numbers`, with their colours
/// and beads; `None` where the machine has no box: the opponent's turn, a finished game,
/// a forced move the kit leaves out. `legal` is room for the legal moves.
fn box_moves<G: Rules>(
    game: &G,
    kit: &Kit,
    position: &G::Position,
    move_numbers: &[u32],
    symmetries: usize,
    legal: &mut Vec<G::Move>,
) -> Result<Option<Vec<BoxMove<G::Move>>>, Error> {
    if game.to_move(position) != kit.machine || game.outcome(position).is_some() {
        return Ok(None);
    }
    legal.clear();
    game.legal_moves(position, legal);
    if kit.skip_forced && legal.len() == 1 {
        return Ok(None);
    }
    let merged = merged_moves(game, position, legal, symmetries);
    let wired = merged.into_iter().filter(|m| game.wired(position, *m));
    let first = move_numbers[0];
    let beads = kit.beads.beads_at(first).ok_or_else(|| {
        let say = kit.places.messages;
        kit.places.error(
            &["beads"],
            say.message(
                id::PROBLEM_BEADS_BEFORE_FIRST_BOX,
                &[("key", "beads"), ("move", &say.number(first))],
            ),
        )
    })?;
    let moves = wired.enumerate().map(|(rank, mv)| {
        let colour = colour_of(game, kit, position, mv, rank)?;
        Ok(BoxMove { mv, colour, beads })
    });
    moves.collect::<Result<_, Error>>().map(Some)
}

/// The bead colour of a box's move (its `rank` among the box's moves, unless the game
/// gives it a colour of its own), refused when the palette has too few colours.
fn colour_of<G: Rules>(
    game: &G,
    kit: &Kit,
    position: &G::Position,
    mv: G::Move,
    rank: usize,
) -> Result<usize, Error> {
    let colour = game.colour_slot(position, mv).unwrap_or(rank);
    if colour >= kit.palette.len() {
        let keys: Vec<&str> = ["palette"].into_iter().chain(kit.game_keys()).collect();
        let say = kit.places.messages;
        return Err(kit.places.error(
            &keys,
            say.message(
                id::PROBLEM_PALETTE_TOO_SHORT,
                &[
                    (
                        "needed",
                        &say.count(colour as i64 + 1, id::PROBLEM_COUNT_BEAD_COLOUR),
                    ),
                    ("has", &say.number(kit.palette.len() as i64)),
                ],
            ),
        ));
    }
    Ok(colour)
}

/// Why [`Graph::explore`] stopped.
enum Explored {
    /// The game has more positions than are ever enumerated.
    TooLarge,
    /// The check of a position refused it.
    Refused(Error),
}

/// The game tree folded into a graph of canonical positions.
struct Graph<P> {
    /// Positions in breadth-first order of discovery; index 0 is the start.
    positions: Vec<P>,
    /// Successors of each position, as indices (compressed rows).
    succ_start: Vec<u32>,
    succ: Vec<u32>,
}

impl<P: Clone + Eq + std::hash::Hash> Graph<P> {
    /// Explores every position reachable from the start, passing each, once, to `check`.
    fn explore<G: Rules<Position = P>>(
        game: &G,
        symmetries: usize,
        mut check: impl FnMut(&P) -> Result<(), Error>,
    ) -> Result<Graph<P>, Explored> {
        let start = canonical(game, &game.start(), symmetries).0;
        check(&start).map_err(Explored::Refused)?;
        let mut ids: FxHashMap<P, u32> = FxHashMap::default();
        ids.insert(start.clone(), 0);
        let mut positions = vec![start];
        let mut succ_start = vec![0u32];
        let mut succ = Vec::new();
        let mut moves = Vec::new();
        let mut next = 0;
        while next < positions.len() {
            let position = positions[next].clone();
            moves.clear();
            game.legal_moves(&position, &mut moves);
            let first = succ.len();
            for &mv in &moves {
                let child = canonical(game, &game.play(&position, mv), symmetries).0;
                let id = match ids.get(&child) {
                    Some(&id) => id,
                    None => {
                        if positions.len() >= POSITION_BUDGET {
                            return Err(Explored::TooLarge);
                        }
                        check(&child).map_err(Explored::Refused)?;
                        let id = positions.len() as u32;
                        ids.insert(child.clone(), id);
                        positions.push(child);
                        id
                    }
                };
                if !succ[first..].contains(&id) {
                    succ.push(id);
                }
            }
            succ_start.push(succ.len() as u32);
            next += 1;
        }
        Ok(Graph {
            positions,
            succ_start,
            succ,
        })
    }

    fn successors(&self, i: usize) -> &[u32] {
        &self.succ[self.succ_start[i] as usize..self.succ_start[i + 1] as usize]
    }

    /// For each position, the sorted move numbers at which it can be the position to
    /// move from: one more than the length of some path from the start. The games are
    /// acyclic, so path lengths propagate in topological order as bit sets.
    fn move_numbers(&self) -> Vec<Vec<u32>> {
        let n = self.positions.len();
        let order = topological_order(n, &self.succ, |i| self.successors(i));
        // Longest path first, to size the bit sets.
        let mut longest = vec![0usize; n];
        for &i in &order {
            for &s in self.successors(i) {
                longest[s as usize] = longest[s as usize].max(longest[i] + 1);
            }
        }
        let words = longest.iter().max().copied().unwrap_or(0) / 64 + 1;
        let mut bits = vec![0u64; n * words];
        bits[0] = 1;
        for &i in &order {
            for &s in self.successors(i) {
                let (s, i) = (s as usize, i);
                for w in 0..words {
                    // Depth d at i gives depth d + 1 at s: shift left by one across words.
                    let carry = if w == 0 {
                        0
                    } else {
                        bits[i * words + w - 1] >> 63
                    };
                    bits[s * words + w] |= (bits[i * words + w] << 1) | carry;
                }
            }
        }
        (0..n)
            .map(|i| {
                (0..words * 64)
                    .filter(|d| bits[i * words + d / 64] & (1u64 << (d % 64)) != 0)
                    .map(|d| d as u32 + 1)
                    .collect()
            })
            .collect()
    }
}

/// The nodes of an acyclic graph reachable from node 0, each before all its successors
/// (Kahn's order): `edges` lists every edge's target once, `successors(i)` those of `i`.
pub fn topological_order<'a>(
    n: usize,
    edges: &[u32],
    successors: impl Fn(usize) -> &'a [u32],
) -> Vec<usize> {
    let mut indegree = vec![0u32; n];
    for &s in edges {
        indegree[s as usize] += 1;
    }
    let mut order = Vec::with_capacity(n);
    order.push(0usize);
    let mut head = 0;
    while head < order.len() {
        let i = order[head];
        head += 1;
        for &s in successors(i) {
            indegree[s as usize] -= 1;
            if indegree[s as usize] == 0 {
                order.push(s as usize);
            }
        }
    }
    order
}

/// The keys that decide whether the machine ever has a choice to make: its side, the
/// game's own keys, the forced positions left out, the game itself.
fn choice_keys(kit: &Kit) -> Vec<&'static str> {
    ["machine"]
        .into_iter()
        .chain(kit.own_game_keys())
        .chain(["skip_forced", "game", "preset"])
        .collect()
}

/// The box set as the JSON object `matchbox boxes --json` prints.
pub fn boxes_json<G: Notation>(game: &G, kit: &Kit, set: &BoxSet<G>) -> serde_json::Value {
    let boxes: Vec<serde_json::Value> = set
        .boxes
        .iter()
        .map(|b| {
            serde_json::json!({
                "id": b.id,
                "move_numbers": b.move_numbers,
                "tag": tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals),
                "position": game.format_position(&b.position),
                "moves": b.moves.iter().map(|m| serde_json::json!({
                    "move": game.format_move(&b.position, m.mv),
                    "colour": kit.palette[m.colour].name,
                    "beads": m.beads,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({
        "name": kit.name,
        "game": kit.game,
        "machine": kit.machine,
        "symmetry": kit.symmetry,
        "skip_forced": kit.skip_forced,
        "summary": set.summary(kit),
        "boxes": boxes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GAMES;
    use crate::presets;

    #[test]
    fn a_kit_without_boxes_is_pointed_at_its_own_games_keys() {
        for preset in presets() {
            let kit = Kit::from_preset(preset.name).unwrap();
            let keys = choice_keys(&kit);
            for game in GAMES {
                let own = game.name == kit.game.name();
                for key in game.keys {
                    assert_eq!(keys.contains(key), own, "{} {key}", preset.name);
                }
            }
        }
        // Only keys of the game's are given: the mistake is at the first of them.
        let yaml = "game: nim\nheaps: [1]\ntake: [1]\nskip_forced: true\n";
        let kit = Kit::from_yaml(yaml, "kit.yaml").unwrap();
        let built = with_game!(&kit.game, |game| BoxSet::build(game, &kit).map(drop));
        let message = built.unwrap_err().to_string();
        assert!(
            message.starts_with("kit.yaml:3:7: the machine never moves"),
            "{message}"
        );
    }

    #[test]
    fn roman_numerals() {
        assert_eq!(roman(1), "I");
        assert_eq!(roman(4), "IV");
        assert_eq!(roman(9), "IX");
        assert_eq!(roman(14), "XIV");
        assert_eq!(roman(1994), "MCMXCIV");
    }

    #[test]
    fn machine_moves_count_from_one_for_either_side() {
        assert_eq!(machine_move(1, Side::First), 1);
        assert_eq!(machine_move(7, Side::First), 4);
        assert_eq!(machine_move(2, Side::Second), 1);
        assert_eq!(machine_move(8, Side::Second), 4);
        assert_eq!(
            tag(&[4, 6], Side::Second, Tags::MachineMove, Numerals::Roman),
            "II, III"
        );
    }

    #[test]
    fn a_tag_with_moves_not_in_a_row_is_a_list_never_a_range() {
        assert_eq!(
            tag(&[2, 4, 6], Side::Second, Tags::GameMove, Numerals::Arabic),
            "2, 4, 6"
        );
        assert_eq!(
            tag(&[4, 8], Side::Second, Tags::MachineMove, Numerals::Roman),
            "II, IV"
        );
    }

    #[test]
    fn a_short_tag_writes_three_or_more_moves_in_a_row_by_their_ends() {
        let many: Vec<u32> = (2..=12)
            .step_by(2)
            .chain([16, 18, 22, 26, 28, 30])
            .collect();
        assert_eq!(
            short_tag(&many, Side::Second, Tags::GameMove, Numerals::Arabic),
            "2–12, 16, 18, 22, 26–30"
        );
        assert_eq!(
            short_tag(&many, Side::Second, Tags::MachineMove, Numerals::Roman),
            "I–VI, VIII, IX, XI, XIII–XV"
        );
        assert_eq!(
            short_tag(&[4, 6], Side::Second, Tags::GameMove, Numerals::Arabic),
            "4, 6"
        );
    }
}
