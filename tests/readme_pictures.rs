//! The README's pictures in docs/img/ are the program's own output: each is made again
//! here and must match the committed file byte for byte (the program is deterministic).
//! `docs/pictures.sh` (this test with `MATCHBOX_UPDATE_PICTURES=1`) writes them anew.

use std::path::Path;

mod support;

/// A picture of the README: its file in docs/img/, the command that makes it, and the
/// file the command writes, relative to the scratch folder (`{out}` in the command).
struct Picture {
    file: &'static str,
    command: &'static [&'static str],
    made: &'static str,
}

const PICTURES: [Picture; 3] = [
    Picture {
        file: "her-box-03.png",
        command: &["kit", "--preset", "hexapawn", "--out", "{out}/her"],
        made: "her/previews/box-03.png",
    },
    Picture {
        file: "menace-box-020.png",
        command: &["kit", "--preset", "menace", "--out", "{out}/menace"],
        made: "menace/previews/box-020.png",
    },
    Picture {
        file: "her-learning-curve.png",
        command: &[
            "simulate",
            "--preset",
            "hexapawn",
            "--games",
            "300",
            "--plot",
            "{out}/curve.png",
        ],
        made: "curve.png",
    },
];

#[test]
fn the_readme_pictures_are_what_the_program_makes_now() {
    let update = std::env::var_os("MATCHBOX_UPDATE_PICTURES").is_some();
    let out = support::scratch("readme-pictures");
    let img = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/img");
    let mut stale = Vec::new();
    for picture in &PICTURES {
        let args: Vec<String> = picture
            .command
            .iter()
            .map(|a| a.replace("{out}", out.to_str().unwrap()))
            .collect();
        let run = support::matchbox().args(&args).output().expect("runs");
        assert!(
            run.status.success(),
            "matchbox {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&run.stderr)
        );
        let made = std::fs::read(out.join(picture.made)).expect("the command wrote it");
        let committed = img.join(picture.file);
        if update {
            std::fs::write(&committed, &made).expect("docs/img/ is writable");
        } else if std::fs::read(&committed).ok().as_deref() != Some(&made[..]) {
            stale.push(format!(
                "docs/img/{} (matchbox {})",
                picture.file,
                args.join(" ")
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        stale.is_empty(),
        "the program now draws these README pictures differently; look at them and run \
         docs/pictures.sh to commit the new ones:\n  {}",
        stale.join("\n  ")
    );
}
