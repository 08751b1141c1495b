//! `delve gen`: a generated level, written as a delve level, or as a
//! Moving AI map with a scenario file of verified optimal lengths.

use super::CliError;
use super::options::whole_number;
use super::progress::Progress;
use crate::r#gen::movingai::{self, Bucketing};
use crate::r#gen::{MAX_DEPTH, Recipe, Size, Style};
use crate::grid::MAX_SIDE;
use crate::level::Level;
use crate::named::named_enum;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Arguments of `delve gen`.
#[derive(clap::Args, Clone, Debug)]
pub struct GenArgs {
    /// The generator: rooms|caves|maze|mixed
    #[arg(value_name = "STYLE")]
    pub style: Style,
    /// Seed: the same style, seed, depth and size give the same level, byte for byte
    #[arg(long, default_value_t = 1, value_parser = whole_number::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    pub seed: u64,
    /// Map size WxH, up to 2048x2048 (default: the depth's, 48x24 at depth 1 growing to 120x60 at
    /// depth 10, or the style's minimum if larger)
    #[arg(long, value_name = "WxH")]
    pub size: Option<Size>,
    /// How deep the level lies, 1 to 99: deeper levels are larger and have more monsters, a
    /// shorter safe distance and doors that cycle (the table is in docs/gen.md)
    #[arg(long, default_value_t = 1, value_parser = whole_number::<u32>(1, u64::from(MAX_DEPTH)), allow_negative_numbers = true)]
    pub depth: u32,
    /// Write to FILE instead of standard output (refused if it exists, unless --force)
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite the -o and --scen files if they are regular files
    #[arg(long)]
    pub force: bool,
    /// delve: a delve level; movingai: a Moving AI map (`type octile`), walls `@` and all else `.`
    #[arg(long, default_value_t = Format::Delve)]
    pub format: Format,
    /// With --format movingai and -o: also write a Moving AI scenario file of queries on the map,
    /// with their optimal lengths
    #[arg(long, value_name = "FILE.scen")]
    pub scen: Option<PathBuf>,
    /// Scenarios in each bucket of optimal length (default 10, as in Moving AI's files)
    #[arg(long, value_name = "K", requires = "scen", value_parser = whole_number::<usize>(1, (MAX_SIDE * MAX_SIDE) as u64), allow_negative_numbers = true)]
    pub count: Option<usize>,
}

named_enum! {
    /// What `delve gen` writes.
    Format, "format" {
        /// A delve level (levels/README.md).
        Delve => "delve",
        /// A Moving AI benchmark map, and with --scen its scenarios.
        MovingAi => "movingai",
    }
}

/// Runs `delve gen`, writing to `out` what goes to standard output.
pub fn generate(args: &GenArgs, out: &mut impl Write) -> Result<(), CliError> {
    let recipe = Recipe::new(args.style, args.seed, args.depth, args.size).map_err(usage)?;
    if args.format == Format::Delve && args.scen.is_some() {
        return Err(CliError::Usage("--scen needs --format movingai (a scenario file is for a Moving AI map)".into()));
    }
    let Some(scen) = &args.scen else {
        if let Some(target) = &args.output {
            check_target(target, args.force)?;
        }
        let level = recipe.generate();
        let text = match args.format {
            Format::Delve => level.source,
            Format::MovingAi => movingai::map_text(&level.grid),
        };
        return emit(args.output.as_deref(), &text, args.force, out);
    };
    let Some(map_file) = &args.output else {
        return Err(CliError::Usage("--scen needs -o FILE.map: the scenario file names its map".into()));
    };
    if same_file(map_file, scen) {
        return Err(CliError::Usage(format!("-o and --scen name the same file, {}", map_file.display())));
    }
    let map_name = map_file.file_name().map(|n| n.to_string_lossy().into_owned()).ok_or_else(|| {
        CliError::Usage(format!("{}: cannot write to it: it names a directory; name a file", map_file.display()))
    })?;
    check_target(map_file, args.force)?;
    check_target(scen, args.force)?;
    let level = recipe.generate();
    let map = movingai::map_text(&level.grid);
    // The lengths are those of the map as `delve scen` reads it back.
    let grid = Level::parse(&map, &map_name).map_err(CliError::Level)?.grid;
    let bucketing = Bucketing { per_bucket: args.count.unwrap_or(Bucketing::default().per_bucket) };
    let mut bar: Option<Progress> = None;
    let rows = movingai::scenarios(&recipe, &grid, bucketing, &mut |done, all| {
        bar.get_or_insert_with(|| Progress::on_stderr("Dijkstra maps", all)).set(done);
    })
    .map_err(usage)?;
    drop(bar);
    let text = movingai::scenario_text(&rows, &map_name, grid.width(), grid.height());
    write_atomically(map_file, &map, args.force)?;
    write_atomically(scen, &text, args.force)
}

