//! Small timing helpers shared by the benchmarks (each bench uses only
//! some of them).
#![allow(dead_code)]

/// The median of `samples` (sorts them); 0 for none.
pub fn median(samples: &mut [f64]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.sort_by(f64::total_cmp);
    let n = samples.len();
    if n % 2 == 1 { samples[n / 2] } else { (samples[n / 2 - 1] + samples[n / 2]) / 2.0 }
}

/// The arithmetic mean of `samples`; 0 for none.
pub fn mean(samples: &[f64]) -> f64 {
    if samples.is_empty() { 0.0 } else { samples.iter().sum::<f64>() / samples.len() as f64 }
}

/// Times `run` once, in µs, appending to `times`.
pub fn timed<T>(times: &mut Vec<f64>, run: impl FnOnce() -> T) -> T {
    let t = std::time::Instant::now();
    let out = std::hint::black_box(run());
    times.push(t.elapsed().as_secs_f64() * 1e6);
    out
}

/// CPU time this thread has used, in µs: the first field of Linux's
/// `/proc/thread-self/schedstat` (nanoseconds on the CPU). `None` where
/// there is no such file. Unlike wall time, it leaves out the time other
/// processes had the core, so it is the figure to quote on a loaded machine.
pub fn thread_cpu_micros() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos / 1e3)
}

/// Times `run` once, in µs of wall time and (where it can be read) of this
/// thread's CPU time, appending to `wall` and `cpu`.
pub fn timed_with_cpu<T>(wall: &mut Vec<f64>, cpu: &mut Vec<f64>, run: impl FnOnce() -> T) -> T {
    let cpu_before = thread_cpu_micros();
    let out = timed(wall, run);
    if let (Some(before), Some(after)) = (cpu_before, thread_cpu_micros()) {
        cpu.push(after - before);
    }
    out
}

/// Runs `work`, returning its result, its wall time and this thread's CPU
/// time, both in seconds (CPU time 0 where it cannot be read).
pub fn clocked<T>(work: impl FnOnce() -> T) -> (T, f64, f64) {
    let (wall, cpu) = (std::time::Instant::now(), thread_cpu_micros());
    let out = std::hint::black_box(work());
    let spent = cpu.zip(thread_cpu_micros()).map_or(0.0, |(a, b)| (b - a) / 1e6);
    (out, wall.elapsed().as_secs_f64(), spent)
}
