//! Index of the `shop` fixture repository: Python, Scala and Java chain forms, variable flow and
//! SQL strings with known repository lines.

use plan2code_core::code::{
    CallChain, IndexOptions, LineRange, RepoIndex, SparkCall, SqlClauseKind, SqlOrigin,
    SqlStatement, build_index,
};
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/repos")
        .join(name)
}

fn shop() -> RepoIndex {
    build_index(
        &fixture("shop"),
        None,
        "test".into(),
        &IndexOptions::default(),
    )
    .unwrap()
}

fn chain_assigned<'a>(index: &'a RepoIndex, file_suffix: &str, var: &str) -> &'a CallChain {
    index
        .chains
        .iter()
        .find(|c| {
            index.files[c.file as usize].path.ends_with(file_suffix)
                && c.assigned_to.as_deref() == Some(var)
        })
        .unwrap_or_else(|| panic!("no chain assigned to {var} in {file_suffix}"))
}

fn call<'a>(chain: &'a CallChain, method: &str) -> &'a SparkCall {
    chain
        .calls
        .iter()
        .find(|c| c.method == method)
        .unwrap_or_else(|| panic!("no .{method} in chain {}", chain.text))
}

fn lines(start: u32, end: u32) -> LineRange {
    LineRange::new(start, end)
}

fn sql_in<'a>(index: &'a RepoIndex, file_suffix: &str) -> Vec<&'a SqlStatement> {
    index
        .sql
        .iter()
        .filter(|s| index.files[s.file as usize].path.ends_with(file_suffix))
        .collect()
}

#[test]
fn python_backslash_chain_has_per_call_lines() {
    let index = shop();
    let big = chain_assigned(&index, "jobs/sales.py", "big");
    assert_eq!(big.receiver, "orders");
    assert_eq!(big.statement, lines(16, 18));
    let methods: Vec<_> = big.calls.iter().map(|c| c.method.as_str()).collect();
    assert_eq!(methods, vec!["filter", "withColumn", "select"]);
    assert_eq!(call(big, "filter").lines, lines(16, 16));
    assert_eq!(call(big, "filter").args.columns, vec!["amount"]);
    assert_eq!(call(big, "filter").args.literals, vec!["100"]);
    let with_column = call(big, "withColumn");
    assert_eq!(with_column.lines, lines(17, 17));
    assert_eq!(with_column.args.aliases, vec!["year"]);
    assert_eq!(with_column.args.functions, vec!["year"]);
    // `orders.order_date`: `orders` came from `load_orders(spark, …)`, so it is a DataFrame.
    assert_eq!(with_column.args.columns, vec!["order_date"]);
    assert_eq!(
        call(big, "select").args.columns,
        vec!["customer_id", "amount", "year"]
    );
}

#[test]
fn python_parenthesised_chain_and_aggregates() {
    let index = shop();
    let totals = chain_assigned(&index, "jobs/sales.py", "totals");
    assert_eq!(totals.receiver, "joined");
    assert_eq!(totals.statement, lines(20, 25));
    let group_by = call(totals, "groupBy");
    assert_eq!(group_by.lines, lines(22, 22));
    assert_eq!(group_by.args.columns, vec!["region", "year"]);
    let agg = call(totals, "agg");
    assert_eq!(agg.lines, lines(23, 23));
    assert_eq!(agg.args.functions, vec!["sum", "avg"]);
    assert_eq!(agg.args.columns, vec!["amount"]);
    assert_eq!(agg.args.aliases, vec!["total", "mean"]);
    assert_eq!(call(totals, "orderBy").lines, lines(24, 24));
}

#[test]
fn python_variable_flow_links_statements() {
    let index = shop();
    let joined = chain_assigned(&index, "jobs/sales.py", "joined");
    assert_eq!(joined.receiver, "big");
    assert_eq!(joined.inputs, vec!["customers"]);
    let join = call(joined, "join");
    assert_eq!(join.args.columns, vec!["customer_id", "id"]);
    assert_eq!(join.args.literals, vec!["left"]);
    let ranked = chain_assigned(&index, "jobs/sales.py", "ranked");
    assert_eq!(ranked.receiver, "totals");
    let with_column = call(ranked, "withColumn");
    assert!(
        with_column
            .args
            .functions
            .contains(&"row_number".to_string())
    );
    assert!(with_column.args.functions.contains(&"over".to_string()));
    let where_call = call(ranked, "where");
    assert_eq!(where_call.args.columns, vec!["rank", "total"]);
    let write = index
        .chains
        .iter()
        .find(|c| c.receiver == "ranked" && c.calls.iter().any(|k| k.method == "saveAsTable"))
        .unwrap();
    assert_eq!(
        call(write, "saveAsTable").args.tables,
        vec!["mart.top_regions"]
    );
    assert_eq!(call(write, "mode").args.literals, vec!["overwrite"]);
    let read = index
        .chains
        .iter()
        .find(|c| c.receiver == "spark.read")
        .unwrap();
    assert_eq!(read.calls[0].method, "parquet");
    assert_eq!(read.statement, lines(10, 10));
    let customers = chain_assigned(&index, "jobs/sales.py", "customers");
    assert_eq!(call(customers, "table").args.tables, vec!["crm.customers"]);
}

