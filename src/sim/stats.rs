//! Search statistics of the living world: per tick, over a rolling second,
//! and for the whole session.
//!
//! Timings appear here and only here: they describe the machine, never
//! steer the simulation.

use crate::grid::Cell;
use crate::named::named_enum;
use crate::search::SearchStats;
use std::collections::VecDeque;

named_enum! {
    /// Why a monster planned a new path.
    RepathReason, "repath reason" {
        /// It had no path: it just started hunting, or came back from a catch.
        Start => "start",
        /// Its timer came round.
        Timer => "timer",
        /// The `every-tick` policy plans anew on every tick.
        EveryTick => "every-tick",
        /// The player moved more than K cells from the last plan's goal.
        Threshold => "threshold",
        /// A cell on its path stopped being walkable.
        Blocked => "blocked",
        /// The grid changed since the plan, though not on the path.
        Version => "version",
        /// It made no progress toward its waypoint for a second (pushed off
        /// its path by the crowd, or pressed against a wall after swinging
        /// wide round a corner).
        Stuck => "stuck",
        /// A search setting (or smoothing) changed since the plan: a
        /// setting acts at once, not at the next timer or threshold.
        Settings => "settings",
        /// It or its target left the path of its last repair: the
        /// `incremental` policy repairs its search then (a changed grid is
        /// `blocked` or `version`).
        Moved => "moved",
    }
}

/// Ticks in the rolling window: one second of game time.
pub const WINDOW_TICKS: usize = 20;
/// Ticks of expansion history kept for sparklines.
pub const HISTORY_TICKS: usize = 240;

/// Counters summed over some span of ticks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counters {
    /// Ticks in the span.
    pub ticks: u64,
    /// Searches run.
    pub searches: u64,
    /// Searches that found a path.
    pub found: u64,
    /// Nodes expanded, over all searches.
    pub expanded: u64,
    /// Nodes an incremental repair changed or re-examined, over all
    /// searches ([`SearchStats::cells_updated`]).
    pub cells_updated: u64,
    /// Expansions of the largest single search.
    pub max_expanded: u64,
    /// Open-list entries pushed, over all searches.
    pub pushed: u64,
    /// Stale entries popped, over all searches.
    pub stale_pops: u64,
    /// Largest open list of any search in the span.
    pub max_open: u64,
    /// Sum of path steps over found paths.
    pub path_steps: u64,
    /// Sum of smoothed waypoints over found paths (steps + 1 without smoothing).
    pub waypoints: u64,
    /// Sum of search times.
    pub micros: f64,
    /// Repaths by [`RepathReason`], in `RepathReason::ALL` order.
    pub repaths: [u64; RepathReason::ALL.len()],
    /// Requests that had to wait at least one tick for the budget.
    pub budget_waits: u64,
    /// Ticks those requests waited, summed.
    pub wait_ticks: u64,
    /// Longest single wait, in ticks.
    pub max_wait: u64,
    /// Times a monster caught the player.
    pub catches: u64,
    /// Pairs of monsters and wanderers closer than the sum of their
    /// radii, summed over ticks.
    pub overlaps: u64,
    /// The smallest time to collision between a monster or wanderer and a
    /// neighbour, in seconds, within ORCA's horizon; `None` when none.
    pub min_time_to_collision: Option<f32>,
    /// Time spent choosing ORCA velocities (wall clock: observation only).
    pub orca_micros: f64,
}

impl Counters {
    fn add(&mut self, o: &Counters) {
        self.ticks += o.ticks;
        self.searches += o.searches;
        self.found += o.found;
        self.expanded += o.expanded;
        self.cells_updated += o.cells_updated;
        self.max_expanded = self.max_expanded.max(o.max_expanded);
        self.pushed += o.pushed;
        self.stale_pops += o.stale_pops;
        self.max_open = self.max_open.max(o.max_open);
        self.path_steps += o.path_steps;
        self.waypoints += o.waypoints;
        self.micros += o.micros;
        for (a, b) in self.repaths.iter_mut().zip(o.repaths) {
            *a += b;
        }
        self.budget_waits += o.budget_waits;
        self.wait_ticks += o.wait_ticks;
        self.max_wait = self.max_wait.max(o.max_wait);
        self.catches += o.catches;
        self.overlaps += o.overlaps;
        self.min_time_to_collision = match (self.min_time_to_collision, o.min_time_to_collision) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.orca_micros += o.orca_micros;
    }

