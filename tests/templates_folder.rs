//! `MATCHBOX_TEMPLATES`: whoever edits the words sees them in a kit without building.

mod support;

use std::path::Path;

use support::{matchbox, scratch};

/// Copies a folder and everything in it.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn a_kit_takes_its_words_from_the_folder_the_variable_names() {
    let dir = scratch("templates-folder");
    let words = dir.join("templates");
    copy_folder(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"),
        &words,
    );
    let boxes = |templates: Option<&Path>| {
        let mut command = matchbox();
        command.args(["boxes", "--preset", "hexapawn"]);
        match templates {
            Some(folder) => command.env("MATCHBOX_TEMPLATES", folder),
            None => command.env_remove("MATCHBOX_TEMPLATES"),
        };
        let out = command.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let compiled = boxes(None);
    assert_eq!(
        boxes(Some(&words)),
        compiled,
        "a copy of the templates says the same"
    );

    let strings = words.join("en/games/hexapawn/strings.yaml");
    let text = std::fs::read_to_string(&strings).unwrap();
    let name = text
        .lines()
        .find_map(|line| line.strip_prefix("preset.hexapawn: "))
        .expect("the preset's name")
        .trim_matches('"')
        .to_string();
    assert!(compiled.contains(&name), "{name} in {compiled}");
    std::fs::write(&strings, text.replace(&name, "Quux the pawn machine")).unwrap();
    let edited = boxes(Some(&words));
    assert!(edited.contains("Quux the pawn machine"), "{edited}");
    assert!(!edited.contains(&name), "{edited}");

    let out = matchbox()
        .args(["boxes", "--preset", "hexapawn"])
        .env("MATCHBOX_TEMPLATES", dir.join("no such folder"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), compiled);
    let said = String::from_utf8(out.stderr).unwrap();
    assert!(said.contains("MATCHBOX_TEMPLATES="), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
