//! The player's moves (issue 25): costly cells, corridor runs, runs and
//! errands that never start or go on with a monster in view, travel and
//! auto-explore planned inside the world.

use delve::grid::Cell;
use delve::level::Level;
use delve::sim::{Command, Goal};
use delve::sim::{ErrandKind, Event, Rules, Settings, World};

fn world(text: &str) -> World {
    let level = Level::parse(text, "test").unwrap_or_else(|e| panic!("{e}"));
    World::with_rules(&level, 1, Settings::default(), Rules::SANDBOX).unwrap()
}

/// Ticks until the player is idle again or the session is over (at most
/// `limit` ticks), and the ticks that took.
fn until_idle(w: &mut World, limit: u64) -> u64 {
    let start = w.ticks();
    w.tick();
    while !w.ready() && !w.outcome().is_over() && w.ticks() - start < limit {
        w.tick();
    }
    w.ticks() - start
}

fn events(w: &World) -> Vec<Event> {
    w.events().iter().map(|s| s.event.clone()).collect()
}

/// Issue 25: "water and mud do not slow the player although the legend
/// says `~ water (cost 5)`".
#[test]
fn water_and_mud_slow_the_player_by_their_cost() {
    let mut w = world("##########\n#@~3.....#\n##########\n");
    w.apply(Command::Move { dx: 1, dy: 0 });
    assert_eq!(until_idle(&mut w, 100), 20, "into water: 5 step times of 4 ticks");
    w.apply(Command::Move { dx: 1, dy: 0 });
    assert_eq!(until_idle(&mut w, 100), 12, "into mud of cost 3");
    w.apply(Command::Move { dx: 1, dy: 0 });
    assert_eq!(until_idle(&mut w, 100), 4, "onto plain floor");
}

/// A pond between the player and the cell it travels to: the route round
/// it has more steps and takes less time, and the player takes it.
#[test]
fn travel_takes_the_cheapest_route_not_the_fewest_steps() {
    let pond = "\
#########
#.......#
#.~~~~~.#
#@~~~~~.#
#########
";
    let mut w = world(pond);
    w.apply(Command::Travel { x: 7, y: 3 });
    assert_eq!(w.errand(), Some(ErrandKind::Travel));
    let route = w.route().unwrap().path.clone();
    assert!(route.iter().all(|&c| w.grid().tile(c) != delve::grid::Tile::Water), "round the pond: {route:?}");
    let took = until_idle(&mut w, 1000);
    assert_eq!(w.player().cell, Cell::new(7, 3));
    // 2 diagonals and 4 orthogonal steps round the top: 2·5.66 + 4·4 =
    // 27.3 ticks, against 6 steps of 20 ticks through the water.
    assert!(took < 40, "took {took} ticks");
    let search = w.player_search().unwrap();
    assert!(search.found && search.expanded > 0 && search.steps == route.len() - 1);
}

/// Issue 25: "runs stop at every corner".
#[test]
fn a_run_follows_a_corridor_round_its_corners_to_the_junction() {
    let bends = "\
###########
#@....#####
#####.#####
#####....##
########.##
######.....
########.##
###########
";
    let mut w = world(bends);
    w.apply(Command::Run { dx: 1, dy: 0 });
    until_idle(&mut w, 500);
    assert_eq!(w.player().cell, Cell::new(8, 5), "round three corners to the crossing");
}

/// Issue 25: "Shift-run continues into a monster already in view".
#[test]
fn no_run_travel_or_exploration_starts_with_a_monster_in_view() {
    let mut w = world("############\n#@.........#\n#.........M#\n############\n");
    for (command, errand) in [
        (Command::Run { dx: 1, dy: 0 }, ErrandKind::Run),
        (Command::Travel { x: 5, y: 1 }, ErrandKind::Travel),
        (Command::Explore, ErrandKind::Explore),
    ] {
        w.apply(command);
        assert_eq!(w.errand(), None, "{errand}");
        assert!(w.ready());
        assert_eq!(events(&w).last(), Some(&Event::Refused { errand, monster: 1 }));
    }
    w.tick();
    assert_eq!(w.player().cell, Cell::new(1, 1), "nothing moved the player");
}

/// A travel across the hall stops when the monster behind the wall comes
/// into view.
#[test]
fn a_travel_stops_when_a_monster_comes_into_view() {
    let mut w = world(crate::game::HALL);
    w.apply(Command::Travel { x: 19, y: 1 });
    assert_eq!(w.errand(), Some(ErrandKind::Travel));
    until_idle(&mut w, 500);
    let p = w.player().cell;
    assert!(p.x < 19, "travelled on to {p} with a monster in view");
    assert!(events(&w).contains(&Event::Interrupted { errand: ErrandKind::Travel, monster: 1 }));
}

/// A door shut across a travel's route: it is planned again round it.
#[test]
fn a_travel_plans_again_when_a_door_closes_across_its_route() {
    let two_ways = "\
###########
#@...'...G#
#.#######.#
#.........#
###########
";
    let level = Level::parse(two_ways, "test").unwrap();
    let rules = Rules { goal: Goal::Reach, lives: Some(3) };
    let mut w = World::with_rules(&level, 1, Settings::default(), rules).unwrap();
    w.apply(Command::Travel { x: 9, y: 1 });
    let first = w.route().unwrap().path.clone();
    assert!(first.contains(&Cell::new(5, 1)), "through the door: {first:?}");
    // Shut the door by hand from beside it, and travel on: the route is
    // planned again, round the south.
    let mut w2 = World::with_rules(&level, 1, Settings::default(), rules).unwrap();
    w2.apply(Command::Travel { x: 4, y: 1 });
    until_idle(&mut w2, 100);
    assert_eq!(w2.player().cell, Cell::new(4, 1));
    w2.apply(Command::Door);
    w2.apply(Command::Travel { x: 9, y: 1 });
    let round = w2.route().unwrap().path.clone();
    assert!(round.contains(&Cell::new(5, 3)), "round the south: {round:?}");
    until_idle(&mut w2, 500);
    assert_eq!(w2.outcome(), delve::sim::Outcome::Won);
}

/// Auto-explore walks until everything within reach has been seen, and
/// says so.
#[test]
fn explore_sees_everything_within_reach_then_says_so() {
    let rooms = "\
##################
#@.....#.........#
#......#.........#
#................#
#......#.........#
##################
";
    let level = Level::parse(rooms, "test").unwrap();
    let near = Settings { detection_radius: 4.0, ..Settings::default() };
    let mut w = World::with_rules(&level, 1, near, Rules::SANDBOX).unwrap();
    let walkable: Vec<Cell> = w.grid().cells().filter(|&c| w.grid().is_walkable(c)).collect();
    assert!(walkable.iter().any(|&c| !w.memory().seen(c)));
    w.apply(Command::Explore);
    until_idle(&mut w, 5000);
    assert!(walkable.iter().all(|&c| w.memory().seen(c)), "every floor cell seen");
    assert_eq!(events(&w).last(), Some(&Event::Explored));
    // Asked again, it says so at once.
    w.apply(Command::Explore);
    assert!(w.ready());
}
