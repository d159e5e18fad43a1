//! What a failed run leaves: the kit folder is replaced whole or not at all, kills and
//! full disks leave no temporary files behind, and paths the user cannot write are
//! refused with exit status 2.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod support;

use support::{matchbox, run};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch folder for one test of this file.
fn scratch(what: &str) -> PathBuf {
    support::scratch(&format!("failed-{what}"))
}

/// Every file under `dir` by its path inside, with a hash of its bytes.
fn contents(dir: &Path) -> BTreeMap<PathBuf, u64> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, u64>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                // FNV-1a: enough to tell two kits apart.
                let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
                    (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
                });
                out.insert(path.strip_prefix(root).unwrap().to_path_buf(), hash);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Sends a signal (the process may have ended already: then nothing happens).
fn signal(pid: u32, name: &str) {
    Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .unwrap();
}

/// The names in the scratch folder and in the kit folder: the first change shows that
/// a run has begun writing, whatever its temporary names.
fn snapshot(root: &Path, out: &Path) -> Vec<String> {
    let mut all = names(root);
    if out.is_dir() {
        all.extend(names(out).into_iter().map(|n| format!("kit/{n}")));
    }
    all
}

/// Kills `matchbox kit` runs at several moments and checks after each that the folder
/// holds the whole English kit or the whole Polish one, and no temporary file is left
/// (after SIGTERM at once; after SIGKILL once the next run has cleaned up).
#[test]
fn a_killed_kit_run_leaves_the_old_kit_or_the_new_one_whole() {
    let root = scratch("kill");
    let polish = root.join("pl.yaml");
    std::fs::write(&polish, "preset: menace\nlanguage: pl\n").unwrap();
    let out = root.join("kit");
    let kits = [["--preset", "menace"], ["--kit", polish.to_str().unwrap()]];
    let mut whole = Vec::new();
    for kit in &kits {
        let o = run(&[&["kit", "--out", out.to_str().unwrap()][..], kit].concat());
        assert!(o.status.success(), "{}", stderr(&o));
        whole.push(contents(&out));
    }
    assert_ne!(whole[0], whole[1]);
    let mut current = 1;
    // Moments after the first temporary file appears (the write has begun), and one
    // before it (None: 300 ms after the start, while the kit is being drawn).
    let kills = [
        (None, "KILL"),
        (Some(0), "KILL"),
        (Some(2), "KILL"),
        (Some(5), "KILL"),
        (Some(15), "KILL"),
        (Some(40), "KILL"),
        (Some(120), "KILL"),
        (Some(0), "TERM"),
        (Some(10), "INT"),
        (Some(30), "TERM"),
    ];
    for (i, (moment, how)) in kills.into_iter().enumerate() {
        let next = 1 - current;
        let mut child = matchbox()
            .args([&["kit", "--out", out.to_str().unwrap()][..], &kits[next]].concat())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // The moment of the kill is what the test varies: the sleeps are that moment;
        // the first change to the folder is waited for, as soon as it comes.
        match moment {
            None => std::thread::sleep(Duration::from_millis(300)),
            Some(ms) => {
                let before = snapshot(&root, &out);
                support::wait_until_every(
                    Duration::from_micros(200),
                    Duration::from_secs(60),
                    || {
                        (snapshot(&root, &out) != before || child.try_wait().unwrap().is_some())
                            .then_some(())
                    },
                );
                std::thread::sleep(Duration::from_millis(ms));
            }
        }
        signal(child.id(), how);
        let status = child.wait().unwrap();
        let now = if out.exists() {
            contents(&out)
        } else {
            // Killed between the two renames of the swap: the complete old kit
            // waits beside it, and the next run puts it back.
            // Named by the process id and its start time.
            let prefix = format!(".kit.matchbox-old-{}-", child.id());
            let old = names(&root).into_iter().find(|n| n.starts_with(&prefix));
            assert_eq!(how, "KILL", "only SIGKILL can stop the swap half-way");
            contents(&root.join(old.expect("the old kit beside it")))
        };
        let state = whole.iter().position(|w| *w == now);
        assert!(
            state.is_some(),
            "moment {i}, SIG{how} ({status:?}): the folder is a mix of two kits"
        );
        current = state.unwrap();
        if how != "KILL" {
            let left: Vec<_> = names(&root)
                .into_iter()
                .filter(|n| n.contains(".matchbox-"))
                .collect();
            assert!(
                left.is_empty(),
                "moment {i}: SIG{how} ({status:?}) left {left:?}"
            );
        }
    }
    // The next complete run removes what the SIGKILLed ones left.
    let o = run(&[&["kit", "--out", out.to_str().unwrap()][..], &kits[0]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(contents(&out), whole[0]);
    assert_eq!(names(&root), ["kit", "pl.yaml"]);
    std::fs::remove_dir_all(&root).unwrap();
}

/// Runs `matchbox ARGS` from a shell (`shell`, then `-c`) after `setup`, a shell
/// command (a limit, a mount).
fn run_after(shell: &[&str], setup: &str, args: &[&str]) -> Output {
    Command::new(shell[0])
        .args(&shell[1..])
        .arg("-c")
        .arg(format!("{setup} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_matchbox"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

/// Runs `matchbox` with a file size limit, as on a disk that fills up: writes fail
/// with EFBIG (SIGXFSZ is ignored, as a shell's `trap` does).
fn run_with_file_limit(kib: u32, args: &[&str]) -> Output {
    run_after(
        &["sh"],
        &format!("trap '' XFSZ; ulimit -f {}", kib * 2),
        args,
    )
}

#[test]
fn a_full_disk_is_the_users_situation_and_changes_nothing() {
    let root = scratch("full");
    let out = root.join("kit");
    let o = run(&[
        "kit",
        "--preset",
        "hexapawn",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let before = contents(&out);
    let o = run_with_file_limit(
        8,
        &["kit", "--preset", "menace", "--out", out.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let message = stderr(&o);
    assert!(message.contains("a file size limit"), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    assert_eq!(contents(&out), before, "the old kit is untouched");
    assert_eq!(names(&root), ["kit"], "no temporary file left");

    let state = root.join("state.json");
    let csv = root.join("games.csv");
    let o = run_with_file_limit(
        1,
        &[
            "simulate",
            "--preset",
            "menace",
            "--games",
            "200",
            "--csv",
            csv.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a file size limit"), "{}", stderr(&o));
    std::fs::write(&state, "").unwrap();
    let o = matchbox()
        .args(["play", "--preset", "menace", "--state"])
        .arg(&state)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "an empty state file is refused");
    assert!(
        !stderr(&o).contains("EOF") && !stderr(&o).contains("expected"),
        "{}",
        stderr(&o)
    );
    assert_eq!(names(&root), ["kit", "state.json"]);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_file_size_limit_without_a_trap_is_said_and_leaves_nothing() {
    let root = scratch("ulimit");
    let out = root.join("kit");
    // As a shell sets it, SIGXFSZ not ignored: the signal would end the run silently.
    let o = run_after(
        &["sh"],
        "ulimit -f 100",
        &["kit", "--preset", "menace", "--out", out.to_str().unwrap()],
    );
    let message = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("ulimit -f"), "{message}");
    assert!(names(&root).is_empty(), "left {:?}", names(&root));
    std::fs::remove_dir_all(&root).unwrap();
}

/// `matchbox kit --preset bachet --out DIR` in a mount namespace of its own, after `mount`
/// (a shell command) made DIR a mount point there.
fn kit_onto_a_mount_point(mount: &str, dir: &Path) -> Output {
    let out = dir.to_str().unwrap();
    run_after(
        &["unshare", "-m", "sh"],
        &format!("{mount} '{out}'"),
        &["kit", "--preset", "bachet", "--out", out],
    )
}

#[test]
fn a_mount_point_or_the_folder_you_are_in_is_refused_with_exit_2() {
    let root = scratch("mount");
    let point = root.join("point");
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&point).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    // Another file system, and a bind mount of a folder of the same one.
    for mount in [
        "mount -t tmpfs none".to_string(),
        format!("mount --bind '{}'", elsewhere.display()),
    ] {
        let o = kit_onto_a_mount_point(&mount, &point);
        let message = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{mount}: {message}");
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(message.contains("is a mount point"), "{message}");
        assert_eq!(names(&root), ["elsewhere", "point"], "{mount}");
        assert!(names(&elsewhere).is_empty(), "{mount}");
    }
    // `--out "$PWD"` and `--out .` in an empty folder: the shell is never left inside a
    // removed folder.
    for out in [point.to_str().unwrap(), "."] {
        let o = matchbox()
            .args(["kit", "--preset", "bachet", "--out", out])
            .current_dir(&point)
            .output()
            .unwrap();
        let message = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{out}: {message}");
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(point.is_dir() && names(&point).is_empty(), "{out}");
    }
    assert_eq!(names(&root), ["elsewhere", "point"]);
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn paths_that_cannot_be_written_are_refused_with_exit_2() {
    let root = scratch("paths");
    let file = root.join("a-file");
    std::fs::write(&file, "mine").unwrap();
    let file = file.to_str().unwrap();
    let missing = root.join("missing");
    let in_missing = |name: &str| missing.join(name).to_str().unwrap().to_string();
    let root_path = root.to_str().unwrap();
    let kit = "kit --preset bachet --out";
    let games = "simulate --preset bachet --games 3";
    let play = "play --preset bachet --seed 1 --state";
    // The command's words, the path, and what the message says.
    let cases = [
        (kit, file.to_string(), "is a file, not a folder"),
        (kit, root_path.to_string(), "was not written by matchbox"),
        (kit, "/sys/matchbox-kit".to_string(), "is not writable"),
        (
            kit,
            "/proc/matchbox-kit".to_string(),
            "takes no new files or folders",
        ),
        (
            games,
            format!("--plot {}", in_missing("curve.svg")),
            "does not exist",
        ),
        (
            games,
            format!("--csv {}", in_missing("games.csv")),
            "does not exist",
        ),
        (
            games,
            format!("--csv {file}/games.csv"),
            "is a file, not a folder",
        ),
        (games, format!("--csv {root_path}"), "is a folder"),
        (play, in_missing("state.json"), "does not exist"),
    ];
    for (command, path, says) in cases {
        let args: Vec<&str> = command.split(' ').chain(path.split(' ')).collect();
        let o = matchbox()
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let message = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {message}");
        assert!(message.contains(says), "{args:?}: {message}");
        assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
    }
    assert!(!missing.exists(), "a missing folder is not created");
    assert_eq!(
        std::fs::read_to_string(root.join("a-file")).unwrap(),
        "mine"
    );
    assert_eq!(names(&root), ["a-file"]);
    std::fs::remove_dir_all(&root).unwrap();
}
