//! A function returning a column expression (`def squeeze(c): return lower(regexp_replace(c, …))`)
//! applied in a frame's arguments plans what its body calls: of two look-alike selects, the one
//! applying the helper whose expression the Project prints is the Project's code.

mod support;

const PLAN: &str = "\
== Physical Plan ==
* Project (2)
+- * Scan ExistingRDD (1)


(1) Scan ExistingRDD [codegen id : 1]
Output [1]: [cry#11]
Arguments: [cry#11], MapPartitionsRDD[5] at applySchemaToPythonRDD at NativeMethodAccessorImpl.java:0, ExistingRDD, UnknownPartitioning(0)

(2) Project [codegen id : 1]
Output [1]: [lower(regexp_replace(cry#11, \\s+, , 1)) AS clean_cry#12]
Input [1]: [cry#11]
";

const PYTHON: &str = "\
from pyspark.sql import functions as F


def shout(c):
    return F.upper(F.trim(c))


def squeeze(c):
    return F.lower(F.regexp_replace(c, \"\\\\s+\", \"\"))


def loud(spark):
    df = spark.createDataFrame([(\"  BOO \",)], [\"cry\"])
    return df.select(shout(F.col(\"cry\")).alias(\"clean_cry\"))


def quiet(spark):
    df = spark.createDataFrame([(\"  BOO \",)], [\"cry\"])
    return df.select(squeeze(F.col(\"cry\")).alias(\"clean_cry\"))
";

const SCALA: &str = "\
package cleaning

import org.apache.spark.sql.{Column, DataFrame, SparkSession}
import org.apache.spark.sql.functions._

object Cleaners {
  def shout()(c: Column): Column = {
    upper(trim(c))
  }

  def squeeze()(c: Column): Column = {
    lower(regexp_replace(c, \"\\\\s+\", \"\"))
  }
}

object Jobs {
  def loud(spark: SparkSession): DataFrame = {
    import spark.implicits._
    val df = Seq(\"  BOO \").toDF(\"cry\")
    df.select(Cleaners.shout()(col(\"cry\")).as(\"clean_cry\"))
  }

  def quiet(spark: SparkSession): DataFrame = {
    import spark.implicits._
    val df = Seq(\"  BOO \").toDF(\"cry\")
    df.select(Cleaners.squeeze()(col(\"cry\")).as(\"clean_cry\"))
  }
}
";

fn project_lines(path: &str, source: &str) -> String {
    let mappings = support::map_against(&[(path, source)], PLAN);
    let project = mappings.iter().find(|m| m.dag_node_id == "2").expect("2");
    let code = project.mapped_code.as_ref().expect("mapped");
    assert_eq!(code.file, path);
    code.lines.clone()
}

#[test]
fn a_python_column_helper_applies_the_functions_its_expression_calls() {
    assert_eq!(project_lines("jobs/clean.py", PYTHON), "19-19");
}

#[test]
fn a_scala_column_helper_applies_the_functions_its_expression_calls() {
    assert_eq!(
        project_lines("src/main/scala/cleaning/Jobs.scala", SCALA),
        "26-26"
    );
}
