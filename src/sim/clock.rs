//! CPU time beside wall time, so that waiting for a core on a busy machine
//! is never mistaken for work: the process's CPU clock, the calling
//! thread's, and each thread's of the rayon pool the crowd runs on.
//!
//! Observation only, like every timing: nothing the simulation decides
//! reads a clock. On a platform without these clocks (not Unix) every
//! reading is `None`, and the figures built on them read as unknown.

use std::time::Instant;

/// Seconds of CPU the whole process has used so far, all threads.
pub fn process_cpu() -> Option<f64> {
    cpu_clock(Clock::Process)
}

/// Seconds of CPU the calling thread has used so far.
pub fn thread_cpu() -> Option<f64> {
    cpu_clock(Clock::Thread)
}

/// Seconds of CPU each thread of the current rayon pool (the one the
/// crowd's systems run on) has used so far, in the pool's thread order.
/// It wakes every thread of the pool: read it now and then, not per tick.
pub fn pool_cpu() -> Vec<Option<f64>> {
    rayon::broadcast(|_| thread_cpu())
}

#[derive(Clone, Copy)]
enum Clock {
    Process,
    Thread,
}

#[cfg(unix)]
fn cpu_clock(clock: Clock) -> Option<f64> {
    let id = match clock {
        Clock::Process => libc::CLOCK_PROCESS_CPUTIME_ID,
        Clock::Thread => libc::CLOCK_THREAD_CPUTIME_ID,
    };
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec for the call's duration,
    // and the clock ids are the platform's own constants.
    let ok = unsafe { libc::clock_gettime(id, &mut t) } == 0;
    ok.then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

#[cfg(not(unix))]
fn cpu_clock(_: Clock) -> Option<f64> {
    None
}

/// A span being timed: wall time and the process's CPU time since it
/// began.
#[derive(Clone, Copy, Debug)]
pub struct Span {
    wall: Instant,
    cpu: Option<f64>,
}

impl Span {
    /// Starts timing now.
    pub fn start() -> Span {
        Span { wall: Instant::now(), cpu: process_cpu() }
    }

    /// Microseconds of wall time and of the process's CPU time since the
    /// start (CPU `None` without the clock).
    pub fn micros(&self) -> (f64, Option<f64>) {
        let cpu = match (self.cpu, process_cpu()) {
            (Some(a), Some(b)) => Some((b - a).max(0.0) * 1e6),
            _ => None,
        };
        (self.wall.elapsed().as_secs_f64() * 1e6, cpu)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn cpu_clocks_count_work_and_not_sleep() {
        let (Some(p0), Some(t0)) = (process_cpu(), thread_cpu()) else {
            panic!("a Unix platform has both clocks");
        };
        let span = Span::start();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let (wall, cpu) = span.micros();
        let (p1, t1) = (process_cpu().unwrap(), thread_cpu().unwrap());
        assert!(t1 > t0 && p1 >= p0 && p1 - p0 >= t1 - t0 - 1e-3, "{p0} {p1} {t0} {t1}");
        assert!(wall >= 30_000.0, "the sleep is wall time: {wall}");
        // The sleep is not CPU time: the loop's CPU is less than the wall
        // time by about the sleep (other test threads may add CPU time).
        assert!(cpu.is_some_and(|c| c > 0.0), "{cpu:?}");
        assert!(t1 - t0 < wall * 1e-6 - 0.02, "thread CPU {} s of a {} µs span with a 30 ms sleep", t1 - t0, wall);
        assert_eq!(pool_cpu().len(), rayon::current_num_threads());
    }
}
