//! A kit file's settings made into a [`Kit`], one concern at a time: the beads, the
//! palette, the paper and labels, the name, the rule.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_saphyr::Spanned;

use super::{Kit, KitFile, Numerals, Tags};
use crate::game::{AnyGame, Side};
use crate::i18n::{Language, Named, id};
use crate::media::{LABEL_SIZES, LabelSize, Paper, STICKER_SHEETS, StickerSheet, sticker_sheet};
use crate::palette::{self, Colour};
use crate::rule::{BeadSchedule, MAX_REWARD, MAX_START_BEADS, Reward, Rule};
use crate::settings::{Places, Source, code_point, deferred, ranged};
use crate::{Command, Error, Problem};

/// What `label:` names: a label size cut from plain paper, or a sticker sheet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum LabelChoice {
    /// Labels of this size, printed edge to edge and cut apart.
    Cut(LabelSize),
    /// A die-cut sheet of self-adhesive labels; `paper` of a custom sheet is the kit's.
    Sticker(StickerSheet),
}

/// The fields of a label size or a custom sticker sheet in kit.yaml.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LabelFields {
    width_mm: f32,
    height_mm: f32,
    across: Option<u32>,
    down: Option<u32>,
    left_mm: Option<f32>,
    top_mm: Option<f32>,
    pitch_x_mm: Option<f32>,
    pitch_y_mm: Option<f32>,
    corner_mm: Option<f32>,
}

impl<'de> Deserialize<'de> for LabelChoice {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct LabelVisitor;
        impl<'de> Visitor<'de> for LabelVisitor {
            type Value = LabelChoice;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a label size (`matchbox`, `craft-small`), a sticker sheet (`L7160`, `5160`, ...: see `matchbox labels`), {width_mm, height_mm}, or a custom sticker sheet")
            }
            fn visit_str<E: de::Error>(self, name: &str) -> Result<LabelChoice, E> {
                if let Some((_, size)) = LABEL_SIZES.iter().find(|(n, _)| *n == name) {
                    return Ok(LabelChoice::Cut(*size));
                }
                sticker_sheet(name)
                    .map(LabelChoice::Sticker)
                    .ok_or_else(|| {
                        let codes: Vec<&str> = STICKER_SHEETS.iter().map(|s| s.code).collect();
                        E::custom(deferred(
                            id::PROBLEM_UNKNOWN_LABEL,
                            &[("name", name), ("sheets", &codes.join(", "))],
                        ))
                    })
            }
            fn visit_u64<E: de::Error>(self, code: u64) -> Result<LabelChoice, E> {
                // Avery's US codes are plain numbers: `label: 5160`.
                self.visit_str(&code.to_string())
            }
            fn visit_i64<E: de::Error>(self, code: i64) -> Result<LabelChoice, E> {
                self.visit_str(&code.to_string())
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<LabelChoice, A::Error> {
                let f = LabelFields::deserialize(de::value::MapAccessDeserializer::new(map))?;
                let label = LabelSize {
                    width_mm: f.width_mm,
                    height_mm: f.height_mm,
                };
                let (Some(across), Some(down)) = (f.across, f.down) else {
                    return match (f.across, f.down, f.left_mm, f.top_mm) {
                        (None, None, None, None) => Ok(LabelChoice::Cut(label)),
                        _ => Err(de::Error::custom(deferred(
                            id::PROBLEM_STICKER_SHEET_GRID,
                            &[],
                        ))),
                    };
                };
                let (Some(left_mm), Some(top_mm)) = (f.left_mm, f.top_mm) else {
                    return Err(de::Error::custom(deferred(
                        id::PROBLEM_STICKER_SHEET_CORNER,
                        &[],
                    )));
                };
                Ok(LabelChoice::Sticker(StickerSheet {
                    code: "custom",
                    paper: Paper::A4,
                    label,
                    across,
                    down,
                    left_mm,
                    top_mm,
                    pitch_x_mm: f.pitch_x_mm.unwrap_or(label.width_mm),
                    pitch_y_mm: f.pitch_y_mm.unwrap_or(label.height_mm),
                    corner_mm: f.corner_mm.unwrap_or(0.0),
                }))
            }
        }
        deserializer.deserialize_any(LabelVisitor)
    }
}