#[test]
fn python_fstring_sql_in_a_variable_maps_to_repo_lines() {
    let index = shop();
    let sql = sql_in(&index, "jobs/sales.py");
    let report = sql
        .iter()
        .find(|s| s.assigned_to.as_deref() == Some("df"))
        .expect("spark.sql(q) statement");
    assert_eq!(report.origin, SqlOrigin::SparkSqlCall);
    assert!(report.parsed);
    assert_eq!(report.host_statement, lines(33, 38));
    let clause = |kind| report.clauses.iter().find(|c| c.kind == kind).unwrap();
    assert_eq!(clause(SqlClauseKind::From).lines, lines(35, 35));
    assert_eq!(clause(SqlClauseKind::From).tables, vec!["mart.top_regions"]);
    assert_eq!(clause(SqlClauseKind::Where).lines, lines(36, 36));
    assert_eq!(clause(SqlClauseKind::GroupBy).lines, lines(37, 37));
    assert_eq!(clause(SqlClauseKind::GroupBy).columns, vec!["region"]);
    let inline = sql.iter().find(|s| s.lines == lines(40, 40)).unwrap();
    assert_eq!(inline.clauses[0].columns, vec!["id", "name"]);
}

#[test]
fn python_symbols_docs_and_dead_code() {
    let index = shop();
    let find = |name: &str| index.symbols.iter().find(|s| s.name == name).unwrap();
    let load = find("load_orders");
    assert_eq!(load.qualified_name, "jobs.sales.load_orders");
    assert_eq!(load.lines, lines(8, 10));
    assert_eq!(load.doc.as_deref(), Some("Read raw orders."));
    assert_eq!(load.callers, vec![find("rollup").id]);
    assert!(!load.flags.dead);
    // Called only from the `__main__` block: alive.
    assert!(!find("rollup").flags.dead);
    assert!(find("unused_helper").flags.dead);
    let chain = chain_assigned(&index, "jobs/sales.py", "totals");
    assert_eq!(chain.symbol, Some(find("rollup").id));
}

#[test]
fn scala_chain_forms() {
    let index = shop();
    let totals = chain_assigned(&index, "Revenue.scala", "totals");
    assert_eq!(totals.receiver, "joined");
    assert_eq!(call(totals, "filter").lines, lines(15, 15));
    assert_eq!(call(totals, "filter").args.columns, vec!["salary"]);
    assert_eq!(call(totals, "groupBy").args.columns, vec!["dept", "region"]);
    let agg = call(totals, "agg");
    assert_eq!(agg.lines, lines(17, 17));
    // `count("*")` counts rows: Spark plans it as `count(1)`, not as a count of a column.
    assert_eq!(agg.args.functions, vec!["sum", "count", "countrows"]);
    assert_eq!(agg.args.aliases, vec!["total", "n"]);
    let joined = chain_assigned(&index, "Revenue.scala", "joined");
    assert_eq!(joined.inputs, vec!["depts"]);
    assert_eq!(call(joined, "join").args.columns, vec!["dept_id", "id"]);
    let emp = chain_assigned(&index, "Revenue.scala", "emp");
    assert_eq!(emp.receiver, "spark.read");
    assert_eq!(call(emp, "csv").args.paths, vec!["data/emp.csv"]);
    // (Pass-through chains, which only return `df`, have no calls.)
    let cleanup = index
        .chains
        .iter()
        .find(|c| c.receiver == "df" && !c.calls.is_empty())
        .unwrap();
    assert!(
        cleanup.returned,
        "a Scala expression body is what its function returns"
    );
    let methods: Vec<_> = cleanup.calls.iter().map(|c| c.method.as_str()).collect();
    assert_eq!(methods, vec!["na", "fill", "dropDuplicates"]);
}

