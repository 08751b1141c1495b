//! `--threads N`: how many threads the crowd's systems run on.

use super::CliError;
use super::options::whole_number;

/// Most threads `--threads` takes.
pub const MAX_THREADS: usize = 256;

/// The thread count of `delve play`, `sim` and `replay`. It is not part of
/// the session: the world, its hash and every recording are the same for
/// any count, which only changes how fast the ticks go.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ThreadsArgs {
    /// Threads the crowd's sensing and steering run on, from 1 to 256
    /// (default: the available cores); the session is the same for any number
    #[arg(long, value_name = "N", value_parser = whole_number::<usize>(1, MAX_THREADS as u64), allow_negative_numbers = true)]
    pub threads: Option<usize>,
}

impl ThreadsArgs {
    /// Sets up the process's thread pool with this many threads (rayon's
    /// global pool; by default one per available core). A pool already set
    /// up (a second command in the same process) is kept: the count
    /// changes no answer.
    pub fn install(&self) -> Result<(), CliError> {
        let mut pool = rayon::ThreadPoolBuilder::new().thread_name(|i| format!("delve-crowd-{i}"));
        if let Some(n) = self.threads {
            pool = pool.num_threads(n);
        }
        match pool.build_global() {
            // The system refused a thread.
            Err(e) if std::error::Error::source(&e).is_some() => {
                Err(CliError::Usage(format!("cannot start the crowd's threads: {e}")))
            }
            // Already set up: the pool in place serves.
            Ok(()) | Err(_) => Ok(()),
        }
    }
}
