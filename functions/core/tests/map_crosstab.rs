//! `df.stat.crosstab("a", "b")` names no function, but Spark plans it as a count of each pair
//! (both columns cleaned of nulls and back-quotes), pivoted on the second column's values and
//! keyed by a column it names `a_b`, with missing counts filled with 0. Those are the crosstab's
//! evidence, so its aggregates are not mistaken for another file's `count(1)`.

mod support;

const TYPES: &str = "\
df = spark.read.format(\"csv\")\\
  .option(\"header\", \"true\")\\
  .option(\"inferSchema\", \"true\")\\
  .load(\"/data/retail-data/by-day/2010-12-01.csv\")
df.createOrReplaceTempView(\"dfTable\")

df.stat.crosstab(\"StockCode\", \"Quantity\").show()
";

const FLIGHTS: &str = "\
flights = spark.read.option(\"inferSchema\", \"true\").option(\"header\", \"true\")\\
  .csv(\"/data/flight-data/csv/2015-summary.csv\")
flights.createOrReplaceTempView(\"flight_data_2015\")
counts = spark.sql(\"\"\"
SELECT DEST_COUNTRY_NAME, count(1)
FROM flight_data_2015
GROUP BY DEST_COUNTRY_NAME
\"\"\")
counts.show()
";

/// The same file read and grouped by both columns: a count of each pair, but no pivot.
const PAIRS: &str = "\
df = spark.read.format(\"csv\")\\
  .option(\"header\", \"true\")\\
  .option(\"inferSchema\", \"true\")\\
  .load(\"/data/retail-data/by-day/2010-12-01.csv\")

df.groupBy(\"StockCode\", \"Quantity\").count().show()
";

#[test]
fn a_crosstabs_aggregates_are_the_crosstab() {
    let plan = support::bench_plan(
        "guide",
        "stdg-structured-apis-chapter-6-working-with-different-types-of-data-010",
    );
    let mappings = support::map_against(
        &[
            ("types.py", TYPES),
            ("flights.py", FLIGHTS),
            ("pairs.py", PAIRS),
        ],
        &plan,
    );
    // the partial count of each pair, the pivot and the filled counts
    for node in ["3", "7", "8", "12", "13"] {
        assert_eq!(
            support::code_at(&mappings, node),
            ("types.py".to_owned(), "7-7".to_owned()),
            "node {node}"
        );
    }
}
