//! A table of bad kits, as a new or a hostile user writes them: each is refused with
//! exit status 2, one line in the user's words with `file:line:column` where the kit
//! has a place for the mistake, and nothing written.

use std::path::PathBuf;

use std::time::Instant;

use matchbox_engine::game::GAMES;

mod support;

/// A fresh folder for one test of this file.
fn scratch(what: &str) -> PathBuf {
    support::scratch(&format!("bad-kits-{what}"))
}

use support::run as matchbox;

/// Words of the YAML and serde libraries that mean nothing to a teacher.
const LIBRARY_WORDS: [&str; 16] = [
    "DuplicateKeyPolicy",
    "from_str_multiple",
    "configured policy",
    "budget breached",
    "Nodes {",
    "invalid i64",
    "invalid u32",
    "invalid u16",
    "invalid floating point",
    "invalid type",
    "invalid value",
    "StateFile",
    "KitFile",
    "struct",
    "variant",
    "Options",
];

/// A kit file's text, where its mistake is (line, column), and words of the message.
struct Case {
    yaml: Vec<u8>,
    at: Option<(u32, u32)>,
    says: String,
}

fn case(yaml: &str, at: Option<(u32, u32)>, says: impl Into<String>) -> Case {
    Case {
        yaml: yaml.as_bytes().to_vec(),
        at,
        says: says.into(),
    }
}

/// The games as a message lists them (`a, b or c`), from the one list of games, so that
/// a new game changes no test here.
fn games() -> String {
    let names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
    let (last, rest) = names.split_last().expect("a game");
    if rest.is_empty() {
        last.to_string()
    } else {
        format!("{} or {last}", rest.join(", "))
    }
}

