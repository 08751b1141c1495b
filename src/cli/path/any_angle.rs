//! `delve path --algo navmesh|waypoints` and `delve path --compare`: the
//! any-angle planners on one query, alone or beside the string-pulled grid
//! path.

use super::{PathArgs, Svg};
use crate::cli::CliError;
use crate::grid::Cell;
use crate::level::Level;
use crate::nav::{NavMesh, Planner, Vec2, Waypoints, path_length};
use crate::picture::{Drawn, NavDrawn, NavLine};
use crate::search::{GridPlanner, SearchStats, Searcher, string_pull};
use crate::shown::shown;
use serde_json::json;
use std::io::Write;
use std::time::Instant;

/// Points as `[x, y]` pairs.
fn points(p: &[Vec2]) -> serde_json::Value {
    json!(p.iter().map(|v| [v.x, v.y]).collect::<Vec<_>>())
}

fn listed(p: &[Vec2]) -> String {
    p.iter().map(|v| format!("({},{})", v.x, v.y)).collect::<Vec<_>>().join(" -> ")
}

fn micros_since(began: Instant) -> f64 {
    began.elapsed().as_secs_f64() * 1e6
}

/// Every polygon's outline, for the picture.
fn outlines(mesh: &NavMesh) -> Vec<Vec<Vec2>> {
    mesh.polygons().map(|(_, p)| p.outline()).collect()
}

/// Writes the picture of `nav` (with `stats`) to `--svg`'s file, if given.
fn picture(
    args: &PathArgs,
    level: &Level,
    (from, to): (Cell, Cell),
    nav: NavDrawn,
    stats: SearchStats,
    svg: Option<Svg>,
) -> Result<(), CliError> {
    let Some(svg) = svg else { return Ok(()) };
    let drawn = Drawn {
        settings: args.search.settings(),
        stats,
        cost: None,
        finished: true,
        cells: Vec::new(),
        current: None,
        path: Vec::new(),
        smoothed: Vec::new(),
        nav: Some(nav),
    };
    svg.write(&level.grid, from, to, &[drawn])
}

/// One query on the navmesh or the waypoint graph.
pub(super) fn plan(
    args: &PathArgs,
    level: &Level,
    from: Cell,
    to: Cell,
    out: &mut impl Write,
    svg: Option<Svg>,
) -> Result<(), CliError> {
    let grid = &level.grid;
    let (a, b) = (Vec2::centre(from), Vec2::centre(to));
    let mut searcher = Searcher::new();
    let r = args.radius;
    let (v, human) = if args.search.planner() == Planner::Navmesh {
        let mesh = NavMesh::build(grid, r);
        let began = Instant::now();
        let path = mesh.plan(grid, &mut searcher, a, b);
        let micros = micros_since(began);
        let built = format!(
            "navmesh: {} polygons, {} portals, built in {:.2} ms (radius {r})",
            mesh.polygon_count(),
            mesh.portals().len(),
            mesh.build_micros() / 1e3
        );
        let crossed = path.as_ref().map(|p| {
            let ids: Vec<String> = p.polygons.iter().map(u32::to_string).collect();
            format!("polygons crossed: {}: {}", ids.len(), ids.join(" -> "))
        });
        let nav = NavDrawn {
            title: format!("navmesh, radius {r}: {} polygons, {} portals", mesh.polygon_count(), mesh.portals().len()),
            polygons: outlines(&mesh),
            portals: path.as_ref().map_or(vec![], |p| p.portals[1..p.portals.len() - 1].to_vec()),
            corners: Vec::new(),
            paths: vec![NavLine { planner: "navmesh", points: path.as_ref().map_or(vec![], |p| p.points.clone()) }],
        };
        picture(args, level, (from, to), nav, path.as_ref().map_or(SearchStats::default(), |p| p.stats), svg)?;
        let v = json!({
            "algo": "navmesh",
            "radius": r,
            "found": path.is_some(),
            "length": path.as_ref().map(|p| p.length),
            "path": points(path.as_ref().map_or(&[][..], |p| &p.points)),
            "polygons": path.as_ref().map_or(vec![], |p| p.polygons.clone()),
            "polygon_count": mesh.polygon_count(),
            "portal_count": mesh.portals().len(),
            "build_micros": mesh.build_micros(),
            "expanded": path.as_ref().map_or(0, |p| p.stats.expanded),
            "micros": micros,
        });
        (v, (built, crossed, path.map(|p| (p.points, p.length, p.stats.expanded)), micros))
    } else {
        let wp = Waypoints::build(grid, r);
        let began = Instant::now();
        let path = wp.plan(grid, &mut searcher, a, b);
        let micros = micros_since(began);
        let built = format!(
            "waypoints: {} corners, {} links, built in {:.2} ms (radius {r})",
            wp.corners().len(),
            wp.link_count(),
            wp.build_micros() / 1e3
        );
        let inner = |p: &[Vec2]| p[1..p.len() - 1].to_vec();
        let crossed = path.as_ref().map(|p| format!("waypoints crossed: {}", inner(&p.points).len()));
        let nav = NavDrawn {
            title: format!("waypoints, radius {r}: {} corners, {} links", wp.corners().len(), wp.link_count()),
            polygons: Vec::new(),
            portals: Vec::new(),
            corners: wp.corners().collect(),
            paths: vec![NavLine { planner: "waypoints", points: path.as_ref().map_or(vec![], |p| p.points.clone()) }],
        };
        picture(args, level, (from, to), nav, path.as_ref().map_or(SearchStats::default(), |p| p.stats), svg)?;
        let v = json!({
            "algo": "waypoints",
            "radius": r,
            "found": path.is_some(),
            "length": path.as_ref().map(|p| p.length),
            "path": points(path.as_ref().map_or(&[][..], |p| &p.points)),
            "waypoints": points(&path.as_ref().map_or(vec![], |p| inner(&p.points))),
            "waypoint_count": wp.corners().len(),
            "link_count": wp.link_count(),
            "build_micros": wp.build_micros(),
            "expanded": path.as_ref().map_or(0, |p| p.stats.expanded),
            "micros": micros,
        });
        (v, (built, crossed, path.map(|p| (p.points, p.length, p.stats.expanded)), micros))
    };
    let written = if args.json {
        writeln!(out, "{v}")
    } else {
        let (built, crossed, path, micros) = human;
        (|| {
            writeln!(out, "{} ({}x{}): {from} -> {to}", shown(&level.name), grid.width(), grid.height())?;
            writeln!(out, "{built}")?;
            match (crossed, path) {
                (Some(crossed), Some((points, length, expanded))) => {
                    writeln!(out, "{crossed}")?;
                    writeln!(out, "path: {} points, length {length:.4}: {}", points.len(), listed(&points))?;
                    writeln!(out, "expanded {expanded} | {micros:.1} µs")
                }
                _ => writeln!(out, "no path"),
            }
        })()
    };
    written.map_err(CliError::Output)
}

