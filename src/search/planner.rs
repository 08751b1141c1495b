//! Which planner answers a query: an *ordering* of the best-first family
//! (what the engine's open list sorts by) over an *expansion policy* (what
//! a node's successors are: the grid's neighbours, jump points, HPA*'s
//! entrances, a navigation mesh's portals, wall corners in sight).
//!
//! The two are kept apart as the research reference keeps its search loop
//! apart from its expansion policies (warthog's `flexible_astar` over
//! `expansion_policy`s): [`Searcher`](super::Searcher) sees only the
//! [`Order`]; each [`Expansion`] is a [`Graph`](super::Graph) of its own
//! (the grid's, [`JumpBits::graph`](super::JumpBits::graph),
//! [`JumpTable::graph`](super::JumpTable::graph), HPA*'s abstract graph,
//! the nav layer's portal and corner graphs). A [`Planner`] is one
//! ordering over one policy, checked when it is made: every policy says
//! which orderings it honours, and asking for another is an
//! [`Unhonoured`] error, never a quiet substitution.
//!
//! This type is plain data, so that the command line, the replay files,
//! the world and the lab all name planners the same way; running one is
//! [`GridPlanner`](super::GridPlanner)'s for the grid's policies and
//! `nav::Navigator`'s for all of them (the navmesh and the corner graph
//! live in the layer above).
//!
//! Adding a planner is one variant of [`Expansion`] (with the orderings it
//! honours) and one arm in the dispatch that runs it.

use crate::hash::{StateHash, StateHasher};
use crate::named::{UnknownName, named_enum};
use std::fmt;
use std::str::FromStr;

named_enum! {
    /// What the open list orders by: one member of the best-first family.
    Order, "ordering" {
        /// Breadth-first: orders by step count, ignores costs and heuristic.
        Bfs => "bfs",
        /// Orders by g alone.
        Dijkstra => "dijkstra",
        /// Orders by g + h.
        AStar => "astar",
        /// Orders by h alone, keeps the first parent found, never relaxes.
        Greedy => "greedy",
        /// Orders by g + w·h (w ≥ 1): at most w times the optimal cost.
        Weighted => "weighted",
    }
}

named_enum! {
    /// Where a node's successors come from.
    Expansion, "expansion policy" {
        /// The grid's 4 or 8 neighbours.
        Grid => "grid",
        /// Jump points (Harabor & Grastien 2011), found online by scanning
        /// rows and columns 64 cells a word. Needs 8 neighbours and one
        /// entry cost on every walkable cell.
        Jps => "jps",
        /// Jump points read from a table built once per grid (Rabin's
        /// JPS+) and repaired where a door changes. Needs what JPS needs.
        JpsPlus => "jps+",
        /// Hierarchical A* (Botea et al. 2004): cluster entrances, refined
        /// into cells and smoothed. Near-optimal, not optimal.
        Hpa => "hpa",
        /// The navigation mesh's portals, pulled taut by the funnel (the
        /// nav layer). Any-angle.
        Navmesh => "navmesh",
        /// Wall corners in sight of each other (the nav layer): the
        /// optimal any-angle paths.
        Waypoints => "waypoints",
    }
}

impl Order {
    /// Whether the heuristic enters the ordering key.
    pub const fn uses_heuristic(self) -> bool {
        matches!(self, Order::AStar | Order::Greedy | Order::Weighted)
    }
}

