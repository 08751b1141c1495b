//! The point type of the nav layer.

use std::ops::{Add, Mul, Sub};

/// A point or a direction in world units, in screen coordinates: x to the
/// right, y downwards (cell (x, y) covers [x, x+1) × [y, y+1)).
///
/// `f64`, unlike the steering layer's `f32` vector: see the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Vec2 {
    /// Column direction, growing to the right.
    pub x: f64,
    /// Row direction, growing downwards.
    pub y: f64,
}

impl Vec2 {
    /// A point from its coordinates.
    pub const fn new(x: f64, y: f64) -> Vec2 {
        Vec2 { x, y }
    }

    /// The centre of cell `c`.
    pub fn centre(c: crate::grid::Cell) -> Vec2 {
        Vec2::new(f64::from(c.x) + 0.5, f64::from(c.y) + 0.5)
    }

    /// z of the cross product `self × o`. In screen coordinates (y down) it
    /// is positive when `o` turns clockwise from `self` as seen on screen.
    pub fn cross(self, o: Vec2) -> f64 {
        self.x * o.y - self.y * o.x
    }

    /// Dot product.
    pub fn dot(self, o: Vec2) -> f64 {
        self.x * o.x + self.y * o.y
    }

    /// Euclidean distance to `o`.
    pub fn distance(self, o: Vec2) -> f64 {
        (self - o).dot(self - o).sqrt()
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

impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}
