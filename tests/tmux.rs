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

/// A bare `delve`: the title screen, a descent quit at depth 1 onto the
/// high-score table, the guard on the title's keys, a damaged table.
#[test]
fn the_title_screen_starts_a_descent_and_keeps_its_score() {
    run_script("tmux_title.sh");
}

/// Turn mode (`play --turns`): time stands still until a key, a step and a
/// wait each advance 4 ticks, a run wins, waits let a monster catch.
#[test]
fn turn_mode_plays_to_a_win_and_a_loss() {
    run_script("tmux_turns.sh");
}

/// The numpad in live play, Ctrl-P's message history, and Ctrl-Z (and a
/// `kill -TSTP`) suspending the game and the lab, `fg` bringing them back
/// with the terminal restored in between.
#[test]
fn the_numpad_the_message_history_and_ctrl_z() {
    run_script("tmux_keys.sh");
}
