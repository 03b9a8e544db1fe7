//! # plan2code-core
//!
//! The pure core of plan2code: everything that decides, nothing that deploys.
//!
//! A user hands us a Spark physical plan and a git repository; for every node of the plan we
//! answer *which lines of the repository produced it*. The core is organised as:
//!
//! * [`plan`] — plan ingestion: every textual/JSON form of a physical plan (`explain()`,
//!   `explain(true)`, `explain("formatted")`, Spark UI REST JSON, event logs) parsed into one
//!   typed graph, [`plan::PlanGraph`].
//! * [`code`] — repository context: clone safely, walk behind a path guard, and index every Spark
//!   operation site (DataFrame call chains, SQL clauses inside strings) into a
//!   [`code::RepoIndex`].
//! * [`contracts`] — the JSON shapes other systems see (`MappingOutput`, `Job`, `Event`).
//! * [`ports`] — the storage traits (`BlobStore`, `JobStore`); implementations live in the
//!   `plan2code-stores` crate, so nothing here knows whether it runs on AWS or a laptop.
//! * [`error`] — the error names the state machine's Retry/Catch match on.
//! * [`view`] — what the viewer and the HTML report show: plans laid out, operator costs from
//!   the plan's metrics, hot lines, highlighted source.
//! * [`allocator`] — mimalloc as the process allocator (default `mimalloc` feature).
//!
//! The seven pipeline nodes of `docs/ARCHITECTURE.md` are plain functions over these types.

pub mod allocator;
pub mod clock;
pub mod code;
pub mod contracts;
pub mod error;
pub mod pipeline;
pub mod plan;
pub mod ports;
pub mod settings;
pub mod view;
pub mod workflow;