// One row per kit reads better than rustfmt's five lines per row.
#[rustfmt::skip]
fn cases() -> Vec<Case> {
    // More values than the YAML library's budget allows (250,000 nodes).
    let huge_list = format!("game: nim\ntake: [{}1]\n", "1,".repeat(260_000));
    let take_40 = format!(
        "game: nim\nstones: 40\ntake: [{}]\n",
        (1..=40).map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
    );
    vec![
        // What the YAML library reports, in the user's words.
        case("game: hexapawn\nrows: three\n", Some((2, 7)), "rows: expected a whole number from 3 to 8, found `three`"),
        case("game: hexapawn\nrows: 2\n", Some((2, 7)), "rows must be from 3 to 8"),
        case("game: hexapawn\nrows: 3\nrows: 4\n", Some((3, 1)), "`rows` is given twice"),
        case("game: nim\n---\ngame: nim\n", Some((3, 1)), "more than one kit"),
        case("game: nim\nbeads: 1e300\n", Some((2, 1)), "beads: expected a whole number from 1 to 100"),
        case("game: nim\nlabel: {width_mm: 1e300, height_mm: 40}\n", Some((2, 19)), "label: expected"),
        case("game: nim\nstones: 99999999999999999999\n", Some((2, 9)), "stones: expected a whole number from 1 to 1000, found `99999999999999999999`"),
        case("game: nim\nreward: {win: x}\n", Some((2, 15)), "reward: expected"),
        case("game: nim\nreward: {won: 1}\n", Some((2, 10)), "reward: unknown key `won`"),
        case("game: nim\npalette: [{name: red}]\n", Some((2, 12)), "palette: `rgb` is missing"),
        case("", Some((1, 1)), "the kit is empty"),
        case("null\n", Some((1, 1)), "the kit is empty"),
        case("~\n", Some((1, 1)), "the kit is empty"),
        case("# only a comment\n\n", Some((1, 1)), "the kit is empty"),
        case("[1, 2]\n", Some((1, 1)), "a kit is a list of `key: value` settings"),
        case("game: nim\ntake: [1, x]\n", Some((2, 11)), "take: expected a list of whole numbers"),
        case("game: [\n", Some((1, 7)), format!("game: expected {}", games())),
        case("game: nim\nname: \"open\n", Some((2, 7)), "this \" is never closed"),
        case("game: nim\nheaps: [1, 3, 5\nname: x\n", Some((2, 8)), "this `[` is never closed"),
        case("game: nim\nstones: 5\n\tname: x\n", Some((3, 1)), "a tab character"),
        case("game: nim\nname: x\u{0}\n", Some((2, 8)), "U+0000 cannot stand here"),
        case("game: nim\nstones: !foo 3\n", None, "`!foo` is a YAML tag"),
        // No game, or the key that names it misspelt or empty.
        case("game: ~\n", Some((1, 7)), format!("game: expected {}, found nothing", games())),
        case("preset: ~\n", Some((1, 9)), "preset: expected one of"),
        case("préset: bachet\n", Some((1, 1)), "unknown key `préset`: did you mean `preset`?"),
        case("label2: x\n", Some((1, 1)), "unknown key `label2`: did you mean `label`?"),
        // A misspelt key of a kit whose game is known: the key meant, not every key.
        case("languge: en\npreset: bachet\n", Some((1, 1)), "unknown key `languge`: did you mean `language`?"),
        case("game: nim\nlangauge: en\n", Some((2, 1)), "unknown key `langauge`: did you mean `language`?"),
        case("game: hexapawn\ncolumns: 4\n", Some((2, 1)), "unknown key `columns`: did you mean `cols`?"),
        case("preset: menace\nbeadz: 3\n", Some((2, 1)), "unknown key `beadz`: did you mean `beads`?"),
        // Keys that contradict the preset or the rule.
        case("preset: menace\ngame: nim\n", Some((2, 7)), "is not the game of `preset: menace`"),
        case("preset: hexapawn\nreward: {win: 3}\n", Some((2, 9)), "reward: beads per result apply under `rule: menace` only"),
        case("preset: bachet-relay\nstones: 20\n", Some((2, 9)), "stones: the preset’s relay wiring"),
        case("preset: bachet-relay\nmachine: first\n", Some((2, 10)), "never faces 7 stones"),
        case("preset: octapawn\nmove_colours: true\n", Some((2, 15)), "move_colours: this kit’s boxes come at 8 different moves"),
        case("preset: bachet\nname: \"a\u{200d}b\"\n", Some((2, 7)), "invisible character U+200D"),
        case("game: nim\nbeads: {1: -4}\n", Some((2, 12)), "beads: expected"),
        case("game: nim\nallowed: {a: [1]}\n", Some((2, 11)), "allowed: expected"),
        case("game: nim\nmachine: third\n", Some((2, 10)), "machine: expected first or second, found `third`"),
        case("game: nim\nsymmetry: maybe\n", Some((2, 11)), "symmetry: expected true or false"),
        case("game: nim\nname: [1]\n", Some((2, 7)), "name: expected a line of text"),
        case("game: nim\nlabel: huge\n", Some((2, 8)), "label: unknown label `huge`: use matchbox"),
        case("game: nim\nlabel: {width_mm: 30}\n", Some((2, 9)), "label: `height_mm` is missing"),
        case("game: nim\nstart_at: first\n", Some((2, 11)), "start_at: expected a whole number"),
        case("game: nim\nbeads: -1\n", Some((2, 8)), "beads: expected"),
        case("game: chess\n", Some((1, 7)), format!("game: expected {}, found `chess`", games())),
        case("preset: chess\n", Some((1, 9)), "unknown preset `chess`"),
        case("game: hexapawn\ncolour: red\n", Some((2, 1)), "unknown key `colour`"),
        case("game: nim\nlanguage: fr\n", Some((2, 11)), "language: expected en (English), pl (polski) or ru (русский)"),
        case("game: hexapawn\nstones: 8\n", Some((2, 9)), "does not apply to hexapawn"),
        case("game: nim\nrule: fast\n", Some((2, 7)), "rule: expected gardner"),
        case("game: nim\npaper: a3\n", Some((2, 8)), "paper: expected a4 or letter"),
        case("game: nim\ntags: none\n", Some((2, 7)), "tags: expected game-move or machine-move"),
        case("game: nim\nnumerals: greek\n", Some((2, 11)), "numerals: expected arabic or roman"),
        case("game: nim\nlast_stone: maybe\n", Some((2, 13)), "last_stone: expected wins or loses"),
        case("game: nim\nreward: 5\n", Some((2, 9)), "reward: expected"),
        case("game: nim\ntake: 3\n", Some((2, 7)), "take: expected a list"),
        case("game: nim\nbeads: .nan\n", Some((2, 8)), "beads: expected a whole number"),
        case("game: nim\nlabel: 1e999\n", Some((2, 8)), "label: expected"),
        case("game: nim\nbeads: {1: 4000000000000}\n", Some((2, 12)), "beads: expected"),
        case(&huge_list, None, "far larger or deeper than any kit"),
        // The size of the game.
        case("game: hexapawn\nrows: 3\ncols: 8\n", Some((2, 7)), "more than 1000000 positions"),
        case("game: hexapawn\nrows: 8\ncols: 8\n", Some((2, 7)), "more than 1000000 positions"),
        case("game: hexapawn\ncols: 6\nrows: 4\n", Some((3, 7)), "more than 1000000 positions"),
        case("game: hexapawn\nrows: 5\ncols: 5\n", Some((2, 7)), "more than 1000000 positions"),
        case("game: hexapawn\nrows: 8\ncols: 4\n", Some((2, 7)), "more than 1000000 positions"),
        case("game: hexapawn\nrows: 3\ncols: 7\n", Some((2, 7)), "more labels than matchbox prints"),
        // Colours.
        case(&take_40, Some((3, 7)), "needs at least"),
        case("palette: [{name: red, rgb: \"#ff0000\"}]\ngame: hexapawn\n", Some((1, 10)), "needs at least 2 bead colours"),
        // Refused at the first box that needs too many colours, not after 324,632 positions.
        case("game: nim\nheaps: [30, 30, 30, 30, 30]\n", Some((2, 8)), "needs at least 17 bead colours"),
        // Kits that make no sense.
        case("game: nim\ntake: [20]\n", Some((2, 7)), "take: 20 is more than the 8 stones"),
        case("game: nim\ntake: [1, 20]\n", Some((2, 7)), "take: 20 is more than the 8 stones"),
        case("game: nim\nstones: 1\ntake: [1]\nmachine: second\n", Some((4, 10)), "the machine never moves"),
        case("game: tictactoe\nmachine: first\nbeads: {0: 4}\n", Some((3, 8)), "beads: 0 is not a move number"),
        case("game: tictactoe\nmachine: first\nbeads: {1: 4, 99: 3}\n", Some((3, 8)), "beads: 99 is not a move number"),
        case("game: nim\nmachine: second\nallowed: {8: [1]}\n", Some((3, 10)), "never faces 8 stones"),
        case("game: nim\nallowed: {100: [1]}\n", Some((2, 10)), "100 stones cannot occur"),
        // Printed text.
        case("game: nim\nname: \"中文\"\n", Some((2, 7)), "`中` (U+4E2D) cannot be printed"),
        case("game: nim\nname: \"dice 🎲\"\n", Some((2, 7)), "cannot be printed"),
        case("game: nim\npalette: [{name: \"红\", rgb: \"#ff0000\"}]\n", Some((2, 10)), "palette: `红`"),
        case(&format!("game: nim\nname: {}\n", "x".repeat(201)), Some((2, 7)), "at most 200 characters"),
        Case { yaml: b"game: nim\nname: caf\xe9\n".to_vec(), at: Some((2, 10)), says: "not UTF-8".into() },
        // Labels too small to read: the way out named, shorter move numbers where Roman.
        case("preset: bachet\nlabel: {width_mm: 24, height_mm: 14}\n", Some((2, 8)), "at 24 x 14 mm the letters of this kit’s labels would be too small to read"),
        case("preset: bachet\nlabel: {width_mm: 24, height_mm: 14}\n", Some((2, 8)), "or `numerals: arabic` for shorter move numbers"),
    ]
}

