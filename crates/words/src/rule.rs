//! The learning rules: how the beads change after a game ([`Rule`], with [`Reward`] for
//! MENACE's) and how many a box starts with ([`BeadSchedule`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::i18n::{Id, id};

/// The learning rule applied after each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Gardner: on a loss remove the bead of the last move.
    Gardner,
    /// Gardner, and on a win add a bead of each move used.
    GardnerReward,
    /// Michie: beads added or taken in every box used, by the result.
    Menace,
    /// The relay automaton: fixed order of moves, losing moves unwired.
    Relay,
}

impl Rule {
    /// Every rule, in the order the help lists them.
    pub const ALL: [Rule; 4] = [
        Rule::Gardner,
        Rule::GardnerReward,
        Rule::Menace,
        Rule::Relay,
    ];

    /// Whether the rule ever adds beads (a reward), or only takes them out.
    pub fn adds_beads(self) -> bool {
        matches!(self, Rule::GardnerReward | Rule::Menace)
    }

    /// The kit.yaml name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Gardner => "gardner",
            Rule::GardnerReward => "gardner-reward",
            Rule::Menace => "menace",
            Rule::Relay => "relay",
        }
    }

    /// The rule's name in a sentence (`rule.gardner`: "Gardner's rule"), so that no
    /// sentence names a rule by its kit.yaml key.
    pub fn word_key(self) -> Id {
        match self {
            Rule::Gardner => id::RULE_GARDNER,
            Rule::GardnerReward => id::RULE_GARDNER_REWARD,
            Rule::Menace => id::RULE_MENACE,
            Rule::Relay => id::RULE_RELAY,
        }
    }
}

/// Beads added (or taken, if negative) per box used, by the game's result (`menace` rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Reward {
    /// After a win.
    pub win: i32,
    /// After a draw.
    pub draw: i32,
    /// After a loss.
    pub loss: i32,
}

/// The most beads a fresh box holds for one move.
pub const MAX_START_BEADS: u32 = 100;

/// Most beads one move can hold: far more than a box does, and small enough that a box
/// of up to 4,000 moves never overflows its total.
pub const MAX_BEADS: u32 = 1_000_000;

/// The most beads a result may add or (negative) take per box used.
pub const MAX_REWARD: i32 = 100;

impl Reward {
    /// The results, by their names in kit.yaml.
    pub const RESULTS: [&'static str; 3] = ["win", "draw", "loss"];

    /// The beads for the result named `which` (one of [`Reward::RESULTS`]).
    pub fn get(&self, which: &str) -> i32 {
        match which {
            "win" => self.win,
            "draw" => self.draw,
            _ => self.loss,
        }
    }

    /// The first result whose beads are beyond [`MAX_REWARD`] either way.
    pub fn out_of_range(&self) -> Option<&'static str> {
        Reward::RESULTS
            .into_iter()
            .find(|which| !(-MAX_REWARD..=MAX_REWARD).contains(&self.get(which)))
    }
}

impl Default for Reward {
    fn default() -> Reward {
        Reward {
            win: 3,
            draw: 1,
            loss: -1,
        }
    }
}

/// How many beads go in a box for each of its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum BeadSchedule {
    /// The same number in every box.
    Each(u32),
    /// By the earliest move number at which the box's position can arise; a move number
    /// not listed takes the value of the last listed one before it.
    ByMoveNumber(BTreeMap<u32, u32>),
}

impl BeadSchedule {
    /// Beads per move in a box whose earliest move number is `move_number`.
    pub fn beads_at(&self, move_number: u32) -> Option<u32> {
        match self {
            BeadSchedule::Each(n) => Some(*n),
            BeadSchedule::ByMoveNumber(map) => {
                map.range(..=move_number).next_back().map(|(_, n)| *n)
            }
        }
    }
}

impl<'de> Deserialize<'de> for BeadSchedule {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BeadsVisitor;
        impl<'de> Visitor<'de> for BeadsVisitor {
            type Value = BeadSchedule;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of beads per move, or a map from move number to beads per move, e.g. {1: 4, 3: 3, 5: 2, 7: 1}")
            }
            // Custom errors keep the value's place (serde's invalid_value gets the key's).
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<BeadSchedule, E> {
                u32::try_from(n)
                    .map(BeadSchedule::Each)
                    .map_err(|_| E::custom(beads_expected(n)))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<BeadSchedule, E> {
                u64::try_from(n)
                    .map_err(|_| E::custom(beads_expected(n)))
                    .and_then(|n| self.visit_u64(n))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<BeadSchedule, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((k, v)) = map.next_entry::<u32, u32>()? {
                    out.insert(k, v);
                }
                Ok(BeadSchedule::ByMoveNumber(out))
            }
        }
        deserializer.deserialize_any(BeadsVisitor)
    }
}

/// What `beads:` takes, and the number found instead, said in the kit's language once
/// the kit is read.
fn beads_expected(n: impl fmt::Display) -> String {
    crate::settings::deferred(id::PROBLEM_EXPECTED, &[("found", &format!("`{n}`"))])
}
