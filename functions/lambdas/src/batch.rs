//! Scheduled batch mapping: every job request under `s3://BUCKET/BATCH_PREFIX` (default
//! `batch/pending/`) becomes one job and one execution.
//!
//! A request object is the `POST /jobs` body without a token (`{repositoryUrl, branch?, commit?,
//! planContent, executionId?}`). Each is submitted as the caller `batch` exactly like an API
//! request, then moved to `batch/started/<jobId>.json` (or `batch/rejected/<name>` with the
//! reason), so a second run of the schedule never maps the same request twice.

use plan2code_api::{ApiState, CreateJob, submit_job};
use plan2code_core::ports::StoreError;
use serde_json::{Value, json};

/// What one run did, returned as the Lambda's result.
#[derive(Debug, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BatchReport {
    pub started: Vec<String>,
    pub rejected: Vec<Value>,
}

/// Submit every request under `keys` (blob keys below the pending prefix).
pub fn map_pending(state: &ApiState, keys: &[String]) -> Result<BatchReport, StoreError> {
    let mut report = BatchReport::default();
    for key in keys {
        let Some(bytes) = state.blobs.get(key)? else {
            continue;
        };
        let name = key.rsplit('/').next().unwrap_or(key);
        let outcome = serde_json::from_slice::<CreateJob>(&bytes)
            .map_err(|e| format!("not a job request: {e}"))
            .and_then(|mut request| {
                request.token = None;
                submit_job(state, "batch", request).map_err(|e| e.to_string())
            });
        match outcome {
            Ok(job) => {
                state
                    .blobs
                    .put(&format!("batch/started/{}.json", job.id), &bytes)?;
                report.started.push(job.id);
            }
            Err(reason) => {
                state.blobs.put(&format!("batch/rejected/{name}"), &bytes)?;
                tracing::warn!(request = %key, reason = %reason, "batch request rejected");
                report
                    .rejected
                    .push(json!({ "key": key, "reason": reason }));
            }
        }
        state.blobs.delete(key)?;
    }
    Ok(report)
}

/// The keys of the pending requests (S3 `ListObjectsV2` under `prefix`, `.json` only).
pub fn list_pending(ports: &crate::AwsPorts, prefix: &str) -> Result<Vec<String>, StoreError> {
    let client = aws_sdk_s3::Client::new(&ports.config);
    let bucket = std::env::var("BUCKET_NAME").unwrap_or_default();
    let prefix = prefix.to_owned();
    ports.bridge.run(async move {
        let mut keys = Vec::new();
        let mut pages = client
            .list_objects_v2()
            .bucket(bucket)
            .prefix(prefix)
            .into_paginator()
            .send();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|e| plan2code_stores::aws::sdk_error("ListObjectsV2", e))?;
            keys.extend(
                page.contents()
                    .iter()
                    .filter_map(|o| o.key())
                    .filter(|k| k.ends_with(".json"))
                    .map(str::to_owned),
            );
        }
        Ok(keys)
    })?
}
