//! What the player does: the `walk` system (the act that waits, or the
//! errand's next step, at the player's pace), the `sight` system (what the
//! player sees joins what it has seen), the `heed` system (what stops an
//! errand between steps), the errands' starts and routes, and the door the
//! player opens or closes.

use super::World;
use crate::grid::{Cell, DIRECTIONS, Tile, in_view};
use crate::search::{Fallback, Planner};
use crate::sim::errand::{Errand, ErrandKind, PlayerSearch, Route, Task, nearest_unseen};
use crate::sim::events::Event;
use crate::sim::pace::{Act, ORTHOGONAL_STEP, step_duration};
use crate::sim::run::{Run, new_door_beside};
use crate::sim::sightings::Sightings;
use std::ops::ControlFlow;

/// Takes the act that waits, or the errand's next step, if the pace allows
/// one in the tick starting now. A step that is not legal when its time
/// comes is not taken (and ends the errand that chose it).
pub(super) fn walk(w: &mut World) -> ControlFlow<()> {
    let now = w.state.tick;
    if !w.state.walk.is_free(now) {
        return ControlFlow::Continue(());
    }
    let (act, errand) = match w.state.walk.take() {
        Some(act) => (act, false),
        None => match w.errand_step() {
            Some((dx, dy)) => (Act::Step(dx, dy), true),
            None => return ControlFlow::Continue(()),
        },
    };
    let s = &mut w.state;
    let (dx, dy) = match act {
        Act::Rest => {
            s.walk.acted(now, ORTHOGONAL_STEP);
            return ControlFlow::Continue(());
        }
        Act::Step(dx, dy) => (dx, dy),
    };
    let from = s.player.cell;
    if !s.grid.can_step(from, i32::from(dx), i32::from(dy)) {
        if errand {
            s.walk.errand = None;
        }
        return ControlFlow::Continue(());
    }
    let to = Cell::new(from.x + i32::from(dx), from.y + i32::from(dy));
    s.player.cell = to;
    s.player.last_step = Some((dx, dy, now));
    s.walk.acted(now, step_duration(dx, dy, s.grid.entry_cost(to).unwrap_or(1)));
    if errand {
        w.errand_stepped(from, to);
    }
    ControlFlow::Continue(())
}

/// What the player sees from where it stands joins what it has seen.
pub(super) fn sight(w: &mut World) -> ControlFlow<()> {
    w.look();
    ControlFlow::Continue(())
}

/// An errand stops when a monster comes into view, and a run or an
/// exploration when the goal comes into view; an exploration that has seen
/// the cell it was heading for heads for the next.
pub(super) fn heed(w: &mut World) -> ControlFlow<()> {
    let Some(kind) = w.state.walk.errand.as_ref().map(Errand::kind) else { return ControlFlow::Continue(()) };
    if let Some(monster) = w.monster_in_view() {
        w.state.walk.errand = None;
        w.event(Event::Interrupted { errand: kind, monster });
        return ControlFlow::Continue(());
    }
    let goal = w.goal_in_view();
    let Some(errand) = w.state.walk.errand.as_mut() else { return ControlFlow::Continue(()) };
    let came_into_view = goal && !std::mem::replace(&mut errand.goal_in_view, goal);
    if came_into_view && kind != ErrandKind::Travel {
        w.state.walk.errand = None;
        w.event(Event::GoalInView(kind));
        return ControlFlow::Continue(());
    }
    if let Task::Explore(route) = &errand.task
        && w.state.memory.seen(route.to)
    {
        w.explore_next();
    }
    ControlFlow::Continue(())
}

impl World {
    /// Brings what the player has seen, and where it saw the monsters, up
    /// to date with what it sees now.
    pub(super) fn look(&mut self) {
        let s = &mut self.state;
        let radius = crate::sim::memory::sight_radius(s.settings.detection_radius);
        s.memory.look(&s.grid, s.player.cell, radius, &s.hidden);
        let (grid, eye) = (&s.grid, s.player.cell);
        let monsters = s.monsters.iter(&s.creatures).map(|(i, c)| (i, c.cell()));
        let sees = |c: Cell| in_view(grid, eye, c, radius);
        s.sightings.update(s.tick, monsters, sees);
    }

    /// Whether the player sees `cell` now (see [`crate::grid::in_view`]).
    fn sees(&self, cell: Cell) -> bool {
        in_view(&self.state.grid, self.state.player.cell, cell, self.sight_radius())
    }

