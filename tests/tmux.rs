//! The game in a real terminal: runs `tests/tmux_play.sh` against the built
//! binary. It needs tmux, and fails rather than skips without it, so a
//! machine that cannot run it says so (`.ci/run` installs tmux).

use std::process::Command;

#[test]
fn plays_in_tmux_and_restores_the_terminal() {
    let tmux = Command::new("tmux").arg("-V").output();
    assert!(
        tmux.is_ok_and(|o| o.status.success()),
        "this test needs tmux on PATH (apt-get install tmux; .ci/run installs it)"
    );
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tmux_play.sh");
    let out = Command::new("bash").arg(script).arg(env!("CARGO_BIN_EXE_delve")).output().expect("bash runs");
    assert!(
        out.status.success(),
        "{script} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
