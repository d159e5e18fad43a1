//! `matchbox kit`: the files it writes, their pages, fonts and pixels, and that two runs
//! give the same bytes.

use std::path::{Path, PathBuf};
use std::process::Output;

mod support;

fn matchbox(args: &[&str], threads: &str) -> Output {
    support::matchbox()
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("runs")
}

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("matchbox-kit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn make(preset_or_kit: &[&str], dir: &Path, threads: &str) -> serde_json::Value {
    let mut args = vec!["kit"];
    args.extend_from_slice(preset_or_kit);
    args.extend_from_slice(&["--out", dir.to_str().unwrap(), "--json"]);
    let out = matchbox(&args, threads);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json report")
}

fn page_size(doc: &lopdf::Document, page: lopdf::ObjectId) -> (f32, f32) {
    let dict = doc.get_dictionary(page).unwrap();
    let media = dict.get(b"MediaBox").unwrap().as_array().unwrap();
    let n = |o: &lopdf::Object| o.as_float().unwrap_or_else(|_| o.as_i64().unwrap() as f32);
    (n(&media[2]) - n(&media[0]), n(&media[3]) - n(&media[1]))
}

fn embedded_fonts(doc: &lopdf::Document) -> usize {
    doc.objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| d.get(b"Type").and_then(|t| t.as_name()).ok() == Some(b"FontDescriptor"))
        .filter(|d| d.has(b"FontFile2") || d.has(b"FontFile3"))
        .count()
}

#[test]
fn her_kit_has_one_a4_sheet_every_box_id_and_embedded_fonts() {
    let dir = out_dir("her");
    let report = make(&["--preset", "hexapawn"], &dir, "2");
    assert_eq!(report["boxes"], 19);
    assert_eq!(report["previews"], 19);
    let doc = lopdf::Document::load(dir.join("labels.pdf")).expect("labels.pdf parses");
    let pages = doc.get_pages();
    assert_eq!(pages.len(), 1);
    assert_eq!(report["label_pages"], 1);
    let (w, h) = page_size(&doc, pages[&1]);
    assert!(
        (w - 595.3).abs() < 0.5 && (h - 841.9).abs() < 0.5,
        "{w} x {h}"
    );
    assert!(embedded_fonts(&doc) >= 1);
    let text = doc.extract_text(&[1]).expect("text");
    for id in 1..=19 {
        assert!(
            text.contains(&format!("box {id}")),
            "box {id} missing from {text}"
        );
    }
    assert!(lopdf::Document::load(dir.join("kit.pdf")).is_ok());
}

#[test]
fn previews_are_pngs_of_the_label_size() {
    let dir = out_dir("previews");
    make(&["--preset", "bachet"], &dir, "2");
    for id in 1..=7 {
        let file = std::fs::File::open(dir.join(format!("previews/box-{id}.png"))).unwrap();
        let decoder = png::Decoder::new(std::io::BufReader::new(file));
        let reader = decoder.read_info().expect("decodes");
        let info = reader.info();
        // 52 x 36 mm at 150 dpi.
        assert_eq!((info.width, info.height), (307, 213));
    }
    assert!(!dir.join("previews/box-8.png").exists());
}

#[test]
fn box_ids_are_zero_padded_to_the_widest() {
    let dir = out_dir("padded");
    let kit = std::env::temp_dir().join(format!("matchbox-kit-{}-padded.yaml", std::process::id()));
    std::fs::write(&kit, "game: nim\nstones: 12\n").unwrap();
    let report = make(&["--kit", kit.to_str().unwrap()], &dir, "2");
    assert_eq!(report["boxes"], 11);
    assert!(dir.join("previews/box-01.png").exists());
    assert!(dir.join("previews/box-11.png").exists());
}

#[test]
fn two_runs_give_identical_bytes_whatever_the_threads() {
    let (a, b) = (out_dir("run-a"), out_dir("run-b"));
    make(&["--preset", "menace"], &a, "1");
    make(&["--preset", "menace"], &b, "2");
    // Every preview, too: each thread keeps its own shaping plans and glyph outlines.
    let previews = std::fs::read_dir(a.join("previews"))
        .unwrap()
        .map(|e| format!("previews/{}", e.unwrap().file_name().to_string_lossy()));
    let files: Vec<String> = ["labels.pdf".to_string(), "kit.pdf".to_string()]
        .into_iter()
        .chain(previews)
        .collect();
    assert_eq!(files.len(), 2 + 304);
    for file in files {
        let (x, y) = (
            std::fs::read(a.join(&file)).unwrap(),
            std::fs::read(b.join(&file)).unwrap(),
        );
        assert!(x == y, "{file} differs between runs");
    }
}

