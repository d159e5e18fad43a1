//! A state file is one file whatever path reaches it: `play` and `serve` take one lock on
//! it through a symbolic link, a hard link or `..`; a file reached through a link is
//! written where the link leads and the link stays; and a link planted as the lock file
//! never aims a write at another file.

// Links, FIFOs and the lock's Unix guards; Windows' guard is crates/files/src/platform.rs's.
#![cfg(unix)]

use std::path::Path;
use std::process::{Output, Stdio};

mod support;

use support::{Server, matchbox};

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `matchbox play --preset bachet --state PATH` with no one at the keyboard.
fn play(state: &Path) -> Output {
    matchbox()
        .args(["play", "--preset", "bachet", "--seed", "1", "--state"])
        .arg(state)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

#[test]
fn a_link_planted_as_the_lock_file_aims_no_write_elsewhere() {
    let dir = support::scratch("state-planted");
    let report = dir.join("report.txt");
    std::fs::write(&report, "the report").unwrap();
    std::os::unix::fs::symlink("report.txt", dir.join("s.json.lock")).unwrap();
    let o = play(&dir.join("s.json"));
    let message = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("symbolic link"), "{message}");
    assert_eq!(std::fs::read_to_string(&report).unwrap(), "the report");
    let lock = std::fs::symlink_metadata(dir.join("s.json.lock")).unwrap();
    assert!(lock.file_type().is_symlink(), "the link is left as it was");
    assert!(!dir.join("s.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_name_of_one_state_file_reaches_one_lock_and_a_link_stays_a_link() {
    let dir = support::scratch("state-names");
    std::fs::create_dir(dir.join("synced")).unwrap();
    let real = dir.join("synced/s.json");
    let link = dir.join("s.json");
    std::os::unix::fs::symlink("synced/s.json", &link).unwrap();
    let is_link = || {
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    };
    // Saved through the link: the file it leads to is written, the link stays.
    let mut server = Server::start(&["--preset", "bachet"], Some(&link));
    // Answered: the server is past its banner and watches for Ctrl-C.
    assert!(server.game().is_object());
    assert_eq!(server.interrupt().code(), Some(0));
    assert!(is_link(), "the link is kept");
    assert!(
        std::fs::read_to_string(&real)
            .unwrap()
            .contains("matchbox-state")
    );
    std::fs::hard_link(&real, dir.join("second.json")).unwrap();
    // Held through the link: every other name is refused.
    let mut server = Server::start(&["--preset", "bachet"], Some(&link));
    for other in [
        real.clone(),
        dir.join("synced/../synced/s.json"),
        dir.join("second.json"),
        link.clone(),
    ] {
        let o = play(&other);
        let message = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{other:?}: {message}");
        assert!(
            message.contains("in use by another"),
            "{other:?}: {message}"
        );
    }
    assert_eq!(server.interrupt().code(), Some(0));
    assert!(is_link(), "the link is kept");
    let mut names: Vec<_> = std::fs::read_dir(dir.join("synced"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["s.json"],
        "the lock file beside the real file, removed"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_pipe_as_the_state_file_is_refused_at_once() {
    let dir = support::scratch("state-pipe");
    let pipe = dir.join("s.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    // Read, a pipe with no writer waits for ever: stopped after 20 s.
    let mut child = matchbox()
        .args(["play", "--preset", "bachet", "--state"])
        .arg(&pipe)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    support::wait_until(std::time::Duration::from_secs(20), || {
        child.try_wait().unwrap().map(drop)
    });
    let _ = child.kill();
    let o = child.wait_with_output().unwrap();
    let message = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{message}");
    assert!(message.contains("not a plain file"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}
