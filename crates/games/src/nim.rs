//! Nim: take stones from heaps in turn. One heap is Bachet's game; heaps of 1, 3, 5 and 7
//! are the game of the film *Last Year at Marienbad*.
//!
//! A move takes one of the allowed counts (`take`, or any count when it is not given)
//! from one heap. With `last_stone: wins` whoever takes the last stone wins; with `loses`
//! they lose. A player who cannot take any allowed count has no move and loses.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{
    Bound, Claim, Descriptor, Ending, Field, Historic, KeyFields, MachineSettings, Notation,
    Orientation, Outcome, Rules, Side, Symmetry, as_in_the_articles, one_bead_each, written_keys,
};
use crate::Error;
use crate::i18n::{Id, Said, Strings, id};
use crate::rule::Rule;
use crate::settings::{KitText, Preset, settings_file};

/// The built-in kits of this game: Bachet's game (the matchbox machine and the relay
/// automaton) and Marienbad.
const PRESETS: &[Preset] = &[
    Preset {
        name: "bachet",
        about: "Bachet's game: 8 stones, take 1 to 3, last stone wins; 7 boxes, tags I to IV",
        yaml: "game: nim\nstones: 8\ntake: [1, 2, 3]\nlast_stone: wins\nmachine: second\nbeads: 1\nrule: gardner\ntags: machine-move\nnumerals: roman\n",
    },
    Preset {
        name: "bachet-relay",
        about: "the relay automaton for Bachet's game: only some moves wired (7: 1 or 3, 6: 1 or 2, 5: 1)",
        yaml: "game: nim\nstones: 8\ntake: [1, 2, 3]\nlast_stone: wins\nmachine: second\nbeads: 1\nrule: relay\ntags: machine-move\nnumerals: roman\nallowed: {7: [1, 3], 6: [1, 2], 5: [1]}\n",
    },
    Preset {
        name: "marienbad",
        about: "Marienbad: heaps of 1, 3, 5 and 7, take any number from one heap, last stone loses; the machine plays second",
        yaml: "game: nim\nheaps: [1, 3, 5, 7]\nlast_stone: loses\nmachine: second\nbeads: 1\nrule: gardner\n",
    },
];

/// The most heaps a kit may have: the symmetries are every order of the heaps.
pub const MAX_HEAPS: usize = 5;

/// The most stones in a heap.
const MAX_STONES: i64 = 1000;

/// Whether taking the last stone wins or loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LastStone {
    /// Whoever takes the last stone wins.
    Wins,
    /// Whoever takes the last stone loses.
    Loses,
}

settings_file! {
    /// The game's keys in kit.yaml.
    pub NimFile {
        stones: i64,
        heaps: Vec<i64>,
        take: Vec<i64>,
        last_stone: LastStone,
        allowed: BTreeMap<i64, Vec<i64>>,
    }
}

impl NimFile {
    /// The stones of each heap: `stones` (one heap) or `heaps`, not both; 8 stones in one
    /// heap when neither is given.
    fn heaps(&self, text: &KitText) -> Result<Vec<u16>, Error> {
        let say = text.messages();
        match (&self.stones, &self.heaps) {
            (Some(_), Some(h)) => Err(text.at(h, say.message(id::PROBLEM_STONES_AND_HEAPS, &[]))),
            (Some(stones), None) => Ok(vec![text.ranged(stones, "stones", 1, MAX_STONES)?]),
            (None, Some(h)) => {
                if h.value.is_empty() || h.value.len() > MAX_HEAPS {
                    return Err(text.at(
                        h,
                        say.message(
                            id::PROBLEM_HEAPS_COUNT,
                            &[
                                ("key", "heaps"),
                                ("most", &say.number(MAX_HEAPS as i64)),
                                ("found", &say.number(h.value.len() as i64)),
                            ],
                        ),
                    ));
                }
                stone_counts(text, h, id::PROBLEM_HEAP_RANGE)
            }
            (None, None) => Ok(vec![8]),
        }
    }