    /// One search as a span of its own, so that it merges into a tick by
    /// the same rule (sums and maxima) as ticks merge into windows.
    fn of_search(report: &SearchReport) -> Counters {
        let s = &report.stats;
        let found = u64::from(report.found);
        let mut repaths = [0; RepathReason::ALL.len()];
        if let Some(r) = report.reason {
            repaths[r as usize] = 1;
        }
        Counters {
            searches: 1,
            found,
            expanded: s.expanded,
            cells_updated: s.cells_updated,
            max_expanded: s.expanded,
            pushed: s.pushed,
            stale_pops: s.stale_pops,
            max_open: s.max_open,
            path_steps: found * report.steps as u64,
            waypoints: found * report.waypoints as u64,
            micros: s.micros,
            repaths,
            ..Counters::default()
        }
    }

    /// Repaths for `reason`.
    pub fn repaths(&self, reason: RepathReason) -> u64 {
        self.repaths[reason as usize]
    }

    /// Repaths for any reason.
    pub fn total_repaths(&self) -> u64 {
        self.repaths.iter().sum()
    }

    /// Search work: nodes expanded plus nodes an incremental repair
    /// updated, the measure the repath policies are compared by.
    pub fn work(&self) -> u64 {
        self.expanded + self.cells_updated
    }

    /// Mean microseconds per search (0 without searches).
    pub fn micros_per_search(&self) -> f64 {
        ratio(self.micros, self.searches)
    }

    /// Mean path steps per found path.
    pub fn mean_steps(&self) -> f64 {
        ratio(self.path_steps as f64, self.found)
    }

    /// Mean smoothed waypoints per found path.
    pub fn mean_waypoints(&self) -> f64 {
        ratio(self.waypoints as f64, self.found)
    }
}

fn ratio(sum: f64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// One search as the panel and the overlay show it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchReport {
    /// Index of the monster among all creatures.
    pub creature: usize,
    /// The tick it ran in.
    pub tick: u64,
    /// Why the monster replanned (`None` before its first search).
    pub reason: Option<RepathReason>,
    /// Whether it found a path.
    pub found: bool,
    /// Its counters.
    pub stats: SearchStats,
    /// Steps of the path found.
    pub steps: usize,
    /// Waypoints the monster follows: smoothed, or one per cell.
    pub waypoints: usize,
    /// Cells closed and left open, kept only for the watched monster.
    pub closed: Vec<Cell>,
    /// Cells left open (watched monster only).
    pub open: Vec<Cell>,
    /// Cells an incremental repair expanded or updated (watched monster
    /// only, under `incremental`).
    pub updated: Vec<Cell>,
    /// The planner that answered instead of the one asked for, which
    /// could not run (jump points on 4 neighbours or weighted cells).
    pub fallback: Option<crate::search::Planner>,
}

/// Everything the panel reads.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// The tick being counted (becomes `last_tick` when it ends).
    current: Counters,
    /// The last complete tick.
    pub last_tick: Counters,
    /// The last [`WINDOW_TICKS`] ticks.
    pub window: Counters,
    window_ticks: VecDeque<Counters>,
    /// The whole session.
    pub total: Counters,
    /// Expansions per tick, oldest first, at most [`HISTORY_TICKS`].
    pub history: VecDeque<u64>,
    /// The most recent search by any monster.
    pub last_search: Option<SearchReport>,
    /// The most recent search by the watched monster, with its cells.
    pub watched_search: Option<SearchReport>,
    /// Repath requests waiting for budget at the end of the last tick.
    pub queued: usize,
}

impl Stats {
    /// Counts one search in the current tick.
    pub fn record_search(&mut self, report: &SearchReport) {
        self.current.add(&Counters::of_search(report));
    }

    /// Counts a request served after waiting `ticks` ticks for budget.
    pub fn record_wait(&mut self, ticks: u64) {
        if ticks > 0 {
            self.current.budget_waits += 1;
            self.current.wait_ticks += ticks;
            self.current.max_wait = self.current.max_wait.max(ticks);
        }
    }