#[test]
fn scala_strip_margin_interpolated_sql() {
    let index = shop();
    let sql = sql_in(&index, "Revenue.scala");
    assert_eq!(sql.len(), 1);
    let statement = sql[0];
    assert!(statement.parsed);
    assert_eq!(statement.lines, lines(20, 23));
    assert_eq!(statement.host_statement, lines(19, 23));
    let clause = |kind| statement.clauses.iter().find(|c| c.kind == kind).unwrap();
    assert_eq!(clause(SqlClauseKind::From).lines, lines(21, 21));
    assert_eq!(clause(SqlClauseKind::Where).lines, lines(22, 22));
    assert_eq!(clause(SqlClauseKind::GroupBy).lines, lines(23, 23));
    assert_eq!(clause(SqlClauseKind::Select).functions, vec!["max"]);
    let symbol = |name: &str| index.symbols.iter().find(|s| s.name == name).unwrap();
    assert!(symbol("neverCalled").flags.dead);
    assert!(!symbol("main").flags.dead);
    assert_eq!(
        symbol("Revenue").doc.as_deref(),
        Some("Revenue per department.")
    );
}

#[test]
fn java_chain_forms_and_concatenated_sql() {
    let index = shop();
    let per_customer = chain_assigned(&index, "Orders.java", "perCustomer");
    assert_eq!(per_customer.receiver, "orders");
    let where_call = call(per_customer, "where");
    assert_eq!(where_call.lines, lines(15, 15));
    assert_eq!(where_call.args.columns, vec!["status"]);
    assert_eq!(where_call.args.literals, vec!["PAID"]);
    assert_eq!(
        call(per_customer, "groupBy").args.columns,
        vec!["customer_id"]
    );
    let agg = call(per_customer, "agg");
    assert_eq!(agg.args.functions, vec!["sum"]);
    assert_eq!(agg.args.aliases, vec!["spent"]);
    let orders = chain_assigned(&index, "Orders.java", "orders");
    assert_eq!(
        call(orders, "parquet").args.paths,
        vec!["s3://bucket/orders"]
    );
    let sql = sql_in(&index, "Orders.java");
    assert_eq!(sql.len(), 1);
    assert_eq!(sql[0].assigned_to.as_deref(), Some("top"));
    let clause = |kind| sql[0].clauses.iter().find(|c| c.kind == kind).unwrap();
    assert_eq!(clause(SqlClauseKind::From).lines, lines(20, 20));
    assert_eq!(clause(SqlClauseKind::Where).lines, lines(21, 21));
    let unused = index.symbols.iter().find(|s| s.name == "unused").unwrap();
    assert!(unused.flags.dead);
}

#[test]
fn stats_count_what_was_indexed() {
    let index = shop();
    assert_eq!(index.stats.files_scanned, index.files.len() as u64);
    assert_eq!(index.stats.by_language.get("python"), Some(&3));
    assert_eq!(index.stats.by_language.get("sql"), Some(&1));
    assert_eq!(index.stats.by_language.get("scala"), Some(&1));
    assert_eq!(index.stats.by_language.get("java"), Some(&1));
    assert_eq!(index.stats.symbols, index.symbols.len() as u64);
    assert_eq!(
        index.stats.spark_ops,
        index
            .chains
            .iter()
            .map(|c| c.calls.len() as u64)
            .sum::<u64>()
    );
}

#[test]
fn sql_file_clauses_ctes_windows_and_joins() {
    let index = shop();
    let sql = sql_in(&index, "sql/daily.sql");
    assert_eq!(sql.len(), 2);
    let query = sql[0];
    assert_eq!(query.origin, SqlOrigin::SqlFile);
    assert!(query.parsed);
    assert_eq!(query.lines, lines(2, 16));
    let with = query
        .clauses
        .iter()
        .find(|c| c.kind == SqlClauseKind::With)
        .unwrap();
    assert_eq!(with.lines, lines(2, 6));
    let cte_where = query
        .clauses
        .iter()
        .find(|c| c.kind == SqlClauseKind::Where && c.depth == 1)
        .unwrap();
    assert_eq!(cte_where.lines, lines(5, 5));
    assert_eq!(cte_where.literals, vec!["PAID"]);
    let window = query
        .clauses
        .iter()
        .find(|c| c.kind == SqlClauseKind::Window)
        .unwrap();
    assert_eq!(window.lines, lines(9, 9));
    assert!(window.functions.contains(&"rank".to_string()));
    let join = query
        .clauses
        .iter()
        .find(|c| c.kind == SqlClauseKind::Join)
        .unwrap();
    assert_eq!(join.lines, lines(11, 12));
    assert_eq!(join.tables, vec!["sales.stores"]);
    let predicate = query
        .clauses
        .iter()
        .find(|c| c.kind == SqlClauseKind::JoinPredicate)
        .unwrap();
    assert_eq!(predicate.lines, lines(12, 12));
    let outer = |kind| {
        query
            .clauses
            .iter()
            .find(|c| c.kind == kind && c.depth == 0)
            .unwrap()
    };
    assert_eq!(outer(SqlClauseKind::GroupBy).lines, lines(13, 13));
    assert_eq!(outer(SqlClauseKind::Having).lines, lines(14, 14));
    assert_eq!(outer(SqlClauseKind::OrderBy).lines, lines(15, 15));
    assert_eq!(outer(SqlClauseKind::Limit).lines, lines(16, 16));
    assert_eq!(sql[1].lines, lines(18, 18));
    assert!(
        sql[1]
            .clauses
            .iter()
            .any(|c| c.kind == SqlClauseKind::Insert)
    );
}