#[test]
fn letter_paper_and_small_labels_fit_more_per_page() {
    let dir = out_dir("letter");
    let kit = std::env::temp_dir().join(format!("matchbox-kit-{}-letter.yaml", std::process::id()));
    std::fs::write(
        &kit,
        "preset: menace\npaper: letter\nlabel: craft-small\npreviews: false\n",
    )
    .unwrap();
    let report = make(&["--kit", kit.to_str().unwrap()], &dir, "2");
    assert_eq!(report["previews"], 0);
    assert!(!dir.join("previews").exists());
    let doc = lopdf::Document::load(dir.join("labels.pdf")).unwrap();
    let pages = doc.get_pages();
    let (w, h) = page_size(&doc, pages[&1]);
    assert!(
        (w - 612.0).abs() < 0.5 && (h - 792.0).abs() < 0.5,
        "{w} x {h}"
    );
    // 5 across and 15 down: 75 labels a page.
    assert_eq!(pages.len(), 304_usize.div_ceil(75));
}

#[test]
fn polish_and_russian_sheets_are_in_their_language() {
    for (language, word) in [("pl", "pudełko 1"), ("ru", "коробок 1")] {
        let dir = out_dir(language);
        let kit = std::env::temp_dir().join(format!(
            "matchbox-kit-{}-{language}.yaml",
            std::process::id()
        ));
        std::fs::write(
            &kit,
            format!("preset: hexapawn\nlanguage: {language}\npreviews: false\n"),
        )
        .unwrap();
        make(&["--kit", kit.to_str().unwrap()], &dir, "2");
        let doc = lopdf::Document::load(dir.join("labels.pdf")).unwrap();
        let text = doc.extract_text(&[1]).unwrap();
        assert!(text.contains(word), "{language}: {text}");
        assert!(!text.contains("box 1"), "{language}: English left in");
    }
}

#[test]
fn a_label_too_big_or_an_unknown_language_writes_nothing() {
    let dir = out_dir("bad");
    for (name, yaml, expected) in [
        (
            "huge.yaml",
            "game: hexapawn\nrows: 7\ncols: 4\n",
            "241314 boxes: more labels",
        ),
        (
            "big.yaml",
            "preset: hexapawn\nlabel: {width_mm: 250, height_mm: 40}\n",
            ":2:8:",
        ),
        (
            "lang.yaml",
            "preset: hexapawn\nlanguage: fr\n",
            "en (English), pl",
        ),
    ] {
        let kit = std::env::temp_dir().join(format!("matchbox-kit-{}-{name}", std::process::id()));
        std::fs::write(&kit, yaml).unwrap();
        let out = matchbox(
            &[
                "kit",
                "--kit",
                kit.to_str().unwrap(),
                "--out",
                dir.to_str().unwrap(),
            ],
            "2",
        );
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{name}: {err}");
        assert!(!dir.exists(), "{name}: something was written");
    }
}

#[test]
fn a_language_the_kit_cannot_take_is_told_in_the_terminals_language() {
    let kit = std::env::temp_dir().join(format!("matchbox-de-{}.yaml", std::process::id()));
    std::fs::write(&kit, "preset: hexapawn\nlanguage: de\n").unwrap();
    let told = |locale: &str| {
        let out = support::matchbox()
            .args(["boxes", kit.to_str().unwrap()])
            .env_remove("LC_ALL")
            .env_remove("LC_MESSAGES")
            .env("LANG", locale)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{locale}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let polish = told("pl_PL.UTF-8");
    assert!(polish.contains("pl (polski) albo ru"), "{polish}");
    let russian = told("ru_RU.UTF-8");
    assert!(russian.contains("pl (polski) или ru"), "{russian}");
    // A terminal in no kit language, or in none at all: English, as before.
    for locale in ["de_DE.UTF-8", "C", ""] {
        let english = told(locale);
        assert!(
            english.contains("pl (polski) or ru (русский), found `de`"),
            "{english}"
        );
    }
    std::fs::remove_file(kit).unwrap();
}