fn usage(e: crate::r#gen::GenError) -> CliError {
    CliError::Usage(e.to_string())
}

/// Whether two paths name one file: the same path, or (both existing) the
/// same file by their canonical paths.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// `text` to `target` (atomically, see [`write_atomically`]), or to `out`.
fn emit(target: Option<&Path>, text: &str, force: bool, out: &mut impl Write) -> Result<(), CliError> {
    match target {
        Some(t) => write_atomically(t, text, force),
        None => out.write_all(text.as_bytes()).map_err(CliError::Output),
    }
}

/// Refuses a `target` that cannot end up holding the file: an existing
/// one unless `force`, anything but a regular file (a directory, a
/// symlink, a FIFO) even then, and one whose directory does not exist.
fn check_target(target: &Path, force: bool) -> Result<(), CliError> {
    let shown = target.display();
    let refuse = |why: &str| Err(CliError::Usage(format!("{shown}: cannot write to it: {why}")));
    match std::fs::symlink_metadata(target) {
        Ok(m) if !m.is_file() => refuse("not a regular file"),
        Ok(_) if !force => Err(CliError::Usage(format!("{shown}: already exists (pass --force to overwrite it)"))),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let dir = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            if target.file_name().is_none() {
                return refuse("it names a directory; name a file");
            }
            match std::fs::metadata(dir) {
                Ok(m) if m.is_dir() => Ok(()),
                Ok(_) => refuse(&format!("{} is not a directory", dir.display())),
                Err(_) => refuse(&format!("its directory {} does not exist", dir.display())),
            }
        }
        Err(e) => refuse(&super::os_reason(&e)),
    }
}

/// Writes `text` to `target` whole or not at all: into a new file beside
/// it (`.NAME.<pid>.gen`, so the rename stays on one file system), made
/// durable, then renamed over the target. A failure removes the new file
/// and leaves the target as it was. The target is checked again just
/// before the rename ([`check_target`]), since it may have appeared.
/// (The shared atomic writer being extracted from the replay recorder can
/// take this function's place.)
fn write_atomically(target: &Path, text: &str, force: bool) -> Result<(), CliError> {
    check_target(target, force)?;
    let name = target.file_name().expect("check_target refuses a target without a file name");
    let mut partial = std::ffi::OsString::from(".");
    partial.push(name);
    partial.push(format!(".{}.gen", std::process::id()));
    let partial = target.with_file_name(partial);
    let written = (|| {
        let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&partial)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()
    })();
    let failed = |e: io::Error| {
        let _ = std::fs::remove_file(&partial);
        CliError::Usage(format!("{}: cannot write: {}", target.display(), super::os_reason(&e)))
    };
    written.map_err(failed)?;
    if let Err(e) = check_target(target, force) {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    std::fs::rename(&partial, target).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_writes_refuse_what_they_must_and_leave_no_partial_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("level.txt");
        write_atomically(&target, "one\n", false).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "one\n");
        let e = write_atomically(&target, "two\n", false).unwrap_err();
        assert_eq!(e.to_string(), format!("{}: already exists (pass --force to overwrite it)", target.display()));
        write_atomically(&target, "two\n", true).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "two\n");
        let e = write_atomically(dir.path(), "x", true).unwrap_err();
        assert!(e.to_string().ends_with("cannot write to it: not a regular file"), "{e}");
        let missing = dir.path().join("no/such/dir/level.txt");
        let e = write_atomically(&missing, "x", false).unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, [std::ffi::OsString::from("level.txt")], "no partial file left");
    }
}
