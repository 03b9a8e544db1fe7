//! Subtotals by several groupings of one frame (`groupBy("city", "year")` beside
//! `groupBy("city")`): every statement names the same columns and aggregates, so only the keys the
//! plan's Aggregate groups by tell them apart. A real Spark 4.3 plan of the project's scripts set
//! (`bench/scripts`): the subtotals by city, a `null` year folded into its results.

mod support;

const SUBTOTALS: &str = r#"from pyspark.sql.functions import sum, lit

data = [("Ames", 2020, 100), ("Ames", 2021, 200), ("Troy", 2020, 300)]
sales = spark.createDataFrame(data, ("city", "year", "amount"))
by_city_and_year = sales.groupBy("city", "year").agg(sum("amount").alias("amount"))
by_city_and_year.show()
by_city = sales.groupBy("city").agg(sum("amount").alias("amount")).select("city", lit(None).alias("year"), "amount")
by_city.show()
"#;

#[test]
fn an_aggregate_is_the_grouping_by_its_own_keys() {
    let plan = support::bench_plan("scripts", "pal-dataframe-multi-dim-agg-groupby-003");
    let mappings = support::map_against(&[("subtotals.py", SUBTOTALS)], &plan);
    // (3) and (7) aggregate by `city` alone; (2) prunes the rows for them
    for node in ["2", "3", "7"] {
        let m = mappings.iter().find(|m| m.dag_node_id == node).unwrap();
        assert_eq!(m.mapped_code.as_ref().unwrap().lines, "7-7", "node {node}");
    }
}