#[test]
fn every_bad_kit_is_refused_in_the_users_words() {
    let dir = scratch("table");
    let cases = cases();
    assert!(cases.len() >= 40);
    let mut wrong = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let (o, message, path, out) = made(&dir, &format!("kit-{i}"), &case.yaml);
        let prefix = format!("matchbox: {}:", path.display());
        let place = match case.at {
            Some((line, column)) => format!("{prefix}{line}:{column}: "),
            None => prefix,
        };
        let library = LIBRARY_WORDS.iter().find(|w| message.contains(*w));
        if o.status.code() != Some(2)
            || message.lines().count() != 1
            || message.len() >= 400
            || !message.starts_with(&place)
            || !message.contains(&case.says)
            || library.is_some()
            || out.exists()
        {
            wrong.push(format!(
                "{:?} ({:?}, nothing written: {}): expected {place}...{}..., got {message}",
                String::from_utf8_lossy(&case.yaml),
                o.status.code(),
                !out.exists(),
                case.says
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `matchbox kit` run on a kit's bytes written to `NAME.yaml` in `dir`, into `NAME-out`:
/// what it did, what it said on stderr, the kit's path and the folder asked for.
fn made(
    dir: &std::path::Path,
    name: &str,
    yaml: &[u8],
) -> (
    std::process::Output,
    String,
    std::path::PathBuf,
    std::path::PathBuf,
) {
    let path = dir.join(format!("{name}.yaml"));
    std::fs::write(&path, yaml).unwrap();
    let out = dir.join(format!("{name}-out"));
    let o = matchbox(&[
        "kit",
        "--kit",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let message = String::from_utf8_lossy(&o.stderr).into_owned();
    (o, message, path, out)
}

/// The message `matchbox kit` gives for a kit's bytes (exit status 2, one line), without
/// `matchbox: ` and the file's path: `LINE:COLUMN: text`, or the text alone.
fn refusal(dir: &std::path::Path, name: &str, yaml: &[u8]) -> Option<String> {
    let (o, message, path, out) = made(dir, name, yaml);
    let prefix = format!("matchbox: {}", path.display());
    (o.status.code() == Some(2) && message.lines().count() == 1 && !out.exists())
        .then(|| message.trim_end().strip_prefix(&prefix).map(str::to_string))
        .flatten()
}

/// Makes a kit of each `(yaml, expected)` row in `dir` and checks that it is refused with
/// exactly the expected message (after the file's name); lists every row that is not.
fn each_refused_as(dir: &std::path::Path, table: &[(&str, &str)]) {
    let mut wrong = Vec::new();
    for (i, (yaml, expected)) in table.iter().enumerate() {
        let said = refusal(dir, &format!("kit-{i}"), yaml.as_bytes());
        if said.as_deref() != Some(*expected) {
            wrong.push(format!("{yaml:?}: expected {expected}\n  got {said:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// Whether `word` is a key of kit.yaml (the kit's own or a game's).
fn is_kit_key(word: &str) -> bool {
    let kit = matchbox_engine::kit::Kit::from_preset("hexapawn").unwrap();
    word == "preset"
        || kit.settings().iter().any(|(key, _)| *key == word)
        || GAMES.iter().any(|g| g.keys.contains(&word))
}

/// The place (`:LINE:COLUMN:`, or none) a message names and the key it begins with, if
/// any (`rows: expected ...`; in English also `rows must be ...`): the parts that must
/// not change with the language, as the kit designer reads them.
fn place_and_key(message: &str) -> (String, Option<String>) {
    let rest = message.strip_prefix(':').unwrap_or(message);
    let (place, text) = match rest.splitn(3, ':').collect::<Vec<_>>()[..] {
        [line, column, text] if line.parse::<u32>().is_ok() && column.parse::<u32>().is_ok() => {
            (format!(":{line}:{column}:"), text.trim_start())
        }
        _ => (String::new(), rest.trim_start()),
    };
    let word = text.split([':', ' ']).next().unwrap_or_default();
    (place, is_kit_key(word).then(|| word.to_string()))
}

#[test]
fn every_bad_kit_is_refused_in_its_own_language_at_the_same_place_and_key() {
    let dir = scratch("languages");
    let mut wrong = Vec::new();
    let mut checked = 0;
    for (i, case) in cases().iter().enumerate() {
        // `language:` on a last line of its own, which leaves the mistake where it is;
        // a kit that this changes (an empty one, one that gives `language` already) is
        // left out, as is the size of the game.
        let with = |code: &str| {
            let mut yaml = case.yaml.clone();
            if !yaml.ends_with(b"\n") && !yaml.is_empty() {
                yaml.push(b'\n');
            }
            yaml.extend_from_slice(format!("language: {code}\n").as_bytes());
            yaml
        };
        let Some(plain) = refusal(&dir, &format!("plain-{i}"), &case.yaml) else {
            continue;
        };
        if refusal(&dir, &format!("en-{i}"), &with("en")).as_deref() != Some(plain.as_str()) {
            continue;
        }
        let (place, key) = place_and_key(&plain);
        for code in ["pl", "ru"] {
            let said = refusal(&dir, &format!("{code}-{i}"), &with(code));
            let ok = said.as_ref().is_some_and(|m| {
                place_and_key(m) == (place.clone(), key.clone())
                    && key.as_ref().is_none_or(|k| m.contains(&format!(" {k}: ")))
                    && *m != plain
                    && !m.contains("problem.")
                    && !LIBRARY_WORDS.iter().any(|w| m.contains(w))
                    && m.len() < 600
            });
            if !ok {
                wrong.push(format!(
                    "{:?} in {code}: expected {place}{}..., in English {plain}, got {said:?}",
                    String::from_utf8_lossy(&case.yaml),
                    key.as_deref().map(|k| format!("{k}: ")).unwrap_or_default()
                ));
            }
        }
        checked += 1;
    }
    assert!(checked >= 50, "{checked} kits checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_polish_or_russian_kit_is_told_its_mistakes_in_its_words() {
    let dir = scratch("words");
    // (kit, language, the message after the path)
    let table = [
        (
            "game: hexapawn\nrows: 2\nlanguage: pl\n",
            ":2:7: rows: wartość musi wynosić od 3 do 8, a nie 2",
        ),
        (
            "game: hexapawn\nrows: 2\nlanguage: ru\n",
            ":2:7: rows: значение должно быть от 3 до 8, а не 2",
        ),
        // Read before the key that says the language.
        (
            "language: pl\ngame: nim\nheaps: [3, 0]\n",
            ":3:8: w każdym stosie musi być od 1 do 1000 kamyków, a nie 0",
        ),
        (
            "game: nim\nheaps: [3, 0]\nlanguage: ru\n",
            ":2:8: в каждой кучке должно быть от 1 до 1000 камешков, а не 0",
        ),
        (
            "game: nim\ntake: [1, 3]\nstones: 2\nlanguage: pl\n",
            ":2:7: take: 3 to więcej niż 2 kamyki w stosie, więc tylu nigdy nie da się wziąć: żadna liczba nie może przekraczać `stones`",
        ),
        (
            "preset: menace\npalette: [{name: red, rgb: \"#ff00\"}]\nlanguage: pl\n",
            ":2:10: kolor `red`: rgb zapisuje się jako #rrggbb, a nie `#ff00`",
        ),
        (
            "preset: menace\npalette: [{name: red, rgb: \"#ff00\"}]\nlanguage: ru\n",
            ":2:10: цвет «red»: rgb записывается как #rrggbb, а не «#ff00»",
        ),
        (
            "preset: bachet\nlabel: {width_mm: 10.5, height_mm: 14}\nlanguage: pl\n",
            ":2:8: etykieta 10,5 × 14 mm jest za mała, żeby dało się na niej czytelnie rysować: potrzeba co najmniej 20 × 12 mm",
        ),
        (
            "preset: bachet\nlabel: {width_mm: 24, height_mm: 14}\nlanguage: ru\n",
            ":2:8: label: на этикетках 24 × 14 мм буквы будут слишком мелкими, чтобы их прочесть (на коробке 1 их высота 0,76 мм, а нужно хотя бы 1,2 мм): выберите этикетку побольше (список: «matchbox labels») или задайте «numerals: arabic», чтобы номера ходов были короче",
        ),
        (
            "game: nim\nheaps: [30, 30, 30, 30, 30]\nlanguage: ru\n",
            ":2:8: этому набору нужно хотя бы 17 цветов бусинок, а в «palette» их только 16: добавьте цвета в «palette»",
        ),
        (
            "game: hexapawn\nrows: three\nlanguage: pl\n",
            ":2:7: rows: wartością może być liczba całkowita od 3 do 8, a wpisano `three`",
        ),
        (
            "language: pl\ngame: hexapawn\ncolumns: 4\n",
            ":3:1: nieznany klucz `columns`: czy chodziło o `cols`?",
        ),
        (
            "language: ru\npreset: bachet\nlanguge: ru\n",
            ":3:1: неизвестный ключ «languge»: может быть, имелся в виду «language»?",
        ),
        // The language key itself misspelt: its value still says the language.
        (
            "preset: bachet\nlanguge: pl\n",
            ":2:1: nieznany klucz `languge`: czy chodziło o `language`?",
        ),
        // A list is echoed whole, never cut at its first comma.
        (
            "language: pl\npreset: bachet\nbeads: [0,0,0,0]\n",
            ":3:1: beads: wartością może być liczba całkowita od 1 do 100 albo numery ruchów z liczbą koralików, np. {1: 4, 3: 3, 5: 2, 7: 1}, a wpisano `[0,0,0,0]`",
        ),
        // A parse that stops at the mistake, and a language no kit has: English.
        (
            "game: nim\nname: \"open\nlanguage: ru\n",
            ":2:7: кавычка \" не закрыта: закончите значение знаком \" в той же строке",
        ),
        (
            "game: hexapawn\nrows: 2\nlanguage: fr\n",
            ":3:11: language: expected en (English), pl (polski) or ru (русский), found `fr`",
        ),
    ];
    each_refused_as(&dir, &table);
}

#[test]
fn warnings_are_in_the_kits_language() {
    let dir = scratch("warnings");
    for (language, words) in [
        (
            "en",
            "warning: the punish-only rule replaces the preset’s relay",
        ),
        (
            "pl",
            "uwaga: reguła „tylko kary” zastępuje automat przekaźnikowy z gotowego zestawu",
        ),
        (
            "ru",
            "предупреждение: правило «только наказание» заменяет релейный автомат готового набора",
        ),
    ] {
        let path = dir.join(format!("{language}.yaml"));
        std::fs::write(
            &path,
            format!("preset: bachet-relay\nrule: gardner\nlanguage: {language}\n"),
        )
        .unwrap();
        let o = matchbox(&["boxes", "--kit", path.to_str().unwrap()]);
        assert!(o.status.success());
        let stderr = String::from_utf8_lossy(&o.stderr);
        let at = format!("matchbox: {}:2:7: {words}", path.display());
        assert!(stderr.starts_with(&at), "{stderr}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The command line says a problem's pointer to another command inside its sentence, in
/// every language, as it always has (the words keep it apart, `problem.hint.*`).
#[test]
fn a_pointer_to_another_command_is_said_inside_its_sentence_in_every_language() {
    let dir = scratch("hints");
    let table: &[(&str, &str)] = &[
        (
            "preset: [1]\nlanguage: en\n",
            ":1:9: preset: expected the name of a preset (see `matchbox presets`), found `[1]`",
        ),
        (
            "preset: hexapawn\nlabel: [1]\nlanguage: en\n",
            ":2:1: label: expected matchbox, craft-small, a sticker sheet (see `matchbox labels`) or {width_mm: W, height_mm: H} in millimetres, found `[1]`",
        ),
        (
            "label: avery-l7160\npaper: letter\npreset: hexapawn\nlanguage: en\n",
            ":2:8: the L7160 sticker sheet is A4 paper: leave `paper` out, or choose a sheet for Letter paper (see `matchbox labels`)",
        ),
        (
            "preset: hexapawn\nlabel: {width_mm: 20, height_mm: 12}\nlanguage: en\n",
            ":2:8: label: at 20 x 12 mm the letters of this kit’s labels would be too small to read (0.91 mm high on box 1; at least 1.2 mm is needed): choose a larger label (`matchbox labels` lists them)",
        ),
        (
            "preset: bachet\nlabel: {width_mm: 24, height_mm: 14}\nlanguage: en\n",
            ":2:8: label: at 24 x 14 mm the letters of this kit’s labels would be too small to read (0.76 mm high on box 1; at least 1.2 mm is needed): choose a larger label (`matchbox labels` lists them), or `numerals: arabic` for shorter move numbers",
        ),
        (
            "game: hexapawn\nrows: 3\ncols: 7\nlanguage: en\n",
            ":2:7: this kit has 28916 boxes: more labels than matchbox prints (20000); `matchbox boxes` still lists them",
        ),
        (
            "preset: [1]\nlanguage: pl\n",
            ":1:9: preset: wartością może być nazwa gotowego zestawu (lista: `matchbox presets`), a wpisano `[1]`",
        ),
        (
            "preset: hexapawn\nlabel: [1]\nlanguage: pl\n",
            ":2:1: label: wartością może być matchbox, craft-small, arkusz naklejek (lista: `matchbox labels`) albo {width_mm: W, height_mm: H} w milimetrach, a wpisano `[1]`",
        ),
        (
            "label: avery-l7160\npaper: letter\npreset: hexapawn\nlanguage: pl\n",
            ":2:8: arkusz naklejek L7160 ma format A4: usuń `paper` albo wybierz arkusz na papier Letter (lista: `matchbox labels`)",
        ),
        (
            "preset: hexapawn\nlabel: {width_mm: 20, height_mm: 12}\nlanguage: pl\n",
            ":2:8: label: na etykietach 20 × 12 mm litery byłyby za małe, żeby je przeczytać (w pudełku 1 mają 0,79 mm wysokości, a potrzeba co najmniej 1,2 mm): wybierz większą etykietę (lista: `matchbox labels`)",
        ),
        (
            "preset: bachet\nlabel: {width_mm: 24, height_mm: 14}\nlanguage: pl\n",
            ":2:8: label: na etykietach 24 × 14 mm litery byłyby za małe, żeby je przeczytać (w pudełku 1 mają 0,76 mm wysokości, a potrzeba co najmniej 1,2 mm): wybierz większą etykietę (lista: `matchbox labels`) albo ustaw `numerals: arabic`, żeby numery ruchów były krótsze",
        ),
        (
            "game: hexapawn\nrows: 3\ncols: 7\nlanguage: pl\n",
            ":2:7: ten zestaw ma 28 916 pudełek: więcej etykiet, niż matchbox drukuje (20 000); `matchbox boxes` nadal je wypisze",
        ),
        (
            "preset: [1]\nlanguage: ru\n",
            ":1:9: preset: ожидается название готового набора (список: «matchbox presets»), а указано `[1]`",
        ),
        (
            "preset: hexapawn\nlabel: [1]\nlanguage: ru\n",
            ":2:1: label: ожидается matchbox, craft-small, лист самоклеящихся этикеток (список: «matchbox labels») или {width_mm: W, height_mm: H} в миллиметрах, а указано `[1]`",
        ),
        (
            "label: avery-l7160\npaper: letter\npreset: hexapawn\nlanguage: ru\n",
            ":2:8: лист самоклеящихся этикеток L7160 — формата A4: уберите «paper» или выберите лист для бумаги Letter (список: «matchbox labels»)",
        ),
        (
            "preset: hexapawn\nlabel: {width_mm: 20, height_mm: 12}\nlanguage: ru\n",
            ":2:8: label: на этикетках 20 × 12 мм буквы будут слишком мелкими, чтобы их прочесть (на коробке 1 их высота 0,68 мм, а нужно хотя бы 1,2 мм): выберите этикетку побольше (список: «matchbox labels»)",
        ),
        (
            "preset: bachet\nlabel: {width_mm: 24, height_mm: 14}\nlanguage: ru\n",
            ":2:8: label: на этикетках 24 × 14 мм буквы будут слишком мелкими, чтобы их прочесть (на коробке 1 их высота 0,76 мм, а нужно хотя бы 1,2 мм): выберите этикетку побольше (список: «matchbox labels») или задайте «numerals: arabic», чтобы номера ходов были короче",
        ),
        (
            "game: hexapawn\nrows: 3\ncols: 7\nlanguage: ru\n",
            ":2:7: в этом наборе 28 916 коробков: это больше этикеток, чем печатает matchbox (20 000); «matchbox boxes» их всё равно перечислит",
        ),
    ];
    each_refused_as(&dir, table);
}

#[test]
fn a_kit_file_has_a_size_limit() {
    let start = Instant::now();
    let o = matchbox(&["boxes", "--kit", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2));
    let message = String::from_utf8_lossy(&o.stderr);
    assert!(message.contains("larger than 1 MiB"), "{message}");
    assert!(start.elapsed().as_secs() < 10, "ends at once");
    let o = matchbox(&["boxes", "--kit", "/tmp"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is a folder"));
}

#[test]
fn names_are_cleaned_and_shortened_for_printing() {
    let dir = scratch("names");
    let path = dir.join("rtl.yaml");
    std::fs::write(&path, "preset: bachet\nname: \"abc\\u202Edef\\u0007\"\n").unwrap();
    let o = matchbox(&["boxes", "--kit", path.to_str().unwrap(), "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["name"], "abcdef",
        "bidi and control characters are dropped"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn flags_that_do_not_fit_the_kit_are_refused() {
    let o = matchbox(&[
        "simulate", "--preset", "menace", "--rule", "relay", "--runs", "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let message = String::from_utf8_lossy(&o.stderr);
    assert!(message.contains("rule: relay"), "{message}");
    assert!(!message.contains("no machine became certain"), "{message}");
    let o = matchbox(&[
        "simulate",
        "--preset",
        "bachet-relay",
        "--rule",
        "relay",
        "--runs",
        "2",
    ]);
    assert!(o.status.success());
}
