//! `delve path --algo navmesh|waypoints` and `delve path --compare`: the
//! any-angle planners on one query, alone or beside the string-pulled grid
//! path.

use super::{PathArgs, Svg};
use crate::cli::CliError;
use crate::grid::Cell;
use crate::level::Level;
use crate::nav::{Ends, NavMesh, Navigator, Vec2, path_length};
use crate::picture::{Drawn, NavDrawn, NavLine};
use crate::search::{Fallback, PlanError, Planner, SearchSettings, SearchStats, string_pull};
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

/// One query of `planner` (an any-angle one) through `navigator`: the
/// outcome and the query's time, refused as the navigator refuses.
fn run(
    args: &PathArgs,
    navigator: &mut Navigator,
    level: &Level,
    (from, to): (Cell, Cell),
    planner: Planner,
) -> Result<(crate::search::Outcome, f64), CliError> {
    let settings = SearchSettings { planner, ..args.search.settings() };
    let began = Instant::now();
    let planned = navigator.plan_observed(&level.grid, Ends::cells(from, to), &settings, Fallback::Refuse, &mut ());
    let micros = micros_since(began);
    let file = || args.level.clone().unwrap_or_else(|| crate::level::DEFAULT_LEVEL_NAME.into());
    let outcome = planned.map_err(|source: PlanError| CliError::Plan { file: file(), source })?;
    // The structure's build is timed apart, not as part of the query.
    Ok((outcome, (micros - navigator.preprocess_micros()).max(0.0)))
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
    let r = args.radius;
    let mut navigator = Navigator::new(r);
    let planner = args.search.planner();
    let (outcome, micros) = run(args, &mut navigator, level, (from, to), planner)?;
    let points = navigator.points().to_vec();
    let stats = outcome.stats;
    let found = outcome.found.then(|| (points.clone(), outcome.cost.unwrap_or(0.0), stats.expanded));
    let (v, human) = if let Some(mesh) = navigator.mesh() {
        let path = navigator.mesh_path();
        let built = format!(
            "navmesh: {} polygons, {} portals, built in {:.2} ms (radius {r})",
            mesh.polygon_count(),
            mesh.portals().len(),
            mesh.build_micros() / 1e3
        );
        let crossed = path.map(|p| {
            let ids: Vec<String> = p.polygons.iter().map(u32::to_string).collect();
            format!("polygons crossed: {}: {}", ids.len(), ids.join(" -> "))
        });
        let nav = NavDrawn {
            title: format!("navmesh, radius {r}: {} polygons, {} portals", mesh.polygon_count(), mesh.portals().len()),
            polygons: outlines(mesh),
            portals: path.map_or(vec![], |p| p.portals[1..p.portals.len() - 1].to_vec()),
            corners: Vec::new(),
            paths: vec![NavLine { planner: "navmesh", points: points.clone() }],
        };
        picture(args, level, (from, to), nav, stats, svg)?;
        let v = json!({
            "algo": "navmesh",
            "radius": r,
            "found": outcome.found,
            "length": outcome.cost,
            "path": self::points(&points),
            "polygons": path.map_or(vec![], |p| p.polygons.clone()),
            "polygon_count": mesh.polygon_count(),
            "portal_count": mesh.portals().len(),
            "build_micros": mesh.build_micros(),
            "weight": args.search.settings().navmesh_weight,
            "expanded": stats.expanded,
            "reopened": stats.reopened,
            "violations": stats.violations,
            "micros": micros,
        });
        (v, (built, crossed, found, micros))
    } else {
        let wp = navigator.waypoints().expect("an any-angle query ran on the mesh or the corners");
        let built = format!(
            "waypoints: {} corners, built in {:.2} ms; {} links made for the {} corners searched, in {:.2} ms (radius {r})",
            wp.corners().len(),
            wp.build_micros() / 1e3,
            wp.link_count(),
            wp.linked(),
            wp.link_micros() / 1e3,
        );
        let inner = |p: &[Vec2]| if p.len() > 2 { p[1..p.len() - 1].to_vec() } else { Vec::new() };
        let crossed = outcome.found.then(|| format!("waypoints crossed: {}", inner(&points).len()));
        let nav = NavDrawn {
            title: format!("waypoints, radius {r}: {} corners", wp.corners().len()),
            polygons: Vec::new(),
            portals: Vec::new(),
            corners: wp.corners().collect(),
            paths: vec![NavLine { planner: "waypoints", points: points.clone() }],
        };
        picture(args, level, (from, to), nav, stats, svg)?;
        let v = json!({
            "algo": "waypoints",
            "radius": r,
            "found": outcome.found,
            "length": outcome.cost,
            "path": self::points(&points),
            "waypoints": self::points(&inner(&points)),
            "waypoint_count": wp.corners().len(),
            "link_count": wp.link_count(),
            "build_micros": wp.build_micros() + wp.link_micros(),
            "expanded": stats.expanded,
            "micros": micros,
        });
        (v, (built, crossed, found, micros))
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
    let r = args.radius;
    let mut navigator = Navigator::new(r);

    // The grid search falls back as `delve path` does; the table says
    // which ran.
    let settings = args.search.settings();
    let began = Instant::now();
    let planned = navigator.plan_observed(grid, Ends::cells(from, to), &settings, Fallback::Grid, &mut ());
    let outcome = planned.map_err(|source| CliError::Plan {
        file: args.level.clone().unwrap_or_else(|| crate::level::DEFAULT_LEVEL_NAME.into()),
        source,
    })?;
    let mut cells = Vec::new();
    string_pull(grid, navigator.path(), &mut cells);
    let grid_micros = micros_since(began);
    let ran = navigator.ran();
    let pulled: Vec<Vec2> = cells.into_iter().map(Vec2::centre).collect();
    let grid_len = outcome.found.then(|| path_length(&pulled));

    let (mesh_outcome, mesh_micros) = run(args, &mut navigator, level, (from, to), Planner::NAVMESH)?;
    let mesh_points = navigator.points().to_vec();
    let mesh = navigator.mesh().expect("a navmesh query ran on the mesh");
    let (polygons, mesh_build) = (outlines(mesh), mesh.build_micros());

    let (wp_outcome, wp_micros) = run(args, &mut navigator, level, (from, to), Planner::WAYPOINTS)?;
    let wp_points = navigator.points().to_vec();
    let wp = navigator.waypoints().expect("a waypoints query ran on the corners");
    let wp_build = wp.build_micros() + wp.link_micros();

    let nav = NavDrawn {
        title: format!("compare, radius {r}"),
        polygons,
        portals: Vec::new(),
        corners: Vec::new(),
        paths: vec![
            NavLine { planner: "grid_smoothed", points: if outcome.found { pulled } else { Vec::new() } },
            NavLine { planner: "navmesh", points: mesh_points },
            NavLine { planner: "waypoints", points: wp_points },
        ],
    };
    picture(args, level, (from, to), nav, SearchStats::default(), svg)?;

    let rows = [
        ("grid_smoothed", grid_len, grid_micros, None),
        ("navmesh", mesh_outcome.cost, mesh_micros, Some(mesh_build)),
        ("waypoints", wp_outcome.cost, wp_micros, Some(wp_build)),
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
            let fell_back = if ran == settings.planner { String::new() } else { format!(" (ran {ran})") };
            writeln!(out, "(grid_smoothed: {settings}{fell_back}, cell centres, ignores the radius)")
        })()
    };
    written.map_err(CliError::Output)
}