    /// The counts a player may take from `heaps`, refused when one is more than the
    /// largest heap holds.
    fn take(&self, text: &KitText, heaps: &[u16]) -> Result<Vec<u16>, Error> {
        let say = text.messages();
        let most = heaps.iter().copied().max().unwrap_or(1);
        let take = match &self.take {
            // One heap takes 1 to 3 by default, as Bachet's game; several take any count.
            None if heaps.len() == 1 => vec![1, 2, 3],
            None => Vec::new(),
            Some(t) if t.value.is_empty() => {
                return Err(text.at(t, say.message(id::PROBLEM_TAKE_EMPTY, &[])));
            }
            Some(t) => stone_counts(text, t, id::PROBLEM_TAKE_RANGE)?,
        };
        if let Some(&big) = take.iter().find(|&&n| n > most) {
            let problem = if heaps.len() == 1 {
                id::PROBLEM_TAKE_MORE_THAN_PILE
            } else {
                id::PROBLEM_TAKE_MORE_THAN_HEAPS
            };
            return Err(text.error(
                &["take", "stones", "heaps"],
                say.message(
                    problem,
                    &[
                        ("key", "take"),
                        ("count", &say.number(big)),
                        ("stones", &say.count(most, id::PROBLEM_COUNT_STONE)),
                    ],
                ),
            ));
        }
        Ok(take)
    }

    /// The relay wiring `allowed` gives `game`'s boxes (stones left -> counts), none when
    /// it gives none; refused when a preset's wiring meets keys that change its game, or
    /// a box is wired for a move the game does not have.
    fn wiring(&self, text: &KitText, game: &Nim) -> Result<BTreeMap<u16, Vec<u16>>, Error> {
        let say = text.messages();
        let mut wiring = BTreeMap::new();
        if self.allowed.is_some()
            && !text.places().gives("allowed")
            && let Some(changed) = ["stones", "heaps", "take", "last_stone"]
                .into_iter()
                .find(|k| text.places().gives(k))
        {
            // A preset's wiring was made for its own game.
            return Err(text.error(
                &[changed],
                say.message(id::PROBLEM_WIRING_OF_THE_PRESET, &[("key", changed)]),
            ));
        }
        let Some(a) = &self.allowed else {
            return Ok(wiring);
        };
        if game.several() {
            return Err(text.at(
                a,
                say.message(id::PROBLEM_WIRING_HEAPS, &[("key", "allowed")]),
            ));
        }
        let stones = game.stones();
        for (&at, moves) in &a.value {
            if at < 1 || at > i64::from(stones) {
                return Err(text.at(
                    a,
                    say.message(
                        id::PROBLEM_WIRING_STONES,
                        &[
                            ("key", "allowed"),
                            ("at", &say.number(at)),
                            ("stones", &say.count(at, id::PROBLEM_COUNT_STONE)),
                            ("start", &say.count(stones, id::PROBLEM_COUNT_STONE)),
                        ],
                    ),
                ));
            }
            let mut wired = Vec::new();
            for &m in moves {
                if m < 1 || m > at || !game.take.contains(&(m as u16)) {
                    return Err(text.at(
                        a,
                        say.message(
                            id::PROBLEM_WIRING_ILLEGAL,
                            &[
                                ("key", "allowed"),
                                ("at", &say.number(at)),
                                ("stones", &say.count(at, id::PROBLEM_COUNT_STONE)),
                                ("count", &say.number(m)),
                            ],
                        ),
                    ));
                }
                wired.push(m as u16);
            }
            if wired.is_empty() {
                return Err(text.at(
                    a,
                    say.message(
                        id::PROBLEM_WIRING_EMPTY,
                        &[
                            ("key", "allowed"),
                            ("at", &say.number(at)),
                            ("stones", &say.count(at, id::PROBLEM_COUNT_STONE)),
                        ],
                    ),
                ));
            }
            wired.sort_unstable();
            wired.dedup();
            wiring.insert(at as u16, wired);
        }
        Ok(wiring)
    }
}

