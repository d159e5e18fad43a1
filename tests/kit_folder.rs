//! The kit folder is the kit's own: a run replaces it whole only when everything inside
//! it, at any depth, is what the last run wrote there; anything of the user's stops the
//! run with exit status 2 and is left as it was. A folder in the crash window is put
//! back by the next run, whatever happens next, and a symbolic link is written through.

use std::path::{Path, PathBuf};
use std::process::Output;

mod support;

use support::run;

/// A fresh scratch folder for one test of this file.
fn scratch(what: &str) -> PathBuf {
    support::scratch(&format!("kit-folder-{what}"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `matchbox kit --preset bachet --out DIR`, which must succeed.
fn bachet_kit(dir: &Path) {
    let o = run(&["kit", "--preset", "bachet", "--out", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Runs the kit into `dir` and checks that it is refused with one line naming `path`,
/// and that `path` still holds `bytes`.
fn refused(dir: &Path, path: &Path, bytes: &[u8]) {
    refused_naming(dir, path, path, bytes);
}

/// [`refused`], the message naming `named` (the file, or the first folder of the user's
/// above it).
fn refused_naming(dir: &Path, named: &Path, path: &Path, bytes: &[u8]) {
    let o = run(&["kit", "--preset", "bachet", "--out", dir.to_str().unwrap()]);
    let message = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(
        message.starts_with(&format!("matchbox: {} ", named.display())),
        "names {}: {message}",
        named.display()
    );
    assert!(message.contains("nothing was changed"), "{message}");
    assert_eq!(std::fs::read(path).unwrap(), bytes, "{}", path.display());
}

#[test]
fn a_kit_folder_is_replaced_again_and_again() {
    let root = scratch("again");
    let kit = root.join("kit");
    bachet_kit(&kit);
    bachet_kit(&kit);
    assert!(kit.join("kit.pdf").is_file());
    assert!(kit.join("previews/box-1.png").is_file());
}

#[test]
fn anything_of_the_users_inside_a_kit_stops_the_run() {
    let root = scratch("foreign");
    // The user's file, the path the message names, and the file's bytes.
    let cases: [(&str, &str, &[u8]); 4] = [
        ("previews/notes.txt", "previews/notes.txt", b"notes"),
        ("previews/photos/class.jpg", "previews/photos", b"a photo"),
        // A 7-box kit writes no box 99: such a preview is not its own.
        ("previews/box-99.png", "previews/box-99.png", b"\x89PNG"),
        ("notes.txt", "notes.txt", b"notes"),
    ];
    for (i, (inside, named, bytes)) in cases.into_iter().enumerate() {
        let kit = root.join(format!("kit-{i}"));
        bachet_kit(&kit);
        let path = kit.join(inside);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        refused_naming(&kit, &kit.join(named), &path, bytes);
    }
}

#[test]
fn a_kit_file_changed_by_hand_stops_the_run() {
    let root = scratch("edited");
    let kit = root.join("kit");
    bachet_kit(&kit);
    let pdf = kit.join("kit.pdf");
    let mut bytes = std::fs::read(&pdf).unwrap();
    bytes.extend_from_slice(b"% my notes\n");
    std::fs::write(&pdf, &bytes).unwrap();
    refused(&kit, &pdf, &bytes);
    // A plain file where the previews were.
    let kit = root.join("kit-2");
    bachet_kit(&kit);
    std::fs::remove_dir_all(kit.join("previews")).unwrap();
    std::fs::write(kit.join("previews"), b"mine").unwrap();
    refused(&kit, &kit.join("previews"), b"mine");
}

#[test]
fn a_folder_holding_no_kit_is_never_emptied() {
    let root = scratch("no-kit");
    let kit = root.join("kit");
    std::fs::create_dir_all(kit.join("previews")).unwrap();
    std::fs::write(kit.join("previews/notes.txt"), b"notes").unwrap();
    refused(&kit, &kit.join("previews/notes.txt"), b"notes");
    // The user's own kit.pdf, with no kit beside it.
    let mine = root.join("mine");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("kit.pdf"), b"%PDF mine").unwrap();
    refused(&mine, &mine.join("kit.pdf"), b"%PDF mine");
}

/// A Bachet kit in `dir` without its list of files, as a kit written before there were
/// lists, or copied without its hidden files.
fn bachet_kit_without_its_list(dir: &Path) {
    bachet_kit(dir);
    std::fs::remove_file(dir.join(".matchbox-files")).unwrap();
}

#[test]
fn a_kit_written_before_manifests_is_replaced() {
    let root = scratch("old-kit");
    let kit = root.join("kit");
    bachet_kit_without_its_list(&kit);
    bachet_kit(&kit);
    assert!(kit.join(".matchbox-files").is_file());
    // But not with a stranger in its previews.
    std::fs::remove_file(kit.join(".matchbox-files")).unwrap();
    std::fs::write(kit.join("previews/notes.txt"), b"notes").unwrap();
    refused(&kit, &kit.join("previews/notes.txt"), b"notes");
}

/// A process id that is not running: the largest one Linux can hand out, plus one.
const DEAD: u32 = 4_194_305;

#[test]
fn a_kit_copied_without_its_list_and_written_on_is_never_replaced() {
    let root = scratch("copied");
    let kit = root.join("kit");
    bachet_kit_without_its_list(&kit);
    // Annotated: the same names, other bytes.
    for name in ["labels.pdf", "kit.pdf"] {
        let mut mine = std::fs::read(kit.join(name)).unwrap();
        mine.extend_from_slice(b"% my notes for Tuesday\n");
        std::fs::write(kit.join(name), &mine).unwrap();
    }
    let annotated = std::fs::read(kit.join("kit.pdf")).unwrap();
    // kit.pdf comes before labels.pdf in name order: the first named.
    refused(&kit, &kit.join("kit.pdf"), &annotated);
    // A preview drawn on is as much the user's.
    let fresh = root.join("fresh");
    bachet_kit_without_its_list(&fresh);
    std::fs::write(fresh.join("previews/box-1.png"), b"drawn on").unwrap();
    refused(&fresh, &fresh.join("previews/box-1.png"), b"drawn on");
}

// Linux's access lists (extended attributes); macOS keeps them elsewhere.
#[cfg(target_os = "linux")]
#[test]
fn the_folders_mode_group_and_access_list_survive_the_swap() {
    use matchbox_files::{set_xattr, xattr};
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let root = scratch("access");
    let kit = root.join("kit");
    std::fs::create_dir(&kit).unwrap();
    // nogroup, and an access list letting user 1000 read: a class's shared folder.
    std::os::unix::fs::chown(&kit, None, Some(65534)).unwrap();
    let acl = access_list(1000);
    set_xattr(&kit, "system.posix_acl_access", &acl).unwrap();
    std::fs::set_permissions(&kit, std::fs::Permissions::from_mode(0o2770)).unwrap();
    let before = xattr(&kit, "system.posix_acl_access").expect("an access list");
    for _ in 0..2 {
        bachet_kit(&kit);
        let m = std::fs::metadata(&kit).unwrap();
        assert_eq!(m.mode() & 0o7777, 0o2770, "{:o}", m.mode());
        assert_eq!(m.gid(), 65534);
        assert_eq!(xattr(&kit, "system.posix_acl_access"), Some(before.clone()));
        // Files made inside take the folder's group, as they did before the swap.
        assert_eq!(std::fs::metadata(kit.join("kit.pdf")).unwrap().gid(), 65534);
    }
}

/// A POSIX access list as Linux stores it: the owner, the group and the mask rwx, user
/// `uid` r-x, others nothing.
#[cfg(target_os = "linux")]
fn access_list(uid: u32) -> Vec<u8> {
    let entry = |tag: u16, perm: u16, id: u32| {
        [
            tag.to_le_bytes().as_slice(),
            &perm.to_le_bytes(),
            &id.to_le_bytes(),
        ]
        .concat()
    };
    [
        2u32.to_le_bytes().to_vec(),
        entry(0x01, 7, u32::MAX),
        entry(0x02, 5, uid),
        entry(0x04, 7, u32::MAX),
        entry(0x10, 7, u32::MAX),
        entry(0x20, 0, u32::MAX),
    ]
    .concat()
}

/// A Bachet kit in `root/kit`, and its kit.pdf.
fn kit_and_its_pdf(root: &Path) -> (PathBuf, Vec<u8>) {
    let kit = root.join("kit");
    bachet_kit(&kit);
    let pdf = std::fs::read(kit.join("kit.pdf")).unwrap();
    (kit, pdf)
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

#[test]
fn a_crash_window_folder_is_put_back_though_its_process_id_is_in_use_again() {
    let root = scratch("reused");
    let (kit, old) = kit_and_its_pdf(&root);
    // A run that this test's own process id once named (the ids wrap round), started at
    // another moment than this test.
    let reused = std::process::id();
    std::fs::rename(&kit, root.join(format!(".kit.matchbox-old-{reused}-1"))).unwrap();
    bachet_kit(&kit);
    assert_eq!(std::fs::read(kit.join("kit.pdf")).unwrap(), old);
    assert!(!root.join(format!(".kit.matchbox-old-{reused}-1")).exists());
    // And a name from before start times were added, an hour old.
    let legacy = root.join(format!(".kit.matchbox-old-{reused}"));
    std::fs::rename(&kit, &legacy).unwrap();
    let hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    std::fs::File::open(&legacy)
        .unwrap()
        .set_modified(hours_ago)
        .unwrap();
    bachet_kit(&kit);
    assert_eq!(std::fs::read(kit.join("kit.pdf")).unwrap(), old);
    assert_eq!(names(&root), ["kit"]);
}

#[test]
fn the_crash_window_is_restored_even_by_a_run_that_fails() {
    let root = scratch("crash");
    let (kit, old) = kit_and_its_pdf(&root);
    // Killed between the two renames: the folder is missing, its old copy beside it.
    std::fs::rename(&kit, root.join(format!(".kit.matchbox-old-{DEAD}"))).unwrap();
    let bad = root.join("bad.yaml");
    std::fs::write(&bad, "game: nim\nstones: 0\n").unwrap();
    let o = run(&[
        "kit",
        "--kit",
        bad.to_str().unwrap(),
        "--out",
        kit.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(kit.join("kit.pdf")).unwrap(), old);
    assert_eq!(names(&root), ["bad.yaml", "kit"]);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_as_out_is_written_through() {
    let root = scratch("link");
    let target = root.join("real");
    let link = root.join("link");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    bachet_kit(&link);
    assert!(
        target.join("kit.pdf").is_file(),
        "the kit is where the link leads"
    );
    bachet_kit(&link);
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(meta.file_type().is_symlink(), "the link is still a link");
    assert!(link.join("labels.pdf").is_file());
}
