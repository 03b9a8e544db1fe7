//! Index of the `flow` fixture repository: exact statement ranges in every language, variable
//! arguments folded into calls, SQL clauses of views and subqueries, and Spark-ness of files.

use plan2code_core::code::{
    CallChain, IndexOptions, LineRange, RepoIndex, SparkCall, SqlClauseKind, build_index,
};
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

const PY_VARS: &str = "jobs/variables.py";
const SCALA_VARS: &str = "flow/Variables.scala";

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn python_list_variables_fold_into_create_data_frame() {
    let index = flow();
    let create = call(chain_at(&index, PY_VARS, 10), "createDataFrame");
    // `data=` rows are literals; `schema=` names the columns.
    assert_eq!(
        create.args.literals,
        strings(&["Ada", "Oslo", "gold", "Bo", "Rome", "basic"])
    );
    assert_eq!(create.args.columns, strings(&["rider", "city", "plan"]));
}

#[test]
fn python_struct_type_variable_folds_field_names_as_columns() {
    let index = flow();
    let create = call(chain_at(&index, PY_VARS, 16), "createDataFrame");
    assert_eq!(create.args.columns, strings(&["rider", "age"]));
    assert_eq!(
        create.args.literals,
        strings(&["Ada", "Oslo", "gold", "Bo", "Rome", "basic"])
    );
}

#[test]
fn python_window_spec_variable_folds_into_over() {
    let index = flow();
    let with_column = call(chain_at(&index, PY_VARS, 19), "withColumn");
    assert_eq!(with_column.args.aliases, strings(&["pos"]));
    assert_eq!(with_column.args.columns, strings(&["city", "age"]));
    assert_eq!(
        with_column.args.functions,
        strings(&["over", "row_number", "orderBy", "partitionBy", "desc"])
    );
}

#[test]
fn python_string_variable_folds_with_its_argument_role() {
    let index = flow();
    let parquet = call(chain_at(&index, PY_VARS, 22), "parquet");
    assert_eq!(parquet.args.paths, strings(&["/data/riders.parquet"]));
}

#[test]
fn python_local_variables_shadow_module_ones() {
    let index = flow();
    let group_by = call(chain_at(&index, PY_VARS, 27), "groupBy");
    assert_eq!(group_by.args.columns, strings(&["city"]));
    // A local `columns` list, not the module-level one.
    let select = call(chain_at(&index, PY_VARS, 29), "select");
    assert_eq!(select.args.columns, strings(&["plan"]));
    // Reassigned to something that is no literal: nothing folds, not even the module list.
    let select = call(chain_at(&index, PY_VARS, 31), "select");
    assert!(select.args.columns.is_empty(), "{:?}", select.args);
    assert!(select.args.literals.is_empty(), "{:?}", select.args);
    let splat = call(chain_at(&index, PY_VARS, 32), "select");
    assert_eq!(splat.args.columns, strings(&["city"]));
}

#[test]
fn huge_data_lists_fold_at_most_two_hundred_strings() {
    let index = flow();
    let create = call(chain_at(&index, PY_VARS, 187), "createDataFrame");
    assert_eq!(create.args.literals.len(), 200);
    assert_eq!(create.args.literals[0], "r000a");
    assert_eq!(create.args.literals[199], "r099b");
    assert_eq!(create.args.columns, strings(&["x", "y"]));
}

#[test]
fn scala_seq_variable_folds_into_to_df() {
    let index = flow();
    let to_df = call(chain_at(&index, SCALA_VARS, 14), "toDF");
    assert_eq!(to_df.args.aliases, strings(&["rider", "city"]));
}

#[test]
fn scala_struct_type_builder_variable_folds_field_names() {
    let index = flow();
    let create = call(chain_at(&index, SCALA_VARS, 19), "createDataFrame");
    assert_eq!(create.args.columns, strings(&["rider", "age"]));
}

