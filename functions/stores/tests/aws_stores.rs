//! The shared store suite against DynamoDB + S3 on a local emulator (moto's server).
//!
//! `scripts/test` starts the emulator and sets `PLAN2CODE_MOTO_ENDPOINT` and
//! `PLAN2CODE_REQUIRE_EMULATOR=1`. A plain `cargo nextest run` without the endpoint skips these
//! tests with a message; with `PLAN2CODE_REQUIRE_EMULATOR=1` a missing endpoint fails them.
#![cfg(feature = "aws")]

mod suite;

use plan2code_stores::aws::{AwsBridge, DynamoJobStore, Emulator, S3BlobStore};
use std::sync::{Arc, OnceLock};

pub const ENDPOINT_VAR: &str = "PLAN2CODE_MOTO_ENDPOINT";
pub const REQUIRE_VAR: &str = "PLAN2CODE_REQUIRE_EMULATOR";

struct AwsStores {
    jobs: DynamoJobStore,
    blobs: S3BlobStore,
    _bridge: Arc<AwsBridge>,
}

fn stores() -> Option<&'static AwsStores> {
    static STORES: OnceLock<Option<AwsStores>> = OnceLock::new();
    STORES
        .get_or_init(|| {
            let Ok(endpoint) = std::env::var(ENDPOINT_VAR) else {
                assert!(
                    std::env::var(REQUIRE_VAR).as_deref() != Ok("1"),
                    "{ENDPOINT_VAR} is not set but {REQUIRE_VAR}=1: the emulator suite must run"
                );
                eprintln!("skipping the DynamoDB/S3 store suite: {ENDPOINT_VAR} is not set (scripts/test sets it)");
                return None;
            };
            let bridge = AwsBridge::new().unwrap();
            let emulator = Emulator { endpoint, region: "us-east-1".into() };
            let config = bridge.sdk_config(Some(&emulator)).unwrap();
            let jobs = DynamoJobStore::new(bridge.clone(), &config, "plan2code-test");
            jobs.create_table_if_missing().unwrap();
            let blobs = S3BlobStore::new(bridge.clone(), &config, "plan2code-test", true);
            blobs.create_bucket_if_missing().unwrap();
            Some(AwsStores { jobs, blobs, _bridge: bridge })
        })
        .as_ref()
}

store_suite!(stores().map(|s| &s.jobs), stores().map(|s| &s.blobs));

/// The bridge must not panic when a port is called from inside a tokio runtime (a Lambda
/// adapter calls core code from `spawn_blocking`, but a direct call must be safe too).
#[test]
fn ports_are_callable_from_inside_a_tokio_runtime() {
    let Some(stores) = stores() else { return };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let id = suite::fresh_id("in-tokio");
    runtime.block_on(async {
        plan2code_core::ports::JobStore::create_job(&stores.jobs, &suite::job(&id, 1), "alice")
            .unwrap();
        let job = tokio::task::spawn_blocking(move || {
            plan2code_core::ports::JobStore::get_job(&stores.jobs, &id)
        })
        .await
        .unwrap()
        .unwrap();
        assert_eq!(job.map(|j| j.progress.total_stages), Some(1));
    });
}
