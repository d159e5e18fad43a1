//! A kit's mistake or warning as the page shows it: a JSON value made from the problem's
//! data (its place, its keys, its message id with its values, its hints), so that the
//! page puts it at its field and offers the commands it names in its own way, and no
//! sentence is ever read back.

use serde_json::{Value, json};

use matchbox_engine::kit::key_on_line;
use matchbox_engine::{Error, Problem};

/// The JSON of a problem with a kit whose text is `yaml`: `message` as the command line
/// says it; `id` and `args`, its message as data; `place` (file, line, column, span) or
/// null; `key` (the problem's, or the one written on its line) or null and `keys`;
/// `text`, the sentence without its hints, for the key's field; `hints`, the commands it
/// points to; `warning`.
pub fn problem_json(problem: &Problem, yaml: Option<&str>) -> Value {
    let key = problem.key.clone().or_else(|| {
        let line = problem.place.as_ref()?.at?.line;
        key_on_line(yaml?, line)
    });
    let hints: Vec<&str> = problem
        .message
        .hints()
        .iter()
        .map(|hint| hint.command.line())
        .collect();
    let said = serde_json::to_value(&problem.message).unwrap_or(Value::Null);
    json!({
        "message": problem.to_string(),
        "id": said["id"],
        "args": said["args"],
        "place": problem.place,
        "key": key,
        "keys": problem.keys,
        "text": problem.message.text(),
        "hints": hints,
        "warning": problem.warning,
    })
}

/// The JSON of any error the engine gives the page: a kit's problem as
/// [`problem_json`], a mistake of the user's with its message as data, anything else
/// with its message alone.
pub fn error_json(error: &Error, yaml: Option<&str>) -> Value {
    match error {
        Error::Kit(problem) => problem_json(problem, yaml),
        Error::Input(message) => problem_json(&Problem::new((**message).clone()), yaml),
        other => {
            let message = other.to_string();
            json!({
                "message": message,
                "id": null,
                "args": {},
                "place": null,
                "key": null,
                "keys": [],
                "text": message,
                "hints": [],
                "warning": false,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::i18n::{Language, Messages, id, strings};

    /// The page's JSON for the kit `yaml`, refused.
    fn refused(yaml: &str) -> Value {
        let request = json!({"command": "design", "yaml": yaml, "dpi": 96.0});
        let error = crate::answer(&serde_json::to_vec(&request).unwrap()).expect_err(yaml);
        error_json(&error, Some(yaml))
    }

    #[test]
    fn a_mistake_not_in_the_kit_reaches_the_page_as_data_too() {
        let error: Error = Messages(Language::Pl)
            .message(
                id::ERROR_PICTURE_TOO_LARGE,
                &[("width", "9"), ("height", "9")],
            )
            .into();
        let value = error_json(&error, None);
        assert_eq!(value["id"], "error.picture_too_large");
        assert_eq!(value["args"]["width"], "9");
        assert_eq!(value["text"], error.to_string());
        assert_eq!(value["place"], Value::Null);
    }

    #[test]
    fn a_placed_problem_is_at_the_key_on_its_line() {
        let value = refused("preset: bachet\nstones: 0\nlanguage: en\n");
        assert_eq!(value["key"], "stones");
        assert_eq!(value["place"]["line"], 2);
        assert_eq!(value["place"]["column"], 9);
        assert_eq!(value["id"], "problem.range");
        assert_eq!(value["args"]["found"], "0");
        assert_eq!(value["text"], "stones must be from 1 to 1000, not 0");
        assert_eq!(
            value["message"],
            "kit.yaml:2:9: stones must be from 1 to 1000, not 0"
        );
    }

    #[test]
    fn a_bad_label_hands_its_hint_as_data_in_every_language() {
        for language in Language::ALL {
            let code = language.code();
            let value = refused(&format!("preset: hexapawn\nlabel: [1]\nlanguage: {code}\n"));
            assert_eq!(value["key"], "label", "{value}");
            assert_eq!(value["id"], "problem.expected", "{value}");
            assert_eq!(value["args"]["takes"]["id"], "problem.takes.label");
            assert_eq!(value["hints"], json!(["matchbox labels"]), "{value}");
            // The text is the sentence said without its hint's words, which the command
            // line says inside it, and without the key it opens with: never the command
            // line's sentence cut.
            let pointer =
                strings(language).fill(id::PROBLEM_HINT_SEE, &[("command", "matchbox labels")]);
            let message = value["message"].as_str().unwrap();
            let text = value["text"].as_str().unwrap();
            assert!(message.contains(&pointer), "{message}");
            assert!(!text.contains("matchbox labels"), "{text}");
            assert_eq!(
                message.replace(&pointer, ""),
                format!("kit.yaml:2:1: label: {text}")
            );
        }
    }

    #[test]
    fn an_unplaced_problem_about_a_key_names_it_and_its_commands_apart() {
        let yaml = "preset: hexapawn\nlabel: {width_mm: 20, height_mm: 12}\n";
        let value = refused(yaml);
        assert_eq!(value["key"], "label", "{value}");
        assert_eq!(value["id"], "problem.label_illegible", "{value}");
        let text = value["text"].as_str().unwrap();
        assert!(text.starts_with("at 20 x 12 mm the letters"), "{text}");
        assert!(!text.contains("matchbox"), "{text}");
        assert_eq!(value["hints"], json!(["matchbox labels"]));
    }

    #[test]
    fn an_unknown_language_is_said_in_english_with_the_languages_there_are() {
        let value = refused("preset: bachet\nlanguage: de\n");
        assert_eq!(value["key"], "language", "{value}");
        assert_eq!(value["args"]["takes"]["id"], "problem.takes.language");
        assert_eq!(
            value["text"],
            "expected en (English), pl (polski) or ru (русский), found `de`"
        );
    }

    #[test]
    fn a_warning_is_said_without_its_title_in_the_text() {
        let yaml = "preset: bachet-relay\nrule: gardner\nlanguage: pl\n";
        let request = json!({"command": "design", "yaml": yaml, "dpi": 96.0});
        let parts = crate::answer(&serde_json::to_vec(&request).unwrap()).unwrap();
        let design: Value = serde_json::from_slice(&parts[0].1).unwrap();
        let warning = &design["warnings"][0];
        assert_eq!(warning["warning"], true, "{design}");
        assert_eq!(warning["id"], "problem.warning_relay_replaced");
        assert!(
            warning["message"].as_str().unwrap().contains(": uwaga: "),
            "{warning}"
        );
        assert!(
            !warning["text"].as_str().unwrap().contains("uwaga"),
            "{warning}"
        );
    }
}
