//! The settings panel: the starting beads by move number, the rule, the rewards and the
//! opponent, changed in the page without touching kit.yaml. New beads, a new rule or new
//! rewards make a new machine with fresh boxes; the state file keeps them with its beads.
//!
//! The panel also warns of an opponent that empties a fresh machine's first box (MENACE
//! against the perfect player): a few trial runs from fresh boxes, worked out once per
//! machine, tell the page how soon that happens.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ApiError, Problem};
use matchbox_engine::i18n::{Strings, id};
use matchbox_engine::kit::Kit;
use matchbox_engine::rule::{BeadSchedule, MAX_REWARD, MAX_START_BEADS, Reward, Rule};
use matchbox_engine::simulate::state::{self, Settings, Unfit};
use matchbox_engine::simulate::{EXPECTATION_SEED, OpponentKind, Setup, first_box_emptied};
use matchbox_print::pictures::Game;

/// Trial runs from fresh boxes behind the page's warning.
pub const RISK_RUNS: u32 = 20;
/// Games in each trial run: far more than a lesson plays by hand, and the length of a
/// few minutes of watching.
pub const RISK_GAMES: u32 = 1000;

/// How soon each opponent empties a fresh machine's first box.
#[derive(Clone, Debug, Serialize)]
pub struct Risks {
    /// Trial runs, each from fresh boxes.
    pub runs: u32,
    /// Games in each.
    pub games: u32,
    /// By opponent: in each run in which the first box ran empty, the game after which
    /// it first was, in run order.
    pub emptied: BTreeMap<&'static str, Vec<u32>>,
}

/// The starting beads at one move number, as the panel shows them.
#[derive(Debug, Serialize)]
struct BeadsAt {
    move_number: u32,
    beads: u32,
}

/// A set of settings as the panel shows them.
#[derive(Debug, Serialize)]
struct Shown {
    /// At each move number where a box first comes, in order.
    beads: Vec<BeadsAt>,
    rule: &'static str,
    reward: Reward,
    opponent: &'static str,
}

/// The settings panel.
#[derive(Debug, Serialize)]
pub struct SettingsView {
    /// The machine's settings now.
    now: Shown,
    /// kit.yaml's own, which the panel can fill in again.
    kit: Shown,
    /// The rules this kit can use.
    rules: Vec<&'static str>,
    /// The beads a fresh box may start with for one move, least and most.
    beads_range: [u32; 2],
    /// The beads a result may add (or take), least and most.
    reward_range: [i32; 2],
    /// `None` if the trial runs failed.
    risks: Option<Risks>,
}

/// The beads a fresh box may start with for one move, as the panel checks and shows them.
const START_BEADS: RangeInclusive<u32> = 1..=MAX_START_BEADS;
/// The beads a result may add (or, negative, take), as the panel checks and shows them.
const REWARDS: RangeInclusive<i32> = -MAX_REWARD..=MAX_REWARD;

/// What a rule reads of the settings, so that the page shows only those fields and
/// says the machine's draw in the rule's terms.
#[derive(Debug, Serialize)]
pub struct RuleUses {
    /// The starting beads: the machine draws a bead (not under the relay, which plays
    /// the first move still wired in its box, whatever the beads).
    beads: bool,
    /// The rewards by result (MENACE's rule alone).
    reward: bool,
}

/// Every rule by name, with what it reads of the settings.
pub fn rule_uses() -> BTreeMap<&'static str, RuleUses> {
    Rule::ALL
        .into_iter()
        .map(|r| {
            let uses = RuleUses {
                beads: r != Rule::Relay,
                reward: r == Rule::Menace,
            };
            (r.name(), uses)
        })
        .collect()
}

/// The rules a kit can use: the relay only for a kit built for it.
fn rules(own: Rule) -> Vec<&'static str> {
    Rule::ALL
        .into_iter()
        .filter(|&r| r != Rule::Relay || own == Rule::Relay)
        .map(Rule::name)
        .collect()
}

/// Every rule's name, for the message about a rule the page does not know.
pub fn rule_names() -> Vec<&'static str> {
    Rule::ALL.into_iter().map(Rule::name).collect()
}

/// The opponents the page offers for a machine with (or without) a rival.
fn opponents(rival: bool) -> impl Iterator<Item = OpponentKind> {
    [
        OpponentKind::Perfect,
        OpponentKind::Random,
        OpponentKind::Teacher,
        OpponentKind::Machine,
    ]
    .into_iter()
    .filter(move |&o| rival || o != OpponentKind::Machine)
}

