//! `delve gen`: a generated level, written as a delve level, or as a
//! Moving AI map with a scenario file of verified optimal lengths.

use super::CliError;
use super::names::names;
use super::options::whole_number;
use super::progress::Progress;
use crate::atomic;
use crate::r#gen::movingai::{self, Bucketing};
use crate::r#gen::{MAX_DEPTH, Recipe, Size, Style};
use crate::grid::MAX_SIDE;
use crate::level::Level;
use crate::named::named_enum;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `delve gen`.
#[derive(clap::Args, Clone, Debug)]
pub struct GenArgs {
    /// The generator
    #[arg(value_name = "STYLE", value_parser = names(Style::ALL))]
    pub style: Style,
    /// Seed: the same style, seed, depth and size give the same level, byte for byte
    #[arg(long, default_value_t = 1, value_parser = whole_number::<u64>(0, u64::MAX), allow_negative_numbers = true)]
    pub seed: u64,
    /// Map size WxH, up to 2048x2048 (default: the depth's, 64x32 at depth 1 growing to 120x60 at
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
    #[arg(long, default_value_t = Format::Delve, value_parser = names(Format::ALL))]
    pub format: Format,
    /// With --format movingai and -o: also write a Moving AI scenario file of queries on the map,
    /// with their optimal lengths
    #[arg(long, value_name = "FILE.scen")]
    pub scen: Option<PathBuf>,
    /// Scenarios in each bucket of optimal length (default 10, as in Moving AI's files)
    #[arg(long, value_name = "K", requires = "scen", value_parser = whole_number::<usize>(1, (MAX_SIDE * MAX_SIDE) as u64), allow_negative_numbers = true)]
    pub count: Option<usize>,
}

/// `--gen STYLE [--size WxH] [--depth D]`: the generated level a command
/// plays or searches instead of a level file, the one `delve gen` writes
/// for the same style, seed, depth and size.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct GenLevelArgs {
    /// Use a generated level instead of a file, made from --seed, --depth
    /// and --size as `delve gen` makes it
    #[arg(long = "gen", value_name = "STYLE", conflicts_with = "level", value_parser = names(Style::ALL))]
    pub style: Option<Style>,
    /// With --gen: the map's size (default: the depth's, as for delve gen)
    #[arg(long, value_name = "WxH", requires = "style")]
    pub size: Option<Size>,
    /// With --gen: how deep the level lies, 1 to 99 (default 1; the table is in docs/gen.md)
    #[arg(long, requires = "style", value_parser = whole_number::<u32>(1, u64::from(MAX_DEPTH)), allow_negative_numbers = true)]
    pub depth: Option<u32>,
}

impl GenLevelArgs {
    /// The recipe asked for with the generator's `seed`, if `--gen` was
    /// given; a size below the style's minimum is refused.
    pub fn recipe(&self, seed: u64) -> Result<Option<Recipe>, CliError> {
        let Some(style) = self.style else { return Ok(None) };
        Recipe::new(style, seed, self.depth.unwrap_or(1), self.size).map(Some).map_err(usage)
    }
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
            check_target(target, args.force, "-o")?;
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
    check_target(map_file, args.force, "-o")?;
    check_target(scen, args.force, "--scen")?;
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
    write_atomically(map_file, &map, args.force, "-o")?;
    write_atomically(scen, &text, args.force, "--scen")
}

fn usage(e: crate::r#gen::GenError) -> CliError {
    CliError::Usage(e.to_string())
}

/// Whether two paths name one file: the same path, or (both existing) the
/// same file by their canonical paths.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// `text` to `target` (`-o`, atomically: see [`write_atomically`]), or to `out`.
fn emit(target: Option<&Path>, text: &str, force: bool, out: &mut impl Write) -> Result<(), CliError> {
    match target {
        Some(t) => write_atomically(t, text, force, "-o"),
        None => out.write_all(text.as_bytes()).map_err(CliError::Output),
    }
}

/// Refuses a `target` that cannot end up holding the file (see
/// [`atomic::check`]), before any work is done.
fn check_target(target: &Path, force: bool, by: &str) -> Result<(), CliError> {
    Ok(atomic::check(target, force, by)?)
}

/// Writes `text` to `target` whole or not at all, through the shared
/// atomic writer ([`atomic::write_whole`]).
fn write_atomically(target: &Path, text: &str, force: bool, by: &str) -> Result<(), CliError> {
    Ok(atomic::write_whole(target, force, by, |out| out.write_all(text.as_bytes()))?)
}
