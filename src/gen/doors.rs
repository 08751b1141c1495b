//! Doors: where a corridor meets a room, and doors that cycle on deeper
//! levels.

use super::canvas::Canvas;
use super::dice::Dice;
use crate::grid::Tile;

/// Puts an open door, `percent` times in a hundred, on every doorway
/// (walkable on two opposite sides, wall on the other two) that is not in
/// a room but next to one: where a corridor enters a room. No door goes
/// beside another. Returns the doors put.
pub(super) fn doorways(canvas: &mut Canvas, dice: &mut Dice, percent: u32) -> usize {
    let mut put = 0;
    for i in 0..canvas.tiles.len() {
        if !(canvas.plain(i) && !canvas.room[i] && canvas.is_doorway(i)) {
            continue;
        }
        let beside = canvas.around(i);
        let meets_room = beside.iter().any(|&j| canvas.room[j]);
        let by_door = beside.iter().any(|&j| is_door(canvas.tiles[j]));
        if meets_room && !by_door && dice.chance(percent) {
            canvas.tiles[i] = Tile::DoorOpen;
            put += 1;
        }
    }
    put
}

fn is_door(t: Tile) -> bool {
    matches!(t, Tile::DoorOpen | Tile::DoorClosed)
}

/// Makes the level's doors cycle: the doors on `route` (one walk from the
/// player to the goal) become open doorways, so that the goal can be
/// reached whatever the phase, and each other door starts closed with even
/// odds. Returns whether a door is left to cycle.
pub(super) fn cycle(canvas: &mut Canvas, dice: &mut Dice, route: &[usize]) -> bool {
    for &i in route {
        if is_door(canvas.tiles[i]) {
            canvas.tiles[i] = Tile::Floor(1);
        }
    }
    let mut left = false;
    for t in canvas.tiles.iter_mut().filter(|t| is_door(**t)) {
        left = true;
        if dice.chance(50) {
            *t = Tile::DoorClosed;
        }
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::r#gen::{Recipe, Style, dice};

    fn test_dice() -> Dice {
        dice::stream(&Recipe::new(Style::Rooms, 1, 3, None).unwrap(), dice::Purpose::Doors)
    }

    #[test]
    fn a_door_where_a_corridor_enters_a_room() {
        let mut c =
            Canvas::drawn(&["##########", "#rrr######", "#rrr.....#", "#rrr####.#", "######r..#", "##########"]);
        assert_eq!(doorways(&mut c, &mut test_dice(), 100), 2);
        assert_eq!(c.picture()[2], "#...'....#", "beside the room at 4,2; not at 5,2 beside that door");
        assert_eq!(c.picture()[3], "#...####.#", "8,3 is a doorway but meets no room");
        assert_eq!(c.picture()[4], "######.'.#", "7,4 enters the room cell 6,4");
    }

    #[test]
    fn cycling_opens_the_route_and_closes_about_half_the_rest() {
        let row: String = "#".to_owned() + &".'".repeat(200) + "#";
        let mut c = Canvas::drawn(&[&"#".repeat(402), &row, &"#".repeat(402)]);
        let route = [c.at(2, 1), c.at(4, 1)];
        assert!(cycle(&mut c, &mut test_dice(), &route));
        assert_eq!((c.tiles[route[0]], c.tiles[route[1]]), (Tile::Floor(1), Tile::Floor(1)));
        let closed = c.tiles.iter().filter(|&&t| t == Tile::DoorClosed).count();
        let open = c.tiles.iter().filter(|&&t| t == Tile::DoorOpen).count();
        assert_eq!(closed + open, 198);
        assert!((70..130).contains(&closed), "{closed}");
        let mut none = Canvas::drawn(&["####", "#..#", "####"]);
        assert!(!cycle(&mut none, &mut test_dice(), &[]), "nothing to cycle");
    }
}
