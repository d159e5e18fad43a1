//! The `matchbox` command as a user runs it: presets, boxes, find, and bad input.

use std::path::PathBuf;
use std::process::Output;

use matchbox_engine::kit::presets;

mod support;

use support::run as matchbox;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn temp_kit(name: &str, yaml: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("matchbox-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, yaml).unwrap();
    path
}

#[test]
fn presets_lists_every_preset_once() {
    let out = matchbox(&["presets"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for name in presets().map(|p| p.name) {
        assert_eq!(
            text.lines()
                .filter(|l| l.split_whitespace().next() == Some(name))
                .count(),
            1,
            "{name} in {text}"
        );
    }
}

#[test]
fn boxes_json_has_the_promised_shape() {
    let out = matchbox(&["boxes", "--preset", "hexapawn", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["machine"], "second");
    assert_eq!(v["game"]["kind"], "hexapawn");
    assert_eq!(v["summary"]["boxes"], 19);
    assert_eq!(v["summary"]["beads"], 45);
    assert_eq!(v["summary"]["per_move"]["2"], 2);
    assert_eq!(v["summary"]["per_move"]["4"], 10);
    assert_eq!(v["summary"]["per_move"]["6"], 7);
    let colours: u64 = v["summary"]["colours"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(colours, 45);
    let boxes = v["boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 19);
    assert_eq!(boxes[0]["id"], 1);
    assert_eq!(boxes[0]["move_numbers"][0], 2);
    let first_move = &boxes[0]["moves"][0];
    assert!(first_move["move"].is_string() && first_move["colour"].is_string());
    assert_eq!(first_move["beads"], 1);
    // Ids run in order of the earliest move number.
    let firsts: Vec<u64> = boxes
        .iter()
        .map(|b| b["move_numbers"][0].as_u64().unwrap())
        .collect();
    assert!(firsts.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn boxes_text_shows_each_box_and_the_totals() {
    let out = matchbox(&["boxes", "--preset", "bachet"]);
    let text = stdout(&out);
    // The machine's moves as its labels number them.
    assert!(text.contains("box 7  (moves II, III, IV)\n"), "{text}");
    assert!(
        text.contains("boxes by move number: move I: 3, move II: 5"),
        "{text}"
    );
    assert!(text.contains("7 boxes, 18 beads"));
    // One heap needs no numbering; several heaps and a row of pins say how they read.
    assert!(!text.contains("How to read"), "{text}");
    for (preset, how) in [
        ("marienbad", "How to read the heaps:"),
        ("kayles", "How to read the rows: I is a standing pin"),
    ] {
        let text = stdout(&matchbox(&["boxes", "--preset", preset]));
        assert_eq!(text.matches(how).count(), 1, "{preset}: {text}");
    }
}

#[test]
fn the_default_kit_is_gardners_her() {
    let out = matchbox(&["boxes", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["summary"]["boxes"], 19);
}

#[test]
fn find_names_the_box_and_how_to_turn_it() {
    // White opened on the left; the label shows the opening on the right or left.
    let left = stdout(&matchbox(&["find", "--preset", "hexapawn", "BBB/W../.WW"]));
    let right = stdout(&matchbox(&["find", "--preset", "hexapawn", "BBB/..W/WW."]));
    let id = |s: &str| s.split(',').next().unwrap().to_string();
    assert!(left.starts_with("box "), "{left}");
    assert_eq!(id(&left), id(&right));
    assert!(
        left.contains("not turned or mirrored") != right.contains("not turned or mirrored"),
        "{left}\n{right}"
    );

    // X opened in a corner: four rotations, one box.
    let corners: Vec<String> = ["X../.../...", "..X/.../...", ".../.../..X", ".../.../X.."]
        .iter()
        .map(|p| {
            id(&stdout(&matchbox(&[
                "find",
                "--preset",
                "menace-second",
                p,
            ])))
        })
        .collect();
    assert!(corners[0].starts_with("box "), "{corners:?}");
    assert!(corners.iter().all(|c| *c == corners[0]), "{corners:?}");
}

#[test]
fn find_explains_why_no_box_holds_a_position() {
    let cases = [
        ("BBB/.../WWW", "opponent’s turn"),
        ("W../.../...", "game is already over"),
        ("BBB/WWW/...", "cannot arise"),
    ];
    for (position, reason) in cases {
        let out = matchbox(&["find", "--preset", "hexapawn", position]);
        assert_eq!(out.status.code(), Some(2), "{position}");
        assert!(
            stderr(&out).contains(reason),
            "{position}: {}",
            stderr(&out)
        );
    }
    let forced = matchbox(&["find", "--preset", "menace", "XOX/XOO/OX."]);
    assert_eq!(forced.status.code(), Some(2));
    assert!(
        stderr(&forced).contains("skip_forced"),
        "{}",
        stderr(&forced)
    );
    let garbage = matchbox(&["find", "--preset", "menace", "XYZ"]);
    assert_eq!(garbage.status.code(), Some(2));
}

#[test]
fn a_bad_kit_gets_one_line_with_file_line_and_column() {
    let cases = [
        (
            "rows.yaml",
            "game: hexapawn\nrows: 2\n",
            ":2:7: rows must be from 3 to 8",
        ),
        (
            "stones.yaml",
            "game: nim\nstones: 0\n",
            ":2:9: stones must be from 1 to 1000",
        ),
        (
            "take.yaml",
            "game: nim\ntake: []\n",
            ":2:7: take needs at least one count",
        ),
        (
            "zero.yaml",
            "game: nim\ntake: [0]\n",
            ":2:7: every count in take",
        ),
        ("key.yaml", "game: nim\nstone: 3\n", ":2:1:"),
        ("type.yaml", "game: nim\nstones: many\n", ":2:9:"),
        ("game.yaml", "game: chess\n", ":1:7:"),
        (
            "preset.yaml",
            "preset: chess\n",
            ":1:9: unknown preset `chess`",
        ),
        ("broken.yaml", "game: [nim\n", "broken.yaml"),
    ];
    for (name, yaml, expected) in cases {
        let path = temp_kit(name, yaml);
        let out = matchbox(&["boxes", "--kit", path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = stderr(&out);
        assert!(
            err.contains(name) && err.contains(expected),
            "{name}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
    }
}

#[test]
fn a_kits_control_characters_are_shown_escaped_never_sent_to_the_terminal() {
    for (name, yaml) in [
        ("esc.yaml", "game: \"\\e[2Jchess\"\n"),
        ("c1.yaml", "game: \"\\x9b2J\\a\"\n"),
        ("preset-esc.yaml", "preset: \"\\e]0;owned\\a\"\n"),
    ] {
        let path = temp_kit(name, yaml);
        for command in ["boxes", "kit", "verify"] {
            let out = matchbox(&[command, "--kit", path.to_str().unwrap()]);
            let err = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{name} {command}: {err}");
            assert!(
                !err.trim_end().chars().any(char::is_control),
                "{name} {command}: {err:?}"
            );
            assert!(err.contains("\\u{"), "{name} {command}: {err}");
        }
    }
}

#[test]
fn verify_refuses_what_kit_refuses_with_the_same_message() {
    let path = temp_kit(
        "small-label.yaml",
        "game: hexapawn\nlabel: {width_mm: 20, height_mm: 12}\n",
    );
    let kit = matchbox(&["kit", "--kit", path.to_str().unwrap()]);
    let verify = matchbox(&["verify", "--kit", path.to_str().unwrap()]);
    assert_eq!(kit.status.code(), Some(2), "{}", stderr(&kit));
    assert_eq!(verify.status.code(), Some(2), "{}", stderr(&verify));
    assert!(
        stderr(&kit).contains("too small to read"),
        "{}",
        stderr(&kit)
    );
    assert_eq!(stderr(&verify), stderr(&kit));
    assert!(verify.stdout.is_empty());
}

#[test]
fn a_kit_file_may_be_named_without_its_flag() {
    let kit = temp_kit("bare.yaml", "preset: bachet\n");
    let kit = kit.to_str().unwrap();
    let named = stdout(&matchbox(&["boxes", "--json", "--kit", kit]));
    let bare = matchbox(&["boxes", "--json", kit]);
    assert!(bare.status.success(), "{}", stderr(&bare));
    assert_eq!(stdout(&bare), named);
    // `find` takes the position first, then the kit.
    let found = matchbox(&["find", "5", kit]);
    assert!(found.status.success(), "{}", stderr(&found));
    assert_eq!(
        stdout(&found),
        stdout(&matchbox(&["find", "5", "--kit", kit]))
    );
    // A file and a preset (or a file twice) cannot both be the kit.
    assert_eq!(
        matchbox(&["boxes", kit, "--preset", "hexapawn"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(
        matchbox(&["boxes", kit, "--kit", kit]).status.code(),
        Some(2)
    );
}

#[test]
fn unknown_presets_flags_and_files_exit_2() {
    let preset = matchbox(&["boxes", "--preset", "chess"]);
    assert_eq!(preset.status.code(), Some(2));
    assert!(stderr(&preset).contains("menace"));
    assert_eq!(matchbox(&["boxes", "--frobnicate"]).status.code(), Some(2));
    let missing = matchbox(&["boxes", "--kit", "/nonexistent/kit.yaml"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("/nonexistent/kit.yaml"));
}

#[test]
fn a_large_kit_says_up_front_how_long_it_takes_and_a_small_one_says_nothing() {
    let dir = std::env::temp_dir().join(format!("matchbox-cli-long-{}", std::process::id()));
    let large = temp_kit("octapawn.yaml", "preset: octapawn\npreviews: false\n");
    let out = matchbox(&[
        "kit",
        "--kit",
        large.to_str().unwrap(),
        "--out",
        dir.join("octapawn").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stderr(&out);
    // First that it is more than a class fills by hand, then how long it takes.
    assert!(
        said.starts_with("matchbox: note: 2,791 boxes are more than a class can fill by hand"),
        "{said}"
    );
    assert!(
        said.contains("\nmatchbox: 2,791 boxes: making this kit takes about "),
        "{said}"
    );
    assert!(!said.contains("previews"), "no previews to skip: {said}");

    let small = matchbox(&[
        "kit",
        "--preset",
        "hexapawn",
        "--out",
        dir.join("her").to_str().unwrap(),
    ]);
    assert!(small.status.success());
    assert_eq!(stderr(&small), "");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// English words of the program's own output (`boxes`, `find`, `simulate`, `verify`):
/// none may reach a Polish or a Russian teacher, nor a key of kit.yaml (`nim`,
/// `optimal-teacher`).
const ENGLISH: [&str; 68] = [
    "box",
    "boxes",
    "move",
    "moves",
    "tag",
    "bead",
    "beads",
    "colour",
    "machine",
    "machines",
    "plays",
    "first",
    "second",
    "fresh",
    "trained",
    "against",
    "perfect",
    "opponent",
    "rule",
    "seed",
    "learnt",
    "lose",
    "losses",
    "games",
    "could",
    "still",
    "after",
    "min",
    "max",
    "mean",
    "median",
    "CI",
    "drawn",
    "mirrored",
    "turn",
    "heaps",
    "order",
    "take",
    "leave",
    "red",
    "blue",
    "yellow",
    "top",
    "left",
    "right",
    "bottom",
    "centre",
    "by",
    "Checks",
    "ok",
    "every",
    "claim",
    "claimed",
    "holds",
    "worst",
    "case",
    "Method",
    "won",
    "drew",
    "lost",
    "optimal",
    "teacher",
    "nim",
    "tictactoe",
    "square",
    "random",
    "arrows",
    "dots",
];

/// The English words of `text`: those of [`ENGLISH`] and `also`, outside backticks, where
/// a message quotes the command line, and other than flags (`--seed`, «--seed»), which
/// stay English. Words end at anything that is not a letter of any alphabet (`być` is one
/// word, not `by`).
fn english_in<'a>(text: &'a str, also: &[&str]) -> Vec<&'a str> {
    let is_flag = |token: &str| token.trim_start_matches(['«', '„', '"']).starts_with("--");
    text.split('`')
        .step_by(2)
        .flat_map(str::split_whitespace)
        .filter(|token| !is_flag(token))
        .flat_map(|token| token.split(|c: char| !c.is_alphabetic()))
        .filter(|w| ENGLISH.contains(w) || also.contains(w))
        .collect()
}

#[test]
fn a_polish_or_russian_kit_hears_the_program_in_its_language() {
    for (language, preset, position) in [
        ("pl", "bachet", "5"),
        ("ru", "bachet", "5"),
        ("pl", "hexapawn", "CCC/B../.BB"),
        ("ru", "hexapawn", "BBB/..W/WW."),
        ("pl", "menace", ".X./.O./..."),
        ("ru", "menace", "X../.O./..."),
        ("pl", "marienbad", "1-3-5-6"),
        ("ru", "marienbad", "7-1-5-2"),
        ("pl", "bachet-relay", "6"),
        ("ru", "bachet-relay", "4"),
    ] {
        let kit = temp_kit(
            &format!("words-{language}-{preset}.yaml"),
            &format!("preset: {preset}\nlanguage: {language}\n"),
        );
        let kit = kit.to_str().unwrap();
        let runs = [
            vec!["boxes", kit],
            vec!["find", position, kit],
            vec!["simulate", kit, "--runs", "10"],
            vec!["simulate", kit, "--games", "50"],
        ];
        // verify on the exact path with a claim (hexapawn, bachet, the relay) and on the
        // sampled one with what to watch (menace); few runs keep it quick.
        let verify = vec!["verify", kit, "--runs", "20", "--max-games", "300"];
        let runs = runs
            .into_iter()
            .chain((preset != "marienbad").then_some(verify));
        for args in runs {
            let out = matchbox(&args);
            // verify fails where a claim does not hold: its words are what is checked.
            assert!(
                out.status.success() || args[0] == "verify",
                "{args:?}: {}",
                stderr(&out)
            );
            let text = stdout(&out);
            // Rules are named in words, never by their kit.yaml keys.
            let english = english_in(&text, &["gardner", "menace", "relay"]);
            assert!(english.is_empty(), "{args:?}: {english:?}\n{text}");
            assert_reads_as_the_language_writes(language, &args, &text);
        }
    }
    // A hexapawn board typed in a Polish kit's letters (B białe, C czarne), in either
    // case, is found.
    let kit = temp_kit("words-pl-board.yaml", "preset: hexapawn\nlanguage: pl\n");
    let found = matchbox(&["find", "ccc/b../.bb", kit.to_str().unwrap()]);
    assert!(found.status.success(), "{}", stderr(&found));
    assert!(
        stdout(&found).starts_with("pudełko 1"),
        "{}",
        stdout(&found)
    );
}

/// What a Polish or Russian reader of the program's output objected to: boards with
/// the English letters B (read as *biały*) and W rather than the language's own, needless decimals (`25,0000 %`), four-digit
/// numbers split and five-digit ones not, the check's doubled colon, a claim called a
/// theorem, «противник» beside the kits' «соперник», «зерно случайности».
fn assert_reads_as_the_language_writes(language: &str, args: &[&str], text: &str) {
    // Polish writes White's pawns B (białe), Black's C; Russian Б and Ч.
    let foreign: &[&str] = if language == "pl" {
        &["W"]
    } else {
        &["B", "W"]
    };
    let board_letters = text
        .lines()
        .filter(|line| line.starts_with("    ") && !line.trim().is_empty())
        .any(|line| line.split(' ').any(|w| foreign.contains(&w)));
    assert!(
        !board_letters,
        "{args:?}: a board of English letters\n{text}"
    );
    for wrong in [
        ",0000",
        "1\u{202f}720",
        "100000",
        ": sprawdzono:",
        ": проверено:",
        // A claim is the source's (`Twierdzenie źródła`), never a theorem heading alone.
        "Twierdzenie (",
        "противник",
        "зерно",
        " x1",
        "->",
        // One bracket level, and a whole sentence where a count is said.
        ") (",
        "дошли машин",
        "doszło do tego",
        "ponad 4752",
    ] {
        assert!(
            !text.contains(wrong),
            "{language} {args:?}: `{wrong}`\n{text}"
        );
    }
}

#[test]
fn version_names_the_release_and_the_commit_it_was_built_from() {
    let out = matchbox(&["--version"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // What git says of this folder; "unknown" outside a clone, as build.rs says then.
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map_or("unknown".to_owned(), |out| {
            String::from_utf8(out.stdout).unwrap().trim().to_owned()
        });
    assert_eq!(
        stdout(&out),
        format!("matchbox {} (commit {head})\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn find_says_in_the_kits_language_why_no_box_holds_a_position_or_it_cannot_read_it() {
    for (language, preset, position) in [
        ("pl", "hexapawn", "BBB/.../CCC"),
        ("ru", "hexapawn", "W../.../BBB"),
        ("pl", "bachet", "8"),
        ("ru", "bachet-relay", "8"),
        ("ru", "menace", "XXX/OO./..."),
        ("pl", "marienbad", "1-3-5-7"),
        // Positions that cannot be read at all.
        ("pl", "hexapawn", "CCC/.Q./BBB"),
        ("ru", "hexapawn", "BBB/..."),
        ("pl", "menace", "XZ./.../..."),
        ("ru", "bachet", "12"),
        ("pl", "marienbad", "1-3"),
        ("ru", "marienbad", "1-3-5-9"),
    ] {
        let kit = temp_kit(
            &format!("nobox-{language}-{preset}.yaml"),
            &format!("preset: {preset}\nlanguage: {language}\n"),
        );
        let out = matchbox(&["find", position, kit.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{preset}: {}", stderr(&out));
        let said = stderr(&out);
        let english = english_in(
            &said,
            &["no", "holds", "it", "position", "square", "use", "stones"],
        );
        assert!(english.is_empty(), "{preset}: {english:?}\n{said}");
        assert_eq!(said.lines().count(), 1, "{said}");
    }
}

#[test]
fn a_polish_kits_mistakes_with_flags_files_and_folders_are_said_in_polish() {
    let kit = temp_kit("flags-pl.yaml", "preset: hexapawn\nlanguage: pl\n");
    let inside_a_file = kit.join("kit");
    let kit = kit.to_str().unwrap();
    let runs = [
        vec!["find", "CCC/.Q./BBB", kit],
        // A file, and a folder inside a file, as the kit's folder.
        vec!["kit", kit, "--out", kit],
        vec!["kit", kit, "--out", inside_a_file.to_str().unwrap()],
        vec!["kit", kit, "--dpi", "5"],
        vec!["simulate", kit, "--games", "3", "--plot", "curve.txt"],
    ];
    for args in runs {
        let out = matchbox(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let said = stderr(&out);
        // Not `folder` nor `a`, which are Polish words too.
        let english = english_in(
            &said,
            &[
                "cannot", "write", "file", "not", "does", "exist", "choose", "must", "be", "from",
                "end", "position", "the", "is",
            ],
        );
        assert!(english.is_empty(), "{args:?}: {english:?}\n{said}");
        assert_eq!(said.lines().count(), 1, "{said}");
    }
    // The same mistakes in an English kit, word for word as they have always been said.
    let kit = temp_kit("flags-en.yaml", "preset: hexapawn\n");
    let kit = kit.to_str().unwrap();
    let said = stderr(&matchbox(&["kit", kit, "--out", kit]));
    assert_eq!(
        said,
        format!("matchbox: {kit} is a file, not a folder: choose a folder to write the kit into\n")
    );
    let said = stderr(&matchbox(&["kit", kit, "--dpi", "5"]));
    assert_eq!(said, "matchbox: --dpi must be from 36 to 1200, not 5\n");
}
