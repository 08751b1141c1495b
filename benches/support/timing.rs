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

/// CPU time (user + system) this thread has used so far, in seconds, from
/// /proc (10 ms resolution: time work of a second or more, or repeat it);
/// `None` where /proc is not Linux's.
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // The fields after the command's closing parenthesis; utime and stime
    // are the 14th and 15th of the line, in clock ticks of 1/100 s.
    let rest = &stat[stat.rfind(')')? + 2..];
    let mut fields = rest.split_whitespace().skip(11);
    let (user, system): (f64, f64) = (fields.next()?.parse().ok()?, fields.next()?.parse().ok()?);
    Some((user + system) / 100.0)
}

/// Runs `work`, returning its result, its wall time and its CPU time in
/// seconds (CPU time 0 where it cannot be read).
pub fn clocked<T>(work: impl FnOnce() -> T) -> (T, f64, f64) {
    let (wall, cpu) = (std::time::Instant::now(), cpu_seconds());
    let out = std::hint::black_box(work());
    let spent = cpu.zip(cpu_seconds()).map_or(0.0, |(a, b)| b - a);
    (out, wall.elapsed().as_secs_f64(), spent)
}
