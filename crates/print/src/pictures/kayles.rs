//! How Kayles is drawn: the row of pins with the machine's knocks, and the pins a class
//! cuts out.

use matchbox_engine::game::kayles::{Kayles, Knock, Row};
use matchbox_engine::i18n::Strings;
use matchbox_engine::i18n::{Id, id};

use super::{CAPTION, CUT};
use super::{DrawnMove, Picture};
use crate::draw::scene::{Anchor, GREY, INK, Pt, Rect, Scene, Stroke, TextStyle, pt};

/// The row of pins as drawn in an area, top to bottom: the discs of one-pin knocks with
/// their arrows down to the pins, the pins, then the brackets of two-pin knocks at two
/// depths, so that a pair is told apart from the pairs beside it.
struct Lane {
    /// The centre of the leftmost pin.
    first: Pt,
    /// From one pin's centre to the next.
    pitch: f32,
    /// A standing pin's radius.
    pin: f32,
    /// A bead disc's radius.
    disc: f32,
    /// The centre line of the one-pin knocks' discs.
    singles: f32,
    /// The brackets of two-pin knocks from an even pin (shallow) and an odd one (deep).
    depths: [f32; 2],
}

/// A bead disc's radius, in pitches (from one pin's centre to the next).
const DISC: f32 = 0.32;

/// The lane's height in pitches, top to bottom: a disc, an arrow down to a pin (0.4)
/// and half the pin (0.3), the other half (0.3), the shallow brackets' legs above their
/// discs (0.35) and a disc down to their bars, the deep brackets 2.3 discs below them, and
/// their discs' lower half.
const HEIGHT: f32 = 1.35 + 6.3 * DISC;

/// How much of a shallow bracket's legs shows between its pins and its disc, in
/// pitches: its bar is narrower than its disc, so without them the disc would sit
/// between two pins with no bracket to be seen.
const SHALLOW_LEGS: f32 = 0.35;

impl Lane {
    /// The lane of `pins` pins, centred in `area`.
    fn of(pins: u8, area: Rect) -> Lane {
        let pitch = (area.w / (f32::from(pins) + 0.4)).min(area.h / HEIGHT);
        let top = area.y + (area.h - pitch * HEIGHT) / 2.0;
        let disc = pitch * DISC;
        let singles = top + disc;
        let row = singles + disc + pitch * 0.4 + pitch * 0.3;
        let shallow = row + pitch * (0.3 + SHALLOW_LEGS) + disc;
        Lane {
            first: pt(
                area.x + area.w / 2.0 - (f32::from(pins) - 1.0) * pitch / 2.0,
                row,
            ),
            pitch,
            pin: pitch * 0.3,
            disc,
            singles,
            depths: [shallow, shallow + disc * 2.3],
        }
    }

    /// The centre of pin `i`, from the left.
    fn pin_at(&self, i: u8) -> Pt {
        pt(self.first.x + f32::from(i) * self.pitch, self.first.y)
    }

    /// The bracket of the pair from pin `first`: its two ends under the pins and its
    /// depth. With a pair beside it drawn too (`crowded`), a shallow bracket joins the
    /// pins' inner sides and a deep one their outer sides, so a deep leg never crosses a
    /// shallow bracket beside it; alone, a shallow one joins the pins' centres, so that
    /// it is not mistaken for a mark of the gap between them.
    fn bracket(&self, first: u8, crowded: bool) -> (f32, f32, f32) {
        let (left, right) = (self.pin_at(first).x, self.pin_at(first + 1).x);
        let depth = self.depths[usize::from(first % 2)];
        let inset = match (first.is_multiple_of(2), crowded) {
            (true, true) => self.pitch * 0.3,
            (true, false) => 0.0,
            (false, _) => -self.pitch * 0.15,
        };
        (left + inset, right - inset, depth)
    }
}

impl Picture for Kayles {
    /// One pin: the pin and the space above it, where its arrow is. Two pins: the space
    /// below them, from the one's centre to the other's, where their bracket is.
    fn move_spots(&self, _position: &Row, mv: Knock, area: Rect) -> Vec<Rect> {
        let lane = Lane::of(self.pins(), area);
        let centre = lane.pin_at(mv.first);
        let bottom = area.y + area.h;
        vec![if mv.pins == 1 {
            Rect {
                x: centre.x - lane.pitch / 2.0,
                y: area.y,
                w: lane.pitch,
                h: centre.y - area.y,
            }
        } else {
            Rect {
                x: centre.x,
                y: centre.y,
                w: lane.pitch,
                h: bottom - centre.y,
            }
        }]
    }

    /// An arrow for one pin, a bracket for two.
    fn bead_line(&self) -> [Id; 2] {
        [id::LABEL_BEADS_KAYLES, id::LABEL_BEADS_SHORT_KAYLES]
    }

    fn picture_size(&self, cell: f32) -> (f32, f32) {
        (cell * (f32::from(self.pins()) + 0.4), cell * HEIGHT)
    }

    /// The pins to cut out, each on a square that folds to stand up.
    fn cut_outs(&self, width: f32, _max_height: f32, words: &Strings) -> Scene {
        let pins = self.pins();
        let size = 24.0_f32.min(width / f32::from(pins));
        let mut scene = Scene::new(width, size * 1.6 + 10.0);
        let x0 = (width - f32::from(pins) * size) / 2.0;
        for i in 0..pins {
            let r = Rect {
                x: x0 + f32::from(i) * size,
                y: 0.0,
                w: size,
                h: size * 1.6,
            };
            scene.rect(r, None, Some(CUT));
            draw_pin(&mut scene, r);
        }
        let text = words.fill(id::BOARD_PINS, &[("n", &pins.to_string())]);
        let style = TextStyle::new(CAPTION).anchored(Anchor::Middle);
        scene.fitted_text(pt(width / 2.0, size * 1.6 + 6.0), text, style, width);
        scene
    }

