//! The AWS implementations (feature `aws`): DynamoDB job store, S3 blob store, Step Functions
//! control — and the bridge that lets synchronous ports call the async AWS SDKs.
//!
//! The ports are synchronous (the core is plain functions and threads). [`AwsBridge`] owns a
//! small multi-thread tokio runtime; a port call spawns its SDK future onto that runtime and
//! waits on a std channel. Unlike `Runtime::block_on` this never panics when the caller is
//! itself inside a tokio runtime (a Lambda adapter that forgot `spawn_blocking` only blocks one
//! worker), and dropping the bridge shuts the runtime down in the background so it can be
//! dropped anywhere. One bridge is shared by every store of a process.

pub mod dynamo_job;
pub mod s3_blob;
pub mod sfn_control;

pub use dynamo_job::DynamoJobStore;
pub use s3_blob::S3BlobStore;
pub use sfn_control::{DistributedMachine, SfnControl};

use plan2code_core::ports::StoreError;
use std::future::Future;
use std::sync::Arc;

/// Runs SDK futures for synchronous callers.
#[derive(Debug)]
pub struct AwsBridge {
    runtime: Option<tokio::runtime::Runtime>,
}

impl AwsBridge {
    pub fn new() -> Result<Arc<Self>, StoreError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("plan2code-aws")
            .enable_all()
            .build()
            .map_err(|e| StoreError::Backend(format!("starting the AWS runtime: {e}")))?;
        Ok(Arc::new(Self {
            runtime: Some(runtime),
        }))
    }

    /// Run `future` to completion on the bridge's runtime and return its output.
    pub fn run<T, F>(&self, future: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: Future<Output = T> + Send + 'static,
    {
        let runtime = self
            .runtime
            .as_ref()
            .ok_or_else(|| StoreError::Backend("AWS runtime is shut down".into()))?;
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        runtime.spawn(async move {
            let _ = tx.send(future.await);
        });
        rx.recv()
            .map_err(|_| StoreError::Backend("AWS call was dropped before it finished".into()))
    }

    /// The SDK configuration: the environment's (region, credentials, `AWS_ENDPOINT_URL`), or,
    /// with `emulator`, an endpoint on a local emulator with dummy credentials.
    pub fn sdk_config(
        &self,
        emulator: Option<&Emulator>,
    ) -> Result<aws_config::SdkConfig, StoreError> {
        let emulator = emulator.cloned();
        self.run(async move {
            let mut loader = aws_config::defaults(aws_config::BehaviorVersion::latest());
            if let Some(emulator) = emulator {
                loader = loader
                    .endpoint_url(emulator.endpoint)
                    .region(aws_config::Region::new(emulator.region))
                    .credentials_provider(aws_sdk_dynamodb::config::Credentials::new(
                        "test",
                        "test",
                        None,
                        None,
                        "plan2code-emulator",
                    ));
            }
            loader.load().await
        })
    }
}

impl Drop for AwsBridge {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// A local AWS emulator (moto) to point the SDKs at.
#[derive(Debug, Clone)]
pub struct Emulator {
    pub endpoint: String,
    pub region: String,
}

/// Render an SDK error with its whole source chain (the top level alone says "service error").
pub fn sdk_error<E: std::error::Error>(what: &str, err: E) -> StoreError {
    StoreError::Backend(format!(
        "{what}: {}",
        aws_sdk_dynamodb::error::DisplayErrorContext(err)
    ))
}