/// The string-pulled grid path, the navmesh and the waypoint graph on one
/// query: lengths, query times and build times.
pub(super) fn compare(
    args: &PathArgs,
    level: &Level,
    from: Cell,
    to: Cell,
    out: &mut impl Write,
    svg: Option<Svg>,
) -> Result<(), CliError> {
    let grid = &level.grid;
    let (a, b) = (Vec2::centre(from), Vec2::centre(to));
    let r = args.radius;
    let mut searcher = Searcher::new();

    let mut planner = GridPlanner::new();
    let began = Instant::now();
    let outcome = planner.plan(grid, from, to, &args.search.settings()).map_err(|source| CliError::Plan {
        file: args.level.clone().unwrap_or_else(|| crate::level::DEFAULT_LEVEL_NAME.into()),
        source,
    })?;
    let mut cells = Vec::new();
    string_pull(grid, planner.path(), &mut cells);
    let grid_micros = micros_since(began);
    let pulled: Vec<Vec2> = cells.into_iter().map(Vec2::centre).collect();
    let grid_len = outcome.found.then(|| path_length(&pulled));

    let mesh = NavMesh::build(grid, r);
    let began = Instant::now();
    let mesh_path = mesh.plan(grid, &mut searcher, a, b);
    let mesh_micros = micros_since(began);
    let mesh_len = mesh_path.as_ref().map(|p| p.length);

    let wp = Waypoints::build(grid, r);
    let began = Instant::now();
    let wp_path = wp.plan(grid, &mut searcher, a, b);
    let wp_micros = micros_since(began);
    let wp_len = wp_path.as_ref().map(|p| p.length);

    let nav = NavDrawn {
        title: format!("compare, radius {r}"),
        polygons: outlines(&mesh),
        portals: Vec::new(),
        corners: Vec::new(),
        paths: vec![
            NavLine { planner: "grid_smoothed", points: if outcome.found { pulled } else { Vec::new() } },
            NavLine { planner: "navmesh", points: mesh_path.map_or(vec![], |p| p.points) },
            NavLine { planner: "waypoints", points: wp_path.map_or(vec![], |p| p.points) },
        ],
    };
    picture(args, level, (from, to), nav, SearchStats::default(), svg)?;

    let rows = [
        ("grid_smoothed", grid_len, grid_micros, None),
        ("navmesh", mesh_len, mesh_micros, Some(mesh.build_micros())),
        ("waypoints", wp_len, wp_micros, Some(wp.build_micros())),
    ];
    let written = if args.json {
        let mut v = json!({ "radius": r, "compare": {}, "micros": {}, "build_micros": {} });
        for (name, len, micros, build) in rows {
            v["compare"][name] = json!(len);
            v["micros"][name] = json!(micros);
            v["build_micros"][name] = json!(build);
        }
        writeln!(out, "{v}")
    } else {
        (|| {
            writeln!(out, "{} ({}x{}): {from} -> {to}, radius {r}", shown(&level.name), grid.width(), grid.height())?;
            writeln!(out, "{:<14} {:>10} {:>10} {:>10}", "planner", "length", "query µs", "build ms")?;
            for (name, len, micros, build) in rows {
                let len = len.map_or("no path".to_string(), |l| format!("{l:.4}"));
                let build = build.map_or("-".to_string(), |b| format!("{:.2}", b / 1e3));
                writeln!(out, "{name:<14} {len:>10} {micros:>10.1} {build:>10}")?;
            }
            writeln!(out, "(grid_smoothed: {}, cell centres, ignores the radius)", args.search.settings())
        })()
    };
    written.map_err(CliError::Output)
}
