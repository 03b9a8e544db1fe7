//! Index of the `flow` fixture repository: exact statement ranges in every language, variable
//! arguments folded into calls, SQL clauses of views and subqueries, and Spark-ness of files.

use plan2code_core::code::{CallChain, IndexOptions, LineRange, RepoIndex, SparkCall, build_index};
use std::path::PathBuf;

fn flow() -> RepoIndex {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/repos/flow");
    build_index(&root, None, "test".into(), &IndexOptions::default()).unwrap()
}

fn lines(start: u32, end: u32) -> LineRange {
    LineRange::new(start, end)
}

/// The chain in `file_suffix` whose first call is `method` on line `line`.
fn chain_at<'a>(index: &'a RepoIndex, file_suffix: &str, line: u32) -> &'a CallChain {
    index
        .chains
        .iter()
        .find(|c| {
            index.files[c.file as usize].path.ends_with(file_suffix)
                && c.calls.first().is_some_and(|k| k.lines.start == line)
        })
        .unwrap_or_else(|| panic!("no chain starting on line {line} of {file_suffix}"))
}

fn call<'a>(chain: &'a CallChain, method: &str) -> &'a SparkCall {
    chain
        .calls
        .iter()
        .find(|c| c.method == method)
        .unwrap_or_else(|| panic!("no .{method} in chain {}", chain.text))
}

const SCALA: &str = "flow/Statements.scala";
const PYTHON: &str = "jobs/statements.py";
const JAVA: &str = "flow/Statements.java";

#[test]
fn scala_statements_are_exactly_their_own_lines() {
    let index = flow();
    let window = chain_at(&index, SCALA, 12);
    assert_eq!(window.statement, lines(12, 12));
    assert_eq!(window.assigned_to.as_deref(), Some("byZone"));
    let ranked = chain_at(&index, SCALA, 13);
    assert_eq!(ranked.statement, lines(13, 15));
    assert_eq!(ranked.assigned_to, None);
    assert_eq!(call(ranked, "show").lines, lines(15, 15));
}

#[test]
fn scala_val_with_value_on_next_line_keeps_its_val_line() {
    let index = flow();
    // The indented block of `val cheap =` swallows the comment after it.
    let cheap = chain_at(&index, SCALA, 18);
    assert_eq!(cheap.statement, lines(17, 19));
    assert_eq!(cheap.assigned_to.as_deref(), Some("cheap"));
    assert_eq!(call(cheap, "select").lines, lines(19, 19));
}

#[test]
fn scala_block_swallowing_the_next_statement_is_split() {
    let index = flow();
    let longest = chain_at(&index, SCALA, 23);
    assert_eq!(longest.statement, lines(22, 24));
    assert_eq!(longest.assigned_to.as_deref(), Some("longest"));
    assert!(!longest.text.contains("groupBy"), "{}", longest.text);
    let counted = chain_at(&index, SCALA, 26);
    assert_eq!(counted.statement, lines(26, 28));
    assert_eq!(counted.receiver, "longest");
    assert_eq!(counted.assigned_to, None);
}

#[test]
fn python_statements_are_exactly_their_own_lines() {
    let index = flow();
    let cheap = chain_at(&index, PYTHON, 6);
    assert_eq!(cheap.statement, lines(6, 7));
    assert_eq!(cheap.assigned_to.as_deref(), Some("cheap"));
    let longest = chain_at(&index, PYTHON, 10);
    assert_eq!(longest.statement, lines(8, 12));
    assert_eq!(longest.assigned_to.as_deref(), Some("longest"));
    let looped = chain_at(&index, PYTHON, 14);
    assert_eq!(looped.statement, lines(14, 14));
}

#[test]
fn java_statements_are_exactly_their_own_lines() {
    let index = flow();
    let cheap = chain_at(&index, JAVA, 12);
    assert_eq!(cheap.statement, lines(11, 13));
    assert_eq!(cheap.assigned_to.as_deref(), Some("cheap"));
    let counted = chain_at(&index, JAVA, 15);
    assert_eq!(counted.statement, lines(15, 17));
    assert_eq!(call(counted, "count").lines, lines(16, 16));
}
