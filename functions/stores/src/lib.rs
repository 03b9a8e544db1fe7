//! # plan2code-stores
//!
//! Implementations of the core's storage ports ([`plan2code_core::ports`]): a directory and an
//! in-memory map for blobs in local mode and tests; SQLite for jobs in local mode; DynamoDB + S3
//! (feature `aws`) for the cloud, with [`aws::SfnControl`] for pause / resume / cancel on Step
//! Functions. `tests/suite` is the one store test suite every pair must pass.

#[cfg(feature = "aws")]
pub mod aws;
pub mod dir_blob;
pub mod job_item;
pub mod memory_blob;
pub mod split_blob;
pub mod sqlite_job;

pub use dir_blob::DirBlobStore;
pub use memory_blob::MemoryBlobStore;
pub use split_blob::SplitBlobStore;
pub use sqlite_job::SqliteJobStore;
