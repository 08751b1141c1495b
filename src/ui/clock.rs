//! When ticks run: a fixed-rate accumulator over wall time.
//!
//! The world advances in fixed ticks of 1/20 s of game time; this clock
//! only decides how many of them are owed after some wall time, at the
//! chosen speed. It never sees the world, so timing can change when ticks
//! happen but never what they do. Kept free of the terminal and of
//! `Instant` so the loop's arithmetic is testable with plain durations.

use crate::sim::TICKS_PER_SECOND;
use std::time::Duration;

/// A playback speed: game time per wall time as the fraction `num/den`.
struct Speed {
    num: u32,
    den: u32,
    label: &'static str,
}

impl Speed {
    /// Game time per wall time.
    const fn factor(&self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

const SPEEDS: [Speed; 6] = [
    Speed { num: 1, den: 4, label: "¼×" },
    Speed { num: 1, den: 2, label: "½×" },
    Speed { num: 1, den: 1, label: "1×" },
    Speed { num: 2, den: 1, label: "2×" },
    Speed { num: 4, den: 1, label: "4×" },
    Speed { num: 8, den: 1, label: "8×" },
];

/// The slowest and fastest listed speeds, for validating a requested one.
pub const SPEED_RANGE: std::ops::RangeInclusive<f64> = SPEEDS[0].factor()..=SPEEDS[SPEEDS.len() - 1].factor();

/// Index of 1× in [`SPEEDS`].
const NORMAL: usize = 2;

/// Most ticks owed at once. Beyond it the backlog is dropped: a machine too
/// slow for the chosen speed plays slower instead of spending ever longer
/// catching up while keys and frames wait.
pub const MAX_CATCH_UP: u32 = 8;

/// Pause, speed and the wall time not yet turned into ticks.
#[derive(Clone, Debug)]
pub struct Clock {
    speed: usize,
    paused: bool,
    /// Wall time accumulated towards the next tick.
    owed: Duration,
    /// Single ticks asked for while paused, not yet run.
    steps: u32,
}

impl Default for Clock {
    fn default() -> Self {
        Clock { speed: NORMAL, paused: false, owed: Duration::ZERO, steps: 0 }
    }
}

impl Clock {
    /// Wall time of one tick at the current speed.
    pub fn period(&self) -> Duration {
        let s = &SPEEDS[self.speed];
        Duration::from_secs(1) * s.den / (TICKS_PER_SECOND * s.num)
    }

    /// Ticks owed after `elapsed` of wall time spent in the current state:
    /// none while paused (paused time is never made up), at most
    /// [`MAX_CATCH_UP`].
    pub fn advance(&mut self, elapsed: Duration) -> u32 {
        if self.paused {
            return 0;
        }
        self.owed += elapsed;
        let period = self.period();
        let due = self.owed.as_nanos() / period.as_nanos();
        if due > u128::from(MAX_CATCH_UP) {
            self.owed = Duration::ZERO;
            return MAX_CATCH_UP;
        }
        let due = due as u32;
        self.owed -= period * due;
        due
    }

    /// Wall time until the next tick is owed; `None` while paused.
    pub fn until_next_tick(&self) -> Option<Duration> {
        (!self.paused).then(|| self.period().saturating_sub(self.owed))
    }

    pub fn paused(&self) -> bool {
        self.paused
    }

    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
    }

    /// Asks for one tick; only while paused (running, ticks come anyway).
    pub fn step(&mut self) {
        if self.paused {
            self.steps += 1;
        }
    }

    /// The single ticks asked for since the last call.
    pub fn take_steps(&mut self) -> u32 {
        std::mem::take(&mut self.steps)
    }

    /// One speed up, stopping at the fastest. The time owed restarts, so a
    /// change never releases a burst of ticks.
    pub fn faster(&mut self) {
        self.set_speed((self.speed + 1).min(SPEEDS.len() - 1));
    }

    /// One speed down, stopping at the slowest.
    pub fn slower(&mut self) {
        self.set_speed(self.speed.saturating_sub(1));
    }

    /// Switches to the listed speed nearest to `x` times real time, nearest
    /// by ratio: 3× becomes 4× (4/3 is closer to 1 than 3/2).
    pub fn set_nearest_speed(&mut self, x: f64) {
        let ratio = |s: &Speed| (s.factor() / x).ln().abs();
        let best = (0..SPEEDS.len()).min_by(|&a, &b| ratio(&SPEEDS[a]).total_cmp(&ratio(&SPEEDS[b])));
        self.set_speed(best.unwrap_or(NORMAL));
    }

    fn set_speed(&mut self, speed: usize) {
        self.speed = speed;
        self.owed = Duration::ZERO;
    }

    /// The speed as the panel shows it, e.g. `½×`.
    pub fn speed_label(&self) -> &'static str {
        SPEEDS[self.speed].label
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn ticks_at_twenty_a_second_carry_the_remainder() {
        let mut c = Clock::default();
        assert_eq!(c.period(), 50 * MS);
        assert_eq!(c.advance(49 * MS), 0);
        assert_eq!(c.until_next_tick(), Some(MS));
        assert_eq!(c.advance(MS), 1);
        assert_eq!(c.advance(125 * MS), 2);
        assert_eq!(c.until_next_tick(), Some(25 * MS));
        assert_eq!(c.advance(25 * MS), 1);
    }

    #[test]
    fn a_requested_speed_snaps_to_the_nearest_listed_one() {
        let mut c = Clock::default();
        for (x, label) in
            [(0.25, "¼×"), (0.3, "¼×"), (0.4, "½×"), (1.0, "1×"), (1.3, "1×"), (3.0, "4×"), (2.5, "2×"), (8.0, "8×")]
        {
            c.set_nearest_speed(x);
            assert_eq!(c.speed_label(), label, "{x}");
        }
    }

    #[test]
    fn speeds_scale_the_period_and_stop_at_the_ends() {
        let mut c = Clock::default();
        for _ in 0..10 {
            c.slower();
        }
        assert_eq!((c.speed_label(), c.period()), ("¼×", 200 * MS));
        assert_eq!(c.advance(199 * MS), 0);
        assert_eq!(c.advance(MS), 1);
        c.faster();
        assert_eq!((c.speed_label(), c.period()), ("½×", 100 * MS));
        for _ in 0..10 {
            c.faster();
        }
        assert_eq!((c.speed_label(), c.period()), ("8×", Duration::from_micros(6250)));
        assert_eq!(c.advance(25 * MS), 4);
        assert_eq!(c.advance(25 * MS), 4);
    }

    #[test]
    fn a_speed_change_restarts_the_owed_time() {
        let mut c = Clock::default();
        c.slower();
        c.slower();
        assert_eq!(c.advance(190 * MS), 0);
        c.faster();
        assert_eq!(c.advance(MS), 0);
        assert_eq!(c.until_next_tick(), Some(99 * MS));
    }

    #[test]
    fn catch_up_is_capped_and_the_backlog_dropped() {
        let mut c = Clock::default();
        assert_eq!(c.advance(Duration::from_secs(5)), MAX_CATCH_UP);
        assert_eq!(c.until_next_tick(), Some(50 * MS));
        assert_eq!(c.advance(50 * MS * MAX_CATCH_UP), MAX_CATCH_UP);
        assert_eq!(c.advance(50 * MS * (MAX_CATCH_UP + 1)), MAX_CATCH_UP);
        assert_eq!(c.advance(49 * MS), 0);
    }

    #[test]
    fn paused_time_gives_no_ticks_and_is_not_made_up() {
        let mut c = Clock::default();
        assert_eq!(c.advance(30 * MS), 0);
        c.toggle_pause();
        assert!(c.paused());
        assert_eq!(c.until_next_tick(), None);
        assert_eq!(c.advance(Duration::from_secs(60)), 0);
        c.toggle_pause();
        assert_eq!(c.advance(19 * MS), 0);
        assert_eq!(c.advance(MS), 1);
    }

    #[test]
    fn single_steps_only_while_paused_and_only_once() {
        let mut c = Clock::default();
        c.step();
        assert_eq!(c.take_steps(), 0);
        c.toggle_pause();
        c.step();
        c.step();
        assert_eq!(c.take_steps(), 2);
        assert_eq!(c.take_steps(), 0);
        assert_eq!(c.advance(Duration::from_secs(1)), 0);
    }
}
