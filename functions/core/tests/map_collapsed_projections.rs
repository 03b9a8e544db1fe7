//! A notebook computes columns a statement at a time (`emp_gender_fixed = emp.withColumn(…)`,
//! then `emp_name_fixed = emp_gender_fixed.withColumn(…)`, …) and shows the last frame; Spark
//! collapses the adjacent projections into one Project that no statement explains alone. The
//! flow holding them explains it between them — not a sibling lesson showing the same frame
//! straight after making it — and the Project keeps the first statement's place (collapsing
//! copies the lower Project). A real Spark 4.3 plan (`bench/jupyter`).
//!
//! Spark folds a projection after an aggregate into the aggregate's results too
//! (`format_number(avg(Close), 2) AS Mean Close` from a later `select`): the statements renaming
//! and formatting the aggregated frame, one variable reassigned a statement at a time, are the
//! flow that explains it — not an earlier cell showing the bare aggregate.
//!
//! When a later statement names a result again (`withColumn("trimmed_word", …)` twice), Spark
//! keeps the last alias of that name: the collapsed Project is the later statement's.

mod support;

const SCHEMA_AND_ROWS: &str = r#"emp_data = [
    ["001","101","John Doe","30","Male","50000","2015-01-01"],
    ["002","101","Jane Smith","25","Female","45000","2016-02-15"],
]
emp_schema = "employee_id string, department_id string, name string, age string, gender string, salary string, hire_date string"
"#;

fn lesson(body: &str) -> String {
    format!(
        "from pyspark.sql import SparkSession\n\
         from pyspark.sql.functions import when, col, regexp_replace, to_date, current_date, current_timestamp\n\
         spark = SparkSession.builder.getOrCreate()\n\
         {SCHEMA_AND_ROWS}\
         emp = spark.createDataFrame(data=emp_data, schema=emp_schema)\n\
         emp.show()\n\
         {body}"
    )
}

#[test]
fn projections_spark_collapsed_are_the_flow_holding_them_and_the_first_ones_place() {
    let plan = support::bench_plan("jupyter", "pzh-04-string-and-dates-004");
    let strings = lesson(
        "emp_gender_fixed = emp.withColumn(\"new_gender\", when(col(\"gender\") == 'Male', 'M').when(col(\"gender\") == 'Female', 'F').otherwise(None))\n\
         emp_name_fixed = emp_gender_fixed.withColumn(\"new_name\", regexp_replace(col(\"name\"), \"J\", \"Z\"))\n\
         emp_date_fix = emp_name_fixed.withColumn(\"hire_date\", to_date(col(\"hire_date\"), 'yyyy-MM-dd'))\n\
         emp_dated = emp_date_fix.withColumn(\"date_now\", current_date()).withColumn(\"timestamp_now\", current_timestamp())\n\
         emp_dated.show(truncate=False)\n",
    );
    let session = lesson("emp.printSchema()\n");
    let mappings = support::map_against(
        &[
            ("01_session.py", session.as_str()),
            ("04_strings.py", strings.as_str()),
        ],
        &plan,
    );
    let at = |id: &str| support::code_at(&mappings, id);
    // the rows the flow shows were made by its own lesson's statement
    assert_eq!(at("1"), ("04_strings.py".to_owned(), "9-9".to_owned()));
    // the first of the collapsed statements
    assert_eq!(at("2"), ("04_strings.py".to_owned(), "11-11".to_owned()));
}

#[test]
fn a_projection_folded_into_an_aggregate_brings_the_statements_after_it() {
    let plan = support::bench_plan("jupyter", "tsp-dates-and-timestamps-009");
    let notebook = "from pyspark.sql import SparkSession\n\
                    from pyspark.sql.functions import year, format_number\n\
                    spark = SparkSession.builder.getOrCreate()\n\
                    df = spark.read.csv('appl_stock.csv', inferSchema=True, header=True)\n\
                    newdf = df.withColumn(\"Year\", year(df['Date']))\n\
                    newdf.groupBy(\"Year\").mean()[['avg(Year)', 'avg(Close)']].show()\n\
                    result = newdf.groupBy(\"Year\").mean()[['avg(Year)', 'avg(Close)']]\n\
                    result = result.withColumnRenamed(\"avg(Year)\", \"Year\")\n\
                    result = result.select('Year', format_number('avg(Close)', 2).alias(\"Mean Close\")).show()\n";
    let mappings = support::map_against(&[("Dates_and_Timestamps.py", notebook)], &plan);
    let at = |id: &str| support::code_at(&mappings, id).1;
    // the partial aggregate is the grouping the renamed frame comes from …
    assert_eq!(at("3"), "7-7");
    // … and the final one, with the formatting folded in, the statement formatting it
    assert_eq!(at("7"), "9-9");
}

const QUOTES_SCALA: &str = r#"package demo

import org.apache.spark.sql.{Row, SparkSession}
import org.apache.spark.sql.functions._
import org.apache.spark.sql.types._

object Quotes {
  def quoted(name: String) = concat(lit("\""), col(name), lit("\""))

  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().getOrCreate()
    val rows = spark.sparkContext.parallelize(Seq(Row("  a  "), Row("b "), Row(null)))
    val words = spark.createDataFrame(rows, StructType(List(StructField("word", StringType, true))))
    val trimmed = words.withColumn("trimmed_word", trim(col("word")))
    trimmed
      .withColumn("word", quoted("word"))
      .withColumn("trimmed_word", quoted("trimmed_word"))
      .show()
  }
}
"#;

#[test]
fn a_collapsed_projection_is_the_statement_that_named_its_results_last() {
    // `trimmed_word` is named twice: Spark keeps the last alias of a name when it collapses the
    // projections, so the Project's `… AS trimmed_word` is the quoting statement's, not the trim's
    // whose result it replaced (a real Spark 4.3 plan, `bench/scalatest`).
    let plan = support::bench_plan("scalatest", "sxt-whitespace-spec-001");
    let mappings =
        support::map_against(&[("src/main/scala/demo/Quotes.scala", QUOTES_SCALA)], &plan);
    let (file, lines) = support::code_at(&mappings, "2");
    assert_eq!(file, "src/main/scala/demo/Quotes.scala");
    assert_eq!(lines, "15-18");
}
