//! The campaign: the shipped levels in the order `levels/campaign.txt`
//! gives, built into the binary so that `delve` plays from any directory.

use crate::level::Level;

/// The campaign's order, one level name a line (`;` starts a comment).
const ORDER: &str = include_str!("../../../levels/campaign.txt");

/// The campaign's level names, in order.
fn names() -> impl Iterator<Item = &'static str> {
    ORDER.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with(';'))
}

/// The campaign's levels, in order. A unit test proves each name is shipped, so this cannot fail at run time.
pub fn levels() -> Vec<Level> {
    names().map(|name| Level::shipped(name).expect("a campaign level is shipped")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Goal, Rules};

    #[test]
    fn every_campaign_level_is_shipped_parses_and_has_a_goal() {
        let levels = levels();
        assert_eq!(levels.len(), names().count());
        assert!(levels.len() >= 3);
        for level in &levels {
            assert_ne!(Rules::game(level).goal, Goal::None, "{} has no goal", level.name);
        }
        assert_eq!(levels[0].name, crate::level::DEFAULT_LEVEL_NAME, "the campaign opens with the default level");
    }
}
