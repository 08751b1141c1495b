//! The flocking weights as a world setting ([`Settings::flock`]): how much
//! a boid's separation, alignment and cohesion count, a triple of numbers
//! or one of the named presets a teacher reaches for ([`FlockPreset`]).
//!
//! The default is [`FLOCK_WEIGHTS`], the weights boids always flocked
//! with. Replay headers write the setting only when it is not the default,
//! and the world's hash counts it only then, so every recording made
//! before it existed reads back, and verifies, unchanged.
//!
//! [`FlockFigures`] measures what the weights do to a world's flocks.
//!
//! [`Settings::flock`]: super::Settings::flock

use super::creature::{Creature, Kind};
use super::species::{FLOCK_RADIUS, FLOCK_WEIGHTS};
use crate::named::named_enum;
use crate::steer::{FlockWeights, SpatialHash, Vec2};
use serde::{Deserialize, Serialize};

/// The largest weight accepted: separation pushes as 1/distance, so a
/// weight far above the default's 6 only pins boids to their force cap; a
/// larger one is a typo.
pub const MAX_FLOCK_WEIGHT: f32 = 100.0;

named_enum! {
    /// Flocking weights by name: the default and what a teacher shows
    /// beside it, each one urge changed.
    FlockPreset, "flocking preset" {
        /// Separation 6, alignment 1, cohesion 0.3 ([`FLOCK_WEIGHTS`]).
        Default => "default",
        /// Cohesion 0: boids align and keep apart but nothing pulls them
        /// together, so flocks drift apart into lanes and stragglers.
        NoCohesion => "no-cohesion",
        /// Separation alone: no alignment, no cohesion, so boids only push
        /// apart and wander, a gas rather than a flock.
        SeparationOnly => "separation-only",
        /// Alignment 4: neighbours match headings fast, so flocks turn as
        /// one and stream in a single direction.
        StrongAlignment => "strong-alignment",
    }
}

impl FlockPreset {
    /// The weights the preset names.
    pub const fn weights(self) -> FlockWeights {
        let FlockWeights { separation, alignment, cohesion } = FLOCK_WEIGHTS;
        match self {
            FlockPreset::Default => FLOCK_WEIGHTS,
            FlockPreset::NoCohesion => FlockWeights { separation, alignment, cohesion: 0.0 },
            FlockPreset::SeparationOnly => FlockWeights { separation, alignment: 0.0, cohesion: 0.0 },
            FlockPreset::StrongAlignment => FlockWeights { separation, alignment: 4.0, cohesion },
        }
    }

    /// The preset of `weights`, if they are one.
    pub fn of(weights: FlockWeights) -> Option<FlockPreset> {
        FlockPreset::ALL.iter().copied().find(|p| p.weights() == weights)
    }
}

/// What is wrong with `weights` (a hand-edited header): each must be a
/// finite number from 0 to [`MAX_FLOCK_WEIGHT`]; `None` when all is well.
pub fn problem(weights: &FlockWeights) -> Option<String> {
    let FlockWeights { separation, alignment, cohesion } = *weights;
    [("separation", separation), ("alignment", alignment), ("cohesion", cohesion)]
        .into_iter()
        .find(|(_, w)| !(0.0..=MAX_FLOCK_WEIGHT).contains(w))
        .map(|(name, w)| format!("flock {name} {w} is not from 0 to {MAX_FLOCK_WEIGHT}"))
}

/// Reads flocking weights as the command line spells them: a preset's
/// name, or `S,A,C` (separation, alignment, cohesion), each from 0 to
/// [`MAX_FLOCK_WEIGHT`].
pub fn parse(s: &str) -> Result<FlockWeights, String> {
    if let Ok(preset) = s.parse::<FlockPreset>() {
        return Ok(preset.weights());
    }
    let expected = || {
        format!(
            "'{s}' is neither a flocking preset ({}) nor three weights S,A,C (separation, alignment, cohesion)",
            FlockPreset::names()
        )
    };
    let parts: Vec<&str> = s.split(',').collect();
    let [separation, alignment, cohesion] = parts[..] else { return Err(expected()) };
    let number = |t: &str| t.trim().parse::<f32>().ok().filter(|w| w.is_finite()).ok_or_else(expected);
    let weights =
        FlockWeights { separation: number(separation)?, alignment: number(alignment)?, cohesion: number(cohesion)? };
    match problem(&weights) {
        Some(why) => Err(why),
        None => Ok(weights),
    }
}

/// The weights as the panel, `delve sim` and the lab show them: the
/// preset's name when they are one, then the three numbers.
pub fn describe(weights: &FlockWeights) -> String {
    let FlockWeights { separation, alignment, cohesion } = weights;
    let numbers = format!("s {separation} a {alignment} c {cohesion}");
    match FlockPreset::of(*weights) {
        Some(preset) => format!("{preset} ({numbers})"),
        None => numbers,
    }
}

