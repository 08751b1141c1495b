//! Running the `delve` binary as a user would, under a deadline: a child
//! that hangs fails its test instead of hanging the suite.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// Longest a child may take before it counts as hanging.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// `delve ARGS` in the repository, stdin empty and stderr piped.
pub fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_delve"));
    c.args(args).current_dir(env!("CARGO_MANIFEST_DIR")).stdin(Stdio::null()).stderr(Stdio::piped());
    c
}

/// Waits for `child`, killing it and failing the test past [`DEADLINE`].
pub fn wait_within(child: &mut Child, what: &str) -> ExitStatus {
    let began = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if began.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `command` to its end under the deadline; the output's stdout is
/// empty unless piped. The outputs are a few lines, far below a pipe's
/// buffer, so reading them after the exit cannot block the child.
pub fn output_of(mut command: Command, what: &str) -> Output {
    wait_output(command.spawn().unwrap(), what)
}

/// Waits for `child` as [`output_of`] does, and gathers its output.
pub fn wait_output(mut child: Child, what: &str) -> Output {
    let status = wait_within(&mut child, what);
    let mut out = Output { status, stdout: Vec::new(), stderr: Vec::new() };
    if let Some(mut s) = child.stdout.take() {
        s.read_to_end(&mut out.stdout).unwrap();
    }
    child.stderr.take().unwrap().read_to_end(&mut out.stderr).unwrap();
    out
}

/// Runs delve with stdout to `stdout`, under the deadline.
pub fn run_with(args: &[&str], stdout: Stdio) -> Output {
    let mut c = command(args);
    c.stdout(stdout);
    output_of(c, &format!("{args:?}"))
}

/// Runs delve with stdout piped, under the deadline.
pub fn run(args: &[&str]) -> Output {
    run_with(args, Stdio::piped())
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}
