//! Pages: labels placed in a grid (cut apart along grey lines, or printed onto die-cut
//! sticker sheets), a colour legend, a calibration bar, and the header (kit name, page n
//! of m, title) that every page of a kit carries; and the edges that tell move numbers
//! apart, which the legend explains and the labels carry.

use std::sync::Arc;

use matchbox_engine::boxes::machine_move;
use matchbox_engine::i18n::{id, strings};
use matchbox_engine::kit::Kit;
pub use matchbox_engine::media::{
    LABEL_SIZES, LabelSize, Paper, SAFE_MARGIN_MM, SHEET_HEADER_MM, SHEET_LEGEND_MM,
    SHEET_MARGIN_MM, STICKER_SHEETS, StickerSheet, cut_grid, label_area, safe_margin_mm,
    sticker_sheet,
};
use matchbox_engine::palette::Colour;

use crate::draw::fonts::text_width;
use crate::draw::scene::{Anchor, GREY, INK, Rect, Rgb, Scene, Stroke, TextStyle, Weight, pt};

/// A page body and the title its header shows.
#[derive(Clone, Debug)]
pub struct Page {
    /// Title printed at the top right of the page.
    pub title: String,
    /// The page, header left empty.
    pub scene: Scene,
    /// Baseline of the header, in mm from the top: inside the top margin of a sticker
    /// sheet, whose labels may start higher than the header of a plain page.
    pub header_y: f32,
}

impl Page {
    /// A page with its header where every plain page has it.
    pub fn new(title: String, scene: Scene) -> Page {
        Page {
            title,
            scene,
            header_y: SHEET_MARGIN_MM + 4.0,
        }
    }
}

/// An empty page of the kit's paper.
pub fn blank(kit: &Kit) -> Scene {
    let (w, h) = kit.paper.size_mm();
    Scene::new(w, h)
}

/// Where the labels of a sheet go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Labels across a page.
    pub across: usize,
    /// Labels down a page.
    pub down: usize,
    /// Top-left corner of the first label (its cut or die-cut edge), in mm.
    pub origin: (f32, f32),
    /// From one label's corner to the next one's, across and down, in mm.
    pub pitch: (f32, f32),
    /// The size of a label, edge to edge.
    pub label: LabelSize,
    /// How far the drawing keeps inside the label's edge.
    pub inset: f32,
    /// Whether grey cut lines are drawn round each label (not on sticker sheets).
    pub cut_lines: bool,
}

impl Grid {
    /// Labels on one page.
    pub fn per_page(&self) -> usize {
        self.across * self.down
    }

    /// The label at `slot` of a page (row by row), edge to edge.
    pub fn slot(&self, slot: usize) -> Rect {
        Rect {
            x: self.origin.0 + (slot % self.across) as f32 * self.pitch.0,
            y: self.origin.1 + (slot / self.across) as f32 * self.pitch.1,
            w: self.label.width_mm,
            h: self.label.height_mm,
        }
    }

    /// The size a label is drawn at: the label less its inset on every side.
    pub fn drawing(&self) -> LabelSize {
        LabelSize {
            width_mm: self.label.width_mm - 2.0 * self.inset,
            height_mm: self.label.height_mm - 2.0 * self.inset,
        }
    }

    /// The bottom edge of the last row, in mm from the top of the page.
    fn bottom(&self) -> f32 {
        self.slot(self.per_page() - 1).y + self.label.height_mm
    }
}

/// The label grid of the kit: a sticker sheet's die-cut grid, or labels edge to edge
/// (one cut separates two) centred between the margins.
pub fn grid(kit: &Kit) -> Grid {
    if let Some(sheet) = &kit.stickers {
        return Grid {
            across: sheet.across as usize,
            down: sheet.down as usize,
            origin: (sheet.left_mm, sheet.top_mm),
            pitch: (sheet.pitch_x_mm, sheet.pitch_y_mm),
            label: sheet.label,
            inset: safe_margin_mm(sheet),
            cut_lines: false,
        };
    }
    let (w, _) = kit.paper.size_mm();
    let (lw, lh) = (kit.label.width_mm, kit.label.height_mm);
    let (across, down) = cut_grid(kit.paper, kit.label);
    Grid {
        across,
        down,
        origin: (
            (w - across as f32 * lw) / 2.0,
            SHEET_MARGIN_MM + SHEET_HEADER_MM,
        ),
        pitch: (lw, lh),
        label: kit.label,
        inset: 0.0,
        cut_lines: true,
    }
}

