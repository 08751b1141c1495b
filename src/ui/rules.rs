//! The rules of the game as the help tells them: made from the
//! simulation's own constants and the world's settings and rules, never
//! restated, so that they say what this world does. Each claim that is not
//! a constant read straight from the simulation is checked against a world
//! by a test below, so a change to the rules that leaves the words behind
//! fails there.

use crate::grid::{Tile, WATER_COST};
use crate::level::tile_glyph;
use crate::sim::{
    CONTACT_TICKS, FORGET_TICKS, GRACE_CELLS, GRACE_TICKS, Goal, HEARING_CELLS, Kind, Lost, MAX_GRACE_TICKS,
    SEARCH_TICKS, SUBTICKS, Species, TICKS_PER_SECOND, World, step_duration, step_time,
};

/// A number as the rules write it: whole when it is, else with at most two
/// decimals and no trailing zeros (`4`, `1.6`, `0.25`).
pub fn number(x: f64) -> String {
    let text = format!("{x:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Seconds of game time in `ticks`.
fn seconds(ticks: u64) -> String {
    number(ticks as f64 / f64::from(TICKS_PER_SECOND))
}

/// A kind's top speed, in cells per second.
fn speed(kind: Kind) -> String {
    number(f64::from(Species::of(kind).max_speed))
}

/// The player's orthogonal step: its time in ticks.
fn step_ticks() -> f64 {
    step_time(1, 0) as f64 / SUBTICKS as f64
}

/// The rules of `world`, one paragraph each, in the order a new player
/// needs them.
pub fn rules(world: &World) -> Vec<String> {
    let settings = world.settings();
    let goal = match world.rules().goal {
        Goal::Reach => format!("Reach {} to win.", crate::level::marker::GOAL),
        Goal::Survive { ticks } => format!("Stay uncaught for {} s to win.", seconds(ticks)),
        Goal::None => "No goal: a sandbox, to play and watch as long as you like.".to_string(),
    };
    let lives = match world.lives() {
        Some(1) => "1 life is left: the next catch loses the game.".to_string(),
        Some(n) => format!("{n} lives are left: each catch costs one, and the last one loses the game."),
        None => "Lives are unlimited.".to_string(),
    };
    let per_second = f64::from(TICKS_PER_SECOND) / step_ticks();
    let diagonal = step_time(1, 1) as f64 / step_time(1, 0) as f64;
    let doors = match world.doors() {
        Some(d) => format!(
            " On this level the doors also open and close by themselves every {} s.",
            seconds(d.cycle().period.into())
        ),
        None => String::new(),
    };
    let mud = |c| tile_glyph(Tile::Floor(c));
    vec![
        format!("{goal} {lives}"),
        format!(
            "You walk {} cells a second (a step every {} s; a diagonal step takes {}× as long). Shift and a move key runs.",
            number(per_second),
            number(step_ticks() / f64::from(TICKS_PER_SECOND)),
            number(diagonal),
        ),
        format!(
            "Monsters run at most {} cells a second, slower than you, but they plan the shortest way to you ({}, \
             repath policy {}). Wanderers ({}) roam, fleeing prey ({}) run from you and the monsters, boids ({}) \
             flock: none of them harms you.",
            speed(Kind::Monster),
            settings.planner(),
            settings.repath.name(),
            speed(Kind::Wanderer),
            speed(Kind::Fleeing),
            speed(Kind::Boid),
        ),
        format!(
            "Sight: a monster sees you along a clear line within {} cells; walls and closed doors block it.",
            number(f64::from(settings.detection_radius)),
        ),
        format!(
            "Noise: your steps are heard {HEARING_CELLS} steps away along open floor (round corners, not through \
             walls or closed doors). Standing still is silent: a monster that cannot see you cannot find you.",
        ),
        format!(
            "Doors: monsters cannot open them. A closed door stops them and muffles your steps; e opens or closes \
             the door next to you, never on someone in the doorway.{doors}",
        ),
        format!(
            "Costs: mud ({}-{}, the digit is its cost) and water ({}, cost {WATER_COST}) cost a monster's search more \
             than floor (1), so their paths go round them when they can. They slow you by their cost: a step into \
             one takes its cost times a step on floor ({} s into mud 2, {} s into water).",
            mud(2),
            mud(9),
            tile_glyph(Tile::Water),
            seconds(step_duration(1, 0, 2) / SUBTICKS),
            seconds(step_duration(1, 0, WATER_COST) / SUBTICKS),
        ),
        format!(
            "Memory: a monster that loses you keeps you in mind for {} s, then walks to where it last perceived you, \
             {}, gives up and goes back to its post.",
            seconds(CONTACT_TICKS),
            match settings.lost {
                Lost::Linger => format!("searches there for {} s", seconds(SEARCH_TICKS)),
                Lost::Sweep => "sweeps the cells round there it has not seen, leaning the way you went".to_string(),
            },
        ),
        format!(
            "Catches: a monster that reaches you catches you. You lose a life; it lands out of your sight, as near \
             its post as it can, and perceives nothing for {} s; and no monster can catch you (your @ flashes) \
             until you have moved {GRACE_CELLS} steps from where you were caught, for {} s at least and {} s at most.",
            seconds(FORGET_TICKS),
            seconds(GRACE_TICKS.into()),
            seconds(MAX_GRACE_TICKS.into()),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;
    use crate::level::Level;
    use crate::sim::{Command, Rules, Sense, Settings};

    fn world(text: &str) -> World {
        let level = Level::parse(text, "t").unwrap();
        World::with_rules(&level, 1, Settings::default(), Rules::game(&level)).unwrap()
    }

    #[test]
    fn numbers_are_written_short() {
        assert_eq!(number(4.0), "4");
        assert_eq!(number(1.6), "1.6");
        assert_eq!(number(0.25), "0.25");
        assert_eq!(number(std::f64::consts::SQRT_2), "1.41");
        assert_eq!(number(40.0), "40");
    }

    /// The rules read the world's own settings and rules.
    #[test]
    fn the_rules_are_those_of_the_world() {
        let w = world("lives: 2\n@..G\n");
        let text = rules(&w).join("\n");
        assert!(text.starts_with("Reach G to win. 2 lives are left"), "{text}");
        assert!(text.contains("You walk 5 cells a second (a step every 0.2 s; a diagonal step takes 1.41× as long)"));
        assert!(text.contains("Monsters run at most 4 cells a second"), "{text}");
        assert!(text.contains("within 40 cells"), "{text}");
        assert!(text.contains("heard 8 steps away"), "{text}");
        assert!(text.contains("water (~, cost 5)"), "{text}");
        assert!(text.contains("mud (2-9"), "{text}");
        assert!(text.contains("perceives nothing for 10 s"), "{text}");
        assert!(!text.contains("by themselves"), "no cycling doors here");
        let cycling = world("doors: cycle 60\n@.+.\n");
        assert!(rules(&cycling).join(" ").contains("by themselves every 3 s"));
        let sandbox = World::new(&Level::parse("@..\n", "t").unwrap(), 1, Settings::default()).unwrap();
        assert!(rules(&sandbox)[0].starts_with("No goal: a sandbox") && rules(&sandbox)[0].ends_with("unlimited."));
        let survive = world("goal: survive 30\n@..\n");
        assert!(rules(&survive)[0].starts_with("Stay uncaught for 30 s to win."), "{:?}", rules(&survive));
    }

    /// Ticks until the player, told to move by (dx, dy) every tick, has
    /// taken `steps` steps.
    fn ticks_to_walk(w: &mut World, dx: i8, dy: i8, steps: usize) -> u64 {
        let from = w.ticks();
        let mut taken = 0;
        while taken < steps {
            let before = w.player().cell;
            w.apply(Command::Move { dx, dy });
            w.tick();
            taken += usize::from(w.player().cell != before);
            assert!(w.ticks() - from < 1000, "the player does not move");
        }
        w.ticks() - from
    }

    /// "You walk 5 cells a second", and "mud and water slow you by their
    /// cost": ten steps take two seconds on floor, and cost times as long
    /// on mud and in water.
    #[test]
    fn the_player_walks_at_the_pace_the_rules_say_on_every_floor() {
        let per_second = f64::from(TICKS_PER_SECOND) / step_ticks();
        for (floor, cost) in [(".", 1.0), ("2", 2.0), ("9", 9.0), ("~", f64::from(WATER_COST))] {
            let mut w = world(&format!("@{}\n", floor.repeat(12)));
            // The first step is taken at once; ten more take ten steps' time.
            ticks_to_walk(&mut w, 1, 0, 1);
            let ticks = ticks_to_walk(&mut w, 1, 0, 10);
            assert_eq!(ticks as f64, cost * 10.0 * f64::from(TICKS_PER_SECOND) / per_second, "on {floor}");
        }
        let text = rules(&world("@..\n")).join(" ");
        assert!(text.contains("(0.4 s into mud 2, 1 s into water)"), "{text}");
    }

    /// "Monsters cannot open doors": a monster that saw the player through
    /// an open door, which the player then closed, never gets through it.
    #[test]
    fn monsters_cannot_open_doors() {
        let mut w = world("lives: 9\n#########\n#M....'@#\n#########\n");
        w.tick();
        assert_eq!(w.perceived(0), Some(Sense::Sight), "it sees the player through the open door");
        w.apply(Command::Door);
        w.tick();
        assert_eq!(w.grid().tile(Cell::new(6, 1)), Tile::DoorClosed);
        for _ in 0..400 {
            w.tick();
            assert!(w.creatures()[0].cell().x < 6, "the monster went through the door at tick {}", w.ticks());
        }
        assert_eq!(w.stats().total.catches, 0);
    }

    /// "Heard 8 steps away" and "standing still is silent": round a
    /// corner, out of sight, a monster hears the player's step that ends 8
    /// steps from it, not one that ends 9 steps away, nor a player
    /// standing still.
    #[test]
    fn steps_are_heard_as_far_as_the_rules_say_and_standing_is_silent() {
        // The player steps west to 1,3; the way to the monster on row 1
        // goes east and up through the gap at 7,2 (no cutting its
        // corners): 8 steps to 7,1, 9 to 6,1.
        let heard = |monster_x: usize, step: bool| {
            let mut top = vec!['.'; 7];
            top[monster_x - 1] = 'M';
            let top: String = top.into_iter().collect();
            let mut w = world(&format!("lives: 9\n#########\n#{top}#\n#######.#\n#.@.....#\n#########\n"));
            if step {
                w.apply(Command::Move { dx: -1, dy: 0 });
            }
            w.tick();
            assert!(!step || w.player().cell == Cell::new(1, 3));
            w.perceived(0)
        };
        assert_eq!(HEARING_CELLS, 8, "the level above is laid out for 8 steps");
        assert_eq!(heard(7, true), Some(Sense::Hearing));
        assert_eq!(heard(6, true), None);
        assert_eq!(heard(7, false), None);
    }

    /// "Catches: ... you lose a life; it ... perceives nothing for 10 s;
    /// and no monster can catch you until you have moved 3 steps from where
    /// you were caught, for 2 s at least and 10 s at most."
    #[test]
    fn a_catch_does_what_the_rules_say() {
        let mut w = world("lives: 3\n#########\n#@....M.#\n#########\n");
        while w.lives() == Some(3) {
            assert!(w.ticks() < 400, "never caught");
            w.tick();
        }
        let caught_at = w.ticks();
        assert_eq!(w.lives(), Some(2));
        // Standing still, the player keeps its grace to the longest, and
        // the monster perceives nothing while it forgets.
        while w.lives() == Some(2) && w.ticks() - caught_at < FORGET_TICKS {
            assert_eq!(w.perceived(0), None, "perceived at {}", w.ticks() - caught_at);
            w.tick();
        }
        while w.lives() == Some(2) {
            assert!(w.ticks() - caught_at < 2000, "never caught again");
            w.tick();
        }
        assert!(w.ticks() - caught_at >= u64::from(MAX_GRACE_TICKS), "caught again within the grace");
        let text = rules(&w).join(" ");
        assert!(
            text.contains("until you have moved 3 steps from where you were caught, for 2 s at least and 10 s at most")
        );
    }
}
