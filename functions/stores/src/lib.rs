//! # plan2code-stores
//!
//! Implementations of the core's storage ports ([`plan2code_core::ports`]): SQLite + a directory
//! for local mode, DynamoDB + S3 (feature `aws`) for the cloud.