/// The size every label of the kit is drawn at.
pub fn label_drawing(kit: &Kit) -> LabelSize {
    grid(kit).drawing()
}

/// The edges that tell move numbers apart with `move_colours`, by the machine's own
/// move (its first, second, ...): each differs from the others in colour and also in
/// width or dash, so that a grey-scale print keeps them apart. Dashes are longer than
/// the line is wide, so that the round caps leave a visible gap.
const MOVE_EDGES: [(Rgb, f32, Option<f32>); 6] = [
    ([0x1f, 0x4e, 0xb4], 1.1, None),
    ([0xe0, 0x7b, 0x00], 1.1, Some(4.0)),
    ([0x2e, 0x8b, 0x3e], 1.1, Some(2.2)),
    ([0x8e, 0x24, 0xaa], 0.5, None),
    ([0xc6, 0x28, 0x28], 0.5, Some(3.0)),
    ([0x6d, 0x4c, 0x41], 0.5, Some(1.8)),
];

/// The widest of the move edges, in mm at full scale.
pub const MOVE_EDGE_WIDEST: f32 = {
    let mut widest = 0.0;
    let mut i = 0;
    while i < MOVE_EDGES.len() {
        if MOVE_EDGES[i].1 > widest {
            widest = MOVE_EDGES[i].1;
        }
        i += 1;
    }
    widest
};

/// How many of the machine's moves `move_colours` can tell apart.
pub const MOVE_EDGE_COUNT: usize = MOVE_EDGES.len();

// `move_colours` is refused for a kit of more machine moves than the edges tell apart.
const _: () = assert!(MOVE_EDGE_COUNT == matchbox_engine::boxes::MOVE_EDGE_KINDS);

/// The edge of a box whose earliest move number is `move_number`: thinner on small
/// labels, so that it frames the drawing without crowding it.
pub fn move_edge(kit: &Kit, move_number: u32) -> Stroke {
    let ordinal = machine_move(move_number, kit.machine).max(1) as usize - 1;
    let (colour, width, dash) = MOVE_EDGES[ordinal % MOVE_EDGES.len()];
    let scale = (label_drawing(kit).height_mm / 30.0).clamp(0.5, 1.0);
    Stroke {
        colour,
        width: width * scale,
        dash: dash.map(|d| d * scale),
    }
}

/// How many sheets the kit's labels fill, the skipped slots of a part-used first
/// sheet included.
pub fn sheet_count(kit: &Kit, labels: usize) -> usize {
    (labels + kit.start_at as usize - 1).div_ceil(grid(kit).per_page())
}

/// What the foot of a label sheet explains: the bead colours, and the edge of each
/// move number when labels carry move-colour edges.
pub struct Legend<'k> {
    /// The palette colours some box uses, in palette order.
    pub colours: Vec<&'k Colour>,
    /// The move numbers whose edges appear, in order (empty without move colours).
    pub moves: Vec<u32>,
    /// Letters the game's pictures show, which no bead's letter may look like.
    pub drawn_letters: &'static [&'static str],
}

/// The label sheets: labels in id order, from slot `start_at` of the first sheet; on
/// plain paper edge to edge with thin grey cut lines round each (one cut separates two),
/// on a sticker sheet inside each die-cut label; at the foot the legend and a bar to
/// check that the printer did not scale the page.
pub fn label_pages(kit: &Kit, labels: &[Arc<Scene>], legend: &Legend) -> Vec<Page> {
    let s = strings(kit.language);
    let grid = grid(kit);
    let (_, ph) = kit.paper.size_mm();
    let cut = Stroke {
        colour: GREY,
        width: 0.15,
        dash: None,
    };
    let skipped = kit.start_at as usize - 1;
    let slots: Vec<Option<&Arc<Scene>>> = std::iter::repeat_n(None, skipped)
        .chain(labels.iter().map(Some))
        .collect();
    let (foot, header_y) = if grid.cut_lines {
        let top = ph - SHEET_MARGIN_MM - SHEET_LEGEND_MM + 1.0;
        ((top, ph - PRINTER_MARGIN_MM), SHEET_MARGIN_MM + 4.0)
    } else {
        // Stickers: header and foot in the paper's margins, as clear of the die cuts
        // as the drawing inside each label keeps ([`SAFE_MARGIN_MM`]).
        (
            (grid.bottom() + CUT_CLEARANCE_MM, ph - PRINTER_MARGIN_MM),
            (grid.origin.1 - CUT_CLEARANCE_MM - HEADER_RULE_MM).max(PRINTER_MARGIN_MM + 2.5),
        )
    };
    slots
        .chunks(grid.per_page())
        .map(|chunk| {
            let mut scene = blank(kit);
            for (slot, label) in chunk.iter().enumerate() {
                let r = grid.slot(slot);
                let Some(label) = label else { continue };
                scene.place(Arc::clone(label), r.x + grid.inset, r.y + grid.inset);
                if grid.cut_lines {
                    scene.rect(r, None, Some(cut));
                }
            }
            sheet_foot(&mut scene, kit, legend, foot);
            Page {
                title: s
                    .get(if grid.cut_lines {
                        id::SHEET_LABELS
                    } else {
                        id::SHEET_STICKERS
                    })
                    .to_string(),
                scene,
                header_y,
            }
        })
        .collect()
}

