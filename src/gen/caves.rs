//! `caves`: cellular automata by the 4-5 rule, then one cave.
//!
//! Rock is scattered over 45 % of the map, then every cell becomes rock
//! when 5 or more of the 9 cells of its 3×3 block are rock (a rock cell
//! stays rock with 4 rock neighbours, an open one turns with 5: the 4-5
//! rule), for seven rounds. The first four also turn a cell to rock when
//! its 5×5 block holds at most 2 rock cells, which breaks up wide open
//! spaces into pillars; the last three only smooth. Pockets of at least
//! [`MIN_POCKET`] cells are then joined to the largest cave by tunnels and
//! smaller ones filled ([`super::connect::join_pockets`]).
//! (The rule and its rounds are RogueBasin's "Cellular Automata Method
//! for Generating Random Cave-Like Levels".)

use super::canvas::{Canvas, box_counts};
use super::connect;
use super::dice::Dice;
use crate::grid::Tile;

/// Percent of the map that starts as rock.
const ROCK_PERCENT: u32 = 45;
/// Rounds that smooth and break up open spaces, then rounds that only smooth.
const ROUNDS: [bool; 7] = [true, true, true, true, false, false, false];
/// The smallest pocket worth a tunnel; smaller ones are filled.
pub(super) const MIN_POCKET: usize = 12;

/// Carves the caves.
pub(super) fn carve(canvas: &mut Canvas, dice: &mut Dice) {
    let mut rock: Vec<u8> =
        (0..canvas.tiles.len()).map(|i| u8::from(!canvas.inside(i) || dice.chance(ROCK_PERCENT))).collect();
    for open_up in ROUNDS {
        rock = step(canvas, &rock, open_up);
    }
    for (i, &r) in rock.iter().enumerate() {
        canvas.tiles[i] = if r == 1 { Tile::Wall } else { Tile::Floor(1) };
    }
    connect::join_pockets(canvas, MIN_POCKET);
}

/// One round of the automaton over `rock` (1 rock, 0 open; cells beyond
/// the map count as rock, the outer ring stays rock). With `open_up`, a
/// cell with at most 2 rock cells in its 5×5 block turns to rock too.
pub(super) fn step(canvas: &Canvas, rock: &[u8], open_up: bool) -> Vec<u8> {
    let (w, h) = (canvas.width, canvas.height);
    let near = box_counts(rock, w, h, 1, 1);
    let far = if open_up { box_counts(rock, w, h, 2, 1) } else { Vec::new() };
    (0..rock.len()).map(|i| u8::from(!canvas.inside(i) || near[i] >= 5 || (open_up && far[i] <= 2))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::r#gen::{Recipe, Size, Style, dice};

    /// The cell at 4,4 after one round, its 3x3 block's rows 3 to 5
    /// drawn as `block` in an open room.
    fn after_one_round(block: [&str; 3]) -> u8 {
        let open = "#.......#";
        let row = |b: &str| format!("#..{b}..#");
        let rows = [
            "#########".to_owned(),
            open.to_owned(),
            open.to_owned(),
            row(block[0]),
            row(block[1]),
            row(block[2]),
            open.to_owned(),
            open.to_owned(),
            "#########".to_owned(),
        ];
        let c = Canvas::drawn(&rows.iter().map(String::as_str).collect::<Vec<_>>());
        let rock: Vec<u8> = c.tiles.iter().map(|&t| u8::from(t == Tile::Wall)).collect();
        step(&c, &rock, false)[c.at(4, 4)]
    }

    #[test]
    fn the_four_five_rule() {
        assert_eq!(after_one_round(["###", "##.", "..."]), 1, "a rock with 4 rock neighbours stays");
        assert_eq!(after_one_round(["###", "#.#", "..."]), 1, "an open cell with 5 rock neighbours turns");
        assert_eq!(after_one_round(["###", "#..", "..."]), 0, "an open cell with 4 stays open");
        assert_eq!(after_one_round(["##.", "##.", "..."]), 0, "a rock with 3 crumbles");
        assert_eq!(after_one_round(["...", ".#.", "..."]), 0, "a lone rock crumbles");
    }

    #[test]
    fn open_up_breaks_wide_spaces() {
        let c = Canvas::drawn(&[
            "###########",
            "#.........#",
            "#.........#",
            "#.........#",
            "#.........#",
            "#.........#",
            "###########",
        ]);
        let rock: Vec<u8> = c.tiles.iter().map(|&t| u8::from(t == Tile::Wall)).collect();
        assert_eq!(step(&c, &rock, true)[c.at(5, 3)], 1, "no rock within 2: a pillar grows");
        assert_eq!(step(&c, &rock, false)[c.at(5, 3)], 0);
    }

    #[test]
    fn caves_are_one_region_of_a_fair_share_of_the_map() {
        for seed in 0..20 {
            let r = Recipe::new(Style::Caves, seed, 1, Some(Size { width: 60, height: 30 })).unwrap();
            let mut c = Canvas::new(r.size());
            carve(&mut c, &mut dice::stream(&r, dice::Purpose::Carve));
            let (_, sizes) = connect::regions(&c);
            assert_eq!(sizes.len(), 1, "seed {seed}: {sizes:?}");
            let share = sizes[0] * 100 / c.tiles.len();
            assert!((25..=75).contains(&share), "seed {seed}: {share} % open");
        }
    }
}
