//! `repartition(1)` plans an `Exchange SinglePartition, REPARTITION_BY_NUM`; `coalesce(n)` plans a
//! `Coalesce` and no exchange at all. Neither names a column, and Spark prints the one partition
//! the way every `1` is ignored, so the two calls looked alike: the exchange of a job's
//! `df_out.repartition(1).write.csv(…)` went to a loader's `df.coalesce(part_num)` in another
//! module. How a call redistributes rows is evidence on both sides. A real Spark 4.3 plan
//! (`bench/sqlfiles`).

mod support;

const LOADER: &str = r#"def load(spark, df):
    part_num = spark.sparkContext.defaultParallelism
    if df.rdd.getNumPartitions() > part_num:
        df = df.coalesce(part_num)
    df.write.orc("parse/")
"#;

const RUNNER: &str = r#"def run(spark, sql):
    parsed = spark.read.orc("parse/")
    parsed.createOrReplaceTempView("p_books_data")
    df_out = spark.sql(sql)
    df_out.repartition(1).write.csv("cil/top_genres", header=True)
"#;

const QUERY: &str = "SELECT genre, count(*) AS cnt\n\
FROM (SELECT explode(genres) AS genre FROM p_books_data WHERE genres IS NOT NULL)\n\
GROUP BY genre\n\
ORDER BY cnt DESC\n\
LIMIT 5\n";

#[test]
fn a_repartition_is_the_exchange_and_a_coalesce_is_not() {
    let plan = support::bench_plan("sqlfiles", "adi-main-002");
    let files = [
        ("etl/a_load.py", LOADER),
        ("etl/run.py", RUNNER),
        ("etl/top_genres.sql", QUERY),
    ];
    let mappings = support::map_against(&files, &plan);
    for id in ["12", "22"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).expect(id);
        assert!(m.node_name.starts_with("Exchange"), "{}", m.node_name);
        let code = m.mapped_code.as_ref().expect("mapped");
        assert_eq!(
            (code.file.as_str(), code.lines.as_str()),
            ("etl/run.py", "5-5"),
            "node {id}"
        );
    }
}