#[test]
fn scala_window_spec_variable_folds_into_over() {
    let index = flow();
    let with_column = call(chain_at(&index, SCALA_VARS, 22), "withColumn");
    assert_eq!(with_column.args.columns, strings(&["city", "age"]));
    assert_eq!(
        with_column.args.functions,
        strings(&["over", "row_number", "orderBy", "partitionBy"])
    );
}

const REPORTS: &str = "jobs/reports.py";

fn sql_at<'a>(
    index: &'a plan2code_core::code::RepoIndex,
    file_suffix: &str,
    line: u32,
) -> &'a plan2code_core::code::SqlStatement {
    index
        .sql
        .iter()
        .find(|s| index.files[s.file as usize].path.ends_with(file_suffix) && s.lines.start == line)
        .unwrap_or_else(|| panic!("no SQL starting on line {line} of {file_suffix}"))
}

fn clauses(
    statement: &plan2code_core::code::SqlStatement,
    kind: SqlClauseKind,
    depth: u32,
) -> Vec<&plan2code_core::code::SqlClause> {
    statement
        .clauses
        .iter()
        .filter(|c| c.kind == kind && c.depth == depth)
        .collect()
}

#[test]
fn create_view_query_is_split_like_a_top_level_query() {
    let index = flow();
    let view = sql_at(&index, REPORTS, 6);
    let create = &clauses(view, SqlClauseKind::CreateView, 0)[0];
    assert_eq!(create.tables, strings(&["zone_fares"]));
    assert_eq!(create.aliases, strings(&["zone", "total_fare"]));
    assert!(create.columns.is_empty());
    let items: Vec<_> = clauses(view, SqlClauseKind::SelectItem, 0)
        .iter()
        .map(|c| (c.lines, c.columns.clone()))
        .collect();
    assert_eq!(
        items,
        vec![
            (lines(8, 8), strings(&["pickup_zone"])),
            (lines(9, 9), strings(&["fare"]))
        ]
    );
    let from = &clauses(view, SqlClauseKind::From, 0)[0];
    assert_eq!(
        (from.lines, from.tables.clone()),
        (lines(10, 10), strings(&["trips"]))
    );
    let predicates: Vec<_> = clauses(view, SqlClauseKind::WherePredicate, 0)
        .iter()
        .map(|c| (c.lines, c.columns.clone()))
        .collect();
    assert_eq!(
        predicates,
        vec![
            (lines(11, 11), strings(&["pickup_at"])),
            // `interval '3' month`: the unit is no column.
            (lines(12, 12), strings(&["pickup_at"]))
        ]
    );
    assert_eq!(
        clauses(view, SqlClauseKind::GroupBy, 0)[0].lines,
        lines(13, 13)
    );
}

#[test]
fn subquery_predicates_get_their_own_clauses_with_exact_lines() {
    let index = flow();
    let busy = sql_at(&index, REPORTS, 17);
    let outer: Vec<_> = clauses(busy, SqlClauseKind::WherePredicate, 0)
        .iter()
        .map(|c| (c.lines, c.columns.clone()))
        .collect();
    assert_eq!(
        outer,
        vec![
            // Only the predicate's own column: the subquery's lend it nothing.
            (lines(22, 27), strings(&["zone"])),
            (lines(28, 30), vec![]),
            (lines(31, 31), strings(&["total_fare"])),
        ]
    );
    assert_eq!(
        clauses(busy, SqlClauseKind::Where, 0)[0].lines,
        lines(22, 31)
    );
    let inner: Vec<_> = clauses(busy, SqlClauseKind::WherePredicate, 1)
        .iter()
        .map(|c| (c.lines, c.text.clone()))
        .collect();
    assert_eq!(
        inner,
        vec![
            (lines(20, 20), "total_fare > 0".to_string()),
            (lines(25, 25), "d.active = true".to_string()),
            (lines(26, 26), "d.rating > 4".to_string()),
            (lines(29, 29), "c.zone = z.zone".to_string()),
        ]
    );
    let subqueries: Vec<_> = clauses(busy, SqlClauseKind::Subquery, 1)
        .iter()
        .map(|c| c.lines)
        .collect();
    assert_eq!(
        subqueries,
        vec![lines(20, 20), lines(23, 26), lines(29, 29), lines(31, 31)]
    );
    let inner_from: Vec<_> = clauses(busy, SqlClauseKind::From, 1)
        .iter()
        .map(|c| (c.lines, c.tables.clone()))
        .collect();
    assert_eq!(
        inner_from,
        vec![
            (lines(20, 20), strings(&["zone_fares"])),
            (lines(24, 24), strings(&["drivers"])),
            (lines(29, 29), strings(&["closures"])),
            (lines(31, 31), strings(&["zone_fares"])),
        ]
    );
    // The derived table's FROM starts at its parenthesis.
    assert_eq!(
        clauses(busy, SqlClauseKind::From, 0)[0].lines,
        lines(19, 21)
    );
}

