//! Blending several behaviours into the one force a body can apply.

use super::Vec2;

/// Forces with a squared length at or below this count as "nothing to do"
/// for [`combine_priority`].
const NEGLIGIBLE_SQ: f32 = 1e-4;

/// Weighted sum, capped at `max_force`: every behaviour has its say in
/// proportion to its weight. Simple, but strong forces can drown the rest.
pub fn combine_weighted(max_force: f32, parts: &[(Vec2, f32)]) -> Vec2 {
    parts.iter().fold(Vec2::ZERO, |sum, &(force, weight)| sum + force * weight).clamp_length(max_force)
}

/// Prioritised choice: the first part that asks for anything (|f|² > 1e-4,
/// see [`decides`]) wins outright, capped at `max_force`; zero if none
/// does. List the must-haves first (wall avoidance before flocking before
/// wandering) so a creature never drifts into a wall because wandering
/// outvoted avoidance.
pub fn combine_priority(max_force: f32, parts: &[Vec2]) -> Vec2 {
    parts.iter().copied().find(|&f| decides(f)).map_or(Vec2::ZERO, |f| f.clamp_length(max_force))
}

/// Whether `force`, ahead of others in [`combine_priority`], wins outright:
/// then the parts after it need not be computed at all.
pub fn decides(force: Vec2) -> bool {
    force.length_squared() > NEGLIGIBLE_SQ
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_sums_then_caps() {
        let parts = [(Vec2::new(1.0, 0.0), 2.0), (Vec2::new(0.0, 1.0), 0.5)];
        assert_eq!(combine_weighted(10.0, &parts), Vec2::new(2.0, 0.5));
        let capped = combine_weighted(1.0, &[(Vec2::new(3.0, 4.0), 1.0)]);
        assert_eq!(capped, Vec2::new(0.6, 0.8));
        assert_eq!(combine_weighted(1.0, &[]), Vec2::ZERO);
    }

    #[test]
    fn priority_takes_first_significant() {
        let parts = [Vec2::new(0.005, 0.0), Vec2::new(0.0, 3.0), Vec2::new(1.0, 0.0)];
        assert_eq!(combine_priority(2.0, &parts), Vec2::new(0.0, 2.0));
        assert_eq!(combine_priority(2.0, &parts[..1]), Vec2::ZERO);
        assert_eq!(combine_priority(2.0, &[]), Vec2::ZERO);
    }
}