    /// Counts the crowd's state at the end of the tick: overlapping pairs,
    /// the smallest time to collision, and the time ORCA took.
    pub fn record_crowd(&mut self, overlaps: u64, min_time_to_collision: Option<f32>, orca_micros: f64) {
        self.current.overlaps += overlaps;
        self.current.min_time_to_collision = min_time_to_collision;
        self.current.orca_micros += orca_micros;
    }

    /// Counts a catch of the player.
    pub fn record_catch(&mut self) {
        self.current.catches += 1;
    }

    /// Closes the current tick: it becomes `last_tick`, enters the window,
    /// the totals and the history.
    pub fn end_tick(&mut self, queued: usize) {
        let mut tick = std::mem::take(&mut self.current);
        tick.ticks = 1;
        self.queued = queued;
        self.total.add(&tick);
        self.window_ticks.push_back(tick);
        if self.window_ticks.len() > WINDOW_TICKS {
            self.window_ticks.pop_front();
        }
        self.window = Counters::default();
        for t in &self.window_ticks {
            self.window.add(t);
        }
        self.history.push_back(tick.expanded);
        if self.history.len() > HISTORY_TICKS {
            self.history.pop_front();
        }
        self.last_tick = tick;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(expanded: u64, reason: RepathReason) -> SearchReport {
        SearchReport {
            found: true,
            steps: 10,
            waypoints: 3,
            reason: Some(reason),
            stats: SearchStats { expanded, max_open: expanded / 2, micros: 5.0, ..SearchStats::default() },
            ..SearchReport::default()
        }
    }

    #[test]
    fn window_rolls_and_totals_accumulate() {
        let mut s = Stats::default();
        for t in 0..(WINDOW_TICKS as u64 + 5) {
            s.record_search(&report(t, RepathReason::Timer));
            s.end_tick(0);
        }
        assert_eq!(s.total.searches, WINDOW_TICKS as u64 + 5);
        assert_eq!(s.window.searches, WINDOW_TICKS as u64);
        assert_eq!(s.window.ticks, WINDOW_TICKS as u64);
        // The window holds ticks 5..25: expansions 5 + ... + 24.
        assert_eq!(s.window.expanded, (5..25).sum::<u64>());
        assert_eq!(s.last_tick.expanded, 24);
        assert_eq!(s.window.repaths(RepathReason::Timer), WINDOW_TICKS as u64);
        assert_eq!(s.window.mean_steps(), 10.0);
        assert_eq!(s.window.mean_waypoints(), 3.0);
        assert_eq!(s.history.len(), WINDOW_TICKS + 5);
    }

    #[test]
    fn a_tick_sums_its_searches_and_keeps_their_maxima() {
        let mut s = Stats::default();
        s.record_search(&report(7, RepathReason::Timer));
        let mut missed = report(30, RepathReason::Blocked);
        missed.found = false;
        missed.stats.stale_pops = 4;
        s.record_search(&missed);
        s.end_tick(0);
        let t = &s.last_tick;
        assert_eq!((t.searches, t.found, t.expanded, t.max_expanded, t.max_open), (2, 1, 37, 30, 15));
        assert_eq!((t.stale_pops, t.path_steps, t.waypoints, t.micros), (4, 10, 3, 10.0));
        assert_eq!((t.repaths(RepathReason::Timer), t.repaths(RepathReason::Blocked)), (1, 1));
    }

    #[test]
    fn waits_count_only_real_waits() {
        let mut s = Stats::default();
        s.record_wait(0);
        s.record_wait(3);
        s.record_wait(1);
        s.end_tick(2);
        assert_eq!((s.total.budget_waits, s.total.wait_ticks, s.total.max_wait), (2, 4, 3));
        assert_eq!(s.queued, 2);
    }

    #[test]
    fn crowd_figures_sum_overlaps_and_keep_the_smallest_time() {
        let mut s = Stats::default();
        s.record_crowd(2, Some(0.8), 10.0);
        s.end_tick(0);
        s.record_crowd(1, None, 5.0);
        s.end_tick(0);
        s.record_crowd(0, Some(1.2), 5.0);
        s.end_tick(0);
        assert_eq!((s.window.overlaps, s.window.min_time_to_collision, s.window.orca_micros), (3, Some(0.8), 20.0));
        assert_eq!(s.last_tick.min_time_to_collision, Some(1.2));
    }
}
