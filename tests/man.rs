//! `delve man [COMMAND]`: a roff manual page made from the command line.

use crate::cli::{delve, refused, stdout};

/// The page of `args`, checked to be roff with its title first: nothing
/// but clap_mangen's quote-string definitions before `.TH`.
fn page(args: &[&str]) -> String {
    let o = delve(args);
    assert!(o.status.success(), "{args:?}");
    let text = stdout(&o);
    let before: Vec<&str> = text.lines().take_while(|l| !l.starts_with(".TH ")).collect();
    assert!(before.iter().all(|l| l.starts_with(".ie ") || l.starts_with(".el ")), "{before:?}");
    assert!(before.len() < text.lines().count(), "no .TH in {text}");
    text
}

const COMMANDS: [&str; 9] = ["play", "path", "lab", "scen", "gen", "sim", "replay", "completions", "man"];

#[test]
fn the_page_names_every_command() {
    let text = page(&["man"]);
    assert!(text.contains(".TH delve 1 "), "{text}");
    assert!(text.contains("\n.SH SUBCOMMANDS\n"), "{text}");
    for command in COMMANDS {
        assert!(text.contains(&format!("\ndelve\\-{command}(1)\n")), "{command} is not in the page");
    }
    assert!(!text.contains("delve\\-help(1)"), "no help command in a manual");
    // Every command the command line has is among them.
    let help = stdout(&delve(&["--help"]));
    let listed = help.lines().skip_while(|l| *l != "Commands:").skip(1).take_while(|l| !l.is_empty());
    let names: Vec<&str> = listed.filter_map(|l| l.split_whitespace().next()).filter(|n| *n != "help").collect();
    assert_eq!(names, COMMANDS);
}

#[test]
fn each_command_has_its_page_with_its_flags() {
    for command in COMMANDS {
        let text = page(&["man", command]);
        assert!(text.contains(&format!(".TH delve-{command} 1  \"delve ")), "{command}: {}", &text[..200]);
    }
    let sim = page(&["man", "sim"]);
    assert!(sim.contains("\\-\\-repath"), "the flags are in the page");
    let err = refused(&["man", "nope"]);
    assert!(err.starts_with("delve: unknown command 'nope' (the commands: play, path, lab,"), "{err}");
}