/// A nim game: its heaps, the counts a player may take, and who wins. Its `Serialize`
/// writes its keys as kit.yaml does, but for the relay wiring: the game's JSON, which a
/// state file keeps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Nim {
    /// Stones in each heap at the start.
    #[serde(flatten, serialize_with = "heaps_as_written")]
    heaps: Vec<u16>,
    /// The counts a player may take, smallest first.
    take: Vec<u16>,
    /// Whether taking the last stone wins or loses.
    last_stone: LastStone,
    /// One heap only: stones left -> counts its box is wired for (the relay automaton).
    #[serde(skip)]
    wiring: BTreeMap<u16, Vec<u16>>,
    /// Every order of the heaps, identity first: the game's symmetries.
    #[serde(skip)]
    orders: Vec<[u8; MAX_HEAPS]>,
}

/// The heaps as kit.yaml writes them: `stones` for one heap, `heaps` for several.
fn heaps_as_written<S: serde::Serializer>(heaps: &[u16], serializer: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut out = serializer.serialize_map(Some(1))?;
    match heaps {
        [stones] => out.serialize_entry("stones", stones)?,
        heaps => out.serialize_entry("heaps", heaps)?,
    }
    out.end()
}

/// A nim position: stones left in each heap and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pile {
    /// Stones left in each heap, unused places 0 (ordered first, so more stones sort
    /// after fewer).
    pub heaps: [u16; MAX_HEAPS],
    /// Whose turn it is.
    pub to_move: Side,
}

impl Pile {
    /// Stones left in all heaps.
    pub fn stones(&self) -> u16 {
        self.heaps.iter().sum()
    }
}

/// Taking stones from one heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Take {
    /// The heap, counted from 0 (the top row on a label).
    pub heap: u8,
    /// Stones taken.
    pub count: u16,
}

