//! `delve lab`: the search lab in the terminal.

use super::names::names;
use super::options::whole_number;
use super::{CliError, ColorArgs, GenLevelArgs, level_file, level_or_generated, refuse_stdin_level};
use crate::level::{DEFAULT_LEVEL_NAME, Level};
use crate::signals::Signals;
use crate::ui;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `delve lab`.
#[derive(clap::Args, Clone, Debug)]
pub struct LabArgs {
    /// Level to edit and search: a file (a delve level or a Moving AI map) or a shipped level's
    /// name, saved as NAME.txt (default: the embedded level, saved as dungeon.txt)
    pub level: Option<PathBuf>,
    /// A generated level instead of a file.
    #[command(flatten)]
    pub generated: GenLevelArgs,
    /// With --gen: the generator's seed
    #[arg(long, default_value_t = 1, requires = "style", value_parser = whole_number::<u64>(0, u64::MAX), allow_hyphen_values = true)]
    pub seed: u64,
    /// The panes' planners, left then right: a grid algorithm, navmesh or
    /// waypoints (default: astar and greedy)
    #[arg(long = "algo", value_name = "ALGO", value_delimiter = ',', num_args = 1)]
    pub algorithms: Vec<crate::search::Planner>,
    /// Both panes' settings from a pair a teacher reaches for (the `m`
    /// menu in the lab lists them too)
    #[arg(long, value_name = "NAME", conflicts_with = "algorithms", value_parser = names(ui::Preset::ALL))]
    pub preset: Option<ui::Preset>,
    /// The steering page instead: two panes run the same crowd (the level,
    /// default the shipped arena, with 12 monsters and 24 wanderers
    /// spawned) under two settings, stepped together
    #[arg(long, conflicts_with_all = ["algorithms", "preset"])]
    pub steer: bool,
    /// With --steer: what the panes compare, avoidance (separation against
    /// ORCA) or the default flocking weights against no-cohesion,
    /// separation-only or strong-alignment (`c` on the page cycles them)
    #[arg(long = "steer-compare", value_name = "NAME", default_value_t = ui::SteerCompare::default(), requires = "steer", value_parser = names(ui::SteerCompare::ALL))]
    pub steer_compare: ui::SteerCompare,
    /// With --steer: the worlds' seed
    #[arg(long = "steer-seed", value_name = "SEED", default_value_t = 1, requires = "steer", value_parser = whole_number::<u64>(0, u64::MAX), allow_hyphen_values = true)]
    pub steer_seed: u64,
    /// Colour or not.
    #[command(flatten)]
    pub color: ColorArgs,
    /// Capture the mouse: click moves the cursor, drag draws walls (from a
    /// wall: floor), right-click puts the goal, middle-click the start; `M`
    /// toggles it. While captured the terminal's text selection needs Shift
    #[arg(long)]
    pub mouse: bool,
}

/// Runs `delve lab` until the user quits. A bad level is one line on a
/// terminal left as it was; a caught signal or a hangup ends the lab with
/// the terminal restored ([`CliError::Interrupted`], [`CliError::HungUp`]).
pub fn lab(args: &LabArgs) -> Result<(), CliError> {
    if args.algorithms.len() > 2 {
        return Err(CliError::Usage("--algo: the lab has two panes, so two planners at most".into()));
    }
    refuse_stdin_level(args.level.as_ref(), "delve lab")?;
    let (level, recipe) = match (&args.level, args.steer && args.generated.style.is_none()) {
        (None, true) => (Level::shipped("arena").expect("the arena is shipped"), None),
        _ => level_or_generated(args.level.as_ref(), &args.generated, args.seed)?,
    };
    let steer = match args.steer {
        true => {
            let file = args.level.clone().unwrap_or_else(|| PathBuf::from(format!("{}.txt", level.name)));
            Some(
                ui::SteerLab::new(&level, args.steer_seed, args.steer_compare)
                    .map_err(|source| CliError::World { file, source })?,
            )
        }
        false => None,
    };
    if !std::io::stdout().is_terminal() {
        return Err(CliError::Usage("delve lab needs a terminal on stdout (try `delve path --svg FILE`)".into()));
    }
    if let Some(steer) = steer {
        let signals = Signals::catch()?;
        return match ui::steer_lab(steer, args.color.palette(), signals)? {
            Some(stop) => Err(CliError::stopped(stop, None)),
            None => Ok(()),
        };
    }
    let save_to = match (&args.level, recipe) {
        (Some(file), _) => level_file(file),
        (None, Some(r)) => PathBuf::from(r.file_name()),
        (None, None) => PathBuf::from(format!("{DEFAULT_LEVEL_NAME}.txt")),
    };
    let signals = Signals::catch()?;
    match ui::lab(level, save_to, &args.algorithms, args.preset, args.color.palette(), args.mouse, signals)? {
        Some(stop) => Err(CliError::stopped(stop, None)),
        None => Ok(()),
    }
}