impl Expansion {
    /// Whether the policy can run with `order`, and why not.
    ///
    /// - The grid honours every ordering.
    /// - Jump points honour those that order by cost or estimate (A*,
    ///   Dijkstra, weighted, greedy): pruning keeps an optimal path of
    ///   every cost, so the optimal orderings stay optimal. BFS counts
    ///   steps, and a jump is many steps: it would be BFS of jumps.
    /// - HPA* runs A* over its abstract graph and inside its clusters.
    /// - The navmesh searches its portal points weighted, with a w of its
    ///   own ([`SearchSettings::navmesh_weight`](super::SearchSettings),
    ///   1.3 unless set: the costs zig-zag between portal points while the
    ///   estimate is straight, so plain A* floods; w = 1 is plain A*), the
    ///   corner graph with A*.
    pub const fn refusal(self, order: Order) -> Option<&'static str> {
        match (self, order) {
            (Expansion::Grid, _) => None,
            (Expansion::Jps | Expansion::JpsPlus, Order::Bfs) => {
                Some("a jump is many steps, so breadth-first over jumps is not breadth-first")
            }
            (Expansion::Jps | Expansion::JpsPlus, _) => None,
            (Expansion::Hpa, Order::AStar) => None,
            (Expansion::Hpa, _) => Some("it runs A* over its entrances and inside its clusters"),
            (Expansion::Navmesh, Order::Weighted) => None,
            (Expansion::Navmesh, _) => {
                Some("it searches its portal points weighted, with its own w (--weight, 1.3 unless set; 1 is A*)")
            }
            (Expansion::Waypoints, Order::AStar) => None,
            (Expansion::Waypoints, _) => Some("it searches its corners with A*"),
        }
    }

    /// The ordering the policy runs when none is named: its own for HPA*,
    /// the navmesh and the corner graph; A* for the others.
    pub const fn default_order(self) -> Order {
        match self {
            Expansion::Navmesh => Order::Weighted,
            _ => Order::AStar,
        }
    }

    /// Whether it is a jump point search, which needs 8 neighbours and one
    /// entry cost on every walkable cell.
    pub const fn jumps(self) -> bool {
        matches!(self, Expansion::Jps | Expansion::JpsPlus)
    }

    /// Whether it plans in the plane (the nav layer's), not on cells.
    pub const fn any_angle(self) -> bool {
        matches!(self, Expansion::Navmesh | Expansion::Waypoints)
    }
}

/// One ordering over one expansion policy, valid by construction.
///
/// Its name is the ordering's for the grid (`astar`), the policy's for its
/// own ordering (`jps`, `navmesh`), and `POLICY:ORDERING` otherwise
/// (`jps:dijkstra`); the replay files, the command line (`--algo`), the
/// panel and the lab all use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Planner {
    order: Order,
    expansion: Expansion,
}

/// An ordering an expansion policy does not honour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{expansion} cannot order by {order}: {why}")]
pub struct Unhonoured {
    /// The ordering asked for.
    pub order: Order,
    /// The policy asked for.
    pub expansion: Expansion,
    /// What the policy does instead.
    pub why: &'static str,
}

