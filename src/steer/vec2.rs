//! The 2-D vector every steering formula is written in.
//!
//! `f32` because thousands of bodies are stepped every tick and the grid's
//! world units are small; the operations are the handful the formulas need.
//! Two of them, [`Vec2::normalized`] and [`Vec2::clamp_length`], are total:
//! they never return NaN, even for a zero vector or one whose squared length
//! overflows, because every behaviour is built from them and must stay finite.

use crate::hash::{StateHash, StateHasher};
use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// A point or a direction in world units (x to the right, y downwards, as
/// the grid's rows grow).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec2 {
    /// Column direction, growing to the right.
    pub x: f32,
    /// Row direction, growing downwards.
    pub y: f32,
}

/// Vectors shorter than this have no usable direction: [`Vec2::normalized`]
/// returns [`Vec2::ZERO`] for them instead of blowing up to NaN or to a huge
/// value.
pub const MIN_LENGTH: f32 = 1e-5;

impl StateHash for Vec2 {
    fn hash_into(&self, h: &mut StateHasher) {
        let Vec2 { x, y } = self;
        h.f32(*x);
        h.f32(*y);
    }
}

impl Vec2 {
    /// The zero vector: no force, no velocity, the origin.
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    /// A vector from its components (`const`, so behaviours' constants can
    /// be vectors).
    pub const fn new(x: f32, y: f32) -> Vec2 {
        Vec2 { x, y }
    }

    /// This vector turned by `angle` radians (from +x toward +y: clockwise
    /// on screen, where y grows downwards), through `libm` so that every
    /// platform turns it the same.
    pub fn rotated(self, angle: f32) -> Vec2 {
        let (s, c) = (libm::sinf(angle), libm::cosf(angle));
        Vec2::new(self.x * c - self.y * s, self.x * s + self.y * c)
    }

    /// Euclidean length.
    pub fn length(self) -> f32 {
        self.length_squared().sqrt()
    }

    /// Squared length: compare distances with it to skip the square root.
    pub fn length_squared(self) -> f32 {
        self.dot(self)
    }

    /// Dot product: projections, such as how much of a feeler points into
    /// a wall.
    pub fn dot(self, other: Vec2) -> f32 {
        self.x * other.x + self.y * other.y
    }

    /// Distance between two points.
    pub fn distance(self, other: Vec2) -> f32 {
        (self - other).length()
    }

    /// The unit vector in this direction, or [`Vec2::ZERO`] when the vector
    /// is shorter than [`MIN_LENGTH`] (no direction to speak of) or has a NaN
    /// component. A vector too long to square in `f32` (or with an infinite
    /// component) is rescaled first, so it still yields its direction.
    #[inline]
    pub fn normalized(self) -> Vec2 {
        let len_sq = self.length_squared();
        if len_sq.is_finite() {
            if len_sq < MIN_LENGTH * MIN_LENGTH { Vec2::ZERO } else { self / len_sq.sqrt() }
        } else {
            self.normalized_huge()
        }
    }

    /// [`Vec2::normalized`] for a vector whose squared length is not finite:
    /// kept out of line so the common path inlines into the hot loops.
    #[cold]
    fn normalized_huge(self) -> Vec2 {
        if self.x.is_nan() || self.y.is_nan() {
            return Vec2::ZERO;
        }
        let largest = self.x.abs().max(self.y.abs());
        let scaled = if largest.is_infinite() {
            // Only the infinite components count; the finite ones vanish
            // beside them.
            let dir = |v: f32| if v.is_infinite() { v.signum() } else { 0.0 };
            Vec2::new(dir(self.x), dir(self.y))
        } else {
            self / largest
        };
        scaled.normalized()
    }

    /// This vector shortened to at most `max` (a negative or NaN `max`
    /// counts as 0): how forces and speeds are capped. Never NaN for a
    /// non-NaN vector and finite `max`.
    pub fn clamp_length(self, max: f32) -> Vec2 {
        let max = max.max(0.0);
        let len_sq = self.length_squared();
        if len_sq <= max * max && len_sq.is_finite() { self } else { self.normalized() * max }
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f32> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f32) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

impl Div<f32> for Vec2 {
    type Output = Vec2;
    fn div(self, k: f32) -> Vec2 {
        Vec2::new(self.x / k, self.y / k)
    }
}

impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Vec2) {
        *self = *self + o;
    }
}

impl SubAssign for Vec2 {
    fn sub_assign(&mut self, o: Vec2) {
        *self = *self - o;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic() {
        let a = Vec2::new(3.0, 4.0);
        let b = Vec2::new(1.0, -2.0);
        assert_eq!(a + b, Vec2::new(4.0, 2.0));
        assert_eq!(a - b, Vec2::new(2.0, 6.0));
        assert_eq!(a * 2.0, Vec2::new(6.0, 8.0));
        assert_eq!(a / 2.0, Vec2::new(1.5, 2.0));
        assert_eq!(-a, Vec2::new(-3.0, -4.0));
        let mut c = a;
        c += b;
        assert_eq!(c, Vec2::new(4.0, 2.0));
        c -= b;
        assert_eq!(c, a);
        assert_eq!(a.dot(b), -5.0);
        assert_eq!(a.length(), 5.0);
        assert_eq!(a.length_squared(), 25.0);
        assert_eq!(a.distance(Vec2::ZERO), 5.0);
        assert_eq!(Vec2::default(), Vec2::ZERO);
    }

    #[test]
    fn normalized_is_unit_or_zero() {
        assert_eq!(Vec2::new(3.0, 4.0).normalized(), Vec2::new(0.6, 0.8));
        assert_eq!(Vec2::ZERO.normalized(), Vec2::ZERO);
        assert_eq!(Vec2::new(9e-6, 0.0).normalized(), Vec2::ZERO);
        assert_eq!(Vec2::new(2e-5, 0.0).normalized(), Vec2::new(1.0, 0.0));
        assert_eq!(Vec2::new(f32::NAN, 1.0).normalized(), Vec2::ZERO);
    }

    #[test]
    fn normalized_survives_overflow() {
        let n = Vec2::new(3e30, 4e30).normalized();
        assert!((n.x - 0.6).abs() < 1e-6 && (n.y - 0.8).abs() < 1e-6);
        assert_eq!(Vec2::new(f32::MAX, -f32::MAX).normalized(), Vec2::new(1.0, -1.0).normalized());
        assert_eq!(Vec2::new(f32::NEG_INFINITY, 7.0).normalized(), Vec2::new(-1.0, 0.0));
    }

    #[test]
    fn clamp_length_caps_only_long_vectors() {
        assert_eq!(Vec2::new(3.0, 4.0).clamp_length(10.0), Vec2::new(3.0, 4.0));
        assert_eq!(Vec2::new(3.0, 4.0).clamp_length(2.5), Vec2::new(1.5, 2.0));
        assert_eq!(Vec2::new(3.0, 4.0).clamp_length(0.0), Vec2::ZERO);
        assert_eq!(Vec2::new(3.0, 4.0).clamp_length(-1.0), Vec2::ZERO);
        assert_eq!(Vec2::new(3.0, 4.0).clamp_length(f32::NAN), Vec2::ZERO);
        let huge = Vec2::new(f32::MAX, f32::MAX).clamp_length(2.0);
        assert!((huge.length() - 2.0).abs() < 1e-6);
    }
}