/// The opponents a page may choose, by name.
pub fn opponent(name: &str, rival: bool) -> Result<OpponentKind, ApiError> {
    let kind = match name {
        "random" => OpponentKind::Random,
        "perfect" => OpponentKind::Perfect,
        "teacher" => OpponentKind::Teacher,
        "machine" if rival => OpponentKind::Machine,
        _ => {
            return Err(ApiError::bad(Problem::Opponent {
                name: name.chars().take(40).collect(),
            }));
        }
    };
    Ok(kind)
}

/// The move numbers at which boxes first come, in order: one field each.
fn first_move_numbers<G: Game>(setup: &Setup<G>) -> Vec<u32> {
    let mut numbers: Vec<u32> = setup
        .set
        .boxes
        .iter()
        .filter_map(|b| b.move_numbers.first().copied())
        .collect();
    numbers.sort_unstable();
    numbers.dedup();
    numbers
}

fn shown<G: Game>(setup: &Setup<G>, settings: &Settings) -> Shown {
    let rival = setup.rival.is_some();
    let offered = opponents(rival).any(|o| o == settings.opponent);
    Shown {
        beads: first_move_numbers(setup)
            .into_iter()
            .map(|n| BeadsAt {
                move_number: n,
                beads: settings.beads.beads_at(n).unwrap_or(0),
            })
            .collect(),
        rule: settings.rule.name(),
        reward: settings.reward,
        opponent: if offered {
            settings.opponent.name()
        } else {
            OpponentKind::Random.name()
        },
    }
}

/// The trial runs for this machine (the table works them out once per machine, the
/// first time the panel asks); the error's words if they failed.
pub fn risks<G: Game>(setup: &Setup<G>) -> Result<Risks, String> {
    let mut emptied = BTreeMap::new();
    for opponent in opponents(setup.rival.is_some()) {
        let runs = first_box_emptied(setup, opponent, RISK_RUNS, RISK_GAMES, EXPECTATION_SEED)
            .map_err(|e| e.to_string())?;
        emptied.insert(opponent.name(), runs.into_iter().flatten().collect());
    }
    Ok(Risks {
        runs: RISK_RUNS,
        games: RISK_GAMES,
        emptied,
    })
}

/// `GET /api/settings`: the settings `now` and kit.yaml's (`own`), the choices, and the
/// warnings (`None` if the trial runs failed), for the machine `setup`.
pub fn view<G: Game>(
    setup: &Setup<G>,
    own: &Kit,
    now: &Settings,
    risks: Option<Risks>,
) -> SettingsView {
    SettingsView {
        now: shown(setup, now),
        kit: shown(setup, &Settings::of_kit(own, own.rule)),
        rules: rules(own.rule),
        beads_range: [*START_BEADS.start(), *START_BEADS.end()],
        reward_range: [*REWARDS.start(), *REWARDS.end()],
        risks,
    }
}

/// A request to change the settings; what it leaves out stays as it is.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsRequest {
    /// Starting beads by move number; each a whole number (or its digits as text).
    beads: Option<BTreeMap<u32, Value>>,
    /// The rule's name.
    rule: Option<String>,
    /// Beads per result, under the `menace` rule.
    reward: Option<RewardRequest>,
    /// The opponent of training and watching.
    opponent: Option<String>,
}

/// The rewards asked for; each a whole number (or its digits as text).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RewardRequest {
    win: Option<Value>,
    draw: Option<Value>,
    loss: Option<Value>,
}

/// A whole number given as a number or as its digits (what a page's field holds).
fn whole(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                .map(|f| f as i64)
        }),
        Value::String(text) => text.trim().replace('\u{2212}', "-").parse().ok(),
        _ => None,
    }
}

/// What applying the settings did.
#[derive(Debug, Serialize)]
pub struct Applied {
    /// Whether the boxes were filled afresh (new beads, rule or rewards); otherwise only
    /// the opponent changed, or nothing.
    pub fresh: bool,
}

/// The JSON a settings request takes.
pub const EXAMPLE: &str = r#"{"beads": {"1": 4, "3": 3}, "rule": "menace", "reward": {"win": 3, "draw": 1, "loss": -1}, "opponent": "random"}"#;

/// The starting beads asked for, by move number, each checked at its field.
fn schedule(asked: &BTreeMap<u32, Value>) -> Result<BeadSchedule, ApiError> {
    let mut map = BTreeMap::new();
    for (&at, value) in asked {
        let beads = whole(value)
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| START_BEADS.contains(n))
            .ok_or(ApiError::bad(Problem::Setting(Unfit::Beads(Some(at)))))?;
        map.insert(at, beads);
    }
    Ok(BeadSchedule::ByMoveNumber(map))
}

