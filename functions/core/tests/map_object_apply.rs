//! Scala calls an object's `apply` by the object's name: `NonUk(flights)` runs
//! `object NonUk { def apply(flights: Dataset[Flight]) = … }`. Two suites build the same rows
//! with `Seq(Flight(…)).toDS()`, one for `NonUk` and one for another object; the job passes
//! frames it read in a way the flow cannot follow. The plan filtering out flights to the UK
//! over local rows is `NonUk`'s, fed by the suite calling it — not by the look-alike rows of the
//! suite calling the other object.

mod support;

const MODEL: &str = r#"package demo

case class Flight(passengerId: Int, from: String, to: String)
"#;

const NON_UK: &str = r#"package demo

import org.apache.spark.sql.Dataset

object NonUk {
  def apply(flights: Dataset[Flight]): Dataset[Flight] = {
    import flights.sparkSession.implicits._
    flights.filter($"to" =!= "uk")
  }
}
"#;

const READERS: &str = r#"package demo

import org.apache.spark.sql.{Dataset, SparkSession}

object Readers {
  def flights(spark: SparkSession, path: String): Dataset[Flight] = {
    import spark.implicits._
    spark.read.option("header", "true").csv(path).as[Flight]
  }
}
"#;

const MAIN: &str = r#"package demo

import org.apache.spark.sql.SparkSession
import scala.util.Try

object Main {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().getOrCreate()
    Try(Readers.flights(spark, "data/flights.csv")).foreach { loaded =>
      NonUk(loaded).show()
    }
  }
}
"#;

const SPEC: &str = r#"package demo

class NonUkSpec extends AnyFlatSpec with Matchers {
  val spark = SparkSession.builder().master("local[*]").getOrCreate()
  import spark.implicits._

  "NonUk" should "drop flights to the UK" in {
    val flights = Seq(Flight(1, "fr", "uk"), Flight(2, "uk", "fr")).toDS()
    val result = NonUk(flights).collect()
    result.length shouldBe 1
  }
}
"#;

const TO_UK: &str = r#"package demo

import org.apache.spark.sql.Dataset

object ToUk {
  def apply(flights: Dataset[Flight]): Dataset[Flight] = {
    import flights.sparkSession.implicits._
    flights.filter($"to" === "uk")
  }
}
"#;

/// Another suite building the same rows for the other object.
const TO_UK_SPEC: &str = r#"package demo

class ToUkSpec extends AnyFlatSpec with Matchers {
  val spark = SparkSession.builder().master("local[*]").getOrCreate()
  import spark.implicits._

  "ToUk" should "keep flights to the UK" in {
    val flights = Seq(Flight(1, "fr", "uk"), Flight(2, "uk", "fr")).toDS()
    val result = ToUk(flights).collect()
    result.length shouldBe 1
  }
}
"#;

const TEST_PLAN: &str = "== Physical Plan ==
* Filter (2)
+- LocalTableScan (1)


(1) LocalTableScan
Output [3]: [passengerId#10, from#11, to#12]
Arguments: [passengerId#10, from#11, to#12]

(2) Filter [codegen id : 1]
Input [3]: [passengerId#10, from#11, to#12]
Condition : NOT (to#12 = uk)
";

fn repository() -> Vec<(&'static str, &'static str)> {
    vec![
        ("src/main/scala/demo/Flight.scala", MODEL),
        ("src/main/scala/demo/NonUk.scala", NON_UK),
        ("src/main/scala/demo/ToUk.scala", TO_UK),
        ("src/main/scala/demo/Readers.scala", READERS),
        ("src/main/scala/demo/Main.scala", MAIN),
        ("src/test/scala/demo/NonUkSpec.scala", SPEC),
        ("src/test/scala/demo/AllToUkSpec.scala", TO_UK_SPEC),
    ]
}

#[test]
fn a_suite_calling_an_object_by_its_name_feeds_it_its_rows() {
    let mappings = support::map_against(&repository(), TEST_PLAN);
    let rows = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    let code = rows.mapped_code.as_ref().expect("mapped");
    assert_eq!(
        (code.file.as_str(), code.lines.as_str()),
        ("src/test/scala/demo/NonUkSpec.scala", "8-8"),
        "{}",
        rows.explanation
    );
}
