//! Raw timings and what is read from them: median, 99th percentile and mean.

use std::time::{Duration, Instant};

/// A summary of timed runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// How many runs.
    pub runs: usize,
    /// The median.
    pub median: Duration,
    /// The 99th percentile (nearest rank).
    pub p99: Duration,
    /// The mean.
    pub mean: Duration,
}

impl Stats {
    /// The summary of raw timings.
    ///
    /// # Panics
    ///
    /// When there are none.
    pub fn of(mut timings: Vec<Duration>) -> Self {
        assert!(!timings.is_empty(), "no timings to summarize");
        timings.sort_unstable();
        let rank = |q: f64| {
            let i = (q * timings.len() as f64).ceil() as usize;
            timings[i.clamp(1, timings.len()) - 1]
        };
        let total: Duration = timings.iter().sum();
        Self {
            runs: timings.len(),
            median: rank(0.5),
            p99: rank(0.99),
            mean: total / u32::try_from(timings.len()).unwrap_or(u32::MAX),
        }
    }
}

/// Times `runs` runs of `f` one by one, after `runs / 10` untimed runs to warm caches.
pub fn sample<T>(runs: usize, f: impl FnMut() -> T) -> Stats {
    Stats::of(timings(runs, f))
}

/// The raw timings of `runs` runs of `f` (at least one), after `runs / 10` untimed runs.
pub fn timings<T>(runs: usize, mut f: impl FnMut() -> T) -> Vec<Duration> {
    for _ in 0..runs / 10 {
        std::hint::black_box(f());
    }
    (0..runs.max(1))
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(f());
            started.elapsed()
        })
        .collect()
}

/// The raw timings of `runs` runs of `f` (at least one), each given a fresh input made by
/// `setup`, which is not timed (dropping the input and the result is); after `runs / 10` untimed runs.
pub fn timings_with<I, T>(
    runs: usize,
    mut setup: impl FnMut() -> I,
    mut f: impl FnMut(I) -> T,
) -> Vec<Duration> {
    for _ in 0..runs / 10 {
        std::hint::black_box(f(setup()));
    }
    (0..runs.max(1))
        .map(|_| {
            let input = setup();
            let started = Instant::now();
            // The input and what the run returns are dropped inside the timing.
            std::hint::black_box(f(input));
            started.elapsed()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_read_by_nearest_rank() {
        let timings = (1..=100).map(Duration::from_micros).collect();
        let stats = Stats::of(timings);
        assert_eq!(stats.median, Duration::from_micros(50));
        assert_eq!(stats.p99, Duration::from_micros(99));
        assert_eq!(stats.runs, 100);
    }
}
