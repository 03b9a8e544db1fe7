//! What the two job stores share: how a job item's per-node counters are kept apart from the
//! rest of the job, and the sort key of events. (Event timestamps come from
//! [`plan2code_core::clock`].)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_keys_sort_numerically() {
        assert!(event_sort_key(9) < event_sort_key(10));
        assert_eq!(event_sort_key(42), "EVENT#00000000000000000042");
    }
}
