//! Jitter control. Steering forces computed from noisy inputs (neighbours
//! coming and going, a target crossing a threshold) flip from tick to tick,
//! and a creature that shivers in place looks broken. [`Smoother`] low-pass
//! filters a force; [`Hysteresis`] keeps an on/off decision from flapping.

use super::Vec2;
use crate::hash::{StateHash, StateHasher};

/// An exponential moving average of a steering force.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Smoother {
    /// `None` until the first sample, which is taken as is so the filter
    /// does not start by dragging the force towards zero.
    value: Option<Vec2>,
}

impl StateHash for Smoother {
    fn hash_into(&self, h: &mut StateHasher) {
        let Smoother { value } = self;
        h.add(value);
    }
}

impl Smoother {
    /// A smoother with no history: its first sample passes unchanged.
    pub fn new() -> Smoother {
        Smoother::default()
    }

    /// Feeds `raw` and returns the smoothed force: the first call returns
    /// `raw`, later ones move the value `factor` of the way towards `raw`.
    /// `factor` 1 follows `raw` exactly, smaller values smooth more (0.2–0.5
    /// removes tick-to-tick flip-flop while still turning within a few
    /// ticks). It is clamped to [0, 1] (NaN counts as 0) so the filter can
    /// never overshoot or diverge.
    pub fn smooth(&mut self, raw: Vec2, factor: f32) -> Vec2 {
        let factor = if factor.is_nan() { 0.0 } else { factor.clamp(0.0, 1.0) };
        let value = match self.value {
            None => raw,
            Some(value) => value + (raw - value) * factor,
        };
        self.value = Some(value);
        value
    }

    /// The current smoothed value (`None` before the first sample).
    pub fn value(&self) -> Option<Vec2> {
        self.value
    }
}

/// A switch with two thresholds: it turns on when the watched value drops
/// below `on` and turns off only once it rises above `off` (> `on`).
/// Between the two it keeps its state, so a value hovering around one
/// threshold cannot make it flap. The game watches the distance to the
/// nearest threat for panic: on below 6, off beyond 9. For a switch that
/// should turn on when a value *rises*, watch the negated value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hysteresis {
    on: f32,
    off: f32,
    active: bool,
}

impl StateHash for Hysteresis {
    fn hash_into(&self, h: &mut StateHasher) {
        let Hysteresis { on, off, active } = self;
        h.add(on);
        h.add(off);
        h.add(active);
    }
}

impl Hysteresis {
    /// A switch, initially off.
    ///
    /// # Panics
    /// Unless `on < off` (thresholds are constants of the caller).
    pub fn new(on: f32, off: f32) -> Hysteresis {
        assert!(on < off, "hysteresis needs on < off, got {on} and {off}");
        Hysteresis { on, off, active: false }
    }

    /// Feeds the current value and returns the new state: off turns on when
    /// `value < on`, on turns off when `value > off`, otherwise (and for a
    /// NaN value) the state is kept.
    pub fn update(&mut self, value: f32) -> bool {
        if self.active {
            if value > self.off {
                self.active = false;
            }
        } else if value < self.on {
            self.active = true;
        }
        self.active
    }

    /// The current state without feeding a value, for display and for
    /// behaviours that read the switch set elsewhere in the tick.
    pub fn is_active(&self) -> bool {
        self.active
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smoother_starts_at_raw_then_eases() {
        let mut s = Smoother::new();
        assert_eq!(s.smooth(Vec2::new(4.0, 0.0), 0.25), Vec2::new(4.0, 0.0));
        assert_eq!(s.smooth(Vec2::ZERO, 0.25), Vec2::new(3.0, 0.0));
        assert_eq!(s.smooth(Vec2::ZERO, 1.0), Vec2::ZERO);
        assert_eq!(s.smooth(Vec2::new(8.0, 0.0), 2.0), Vec2::new(8.0, 0.0));
        assert_eq!(s.smooth(Vec2::ZERO, f32::NAN), Vec2::new(8.0, 0.0));
    }

    #[test]
    fn smoother_damps_a_force_that_flips_every_tick() {
        let mut s = Smoother::new();
        let mut last = Vec2::ZERO;
        for tick in 0..40 {
            let raw = Vec2::new(if tick % 2 == 0 { 1.0 } else { -1.0 }, 0.5);
            last = s.smooth(raw, 0.2);
        }
        // The raw x swings by 2 every tick; the smoothed one by about 0.22
        // (amplitude f / (2 − f)), while the steady y comes through intact.
        assert!(last.x.abs() < 0.12, "{last:?}");
        assert!((last.y - 0.5).abs() < 1e-4, "{last:?}");
    }

    /// A threat approaching from 12 to 5 and leaving again, with ±1 of
    /// noise on the measured distance (a fixed LCG, so the test is fixed).
    fn noisy_distances() -> Vec<f32> {
        let mut seed = 0x2545_f491_u32;
        let mut noise = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
        };
        let ramp = (0..200).map(|i| 12.0 - 7.0 * i as f32 / 199.0);
        let back = (0..200).map(|i| 5.0 + 7.0 * i as f32 / 199.0);
        ramp.chain(back).map(|d| d + noise()).collect()
    }

    fn toggles(states: impl Iterator<Item = bool>) -> usize {
        let mut previous = false;
        let mut count = 0;
        for s in states {
            count += usize::from(s != previous);
            previous = s;
        }
        count
    }

    #[test]
    fn hysteresis_removes_flip_flop() {
        let distances = noisy_distances();
        let bare = toggles(distances.iter().map(|&d| d < 6.0));
        let mut panic = Hysteresis::new(6.0, 9.0);
        let switched = toggles(distances.iter().map(|&d| panic.update(d)));
        assert!(bare >= 10, "bare threshold toggled only {bare} times");
        assert_eq!(switched, 2, "on once, off once");
    }

    #[test]
    fn hysteresis_thresholds_are_strict() {
        let mut h = Hysteresis::new(6.0, 9.0);
        assert!(!h.update(6.0));
        assert!(h.update(5.9));
        assert!(h.update(9.0));
        assert!(h.update(f32::NAN));
        assert!(h.is_active());
        assert!(!h.update(9.1));
        assert!(!h.update(f32::NAN));
        assert!(!h.is_active());
    }

    #[test]
    #[should_panic(expected = "on < off")]
    fn hysteresis_rejects_inverted_thresholds() {
        Hysteresis::new(9.0, 6.0);
    }
}
