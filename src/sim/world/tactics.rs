//! The `tactics` system: after perception, before planning, hunters form
//! packs, aim ahead of a moving player, and searchers sweep (the settings
//! `packs`, `aim` and `lost`; see `sim::tactics`).

use super::{PLAYER_SPEED, World};
use crate::level::Goal;
use crate::sim::MonsterState;
use crate::sim::creature::Creature;
use crate::sim::stats::SearchReport;
use crate::sim::tactics::Lost;
use std::ops::ControlFlow;

/// Packs form among the hunters; hunters that perceive the player now aim
/// where they cut it off; searching monsters sweep.
pub(super) fn tactics(w: &mut World) -> ControlFlow<()> {
    let heading = w.player_heading();
    let s = &mut w.state;
    let monsters = &s.monsters;
    crate::sim::pack::form(&mut s.creatures, monsters);
    let tick = s.tick;
    let perceives = |m: &crate::sim::mind::Mind| m.state == MonsterState::Hunting && m.last_perceived == tick;
    let perceiving = |c: &Creature| c.hunt.as_ref().is_some_and(|h| perceives(&h.mind));
    if monsters.iter(&s.creatures).any(|(_, c)| perceiving(c)) {
        // The player is heading for its `G` when the rules ask it to.
        let goal = s.goal_cell.filter(|_| s.rules.goal == Goal::Reach);
        // The map reaches as far as the hunters that read it.
        let hunters = monsters.iter(&s.creatures).filter(|(_, c)| perceiving(c)).map(|(_, c)| c.cell());
        let work = s.foresight.update(&s.grid, &s.settings, s.player.cell, heading, goal, PLAYER_SPEED, hunters);
        if work.expanded > 0 {
            // A search in the counters (its work, its time) but no path.
            // Not paid from the budget: one map a player move, bounded, and
            // charging it starved every plan under a small budget.
            let report = SearchReport { tick, found: false, stats: work, ..SearchReport::default() };
            w.session.stats.record_search(&report);
        }
        for (_, c) in monsters.iter_mut(&mut s.creatures) {
            let cell = c.cell();
            if let Some(h) = c.hunt.as_mut().filter(|h| perceives(&h.mind)) {
                h.mind.aim = s.foresight.aim(&s.grid, cell, s.player.cell);
            }
        }
    }
    let (grid, sight) = (&s.grid, s.settings.detection_radius);
    let sweeping = s.settings.lost == Lost::Sweep;
    for (_, c) in monsters.iter_mut(&mut s.creatures) {
        let cell = c.cell();
        let Some(h) = c.hunt.as_mut() else { continue };
        let mind = &mut h.mind;
        match mind.last_known.filter(|_| sweeping && mind.state == MonsterState::Searching) {
            Some(last_known) => {
                if !h.sweep.belongs_to(mind.since) {
                    h.sweep.start(grid, last_known, mind.heading, mind.since);
                }
                mind.aim = h.sweep.aim(grid, cell, sight);
            }
            None => h.sweep.clear(),
        }
    }
    ControlFlow::Continue(())
}
