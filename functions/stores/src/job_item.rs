//! What the two job stores share: how a job item's per-node counters are kept apart from the
//! rest of the job, and the event timestamp format.
//!
//! Both SQLite and DynamoDB store a job as a JSON document plus separate numeric counters that
//! `put_mapping` bumps atomically (see the invariants on [`plan2code_core::ports::JobStore`]).
//! [`JobCounters::apply`] folds the counters back into the [`Job`] that callers see.

use plan2code_core::contracts::Job;
use plan2code_core::ports::MappingTally;

/// The counters `put_mapping` owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JobCounters {
    pub tally: MappingTally,
    pub stages_mapped: u64,
}

impl JobCounters {
    /// The job as callers see it: the stored document with the live counters folded in.
    pub fn apply(self, mut job: Job) -> Job {
        let stats = &mut job.statistics;
        stats.mapped_nodes = self.tally.mapped;
        stats.confirmed_mappings = self.tally.confirmed;
        stats.probable_mappings = self.tally.probable;
        stats.unmapped_nodes = self.tally.unmapped;
        let progress = &mut job.progress;
        progress.stages_mapped = u32::try_from(self.stages_mapped).unwrap_or(u32::MAX);
        progress.percentage = if progress.total_stages == 0 {
            0.0
        } else {
            (f64::from(progress.stages_mapped) * 100.0 / f64::from(progress.total_stages))
                .min(100.0)
        };
        job
    }
}

/// Sort key of an event: zero-padded so lexical order is numeric order (`EVENT#00000000000000000042`).
pub fn event_sort_key(seq: u64) -> String {
    format!("EVENT#{seq:020}")
}

/// Current time as RFC 3339 UTC with millisecond precision (`2026-11-22T03:55:00.123Z`).
pub fn rfc3339_now() -> String {
    let since_epoch = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    rfc3339(since_epoch.as_secs(), since_epoch.subsec_millis())
}

/// Unix seconds now.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn rfc3339(secs: u64, millis: u32) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(rfc3339(1_795_319_700, 123), "2026-11-22T03:55:00.123Z");
    }

    #[test]
    fn event_keys_sort_numerically() {
        assert!(event_sort_key(9) < event_sort_key(10));
        assert_eq!(event_sort_key(42), "EVENT#00000000000000000042");
    }
}
