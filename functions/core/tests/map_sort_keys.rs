//! Sort keys as code writes them: `col("x").desc_nulls_last` (Scala, without parentheses) is a
//! descending key with its direction's default null ordering — the plan's `x DESC NULLS LAST`,
//! as `desc("x")` is.

mod support;

#[test]
fn a_descending_key_named_with_its_null_ordering_is_descending() {
    // The plan scans JSON and sorts by `IMDB_Rating DESC NULLS LAST`: the Scala notebook's
    // `desc_nulls_last` (a descending key's default) says `desc` as much as the Python
    // notebook's `desc(…)` does, whose reader of CSV is no reader of this plan's JSON. A real
    // Spark 4.3 plan (`bench/scalanb`).
    let scala = r#"// Databricks notebook source
val moviesDF = spark.read.option("inferSchema", "true").json("/work/app/src/main/resources/data/movies.json")

// COMMAND ----------

moviesDF.orderBy(col("IMDB_Rating").desc_nulls_last).show
"#;
    let python = r#"# Databricks notebook source
movies = spark.read.format("csv").option("header", "true").load("/work/app/src/main/resources/data/movies.csv")

# COMMAND ----------

movies.orderBy(desc("IMDB_Rating")).show()
"#;
    let mappings = support::map_against(
        &[
            ("notebooks/Types.scala", scala),
            ("notebooks/Movies.py", python),
        ],
        &support::bench_plan("scalanb", "snb-spark_types-013"),
    );
    for id in ["1", "5"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        assert_eq!(
            support::code_at(&mappings, id).0,
            "notebooks/Types.scala",
            "node {id}: {}",
            m.explanation
        );
    }
}

/// A sort whose rows a limit takes is one TakeOrderedAndProject, with the limit's origin: the
/// limit's statement when the two are written apart, the chain holding both when written together
/// (real plan: `take-ordered-and-project`, `pq.orderBy(F.desc("o_amount")).limit(5)…`).
#[test]
fn a_sort_a_later_statement_limits_is_that_statements_top_n() {
    let apart = "from pyspark.sql import SparkSession\nimport pyspark.sql.functions as F\n\n\
                 spark = SparkSession.builder.getOrCreate()\n\
                 pq = spark.read.parquet(\"/tmp/plan2code-fixture-data/orders.parquet\")\n\
                 top = pq.orderBy(F.desc(\"o_amount\"))\n\
                 top.limit(5).select(\"o_id\", \"o_amount\").show()\n";
    let together = "from pyspark.sql import SparkSession\nimport pyspark.sql.functions as F\n\n\
                    spark = SparkSession.builder.getOrCreate()\n\
                    pq = spark.read.parquet(\"/tmp/plan2code-fixture-data/orders.parquet\")\n\
                    top = pq.orderBy(F.desc(\"o_amount\")).limit(5)\n\
                    top.select(\"o_id\", \"o_amount\").show()\n";
    let plan = support::fixture_plan("take-ordered-and-project");
    for (script, line) in [(apart, "7-7"), (together, "6-6")] {
        let mappings = support::map_against(&[("top.py", script)], &plan);
        let top_n = mappings.iter().find(|m| m.dag_node_id == "4").unwrap();
        assert_eq!(top_n.node_name, "TakeOrderedAndProject");
        let code = top_n.mapped_code.as_ref().unwrap();
        assert_eq!(code.lines, line, "{}", top_n.explanation);
        assert!(top_n.confidence > 0.8, "{}", top_n.explanation);
    }
}
