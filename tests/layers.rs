//! The layer rule, checked on the sources: each top-level module of the
//! library only uses the modules of the layers below its own (grid < level
//! < search < nav < steer < sim < replay, with the utilities at the bottom
//! and `gen` and `picture` where the table says), and the binary's modules
//! sit above the whole library.
//!
//! The compiler only keeps the library from using the binary (they are two
//! crates); within one crate any module can name any other, so this test
//! reads every `crate::` path (grouped ones, `$crate::` in macros and
//! `super::` chains that climb to the root included) in the code that is
//! compiled into the product, and fails naming the file and line of each
//! path that climbs. Comments, strings and `#[cfg(test)]` items are left
//! out: a unit test may use a higher layer, as a workspace crate's tests
//! may use a dev-dependency above it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The library's layers, lowest first. A module may use the modules of the
/// layers below its own, never one of its own layer or above it.
const LIBRARY: &[&[&str]] = &[
    // The stable hasher and the StateHash trait every layer's state types
    // implement (the settings' names implement it too); the one number
    // syntax; output files written whole or not at all.
    &["hash", "number", "atomic"],
    // Utilities: bounded reading of input files; the names of settings;
    // the random number generator; fixed shares of a parallel pass, one
    // per pool thread (steering's counting sort and the world's passes).
    &["input", "named", "rng", "shares"],
    &["grid"],
    &["level"],
    &["search"],
    // Any-angle paths over search; generated dungeons (a level and search
    // for connectivity, nothing of the world).
    &["nav", "gen"],
    // Steering (bodies in the level's grid); SVG pictures of searches and
    // any-angle paths.
    &["steer", "picture"],
    &["sim"],
    &["replay"],
];

/// The binary's layers, above the whole library, lowest first.
const BINARY: &[&[&str]] = &[&["shown", "signals", "scores"], &["ui"], &["cli"]];

/// Items at the crate root that are not modules, and the module that
/// defines them (an exported macro lands at the root).
const ROOT_ITEMS: &[(&str, &str)] = &[("named_enum", "named")];

#[test]
fn every_module_only_uses_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let library = declared_modules(&src.join("lib.rs"));
    let binary = declared_modules(&src.join("main.rs"));
    let mut problems = Vec::new();
    for (modules, table, crate_name) in [(&library, LIBRARY, "lib.rs"), (&binary, BINARY, "main.rs")] {
        for m in modules {
            if !table.iter().any(|layer| layer.contains(&m.as_str())) {
                problems.push(format!("src/{crate_name}: module {m} is in no layer of tests/layers.rs: add it"));
            }
        }
    }
    let ranks = Ranks::new(&library, &binary);
    for file in product_files(&src) {
        let text = fs::read_to_string(&file).unwrap();
        let relative = file.strip_prefix(src.parent().unwrap()).unwrap().display().to_string();
        let Some(user) = top_module(&src, &file) else { continue };
        for used in crate_paths(&text, depth(&src, &file)) {
            if let Some(problem) = ranks.problem(&user, &used.module) {
                problems.push(format!("{relative}:{}: {problem} (`{}`)", used.line, used.path));
            }
        }
    }
    assert!(problems.is_empty(), "the layer rule is broken:\n{}", problems.join("\n"));
}

/// Where each module stands: its crate's layer table and its layer.
struct Ranks {
    rank: BTreeMap<String, (bool, usize)>,
}

impl Ranks {
    fn new(library: &[String], binary: &[String]) -> Ranks {
        let mut rank = BTreeMap::new();
        for (table, is_binary, modules) in [(LIBRARY, false, library), (BINARY, true, binary)] {
            for (i, layer) in table.iter().enumerate() {
                for &m in layer.iter() {
                    if modules.iter().any(|d| d == m) {
                        rank.insert(m.to_owned(), (is_binary, i));
                    }
                }
            }
        }
        Ranks { rank }
    }