/// One colour of a palette in kit.yaml.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PaletteEntry {
    name: String,
    rgb: String,
}

/// The kit's paper and labels.
struct Media {
    paper: Paper,
    label: LabelSize,
    stickers: Option<StickerSheet>,
    start_at: u32,
}

impl KitFile {
    /// The kit these settings make; `preset_rule` is the rule of the preset they
    /// override, if any. Each concern is checked in turn, in the order of kit.yaml's keys.
    pub(super) fn resolve(
        self,
        src: &Source,
        game: AnyGame,
        places: Places,
        preset_rule: Option<Rule>,
    ) -> Result<Kit, Error> {
        let beads = self.beads(src)?;
        let palette = self.palette(src)?;
        let Media {
            paper,
            label,
            stickers,
            start_at,
        } = self.media(src)?;
        let language = self.language.as_ref().map_or(Language::En, |v| v.value);
        let name = self.name(src, &game, language)?;
        let (rule, warnings) = self.rule(src, &game, preset_rule)?;
        Ok(Kit {
            name,
            game,
            machine: self.machine.as_ref().map_or(Side::Second, |v| v.value),
            symmetry: self.symmetry.as_ref().is_none_or(|v| v.value),
            skip_forced: self.skip_forced.as_ref().is_some_and(|v| v.value),
            beads,
            palette,
            rule,
            reward: self
                .reward
                .as_ref()
                .map_or_else(Reward::default, |v| v.value),
            language,
            paper,
            label,
            stickers,
            start_at,
            move_colours: self.move_colours.as_ref().is_some_and(|v| v.value),
            tags: self.tags.as_ref().map_or(Tags::GameMove, |v| v.value),
            numerals: self.numerals.as_ref().map_or(Numerals::Arabic, |v| v.value),
            show_beads: self.show_beads.as_ref().is_none_or(|v| v.value),
            previews: self.previews.as_ref().is_none_or(|v| v.value),
            places,
            warnings,
        })
    }

    /// The bead schedule, each count from 1 to 100.
    fn beads(&self, src: &Source) -> Result<BeadSchedule, Error> {
        let beads = self
            .beads
            .as_ref()
            .map_or(BeadSchedule::Each(1), |b| b.value.clone());
        if let Some(b) = &self.beads {
            let say = src.messages;
            let check = |n: u32| {
                if (1..=MAX_START_BEADS).contains(&n) {
                    Ok(())
                } else {
                    Err(src.at(
                        b,
                        say.message(
                            id::PROBLEM_BEADS_RANGE,
                            &[
                                ("key", "beads"),
                                ("most", &say.number(MAX_START_BEADS)),
                                ("found", &say.number(n)),
                            ],
                        ),
                    ))
                }
            };
            match &b.value {
                BeadSchedule::Each(n) => check(*n)?,
                BeadSchedule::ByMoveNumber(map) if map.is_empty() => {
                    return Err(src.at(b, say.message(id::PROBLEM_BEADS_NO_MOVES, &[])));
                }
                BeadSchedule::ByMoveNumber(map) => {
                    for n in map.values() {
                        check(*n)?;
                    }
                }
            }
        }
        Ok(beads)
    }

    /// The palette: the default one, or the file's, each colour named once and printable.
    fn palette(&self, src: &Source) -> Result<Vec<Colour>, Error> {
        Ok(match &self.palette {
            None => palette::default_palette(),
            Some(p) => {
                let say = src.messages;
                if p.value.is_empty() {
                    return Err(src.at(p, say.message(id::PROBLEM_PALETTE_EMPTY, &[])));
                }
                let mut colours: Vec<Colour> = Vec::new();
                for entry in &p.value {
                    let rgb = palette::parse_hex(&entry.rgb).ok_or_else(|| {
                        src.at(
                            p,
                            say.message(
                                id::PROBLEM_COLOUR_RGB,
                                &[("name", &entry.name), ("rgb", &entry.rgb)],
                            ),
                        )
                    })?;
                    check_printable(src, p, "palette", &entry.name)?;
                    if colours.iter().any(|c| c.name == entry.name) {
                        return Err(src.at(
                            p,
                            say.message(id::PROBLEM_COLOUR_TWICE, &[("name", &entry.name)]),
                        ));
                    }
                    colours.push(Colour {
                        name: entry.name.clone(),
                        rgb,
                    });
                }
                colours
            }
        })
    }

