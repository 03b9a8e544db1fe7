//! Scala passes a lambda as a block outside parentheses (`.mapGroups { (id, trips) => … }`)
//! and goes on after its closing brace (`}.orderBy(…)`). A reader sees three statements there —
//! the call before the block, the block's body and the call after it — and so does the
//! benchmark's labelling: the typed grouping is the line opening the block, the sort the line
//! closing it, not the whole chain's lines. A real Spark 4.3 plan (`bench/scalaetl`).

mod support;

const ANALYTICS: &str = r#"package analytics

import org.apache.spark.sql.{Dataset, SparkSession}

case class Flight(passengerId: Int, flightId: Int, from: String, to: String, date: java.sql.Date)
case class CountryCount(passengerId: Int, countryCount: Long)

object LongestRunWithoutUK {
  def apply(flights: Dataset[Flight])(implicit spark: SparkSession): Dataset[CountryCount] = {
    import spark.implicits._
    flights.groupByKey(_.passengerId).mapGroups { (id: Int, trips: Iterator[Flight]) =>
      val countries = trips.count(_.to != "uk")
      CountryCount(id, countries.toLong)
    }.orderBy($"countryCount".desc)
  }
}
"#;

const MAIN: &str = r#"package analytics

import org.apache.spark.sql.{Encoders, SparkSession}

object Main {
  def main(args: Array[String]): Unit = {
    implicit val spark: SparkSession = SparkSession.builder().getOrCreate()
    import spark.implicits._
    val flights = spark.read.option("header", "true").schema(Encoders.product[Flight].schema).csv("data/flightData.csv").as[Flight]
    LongestRunWithoutUK(flights).show()
  }
}
"#;

#[test]
fn a_block_argument_splits_a_scala_chain_into_the_statements_a_reader_sees() {
    let plan = support::bench_plan("scalaetl", "setl-longest-run-without-uk-001");
    let mappings = support::map_against(
        &[
            (
                "src/main/scala/analytics/LongestRunWithoutUK.scala",
                ANALYTICS,
            ),
            ("src/main/scala/Main.scala", MAIN),
        ],
        &plan,
    );
    let lines = |id: &str| support::code_at(&mappings, id).1;
    // the typed grouping: the line opening the block
    assert_eq!(lines("7"), "11-11");
    // the sort after the block: the line closing it
    assert_eq!(lines("12"), "14-14");
}