/// A checked schedule in the fewest words: the one now or kit.yaml's when it fills every
/// box the same (so that a file keeps the kit's own words), else by move number without
/// entries that repeat the one before, or one number for every box.
fn simplest<G: Game>(
    setup: &Setup<G>,
    own: &Kit,
    now: &BeadSchedule,
    asked: BeadSchedule,
) -> BeadSchedule {
    let numbers = first_move_numbers(setup);
    let same = |other: &BeadSchedule| {
        numbers
            .iter()
            .all(|&n| other.beads_at(n) == asked.beads_at(n))
    };
    if let Some(known) = [now, &own.beads].into_iter().find(|known| same(known)) {
        return known.clone();
    }
    let BeadSchedule::ByMoveNumber(map) = asked else {
        return asked;
    };
    let mut last = None;
    let kept: BTreeMap<u32, u32> = map
        .into_iter()
        .filter(|&(_, n)| last.replace(n) != Some(n))
        .collect();
    let single = match (kept.len(), kept.first_key_value(), numbers.first()) {
        (1, Some((&at, &n)), Some(&first)) if at <= first => Some(n),
        _ => None,
    };
    single.map_or(BeadSchedule::ByMoveNumber(kept), BeadSchedule::Each)
}

/// The settings a request asks for, each value checked at its field.
fn asked<G: Game>(
    setup: &Setup<G>,
    now: &Settings,
    request: &SettingsRequest,
) -> Result<Settings, ApiError> {
    let beads = match &request.beads {
        Some(asked) => schedule(asked)?,
        None => now.beads.clone(),
    };
    let rule = match &request.rule {
        Some(name) => Rule::ALL
            .into_iter()
            .find(|r| r.name() == name.as_str())
            .ok_or_else(|| {
                ApiError::bad(Problem::Rule {
                    name: name.chars().take(40).collect(),
                })
            })?,
        None => now.rule,
    };
    let mut reward = now.reward;
    if let Some(asked) = &request.reward {
        for (which, value, into) in [
            ("win", &asked.win, &mut reward.win),
            ("draw", &asked.draw, &mut reward.draw),
            ("loss", &asked.loss, &mut reward.loss),
        ] {
            if let Some(value) = value {
                *into = whole(value)
                    .and_then(|n| i32::try_from(n).ok())
                    .filter(|n| REWARDS.contains(n))
                    .ok_or(ApiError::bad(Problem::Setting(Unfit::Reward(which))))?;
            }
        }
    }
    let opponent = match &request.opponent {
        Some(name) => opponent(name, setup.rival.is_some())?,
        None => now.opponent,
    };
    Ok(Settings {
        beads,
        rule,
        reward,
        opponent,
    })
}

/// The settings a `POST /api/settings` asks for, checked against the machine `setup`
/// and kit.yaml's (`own`), the beads in the fewest words; what it leaves out stays as
/// `now`.
pub fn checked<G: Game>(
    setup: &Setup<G>,
    own: &Kit,
    now: &Settings,
    request: &SettingsRequest,
) -> Result<Settings, ApiError> {
    let mut settings = asked(setup, now, request)?;
    settings
        .check(own, &state::move_numbers(&setup.set))
        .map_err(|unfit| ApiError::bad(Problem::Setting(unfit)))?;
    settings.beads = simplest(setup, own, &now.beads, settings.beads);
    Ok(settings)
}

/// The field of the panel a setting's problem is shown at.
pub fn field(unfit: &Unfit) -> String {
    match unfit {
        Unfit::Beads(Some(n)) | Unfit::FirstBox(n) => format!("beads.{n}"),
        Unfit::Beads(None) | Unfit::MoveNumber(_) => "beads".into(),
        Unfit::Relay => "rule".into(),
        Unfit::Reward(which) => format!("reward.{which}"),
    }
}

/// A setting's problem in the kit's language.
pub fn message(unfit: &Unfit, words: &Strings) -> String {
    match unfit {
        Unfit::Beads(_) => words.fill(
            id::API_SETTING_BEADS,
            &[("max", &MAX_START_BEADS.to_string())],
        ),
        Unfit::MoveNumber(n) => words.fill(id::API_SETTING_MOVE_NUMBER, &[("n", &n.to_string())]),
        Unfit::FirstBox(n) => words.fill(id::API_SETTING_FIRST_BOX, &[("n", &n.to_string())]),
        Unfit::Relay => words.fill(id::API_SETTING_RELAY, &[]),
        Unfit::Reward(_) => words.fill(id::API_SETTING_REWARD, &[("max", &MAX_REWARD.to_string())]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::kit::describe_keys;

    #[test]
    fn a_rule_reads_the_rewards_where_kit_yaml_takes_them() {
        let reward = describe_keys()
            .into_iter()
            .find(|k| k.name == "reward")
            .expect("kit.yaml's reward key");
        let uses = rule_uses();
        assert_eq!(uses.len(), Rule::ALL.len());
        for (name, reads) in &uses {
            assert_eq!(
                reads.reward,
                reward.applies == Some(("rule", name)),
                "{name}"
            );
        }
    }
}
