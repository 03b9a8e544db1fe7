//! [`BlobStore`] on S3: key `index/<cacheKey>/index.json` is that object in the bucket.
//! Objects are written with SSE-S3 encryption requested explicitly (the bucket also enforces it).

use super::{AwsBridge, sdk_error};
use aws_sdk_s3::primitives::ByteStream;
use aws_sdk_s3::types::{Delete, ObjectIdentifier};
use plan2code_core::ports::{BlobStore, StoreError};
use std::sync::Arc;

#[derive(Debug, Clone)]
pub struct S3BlobStore {
    bridge: Arc<AwsBridge>,
    client: aws_sdk_s3::Client,
    bucket: String,
}

impl S3BlobStore {
    /// `path_style` addresses the bucket in the path (emulators); AWS uses virtual hosts.
    pub fn new(
        bridge: Arc<AwsBridge>,
        config: &aws_config::SdkConfig,
        bucket: impl Into<String>,
        path_style: bool,
    ) -> Self {
        let s3_config = aws_sdk_s3::config::Builder::from(config)
            .force_path_style(path_style)
            .build();
        Self {
            bridge,
            client: aws_sdk_s3::Client::from_conf(s3_config),
            bucket: bucket.into(),
        }
    }

    /// Create the bucket if it does not exist (local emulation and tests; SAM creates it on AWS).
    pub fn create_bucket_if_missing(&self) -> Result<(), StoreError> {
        let (client, bucket) = (self.client.clone(), self.bucket.clone());
        self.bridge.run(async move {
            if client.head_bucket().bucket(&bucket).send().await.is_ok() {
                return Ok(());
            }
            match client.create_bucket().bucket(&bucket).send().await {
                Ok(_) => Ok(()),
                // Another process may have created it in the meantime.
                Err(_) if client.head_bucket().bucket(&bucket).send().await.is_ok() => Ok(()),
                Err(e) => Err(sdk_error("creating bucket", e)),
            }
        })?
    }
}

impl BlobStore for S3BlobStore {
    fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        let request = self
            .client
            .put_object()
            .bucket(&self.bucket)
            .key(key)
            .server_side_encryption(aws_sdk_s3::types::ServerSideEncryption::Aes256)
            .body(ByteStream::from(bytes.to_vec()));
        let key = key.to_owned();
        self.bridge.run(async move {
            request
                .send()
                .await
                .map(|_| ())
                .map_err(|e| sdk_error(&format!("putting {key}"), e))
        })?
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let request = self.client.get_object().bucket(&self.bucket).key(key);
        let key = key.to_owned();
        self.bridge.run(async move {
            match request.send().await {
                Ok(object) => object
                    .body
                    .collect()
                    .await
                    .map(|data| Some(data.into_bytes().to_vec()))
                    .map_err(|e| StoreError::Backend(format!("reading {key}: {e}"))),
                Err(e) if e.as_service_error().is_some_and(|s| s.is_no_such_key()) => Ok(None),
                Err(e) => Err(sdk_error(&format!("getting {key}"), e)),
            }
        })?
    }

    fn delete(&self, key: &str) -> Result<(), StoreError> {
        let request = self.client.delete_object().bucket(&self.bucket).key(key);
        let key = key.to_owned();
        self.bridge.run(async move {
            request
                .send()
                .await
                .map(|_| ())
                .map_err(|e| sdk_error(&format!("deleting {key}"), e))
        })?
    }

    /// `DeleteObjects`, up to 1,000 keys a request (S3's limit); a key S3 reports it could not
    /// delete is an error naming it.
    fn delete_all(&self, keys: &[String]) -> Result<(), StoreError> {
        for batch in keys.chunks(1000) {
            let objects = batch
                .iter()
                .map(|key| ObjectIdentifier::builder().key(key).build())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| StoreError::Backend(format!("DeleteObjects: {e}")))?;
            let delete = Delete::builder()
                .set_objects(Some(objects))
                .quiet(true)
                .build()
                .map_err(|e| StoreError::Backend(format!("DeleteObjects: {e}")))?;
            let request = self
                .client
                .delete_objects()
                .bucket(&self.bucket)
                .delete(delete);
            let out = self.bridge.run(async move {
                request
                    .send()
                    .await
                    .map_err(|e| sdk_error("DeleteObjects", e))
            })??;
            if let Some(failed) = out.errors().first() {
                return Err(StoreError::Backend(format!(
                    "DeleteObjects: {}: {}",
                    failed.key().unwrap_or("?"),
                    failed.message().unwrap_or("not deleted")
                )));
            }
        }
        Ok(())
    }
}