    /// The row: a standing pin a grey disc, a knocked-down one the small ring of its
    /// spot. A one-pin knock is an arrow down onto its pin from its bead's disc; a
    /// two-pin knock a bracket under the pair with the disc on it.
    fn draw(&self, position: &Row, moves: &[DrawnMove<Knock>], area: Rect, scene: &mut Scene) {
        let lane = Lane::of(self.pins(), area);
        let line = lane.pitch * 0.06;
        let mut discs = Vec::new();
        for m in moves {
            let Knock { first, pins } = m.mv;
            let stroke = Stroke::solid(m.colour, line);
            if pins == 1 {
                let at = pt(lane.pin_at(first).x, lane.singles);
                let tip = pt(at.x, lane.first.y - lane.pin - line);
                scene.arrow(at, tip, m.colour, line);
                discs.push((at, m));
            } else {
                let pair_beside =
                    |other: u8| moves.iter().any(|n| n.mv.pins == 2 && n.mv.first == other);
                let crowded = pair_beside(first + 1) || first > 0 && pair_beside(first - 1);
                let (left, right, depth) = lane.bracket(first, crowded);
                let from = lane.first.y + lane.pin + line;
                scene.line(pt(left, from), pt(left, depth), stroke);
                scene.line(pt(left, depth), pt(right, depth), stroke);
                scene.line(pt(right, depth), pt(right, from), stroke);
                discs.push((pt((left + right) / 2.0, depth), m));
            }
        }
        for i in 0..self.pins() {
            let centre = lane.pin_at(i);
            if position.stands(i) {
                let outline = Stroke::solid(INK, lane.pin * 0.2);
                scene.circle(centre, lane.pin, Some(GREY), Some(outline));
            } else {
                let ring = Stroke::solid(GREY, lane.pin * 0.15);
                scene.circle(centre, lane.pin * 0.35, None, Some(ring));
            }
        }
        // The discs after every line, so that no line is drawn over a letter.
        for (at, m) in discs {
            scene.bead_tag(at, lane.disc, m.colour, &m.code);
        }
    }
}

/// A skittle standing in `r`: a round head on a wider body.
fn draw_pin(scene: &mut Scene, r: Rect) {
    let outline = Some(Stroke::solid(INK, 0.3));
    let x = r.x + r.w / 2.0;
    scene.circle(pt(x, r.y + r.h * 0.64), r.w * 0.3, Some(GREY), outline);
    scene.circle(pt(x, r.y + r.h * 0.28), r.w * 0.17, Some(GREY), outline);
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::game::Rules;

    #[test]
    fn every_knock_is_touched_at_a_place_of_its_own_inside_the_picture() {
        let area = Rect {
            x: 2.0,
            y: 3.0,
            w: 48.4,
            h: 27.5,
        };
        for pins in 1..=12 {
            let game = Kayles::new(pins);
            let start = game.start();
            let mut moves = Vec::new();
            game.legal_moves(&start, &mut moves);
            let spots: Vec<Rect> = moves
                .iter()
                .flat_map(|&mv| game.move_spots(&start, mv, area))
                .collect();
            assert_eq!(spots.len(), moves.len(), "{pins} pins");
            for (i, a) in spots.iter().enumerate() {
                let inside = a.x >= area.x - 1e-3
                    && a.y >= area.y - 1e-3
                    && a.x + a.w <= area.x + area.w + 1e-3
                    && a.y + a.h <= area.y + area.h + 1e-3;
                assert!(inside && a.w > 1.0 && a.h > 1.0, "{pins}: {a:?}");
                for b in &spots[i + 1..] {
                    let e = 1e-3;
                    let apart = a.x + a.w <= b.x + e
                        || b.x + b.w <= a.x + e
                        || a.y + a.h <= b.y + e
                        || b.y + b.h <= a.y + e;
                    assert!(apart, "{pins}: {a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn neighbouring_pairs_brackets_stay_apart_inside_the_picture() {
        let area = Rect {
            x: 0.0,
            y: 0.0,
            w: 48.4,
            h: 27.5,
        };
        for pins in [2, 7, 12] {
            let lane = Lane::of(pins, area);
            assert!(lane.singles - lane.disc >= area.y, "{pins}");
            assert!(
                lane.depths[1] + lane.disc <= area.y + area.h + 1e-3,
                "{pins}"
            );
            // A shallow bracket's legs show between its pins and its disc.
            let legs = lane.depths[0] - lane.disc - (lane.first.y + lane.pin);
            assert!(legs >= lane.pitch * 0.3, "{pins}: {legs}");
            for first in 0..pins - 2 {
                let (_, right, depth) = lane.bracket(first, true);
                let (next_left, _, next_depth) = lane.bracket(first + 1, true);
                // Of two pairs sharing a pin, one bracket is deeper, and the deeper
                // one's leg passes beside the other's end, not through it.
                assert!((depth - next_depth).abs() >= lane.disc * 2.0, "{first}");
                assert!((right - next_left).abs() > lane.pitch * 0.1, "{first}");
                // A bracket drawn alone spans at least from one pin's centre to the
                // other's, wider than its disc.
                let (left, right, _) = lane.bracket(first, false);
                assert!(right - left >= lane.pitch - 1e-3, "{first}");
                assert!(right - left > lane.disc * 2.0, "{first}");
            }
        }
    }
}