/// How far the header's rule and the foot keep from a die cut: as far as a label's
/// drawing keeps inside it.
const CUT_CLEARANCE_MM: f32 = SAFE_MARGIN_MM;
/// From the header's baseline down to its rule, in mm.
const HEADER_RULE_MM: f32 = 2.0;
/// The running head's size in mm, on every page of every kit: never shrunk for a long
/// name.
const HEADER_SIZE: f32 = 3.4;

/// How close to the paper's edge most printers can print, in mm.
const PRINTER_MARGIN_MM: f32 = 4.0;

/// How far the typeface's descenders reach below the baseline, as a share of its size.
const DESCENT: f32 = 0.24;

/// Length of the calibration bar, in mm.
pub const CALIBRATION_MM: f32 = 50.0;

/// The foot of a label sheet, between `top` and `bottom` (mm from the page top): the
/// calibration bar at the right, the legend flowing at the left, in the largest text
/// that fits.
fn sheet_foot(scene: &mut Scene, kit: &Kit, legend: &Legend, (top, bottom): (f32, f32)) {
    let s = strings(kit.language);
    let (pw, _) = kit.paper.size_mm();
    let right = pw - SHEET_MARGIN_MM.min(grid(kit).origin.0.max(PRINTER_MARGIN_MM));
    let left = pw - right;
    let note = s.get(id::SHEET_CALIBRATION);
    let items = legend_items(kit, legend);
    for size in [3.0, 2.6, 2.2, 1.8] {
        let style = TextStyle::new(size);
        let block = CALIBRATION_MM.max(crate::draw::fonts::text_width(note, size, style.weight));
        let first = top + size;
        let lines = balanced(&items, left, right - block - 4.0, size);
        let last = first + (lines.len() - 1) as f32 * size * 1.6;
        // The last line's descenders, not its baseline, must stay above `bottom`.
        if last + size * DESCENT > bottom && size > 1.8 {
            continue;
        }
        scene.styled_text(pt(right, first), note, style.anchored(Anchor::End));
        calibration_bar(scene, right - CALIBRATION_MM, first + size * 0.45);
        for (row, line) in lines.iter().enumerate() {
            let y = first + row as f32 * size * 1.6;
            for (x, item) in line {
                item.draw(scene, *x, y, size);
            }
        }
        return;
    }
}

/// The kit's name as a running head gives it, the head still fitting (`fits`) at
/// its size: whole where it fits, else its short name (the part before its first
/// comma, dash or colon: "HIM, Hexapawn Instructable Matchboxes" is HIM, "MENACE — машина
/// для игры в крестики-нолики" is MENACE), else cut after a word and
/// ended in an ellipsis. Only a name of one word too long for the page is left whole,
/// for the head to shrink.
fn header_name(name: &str, fits: impl Fn(&str) -> bool) -> String {
    let short = [", ", " — ", " – ", ": "]
        .iter()
        .filter_map(|mark| name.split_once(mark).map(|(short, _)| short))
        .min_by_key(|short| short.len());
    let words: Vec<&str> = name.split(' ').collect();
    let cut = (1..words.len()).rev().map(|n| {
        let kept = words[..n].join(" ");
        format!("{}…", kept.trim_end_matches([',', ';', ':', '·', '–', '—']))
    });
    std::iter::once(name.to_string())
        .chain(short.map(str::to_string))
        .chain(cut)
        .find(|candidate| fits(candidate))
        .unwrap_or_else(|| name.to_string())
}