    /// The ordinal (from 1) of the first monster in the player's view.
    fn monster_in_view(&self) -> Option<usize> {
        let s = &self.state;
        (s.monsters.iter(&s.creatures).map(|(_, c)| c.cell())).position(|cell| self.sees(cell)).map(|k| k + 1)
    }

    /// Whether the level's goal is in the player's view.
    fn goal_in_view(&self) -> bool {
        self.state.goal_cell.is_some_and(|g| self.sees(g))
    }

    /// Whether an errand of `kind` may start: not with a monster in view
    /// (the log says which).
    fn may_start(&mut self, kind: ErrandKind) -> bool {
        match self.monster_in_view() {
            Some(monster) => {
                self.event(Event::Refused { errand: kind, monster });
                false
            }
            None => true,
        }
    }

    /// Starts `task` in place of the acts that wait.
    fn set_errand(&mut self, task: Task) {
        let goal_in_view = self.goal_in_view();
        let walk = &mut self.state.walk;
        walk.clear();
        walk.errand = Some(Errand { task, goal_in_view });
    }

    /// A run by (dx, dy), when its first step is legal.
    pub(super) fn start_run(&mut self, dx: i8, dy: i8) {
        if !self.may_start(ErrandKind::Run) {
            return;
        }
        if let Some(run) = Run::start(&self.state.grid, self.state.player.cell, dx, dy) {
            self.set_errand(Task::Run(run));
        }
    }

    /// A travel to `to`, when a route leads there.
    pub(super) fn start_travel(&mut self, to: Cell) {
        if to == self.state.player.cell || !self.may_start(ErrandKind::Travel) {
            return;
        }
        match self.plan_route(ErrandKind::Travel, to, None) {
            Some(route) => self.set_errand(Task::Travel(route)),
            None => self.event(Event::NoRoute(to)),
        }
    }

    /// An exploration, when some cell within reach is not seen yet.
    pub(super) fn start_explore(&mut self) {
        if self.may_start(ErrandKind::Explore) {
            self.explore_next();
        }
    }

    /// Heads for the nearest cell not seen yet, kept clear of the monsters
    /// the player remembers, or ends the exploration when none is left
    /// within reach. While one is remembered the route is the wary
    /// search's own path, and the log says when it sent the player to a
    /// farther frontier than it would have gone to.
    fn explore_next(&mut self) {
        let s = &self.state;
        let (way, picked) = nearest_unseen(&s.grid, s.player.cell, &s.memory, &s.sightings);
        let target = way.as_ref().and_then(|w| w.last().copied());
        let route = match way {
            Some(way) if !s.sightings.is_empty() => {
                self.heed_sightings(target);
                self.wary_route(way, picked.expanded)
            }
            _ => target.and_then(|t| self.plan_route(ErrandKind::Explore, t, Some(picked.expanded))),
        };
        match (target, route) {
            (_, Some(route)) => self.set_errand(Task::Explore(route)),
            (Some(t), None) => {
                self.state.walk.errand = None;
                self.event(Event::NoRoute(t));
            }
            (None, None) => {
                self.state.walk.errand = None;
                self.event(Event::Explored);
            }
        }
    }

    /// Says so when the monsters the player remembers sent explore to
    /// `target` rather than to the frontier it would have picked without
    /// them, naming the remembered monster nearest that one.
    fn heed_sightings(&mut self, target: Option<Cell>) {
        let s = &self.state;
        let (plain, _) = nearest_unseen(&s.grid, s.player.cell, &s.memory, &Sightings::default());
        let Some(skipped) = plain.and_then(|w| w.last().copied()) else { return };
        let (Some(to), Some(seen)) = (target, s.sightings.nearest(skipped)) else { return };
        if to == skipped {
            return;
        }
        let monster = s.monsters.ordinal(seen.creature);
        let event = Event::Wary { monster, seen: seen.cell, ticks_ago: s.tick - seen.tick, skipped, to };
        self.event(event);
    }

    /// The route of the wary search's `way`, its figures kept for the
    /// panel as a Dijkstra search's (which it is).
    fn wary_route(&mut self, way: Vec<Cell>, expanded: u64) -> Option<Route> {
        let s = &self.state;
        let to = *way.last()?;
        self.session.player_search = Some(PlayerSearch {
            tick: s.tick,
            errand: ErrandKind::Explore,
            to,
            planner: Planner::DIJKSTRA,
            found: true,
            steps: way.len().saturating_sub(1),
            expanded,
            picked: Some(expanded),
        });
        (way.len() >= 2).then(|| Route { to, path: way, next: 1, version: s.grid.version() })
    }

