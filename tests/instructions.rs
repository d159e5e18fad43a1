//! kit.pdf's instruction pages: every template renders in every language for every
//! preset, the figures are the engine's, and the pages come in the promised order.

use matchbox_engine::boxes::BoxSet;
use matchbox_engine::i18n::Language;
use matchbox_engine::i18n::id;
use matchbox_engine::i18n::strings;
use matchbox_engine::kit::{Kit, presets};
use matchbox_engine::simulate::Setup;
use matchbox_engine::simulate::exact::SheetFigures;
use matchbox_engine::with_game;
use matchbox_print::draw::scene::{Shape, Weight};
use matchbox_print::instructions::layout::Booklet;
use matchbox_print::instructions::{
    Findings, SECTIONS, TemplateContext, instruction_pages, render,
};
use matchbox_print::pictures::Game;

fn kit(preset: &str, language: Language) -> Kit {
    Kit::from_yaml(
        &format!("preset: {preset}\nlanguage: {}\n", language.code()),
        "test",
    )
    .unwrap()
}

/// Renders every section's Markdown for a kit.
fn sections<G: Game>(game: &G, kit: &Kit) -> Vec<String> {
    let set = BoxSet::build(game, kit).unwrap();
    let ctx = TemplateContext::new(game, kit, &set, &Findings::default());
    SECTIONS
        .iter()
        .map(|s| render(kit.language, game.name(), s, &ctx).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

#[test]
fn every_template_renders_in_every_language_for_every_preset() {
    for preset in presets() {
        for language in Language::ALL {
            let kit = kit(preset.name, language);
            let sections = with_game!(&kit.game, |game| sections(game, &kit));
            for (name, text) in SECTIONS.iter().zip(&sections) {
                assert!(
                    text.trim_start().starts_with("# "),
                    "{} {language:?} {name}",
                    preset.name
                );
                assert!(!text.contains("{{") && !text.contains("{%"), "{name}");
            }
        }
    }
}

/// The teacher's page of a kit with its exact figures, as `matchbox kit` fills it, the
/// figures first changed by `change`.
fn teacher_with_figures<G: Game>(game: &G, kit: &Kit, change: fn(&mut SheetFigures)) -> String {
    let set = BoxSet::build(game, kit).unwrap();
    let setup = Setup::new(game, kit, kit.rule, false).unwrap();
    let words = strings(kit.language);
    let mut figures = SheetFigures::of(game, &setup.tree, &setup.machine, words);
    figures.as_mut().map(change).expect("the figures are exact");
    let findings = Findings {
        exact: figures,
        ..Findings::default()
    };
    let ctx = TemplateContext::new(game, kit, &set, &findings);
    render(kit.language, game.name(), "teacher", &ctx).unwrap()
}

#[test]
fn the_fastest_teachers_opening_is_in_the_kits_language() {
    for (language, any, some, principle) in [
        (
            Language::En,
            "Any first move will do",
            "so that 7, 6 or 5 are left",
            "the trainer goes on to win that game",
        ),
        (
            Language::Pl,
            "Pierwszy ruch może być dowolny",
            "zostało ich 7, 6 albo 5",
            "trener od razu wygrywa tę partię",
        ),
        (
            Language::Ru,
            "Первый ход может быть любым",
            "осталось 7, 6 или 5",
            "он обязательно выигрывает эту партию",
        ),
    ] {
        let kit = kit("bachet", language);
        // Every first move teaches Bachet's machine as fast: the sheet says so.
        let page = with_game!(&kit.game, |game| teacher_with_figures(game, &kit, |_| {}));
        assert!(
            page.contains(any) && page.contains(principle),
            "{language:?}:\n{page}"
        );
        assert!(!page.contains(some), "{page}");
        // Were they a choice, it would list them.
        let page = with_game!(&kit.game, |game| teacher_with_figures(game, &kit, |f| f
            .any_first_move =
            false));
        assert!(
            page.contains(some) && !page.contains(any),
            "{language:?}:\n{page}"
        );
        if language != Language::En {
            assert!(!page.contains("take") && !page.contains("leave"), "{page}");
        }
    }
}

#[test]
fn polish_and_russian_kits_have_no_english_sentences() {
    let english = [" the ", " and ", " with ", " beads", " box ", " move "];
    for preset in presets() {
        for language in [Language::Pl, Language::Ru] {
            let kit = kit(preset.name, language);
            for text in with_game!(&kit.game, |game| sections(game, &kit)) {
                // MENACE's name, spelt out once, is English by nature.
                let lower = text
                    .replace("Matchbox Educable Noughts And Crosses Engine", "")
                    .to_lowercase();
                for word in english {
                    assert!(
                        !lower.contains(word),
                        "{} {language:?}: `{word}` in\n{text}",
                        preset.name
                    );
                }
            }
        }
    }
}

#[test]
fn the_overview_prints_the_engines_figures_with_correct_plurals() {
    let cases = [
        ("hexapawn", Language::En, ["19", "45 beads"]),
        ("hexapawn", Language::Pl, ["19", "45 koralików"]),
        ("hexapawn", Language::Ru, ["19", "45 бусинок"]),
        ("bachet", Language::Pl, ["7", "18 koralików"]),
        ("bachet-relay", Language::Ru, ["7", "14 бусинок"]),
        ("menace", Language::En, ["304", "1,720 beads"]),
        // Four digits stay together in Polish and Russian (1720), five are grouped.
        ("menace", Language::Ru, ["304", "1720 бусинок"]),
        ("menace", Language::Pl, ["304", "1720 koralików"]),
    ];
    for (preset, language, expected) in cases {
        let kit = kit(preset, language);
        let overview = &with_game!(&kit.game, |game| sections(game, &kit))[0];
        for figure in expected {
            assert!(
                overview.contains(figure),
                "{preset} {language:?}: {figure} in\n{overview}"
            );
        }
    }
}

fn titles_of<G: Game>(game: &G, kit: &Kit) -> Vec<String> {
    let set = BoxSet::build(game, kit).unwrap();
    let pages = instruction_pages(game, kit, &set, &Findings::default()).unwrap();
    pages.into_iter().map(|p| p.title).collect()
}

#[test]
fn the_instruction_pages_come_in_the_promised_order() {
    let kit = kit("hexapawn", Language::En);
    let titles = with_game!(&kit.game, |game| titles_of(game, &kit));
    let mut distinct = titles.clone();
    distinct.dedup();
    assert_eq!(
        distinct,
        [
            "What is a matchbox machine?",
            "The rules of hexapawn",
            "How to work the machine",
            "For the teacher",
            "Score sheet",
            "Board and pawns",
            "Box index"
        ]
    );
    // MENACE's index of 304 boxes runs over several pages, all titled alike.
    let menace = kit_menace();
    let titles = with_game!(&menace.game, |game| titles_of(game, &menace));
    assert!(titles.iter().filter(|t| *t == "Box index").count() >= 5);
}

fn kit_menace() -> Kit {
    kit("menace", Language::En)
}

#[test]
fn kit_pdf_opens_with_the_overview_and_ends_with_the_labels() {
    let dir = std::env::temp_dir().join(format!("matchbox-instr-{}", std::process::id()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "kit",
            "--preset",
            "bachet",
            "--out",
            dir.to_str().unwrap(),
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let doc = lopdf::Document::load(dir.join("kit.pdf")).unwrap();
    let pages = doc.get_pages().len() as u32;
    assert_eq!(u64::from(pages), report["kit_pages"].as_u64().unwrap());
    assert!(pages >= 8);
    let first = doc.extract_text(&[1]).unwrap();
    assert!(first.contains("What is a matchbox machine?"), "{first}");
    assert!(first.contains(&format!("page 1 of {pages}")), "{first}");
    let last = doc.extract_text(&[pages]).unwrap();
    assert!(last.contains("Matchbox labels"), "{last}");
    assert!(last.contains("box 7"), "{last}");
}

fn page_text(pdf: &[u8], page: u32) -> String {
    lopdf::Document::load_mem(pdf)
        .unwrap()
        .extract_text(&[page])
        .unwrap()
}

#[test]
fn the_teachers_sheet_quotes_the_simulation_or_nothing() {
    use matchbox_engine::simulate::{EXPECTATION_RUNS, Setup, expected_losses};
    use matchbox_print::instructions::Expected;
    let her = kit("hexapawn", Language::En);
    let game = matchbox_engine::game::hexapawn::Hexapawn::new(3, 3);
    let setup = Setup::new(&game, &her, her.rule, false).unwrap();
    let training = expected_losses(&her, &setup, EXPECTATION_RUNS).unwrap();
    let measured = training
        .as_ref()
        .and_then(Expected::from_training)
        .expect("HER learns against a perfect opponent");
    assert!(measured.max <= 11);
    let files = matchbox_print::make::make_files(&her, None).unwrap();
    let teacher = page_text(&files.kit_pdf, 4)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(teacher.contains("For the teacher"), "{teacher}");
    let quoted = format!("between {} and {} games", measured.min, measured.max);
    assert!(teacher.contains(&quoted), "{quoted} in {teacher}");

    // HIM, the losing side, never stops losing: the sheet says nothing of it.
    let him = kit("hexapawn-first", Language::En);
    let files = matchbox_print::make::make_files(&him, None).unwrap();
    let teacher = page_text(&files.kit_pdf, 4);
    assert!(
        teacher.contains("For the teacher") && !teacher.contains("A computer trained"),
        "{teacher}"
    );
}

#[test]
fn the_teachers_sheet_quotes_exact_figures_and_menace_figures_to_watch() {
    let text = |preset, language| {
        let files = matchbox_print::make::make_files(&kit(preset, language), None).unwrap();
        (3..7)
            .map(|p| page_text(&files.kit_pdf, p))
            .collect::<String>()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let her = text("hexapawn", Language::En);
    assert!(her.contains("How to teach it in the fewest games"), "{her}");
    assert!(her.contains("needs 22 games on average"), "{her}");
    assert!(her.contains("loses exactly 9 games"), "{her}");
    assert!(text("hexapawn", Language::Pl).contains("dokładnie 9 partii"));
    assert!(text("hexapawn", Language::Ru).contains("ровно 9 партий"));
    let menace = text("menace", Language::En);
    assert!(menace.contains("Watch the draws"), "{menace}");
    assert!(!menace.contains("fewest games"), "{menace}");
}

/// Every piece of text drawn on a kit's first label.
fn first_label_text<G: Game>(game: &G, kit: &Kit) -> Vec<String> {
    use matchbox_print::draw::scene::Shape;
    let set = BoxSet::build(game, kit).unwrap();
    let tags = matchbox_print::label::TagSize::of(game, kit, &set);
    let label = matchbox_print::label::draw_label(game, kit, tags, &set.boxes[0]);
    label
        .shapes
        .iter()
        .filter_map(|shape| match shape {
            Shape::Text { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn labels_count_beads_by_what_marks_a_move_in_each_game() {
    // Noughts and crosses marks its moves with dots; hexapawn and Bachet's game with arrows.
    let cases = [
        ("menace", Language::En, "4 beads per dot", "arrow"),
        ("menace", Language::Pl, "po 4 koraliki na kropkę", "strzałk"),
        ("menace", Language::Ru, "по 4 бусинки на точку", "стрелк"),
        ("bachet", Language::En, "1 bead per arrow", "dot"),
        (
            "hexapawn",
            Language::Pl,
            "po 1 koraliku na strzałkę",
            "kropk",
        ),
        (
            "bachet-relay",
            Language::Ru,
            "по 1 бусинке на стрелку",
            "точк",
        ),
    ];
    for (preset, language, wording, wrong) in cases {
        let kit = kit(preset, language);
        let texts = with_game!(&kit.game, |game| first_label_text(game, &kit));
        // The bead line as a sentence, its noun in the form its number takes; where
        // the foot is too narrow for it beside the tag (Polish and Russian on the
        // matchbox label) on a row of its own, never on two lines.
        assert!(
            texts.iter().any(|t| t == wording),
            "{preset} {language:?}: {texts:?}"
        );
        assert!(
            !texts.iter().any(|t| t.contains(wrong)),
            "{preset} {language:?}: {texts:?}"
        );
    }
}

#[test]
fn the_teachers_page_writes_moves_as_the_labels_tag_them() {
    // Bachet's labels count the machine's own moves, I to IV; so does the teacher's page.
    let cases = [
        (
            Language::En,
            "3 boxes at its move I, 5 at move II, 3 at move III and 1 at move IV",
        ),
        (Language::Pl, "w ruchu I – 3, II – 5, III – 3, IV – 1"),
        (
            Language::Ru,
            "ход I — 3 коробка; ход II — 5 коробков; ход III — 3 коробка; ход IV — 1 коробок",
        ),
    ];
    for (language, expected) in cases {
        let kit = kit("bachet", language);
        let teacher = &with_game!(&kit.game, |game| sections(game, &kit))[3];
        let teacher = teacher.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(teacher.contains(expected), "{language:?}: {teacher}");
        for game_move in ["move 2", "ruch 2", "ruchu 2", "ход 2", "2. ruchu"] {
            assert!(!teacher.contains(game_move), "{language:?}: {teacher}");
        }
    }
    // HER's labels count the moves of the game, and so does its teacher's page.
    let her = kit("hexapawn", Language::Pl);
    let teacher = &with_game!(&her.game, |game| sections(game, &her))[3];
    // A no-break space binds the ordinal to its noun; the words are the same.
    let teacher = teacher.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        teacher.contains("w 2. ruchu – 2, w 4. – 10, w 6. – 7"),
        "{teacher}"
    );
}

#[test]
fn the_game_is_named_by_its_board() {
    let cases = [
        (
            3,
            3,
            Language::En,
            "Hexapawn machine",
            "# The rules of hexapawn",
        ),
        (
            4,
            4,
            Language::En,
            "Octapawn machine",
            "# The rules of octapawn",
        ),
        (
            3,
            4,
            Language::En,
            "Machine for hexapawn on 3 × 4",
            "# The rules of hexapawn on 3 × 4",
        ),
        (
            4,
            4,
            Language::Pl,
            "Maszyna do gry w octapawn",
            "# Zasady gry w octapawn",
        ),
        (
            5,
            4,
            Language::Pl,
            "Maszyna do gry w hexapawn na planszy 5 × 4",
            "# Zasady gry w hexapawn na planszy 5 × 4",
        ),
        (
            3,
            3,
            Language::Ru,
            "Машина для игры Hexapawn",
            "# Правила игры Hexapawn",
        ),
        (
            4,
            4,
            Language::Ru,
            "Машина для игры Octapawn",
            "# Правила игры Octapawn",
        ),
    ];
    for (rows, cols, language, name, heading) in cases {
        let kit = Kit::from_yaml(
            &format!(
                "game: hexapawn\nrows: {rows}\ncols: {cols}\nlanguage: {}\n",
                language.code()
            ),
            "test",
        )
        .unwrap();
        assert_eq!(kit.name, name);
        let rules = &with_game!(&kit.game, |game| sections(game, &kit))[1];
        assert!(rules.starts_with(heading), "{rules}");
    }
}

#[test]
fn an_octapawn_kit_never_calls_its_game_hexapawn_in_its_title_or_rules() {
    for language in Language::ALL {
        let kit = kit("octapawn", language);
        assert!(
            !kit.name.to_lowercase().contains("hexapawn"),
            "{}",
            kit.name
        );
        let sections = with_game!(&kit.game, |game| sections(game, &kit));
        let overview = sections[0].to_lowercase();
        let first_paragraph = overview.lines().find(|l| l.contains("octapawn"));
        assert!(
            first_paragraph.is_some_and(|p| !p.contains("hexapawn")),
            "{language:?}: {overview}"
        );
        let rules = sections[1].to_lowercase();
        let heading = rules.lines().next().unwrap();
        assert!(heading.contains("octapawn"), "{language:?}: {heading}");
        assert!(!rules.contains("hexapawn"), "{language:?}: {rules}");
    }
}

/// The instruction pages as set: what each page holds, and every line.
fn typeset<G: Game>(game: &G, kit: &Kit) -> Booklet {
    let set = BoxSet::build(game, kit).unwrap();
    matchbox_print::instructions::typeset(game, kit, &set, &Findings::default()).unwrap()
}

#[test]
fn no_polish_or_russian_line_ends_in_a_one_letter_word() {
    for preset in presets() {
        for language in [Language::Pl, Language::Ru] {
            let kit = kit(preset.name, language);
            let booklet = with_game!(&kit.game, |game| typeset(game, &kit));
            assert!(booklet.lines.len() > 100);
            for line in &booklet.lines {
                let last = line.rsplit([' ', '\u{a0}']).next().unwrap_or_default();
                let letters = last.trim_start_matches(['(', '«', '„']);
                let one_letter =
                    letters.chars().count() == 1 && letters.chars().all(char::is_alphabetic);
                assert!(!one_letter, "{} {language:?}: {line}", preset.name);
            }
        }
    }
}

#[test]
fn no_page_holds_fewer_than_three_lines_unless_it_ends_its_section() {
    use matchbox_print::instructions::layout::FEWEST_LINES;
    for preset in presets() {
        for language in Language::ALL {
            let kit = kit(preset.name, language);
            let booklet = with_game!(&kit.game, |game| typeset(game, &kit));
            assert_eq!(booklet.fills.len(), booklet.pages.len());
            for (page, fill) in booklet.fills.iter().enumerate() {
                assert!(
                    fill.ends_section || fill.drawings > 0 || fill.lines >= FEWEST_LINES,
                    "{} {language:?}: page {} holds {} lines",
                    preset.name,
                    page + 1,
                    fill.lines
                );
            }
        }
    }
}

#[test]
fn the_print_check_is_the_teachers_and_menace_says_what_each_result_does_to_a_bead() {
    let at = |name: &str| SECTIONS.iter().position(|s| *s == name).unwrap();
    for language in [Language::En, Language::Pl, Language::Ru] {
        let kit = kit("menace", language);
        let pages = with_game!(&kit.game, |game| sections(game, &kit));
        // The pupils' operating page is read at every move; the check is done once, before cutting.
        let bar = |page: &str| page.contains("50 mm") || page.contains("50 мм");
        assert!(!bar(&pages[at("operator")]), "{language:?}");
        assert!(bar(&pages[at("teacher")]), "{language:?}");
        // The reward is the kit's own: 3 beads for a win, 1 for a draw, the drawn bead for a loss.
        let (win, draw) = match language {
            Language::En => ("3 more beads", "1 more bead"),
            Language::Pl => ("3 dodatkowe koraliki", "1 dodatkowy koralik"),
            _ => ("3 дополнительные бусинки", "1 дополнительную бусинку"),
        };
        let overview = &pages[at("overview")];
        assert!(
            overview.contains(win) && overview.contains(draw),
            "{language:?}:\n{overview}"
        );
    }
}

/// Every text the instruction pages set, with its face and where it stands.
fn texts(pages: &[matchbox_print::sheet::Page]) -> Vec<(usize, String, Weight, f32, f32)> {
    let mut out = Vec::new();
    for (i, page) in pages.iter().enumerate() {
        page.scene.paint(&mut |shape| {
            if let Shape::Text {
                text,
                weight,
                at,
                size,
                ..
            } = shape
            {
                out.push((i, text.clone(), *weight, at.y, *size));
            }
        });
    }
    out
}

/// The names of the fonts a PDF embeds (`ABCDEF+DejaVuSans-Oblique`).
fn embedded_font_names(pdf: &[u8]) -> Vec<String> {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    doc.objects
        .values()
        .filter_map(|o| o.as_dict().ok())
        .filter(|d| d.get(b"Type").and_then(|t| t.as_name()).ok() == Some(b"FontDescriptor"))
        .filter(|d| d.has(b"FontFile2") || d.has(b"FontFile3"))
        .filter_map(|d| d.get(b"FontName").and_then(|n| n.as_name()).ok())
        .map(|n| String::from_utf8_lossy(n).into_owned())
        .collect()
}

fn kit_pdf<G: Game>(game: &G, kit: &Kit) -> (Vec<matchbox_print::sheet::Page>, Vec<u8>) {
    let set = BoxSet::build(game, kit).unwrap();
    let pages = instruction_pages(game, kit, &set, &Findings::default()).unwrap();
    let scenes = matchbox_print::sheet::finish(kit, pages.clone());
    (pages, matchbox_print::draw::pdf::to_pdf(&scenes).unwrap())
}

#[test]
fn a_command_is_set_in_an_embedded_monospaced_face_and_a_kit_without_one_embeds_none() {
    use matchbox_print::draw::scene::{Scene, TextStyle, pt};
    let mut scene = Scene::new(100.0, 20.0);
    let mono = TextStyle {
        weight: Weight::Mono,
        ..TextStyle::new(3.7)
    };
    scene.styled_text(pt(5.0, 10.0), "matchbox find 1-3-5-6", mono);
    let pdf = matchbox_print::draw::pdf::to_pdf(&[scene]).unwrap();
    let fonts = embedded_font_names(&pdf);
    assert!(
        fonts.iter().any(|f| f.ends_with("DejaVuSansMono")),
        "{fonts:?}"
    );
    // A booklet embeds the face exactly where a code span uses it: it costs nothing
    // elsewhere.
    let bachet = kit("bachet", Language::En);
    let (pages, pdf) = with_game!(&bachet.game, |game| kit_pdf(game, &bachet));
    let mono_texts = texts(&pages)
        .into_iter()
        .filter(|t| t.2 == Weight::Mono)
        .count();
    let fonts = embedded_font_names(&pdf);
    assert_eq!(
        fonts.iter().any(|f| f.contains("Mono")),
        mono_texts > 0,
        "{fonts:?}"
    );
}

#[test]
fn a_title_of_a_work_is_set_in_an_embedded_oblique_face() {
    // Russian sets titles in «», as its typography does, so no Russian kit needs it.
    for language in [Language::En, Language::Pl] {
        let kayles = kit("kayles", language);
        let (pages, pdf) = with_game!(&kayles.game, |game| kit_pdf(game, &kayles));
        let oblique: Vec<String> = texts(&pages)
            .into_iter()
            .filter(|t| t.2 == Weight::Oblique)
            .map(|t| t.1)
            .collect();
        assert!(
            oblique.iter().any(|t| t.contains("Canterbury")),
            "{language:?}: {oblique:?}"
        );
        let fonts = embedded_font_names(&pdf);
        assert!(
            fonts.iter().any(|f| f.ends_with("DejaVuSans-Oblique")),
            "{language:?}: {fonts:?}"
        );
    }
    // A kit that names no work embeds no oblique face: it costs nothing there.
    let bachet = kit("bachet", Language::En);
    let (_, pdf) = with_game!(&bachet.game, |game| kit_pdf(game, &bachet));
    let fonts = embedded_font_names(&pdf);
    assert!(fonts.iter().all(|f| !f.contains("Oblique")), "{fonts:?}");
}

#[test]
fn every_games_starting_picture_has_its_caption_just_under_it() {
    let start = strings(Language::En).get(id::FIGURE_START).to_string();
    for preset in presets() {
        let kit = kit(preset.name, Language::En);
        let pages = with_game!(&kit.game, |game| {
            let set = BoxSet::build(game, &kit).unwrap();
            instruction_pages(game, &kit, &set, &Findings::default()).unwrap()
        });
        // The starting picture's caption: the lowest ink above it on its page, other
        // than text, is the picture's foot.
        let texts = texts(&pages);
        let (page, _, _, caption_y, size) = texts
            .iter()
            .find(|t| t.1 == start)
            .unwrap_or_else(|| panic!("{}: no caption {start:?}", preset.name))
            .clone();
        let mut foot: f32 = 0.0;
        pages[page].scene.paint(&mut |shape| {
            let bottom = match shape {
                Shape::Circle { centre, radius, .. } => centre.y + radius,
                Shape::Line { points, .. } | Shape::Polygon { points, .. } => {
                    points.iter().map(|p| p.y).fold(f32::MIN, f32::max)
                }
                _ => f32::MIN,
            };
            if bottom < caption_y {
                foot = foot.max(bottom);
            }
        });
        let gap = caption_y - size - foot;
        assert!(
            (0.0..=2.5).contains(&gap),
            "{}: {gap:.1} mm between the starting picture and its caption",
            preset.name
        );
    }
}
