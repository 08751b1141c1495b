//! The game in a real terminal: runs the scripts `tests/tmux_*.sh` against
//! the built binary. They need tmux, and fail rather than skip without it,
//! so a machine that cannot run them says so (`.ci/run` installs tmux).

use std::process::Command;

/// Runs `tests/NAME` with the binary's path and fails with its output.
fn run_script(name: &str) {
    let tmux = Command::new("tmux").arg("-V").output();
    assert!(
        tmux.is_ok_and(|o| o.status.success()),
        "this test needs tmux on PATH (apt-get install tmux; .ci/run installs it)"
    );
    let script = format!("{}/tests/{name}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash").arg(&script).arg(env!("CARGO_BIN_EXE_delve")).output().expect("bash runs");
    assert!(
        out.status.success(),
        "{script} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn plays_in_tmux_and_restores_the_terminal() {
    run_script("tmux_play.sh");
}

/// TERM, INT, HUP and QUIT sent to `delve play --record` and `delve replay`.
#[test]
fn signals_restore_the_terminal_and_keep_the_recording() {
    run_script("tmux_signals.sh");
}

/// A closed terminal (tmux kill-session) under `delve play --record`,
/// `delve replay` and `delve lab`, with and without the SIGHUP.
#[test]
fn a_closed_terminal_ends_the_program() {
    run_script("tmux_hangup.sh");
}

/// Long work (a seek over a long recording, a tick building HPA*'s
/// abstraction of a 2048x2048 level) never keeps q and signals waiting.
#[test]
fn long_work_never_holds_the_keys_or_the_signals() {
    run_script("tmux_busy.sh");
}

/// `delve lab`: stepping, editing, saving and quitting in a real terminal.
#[test]
fn the_lab_steps_edits_saves_and_restores_the_terminal() {
    run_script("tmux_lab.sh");
}