/// A planner that cannot be made from its name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlannerError {
    /// A name that is neither a planner nor `POLICY:ORDERING`.
    #[error(transparent)]
    Unknown(#[from] UnknownName),
    /// An ordering the policy does not honour.
    #[error(transparent)]
    Unhonoured(#[from] Unhonoured),
}

impl Planner {
    /// Breadth-first search on the grid.
    pub const BFS: Planner = Planner::grid(Order::Bfs);
    /// Dijkstra on the grid.
    pub const DIJKSTRA: Planner = Planner::grid(Order::Dijkstra);
    /// A* on the grid.
    pub const ASTAR: Planner = Planner::grid(Order::AStar);
    /// Greedy best-first on the grid.
    pub const GREEDY: Planner = Planner::grid(Order::Greedy);
    /// Weighted A* on the grid.
    pub const WEIGHTED: Planner = Planner::grid(Order::Weighted);
    /// A* over jump points found online.
    pub const JPS: Planner = Planner::of(Expansion::Jps);
    /// A* over jump points read from a table (JPS+).
    pub const JPS_PLUS: Planner = Planner::of(Expansion::JpsPlus);
    /// HPA*.
    pub const HPA: Planner = Planner::of(Expansion::Hpa);
    /// The navigation mesh and the funnel.
    pub const NAVMESH: Planner = Planner::of(Expansion::Navmesh);
    /// The corner waypoint graph.
    pub const WAYPOINTS: Planner = Planner::of(Expansion::Waypoints);

    /// The planners the `A` key cycles through, in its order (in the game
    /// and in the lab): the grid's orderings, the jump point searches,
    /// HPA*, the navmesh, the corner graph.
    pub const CYCLE: [Planner; 10] = [
        Planner::BFS,
        Planner::DIJKSTRA,
        Planner::ASTAR,
        Planner::GREEDY,
        Planner::WEIGHTED,
        Planner::JPS,
        Planner::JPS_PLUS,
        Planner::HPA,
        Planner::NAVMESH,
        Planner::WAYPOINTS,
    ];

    /// `order` over `expansion`, if the policy honours the ordering.
    pub const fn new(order: Order, expansion: Expansion) -> Result<Planner, Unhonoured> {
        match expansion.refusal(order) {
            None => Ok(Planner { order, expansion }),
            Some(why) => Err(Unhonoured { order, expansion, why }),
        }
    }

    /// `order` on the grid's neighbours (every ordering is honoured).
    pub const fn grid(order: Order) -> Planner {
        Planner { order, expansion: Expansion::Grid }
    }

    /// `expansion` with the ordering it runs when none is named.
    pub const fn of(expansion: Expansion) -> Planner {
        Planner { order: expansion.default_order(), expansion }
    }

    /// What the open list orders by.
    pub const fn order(self) -> Order {
        self.order
    }

    /// Where the successors come from.
    pub const fn expansion(self) -> Expansion {
        self.expansion
    }

    /// The next planner of [`Planner::CYCLE`], wrapping; from a planner
    /// outside the cycle (`jps:dijkstra`), the one after its policy's.
    pub fn next(self) -> Planner {
        let at = Planner::CYCLE
            .iter()
            .position(|&p| p == self)
            .unwrap_or_else(|| Planner::CYCLE.iter().position(|&p| p == Planner::of(self.expansion)).unwrap_or(0));
        Planner::CYCLE[(at + 1) % Planner::CYCLE.len()]
    }

    /// The planner to run instead where this one's policy cannot run on a
    /// grid (jump points on 4 neighbours or weighted cells): the same
    /// ordering on the grid's neighbours. The others are their own.
    pub const fn fallback(self) -> Planner {
        if self.expansion.jumps() { Planner::grid(self.order) } else { self }
    }

    /// Whether the search settings' heuristic counts: an ordering that
    /// uses one, on a policy of cells (the any-angle planners use their
    /// own straight-line distance).
    pub const fn uses_heuristic(self) -> bool {
        self.order.uses_heuristic() && !self.expansion.any_angle()
    }

    /// Whether the search settings' weight counts (the navmesh's weight
    /// is its own).
    pub const fn uses_weight(self) -> bool {
        matches!(self.order, Order::Weighted) && !matches!(self.expansion, Expansion::Navmesh)
    }

    /// Every name [`Planner::from_str`] takes besides `POLICY:ORDERING`,
    /// separated by `|`, for help texts.
    pub fn names() -> String {
        Planner::CYCLE.map(|p| p.to_string()).join("|")
    }
}

/// The planner's name, padded as the formatter asks (`{:<8}`).
/// The byte the world hash gives a planner: its place in
/// [`Planner::CYCLE`] (for a grid planner, the code the world hash gave
/// the same algorithm before planners had two parts), 16 and up for the
/// other orderings over jump points.
impl StateHash for Planner {
    fn hash_into(&self, h: &mut StateHasher) {
        h.u8(match Planner::CYCLE.iter().position(|p| p == self) {
            Some(i) => i as u8,
            None => 16 + self.expansion() as u8 * 8 + self.order() as u8,
        });
    }
}

impl fmt::Display for Planner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.expansion {
            Expansion::Grid => f.pad(self.order.name()),
            e if self.order == e.default_order() => f.pad(e.name()),
            e => f.pad(&format!("{}:{}", e.name(), self.order.name())),
        }
    }
}

impl FromStr for Planner {
    type Err = PlannerError;

