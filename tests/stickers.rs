//! Printing onto sticker sheets: the page is the sheet's paper, the PDF asks not to be
//! scaled, the calibration bar is 50 mm in the PDF itself, move-colour edges show in
//! the PDF and the previews, and a sheet that cannot be is refused at its place.

use std::path::{Path, PathBuf};
use std::process::Output;

const PT_PER_MM: f32 = 72.0 / 25.4;

mod support;

use support::run as matchbox;

fn temp(name: &str) -> PathBuf {
    support::scratch(&format!("stickers-{name}"))
}

/// Writes `yaml` as a kit and runs `matchbox kit` on it into `dir/out`.
fn make(dir: &Path, yaml: &str) -> Output {
    let kit = dir.join("kit.yaml");
    std::fs::write(&kit, yaml).unwrap();
    let out = dir.join("out");
    matchbox(&[
        "kit",
        "--kit",
        kit.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ])
}

fn number(o: &lopdf::Object) -> f32 {
    o.as_float().unwrap_or_else(|_| o.as_i64().unwrap() as f32)
}

/// The filled rectangles of a page, in mm, read from its content stream: every path
/// of four points between `m` and `f`, under the page's `cm` scale.
fn filled_boxes(doc: &lopdf::Document, page: lopdf::ObjectId) -> Vec<(f32, f32)> {
    let content = lopdf::content::Content::decode(&doc.get_page_content(page)).unwrap();
    let (mut scale, mut points, mut boxes) = (1.0f32, Vec::new(), Vec::new());
    for op in content.operations {
        match op.operator.as_str() {
            "cm" => scale = number(&op.operands[0]),
            "m" | "l" => points.push((number(&op.operands[0]), number(&op.operands[1]))),
            "f" | "F" if points.len() == 4 => {
                let xs = points.iter().map(|p| p.0);
                let ys = points.iter().map(|p| p.1);
                let w = xs.clone().fold(f32::MIN, f32::max) - xs.fold(f32::MAX, f32::min);
                let h = ys.clone().fold(f32::MIN, f32::max) - ys.fold(f32::MAX, f32::min);
                boxes.push((w * scale / PT_PER_MM, h * scale / PT_PER_MM));
                points.clear();
            }
            "f" | "F" | "S" | "Q" => points.clear(),
            _ => {}
        }
    }
    boxes
}

