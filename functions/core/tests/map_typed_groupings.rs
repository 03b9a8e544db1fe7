//! A typed grouping (`ds.groupByKey(f).mapGroups(g)`) mapped end to end, from a real Spark 4.3
//! plan of the project's Scala ETL set (`bench/scalaetl`): Spark appends each row's key
//! (`AppendColumns … AS value`) before it shuffles and groups by it, and that step is the
//! `groupByKey` call's — not a collection method of the closure that happens to project
//! (`rows.isEmpty`).

mod support;

const JOB: &str = r#"package QuantexaAssignment.analytics

object LongestRunWithoutUK {
  def apply(flights: Dataset[Flight]): Dataset[CountryCount] = {
    import flights.sparkSession.implicits._
    flights.groupByKey(_.passengerId).mapGroups { case (passengerId, rows) =>
      val countries = rows.toSeq.map(_.to)
      val longest = if (countries.isEmpty) 0 else countries.length
      CountryCount(passengerId, longest)
    }.orderBy($"countryCount".desc)
  }
}
"#;

const READER: &str = r#"package QuantexaAssignment.util

object CsvUtils {
  def read(spark: SparkSession, path: String): DataFrame =
    spark.read.option("header", "true").csv(path)
}
"#;

#[test]
fn the_key_a_typed_grouping_appends_is_the_grouping_call_s() {
    let plan = support::bench_plan("scalaetl", "setl-longest-run-without-uk-001");
    let mappings = support::map_against(
        &[
            ("src/main/scala/analytics/LongestRunWithoutUK.scala", JOB),
            ("src/main/scala/util/CsvUtils.scala", READER),
        ],
        &plan,
    );
    // (2) AppendColumns, (7) MapGroups: the statement grouping by key
    for node in ["2", "7"] {
        let (file, lines) = support::code_at(&mappings, node);
        assert_eq!(
            (file.as_str(), lines.as_str()),
            ("src/main/scala/analytics/LongestRunWithoutUK.scala", "6-6"),
            "node {node}"
        );
    }
}
