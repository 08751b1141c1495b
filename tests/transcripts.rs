//! The command transcripts of the documentation, run: every ` ```console `
//! block of `README.md` and `docs/*.md` holds `delve` commands and what
//! they print, and this test runs each (from the repository's top, so
//! `levels/room.txt` is the shipped level) and compares, so a transcript
//! cannot drift from what the binary does.
//!
//! The syntax is trycmd's: `$ delve ...` is a command (words split as a
//! shell would, quotes included; a `# comment` after it is not part of
//! it); a line `? N` right after it is its exit status (0 when absent);
//! then the lines it prints, stdout then stderr. In an expected line `[..]`
//! stands for any text (a time, a hash that another format would change);
//! a line `...` stands for any number of lines. Plain ` ``` ` blocks
//! (synopses, benchmark tables, whose times belong to one machine) are not
//! run.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One command of a transcript and what it should print.
#[derive(Debug, PartialEq)]
struct Case {
    /// Where it is written, as `FILE:LINE`.
    at: String,
    args: Vec<String>,
    status: i32,
    expected: Vec<String>,
}

#[test]
fn the_documented_transcripts_are_what_delve_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<PathBuf> = fs::read_dir(root.join("docs")).unwrap().map(|e| e.unwrap().path()).collect();
    pages.retain(|p| p.extension().is_some_and(|e| e == "md"));
    pages.push(root.join("README.md"));
    pages.sort();
    let mut cases = Vec::new();
    for page in &pages {
        let name = page.strip_prefix(root).unwrap().display().to_string();
        cases.extend(parse(&fs::read_to_string(page).unwrap(), &name).unwrap_or_else(|e| panic!("{e}")));
    }
    assert!(cases.len() >= 8, "the docs hold {} transcripts: did the parsing break?", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let out = Command::new(env!("CARGO_BIN_EXE_delve"))
            .args(&case.args)
            .current_dir(root)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        let printed: Vec<&str> = text.lines().collect();
        let expected: Vec<&str> = case.expected.iter().map(String::as_str).collect();
        let status = out.status.code().unwrap_or(-1);
        if status != case.status || !lines_match(&expected, &printed) {
            failures.push(format!(
                "{}: $ delve {}\n--- expected (status {}):\n{}\n--- printed (status {status}):\n{}",
                case.at,
                case.args.join(" "),
                case.status,
                case.expected.join("\n"),
                text.trim_end()
            ));
        }
    }
    assert!(failures.is_empty(), "{} transcripts drifted:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// The commands of the ` ```console ` blocks of a page named `name`.
fn parse(page: &str, name: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    // Whether a console block is open, and whether it has had a command.
    let (mut in_block, mut commanded) = (false, false);
    for (i, line) in page.lines().enumerate() {
        let at = format!("{name}:{}", i + 1);
        if !in_block {
            in_block = line.trim_end() == "```console";
            commanded = false;
        } else if line.starts_with("```") {
            in_block = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            let words = shell_words(command).map_err(|e| format!("{at}: {e}"))?;
            let Some(("delve", args)) = words.split_first().map(|(first, rest)| (first.as_str(), rest)) else {
                return Err(format!("{at}: a transcript runs delve, not {command:?}"));
            };
            cases.push(Case { at, args: args.to_vec(), status: 0, expected: Vec::new() });
            commanded = true;
        } else {
            let Some(case) = cases.last_mut().filter(|_| commanded) else {
                return Err(format!("{at}: output before any command"));
            };
            match line.strip_prefix("? ") {
                Some(status) if case.expected.is_empty() && case.status == 0 => {
                    case.status = status.trim().parse().map_err(|_| format!("{at}: bad exit status {status:?}"))?;
                }
                _ => case.expected.push(line.to_owned()),
            }
        }
    }
    if in_block {
        return Err(format!("{name}: a console block is not closed"));
    }
    Ok(cases)
}

/// A command line split into words: whitespace separates them, single and
/// double quotes group, and `#` at the start of a word begins a comment.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => words.extend(word.take()),
            '#' if word.is_none() => break,
            '\'' | '"' => {
                let quoted: String = chars.by_ref().take_while(|&q| q != c).collect();
                word.get_or_insert_with(String::new).push_str(&quoted);
            }
            '|' | '>' | '<' | ';' | '&' | '$' | '`' | '\\' => {
                return Err(format!("{line:?}: pipes, redirections and expansions are not run"));
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// Whether `printed` matches `expected`, where a line `...` matches any
/// number of lines and `[..]` in a line any text.
fn lines_match(expected: &[&str], printed: &[&str]) -> bool {
    match expected.split_first() {
        None => printed.is_empty(),
        Some((&"...", rest)) => (0..=printed.len()).any(|skip| lines_match(rest, &printed[skip..])),
        Some((line, rest)) => {
            printed.split_first().is_some_and(|(first, others)| line_matches(line, first) && lines_match(rest, others))
        }
    }
}

/// Whether `printed` matches `expected`, where `[..]` matches any text.
fn line_matches(expected: &str, printed: &str) -> bool {
    let parts: Vec<&str> = expected.split("[..]").collect();
    let [first, middle @ .., last] = parts.as_slice() else { return expected == printed };
    let Some(mut rest) = printed.strip_prefix(first) else { return false };
    for part in middle {
        let Some(at) = rest.find(part) else { return false };
        rest = &rest[at + part.len()..];
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[test]
fn wildcards_match_what_they_stand_for_and_nothing_else() {
    assert!(line_matches("12.3 µs", "12.3 µs"));
    assert!(line_matches("took [..] µs", "took 12.3 µs"));
    assert!(line_matches("[..]", ""));
    assert!(line_matches("a[..]b[..]c", "a1b2c"));
    assert!(!line_matches("a[..]b[..]c", "a1c2b"));
    assert!(!line_matches("ab[..]ba", "aba"), "prefix and suffix may not overlap");
    assert!(!line_matches("took [..] µs", "took 12.3 ms"));
    assert!(lines_match(&["a", "...", "z"], &["a", "z"]));
    assert!(lines_match(&["a", "...", "z"], &["a", "b", "c", "z"]));
    assert!(!lines_match(&["a", "...", "z"], &["a", "b"]));
    assert!(!lines_match(&["a"], &["a", "b"]), "every printed line is expected");
}

#[test]
fn transcripts_parse_as_trycmd_writes_them() {
    let page = "text\n```\n$ delve not run\n```\n```console\n$ delve path 'levels/a b.txt'  # a comment\nout\n$ delve path --nope\n? 2\nerr\n```\n";
    let cases = parse(page, "p.md").unwrap();
    let want = [
        Case {
            at: "p.md:6".into(),
            args: vec!["path".into(), "levels/a b.txt".into()],
            status: 0,
            expected: vec!["out".into()],
        },
        Case {
            at: "p.md:8".into(),
            args: vec!["path".into(), "--nope".into()],
            status: 2,
            expected: vec!["err".into()],
        },
    ];
    assert_eq!(cases, want);
    assert!(parse("```console\n$ ls\n```\n", "p.md").unwrap_err().contains("p.md:2: a transcript runs delve"));
    assert!(parse("```console\n$ delve path | head\n```\n", "p.md").unwrap_err().contains("pipes"));
    assert!(parse("```console\nout\n```\n", "p.md").unwrap_err().contains("output before any command"));
}