#[test]
fn menace_and_her_print_on_l7160_and_5160_unscaled_with_a_50_mm_bar() {
    for (preset, code, paper, pages) in [
        ("menace", "L7160", (210.0, 297.0), 15),
        ("hexapawn", "L7160", (210.0, 297.0), 1),
        ("menace", "5160", (215.9, 279.4), 11),
        ("hexapawn", "5160", (215.9, 279.4), 1),
    ] {
        let dir = temp(&format!("{preset}-{code}"));
        let out = make(
            &dir,
            &format!("preset: {preset}\nlabel: {code}\npreviews: false\n"),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let doc = lopdf::Document::load(dir.join("out/labels.pdf")).expect("parses");
        let page_ids: Vec<_> = doc.get_pages().into_values().collect();
        assert_eq!(page_ids.len(), pages, "{preset} on {code}");
        let media = doc
            .get_dictionary(page_ids[0])
            .unwrap()
            .get(b"MediaBox")
            .unwrap();
        let media = media.as_array().unwrap();
        let size = (number(&media[2]) / PT_PER_MM, number(&media[3]) / PT_PER_MM);
        assert!(
            (size.0 - paper.0).abs() < 0.05 && (size.1 - paper.1).abs() < 0.05,
            "{size:?}"
        );

        let catalog = doc.catalog().unwrap();
        let prefs = catalog
            .get(b"ViewerPreferences")
            .and_then(|p| p.as_dict())
            .expect("viewer preferences");
        assert_eq!(
            prefs.get(b"PrintScaling").unwrap().as_name().unwrap(),
            b"None"
        );

        let bars: Vec<_> = filled_boxes(&doc, page_ids[0])
            .into_iter()
            .filter(|(w, _)| *w > 40.0)
            .collect();
        assert_eq!(
            bars.len(),
            1,
            "{preset} on {code}: one calibration bar: {bars:?}"
        );
        assert!(
            (bars[0].0 - 50.0).abs() < 0.01,
            "the bar is {} mm",
            bars[0].0
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn move_colour_edges_show_in_the_pdf_and_the_previews() {
    let dir = temp("edges");
    let out = make(&dir, "preset: menace\nlabel: L7160\nmove_colours: true\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The first move's edge is blue (#1f4eb4): stroked in the PDF ...
    let doc = lopdf::Document::load(dir.join("out/labels.pdf")).unwrap();
    let first = *doc.get_pages().values().next().unwrap();
    let content = lopdf::content::Content::decode(&doc.get_page_content(first)).unwrap();
    let blue = content.operations.iter().any(|op| {
        op.operator == "RG"
            && op
                .operands
                .iter()
                .map(|o| (number(o) * 255.0).round() as u8)
                .collect::<Vec<_>>()
                == [0x1f, 0x4e, 0xb4]
    });
    assert!(blue, "box 1's edge is stroked in blue");
    // ... and painted along the border of box 1's preview, but not of box 2 (move 3).
    let border_blue = |name: &str| {
        let file = std::fs::File::open(dir.join("out/previews").join(name)).unwrap();
        let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
        // Previews of few colours are indexed: read them as RGB.
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = info.line_size / info.width as usize;
        let row = 4 * info.line_size; // a few pixels inside the top edge
        (0..info.width as usize).any(|x| {
            let p = &buf[row + x * channels..row + x * channels + 3];
            p.iter()
                .zip([0x1f, 0x4e, 0xb4])
                .all(|(a, b)| a.abs_diff(b) < 24)
        })
    };
    assert!(border_blue("box-001.png"));
    assert!(!border_blue("box-002.png"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_labels_command_lists_every_sheet() {
    let out = matchbox(&["labels"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for code in [
        "L7160",
        "L7163",
        "L7651",
        "L7159",
        "5160",
        "5163",
        "matchbox",
        "craft-small",
    ] {
        assert!(text.contains(code), "{code} listed");
    }
    assert!(text.contains("21 per A4 (3 x 7)"), "{text}");
}

#[test]
fn sheets_that_cannot_be_are_refused_at_their_place() {
    let dir = temp("refused");
    for (yaml, expected) in [
        (
            "game: nim\nlabel: L7160\npaper: letter\n",
            "kit.yaml:3:8: the L7160 sticker sheet is A4 paper",
        ),
        (
            "game: nim\nlabel: {width_mm: 70, height_mm: 40, across: 3, down: 8, left_mm: 5, top_mm: 10}\n",
            "kit.yaml:2:8: this sticker sheet cannot be: the grid reaches",
        ),
        (
            "game: nim\nlabel: {width_mm: 60, height_mm: 30, across: 3, down: 8, left_mm: 5, top_mm: 10, pitch_x_mm: 50}\n",
            "labels would overlap",
        ),
        (
            "game: nim\nlabel: {width_mm: 60, height_mm: 30, across: 3}\n",
            "a custom sticker sheet needs",
        ),
        (
            "game: nim\nlabel: L7160\nstart_at: 22\n",
            "kit.yaml:3:11: start_at must be from 1 to 21, not 22",
        ),
        ("game: nim\nlabel: L9999\n", "unknown label `L9999`"),
        (
            "game: nim\nstones: 40\nmove_colours: true\n",
            "move_colours",
        ),
    ] {
        let out = make(&dir, yaml);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{yaml}: {err}");
        assert!(err.contains(expected), "{yaml}: {err}");
        assert!(!dir.join("out").exists(), "{yaml}: nothing written");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
