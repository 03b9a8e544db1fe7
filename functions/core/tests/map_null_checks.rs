//! A null check Spark could have inferred that the code states: `explode(genres)` makes Spark
//! filter `isnotnull(genres) AND size(genres) > 0` below the Generate, and the query's own
//! `WHERE genres IS NOT NULL` is kept in that one Filter. With no such WHERE the Filter serves the
//! generator and maps where it does (the aggregate of its query, `map_sql_generators.rs`); with
//! it, the Filter is the WHERE. A real Spark 4.3 plan (`bench/sqlfiles`).

mod support;

const RUNNER: &str = r#"def run(spark, sql):
    parsed = spark.read.orc("parse/")
    parsed.createOrReplaceTempView("p_books_data")
    spark.sql(sql).repartition(1).write.csv("cil/top_genres", header=True)
"#;

const STATED: &str = "SELECT genre, count(*) AS cnt\n\
FROM (\n\
  SELECT explode(genres) AS genre\n\
  FROM p_books_data\n\
  WHERE genres IS NOT NULL)\n\
GROUP BY genre\n\
ORDER BY cnt DESC\n\
LIMIT 5\n";

fn filters_at(query: &str) -> Vec<String> {
    nodes_at(query, "Filter")
}

/// Where the nodes named `name…` of the plan map, run from `query`.
fn nodes_at(query: &str, name: &str) -> Vec<String> {
    let plan = support::bench_plan("sqlfiles", "adi-main-002");
    let files = [("etl/run.py", RUNNER), ("etl/top_genres.sql", query)];
    support::map_against(&files, &plan)
        .into_iter()
        .filter(|m| m.node_name.starts_with(name))
        .map(|m| {
            let code = m.mapped_code.expect("mapped");
            format!("{}:{}", code.file, code.lines)
        })
        .collect()
}

#[test]
fn an_inferred_null_check_the_code_states_is_the_code_s_filter() {
    let stated = filters_at(STATED);
    assert_eq!(stated.len(), 2, "{stated:?}");
    assert!(
        stated.iter().all(|at| at == "etl/top_genres.sql:5-5"),
        "{stated:?}"
    );
    // without the WHERE, the checks are the generator's
    let unstated = STATED.replace("WHERE genres IS NOT NULL)", ")");
    assert_ne!(unstated, STATED);
    let inferred = filters_at(&unstated);
    let generator = nodes_at(&unstated, "Generate");
    assert!(
        !generator.is_empty() && inferred.iter().all(|at| at == &generator[0]),
        "{inferred:?} {generator:?}"
    );
    assert!(inferred.iter().all(|at| at != "etl/top_genres.sql:5-5"));
}