    /// The paper, the label size and the sticker sheet, checked against each other, and
    /// the first slot to print on.
    fn media(&self, src: &Source) -> Result<Media, Error> {
        let choice = self
            .label
            .as_ref()
            .map_or(LabelChoice::Cut(LABEL_SIZES[0].1), |v| v.value);
        let paper = match (choice, &self.paper) {
            (LabelChoice::Sticker(sheet), Some(p))
                if sheet.code != "custom" && p.value != sheet.paper =>
            {
                return Err(src.at(
                    p,
                    src.messages
                        .message(
                            id::PROBLEM_STICKER_SHEET_PAPER,
                            &[
                                ("sheet", sheet.code),
                                ("sheet_paper", sheet.paper.name()),
                                ("paper", p.value.name()),
                            ],
                        )
                        .hint(Command::Labels, id::PROBLEM_HINT_SEE),
                ));
            }
            (LabelChoice::Sticker(sheet), None) if sheet.code != "custom" => sheet.paper,
            (_, p) => p.as_ref().map_or(Paper::A4, |v| v.value),
        };
        let (label, stickers) = match choice {
            LabelChoice::Cut(size) => (size, None),
            LabelChoice::Sticker(sheet) => (sheet.label, Some(StickerSheet { paper, ..sheet })),
        };
        if let Some(l) = &self.label {
            check_label(src, l, paper, label, stickers.as_ref())?;
        }
        let per_sheet = crate::media::labels_per_sheet(paper, label, stickers.as_ref());
        let start_at = self.start_at.as_ref().map_or(Ok(1), |v| {
            ranged(src, v, "start_at", 1, i64::from(per_sheet))
        })?;
        Ok(Media {
            paper,
            label,
            stickers,
            start_at,
        })
    }

    /// The kit's name: the file's (without control characters, printable), the preset's
    /// or the game's own, in `language`.
    fn name(&self, src: &Source, game: &AnyGame, language: Language) -> Result<String, Error> {
        let words = crate::i18n::strings(language);
        let say = src.messages;
        let name = match (&self.name, &self.preset) {
            (Some(n), _) => {
                let name = without_controls(&n.value).trim().to_string();
                let length = name.chars().count();
                if length > MAX_NAME_CHARS {
                    return Err(src.at(
                        n,
                        say.message(
                            id::PROBLEM_NAME_TOO_LONG,
                            &[
                                ("key", "name"),
                                ("most", &say.number(MAX_NAME_CHARS as i64)),
                                ("found", &say.number(length as i64)),
                            ],
                        ),
                    ));
                }
                check_printable(src, n, "name", &name)?;
                name
            }
            (None, Some(p)) => words.named(Named::Preset, &p.value),
            (None, None) => game.default_name(words),
        };
        // Only a name the file gives can come out empty: the preset's and the game's have words.
        if let (true, Some(given)) = (name.is_empty(), &self.name) {
            return Err(src.at(given, say.message(id::PROBLEM_NAME_EMPTY, &[])));
        }
        Ok(name)
    }

    /// The learning rule, with a warning when it replaces a preset's relay; a reward only
    /// under the `menace` rule.
    fn rule(
        &self,
        src: &Source,
        game: &AnyGame,
        preset_rule: Option<Rule>,
    ) -> Result<(Rule, Vec<Problem>), Error> {
        let rule = self
            .rule
            .as_ref()
            .map_or_else(|| game.default_rule(), |v| v.value);
        let mut warnings = Vec::new();
        let say = src.messages;
        if let (Some(own), Some(preset)) = (&self.rule, preset_rule)
            && preset == Rule::Relay
            && own.value != Rule::Relay
        {
            let message = say.message(
                id::PROBLEM_WARNING_RELAY_REPLACED,
                &[("rule", &say.rule(own.value.word_key()))],
            );
            warnings.push(Problem {
                place: Some(src.place(&own.referenced)),
                key: Some("rule".into()),
                keys: vec!["rule".into()],
                warning: true,
                ..Problem::new(message)
            });
        }
        if let Some(reward) = &self.reward
            && rule != Rule::Menace
        {
            return Err(src.at(
                reward,
                say.message(
                    id::PROBLEM_REWARD_WITHOUT_MENACE,
                    &[("key", "reward"), ("rule", rule.name())],
                ),
            ));
        }
        if let Some(reward) = &self.reward
            && let Some(which) = reward.value.out_of_range()
        {
            return Err(src.at(
                reward,
                say.message(
                    id::PROBLEM_REWARD_RANGE,
                    &[
                        ("key", "reward"),
                        ("most", &say.number(MAX_REWARD)),
                        ("result", which),
                        ("found", &say.number(reward.value.get(which))),
                    ],
                ),
            ));
        }
        Ok((rule, warnings))
    }
}

