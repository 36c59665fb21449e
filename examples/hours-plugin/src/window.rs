//! Working hours: a daily window of whole hours, in a fixed offset from UTC.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::Deserialize;

/// The hours in which network tools are allowed: from `start_hour` (inclusive) to `end_hour`
/// (exclusive), at `utc_offset_minutes` from UTC. A window may wrap past midnight
/// (`start_hour = 22, end_hour = 6`); `0` to `24` is always open and equal hours never are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct WorkingHours {
    /// The first working hour (0–23).
    pub start_hour: u8,
    /// The hour work ends (1–24).
    pub end_hour: u8,
    /// The offset of local time from UTC, in minutes.
    pub utc_offset_minutes: i32,
}

impl Default for WorkingHours {
    fn default() -> Self {
        Self {
            start_hour: 9,
            end_hour: 18,
            utc_offset_minutes: 0,
        }
    }
}

impl WorkingHours {
    /// Checks the hours and the offset.
    ///
    /// # Errors
    ///
    /// A message naming the offending key.
    pub fn validate(&self) -> Result<(), String> {
        if self.start_hour > 23 {
            return Err(format!(
                "start_hour {} is not an hour (0-23)",
                self.start_hour
            ));
        }
        if self.end_hour > 24 {
            return Err(format!("end_hour {} is not an hour (0-24)", self.end_hour));
        }
        if self.utc_offset_minutes.abs() > 14 * 60 {
            return Err(format!(
                "utc_offset_minutes {} is beyond ±14 hours",
                self.utc_offset_minutes
            ));
        }
        Ok(())
    }

    /// Whether the local hour `hour` (0–23) is a working hour.
    pub fn contains(&self, hour: u8) -> bool {
        let (start, end) = (self.start_hour, self.end_hour);
        if start <= end {
            (start..end).contains(&hour)
        } else {
            hour >= start || hour < end
        }
    }

    /// Whether now is a working hour.
    pub fn contains_now(&self) -> bool {
        let utc = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let local = i64::try_from(utc).unwrap_or(0) + i64::from(self.utc_offset_minutes) * 60;
        let hour = local.rem_euclid(86_400) / 3_600;
        self.contains(u8::try_from(hour).unwrap_or(0))
    }
}

impl std::fmt::Display for WorkingHours {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let minutes = self.utc_offset_minutes.abs();
        let sign = if self.utc_offset_minutes < 0 {
            '-'
        } else {
            '+'
        };
        write!(
            f,
            "{:02}:00-{:02}:00 UTC{sign}{:02}:{:02}",
            self.start_hour,
            self.end_hour,
            minutes / 60,
            minutes % 60
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hours(start_hour: u8, end_hour: u8) -> WorkingHours {
        WorkingHours {
            start_hour,
            end_hour,
            utc_offset_minutes: 0,
        }
    }

    #[test]
    fn a_day_window_holds_its_start_and_not_its_end() {
        assert!(hours(9, 18).contains(9) && hours(9, 18).contains(17));
        assert!(!hours(9, 18).contains(18) && !hours(9, 18).contains(8));
    }

    #[test]
    fn a_night_window_wraps_past_midnight() {
        assert!(hours(22, 6).contains(23) && hours(22, 6).contains(2));
        assert!(!hours(22, 6).contains(12));
    }

    #[test]
    fn zero_to_twenty_four_is_always_open_and_equal_hours_never_are() {
        assert!((0..24).all(|h| hours(0, 24).contains(h)));
        assert!((0..24).all(|h| !hours(5, 5).contains(h)));
    }

    #[test]
    fn hours_print_with_their_offset() {
        let h = WorkingHours {
            utc_offset_minutes: -330,
            ..hours(9, 18)
        };
        assert_eq!(h.to_string(), "09:00-18:00 UTC-05:30");
    }
}
