//! The one store test suite, run against every implementation pair (SQLite + directory,
//! DynamoDB + S3 on the emulator). Each check is a function over the ports; `store_suite!`
//! turns them into one `#[test]` per check for a given factory.

use plan2code_core::contracts::{
    CodeLocation, ConfidenceFactors, ConfidenceStatus, EventType, Job, JobStatus, MappingOutput,
    NodeKind, Progress, RepoConfig, Statistics,
};
use plan2code_core::ports::{BlobStore, JobStore, RepoIndexRecord, StoreError};
use serde_json::json;

/// A job id unique within a test process, so suites can share one emulator table.
pub fn fresh_id(label: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{label}-{nanos}-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

pub fn job(id: &str, total_stages: u32) -> Job {
    Job {
        executions: Vec::new(),
        id: id.to_owned(),
        status: JobStatus::Queued,
        repo_config: RepoConfig {
            url: "file:///tmp/repo".into(),
            branch: Some("main".into()),
            commit: None,
        },
        progress: Progress {
            current_phase: "queued".into(),
            total_stages,
            stages_mapped: 0,
            percentage: 0.0,
        },
        result: None,
        statistics: Statistics {
            total_nodes: u64::from(total_stages),
            ..Statistics::default()
        },
        error: None,
    }
}

pub fn mapping(node: &str, status: ConfidenceStatus, mapped: bool) -> MappingOutput {
    MappingOutput {
        execution_id: None,
        dag_node_id: node.to_owned(),
        node_name: "HashAggregate".into(),
        node_kind: NodeKind::Code,
        mapped_code: mapped.then(|| CodeLocation {
            file: "jobs/etl.py".into(),
            symbol: Some("build".into()),
            lines: "10-12".into(),
            code_snippet: "df.groupBy('a').agg(sum('b'))".into(),
        }),
        confidence: 0.8,
        confidence_status: status,
        confidence_factors: ConfidenceFactors::default(),
        explanation: "groupBy matches".into(),
        alternatives: vec![],
        error: None,
    }
}

pub fn job_create_get_put(store: &dyn JobStore) {
    let id = fresh_id("crud");
    assert_eq!(store.get_job(&id).unwrap(), None);
    let mut j = job(&id, 4);
    store.create_job(&j, "alice").unwrap();
    assert_eq!(store.get_job(&id).unwrap(), Some(j.clone()));
    store.set_job_status(&id, JobStatus::Running, None).unwrap();
    j.status = JobStatus::Running;
    // a pause lands while a task holds its copy of the running job ...
    store.set_job_status(&id, JobStatus::Paused, None).unwrap();
    j.progress.current_phase = "mapping".into();
    store.put_job(&j).unwrap();
    // ... and the task's write keeps it: put_job changes everything but the status
    let got = store.get_job(&id).unwrap().unwrap();
    assert_eq!(got.status, JobStatus::Paused);
    assert_eq!(got.progress.current_phase, "mapping");
    store.set_job_status(&id, JobStatus::Running, None).unwrap();
    assert_eq!(
        store.get_job(&id).unwrap().unwrap().status,
        JobStatus::Running
    );
    assert!(matches!(
        store.set_job_status("no-such-job", JobStatus::Paused, None),
        Err(StoreError::NotFound(_))
    ));
}

pub fn create_conflict_and_owner(store: &dyn JobStore) {
    let id = fresh_id("conflict");
    store.create_job(&job(&id, 1), "alice").unwrap();
    let again = store.create_job(&job(&id, 9), "mallory");
    assert!(matches!(again, Err(StoreError::Conflict(_))), "{again:?}");
    assert_eq!(store.job_owner(&id).unwrap().as_deref(), Some("alice"));
    assert_eq!(
        store.get_job(&id).unwrap().unwrap().progress.total_stages,
        1
    );
    assert_eq!(store.job_owner(&fresh_id("nobody")).unwrap(), None);
}

pub fn jobs_are_listed_per_owner_newest_first(store: &dyn JobStore) {
    // owners unique to this run: suites share one emulator table
    let (owner, other) = (fresh_id("lister"), fresh_id("other"));
    let ids: Vec<String> = (0..3).map(|_| fresh_id("listed")).collect();
    for id in &ids {
        store.create_job(&job(id, 1), &owner).unwrap();
    }
    store
        .create_job(&job(&fresh_id("listed"), 1), &other)
        .unwrap();
    let newest_first: Vec<String> = ids.iter().rev().cloned().collect();
    assert_eq!(store.jobs_of(&owner, 10).unwrap(), newest_first);
    assert_eq!(store.jobs_of(&owner, 2).unwrap(), newest_first[..2]);
    assert!(store.jobs_of(&fresh_id("nobody"), 10).unwrap().is_empty());
}

pub fn terminal_jobs_never_change(store: &dyn JobStore) {
    let id = fresh_id("terminal");
    store.create_job(&job(&id, 1), "alice").unwrap();
    store
        .set_job_status(&id, JobStatus::Cancelled, Some("cancelled by alice"))
        .unwrap();
    let late_complete = store.set_job_status(&id, JobStatus::Completed, None);
    assert!(
        matches!(late_complete, Err(StoreError::Conflict(_))),
        "{late_complete:?}"
    );
    let mut revived = job(&id, 1);
    revived.status = JobStatus::Running;
    assert!(matches!(
        store.put_job(&revived),
        Err(StoreError::Conflict(_))
    ));
    let got = store.get_job(&id).unwrap().unwrap();
    assert_eq!(got.status, JobStatus::Cancelled);
    assert_eq!(got.error.as_deref(), Some("cancelled by alice"));
}

pub fn unfinished_jobs_are_the_live_ones(store: &dyn JobStore) {
    let ids: Vec<String> = ["queued", "running", "paused", "done", "cancelled"]
        .iter()
        .map(|label| fresh_id(label))
        .collect();
    for id in &ids {
        store.create_job(&job(id, 1), "alice").unwrap();
    }
    store
        .set_job_status(&ids[1], JobStatus::Running, None)
        .unwrap();
    store
        .set_job_status(&ids[2], JobStatus::Paused, None)
        .unwrap();
    store
        .set_job_status(&ids[3], JobStatus::Completed, None)
        .unwrap();
    store
        .set_job_status(&ids[4], JobStatus::Cancelled, None)
        .unwrap();
    // Other tests may share the store: look only at this test's jobs.
    let unfinished: Vec<String> = store
        .unfinished_jobs()
        .unwrap()
        .into_iter()
        .filter(|id| ids.contains(id))
        .collect();
    let mut expected = ids[..3].to_vec();
    expected.sort();
    assert_eq!(unfinished, expected);
}

pub fn put_mapping_is_idempotent_and_counts_once(store: &dyn JobStore) {
    let id = fresh_id("mapping");
    store.create_job(&job(&id, 4), "alice").unwrap();
    let confirmed = mapping("3", ConfidenceStatus::Confirmed, true);
    assert!(store.put_mapping(&id, &confirmed).unwrap());
    let mut retried = confirmed.clone();
    retried.explanation = "a retry must not overwrite".into();
    assert!(!store.put_mapping(&id, &retried).unwrap());
    assert!(
        store
            .put_mapping(&id, &mapping("1", ConfidenceStatus::Probable, true))
            .unwrap()
    );
    let mut failed = mapping("2", ConfidenceStatus::Uncertain, false);
    failed.error = Some("PARSE_ERROR: bad node".into());
    assert!(store.put_mapping(&id, &failed).unwrap());
    assert!(!store.put_mapping(&id, &failed).unwrap());

    // put_job after the counts must not reset them.
    let mut j = job(&id, 4);
    j.status = JobStatus::Running;
    store.put_job(&j).unwrap();

    let got = store.get_job(&id).unwrap().unwrap();
    assert_eq!(got.statistics.mapped_nodes, 2);
    assert_eq!(got.statistics.confirmed_mappings, 1);
    assert_eq!(got.statistics.probable_mappings, 1);
    assert_eq!(got.statistics.unmapped_nodes, 1);
    assert_eq!(got.progress.stages_mapped, 3);
    assert!((got.progress.percentage - 75.0).abs() < 1e-9);

    assert_eq!(store.get_mapping(&id, "3").unwrap(), Some(confirmed));
    assert_eq!(store.get_mapping(&id, "4").unwrap(), None);
    let ids: Vec<String> = store
        .mappings(&id)
        .unwrap()
        .into_iter()
        .map(|m| m.dag_node_id)
        .collect();
    assert_eq!(ids, ["1", "2", "3"]);
}

pub fn an_announced_mapping_is_written_and_announced_once(store: &dyn JobStore) {
    let id = fresh_id("announced");
    store.create_job(&job(&id, 2), "alice").unwrap();
    let started = store
        .append_event(&id, EventType::JobStarted, json!({}))
        .unwrap();
    let first = mapping("1", ConfidenceStatus::Confirmed, true);
    let announced = store
        .put_mapping_announced(&id, &first, EventType::MappingFinalized, json!({"n": 1}))
        .unwrap()
        .expect("a new mapping is announced");
    assert_eq!(announced.seq, started.seq + 1);
    // a retry: nothing written, nothing announced, nothing counted
    let mut retried = first.clone();
    retried.explanation = "a retry must not overwrite".into();
    assert_eq!(
        store
            .put_mapping_announced(&id, &retried, EventType::MappingFinalized, json!({"n": 2}))
            .unwrap(),
        None
    );
    let events = store.events_after(&id, 0, 100).unwrap();
    assert_eq!(
        events.iter().map(|e| e.event_type).collect::<Vec<_>>(),
        [EventType::JobStarted, EventType::MappingFinalized]
    );
    assert_eq!(events[1].data, json!({"n": 1}));
    let got = store.get_job(&id).unwrap().unwrap();
    assert_eq!(got.statistics.mapped_nodes, 1);
    assert_eq!(got.progress.stages_mapped, 1);
    assert_eq!(store.get_mapping(&id, "1").unwrap(), Some(first));
    // the next plain event follows the announcement
    let next = store
        .append_event(&id, EventType::JobCompleted, json!({}))
        .unwrap();
    assert_eq!(next.seq, announced.seq + 1);
}

pub fn events_are_ordered_and_replayable(store: &dyn JobStore) {
    let id = fresh_id("events");
    store.create_job(&job(&id, 1), "alice").unwrap();
    for i in 0..12u64 {
        let event = store
            .append_event(&id, EventType::StageProgress, json!({ "i": i }))
            .unwrap();
        assert_eq!(event.seq, i + 1);
        assert!(event.timestamp.ends_with('Z'), "{}", event.timestamp);
    }
    let all = store.events_after(&id, 0, 100).unwrap();
    assert_eq!(
        all.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=12).collect::<Vec<_>>()
    );
    assert_eq!(all[9].data, json!({ "i": 9 }));
    let page = store.events_after(&id, 9, 2).unwrap();
    assert_eq!(page.iter().map(|e| e.seq).collect::<Vec<_>>(), [10, 11]);
    assert!(store.events_after(&id, 12, 10).unwrap().is_empty());
    assert!(matches!(
        store.append_event(&fresh_id("ghost"), EventType::Error, json!({})),
        Err(StoreError::NotFound(_))
    ));
}

