//! The clock, in the two forms the project stores: unix seconds (cache expiry, TTLs) and RFC 3339
//! UTC timestamps with milliseconds (events). One place, so every store and entry point agrees.

use std::time::{SystemTime, UNIX_EPOCH};
use time::OffsetDateTime;
use time::macros::format_description;

/// Unix seconds now.
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Now as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn rfc3339_now() -> String {
    rfc3339(OffsetDateTime::now_utc())
}

/// An instant as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, milliseconds).
pub fn rfc3339(instant: OffsetDateTime) -> String {
    let format =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    instant
        .to_offset(time::UtcOffset::UTC)
        .format(&format)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64, millis: i64) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp_nanos(i128::from(secs * 1_000 + millis) * 1_000_000)
            .unwrap()
    }

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(at(0, 0)), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(at(951_782_400, 5)), "2000-02-29T00:00:00.005Z");
        assert_eq!(rfc3339(at(1_795_319_700, 123)), "2026-11-22T03:55:00.123Z");
    }

    #[test]
    fn now_is_after_the_project_began() {
        assert!(unix_now() > 1_795_000_000);
        assert!(rfc3339_now().ends_with('Z'));
    }
}
