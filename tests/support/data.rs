//! The data the tests and benches read from disk: the shipped levels and
//! the Moving AI benchmark folder beside the repository. Included with
//! `#[path]` by each test or bench that needs it (each uses only some).
#![allow(dead_code)]

use delve::level::{Level, Scenario};
use std::path::{Path, PathBuf};

pub fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The files in `dir` whose extension is `ext`, in name order.
pub fn files_with(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

/// The Moving AI folder where the tests and benches look for it:
/// `$DELVE_MOVINGAI` if set, else ../shared/movingai beside the repository.
fn movingai_path() -> PathBuf {
    std::env::var_os("DELVE_MOVINGAI").map_or_else(|| manifest_dir().join("../shared/movingai"), PathBuf::from)
}

/// The Moving AI benchmark folder ([`movingai_path`]), when it is there
/// (CI always has it; a fresh clone does not).
pub fn shared_movingai_dir() -> Option<PathBuf> {
    let dir = movingai_path();
    dir.is_dir().then_some(dir)
}

/// [`shared_movingai_dir`], or `None` after saying on stderr that `test`
/// skipped. Written to stderr directly, past the test harness's capture,
/// so that `cargo test` shows the line.
pub fn shared_movingai_or_skip(test: &str) -> Option<PathBuf> {
    let dir = shared_movingai_dir();
    if dir.is_none() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "skipped {test}: no Moving AI benchmark folder at {} (set DELVE_MOVINGAI or put ../shared beside the clone)",
            movingai_path().display()
        );
    }
    dir
}

/// The small Moving AI map and scenario file shipped with the tests
/// (`rooms.map`, made for delve), for the tests that need one anywhere.
pub fn fixture_dir() -> PathBuf {
    manifest_dir().join("tests/fixtures/movingai")
}

/// Every `levels/*.txt` but the campaign's order (`campaign.txt`),
/// loaded, with its file stem, in name order.
pub fn shipped_levels() -> Vec<(String, Level)> {
    files_with(&manifest_dir().join("levels"), "txt")
        .iter()
        .filter(|p| p.file_stem().is_none_or(|s| s != "campaign"))
        .map(|p| {
            let level = Level::load(p).unwrap_or_else(|e| panic!("{e}"));
            (p.file_stem().unwrap().to_string_lossy().into_owned(), level)
        })
        .collect()
}

/// The shipped level `levels/{name}.txt`.
pub fn shipped_level(name: &str) -> Level {
    Level::load(&manifest_dir().join("levels").join(format!("{name}.txt"))).unwrap_or_else(|e| panic!("{e}"))
}

/// At most `n` (at least 2) scenarios evenly spread over `all`, the last
/// (in a Moving AI file, the longest) always included.
pub fn even_sample(all: &[Scenario], n: usize) -> Vec<Scenario> {
    if all.len() <= n {
        return all.to_vec();
    }
    (0..n).map(|i| all[i * (all.len() - 1) / (n - 1)].clone()).collect()
}
