//! The machine's beads kept between runs of `matchbox play` in a JSON file.
//!
//! The file names every box by its position and every move by its words, so a file of
//! another kit is recognised and refused instead of being read into the wrong boxes.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::Error;
use crate::boxes::BoxSet;
use crate::game::{Game, Side};
use crate::kit::Kit;
use crate::machine::{Beads, Machine};
use crate::simulate::Setup;

/// What the first field of every state file says.
const FORMAT: &str = "matchbox-state";
/// The layout of the file this program writes.
const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateFile {
    format: String,
    version: u32,
    kit: String,
    game: serde_json::Value,
    machine: Side,
    games: u64,
    boxes: Vec<StateBox>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateBox {
    id: usize,
    position: String,
    moves: Vec<StateMove>,
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct StateMove {
    #[serde(rename = "move")]
    mv: String,
    colour: String,
    beads: u32,
}

/// The machine's beads and how many games it has played.
pub struct Saved {
    /// The beads.
    pub beads: Beads,
    /// Games played so far with these beads.
    pub games: u64,
}

fn describe<G: Game>(
    game: &G,
    kit: &Kit,
    set: &BoxSet<G>,
    machine: &Machine,
    beads: &Beads,
) -> Vec<StateBox> {
    set.boxes
        .iter()
        .enumerate()
        .map(|(b, mbox)| StateBox {
            id: mbox.id,
            position: game.format_position(&mbox.position),
            moves: mbox
                .moves
                .iter()
                .zip(machine.slots(b as u32))
                .map(|(m, slot)| StateMove {
                    mv: game.format_move(&mbox.position, m.mv),
                    colour: kit.palette[m.colour].name.clone(),
                    beads: beads.count(slot),
                })
                .collect(),
        })
        .collect()
}

/// The file's text for these beads.
pub fn to_json<G: Game>(
    game: &G,
    kit: &Kit,
    setup: &Setup<G>,
    saved: &Saved,
) -> Result<String, Error> {
    let (set, machine) = (&setup.set, &setup.machine);
    let file = StateFile {
        format: FORMAT.into(),
        version: VERSION,
        kit: kit.name.clone(),
        game: serde_json::to_value(&kit.game)?,
        machine: kit.machine,
        games: saved.games,
        boxes: describe(game, kit, set, machine, &saved.beads),
    };
    Ok(serde_json::to_string_pretty(&file)? + "\n")
}

/// Reads the state file's text, refusing a damaged file or one of another kit.
pub fn from_json<G: Game>(
    text: &str,
    path: &Path,
    game: &G,
    kit: &Kit,
    setup: &Setup<G>,
) -> Result<Saved, Error> {
    let (set, machine) = (&setup.set, &setup.machine);
    let shown = path.display();
    let keep = "it was left as it is: move it away or choose another --state file";
    // serde's own words ("expected struct StateFile") mean nothing to a user: say where.
    let file: StateFile = serde_json::from_str(text).map_err(|e| {
        let place = if e.is_eof() {
            "it ends too early".to_string()
        } else {
            format!("at line {}, column {}", e.line(), e.column())
        };
        Error::Input(format!(
            "{shown} is not a matchbox state file, or it is damaged ({place}); {keep}"
        ))
    })?;
    if file.format != FORMAT || file.version != VERSION {
        return Err(Error::Input(format!(
            "{shown} is not a matchbox state file of version {VERSION} (it says {} version {}); {keep}",
            file.format, file.version
        )));
    }
    let foreign = |why: String| {
        Error::Input(format!(
            "{shown} holds the beads of another kit ({why}); {keep}"
        ))
    };
    let game_here = serde_json::to_value(&kit.game)?;
    if file.game != game_here || file.machine != kit.machine {
        return Err(foreign(format!(
            "the kit `{}`, machine playing {}",
            file.kit,
            file.machine.name()
        )));
    }
    let expected = describe(game, kit, set, machine, &machine.fresh_beads());
    if file.boxes.len() != expected.len() {
        return Err(foreign(format!(
            "{} boxes, not {}",
            file.boxes.len(),
            expected.len()
        )));
    }
    let mut counts = Vec::with_capacity(machine.fresh_beads().counts().len());
    for (theirs, ours) in file.boxes.iter().zip(&expected) {
        let same_moves = theirs.moves.len() == ours.moves.len()
            && theirs
                .moves
                .iter()
                .zip(&ours.moves)
                .all(|(t, o)| t.mv == o.mv && t.colour == o.colour);
        if theirs.id != ours.id || theirs.position != ours.position || !same_moves {
            return Err(foreign(format!("box {} differs", ours.id)));
        }
        counts.extend(theirs.moves.iter().map(|m| m.beads));
    }
    let beads = Beads::from_counts(machine, counts).ok_or_else(|| {
        Error::Input(format!(
            "{shown}: more than {} beads for a move; {keep}",
            crate::machine::MAX_BEADS
        ))
    })?;
    Ok(Saved {
        beads,
        games: file.games,
    })
}

/// Reads the state file at `path`; a missing file is a fresh machine.
pub fn load<G: Game>(path: &Path, game: &G, kit: &Kit, setup: &Setup<G>) -> Result<Saved, Error> {
    match std::fs::read_to_string(path) {
        Ok(text) => from_json(&text, path, game, kit, setup),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Saved {
            beads: setup.machine.fresh_beads(),
            games: 0,
        }),
        Err(e) => Err(Error::Input(format!(
            "{}: cannot read the state file: {e}",
            path.display()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::fixtures::{self, HER, HIM, Pawns};

    fn compiled(preset: &str) -> (Pawns, Kit, Setup<Pawns>) {
        let (game, kit) = fixtures::pawns(preset);
        let setup = Setup::new(&game, &kit, kit.rule, false).unwrap();
        (game, kit, setup)
    }

    #[test]
    fn beads_round_trip() {
        let (game, kit, setup) = compiled(HER);
        let machine = &setup.machine;
        let mut beads = machine.fresh_beads();
        beads.set(machine, 3, 0);
        beads.set(machine, 5, 7);
        let saved = Saved {
            beads: beads.clone(),
            games: 12,
        };
        let text = to_json(&game, &kit, &setup, &saved).unwrap();
        let back = from_json(&text, Path::new("s.json"), &game, &kit, &setup).unwrap();
        assert_eq!(back.beads, beads);
        assert_eq!(back.games, 12);
    }

    #[test]
    fn damaged_and_foreign_files_are_refused() {
        let (game, kit, setup) = compiled(HER);
        let path = Path::new("s.json");
        let fresh = |setup: &Setup<Pawns>| Saved {
            beads: setup.machine.fresh_beads(),
            games: 0,
        };
        let text = to_json(&game, &kit, &setup, &fresh(&setup)).unwrap();
        let err = |t: &str| match from_json(t, path, &game, &kit, &setup) {
            Err(Error::Input(m)) => m,
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("accepted {t}"),
        };
        assert!(err(&text[..text.len() / 2]).contains("damaged"));
        assert!(err("[]").contains("not a matchbox state file"));
        assert!(err("[]").contains("at line 1, column 2"), "{}", err("[]"));
        assert!(!err("[]").contains("StateFile"), "{}", err("[]"));
        assert!(err("").contains("it ends too early"), "{}", err(""));
        assert!(err(&text.replace("matchbox-state", "other")).contains("version 1"));
        assert!(err(&text.replace("\"second\"", "\"first\"")).contains("another kit"));
        assert!(err(&text.replacen("BBB/W../.WW", "BBB/.W./W.W", 1)).contains("box 1 differs"));
        let (_, him, him_setup) = compiled(HIM);
        let first = to_json(&game, &him, &him_setup, &fresh(&him_setup)).unwrap();
        assert!(err(&first).contains("another kit"));
    }
}
