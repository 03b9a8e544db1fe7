//! Plan ingestion: every form of a Spark physical plan into one typed [`PlanGraph`].
//!
//! See [`graph`] for the model. Parsers per input form live in sibling modules and are chosen by
//! [`parse_plan`]'s auto-detection.

pub mod graph;

pub use graph::*;