/// Refuses a label written at `at` that cannot be: a sticker sheet that does not fit its
/// paper, a label too small to draw legibly, or larger than the paper.
fn check_label(
    src: &Source,
    at: &Spanned<LabelChoice>,
    paper: Paper,
    label: LabelSize,
    stickers: Option<&StickerSheet>,
) -> Result<(), Error> {
    let say = src.messages;
    if let Some(why) = stickers.and_then(|sheet| sheet.misfit(say)) {
        return Err(src.at(
            at,
            say.message(id::PROBLEM_STICKER_SHEET_MISFIT, &[])
                .with("why", why),
        ));
    }
    let (aw, ah) = crate::media::label_area(paper);
    let drawn = match stickers {
        Some(sheet) => {
            let inset = 2.0 * crate::media::safe_margin_mm(sheet);
            LabelSize {
                width_mm: label.width_mm - inset,
                height_mm: label.height_mm - inset,
            }
        }
        None => label,
    };
    let width = say.millimetres(label.width_mm);
    let height = say.millimetres(label.height_mm);
    if !(drawn.width_mm >= 20.0 && drawn.height_mm >= 12.0) {
        let problem = match stickers {
            Some(_) => id::PROBLEM_STICKER_TOO_SMALL,
            None => id::PROBLEM_LABEL_TOO_SMALL,
        };
        return Err(src.at(
            at,
            say.message(problem, &[("width", &width), ("height", &height)]),
        ));
    }
    if stickers.is_none() && (label.width_mm > aw || label.height_mm > ah) {
        return Err(src.at(
            at,
            say.message(
                id::PROBLEM_LABEL_TOO_LARGE,
                &[
                    ("width", &width),
                    ("height", &height),
                    ("paper", paper.name()),
                    ("most_width", &say.millimetres(aw)),
                    ("most_height", &say.millimetres(ah)),
                ],
            ),
        ));
    }
    Ok(())
}

/// The longest kit name, in characters: it heads every sheet.
pub const MAX_NAME_CHARS: usize = 200;

/// Whether `c` is a bidirectional formatting character: in a name it would reorder the
/// program's own text around it (U+202E turns a header backwards).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` without control and bidirectional formatting characters, which a printed
/// name or a terminal echo must never carry.
pub fn without_controls(text: &str) -> String {
    text.chars()
        .filter(|&c| !c.is_control() && !is_bidi_control(c))
        .collect()
}

/// Whether `c` prints as nothing (a zero-width joiner, a soft hyphen, a word joiner):
/// in a name it would only hide a difference between two names that look the same.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{00AD}' | '\u{180E}' | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// Refuses text the embedded font cannot print, rather than printing empty boxes.
fn check_printable<T>(src: &Source, at: &Spanned<T>, key: &str, text: &str) -> Result<(), Error> {
    let say = src.messages;
    if let Some(c) = text.chars().find(|&c| is_invisible(c)) {
        return Err(src.at(
            at,
            say.message(
                id::PROBLEM_INVISIBLE,
                &[("key", key), ("code", &code_point(c))],
            ),
        ));
    }
    match text.chars().find(|&c| !crate::glyphs::printable(c)) {
        None => Ok(()),
        Some(c) => Err(src.at(
            at,
            say.message(
                id::PROBLEM_UNPRINTABLE,
                &[
                    ("key", key),
                    ("character", &c.to_string()),
                    ("code", &code_point(c)),
                ],
            ),
        )),
    }
}