pub fn concurrent_events_get_distinct_seqs(store: &(dyn JobStore + Sync)) {
    let id = fresh_id("concurrent");
    store.create_job(&job(&id, 1), "alice").unwrap();
    std::thread::scope(|s| {
        for t in 0..4 {
            let id = &id;
            s.spawn(move || {
                for i in 0..5 {
                    store
                        .append_event(id, EventType::StageProgress, json!({ "t": t, "i": i }))
                        .unwrap();
                }
            });
        }
    });
    let seqs: Vec<u64> = store
        .events_after(&id, 0, 100)
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(seqs, (1..=20).collect::<Vec<_>>());
}

pub fn tokens_park_and_take(store: &dyn JobStore) {
    let id = fresh_id("tokens");
    store.create_job(&job(&id, 2), "alice").unwrap();
    store.park_token(&id, "7", "token-7a").unwrap();
    store.park_token(&id, "7", "token-7b").unwrap();
    store.park_token(&id, "2", "token-2").unwrap();
    let mut taken = store.take_tokens(&id).unwrap();
    taken.sort();
    assert_eq!(
        taken,
        [
            ("2".to_owned(), "token-2".to_owned()),
            ("7".to_owned(), "token-7b".to_owned())
        ]
    );
    assert!(store.take_tokens(&id).unwrap().is_empty());
}

