//! A kit's mistake or warning as the page shows it: a JSON value with its place, its key
//! and its words, so that the page puts it at its field without reading the sentence.
//! The command line's pointers to its other commands (`(see `matchbox labels`)`) are
//! handed over apart, as `hints`: the page offers those choices in its own fields.

use serde_json::{Value, json};

use matchbox_engine::kit::key_on_line;
use matchbox_engine::{Error, Problem};

/// The JSON of a problem with a kit whose text is `yaml`: `message` as the command
/// line says it, `place` (file, line, column) or null, `key` or null, `text` (what the
/// page says at the key's field), `hints` (commands named), `warning`.
pub fn problem_json(problem: &Problem, yaml: Option<&str>, warning: bool) -> Value {
    let key = problem.key.clone().or_else(|| {
        let line = problem.place.as_ref()?.line;
        key_on_line(yaml?, line)
    });
    let mut text = problem.message.as_str();
    // A warning begins with the kit language's word for one (`warning: `, `uwaga: `),
    // which the page says in its own title; the words of a warning have no other `: `
    // before their own.
    if warning && let Some((_, rest)) = text.split_once(": ") {
        text = rest;
    }
    // A message about one key begins with it where it can; the field names it already.
    if let Some(rest) = key
        .as_deref()
        .and_then(|k| text.strip_prefix(k)?.strip_prefix(": "))
    {
        text = rest;
    }
    json!({
        "message": problem.to_string(),
        "place": problem.place,
        "key": key,
        "text": without_commands(text),
        "hints": commands(&problem.message),
        "warning": warning,
    })
}

/// The JSON of any error the engine gives the page: a kit's problem as
/// [`problem_json`], anything else with its message alone.
pub fn error_json(error: &Error, yaml: Option<&str>) -> Value {
    match error {
        Error::Kit(problem) => problem_json(problem, yaml, false),
        other => {
            let message = other.to_string();
            json!({
                "message": message,
                "place": null,
                "key": null,
                "text": without_commands(&message),
                "hints": commands(&message),
                "warning": false,
            })
        }
    }
}

/// The commands a message names (`` `matchbox labels` `` gives `matchbox labels`).
fn commands(message: &str) -> Vec<String> {
    message
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|quoted| quoted.starts_with("matchbox ") && !quoted.contains(':'))
        .map(str::to_string)
        .collect()
}

/// A message without its pointers to other commands. Every language's strings put
/// them in brackets, or after a `;` at the end (`problem.*` in templates/*/strings.yaml,
/// tested below for every message); brackets go first, so that a `;` inside other
/// brackets never takes the rest of the message.
fn without_commands(message: &str) -> String {
    let names = |part: &str| part.contains("`matchbox ");
    let mut out = String::new();
    let mut rest = message;
    while let Some(open) = rest.find(" (") {
        let Some(close) = rest[open..].find(')').map(|c| open + c) else {
            break;
        };
        let inside = &rest[open + 2..close];
        out.push_str(&rest[..open]);
        if inside.contains('(') || !names(inside) {
            out.push_str(&rest[open..=close]);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    match out.rfind(';') {
        Some(at) if names(&out[at..]) => out[..at].to_string(),
        _ => out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use matchbox_engine::i18n::{Language, strings};

    #[test]
    fn no_message_in_any_language_keeps_a_pointer_to_a_command() {
        for language in Language::ALL {
            let words = strings(language);
            for (key, said) in words.entries().filter(|(k, _)| k.starts_with("problem.")) {
                let text = without_commands(said);
                assert!(!text.contains("`matchbox "), "{key}: {text}");
                if said.contains("`matchbox ") {
                    assert!(!commands(said).is_empty(), "{key}: {said}");
                }
            }
        }
    }

    #[test]
    fn a_placed_problem_is_at_the_key_on_its_line_without_the_keys_name() {
        let yaml = "preset: bachet\nstones: 0\nlanguage: en\n";
        let Err(Error::Kit(problem)) = crate::read_kit(yaml) else {
            panic!("a kit's mistake");
        };
        let value = problem_json(&problem, Some(yaml), false);
        assert_eq!(value["key"], "stones");
        assert_eq!(value["place"]["line"], 2);
        assert_eq!(value["text"], "stones must be from 1 to 1000, not 0");
        assert_eq!(
            value["message"],
            "kit.yaml:2:9: stones must be from 1 to 1000, not 0"
        );
    }

    #[test]
    fn an_unplaced_problem_about_a_key_names_it_and_its_commands_apart() {
        let yaml = "preset: hexapawn\nlabel: {width_mm: 20, height_mm: 12}\n";
        let error = crate::answer(
            &serde_json::to_vec(&json!({"command": "design", "yaml": yaml, "dpi": 96.0})).unwrap(),
        )
        .expect_err("letters too small");
        let value = error_json(&error, Some(yaml));
        assert_eq!(value["key"], "label", "{value}");
        let text = value["text"].as_str().unwrap();
        assert!(text.starts_with("at 20 x 12 mm the letters"), "{text}");
        assert!(!text.contains("matchbox"), "{text}");
        assert_eq!(value["hints"], json!(["matchbox labels"]));
    }
}
