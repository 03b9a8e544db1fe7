//! Repository context: clone a repository safely and index every Spark operation in it.
//!
//! The pieces, in the order a repository flows through them:
//!
//! * [`walk`] — the path guard: lists and reads files under a root, never outside it, with size,
//!   binary, UTF-8 and count caps.
//! * [`guard`] — source that would crash a grammar's C scanner is never parsed.
//! * [`lang`] — one [`lang::LanguageAdapter`] per language (Python, Scala, Java) over a shared
//!   call-chain extractor: symbols, Spark DataFrame chains with per-call lines and arguments,
//!   variable flow, call edges.
//! * [`strings`] + [`sql`] — SQL inside string literals (f-strings, triple quotes, variables) and
//!   `.sql` files, parsed clause by clause with repository line ranges.
//! * [`notebook`] — Databricks notebook sources and Jupyter notebooks.
//! * [`build`] — walks, extracts in parallel (rayon) and merges into a [`RepoIndex`].
//! * [`source`] — https / file:// / local sources, gix shallow clone, safe materialisation.
//! * [`texts`] — the indexed files' text, kept beside the index for the viewer.
//! * [`cache`] — the blob-store cache and the entry point [`load_or_build_index`].
//!
//! See [`index`] for the model the rest of the pipeline searches.

pub mod build;
pub mod cache;
pub mod error;
pub mod guard;
pub mod index;
pub mod lang;
pub mod launch;
pub mod notebook;
pub mod settings;
pub mod source;
pub mod sql;
pub mod sql_constants;
pub mod sql_expr;
pub mod strings;
pub mod texts;
pub mod walk;

pub use build::{IndexOptions, build_index};
pub use cache::{LoadOptions, LoadedIndex, cache_key, load_or_build_index};
pub use error::RepoError;
pub use index::*;
pub use source::{RepoSource, Secret, redact_url};