    /// Why `user` may not use `used`, if it may not.
    fn problem(&self, user: &str, used: &str) -> Option<String> {
        if user == used {
            return None;
        }
        let below = |m: &str| {
            let (is_binary, i) = self.rank[m];
            let table = if is_binary { BINARY } else { LIBRARY };
            let mut names: Vec<&str> = table[..i].iter().flat_map(|l| l.iter().copied()).collect();
            names.retain(|n| self.rank.contains_key(*n));
            if is_binary {
                names.insert(0, "the library");
            }
            if names.is_empty() { "nothing else".to_owned() } else { names.join(", ") }
        };
        let &(user_binary, user_rank) = self.rank.get(user)?;
        let Some(&(used_binary, used_rank)) = self.rank.get(used) else {
            return Some(format!("{user} uses crate::{used}, which is no module of the crate"));
        };
        let verdict = match (user_binary, used_binary) {
            (true, false) => return None,
            (false, true) => "the binary, above the whole library",
            _ if used_rank == user_rank => "a module of its own layer",
            _ if used_rank > user_rank => "a layer above it",
            _ => return None,
        };
        Some(format!("{user} uses {used}, {verdict} ({user} may use {})", below(user)))
    }
}

/// The modules a crate root declares (`mod x;`, `pub mod x;`).
fn declared_modules(root: &Path) -> Vec<String> {
    let code = without_tests(&code_only(&fs::read_to_string(root).unwrap())).0;
    let tokens = tokens(&code);
    let mut out = Vec::new();
    for w in tokens.windows(3) {
        if w[0].text == "mod" && w[2].text == ";" && is_ident(w[1].text) {
            out.push(w[1].text.to_owned());
        }
    }
    out
}

/// Every source file compiled into the library or the binary: the files
/// under `src/` but those of `#[cfg(test)] mod x;` modules.
fn product_files(src: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut test_modules = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = fs::read_to_string(&path).unwrap();
                for name in without_tests(&code_only(&text)).1 {
                    test_modules.push(module_dir(src, &path).join(name));
                }
                files.push(path);
            }
        }
    }
    files.retain(|f| !test_modules.iter().any(|t| f.with_extension("") == *t || f.starts_with(t)));
    files.sort();
    files
}

/// The directory holding the files of `file`'s child modules.
fn module_dir(src: &Path, file: &Path) -> PathBuf {
    if file.parent() == Some(src) && matches!(file.file_name().and_then(|n| n.to_str()), Some("lib.rs" | "main.rs")) {
        src.to_path_buf()
    } else {
        file.with_extension("")
    }
}

/// The top-level module `file` belongs to; `None` for the crate roots.
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let first = file.strip_prefix(src).ok()?.components().next()?.as_os_str().to_str()?.to_owned();
    match first.as_str() {
        "lib.rs" | "main.rs" => None,
        _ => Some(first.trim_end_matches(".rs").to_owned()),
    }
}

/// How deep `file`'s module sits: 1 for `src/x.rs`, 2 for `src/x/y.rs`.
fn depth(src: &Path, file: &Path) -> usize {
    file.strip_prefix(src).map(|p| p.components().count()).unwrap_or(0)
}

/// A path that names a top-level module of the crate.
#[derive(Debug, PartialEq)]
struct Used {
    /// The top-level module named.
    module: String,
    /// The path as written, up to the module, e.g. `crate::sim`.
    path: String,
    /// Its line, from 1.
    line: usize,
}

