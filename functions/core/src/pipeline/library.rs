//! Plan nodes a library built, not the repository's code.
//!
//! An estimator's model plans operators of its own: `ALSModel.transform(test)` joins the rows it
//! is given with its `userFactors` and `itemFactors`, frames Spark made from RDDs inside
//! `ALS.scala`. A scan of such an RDD prints where the RDD was made (`userFactors
//! MapPartitionsRDD[2807] at mapPartitions at ALS.scala:1132`); when no file of the repository
//! carries that name, the rows are the library's, and so is every operator over them that the
//! user's code does not state. Those map to the statement that asked for them — the nearest
//! operator above them the code wrote (`reccomendations.orderBy("prediction").show()`) — as a
//! derived node maps to its consumer ([`super::localise`]).
//!
//! PySpark's own rows are the user's: `createDataFrame` makes them `at applySchemaToPythonRDD at
//! NativeMethodAccessorImpl.java:0`, a place with no line, which this never counts.

use super::sites::SiteTable;
use crate::plan::{NodeIdx, OperatorFamily, PlanGraph, PlanNode};
use serde::{Deserialize, Serialize};

/// What the reason of a node a library built starts with ([`super::semantics::Consumer`]).
pub const BUILT_BY_LIBRARY: &str = "built by library code outside the repository";

/// A node library code built, as the plan's localisation reports it: the operator above it the
/// code wrote (`dagNodeId`), whose statement it maps to, and where the library made the rows under
/// it (`ALS.scala:1132`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LibraryBuilt {
    pub served: String,
    pub rows_made_at: String,
}

/// Rows library code made, as a node reads them: where the library made them (`ALS.scala:1132`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LibraryRows {
    /// The node scans them ([`library_rows`]).
    Scanned(String),
    /// They are among the node's inputs, some operators below.
    Below(String),
}

impl LibraryRows {
    /// Where the library made the rows.
    pub fn made_at(&self) -> &str {
        match self {
            Self::Scanned(at) | Self::Below(at) => at,
        }
    }
}

/// Where a library made the rows a scan reads (`ALS.scala:1132`), when no file of the repository
/// carries the name of the source file Spark prints for the scan's RDD.
fn library_rows(node: &PlanNode, table: &SiteTable) -> Option<String> {
    if node.family != OperatorFamily::Scan {
        return None;
    }
    node.details
        .arguments
        .values()
        .filter(|a| !super::hints::made_by_python(a))
        .find_map(|a| super::hints::rdd_origin(a))
        .filter(|(file, line)| *line > 0 && !table.names_a_file(file))
        .map(|(file, line)| format!("{file}:{line}"))
}

/// Per node: the library's rows it reads, itself or through its inputs ([`library_rows`]);
/// `None` for nodes over the user's rows only.
pub fn over_library_rows(graph: &PlanGraph, table: &SiteTable) -> Vec<Option<LibraryRows>> {
    let mut origin: Vec<Option<Option<LibraryRows>>> = vec![None; graph.nodes.len()];
    // children before parents, without recursion (plans run thousands of nodes deep)
    let mut stack: Vec<(NodeIdx, bool)> = (0..graph.nodes.len()).map(|i| (i, false)).collect();
    while let Some((idx, expanded)) = stack.pop() {
        if origin[idx].is_some() {
            continue;
        }
        let children = &graph.nodes[idx].children;
        if !expanded && children.iter().any(|&c| origin[c].is_none()) {
            stack.push((idx, true));
            stack.extend(
                children
                    .iter()
                    .filter(|&&c| origin[c].is_none())
                    .map(|&c| (c, false)),
            );
            continue;
        }
        let own = library_rows(&graph.nodes[idx], table)
            .map(LibraryRows::Scanned)
            .or_else(|| {
                children.iter().find_map(|&c| {
                    let below = origin[c].as_ref()?.as_ref()?;
                    Some(LibraryRows::Below(below.made_at().to_owned()))
                })
            });
        origin[idx] = Some(own);
    }
    origin.into_iter().map(Option::flatten).collect()
}