/// Every order of `n` places, identity first, in lexicographic order.
fn orders(n: usize) -> Vec<[u8; MAX_HEAPS]> {
    fn extend(prefix: &mut Vec<u8>, n: usize, out: &mut Vec<[u8; MAX_HEAPS]>) {
        if prefix.len() == n {
            let mut order = [0u8; MAX_HEAPS];
            for (i, slot) in order.iter_mut().enumerate() {
                *slot = prefix.get(i).copied().unwrap_or(i as u8);
            }
            out.push(order);
            return;
        }
        for h in 0..n as u8 {
            if !prefix.contains(&h) {
                prefix.push(h);
                extend(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), n, &mut out);
    out
}

impl Nim {
    /// Heaps of the given sizes (1 to [`MAX_HEAPS`] of them) with the allowed counts
    /// `take` (positive; empty for any count), checked by the kit.
    pub fn new(heaps: Vec<u16>, mut take: Vec<u16>, last_stone_wins: bool) -> Nim {
        if take.is_empty() {
            take = (1..=heaps.iter().copied().max().unwrap_or(1)).collect();
        }
        take.sort_unstable();
        take.dedup();
        Nim {
            orders: orders(heaps.len()),
            heaps,
            take,
            last_stone: if last_stone_wins {
                LastStone::Wins
            } else {
                LastStone::Loses
            },
            wiring: BTreeMap::new(),
        }
    }

    /// The same game with the machine's boxes wired for only some moves: stones left ->
    /// counts the box may take (the relay automaton; one heap only).
    pub fn with_wiring(mut self, wiring: BTreeMap<u16, Vec<u16>>) -> Nim {
        self.wiring = wiring;
        self
    }

    /// The allowed counts, smallest first.
    pub fn take(&self) -> &[u16] {
        &self.take
    }

    /// Stones in each heap at the start.
    pub fn heaps(&self) -> &[u16] {
        &self.heaps
    }

    /// Whether the game has more than one heap.
    pub fn several(&self) -> bool {
        self.heaps.len() > 1
    }

    /// Stones at the start, in all heaps.
    pub fn stones(&self) -> u16 {
        self.heaps.iter().sum()
    }

    /// Whether whoever takes the last stone wins.
    fn last_stone_wins(&self) -> bool {
        self.last_stone == LastStone::Wins
    }
}

impl Rules for Nim {
    const NAME: &'static str = "nim";
    type Position = Pile;
    type Move = Take;

    fn start(&self) -> Pile {
        let mut heaps = [0; MAX_HEAPS];
        heaps[..self.heaps.len()].copy_from_slice(&self.heaps);
        Pile {
            heaps,
            to_move: Side::First,
        }
    }

    fn to_move(&self, position: &Pile) -> Side {
        position.to_move
    }

    fn legal_moves(&self, position: &Pile, out: &mut Vec<Take>) {
        if self.outcome(position).is_some() {
            return;
        }
        for (heap, &left) in position.heaps[..self.heaps.len()].iter().enumerate() {
            out.extend(self.take.iter().filter(|&&t| t <= left).map(|&count| Take {
                heap: heap as u8,
                count,
            }));
        }
    }

    fn play(&self, position: &Pile, mv: Take) -> Pile {
        let mut next = *position;
        next.heaps[usize::from(mv.heap)] -= mv.count;
        next.to_move = position.to_move.other();
        next
    }

    fn end_reason(&self, position: &Pile) -> Ending {
        if position.stones() == 0 && !self.last_stone_wins() {
            Ending {
                you: id::PLAY_END_YOU_LAST_STONE_LOSES,
                machine: id::PLAY_END_MACHINE_LAST_STONE_LOSES,
            }
        } else if position.stones() == 0 {
            Ending {
                you: id::PLAY_END_YOU_LAST_STONE,
                machine: id::PLAY_END_MACHINE_LAST_STONE,
            }
        } else {
            Ending {
                you: id::PLAY_END_YOU_NO_MOVE,
                machine: id::PLAY_END_MACHINE_NO_MOVE,
            }
        }
    }

    fn outcome(&self, position: &Pile) -> Option<Outcome> {
        let mover = position.to_move;
        if position.stones() == 0 {
            // The player who just moved took the last stone.
            let taker = mover.other();
            let winner = if self.last_stone_wins() { taker } else { mover };
            return Some(Outcome::Win(winner));
        }
        if position.heaps.iter().all(|&left| self.take[0] > left) {
            return Some(Outcome::Win(mover.other()));
        }
        None
    }

    fn symmetry_count(&self) -> usize {
        self.orders.len()
    }

    /// Heap `i` of the image is heap `order[i]` of the position.
    fn transform(&self, position: &Pile, symmetry: Symmetry) -> Pile {
        let order = &self.orders[symmetry];
        let mut image = *position;
        for (i, &from) in order.iter().enumerate() {
            image.heaps[i] = position.heaps[usize::from(from)];
        }
        image
    }

    fn transform_move(&self, mv: Take, symmetry: Symmetry) -> Take {
        let order = &self.orders[symmetry];
        let heap = order.iter().position(|&from| from == mv.heap).unwrap_or(0) as u8;
        Take { heap, ..mv }
    }

    fn inverse(&self, symmetry: Symmetry) -> Symmetry {
        let order = &self.orders[symmetry];
        let mut inverse = *order;
        for (i, &from) in order.iter().enumerate() {
            inverse[usize::from(from)] = i as u8;
        }
        self.orders.iter().position(|o| *o == inverse).unwrap_or(0)
    }

    fn wired(&self, position: &Pile, mv: Take) -> bool {
        self.wiring
            .get(&position.stones())
            .is_none_or(|counts| counts.contains(&mv.count))
    }

    /// One heap: a colour per count taken. Several: colours in the box's order, since
    /// the same count from two heaps are two moves.
    fn colour_slot(&self, _position: &Pile, mv: Take) -> Option<usize> {
        if self.several() {
            return None;
        }
        self.take.iter().position(|&t| t == mv.count)
    }

    fn relay_order(&self, mv: Take) -> u32 {
        u32::from(mv.heap) * 1024 + u32::from(mv.count)
    }
}

impl Notation for Nim {
    /// Several heaps are numbered as the label lists them; one heap needs no number.
    fn explain_notation(&self, words: &Strings) -> Option<String> {
        self.several()
            .then(|| words.get(id::CLI_NOTATION_HEAPS).to_string())
    }

    /// Several heaps' labels mark each move by a stone in its colour, one heap's by an
    /// arrow.
    fn move_marks(&self) -> (Id, Id) {
        if self.several() {
            (id::CLI_VERIFY_LEGAL_STONE, id::PROBLEM_COUNT_MARKED_STONE)
        } else {
            (id::CLI_VERIFY_LEGAL, id::PROBLEM_COUNT_ARROW)
        }
    }

    fn describe_symmetry(&self, symmetry: Symmetry) -> Orientation {
        match symmetry {
            0 => Orientation::AsDrawn,
            _ => Orientation::HeapsReordered,
        }
    }

    /// One heap: the stones left; several: the heaps, separated by dashes (`1-3-5-7`).
    fn format_position(&self, position: &Pile) -> String {
        position.heaps[..self.heaps.len()]
            .iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join("-")
    }

    fn parse_position(&self, text: &str, to_move: Side) -> Result<Pile, Said> {
        let most = self.heaps.iter().copied().max().unwrap_or(0);
        let expected = if self.several() {
            Said::new(id::CLI_POSITION_HEAPS)
                .with("heaps", self.heaps.len())
                .with("example", self.format_position(&self.start()))
        } else {
            Said::new(id::CLI_POSITION_STONES).with("most", most)
        };
        let counts: Vec<&str> = text
            .split(|c: char| c == '-' || c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .collect();
        if counts.len() != self.heaps.len() {
            return Err(expected);
        }
        let mut heaps = [0; MAX_HEAPS];
        for (slot, count) in heaps.iter_mut().zip(counts) {
            let stones: u16 = count.parse().map_err(|_| expected.clone())?;
            if stones > most {
                let key = if self.several() {
                    id::CLI_POSITION_HEAP_TOO_BIG
                } else {
                    id::CLI_POSITION_TOO_MANY
                };
                return Err(Said::new(key).with("most", most).with("stones", stones));
            }
            *slot = stones;
        }
        Ok(Pile { heaps, to_move })
    }

    /// `take 2, leave 6`; with several heaps `take 2 from heap 3, leave 1-3-3-7`.
    fn format_move(&self, position: &Pile, mv: Take) -> String {
        let after = self.play(position, mv);
        if self.several() {
            format!(
                "take {} from heap {}, leave {}",
                mv.count,
                mv.heap + 1,
                self.format_position(&after)
            )
        } else {
            format!("take {}, leave {}", mv.count, after.stones())
        }
    }

    fn say_move(&self, position: &Pile, mv: Take, words: &Strings) -> String {
        let after = self.play(position, mv);
        let count = mv.count.to_string();
        if self.several() {
            let (heap, leave) = ((mv.heap + 1).to_string(), self.format_position(&after));
            let values = [("take", &count), ("heap", &heap), ("leave", &leave)];
            words.fill(id::MOVE_NIM_HEAPS, &values.map(|(k, v)| (k, v.as_str())))
        } else {
            let leave = after.stones().to_string();
            words.fill(id::MOVE_NIM, &[("take", &count), ("leave", &leave)])
        }
    }

    fn say_machine_move(&self, position: &Pile, mv: Take, words: &Strings) -> String {
        let after = self.play(position, mv);
        let count = mv.count.to_string();
        if self.several() {
            let (heap, leave) = ((mv.heap + 1).to_string(), self.format_position(&after));
            let values = [("take", &count), ("heap", &heap), ("leave", &leave)];
            words.fill(
                id::PLAY_MOVED_NIM_HEAPS,
                &values.map(|(k, v)| (k, v.as_str())),
            )
        } else {
            let leave = after.stones().to_string();
            words.fill(id::PLAY_MOVED_NIM, &[("take", &count), ("leave", &leave)])
        }
    }
}

/// Every count of stones, in a heap, taken or wired, is from 1 to `MAX_STONES`, and a
/// kit has from 1 to `MAX_HEAPS` heaps.
impl KeyFields for Nim {
    const FIELDS: &'static [(&'static str, Field)] = &[
        (
            "take",
            Field::named(id::DESIGNER_FIELD_TAKE)
                .hint(id::DESIGNER_FIELD_TAKE_HINT)
                .range(1, MAX_STONES),
        ),
        (
            "stones",
            Field::named(id::DESIGNER_FIELD_STONES)
                .hint(id::DESIGNER_FIELD_STONES_HINT)
                .range(1, MAX_STONES),
        ),
        (
            "heaps",
            Field::named(id::DESIGNER_FIELD_HEAPS)
                .hint(id::DESIGNER_FIELD_HEAPS_HINT)
                .range(1, MAX_STONES)
                .count(1, MAX_HEAPS as i64),
        ),
        ("last_stone", Field::named(id::DESIGNER_FIELD_LAST_STONE)),
        (
            "allowed",
            Field::named(id::DESIGNER_FIELD_ALLOWED)
                .hint(id::DESIGNER_FIELD_ALLOWED_HINT)
                .range(1, MAX_STONES),
        ),
    ];
}

impl Descriptor for Nim {
    /// `take` first: errors about too many moves in a box point there.
    const KEYS: &'static [&'static str] = &["take", "stones", "heaps", "last_stone", "allowed"];
    type File = NimFile;
    const PRESETS: &'static [Preset] = PRESETS;

    fn read(text: &KitText) -> Result<Nim, Error> {
        let file: NimFile = text.settings()?;
        let heaps = file.heaps(text)?;
        let take = file.take(text, &heaps)?;
        let last_stone_wins = file
            .last_stone
            .as_ref()
            .is_none_or(|v| v.value == LastStone::Wins);
        let game = Nim::new(heaps, take, last_stone_wins);
        let wiring = file.wiring(text, &game)?;
        Ok(game.with_wiring(wiring))
    }

    fn default_rule(&self) -> Rule {
        Rule::Gardner
    }

    /// Marienbad's heaps have a name of their own.
    fn default_name(&self, words: &Strings) -> String {
        let name = if self.is_marienbad() {
            id::NAME_MARIENBAD
        } else {
            id::NAME_NIM
        };
        words.get(name).to_string()
    }

    /// Every wired box must be one the machine faces.
    fn check_boxes(&self, kit: &MachineSettings, faced: &[Pile]) -> Result<(), Error> {
        for &at in self.wiring.keys() {
            if !faced.iter().any(|p| p.stones() == at) {
                let say = kit.places.messages;
                return Err(kit.places.error(
                    &["allowed", "machine", "skip_forced"],
                    say.message(
                        id::PROBLEM_WIRING_NEVER_FACED,
                        &[
                            ("at", &say.number(at)),
                            ("stones", &say.count(at, id::PROBLEM_COUNT_STONE)),
                            ("side", &kit.machine.said(say)),
                        ],
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Bachet's game of 8 stones, taking 1 to 3: the matchbox machine of the Russian
    /// article, or its relay automaton; and the heaps of Marienbad, of which no article
    /// claims a figure.
    fn historic(&self, kit: &MachineSettings) -> Option<Historic> {
        if self.is_marienbad() {
            return Some(Historic {
                name: "marienbad",
                claim: None,
                reward_claim: None,
                described: None,
            });
        }
        if self.heaps != [8] || self.take != [1, 2, 3] {
            return None;
        }
        let described = self.last_stone_wins() && as_in_the_articles(kit);
        let source = Said::new(id::CLI_VERIFY_SOURCE_RUSSIAN_ARTICLE);
        Some(if kit.rule == Rule::Relay {
            let wiring = BTreeMap::from([(7, vec![1, 3]), (6, vec![1, 2]), (5, vec![1])]);
            Historic {
                name: "relay",
                claim: (described && self.wiring == wiring).then_some(Claim {
                    source,
                    text: Said::new(id::CLI_VERIFY_CLAIM_RELAY),
                    bound: Bound::Exactly(6),
                    games: None,
                    stricter: None,
                }),
                reward_claim: None,
                described: None,
            }
        } else {
            let matchboxes = kit.rule == Rule::Gardner && one_bead_each(kit);
            Historic {
                name: "bachet",
                claim: (described && matchboxes && self.wiring.is_empty()).then_some(Claim {
                    source,
                    text: Said::new(id::CLI_VERIFY_CLAIM_BACHET),
                    bound: Bound::AtMost(12),
                    games: None,
                    stricter: None,
                }),
                reward_claim: None,
                described: None,
            }
        })
    }

    fn can_draw(&self) -> bool {
        false
    }

    fn template_vars(&self) -> minijinja::Value {
        let most = self.heaps.iter().copied().max().unwrap_or(1);
        minijinja::context! {
            stones => self.stones(),
            heaps => self.heaps.clone(),
            take => self.take.clone(),
            any_count => self.take.len() == usize::from(most),
            last_stone_wins => self.last_stone_wins(),
        }
    }

    /// Its keys with the relay wiring; `take` left out where it is any count of several
    /// heaps, as when a kit leaves it out (one heap takes 1 to 3 then).
    fn settings(&self) -> Vec<(&'static str, serde_json::Value)> {
        let most = self.heaps.iter().copied().max().unwrap_or(1);
        let mut out = written_keys(self);
        if self.several() && self.take == (1..=most).collect::<Vec<_>>() {
            out.retain(|(key, _)| *key != "take");
        }
        if !self.wiring.is_empty() {
            out.push(("allowed", serde_json::json!(self.wiring)));
        }
        out
    }
}

/// A list of stone counts from kit.yaml, each checked to be from 1 to [`MAX_STONES`];
/// `problem` is the message about one that is not.
fn stone_counts(
    text: &KitText,
    list: &serde_saphyr::Spanned<Vec<i64>>,
    problem: Id,
) -> Result<Vec<u16>, Error> {
    let say = text.messages();
    list.value
        .iter()
        .map(|&n| match u16::try_from(n) {
            Ok(count) if (1..=MAX_STONES).contains(&n) => Ok(count),
            _ => Err(text.at(
                list,
                say.message(
                    problem,
                    &[("most", &say.number(MAX_STONES)), ("found", &say.number(n))],
                ),
            )),
        })
        .collect()
}

impl Nim {
    /// The heaps of the film: 1, 3, 5 and 7, any count from one heap, last stone loses.
    pub fn is_marienbad(&self) -> bool {
        let mut heaps = self.heaps.clone();
        heaps.sort_unstable();
        heaps == [1, 3, 5, 7] && self.take == [1, 2, 3, 4, 5, 6, 7] && !self.last_stone_wins()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical;

    fn pile(stones: u16, to_move: Side) -> Pile {
        let mut heaps = [0; MAX_HEAPS];
        heaps[0] = stones;
        Pile { heaps, to_move }
    }

    fn take(heap: u8, count: u16) -> Take {
        Take { heap, count }
    }

    #[test]
    fn the_last_stone_is_said_as_the_winners_move_or_as_the_losers() {
        let empty = pile(0, Side::First);
        // Bachet's: whoever took it won, and is named already.
        let bachet = Nim::new(vec![8], Vec::new(), true).end_reason(&empty);
        assert_eq!(bachet.machine, id::PLAY_END_MACHINE_LAST_STONE);
        // Marienbad's: whoever took it lost, and is named after the winner.
        let misere = marienbad().end_reason(&empty);
        assert_eq!(misere.you, id::PLAY_END_YOU_LAST_STONE_LOSES);
    }

    fn marienbad() -> Nim {
        Nim::new(vec![1, 3, 5, 7], Vec::new(), false)
    }

    #[test]
    fn a_move_takes_any_count_from_one_heap() {
        let game = marienbad();
        let mut out = Vec::new();
        game.legal_moves(&game.start(), &mut out);
        assert_eq!(out.len(), 1 + 3 + 5 + 7);
        let after = game.play(&game.start(), take(3, 4));
        assert_eq!(game.format_position(&after), "1-3-5-3");
        assert_eq!(after.to_move, Side::Second);
        assert_eq!(
            game.format_move(&game.start(), take(3, 4)),
            "take 4 from heap 4, leave 1-3-5-3"
        );
    }

    #[test]
    fn the_last_stone_loses_at_marienbad() {
        let game = marienbad();
        let last = game.parse_position("0-0-1-0", Side::First).unwrap();
        assert_eq!(game.outcome(&last), None);
        let after = game.play(&last, take(2, 1));
        assert_eq!(game.outcome(&after), Some(Outcome::Win(Side::Second)));
    }

    #[test]
    fn heaps_are_read_in_any_order_and_merged_by_their_sizes() {
        let game = marienbad();
        let a = game.parse_position("7-5-3-1", Side::First).unwrap();
        let b = game.parse_position("1 3 5 7", Side::First).unwrap();
        assert_ne!(a, b);
        let n = game.symmetry_count();
        assert_eq!(n, 24);
        assert_eq!(canonical(&game, &a, n).0, canonical(&game, &b, n).0);
        assert!(game.parse_position("1-3-5", Side::First).is_err());
        assert!(game.parse_position("1-3-5-9", Side::First).is_err());
    }

    #[test]
    fn every_order_of_the_heaps_commutes_with_play_and_has_an_inverse() {
        let game = marienbad();
        let position = game.parse_position("1-2-5-6", Side::Second).unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&position, &mut moves);
        for s in 0..game.symmetry_count() {
            let back = game.inverse(s);
            assert_eq!(
                game.transform(&game.transform(&position, s), back),
                position
            );
            for &m in &moves {
                assert_eq!(
                    game.transform(&game.play(&position, m), s),
                    game.play(&game.transform(&position, s), game.transform_move(m, s))
                );
                assert_eq!(game.transform_move(game.transform_move(m, s), back), m);
            }
        }
    }

    #[test]
    fn moves_are_the_allowed_counts_that_fit() {
        let game = Nim::new(vec![8], vec![3, 1, 2, 2], true);
        let mut out = Vec::new();
        game.legal_moves(&pile(2, Side::First), &mut out);
        assert_eq!(out, [take(0, 1), take(0, 2)]);
        assert_eq!(game.take(), [1, 2, 3]);
    }

    #[test]
    fn taking_the_last_stone_wins_or_loses() {
        let empty = pile(0, Side::Second);
        let wins = Nim::new(vec![8], vec![1, 2, 3], true);
        assert_eq!(wins.outcome(&empty), Some(Outcome::Win(Side::First)));
        let loses = Nim::new(vec![8], vec![1, 2, 3], false);
        assert_eq!(loses.outcome(&empty), Some(Outcome::Win(Side::Second)));
    }

    #[test]
    fn a_player_who_cannot_take_loses() {
        let game = Nim::new(vec![8], vec![2, 3], true);
        let one = pile(1, Side::First);
        assert_eq!(game.outcome(&one), Some(Outcome::Win(Side::Second)));
    }
}