pub fn checkpoints_round_trip(store: &dyn JobStore) {
    let id = fresh_id("ckpt");
    store.create_job(&job(&id, 2), "alice").unwrap();
    store
        .put_checkpoint(&id, "top", &json!({ "state": "A" }))
        .unwrap();
    store
        .put_checkpoint(&id, "top", &json!({ "state": "B" }))
        .unwrap();
    store
        .put_checkpoint(&id, "map/MapDagNodes/1", &json!({ "ok": 1 }))
        .unwrap();
    assert_eq!(
        store.checkpoints(&id).unwrap(),
        [
            ("map/MapDagNodes/1".to_owned(), json!({ "ok": 1 })),
            ("top".to_owned(), json!({ "state": "B" }))
        ]
    );
}

pub fn repo_index_expires(store: &dyn JobStore) {
    // Realistic times: DynamoDB (and moto) delete items whose TTL has long passed.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let key = fresh_id("repo");
    let record = RepoIndexRecord {
        cache_key: key.clone(),
        commit: Some("abc123".into()),
        index_key: format!("index/{key}/index.json"),
        expires_at: now + 3_600,
    };
    store.put_repo_index(&record).unwrap();
    assert_eq!(
        store.get_repo_index(&key, now).unwrap(),
        Some(record.clone())
    );
    assert_eq!(store.get_repo_index(&key, now + 3_600).unwrap(), None);
    assert_eq!(store.get_repo_index(&fresh_id("other"), now).unwrap(), None);
    let renewed = RepoIndexRecord {
        expires_at: now + 7_200,
        ..record
    };
    store.put_repo_index(&renewed).unwrap();
    assert_eq!(
        store.get_repo_index(&key, now + 3_600).unwrap(),
        Some(renewed)
    );
}

