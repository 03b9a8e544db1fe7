//! Values Spark prints unquoted: a format of several words and signs (`dd/MMM/yyyy`) is one
//! value, as the code writes it, so two formats of the same words in one script are told apart.

mod support;

const SCRIPT: &str = "\
from pyspark.sql import SparkSession
from pyspark.sql.functions import date_format

spark = SparkSession.builder.getOrCreate()
df = spark.read.csv(\"data/events.csv\", header=True, inferSchema=True)
df.select(date_format(\"day\", \"yyyy/MMM/dd\").alias(\"shown\")).show()
df.select(date_format(\"day\", \"dd/MMM/yyyy\").alias(\"shown\")).show()
";

fn projection_line(format: &str) -> String {
    let plan = format!(
        "\
== Physical Plan ==
* Project (2)
+- Scan csv  (1)


(1) Scan csv 
Output [1]: [day#3]
Batched: false
Location: InMemoryFileIndex [file:/data/events.csv]
ReadSchema: struct<day:date>

(2) Project [codegen id : 1]
Output [1]: [date_format(cast(day#3 as timestamp), {format}, Some(Etc/UTC)) AS shown#9]
Input [1]: [day#3]
"
    );
    let mappings = support::map_against(&[("events.py", SCRIPT)], &plan);
    let project = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    project.mapped_code.as_ref().unwrap().lines.clone()
}

#[test]
fn a_format_of_several_words_is_one_value() {
    assert_eq!(projection_line("dd/MMM/yyyy"), "7-7");
    assert_eq!(projection_line("yyyy/MMM/dd"), "6-6");
}
