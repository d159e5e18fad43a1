//! A scene as SVG, in millimetres: for the classroom screen (`matchbox serve`) and plots.

use std::fmt::Write;

use super::fonts::{FAMILY, MONO_FAMILY};
use super::scene::{Anchor, Pt, Rgb, Scene, Shape, Stroke, Weight};

/// Numbers with at most three decimals and no trailing zeros, so output is stable.
fn num(v: f32) -> String {
    let s = format!("{:.3}", v);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

use matchbox_engine::palette::hex;

fn points(pts: &[Pt]) -> String {
    pts.iter()
        .map(|p| format!("{},{}", num(p.x), num(p.y)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn paint(fill: Option<Rgb>, stroke: Option<Stroke>) -> String {
    let mut out = format!(" fill=\"{}\"", fill.map_or_else(|| "none".to_string(), hex));
    if let Some(s) = stroke {
        let _ = write!(
            out,
            " stroke=\"{}\" stroke-width=\"{}\" stroke-linejoin=\"round\" stroke-linecap=\"round\"",
            hex(s.colour),
            num(s.width)
        );
        if let Some(d) = s.dash {
            let _ = write!(out, " stroke-dasharray=\"{} {}\"", num(d), num(d));
        }
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The scene as a standalone SVG document sized in millimetres.
pub fn to_svg(scene: &Scene) -> String {
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}mm\" height=\"{h}mm\" viewBox=\"0 0 {w} {h}\">\n",
        w = num(scene.width),
        h = num(scene.height)
    );
    scene.paint(&mut |shape| {
        let _ = match shape {
            Shape::Line {
                points: pts,
                stroke,
            } => writeln!(
                out,
                "<polyline points=\"{}\"{}/>",
                points(pts),
                paint(None, Some(*stroke))
            ),
            Shape::Polygon {
                points: pts,
                fill,
                stroke,
            } => writeln!(
                out,
                "<polygon points=\"{}\"{}/>",
                points(pts),
                paint(*fill, *stroke)
            ),
            Shape::Circle {
                centre,
                radius,
                fill,
                stroke,
            } => writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"{}/>",
                num(centre.x),
                num(centre.y),
                num(*radius),
                paint(*fill, *stroke)
            ),
            Shape::Text {
                at,
                size,
                text,
                colour,
                anchor,
                weight,
            } => writeln!(
                out,
                "<text x=\"{}\" y=\"{}\" font-family=\"{}\" font-size=\"{}\"{}{} fill=\"{}\">{}</text>",
                num(at.x),
                num(at.y),
                match weight {
                    Weight::Mono => MONO_FAMILY,
                    _ => FAMILY,
                },
                num(*size),
                match weight {
                    Weight::Regular | Weight::Mono => "",
                    Weight::Bold => " font-weight=\"bold\"",
                    Weight::Oblique => " font-style=\"oblique\"",
                },
                match anchor {
                    Anchor::Start => "",
                    Anchor::Middle => " text-anchor=\"middle\"",
                    Anchor::End => " text-anchor=\"end\"",
                },
                hex(*colour),
                escape(text)
            ),
            // `Scene::paint` opens every group.
            Shape::Group { .. } => Ok(()),
        };
    });
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::scene::{INK, pt};

    #[test]
    fn shapes_become_svg_elements() {
        let mut scene = Scene::new(52.0, 36.0);
        scene.line(pt(0.0, 0.0), pt(10.5, 3.25), Stroke::solid(INK, 0.2));
        scene.circle(pt(5.0, 5.0), 2.0, Some([255, 0, 0]), None);
        scene.text(pt(1.0, 30.0), 3.0, "box <7> & co", Anchor::Middle);
        let svg = to_svg(&scene);
        assert!(svg.starts_with("<svg") && svg.contains("width=\"52mm\""));
        assert!(svg.contains("points=\"0,0 10.5,3.25\""));
        assert!(svg.contains("<circle cx=\"5\" cy=\"5\" r=\"2\" fill=\"#ff0000\"/>"));
        assert!(svg.contains("box &lt;7&gt; &amp; co"));
        assert!(svg.contains("text-anchor=\"middle\""));
    }
}
