//! `delve path --svg` writes its picture as `--record` writes a recording:
//! the target is checked before the search (a fifo, `-`, a directory, a
//! missing or read-only directory, a device, an existing file without
//! `--force`), the picture grows beside it and takes its name in one step,
//! so a failed write leaves the old picture whole; and a picture too large
//! to draw is refused before any work.

use crate::support::run::{output_of, path_str, run, stderr, stdout};
use std::path::Path;
use std::time::{Duration, Instant};

/// The files in `dir`, by name.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// `delve path --svg TARGET` refused before the search: exit 2, nothing on
/// stdout (the answer is not printed), one line on stderr ending in `why`.
fn refused(args: &[&str], why: &str) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert_eq!(stdout(&o), "", "{args:?}: refused before the search");
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.trim_end().ends_with(why), "{args:?}: {err}");
}

#[test]
fn an_existing_picture_is_replaced_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("old.svg");
    std::fs::write(&svg, "precious").unwrap();
    let target = path_str(&svg);
    refused(&["path", "--svg", target], &format!("{target}: already exists (pass --force to overwrite it)"));
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), "precious");
    let o = run(&["path", "--svg", target, "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    assert_eq!(names(dir.path()), ["old.svg"], "no partial file left");
    let o = run(&["path", "--force"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--svg"), "--force needs --svg: {}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn targets_that_cannot_hold_a_picture_are_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    assert!(std::process::Command::new("mkfifo").arg(d("f.svg")).status().unwrap().success());
    std::fs::create_dir(d("sub")).unwrap();
    let cases = [
        ("-".to_owned(), "--svg writes a file, not standard output (name it ./- to mean a file called -)".to_owned()),
        (d("f.svg"), "it is a fifo; --svg replaces only regular files".to_owned()),
        (d("sub"), "it is a directory; --svg replaces only regular files".to_owned()),
        (d("sub/"), "it names a directory; name a file".to_owned()),
        (d("missing/x.svg"), format!("its directory {} does not exist", d("missing"))),
        ("/dev/full".to_owned(), "it is a device; --svg replaces only regular files".to_owned()),
    ];
    for (target, why) in &cases {
        for force in [false, true] {
            let mut args = vec!["path", "--svg", target];
            args.extend(force.then_some("--force"));
            refused(&args, &format!("{target}: cannot write to it: {why}"));
        }
    }
    // A directory that cannot be written to is found before the search
    // too (unless the tests run as root, who may write anywhere).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(d("sub"), std::fs::Permissions::from_mode(0o555)).unwrap();
    if std::fs::File::create(d("sub/probe")).is_err() {
        let target = d("sub/x.svg");
        let o = run(&["path", "--svg", &target]);
        assert_eq!(o.status.code(), Some(2));
        assert_eq!(stdout(&o), "");
        assert!(stderr(&o).contains("Permission denied"), "{}", stderr(&o));
    }
    std::fs::set_permissions(d("sub"), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(names(dir.path()), ["f.svg", "sub"], "nothing written beside them");
}

/// A write that fails part way (here the file-size limit, as a full disk
/// would) leaves the old picture as it was and no partial file.
#[cfg(unix)]
#[test]
fn a_failed_write_keeps_the_old_picture_whole() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("p.svg");
    std::fs::write(&svg, "precious").unwrap();
    let mut c = std::process::Command::new("sh");
    let delve = env!("CARGO_BIN_EXE_delve");
    // 8 blocks of 512 bytes: the dungeon's picture is far larger.
    let script = format!("ulimit -f 8; exec {delve} path levels/dungeon.txt --svg {} --force", path_str(&svg));
    c.args(["-c", &script]).current_dir(env!("CARGO_MANIFEST_DIR")).stderr(std::process::Stdio::piped());
    c.stdout(std::process::Stdio::piped());
    let o = output_of(c, "path --svg past ulimit -f");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o), format!("delve: {}: cannot write: File too large (os error 27)\n", svg.display()));
    assert_eq!(std::fs::read_to_string(&svg).unwrap(), "precious");
    assert_eq!(names(dir.path()), ["p.svg"]);
}

#[test]
fn too_many_pictures_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("many.svg");
    let seventeen = vec!["astar"; 17].join(",");
    refused(
        &["path", "--algo", &seventeen, "--svg", path_str(&svg)],
        "--algo: 17 searches in one picture: at most 16 are drawn side by side",
    );
    let many = vec!["astar"; 20_000].join(",");
    let began = Instant::now();
    refused(
        &["path", "--algo", &many, "--svg", path_str(&svg)],
        "20000 searches in one picture: at most 16 are drawn side by side",
    );
    assert!(began.elapsed() < Duration::from_secs(20), "refused before any search: {:?}", began.elapsed());
    let sixteen = vec!["astar"; 16].join(",");
    let o = run(&["path", "--algo", &sixteen, "--svg", path_str(&svg), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 16);
    assert_eq!(names(dir.path()), ["many.svg"]);
}

#[test]
fn a_picture_too_large_to_draw_is_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("vast.txt");
    let side = delve::grid::MAX_SIDE;
    let mut text = format!("S{}\n", ".".repeat(side - 1));
    text += &format!("{}\n", ".".repeat(side)).repeat(side - 2);
    text += &format!("{}G\n", ".".repeat(side - 1));
    std::fs::write(&level, text).unwrap();
    let svg = dir.path().join("vast.svg");
    refused(
        &["path", path_str(&level), "--algo", "astar,greedy", "--svg", path_str(&svg)],
        "--svg: 2 map(s) of 2048x2048 cells are 8388608 cells to draw, more than the 4194304 one picture holds \
         (one 2048x2048 map): draw fewer searches or a smaller level",
    );
    assert_eq!(names(dir.path()), ["vast.txt"]);
}
