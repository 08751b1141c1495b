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

/// The shared Moving AI folder, which sits beside the repository.
pub fn movingai_dir() -> PathBuf {
    let dir = manifest_dir().join("../shared/movingai");
    assert!(
        dir.is_dir(),
        "Moving AI benchmark folder not found at {}: these need ../shared/movingai beside the repository",
        dir.display()
    );
    dir
}

/// The Moving AI folder when it is there: `$DELVE_MOVINGAI` if set, else
/// ../shared/movingai beside the repository. When it is absent, prints
/// why `what` is skipped and returns `None`.
pub fn movingai_dir_if_present(what: &str) -> Option<PathBuf> {
    let dir =
        std::env::var_os("DELVE_MOVINGAI").map_or_else(|| manifest_dir().join("../shared/movingai"), PathBuf::from);
    if dir.is_dir() {
        return Some(dir);
    }
    println!(
        "skipped {what}: no Moving AI folder at {} (set DELVE_MOVINGAI or put ../shared beside the clone)",
        dir.display()
    );
    None
}

/// Every `levels/*.txt`, loaded, with its file stem, in name order.
pub fn shipped_levels() -> Vec<(String, Level)> {
    files_with(&manifest_dir().join("levels"), "txt")
        .iter()
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