/// The shape of a world's flocks, among its boids: how many boids lie
/// within the flocking radius of each (cohesion gathers them, so more),
/// how many have none there (stragglers), and how well neighbours'
/// headings agree: for each boid with neighbours, the length of the mean
/// of the unit headings of it and them (1 when they fly one way, near 0
/// for headings at random; a standing boid's counts as 0), averaged.
/// Local, so that two flocks flying apart still count as aligned;
/// alignment raises it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockFigures {
    /// How many boids there are.
    pub boids: usize,
    /// The boids within the flocking radius of a boid, on average.
    pub mean_neighbours: f32,
    /// The boids with none within the flocking radius.
    pub alone: usize,
    /// How well neighbours' headings agree, from 0 to 1.
    pub alignment: f32,
}

impl FlockFigures {
    /// The figures of `creatures`' boids, through a spatial hash (the
    /// lab's steering page draws them every frame, whatever the crowd).
    pub fn of(creatures: &[Creature]) -> FlockFigures {
        let boids: Vec<&Creature> = creatures.iter().filter(|c| c.kind == Kind::Boid).collect();
        let unit = |v: Vec2| if v.length() > 1e-6 { v * (1.0 / v.length()) } else { Vec2::ZERO };
        let headings: Vec<Vec2> = boids.iter().map(|b| unit(b.body.vel)).collect();
        let mut hash = SpatialHash::new(FLOCK_RADIUS);
        hash.rebuild(boids.iter().map(|b| b.body.pos));
        let (mut neighbours, mut alone, mut agreement) = (0usize, 0usize, 0.0f32);
        for b in &boids {
            // The boid itself is within the radius: counted in the
            // heading, not as a neighbour.
            let (mut near, mut heading) = (0usize, Vec2::ZERO);
            hash.visit(b.body.pos, FLOCK_RADIUS, |slot, _, _, _| {
                near += 1;
                heading += headings[hash.ids()[slot] as usize];
            });
            neighbours += near - 1;
            alone += usize::from(near == 1);
            if near > 1 {
                agreement += heading.length() / near as f32;
            }
        }
        let mean = |sum: f32, n: usize| if n == 0 { 0.0 } else { sum / n as f32 };
        FlockFigures {
            boids: boids.len(),
            mean_neighbours: mean(neighbours as f32, boids.len()),
            alone,
            alignment: mean(agreement, boids.len() - alone),
        }
    }
}

/// The weights as replay headers write them, every field named.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct WrittenFlock {
    separation: f32,
    alignment: f32,
    cohesion: f32,
}

impl WrittenFlock {
    /// The default, for headers that do not write the setting.
    pub(super) fn default_weights() -> WrittenFlock {
        FLOCK_WEIGHTS.into()
    }

    /// Whether these are the default weights, which headers leave out.
    pub(super) fn is_default(&self) -> bool {
        FlockWeights::from(*self) == FLOCK_WEIGHTS
    }
}

impl From<FlockWeights> for WrittenFlock {
    fn from(w: FlockWeights) -> WrittenFlock {
        WrittenFlock { separation: w.separation, alignment: w.alignment, cohesion: w.cohesion }
    }
}

impl From<WrittenFlock> for FlockWeights {
    fn from(w: WrittenFlock) -> FlockWeights {
        FlockWeights { separation: w.separation, alignment: w.alignment, cohesion: w.cohesion }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_triples_parse_and_bad_values_are_told() {
        assert_eq!(parse("default"), Ok(FLOCK_WEIGHTS));
        assert_eq!(parse("no-cohesion").unwrap().cohesion, 0.0);
        assert_eq!(parse("6, 0,0"), Ok(FlockPreset::SeparationOnly.weights()));
        assert_eq!(parse("1,2.5,0.25"), Ok(FlockWeights { separation: 1.0, alignment: 2.5, cohesion: 0.25 }));
        for bad in ["", "1,2", "1,2,3,4", "a,b,c", "loose", "1,inf,0", "NaN,1,1"] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains("neither a flocking preset (default|no-cohesion"), "{bad}: {e}");
        }
        assert_eq!(parse("1,-1,0").unwrap_err(), "flock alignment -1 is not from 0 to 100");
        assert_eq!(parse("1,1,100.5").unwrap_err(), "flock cohesion 100.5 is not from 0 to 100");
    }

    #[test]
    fn each_preset_names_its_own_weights() {
        let weights: Vec<FlockWeights> = FlockPreset::ALL.iter().map(|p| p.weights()).collect();
        for (i, w) in weights.iter().enumerate() {
            assert_eq!(FlockPreset::of(*w), Some(FlockPreset::ALL[i]));
            assert!(weights[..i].iter().all(|o| o != w), "{w:?} twice");
            assert_eq!(problem(w), None);
        }
        assert_eq!(describe(&FLOCK_WEIGHTS), "default (s 6 a 1 c 0.3)");
        assert_eq!(describe(&FlockWeights { separation: 2.0, alignment: 0.5, cohesion: 1.0 }), "s 2 a 0.5 c 1");
    }
}