    /// A planner's name, or `POLICY:ORDERING` (`grid:astar` is `astar`,
    /// `jps:astar` is `jps`).
    fn from_str(s: &str) -> Result<Planner, PlannerError> {
        let unknown = || UnknownName {
            what: "algorithm",
            given: s.to_string(),
            expected: format!("{}, or POLICY:ORDERING (e.g. jps:dijkstra)", Planner::names()),
        };
        if let Some((e, o)) = s.split_once(':') {
            let (Ok(e), Ok(o)) = (e.parse::<Expansion>(), o.parse::<Order>()) else { return Err(unknown().into()) };
            return Ok(Planner::new(o, e)?);
        }
        match (s.parse::<Order>(), s.parse::<Expansion>()) {
            (Ok(o), _) => Ok(Planner::grid(o)),
            (_, Ok(e)) if e != Expansion::Grid => Ok(Planner::of(e)),
            _ => Err(unknown().into()),
        }
    }
}

impl serde::Serialize for Planner {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Planner {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Planner, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every planner that can be made, in a fixed order.
    fn all() -> Vec<Planner> {
        let each = Expansion::ALL.iter().flat_map(|&e| Order::ALL.iter().map(move |&o| Planner::new(o, e)));
        each.filter_map(Result::ok).collect()
    }

    #[test]
    fn names_round_trip_and_the_cycle_wraps() {
        let all = all();
        assert_eq!(all.len(), 5 + 4 + 4 + 1 + 1 + 1);
        for p in all {
            assert_eq!(p.to_string().parse::<Planner>(), Ok(p), "{p}");
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(serde_json::from_str::<Planner>(&json).unwrap(), p);
        }
        let names: Vec<String> = Planner::CYCLE.iter().map(Planner::to_string).collect();
        assert_eq!(
            names,
            ["bfs", "dijkstra", "astar", "greedy", "weighted", "jps", "jps+", "hpa", "navmesh", "waypoints"]
        );
        assert_eq!(Planner::WEIGHTED.next(), Planner::JPS);
        assert_eq!(Planner::WAYPOINTS.next(), Planner::BFS);
        let jps_dijkstra = Planner::new(Order::Dijkstra, Expansion::Jps).unwrap();
        assert_eq!(jps_dijkstra.to_string(), "jps:dijkstra");
        assert_eq!(format!("{:<14}|{:>5}", jps_dijkstra, Planner::HPA), "jps:dijkstra  |  hpa");
        assert_eq!(jps_dijkstra.next(), Planner::JPS_PLUS);
        assert_eq!("grid:greedy".parse(), Ok(Planner::GREEDY));
        assert_eq!("jps+:astar".parse(), Ok(Planner::JPS_PLUS));
    }

    #[test]
    fn what_cannot_run_is_refused_with_the_reason() {
        let e = "jps:bfs".parse::<Planner>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "jps cannot order by bfs: a jump is many steps, so breadth-first over jumps is not breadth-first"
        );
        assert!(matches!(Planner::new(Order::AStar, Expansion::Navmesh), Err(Unhonoured { .. })));
        assert!(Planner::new(Order::Greedy, Expansion::Hpa).is_err());
        let e = "astra".parse::<Planner>().unwrap_err().to_string();
        assert!(e.starts_with("unknown algorithm 'astra' (expected one of: bfs|dijkstra|astar|"), "{e}");
        assert!(e.contains("|navmesh|waypoints, or POLICY:ORDERING"), "{e}");
        for bad in ["grid", "jps:", ":astar", "jps:astar:x", "waypoint"] {
            assert!(bad.parse::<Planner>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_jump_point_search_falls_back_to_its_ordering_on_the_grid() {
        assert_eq!(Planner::JPS.fallback(), Planner::ASTAR);
        let p = Planner::new(Order::Weighted, Expansion::JpsPlus).unwrap();
        assert_eq!(p.fallback(), Planner::WEIGHTED);
        assert_eq!(Planner::HPA.fallback(), Planner::HPA);
        assert!(!Planner::NAVMESH.uses_heuristic() && !Planner::NAVMESH.uses_weight());
        assert!(Planner::JPS.uses_heuristic() && !Planner::DIJKSTRA.uses_heuristic());
    }
}
