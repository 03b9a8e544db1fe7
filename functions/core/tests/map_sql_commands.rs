//! A SQL command run through `spark.sql(…)`: `show databases` plans `CommandResult` over
//! `Execute ShowNamespacesCommand` over `ShowNamespacesCommand` over `ResolvedNamespace`, `show
//! tables` plans `CommandResult` over `ShowTables`. None of them names a column, function or path
//! of the user's, so the class name is the evidence: each node is the statement running that
//! command, not a writer (the only other code a command could be) nor the other command. The
//! Spark UI's graph lists a command's `CommandResult` alone; its plan text says what it ran. Real
//! Spark 4.3 plans (`bench/jupyter`, `bench/guide`). A command listing part of what it shows
//! (`SHOW USER FUNCTIONS`, `SHOW FUNCTIONS LIKE 'c*'`) is told from its siblings by the
//! arguments its node prints, in the text and, through it, in the UI's graph.

mod support;

const SCRIPT: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("catalog").getOrCreate()
emp = spark.read.format("csv").option("header", True).load("data/emp.csv")
emp.write.format("csv").save("data/output/emp.csv")
db = spark.sql("show databases")
db.show()
spark.sql("show tables in default").show()
"#;

fn lines_of(case: &str) -> Vec<(String, String)> {
    let plan = support::bench_plan("jupyter", case);
    support::map_against(&[("catalog.py", SCRIPT)], &plan)
        .into_iter()
        .map(|m| {
            let code = m.mapped_code.expect("every command node is mapped");
            (m.node_name, format!("{}:{}", code.file, code.lines))
        })
        .collect()
}

#[test]
fn every_node_of_a_command_is_the_statement_running_it() {
    let namespaces = lines_of("pzh-22-spark-sql-001");
    assert_eq!(namespaces.len(), 4, "{namespaces:?}");
    for (node, at) in &namespaces {
        assert_eq!(at, "catalog.py:6-6", "{node}");
    }
    let tables = lines_of("pzh-22-spark-sql-002");
    assert_eq!(tables.len(), 2, "{tables:?}");
    for (node, at) in &tables {
        assert_eq!(at, "catalog.py:8-8", "{node}");
    }
}

#[test]
fn a_command_result_the_ui_lists_alone_is_the_statement_running_its_command() {
    for (case, line) in [
        ("pzh-22-spark-sql-001", "6-6"),
        ("pzh-22-spark-sql-002", "8-8"),
    ] {
        let plan = support::bench_plan_form("jupyter", case, "ui.json");
        let mappings = support::map_against(&[("catalog.py", SCRIPT)], &plan);
        assert_eq!(mappings.len(), 1, "{case}: the UI shows the result alone");
        let result = &mappings[0];
        let code = result.mapped_code.as_ref().expect("mapped");
        assert_eq!(code.lines, line, "{case}: {}", result.explanation);
        assert!(result.confidence >= 0.9, "{case}: {}", result.confidence);
    }
}

/// A notebook of functions listings, each in its own cell.
const LISTINGS: &str = "-- Databricks notebook source
SHOW FUNCTIONS

-- COMMAND ----------

SHOW SYSTEM FUNCTIONS

-- COMMAND ----------

SHOW USER FUNCTIONS

-- COMMAND ----------

SHOW FUNCTIONS \"s*\";

-- COMMAND ----------

SHOW FUNCTIONS LIKE \"collect*\";
";

#[test]
fn a_listing_of_some_functions_is_the_statement_narrowing_it_so() {
    let cases = [
        ("stdg-structured-apis-chapter-10-spark-sql-sql-018", 2),
        ("stdg-structured-apis-chapter-10-spark-sql-sql-019", 6),
        ("stdg-structured-apis-chapter-10-spark-sql-sql-020", 10),
        ("stdg-structured-apis-chapter-10-spark-sql-sql-021", 14),
        ("stdg-structured-apis-chapter-10-spark-sql-sql-022", 18),
    ];
    for (case, line) in cases {
        for form in ["formatted.txt", "ui.json"] {
            let plan = support::bench_plan_form("guide", case, form);
            let mappings = support::map_against(&[("listings.sql", LISTINGS)], &plan);
            assert!(!mappings.is_empty());
            for node in &mappings {
                let code = node.mapped_code.as_ref().expect("mapped");
                let (start, end) = code.lines.split_once('-').unwrap();
                let (start, end): (u32, u32) = (start.parse().unwrap(), end.parse().unwrap());
                // its cell, holding its statement and no other
                assert!(
                    start <= line && line <= end && end < line + 4,
                    "{case} {form} {}: {}",
                    node.node_name,
                    code.lines
                );
            }
        }
    }
}
