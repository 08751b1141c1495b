//! What the player does: the `walk` system (a queued move or a run's next
//! step, at the player's pace) and the door the player opens or closes.

use super::World;
use crate::grid::{Cell, DIRECTIONS, Tile, line_of_sight};
use crate::sim::Kind;
use crate::sim::events::Event;
use crate::steer::cell_center;
use std::ops::ControlFlow;

/// Takes the waiting move or the run's next step, if the pace allows one
/// in the tick starting now. A run stops at a wall, a junction or a door
/// beside, or when a monster comes into view.
pub(super) fn walk(w: &mut World) -> ControlFlow<()> {
    let now = w.state.tick;
    let s = &mut w.state;
    if !s.walk.is_free(now) {
        return ControlFlow::Continue(());
    }
    let (dx, dy) = match (s.walk.queued.take(), &s.walk.run) {
        (Some(m), _) => m,
        (None, Some(r)) => (r.dx, r.dy),
        (None, None) => return ControlFlow::Continue(()),
    };
    let (x, y) = (i32::from(dx), i32::from(dy));
    if !s.grid.can_step(s.player.cell, x, y) {
        s.walk.run = None;
        return ControlFlow::Continue(());
    }
    let to = Cell::new(s.player.cell.x + x, s.player.cell.y + y);
    s.player.cell = to;
    s.player.last_step = Some((dx, dy, now));
    s.walk.stepped(now, dx, dy);
    if let Some(mut run) = s.walk.run.take() {
        let mut seen = Vec::new();
        w.monsters_in_view(&mut seen);
        let grid = &w.state.grid;
        let new_sight = seen.iter().any(|i| run.seen.binary_search(i).is_err());
        let blocked = !grid.can_step(to, x, y);
        if !(blocked || new_sight || run.opening_beside(grid, to)) {
            run.sides = run.sides_at(grid, to);
            run.seen = seen;
            w.state.walk.run = Some(run);
        }
    }
    ControlFlow::Continue(())
}

impl World {
    /// The monsters the player can see (line of sight within the detection
    /// radius), by index, ascending.
    pub(super) fn monsters_in_view(&self, out: &mut Vec<u32>) {
        let s = &self.state;
        let p = s.player.cell;
        let r = s.settings.detection_radius;
        out.clear();
        for (i, c) in s.creatures.iter().enumerate() {
            if c.kind == Kind::Monster
                && cell_center(p).distance(c.body.pos) <= r
                && line_of_sight(&s.grid, p, c.cell())
            {
                out.push(i as u32);
            }
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