/// A bar exactly [`CALIBRATION_MM`] long with a tick at either end, as filled shapes
/// (a stroked line would grow by its caps).
fn calibration_bar(scene: &mut Scene, x: f32, y: f32) {
    let bar = |scene: &mut Scene, x: f32, y: f32, w: f32, h: f32| {
        scene.rect(Rect { x, y, w, h }, Some(INK), None);
    };
    bar(scene, x, y + 0.6, CALIBRATION_MM, 0.5);
    bar(scene, x, y, 0.3, 1.7);
    bar(scene, x + CALIBRATION_MM - 0.3, y, 0.3, 1.7);
}

/// One entry of the legend.
enum LegendItem {
    /// A heading, in bold.
    Title(String),
    /// A bead colour: its lettered tag and name.
    Bead(Rgb, String, String),
    /// A move number's edge: a stroke sample and the move.
    Edge(Stroke, String),
}

impl LegendItem {
    fn width(&self, size: f32) -> f32 {
        use crate::draw::fonts::text_width;
        let style = TextStyle::new(size);
        match self {
            LegendItem::Title(t) => text_width(t, size, style.bold().weight) + size,
            LegendItem::Bead(_, _, name) => {
                size * 1.7 + text_width(name, size, style.weight) + size * 1.3
            }
            LegendItem::Edge(_, name) => {
                size * 3.0 + text_width(name, size, style.weight) + size * 1.3
            }
        }
    }

    fn draw(&self, scene: &mut Scene, x: f32, y: f32, size: f32) {
        let style = TextStyle::new(size);
        match self {
            LegendItem::Title(t) => scene.styled_text(pt(x, y), t.clone(), style.bold()),
            LegendItem::Bead(rgb, code, name) => {
                scene.bead_tag(pt(x + size * 0.6, y - size * 0.35), size * 0.6, *rgb, code);
                scene.styled_text(pt(x + size * 1.5, y), name.clone(), style);
            }
            LegendItem::Edge(stroke, name) => {
                let mid = y - size * 0.35;
                scene.line(pt(x, mid), pt(x + size * 2.5, mid), *stroke);
                scene.styled_text(pt(x + size * 2.9, y), name.clone(), style);
            }
        }
    }
}

fn legend_items(kit: &Kit, legend: &Legend) -> Vec<LegendItem> {
    let s = strings(kit.language);
    let mut items = vec![LegendItem::Title(s.get(id::SHEET_LEGEND).to_string())];
    items.extend(legend.colours.iter().map(|c| {
        let code = s.bead_code(c, legend.drawn_letters);
        LegendItem::Bead(c.rgb, code, s.colour_name(c))
    }));
    if !legend.moves.is_empty() {
        items.push(LegendItem::Title(s.get(id::SHEET_MOVE_EDGES).to_string()));
        items.extend(legend.moves.iter().map(|&m| {
            LegendItem::Edge(
                move_edge(kit, m),
                matchbox_engine::boxes::tag(&[m], kit.machine, kit.tags, kit.numerals),
            )
        }));
    }
    items
}

/// The items flowed into lines between `left` and `right`, each at its x; never
/// empty. A heading keeps at least two of its items beside it or none, so that no line
/// holds a heading and one colour with the rest of its colours below («Kolory
/// koralików: Cz czerwony» over the other three).
fn flow(items: &[LegendItem], left: f32, right: f32, size: f32) -> Vec<Vec<(f32, &LegendItem)>> {
    let mut lines: Vec<Vec<(f32, &LegendItem)>> = vec![Vec::new()];
    let mut x = left;
    let mut break_next = false;
    for (i, item) in items.iter().enumerate() {
        let w = item.width(size);
        let lead = match item {
            LegendItem::Title(_) => heading_lead(&items[i + 1..], size),
            _ => 0.0,
        };
        if (break_next || x + w + lead > right) && x > left {
            lines.push(Vec::new());
            x = left;
        }
        // A heading at the start of a line whose first items do not fit beside it
        // stands alone.
        break_next = x + w + lead > right;
        if let Some(line) = lines.last_mut() {
            line.push((x, item));
        }
        x += w;
    }
    lines
}

