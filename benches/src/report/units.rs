//! Durations, rates and ratios written for people.

use std::time::Duration;

/// A duration with three significant digits in the unit that suits it (`842 ns`, `1.31 µs`,
/// `12.4 ms`, `2.05 s`).
pub fn duration(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    let (value, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    format!("{} {unit}", significant(value))
}

/// A number with three significant digits and no exponent (`0.00123`, `12.3`, `45600`).
pub fn significant(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let digits = value.abs().log10().floor() as i32;
    let decimals = (2 - digits).max(0) as usize;
    format!("{value:.decimals$}")
}

/// A rate per second with thousands grouped (`21 400 /s`).
pub fn rate(per_second: f64) -> String {
    let rounded = per_second.round() as u64;
    let text = rounded.to_string();
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i > 0 && (text.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    format!("{out} /s")
}

/// Warrant's time over a peer's, and how many times faster that makes Warrant.
pub fn ratio(warrant: Duration, peer: Duration) -> String {
    let r = warrant.as_secs_f64() / peer.as_secs_f64();
    format!("{} ({}× faster)", significant(r), significant(1.0 / r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_the_unit_that_suits_them() {
        assert_eq!(duration(Duration::from_nanos(842)), "842 ns");
        assert_eq!(duration(Duration::from_nanos(1_314)), "1.31 µs");
        assert_eq!(duration(Duration::from_micros(12_400)), "12.4 ms");
    }

    #[test]
    fn rates_group_thousands() {
        assert_eq!(rate(21_400.4), "21 400 /s");
        assert_eq!(rate(950.0), "950 /s");
    }

    #[test]
    fn ratios_say_how_many_times_faster() {
        let r = ratio(Duration::from_micros(1), Duration::from_micros(250));
        assert_eq!(r, "0.00400 (250× faster)");
    }
}
