//! Databricks notebook sources and Jupyter notebooks: chains and SQL cells land on lines a user
//! can open (the `.py` file's own lines; for `.ipynb`, the JSON file's line holding the source).

use plan2code_core::code::{IndexOptions, LineRange, SqlClauseKind, SqlOrigin, build_index};
use std::path::PathBuf;

fn notebooks() -> plan2code_core::code::RepoIndex {
    let root =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/repos/notebooks");
    build_index(&root, None, "k".into(), &IndexOptions::default()).unwrap()
}

#[test]
fn databricks_source_cells() {
    let index = notebooks();
    let file = index
        .files
        .iter()
        .find(|f| f.path == "daily_kpis.py")
        .unwrap();
    assert!(file.notebook);
    let sql: Vec<_> = index.sql.iter().filter(|s| s.file == file.id).collect();
    assert_eq!(sql.len(), 1);
    assert_eq!(sql[0].origin, SqlOrigin::NotebookCell);
    assert!(sql[0].parsed);
    assert_eq!(sql[0].lines, LineRange::new(14, 17));
    let clause = |kind| sql[0].clauses.iter().find(|c| c.kind == kind).unwrap();
    assert_eq!(clause(SqlClauseKind::From).lines, LineRange::new(15, 15));
    assert_eq!(clause(SqlClauseKind::GroupBy).lines, LineRange::new(17, 17));
    // The `%python` magic cell is indexed on its own line, fed by `events` from another cell.
    let daily = index
        .chains
        .iter()
        .find(|c| c.file == file.id && c.assigned_to.as_deref() == Some("daily"))
        .expect("chain inside a %python cell");
    assert_eq!(daily.statement, LineRange::new(22, 22));
    assert_eq!(daily.receiver, "events");
    assert_eq!(daily.calls[1].args.functions, vec!["countDistinct"]);
    let write = index
        .chains
        .iter()
        .find(|c| c.file == file.id && c.receiver == "daily")
        .unwrap();
    assert_eq!(write.statement, LineRange::new(26, 26));
}

#[test]
fn jupyter_lines_are_json_file_lines() {
    let index = notebooks();
    let file = index
        .files
        .iter()
        .find(|f| f.path == "churn.ipynb")
        .unwrap();
    assert!(file.notebook);
    let users = index
        .chains
        .iter()
        .find(|c| c.file == file.id && c.assigned_to.as_deref() == Some("users"))
        .unwrap();
    assert_eq!(users.statement, LineRange::new(18, 18));
    let active = index
        .chains
        .iter()
        .find(|c| c.file == file.id && c.assigned_to.as_deref() == Some("active"))
        .unwrap();
    assert_eq!(active.statement, LineRange::new(19, 22));
    let filter = active.calls.iter().find(|c| c.method == "filter").unwrap();
    assert_eq!(filter.lines, LineRange::new(20, 20));
    assert_eq!(filter.args.columns, vec!["active"]);
    let group_by = active.calls.iter().find(|c| c.method == "groupBy").unwrap();
    assert_eq!(group_by.lines, LineRange::new(21, 21));
    let sql: Vec<_> = index.sql.iter().filter(|s| s.file == file.id).collect();
    assert_eq!(sql.len(), 1);
    assert_eq!(sql[0].lines, LineRange::new(32, 34));
    let from = sql[0]
        .clauses
        .iter()
        .find(|c| c.kind == SqlClauseKind::From)
        .unwrap();
    assert_eq!(from.lines, LineRange::new(33, 33));
}

/// Index `files` (path, source) written to a temporary repository.
fn index_of(files: &[(&str, &str)]) -> plan2code_core::code::RepoIndex {
    let dir = tempfile::tempdir().unwrap();
    for (path, source) in files {
        std::fs::write(dir.path().join(path), source).unwrap();
    }
    build_index(dir.path(), None, "k".into(), &IndexOptions::default()).unwrap()
}

/// A SQL notebook export copied without its header (a book's code folder): cells separated by
/// `-- COMMAND ----------`, no `;` anywhere.
const SQL_NOTEBOOK: &str = "\
SELECT DEST_COUNTRY_NAME FROM dfTable LIMIT 2


-- COMMAND ----------

SELECT DEST_COUNTRY_NAME, count
FROM dfTable
WHERE count > 10


-- COMMAND ----------

-- MAGIC %md A note on the next query

-- COMMAND ----------

SELECT avg(count) FROM dfTable
";

#[test]
fn each_cell_of_a_sql_notebook_is_a_query_of_its_own() {
    let index = index_of(&[("chapter.sql", SQL_NOTEBOOK)]);
    assert!(index.files[0].notebook, "a headerless export is a notebook");
    let lines: Vec<LineRange> = index.sql.iter().map(|s| s.lines).collect();
    assert_eq!(
        lines,
        vec![
            LineRange::new(1, 1),
            LineRange::new(6, 8),
            LineRange::new(17, 17)
        ]
    );
    assert!(index.sql.iter().all(|s| s.parsed));
    let filter = index.sql[1]
        .clauses
        .iter()
        .find(|c| c.kind == SqlClauseKind::Where)
        .unwrap();
    assert_eq!(filter.lines, LineRange::new(8, 8));
}

#[test]
fn a_headerless_export_is_told_by_its_cell_separators() {
    let python = "df = spark.read.json(\"/data/a.json\")\n\n# COMMAND ----------\n\ndf.count()\n";
    let scala =
        "val df = spark.read.json(\"/data/a.json\")\n\n// COMMAND ----------\n\ndf.count()\n";
    let plain = "df = spark.read.json(\"/data/a.json\")\n# a comment\ndf.count()\n";
    let index = index_of(&[("a.py", python), ("b.scala", scala), ("c.py", plain)]);
    let notebook = |path: &str| {
        index
            .files
            .iter()
            .find(|f| f.path == path)
            .unwrap()
            .notebook
    };
    assert!(notebook("a.py"));
    assert!(notebook("b.scala"));
    assert!(!notebook("c.py"));
}
