//! How hunters play: where a hunter aims, whether the hunters of a pack
//! split up, and what a monster that lost the player does. Each is a
//! setting of its own (`--aim`, `--packs`, `--lost`), hashed with the
//! others and written in a replay's header; the panel's watched monster
//! shows its pack and its aim.
//!
//! The behaviours themselves live beside the systems that run them:
//! `sim::foresight` (aiming ahead), `sim::pack` (packs that split)
//! and `sim::sweep` (a sweeping search).

use crate::named::named_enum;

named_enum! {
    /// Where a hunting monster heads while it perceives a moving player.
    #[derive(Default)]
    Aim, "aim" {
        /// At the player's cell: it follows.
        Player => "player",
        /// Ahead along the player's heading: the straight line the
        /// player's last step points along, cut off where the monster can
        /// get there first (`sim::foresight`).
        Heading => "heading",
        /// Ahead on the player's shortest route to the level's `G` (along
        /// the heading on a level without one): the monster heads for the
        /// cell of that route it reaches with the most time to spare, the
        /// corner or doorway the player must pass.
        #[default]
        Goal => "goal",
    }
}

named_enum! {
    /// Whether hunters of one pack plan apart.
    #[derive(Default)]
    Packs, "packs" {
        /// Each plans its own shortest path, whatever the others do: packs
        /// file after each other down the same corridor.
        Together => "together",
        /// A pack member plans with a penalty on the cells its packmates'
        /// paths already use, so that two hunters take two routes when a
        /// second one is not much longer (`sim::pack`).
        #[default]
        Split => "split",
    }
}

named_enum! {
    /// What a monster that lost the player does before it gives up.
    #[derive(Default)]
    Lost, "lost" {
        /// Walks to the last cell it perceived the player in and wanders
        /// near it for a while.
        Linger => "linger",
        /// Sweeps the cells near the last-known one it has not seen yet,
        /// nearest first, leaning the way the player was heading
        /// (`sim::sweep`); gives up when none is left.
        #[default]
        Sweep => "sweep",
    }
}
