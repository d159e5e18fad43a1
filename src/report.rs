//! What `boxes` and `find` print: a box set as text for people and as JSON for programs.

use serde_json::{Value, json};

use crate::boxes::{BoxSet, MatchBox, tag};
use crate::game::Game;
use crate::kit::Kit;

/// The box set as the JSON object `matchbox boxes --json` prints.
pub fn boxes_json<G: Game>(game: &G, kit: &Kit, set: &BoxSet<G>) -> Value {
    let boxes: Vec<Value> = set
        .boxes
        .iter()
        .map(|b| {
            json!({
                "id": b.id,
                "move_numbers": b.move_numbers,
                "tag": tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals),
                "position": game.format_position(&b.position),
                "moves": b.moves.iter().map(|m| json!({
                    "move": game.format_move(&b.position, m.mv),
                    "colour": kit.palette[m.colour].name,
                    "beads": m.beads,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "name": kit.name,
        "game": kit.game,
        "machine": kit.machine,
        "symmetry": kit.symmetry,
        "skip_forced": kit.skip_forced,
        "summary": set.summary(kit),
        "boxes": boxes,
    })
}

/// One box as a text block: id, move numbers, the board, the moves.
pub fn box_text<G: Game>(game: &G, kit: &Kit, b: &MatchBox<G::Position, G::Move>) -> String {
    let numbers: Vec<String> = b.move_numbers.iter().map(u32::to_string).collect();
    let plural = if numbers.len() == 1 { "" } else { "s" };
    let mut out = format!(
        "box {}  (move{plural} {}; tag {})\n",
        b.id,
        numbers.join(", "),
        tag(&b.move_numbers, kit.machine, kit.tags, kit.numerals)
    );
    for row in game.format_position(&b.position).split('/') {
        out.push_str("    ");
        out.push_str(&row.chars().map(String::from).collect::<Vec<_>>().join(" "));
        out.push('\n');
    }
    for m in &b.moves {
        let beads = if m.beads == 1 { "bead" } else { "beads" };
        out.push_str(&format!(
            "  {:<22} {:<10} {} {beads}\n",
            game.format_move(&b.position, m.mv),
            kit.palette[m.colour].name,
            m.beads
        ));
    }
    out
}

/// Every box as text, then the totals.
pub fn boxes_text<G: Game>(game: &G, kit: &Kit, set: &BoxSet<G>) -> String {
    let mut out = format!(
        "{} — {}, the machine plays {}\n\n",
        kit.name,
        kit.game.name(),
        kit.machine.name()
    );
    for b in &set.boxes {
        out.push_str(&box_text(game, kit, b));
        out.push('\n');
    }
    let summary = set.summary(kit);
    out.push_str(&format!(
        "{} boxes, {} beads\n",
        summary.boxes, summary.beads
    ));
    let per_move: Vec<String> = summary
        .per_move
        .iter()
        .map(|(k, v)| format!("move {k}: {v}"))
        .collect();
    out.push_str(&format!("boxes by move number: {}\n", per_move.join(", ")));
    let colours: Vec<String> = summary
        .colours
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    out.push_str(&format!("beads by colour: {}\n", colours.join(", ")));
    out
}