#[test]
fn sql_keywords_types_and_units_are_no_columns() {
    let index = flow();
    let busy = sql_at(&index, REPORTS, 17);
    let items: Vec<_> = clauses(busy, SqlClauseKind::SelectItem, 0)
        .iter()
        .map(|c| (c.columns.clone(), c.aliases.clone()))
        .collect();
    assert_eq!(
        items,
        vec![
            (strings(&["zone"]), vec![]),
            (strings(&["opened"]), strings(&["opened_year"])),
            // `CAST(x AS INT) AS x`: the type is no column and the column is kept.
            (strings(&["total_fare"]), strings(&["total_fare"])),
        ]
    );
    let drop = sql_at(&index, REPORTS, 34);
    assert_eq!(drop.clauses.len(), 1);
    assert!(drop.clauses[0].columns.is_empty(), "{:?}", drop.clauses[0]);
    assert_eq!(drop.clauses[0].tables, strings(&["zone_fares"]));
}

#[test]
fn files_know_whether_they_are_spark_code() {
    let index = flow();
    let uses_spark = |suffix: &str| {
        index
            .files
            .iter()
            .find(|f| f.path.ends_with(suffix))
            .unwrap_or_else(|| panic!("no file {suffix}"))
            .uses_spark
    };
    assert!(uses_spark(PYTHON));
    assert!(uses_spark(SCALA));
    assert!(uses_spark(JAVA));
    assert!(uses_spark("lookalikes/session_only.py"));
    assert!(!uses_spark("lookalikes/pandas_report.py"));
    assert!(!uses_spark("lookalikes/polars_report.py"));
}

#[test]
fn uses_spark_survives_a_json_round_trip_and_defaults_to_false() {
    let index = flow();
    let file = index.files.iter().find(|f| f.uses_spark).unwrap();
    let json = serde_json::to_value(file).unwrap();
    assert_eq!(json["usesSpark"], serde_json::Value::Bool(true));
    let mut old = json.clone();
    old.as_object_mut().unwrap().remove("usesSpark");
    let loaded: plan2code_core::code::SourceFile = serde_json::from_value(old).unwrap();
    assert!(!loaded.uses_spark);
}

#[test]
fn condition_variables_fold_into_the_join_that_uses_them() {
    let index = flow();
    let join = call(chain_at(&index, PY_VARS, 190), "join");
    assert_eq!(
        join.args.columns,
        strings(&["city_id", "id", "zone", "zone_code"])
    );
    // the comparison is part of the arguments: a join on a condition, not on names
    assert!(join.args.text.contains("=="), "{}", join.args.text);
    let join = call(chain_at(&index, SCALA_VARS, 25), "join");
    let mut columns = join.args.columns.clone();
    columns.sort();
    assert_eq!(columns, strings(&["city_id", "id", "zone", "zone_code"]));
    assert!(join.args.text.contains("==="), "{}", join.args.text);
}
