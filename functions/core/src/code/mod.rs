//! Repository context: clone a repository safely and index every Spark operation in it.
//!
//! See [`index`] for the model the rest of the pipeline searches.

pub mod index;

pub use index::*;
