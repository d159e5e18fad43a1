//! What `boxes`, `find` and `labels` print: a box set as text for people and as JSON for
//! programs; the label sizes and sticker sheets a kit can print on.

use serde_json::{Value, json};

use crate::boxes::{BoxSet, MatchBox, tag};
use crate::game::Game;
use crate::kit::{Kit, Rule};
use crate::simulate::verify::Verdict;
use crate::simulate::{OpponentKind, Session, Training};

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

/// A position as an indented board, one row a line, squares spaced apart.
pub fn board_text<G: Game>(game: &G, position: &G::Position) -> String {
    let mut out = String::new();
    for row in game.format_position(position).split('/') {
        out.push_str("    ");
        out.push_str(&row.chars().map(String::from).collect::<Vec<_>>().join(" "));
        out.push('\n');
    }
    out
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
    out.push_str(&board_text(game, &b.position));
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
        .map(|c| format!("{} {}", c.name, c.beads))
        .collect();
    out.push_str(&format!("beads by colour: {}\n", colours.join(", ")));
    out
}

/// What `verify` prints: the checks, then the claim beside the measurement.
pub fn verdict_text(kit: &Kit, verdict: &Verdict) -> String {
    let mut out = format!(
        "{}: {}, the machine plays {}, rule {}\n\nChecks\n",
        kit.name,
        kit.game.name(),
        kit.machine.name(),
        kit.rule.name()
    );
    for c in &verdict.checks {
        out.push_str(&format!(
            "  {:<6} {}: {}\n",
            if c.ok { "ok" } else { "FAILED" },
            c.what,
            c.detail
        ));
    }
    let Some(measured) = &verdict.measured else {
        out.push_str("\nNot trained: fix the kit first.\n");
        return out;
    };
    let trained = format!(
        "{} machines against a {} opponent (seed {}); {} could still lose at the end",
        measured.runs,
        verdict.opponent.name(),
        verdict.seed,
        measured.unfinished
    );
    match &verdict.claim {
        Some(c) => out.push_str(&format!(
            "\nClaim ({})\n  claimed:  {}\n  measured: {trained}\n",
            c.claim.source, c.claim.text
        )),
        None => out.push_str(&format!(
            "\nNo source article makes a claim about this kit; its own figures:\n  {trained}\n"
        )),
    }
    out.push_str(&learning_text(measured));
    if let Some(c) = &verdict.claim {
        out.push_str(if c.holds {
            "  the claim holds\n"
        } else {
            "  the claim DOES NOT HOLD\n"
        });
    }
    out
}

/// The losses and games to learn, with the histogram of losses.
fn learning_text(t: &Training) -> String {
    match (&t.losses_to_learn, &t.games_to_learn) {
        (Some(losses), Some(games)) => format!(
            "  losses to learn: {}\n{}  games to learn:  {}\n",
            losses.summary(),
            losses.histogram_text(40),
            games.summary()
        ),
        _ => "  no machine learnt within the games allowed\n".into(),
    }
}

/// What `simulate --runs` prints.
pub fn training_text(
    kit: &Kit,
    rule: Rule,
    opponent: OpponentKind,
    seed: u64,
    max_games: u32,
    t: &Training,
) -> String {
    format!(
        "{}: {} fresh machines trained against a {} opponent, rule {} (seed {})\n  learnt (can no longer lose): {}; could still lose after {max_games} games: {}\n{}",
        kit.name,
        t.runs,
        opponent.name(),
        rule.name(),
        seed,
        t.runs - t.unfinished,
        t.unfinished,
        learning_text(t)
    )
}

/// What `simulate --games` prints.
pub fn session_text(
    kit: &Kit,
    rule: Rule,
    opponent: OpponentKind,
    seed: u64,
    s: &Session,
) -> String {
    let mut out = format!(
        "{}: one machine, {} games against a {} opponent, rule {} (seed {})\n  won {}, drew {}, lost {}\n",
        kit.name,
        s.games,
        opponent.name(),
        rule.name(),
        seed,
        s.wins,
        s.draws,
        s.losses
    );
    if let (Some(first), Some(last)) = (s.curve.first(), s.curve.last()) {
        // The last tenth of the curve shows what the machine has become.
        let from = s
            .curve
            .iter()
            .rev()
            .find(|p| p.game <= last.game - last.game / 10)
            .unwrap_or(first);
        out.push_str(&format!(
            "  games {} to {}: won {}, drew {}, lost {}\n  beads in box 1: {} at the start, {} at the end\n",
            from.game + 1,
            last.game,
            last.wins - from.wins,
            last.draws - from.draws,
            last.losses - from.losses,
            first.first_box_beads,
            last.first_box_beads
        ));
    }
    out
}

/// The label sizes and sticker sheets `label:` accepts, a line each, as `matchbox labels`
/// prints them.
pub fn label_stocks() -> String {
    use crate::kit::LABEL_SIZES;
    use crate::sheet::{Paper, STICKER_SHEETS, cut_grid};
    let mut out =
        String::from("Labels cut from plain paper (label: NAME, or {width_mm, height_mm}):\n");
    for (name, size) in LABEL_SIZES {
        let per = |paper| {
            let (across, down) = cut_grid(paper, size);
            format!(
                "{} per {} ({across} x {down})",
                across * down,
                Paper::name(paper)
            )
        };
        out.push_str(&format!(
            "  {name:<12} {:>5} x {:<5} mm  {}, {}\n",
            size.width_mm,
            size.height_mm,
            per(Paper::A4),
            per(Paper::Letter)
        ));
    }
    out.push_str("Sticker sheets (label: CODE; print at 100%, no scaling):\n");
    for sheet in STICKER_SHEETS {
        out.push_str(&format!(
            "  {:<12} {:>5.1} x {:<5.1} mm  {} per {} ({} x {}), pitch {:.2} x {:.2} mm, first label at {:.2}, {:.2} mm\n",
            sheet.code,
            sheet.label.width_mm,
            sheet.label.height_mm,
            sheet.across * sheet.down,
            sheet.paper.name(),
            sheet.across,
            sheet.down,
            sheet.pitch_x_mm,
            sheet.pitch_y_mm,
            sheet.left_mm,
            sheet.top_mm,
        ));
    }
    out.push_str("A custom sheet: label: {width_mm, height_mm, across, down, left_mm, top_mm, pitch_x_mm, pitch_y_mm, corner_mm}\n");
    out
}