/// The top-level modules named by the code of a file whose module sits
/// `depth` deep: `crate::x`, `$crate::x`, `crate::{x, y::z}` and `super`
/// chains that climb to the root, outside comments, strings and tests.
fn crate_paths(text: &str, depth: usize) -> Vec<Used> {
    let code = without_tests(&code_only(text)).0;
    let tokens = tokens(&code);
    let mut out = Vec::new();
    // Inline `mod x { ... }` blocks deepen the module; other braces do not.
    let mut braces: Vec<bool> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let t = &tokens[i];
        match t.text {
            "{" => braces.push(i >= 2 && tokens[i - 2].text == "mod"),
            "}" => {
                braces.pop();
            }
            "crate" | "super" if tokens.get(i + 1).is_some_and(|n| n.text == "::") => {
                let here = depth + braces.iter().filter(|&&m| m).count();
                let (climbed, mut j) = if t.text == "crate" {
                    (here, i + 2)
                } else {
                    let mut j = i;
                    let mut supers = 0;
                    while tokens.get(j).is_some_and(|s| s.text == "super")
                        && tokens.get(j + 1).is_some_and(|s| s.text == "::")
                    {
                        supers += 1;
                        j += 2;
                    }
                    (supers, j)
                };
                if climbed >= here {
                    let written = |end: usize| tokens[i..end].iter().map(|t| t.text).collect::<String>();
                    let mut found = |name: &str, line: usize, path: String| {
                        let module = ROOT_ITEMS.iter().find(|(item, _)| *item == name).map_or(name, |(_, m)| m);
                        out.push(Used { module: module.to_owned(), path, line });
                    };
                    match tokens.get(j) {
                        Some(n) if is_ident(n.text) => found(n.text, n.line, written(j + 1)),
                        Some(n) if n.text == "{" => {
                            // A group: the first name of each of its paths.
                            let prefix = written(j);
                            let mut level = 0;
                            let mut starts_path = true;
                            while let Some(g) = tokens.get(j) {
                                match g.text {
                                    "{" => level += 1,
                                    "}" => level -= 1,
                                    "," => {}
                                    name if level == 1 && starts_path && is_ident(name) && name != "self" => {
                                        found(name, g.line, format!("{prefix}{{{name}}}"));
                                    }
                                    _ => {}
                                }
                                starts_path = level == 1 && (g.text == "{" || g.text == ",");
                                if level == 0 {
                                    break;
                                }
                                j += 1;
                            }
                        }
                        _ => {}
                    }
                }
                i = j.max(i + 1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A token of code: an identifier, `::`, or one other character.
#[derive(Debug)]
struct Token<'a> {
    text: &'a str,
    line: usize,
}

fn tokens(code: &str) -> Vec<Token<'_>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < bytes.len() {
        let b = bytes[i];
        let mut start = i;
        if b == b'\n' {
            line += 1;
            i += 1;
            continue;
        } else if b.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if b.is_ascii_alphanumeric() || b == b'_' {
            // A raw identifier (`r#gen`) names what it would without `r#`.
            if code[i..].starts_with("r#") && bytes.get(i + 2).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_') {
                i += 2;
                start = i;
            }
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else if code[i..].starts_with("::") {
            i += 2;
        } else {
            i += code[i..].chars().next().map_or(1, char::len_utf8);
        }
        out.push(Token { text: &code[start..i], line });
    }
    out
}

fn is_ident(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
}

/// `text` with every comment, string literal and character literal
/// blanked to spaces; newlines are kept, so every line keeps its number.
fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comments nest.
            let mut nesting = 0;
            while i < chars.len() {
                let pair = (chars[i], chars.get(i + 1).copied());
                if pair == ('/', Some('*')) || pair == ('*', Some('/')) {
                    nesting += if pair.0 == '/' { 1 } else { -1 };
                    out.push_str("  ");
                    i += 2;
                    if nesting == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && matches!(next, Some('"' | '#'))
            && (i == 0
                || !ident(chars[i - 1])
                || (matches!(chars[i - 1], 'b' | 'c') && (i < 2 || !ident(chars[i - 2]))))
        {
            let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
            if chars.get(i + 1 + hashes) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            // The body runs to a quote followed by as many hashes.
            let closes = |q: usize| {
                chars[q] == '"' && chars[q + 1..].iter().take(hashes).filter(|&&h| h == '#').count() == hashes
            };
            let body_start = i + 2 + hashes;
            let end = (body_start..chars.len()).find(|&q| closes(q)).map_or(chars.len(), |q| q + 1 + hashes);
            out.extend(chars[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let skip = if chars[i] == '\\' { 2 } else { 1 };
                out.extend(chars[i..(i + skip).min(chars.len())].iter().map(|&c| blank(c)));
                i += skip;
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\u{1b}'.
            let end = chars[i + 3..].iter().position(|&e| e == '\'').map_or(chars.len(), |p| i + 3 + p + 1);
            out.extend(chars[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            out.push_str("   ");
            i += 3;
        } else {
            // Code, or a lifetime's quote.
            out.push(c);
            i += 1;
        }
    }
    out
}

/// `code` (already without comments and strings) with every
/// `#[cfg(test)]` item blanked, and the names of the `#[cfg(test)] mod x;`
/// modules whose files are tests.
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut out: Vec<char> = code.chars().collect();
    let mut files = Vec::new();
    let squeezed = |from: usize, chars: &[char]| -> (String, Vec<usize>) {
        // The text from `from` without whitespace, and where each of its
        // characters was.
        let mut s = String::new();
        let mut at = Vec::new();
        for (k, &c) in chars.iter().enumerate().skip(from) {
            if !c.is_whitespace() {
                s.push(c);
                at.push(k);
            }
        }
        (s, at)
    };
    let mut from = 0;
    loop {
        let (s, at) = squeezed(from, &out);
        let Some(found) = s.find("#[cfg(test)]") else { break };
        let start = at[s[..found].chars().count()];
        // Skip the attribute and any others that follow it.
        let mut k = s[..found].chars().count() + "#[cfg(test)]".len();
        let sc: Vec<char> = s.chars().collect();
        while sc.get(k) == Some(&'#') && sc.get(k + 1) == Some(&'[') {
            let mut level = 0;
            while k < sc.len() {
                match sc[k] {
                    '[' => level += 1,
                    ']' => level -= 1,
                    _ => {}
                }
                k += 1;
                if level == 0 {
                    break;
                }
            }
        }
        // `mod name;`: a test module in its own file.
        let item: String = sc[k..].iter().take(200).collect();
        let item = item.strip_prefix("pub").unwrap_or(&item);
        if let Some(rest) = item.strip_prefix("mod") {
            let name: String = rest.chars().take_while(|&c| c.is_alphanumeric() || c == '_').collect();
            if rest[name.len()..].starts_with(';') {
                files.push(name);
            }
        }
        // The item runs to its `;` or its closing brace.
        let mut level = 0i32;
        let mut end = sc.len();
        for (q, &c) in sc.iter().enumerate().skip(k) {
            match c {
                '(' | '[' => level += 1,
                ')' | ']' => level -= 1,
                '{' => level += 1,
                '}' => {
                    level -= 1;
                    if level == 0 {
                        end = q + 1;
                        break;
                    }
                }
                ';' if level == 0 => {
                    end = q + 1;
                    break;
                }
                _ => {}
            }
        }
        let stop = if end < sc.len() { at[end - 1] + 1 } else { out.len() };
        for c in &mut out[start..stop] {
            if *c != '\n' {
                *c = ' ';
            }
        }
        from = stop;
    }
    (out.into_iter().collect(), files)
}

#[test]
fn the_check_sees_code_and_only_code() {
    let text = r##"
use crate::sim::World;
use crate::{grid::Grid, level::{self, Level}};
// use crate::replay::Replay;
/* crate::ui /* nested */ crate::ui */
const A: &str = "crate::cli";
const B: &str = r#"crate::cli " still"#;
const C: char = '"';
fn f<'a>(x: &'a str) -> &'a str { super::steer::go(x) }
#[cfg(test)]
mod tests {
    use crate::replay::Replay;
}
#[cfg(test)]
mod more;
macro_rules! m { () => { $crate::named::UnknownName } }
mod inner {
    use super::super::search::Searcher;
    use super::nav::Mesh;
}
"##;
    let found: Vec<(String, usize)> = crate_paths(text, 1).into_iter().map(|u| (u.module, u.line)).collect();
    let want = [("sim", 2), ("grid", 3), ("level", 3), ("steer", 9), ("named", 16), ("search", 18)];
    assert_eq!(found, want.map(|(m, l)| (m.to_owned(), l)));
    assert_eq!(without_tests(&code_only(text)).1, ["more"]);
    // Deeper files climb further before they reach the root.
    assert!(crate_paths("use super::x::Y;\n", 2).is_empty());
    assert_eq!(crate_paths("use super::super::x::Y;\n", 2)[0].module, "x");
    // A raw identifier is the module it names.
    assert_eq!(crate_paths("use crate::r#gen::Recipe;\n", 1)[0].module, "gen");
}

#[test]
fn climbing_paths_are_named_with_their_layers() {
    let library = ["grid", "input", "level", "named", "search", "nav", "steer", "picture", "sim", "replay"];
    let binary = ["cli", "ui", "shown", "signals"];
    let ranks = Ranks::new(&library.map(String::from), &binary.map(String::from));
    assert_eq!(
        ranks.problem("level", "sim").unwrap(),
        "level uses sim, a layer above it (level may use input, named, grid)"
    );
    assert_eq!(
        ranks.problem("steer", "picture").unwrap(),
        "steer uses picture, a module of its own layer (steer may use input, named, grid, level, search, nav)"
    );
    assert!(ranks.problem("grid", "ui").unwrap().contains("the binary, above the whole library"));
    assert!(ranks.problem("sim", "nav").is_none());
    assert!(ranks.problem("ui", "sim").is_none(), "the binary uses the library");
    assert_eq!(
        ranks.problem("ui", "cli").unwrap(),
        "ui uses cli, a layer above it (ui may use the library, shown, signals)"
    );
}