#[test]
fn python_triple_quoted_escaped_and_continued_sql_strings() {
    let index = shop();
    let sql = sql_in(&index, "jobs/queries.py");
    let by_var = |var: &str| {
        *sql.iter()
            .find(|s| s.assigned_to.as_deref() == Some(var))
            .unwrap_or_else(|| panic!("no SQL assigned to {var}"))
    };
    let late = by_var("late");
    assert_eq!(late.host_statement, lines(5, 10));
    let clause = |s: &SqlStatement, kind| s.clauses.iter().find(|c| c.kind == kind).unwrap().lines;
    assert_eq!(clause(late, SqlClauseKind::From), lines(8, 8));
    assert_eq!(clause(late, SqlClauseKind::Where), lines(9, 9));
    let delay = late
        .clauses
        .iter()
        .find(|c| c.kind == SqlClauseKind::SelectItem && c.aliases == vec!["delay"])
        .unwrap();
    assert_eq!(delay.lines, lines(7, 7));
    // `\n` escapes stay on the literal's own line.
    let escaped = by_var("escaped");
    assert_eq!(clause(escaped, SqlClauseKind::From), lines(12, 12));
    // Implicit concatenation over a backslash continuation, held in a constant.
    let churned = by_var("churned");
    assert_eq!(churned.host_statement, lines(14, 15));
    assert_eq!(clause(churned, SqlClauseKind::From), lines(14, 14));
    assert_eq!(clause(churned, SqlClauseKind::Where), lines(15, 15));
    // A template constant formatted at the call site.
    let totals = by_var("totals");
    assert_eq!(totals.host_statement, lines(19, 23));
    assert_eq!(clause(totals, SqlClauseKind::From), lines(21, 21));
    assert_eq!(clause(totals, SqlClauseKind::GroupBy), lines(22, 22));
    // Consumed by `sql()`, so not repeated as a free-standing literal.
    assert_eq!(
        sql.iter()
            .filter(|s| s.origin == SqlOrigin::StringLiteral)
            .count(),
        0
    );
}

#[test]
fn python_dict_agg_keywords_udfs_and_inline_join_partners() {
    let index = shop();
    let by_day = chain_assigned(&index, "jobs/forms.py", "by_day");
    assert_eq!(by_day.receiver, "events_df");
    let agg = call(by_day, "agg");
    assert_eq!(agg.args.columns, vec!["amount", "user_id"]);
    assert_eq!(agg.args.functions, vec!["sum", "count"]);
    let joined = chain_assigned(&index, "jobs/forms.py", "joined");
    let join = call(joined, "join");
    assert_eq!(join.args.columns, vec!["day"]);
    assert_eq!(join.args.literals, vec!["inner"]);
    assert!(join.args.functions.contains(&"broadcast".to_string()));
    // The inline partner `spark.table("dim.days")` is a chain of its own on the same statement.
    let partner = index
        .chains
        .iter()
        .find(|c| c.receiver == "spark" && c.calls[0].args.tables == vec!["dim.days"])
        .unwrap();
    assert_eq!(partner.statement, joined.statement);
    let graded = chain_assigned(&index, "jobs/forms.py", "graded");
    let select = call(graded, "select");
    assert_eq!(select.args.columns, vec!["day", "score", "total"]);
    assert!(select.args.functions.contains(&"grade".to_string()));
    assert_eq!(select.args.aliases, vec!["grade"]);
    let clean = chain_assigned(&index, "jobs/forms.py", "clean");
    let filter = call(clean, "filter");
    assert_eq!(filter.args.columns, vec!["grade"]);
    assert_eq!(filter.args.literals, vec!["A", "B"]);
    assert_eq!(call(clean, "dropDuplicates").args.columns, vec!["day"]);
    let grade = index.symbols.iter().find(|s| s.name == "grade").unwrap();
    assert!(!grade.flags.dead, "a decorated UDF is an entry point");
}