/// The width of the first two items under a heading (its only one, where it has one),
/// which the heading keeps on its line.
fn heading_lead(after: &[LegendItem], size: f32) -> f32 {
    after
        .iter()
        .take_while(|item| !matches!(item, LegendItem::Title(_)))
        .take(2)
        .map(|item| item.width(size))
        .sum()
}

/// The items flowed into as few lines as between `left` and `right`, but each line
/// as short as keeps them that few, so that the last line is as full as the others and
/// never holds one colour alone («Ж жёлтый» under a full line).
fn balanced(
    items: &[LegendItem],
    left: f32,
    right: f32,
    size: f32,
) -> Vec<Vec<(f32, &LegendItem)>> {
    let mut lines = flow(items, left, right, size);
    if lines.len() < 2 {
        return lines;
    }
    // Narrower by half a letter at a time while the lines stay as many.
    let mut narrower = right - size * 0.5;
    while narrower > left {
        let fewer = flow(items, left, narrower, size);
        if fewer.len() != lines.len() {
            break;
        }
        lines = fewer;
        narrower -= size * 0.5;
    }
    lines
}

/// Puts the header on every page: kit name and page n of m at the left, the page's
/// title at the right, a rule beneath. The name is given one way on every page: the
/// longest form that fits beside every page's title.
pub fn finish(kit: &Kit, pages: Vec<Page>) -> Vec<Scene> {
    let s = strings(kit.language);
    let total = pages.len().to_string();
    let header = |name: &str, page: usize| {
        s.fill(
            id::SHEET_HEADER,
            &[
                ("name", name),
                ("page", &page.to_string()),
                ("pages", &total),
            ],
        )
    };
    let half = |page: &Page| (page.scene.width - 2.0 * SHEET_MARGIN_MM) / 2.0 - 2.0;
    // The head takes what the page's title (at most half) leaves.
    let room = |page: &Page| {
        let title = text_width(&page.title, HEADER_SIZE, Weight::Regular).min(half(page));
        page.scene.width - 2.0 * SHEET_MARGIN_MM - title - 4.0
    };
    let name = header_name(&kit.name, |name| {
        pages.iter().enumerate().all(|(i, page)| {
            text_width(&header(name, i + 1), HEADER_SIZE, Weight::Bold) <= room(page)
        })
    });
    let style = TextStyle::new(HEADER_SIZE);
    pages
        .into_iter()
        .enumerate()
        .map(|(i, page)| {
            let (room, half) = (room(&page), half(&page));
            let mut scene = page.scene;
            let (w, y) = (scene.width, page.header_y);
            scene.fitted_text(
                pt(SHEET_MARGIN_MM, y),
                header(&name, i + 1),
                style.bold(),
                room,
            );
            scene.fitted_text(
                pt(w - SHEET_MARGIN_MM, y),
                page.title,
                style.anchored(Anchor::End),
                half,
            );
            scene.line(
                pt(SHEET_MARGIN_MM, y + HEADER_RULE_MM),
                pt(w - SHEET_MARGIN_MM, y + HEADER_RULE_MM),
                Stroke::solid(GREY, 0.2),
            );
            scene
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::scene::Shape;

    const MARKER: Rgb = [1, 2, 3];

    fn kit(yaml: &str) -> Kit {
        Kit::from_yaml(yaml, "kit.yaml").expect("a valid kit")
    }

    /// A stand-in label: one rectangle over the whole drawing, whose place on the page
    /// can be read back.
    fn marker(kit: &Kit) -> Arc<Scene> {
        let size = label_drawing(kit);
        let mut scene = Scene::new(size.width_mm, size.height_mm);
        let (w, h) = (size.width_mm, size.height_mm);
        scene.rect(
            Rect {
                x: 0.0,
                y: 0.0,
                w,
                h,
            },
            Some(MARKER),
            None,
        );
        Arc::new(scene)
    }

    /// The bounding boxes of the filled polygons of `colour` on a page, in drawing order.
    fn filled(page: &Scene, colour: Rgb) -> Vec<Rect> {
        let mut found = Vec::new();
        page.paint(&mut |shape| {
            if let Shape::Polygon {
                points,
                fill: Some(c),
                ..
            } = shape
                && *c == colour
            {
                let xs = points.iter().map(|p| p.x);
                let ys = points.iter().map(|p| p.y);
                let (x, y) = (
                    xs.clone().fold(f32::MAX, f32::min),
                    ys.clone().fold(f32::MAX, f32::min),
                );
                let (r, b) = (xs.fold(f32::MIN, f32::max), ys.fold(f32::MIN, f32::max));
                found.push(Rect {
                    x,
                    y,
                    w: r - x,
                    h: b - y,
                });
            }
        });
        found
    }

    fn no_legend() -> Legend<'static> {
        Legend {
            colours: Vec::new(),
            moves: Vec::new(),
            drawn_letters: &[],
        }
    }

    #[test]
    fn a_legend_heading_keeps_two_colours_beside_it_or_none() {
        let bead = |code: &str, name: &str| LegendItem::Bead([0, 0, 0], code.into(), name.into());
        let items = vec![
            LegendItem::Title("Kolory koralików:".into()),
            bead("Cz", "czerwony"),
            bead("N", "niebieski"),
            bead("Ż", "żółty"),
            bead("Zi", "zielony"),
            LegendItem::Title("Ruchy:".into()),
            LegendItem::Edge(Stroke::solid([0, 0, 0], 0.3), "ruch 2".into()),
            LegendItem::Edge(Stroke::solid([0, 0, 0], 0.3), "ruch 4".into()),
        ];
        let size = 3.0;
        let mut alone = 0;
        for right in (20..200).map(|mm| mm as f32) {
            for lines in [
                flow(&items, 0.0, right, size),
                balanced(&items, 0.0, right, size),
            ] {
                for pair in lines.windows(2) {
                    let (line, next) = (&pair[0], &pair[1]);
                    let heading_then_one = line.len() >= 2
                        && matches!(line[line.len() - 2].1, LegendItem::Title(_))
                        && !matches!(line[line.len() - 1].1, LegendItem::Title(_));
                    let continued = !matches!(next[0].1, LegendItem::Title(_));
                    assert!(
                        !(heading_then_one && continued),
                        "{right} mm: a heading with one item, the rest below"
                    );
                    alone += usize::from(matches!(
                        line.last().map(|l| l.1),
                        Some(LegendItem::Title(_))
                    ));
                }
            }
        }
        // The narrow widths do put a heading alone on its line (the case the rule makes).
        assert!(alone > 0);
    }

    #[test]
    fn every_sticker_label_lies_on_its_die_cut_grid() {
        for sheet in STICKER_SHEETS {
            let kit = kit(&format!("preset: bachet\nlabel: {}\n", sheet.code));
            assert_eq!(kit.paper, sheet.paper, "{}", sheet.code);
            let per_sheet = (sheet.across * sheet.down) as usize;
            let labels = vec![marker(&kit); per_sheet + 1];
            let pages = label_pages(&kit, &labels, &no_legend());
            assert_eq!(
                pages.len(),
                2,
                "{}: one label runs onto a second sheet",
                sheet.code
            );
            assert_eq!(
                (pages[0].scene.width, pages[0].scene.height),
                sheet.paper.size_mm()
            );
            let placed = filled(&pages[0].scene, MARKER);
            assert_eq!(placed.len(), per_sheet, "{}", sheet.code);
            let safe = SAFE_MARGIN_MM.max(sheet.corner_mm);
            for (i, drawn) in placed.iter().enumerate() {
                // The die cut, from the maker's figures.
                let (col, row) = (
                    (i as u32 % sheet.across) as f32,
                    (i as u32 / sheet.across) as f32,
                );
                let cut_x = sheet.left_mm + col * sheet.pitch_x_mm;
                let cut_y = sheet.top_mm + row * sheet.pitch_y_mm;
                let at = format!("{} label {i}", sheet.code);
                assert!(
                    (drawn.x - safe - cut_x).abs() < 0.1,
                    "{at}: x {} vs {cut_x}",
                    drawn.x
                );
                assert!(
                    (drawn.y - safe - cut_y).abs() < 0.1,
                    "{at}: y {} vs {cut_y}",
                    drawn.y
                );
                assert!(
                    drawn.x + drawn.w <= cut_x + sheet.label.width_mm - safe + 0.01,
                    "{at}"
                );
                assert!(
                    drawn.y + drawn.h <= cut_y + sheet.label.height_mm - safe + 0.01,
                    "{at}"
                );
            }
            let cut_lines =
                pages[0].scene.shapes.iter().any(
                    |s| matches!(s, Shape::Polygon { stroke: Some(st), .. } if st.colour == GREY),
                );
            assert!(
                !cut_lines,
                "{}: a sticker sheet has no cut lines",
                sheet.code
            );
        }
    }

    #[test]
    fn plain_sheets_have_cut_lines_and_the_readme_figures() {
        let kit = kit("preset: bachet\n");
        let grid = grid(&kit);
        // The README's figures: 21 matchbox labels (3 x 7) on A4; MENACE on 15 sheets.
        assert_eq!((grid.across, grid.down), (3, 7));
        assert_eq!(sheet_count(&kit, 304), 15);
        let craft = self::kit("preset: bachet\nlabel: craft-small\n");
        assert_eq!(grid_of(&craft), (5, 16));
        assert_eq!(sheet_count(&craft, 304), 4);
        let pages = label_pages(&kit, &vec![marker(&kit); 22], &no_legend());
        assert_eq!(pages.len(), 2);
        let cut_lines = |page: &Page| {
            page.scene
                .shapes
                .iter()
                .filter(
                    |s| matches!(s, Shape::Polygon { stroke: Some(st), .. } if st.colour == GREY),
                )
                .count()
        };
        assert_eq!(cut_lines(&pages[0]), 21, "a cut line round every label");
        assert_eq!(cut_lines(&pages[1]), 1);
    }

    fn grid_of(kit: &Kit) -> (usize, usize) {
        let g = grid(kit);
        (g.across, g.down)
    }

    #[test]
    fn start_at_leaves_the_first_slots_of_the_first_sheet_empty() {
        let kit = kit("preset: bachet\nlabel: L7160\nstart_at: 20\n");
        let labels = vec![marker(&kit); 5];
        let pages = label_pages(&kit, &labels, &no_legend());
        assert_eq!(pages.len(), 2);
        let first = filled(&pages[0].scene, MARKER);
        assert_eq!(first.len(), 2, "slots 20 and 21");
        let slot_20 = grid(&kit).slot(19);
        assert!((first[0].x - grid(&kit).inset - slot_20.x).abs() < 0.01);
        assert!((first[0].y - grid(&kit).inset - slot_20.y).abs() < 0.01);
        assert_eq!(filled(&pages[1].scene, MARKER).len(), 3);
        assert_eq!(sheet_count(&kit, 5), 2);
    }

    #[test]
    fn every_label_sheet_carries_a_50_mm_calibration_bar() {
        for yaml in [
            "preset: bachet\n",
            "preset: bachet\nlabel: L7651\n",
            "preset: bachet\nlabel: 5160\n",
        ] {
            let kit = kit(yaml);
            let pages = label_pages(&kit, &[marker(&kit)], &no_legend());
            let bars: Vec<Rect> = filled(&pages[0].scene, INK)
                .into_iter()
                .filter(|r| r.w > 10.0)
                .collect();
            assert_eq!(bars.len(), 1, "{yaml}");
            assert!(
                (bars[0].w - CALIBRATION_MM).abs() < 0.001,
                "{yaml}: {}",
                bars[0].w
            );
            // In the margin: below the last row of labels, and on the paper.
            let (_, ph) = kit.paper.size_mm();
            assert!(
                bars[0].y > grid(&kit).bottom() && bars[0].y + bars[0].h < ph - 3.0,
                "{yaml}"
            );
        }
    }

    #[test]
    fn header_and_foot_keep_clear_of_the_die_cuts_and_on_the_paper() {
        let palette = matchbox_engine::palette::default_palette();
        for sheet in STICKER_SHEETS {
            let kit = kit(&format!(
                "preset: menace\nlabel: {}\nmove_colours: true\n",
                sheet.code
            ));
            let legend = Legend {
                colours: palette.iter().take(9).collect(),
                moves: vec![1, 3, 5, 7, 9],
                drawn_letters: &[],
            };
            let pages = finish(&kit, label_pages(&kit, &[marker(&kit)], &legend));
            let g = grid(&kit);
            let (top, bottom) = (g.origin.1, g.bottom());
            let (_, ph) = kit.paper.size_mm();
            let mut texts = 0;
            pages[0].paint(&mut |shape| match shape {
                // The header's rule: a grey line across the page above the labels.
                Shape::Line { points, stroke } if stroke.colour == GREY => {
                    assert!(
                        points[0].y <= top - SAFE_MARGIN_MM + 0.01,
                        "{}: rule at {}",
                        sheet.code,
                        points[0].y
                    );
                }
                Shape::Text { at, size, .. } if at.y > bottom => {
                    texts += 1;
                    // Accents reach 0.95 of the size above the baseline, descenders 0.24 below.
                    assert!(
                        at.y - size * 0.95 >= bottom + SAFE_MARGIN_MM - 0.01,
                        "{}: foot at {}",
                        sheet.code,
                        at.y
                    );
                    assert!(
                        at.y + size * DESCENT <= ph - PRINTER_MARGIN_MM + 0.01,
                        "{}: legend at {}",
                        sheet.code,
                        at.y
                    );
                }
                _ => {}
            });
            assert!(texts > 9, "{}: the legend is drawn", sheet.code);
        }
    }

    #[test]
    fn sticker_codes_are_read_in_any_case_and_with_the_makers_name() {
        for code in ["L7160", "l7160", "Avery-L7160", "zweckform L7160"] {
            assert_eq!(sticker_sheet(code).map(|s| s.code), Some("L7160"), "{code}");
        }
        assert!(sticker_sheet("L9999").is_none());
    }

    #[test]
    fn menace_needs_the_sheets_the_readme_says() {
        for (code, sheets) in [
            ("L7160", 15),
            ("L7159", 13),
            ("L7163", 22),
            ("L7651", 5),
            ("5160", 11),
            ("5163", 31),
        ] {
            let kit = kit(&format!("preset: menace\nlabel: {code}\n"));
            assert_eq!(sheet_count(&kit, 304), sheets, "{code}");
        }
    }

    #[test]
    fn every_listed_sheet_fits_its_paper() {
        for sheet in STICKER_SHEETS {
            assert_eq!(
                sheet.misfit(matchbox_engine::i18n::Messages::default()),
                None,
                "{}",
                sheet.code
            );
        }
    }

    #[test]
    fn a_running_head_too_long_gives_the_short_name_then_words_and_an_ellipsis() {
        let fits = |most: usize| move |name: &str| name.chars().count() <= most;
        let him = "HIM, Hexapawn Instructable Matchboxes";
        assert_eq!(header_name(him, fits(60)), him);
        assert_eq!(header_name(him, fits(20)), "HIM");
        let menace = "MENACE — машина для игры в крестики-нолики";
        assert_eq!(header_name(menace, fits(30)), "MENACE");
        let long = "Машина для класса 5Б и кружка";
        assert_eq!(header_name(long, fits(20)), "Машина для класса…");
        assert_eq!(header_name("Супермашина", fits(5)), "Супермашина");
    }

    #[test]
    fn every_running_head_keeps_its_size() {
        for preset in matchbox_engine::kit::presets() {
            for language in ["en", "pl", "ru"] {
                let k = kit(&format!("preset: {}\nlanguage: {language}\n", preset.name));
                let page = Page {
                    scene: Scene::new(210.0, 297.0),
                    header_y: 15.0,
                    title: String::new(),
                };
                let mut sizes = Vec::new();
                finish(&k, vec![page])[0].paint(&mut |shape| {
                    if let Shape::Text { size, .. } = shape {
                        sizes.push(*size);
                    }
                });
                assert!(
                    sizes.iter().all(|&size| size == HEADER_SIZE),
                    "{} in {language}: {sizes:?}",
                    preset.name
                );
            }
        }
    }

    #[test]
    fn a_kits_running_head_names_it_one_way_on_every_page() {
        let k = kit("preset: hexapawn-first\nlanguage: en\n");
        let page = |title: &str| Page {
            scene: Scene::new(210.0, 297.0),
            header_y: 15.0,
            title: title.to_string(),
        };
        let heads: Vec<String> = finish(
            &k,
            vec![page("Rules"), page(&"A long page title, ".repeat(4))],
        )
        .iter()
        .map(|scene| {
            let mut head = String::new();
            scene.paint(&mut |shape| {
                if let Shape::Text { text, .. } = shape
                    && head.is_empty()
                {
                    head = text.clone();
                }
            });
            head
        })
        .collect();
        // The second page's title leaves room only for the short name: so does the first.
        assert_eq!(heads[0], "HIM · page 1 of 2", "{heads:?}");
        assert_eq!(heads[1], "HIM · page 2 of 2", "{heads:?}");
    }
}