    /// Plans the player's way to `to` with the monsters' search and
    /// settings, and keeps its figures for the panel; `None` when there is
    /// none. The player walks cells: under an any-angle planner it plans
    /// with that planner's ordering on the grid, and jump points that
    /// cannot run on the level fall back to the grid as the monsters' do.
    fn plan_route(&mut self, errand: ErrandKind, to: Cell, picked: Option<u64>) -> Option<Route> {
        let (s, planner) = (&self.state, &mut self.scratch.planner);
        let mut settings = s.settings.search;
        if settings.planner.expansion().any_angle() {
            settings.planner = Planner::grid(settings.planner.order());
        }
        let outcome = planner.plan_observed(&s.grid, s.player.cell, to, &settings, Fallback::Grid, &mut ()).ok()?;
        let path = planner.path();
        self.session.player_search = Some(PlayerSearch {
            tick: s.tick,
            errand,
            to,
            planner: planner.ran(),
            found: outcome.found,
            steps: path.len().saturating_sub(1),
            expanded: outcome.stats.expanded,
            picked,
        });
        (outcome.found && path.len() >= 2).then(|| Route {
            to,
            path: path.to_vec(),
            next: 1,
            version: s.grid.version(),
        })
    }

    /// The step the errand takes next: a run's direction, or a route's next
    /// cell (planned again when a door changed the grid or closed across
    /// it; with no way left the errand ends, saying so).
    fn errand_step(&mut self) -> Option<(i8, i8)> {
        let errand = self.state.walk.errand.as_ref()?;
        let (kind, route) = match &errand.task {
            Task::Run(run) => return Some((run.dx, run.dy)),
            Task::Travel(route) => (ErrandKind::Travel, route),
            Task::Explore(route) => (ErrandKind::Explore, route),
        };
        if let Some(step) = route.next_step(&self.state.grid, self.state.player.cell) {
            return Some(step);
        }
        let to = route.to;
        let Some(fresh) = self.plan_route(kind, to, None) else {
            self.state.walk.errand = None;
            self.event(Event::NoRoute(to));
            return None;
        };
        let step = fresh.next_step(&self.state.grid, self.state.player.cell);
        if let Some(Task::Travel(route) | Task::Explore(route)) = self.state.walk.errand.as_mut().map(|e| &mut e.task) {
            *route = fresh;
        }
        step
    }

    /// After the errand's step from `from` into `to`: whether it goes on. A
    /// run chooses its next direction; a route moves on, and a travel ends
    /// where it was going; both end where a door comes beside the player.
    fn errand_stepped(&mut self, from: Cell, to: Cell) {
        let s = &mut self.state;
        let Some(errand) = s.walk.errand.as_mut() else { return };
        let goes_on = match &mut errand.task {
            Task::Run(run) => run.after_step(&s.grid, from, to),
            Task::Travel(route) => {
                route.next += 1;
                to != route.to && !new_door_beside(&s.grid, from, to)
            }
            Task::Explore(route) => {
                route.next += 1;
                !new_door_beside(&s.grid, from, to)
            }
        };
        if !goes_on {
            s.walk.errand = None;
        }
    }

    /// Opens or closes the first door next to the player (never on a
    /// creature in its doorway).
    pub(super) fn toggle_door(&mut self) {
        let s = &mut self.state;
        let p = s.player.cell;
        let door = DIRECTIONS
            .iter()
            .map(|&(dx, dy)| Cell::new(p.x + dx, p.y + dy))
            .find(|&c| matches!(s.grid.tile(c), Tile::DoorOpen | Tile::DoorClosed));
        let Some(door) = door else { return self.event(Event::NoDoor) };
        let event = match s.grid.tile(door) {
            Tile::DoorClosed => {
                s.grid.set_tile(door, Tile::DoorOpen);
                Event::DoorOpened(door)
            }
            _ if s.creatures.iter().any(|c| c.cell() == door) => Event::DoorBlocked,
            _ => {
                s.grid.set_tile(door, Tile::DoorClosed);
                Event::DoorClosed(door)
            }
        };
        if let Some(doors) = s.doors.as_mut() {
            doors.toggled(door);
        }
        self.event(event);
    }
}