pub fn blobs_round_trip(blobs: &dyn BlobStore) {
    let key = format!("jobs/{}/plan.json", fresh_id("blob"));
    assert_eq!(blobs.get(&key).unwrap(), None);
    blobs.put(&key, b"{\"nodes\":[]}").unwrap();
    blobs.put(&key, b"{\"nodes\":[1]}").unwrap();
    assert_eq!(
        blobs.get(&key).unwrap().as_deref(),
        Some(&b"{\"nodes\":[1]}"[..])
    );
    let big = vec![7u8; 3 * 1024 * 1024];
    let big_key = format!("index/{}/index.json", fresh_id("big"));
    blobs.put(&big_key, &big).unwrap();
    assert_eq!(
        blobs.get(&big_key).unwrap().map(|b| b.len()),
        Some(big.len())
    );
    blobs.delete(&key).unwrap();
    blobs.delete(&key).unwrap();
    assert_eq!(blobs.get(&key).unwrap(), None);
    // several at once, an absent one among them; a key not named stays
    let node = fresh_id("node");
    let keys: Vec<String> = ["semantics", "candidates", "absent"]
        .iter()
        .map(|what| format!("jobs/{node}/{what}.json"))
        .collect();
    blobs.put(&keys[0], b"1").unwrap();
    blobs.put(&keys[1], b"2").unwrap();
    let kept = format!("jobs/{node}/mapping.json");
    blobs.put(&kept, b"3").unwrap();
    blobs.delete_all(&keys).unwrap();
    assert_eq!(blobs.get(&keys[0]).unwrap(), None);
    assert_eq!(blobs.get(&keys[1]).unwrap(), None);
    assert_eq!(blobs.get(&kept).unwrap().as_deref(), Some(&b"3"[..]));
}

/// One `#[test]` per check. `$jobs` / `$blobs` are expressions returning `Option<impl Deref<Target
/// = dyn …>>`-like values; `None` means the backend is unavailable and the suite is skipped.
#[macro_export]
macro_rules! store_suite {
    ($jobs:expr, $blobs:expr) => {
        #[test]
        fn job_create_get_put() {
            if let Some(s) = $jobs {
                suite::job_create_get_put(&*s)
            }
        }
        #[test]
        fn create_conflict_and_owner() {
            if let Some(s) = $jobs {
                suite::create_conflict_and_owner(&*s)
            }
        }
        #[test]
        fn jobs_are_listed_per_owner_newest_first() {
            if let Some(s) = $jobs {
                suite::jobs_are_listed_per_owner_newest_first(&*s)
            }
        }
        #[test]
        fn terminal_jobs_never_change() {
            if let Some(s) = $jobs {
                suite::terminal_jobs_never_change(&*s)
            }
        }
        #[test]
        fn unfinished_jobs_are_the_live_ones() {
            if let Some(s) = $jobs {
                suite::unfinished_jobs_are_the_live_ones(&*s)
            }
        }
        #[test]
        fn put_mapping_is_idempotent_and_counts_once() {
            if let Some(s) = $jobs {
                suite::put_mapping_is_idempotent_and_counts_once(&*s)
            }
        }
        #[test]
        fn an_announced_mapping_is_written_and_announced_once() {
            if let Some(s) = $jobs {
                suite::an_announced_mapping_is_written_and_announced_once(&*s)
            }
        }
        #[test]
        fn events_are_ordered_and_replayable() {
            if let Some(s) = $jobs {
                suite::events_are_ordered_and_replayable(&*s)
            }
        }
        #[test]
        fn concurrent_events_get_distinct_seqs() {
            if let Some(s) = $jobs {
                suite::concurrent_events_get_distinct_seqs(&*s)
            }
        }
        #[test]
        fn tokens_park_and_take() {
            if let Some(s) = $jobs {
                suite::tokens_park_and_take(&*s)
            }
        }
        #[test]
        fn checkpoints_round_trip() {
            if let Some(s) = $jobs {
                suite::checkpoints_round_trip(&*s)
            }
        }
        #[test]
        fn repo_index_expires() {
            if let Some(s) = $jobs {
                suite::repo_index_expires(&*s)
            }
        }
        #[test]
        fn blobs_round_trip() {
            if let Some(b) = $blobs {
                suite::blobs_round_trip(&*b)
            }
        }
    };
}
