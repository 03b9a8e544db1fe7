//! `describe()` and `summary()` plan their statistics as an aggregate exploded into rows and a
//! Project picking each column's statistic out of its map under the column's own name
//! (`element_at(number, summary) AS number`). A bare `describe()` names none of those columns,
//! yet the Project is its: a test's `select` before it naming the column, a library's renaming
//! upstream, compatible with a Project, are not. A real Spark 4.3 plan of the project's `scripts`
//! set (`bench/scripts`), with code of our own: a test describing what a library tidied.

mod support;

const LIBRARY: &str = r#"def tidy(df, columns):
    for column in columns:
        df = df.withColumnRenamed(column + "_raw", column)
    return df
"#;

const TEST: &str = r#"from lib.numbers import tidy


def test_statistics(spark):
    df = spark.createDataFrame([(1, "a"), (2, "b")], ["number", "name"])
    odf = tidy(df, ["number"])
    numbers = odf.select("number")
    numbers.describe().show()
"#;

#[test]
fn the_statistics_picked_out_of_their_maps_are_the_describe_calls() {
    let plan = support::bench_plan("scripts", "pal-dataframe-action-describe-004");
    let mappings = support::map_against(
        &[("lib/numbers.py", LIBRARY), ("tests/test_numbers.py", TEST)],
        &plan,
    );
    let at = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).expect(id);
        let code = m.mapped_code.as_ref().expect("mapped");
        (code.file.clone(), code.lines.clone())
    };
    let describe = ("tests/test_numbers.py".to_owned(), "8-8".to_owned());
    // the statistics' aggregate, their rows and the Project picking them out: the `describe()`
    for id in ["6", "7", "8"] {
        assert_eq!(at(id), describe, "{id}");
    }
}

/// A model's data selected, split and described, as a notebook does; other scripts describe
/// frames of their own, so that picking statistics out of maps is common evidence in the
/// repository and the select naming the described column looks the better match.
const SPLIT_AND_DESCRIBED: &str = r#"from pyspark.sql import SparkSession
from pyspark.ml.feature import VectorAssembler
spark = SparkSession.builder.getOrCreate()
data = spark.read.csv("Ecommerce_Customers.csv", inferSchema=True, header=True)
assembler = VectorAssembler(inputCols=["Avg Session Length", "Time on App", "Time on Website", "Length of Membership"], outputCol="features")
output = assembler.transform(data)
final_data = output.select("features", 'Yearly Amount Spent')
train_data, test_data = final_data.randomSplit([0.7, 0.3])
train_data.describe().show()
"#;

const DESCRIBES_ITS_OWN: &str = r#"from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
other = spark.read.csv("other.csv", header=True)
other.describe().show()
other.summary().show()
"#;

#[test]
fn a_select_naming_the_described_column_picks_no_statistic() {
    // `element_at(Yearly Amount Spent, summary, …) AS Yearly Amount Spent`: the describe's, not
    // the `select("features", 'Yearly Amount Spent')` two statements before it
    let plan = support::bench_plan("jupyter", "tsp-linear-regression-code-along-006");
    let mut files = vec![("lr.py", SPLIT_AND_DESCRIBED)];
    let others: Vec<String> = (1..=4).map(|i| format!("other{i}.py")).collect();
    files.extend(others.iter().map(|name| (name.as_str(), DESCRIBES_ITS_OWN)));
    let mappings = support::map_against(&files, &plan);
    assert_eq!(
        support::code_at(&mappings, "12"),
        ("lr.py".to_owned(), "9-9".to_owned())
    );
}

/// A stock table described twice: shown as it is, then formatted by a select of the described
/// frame.
const DESCRIBED_AND_FORMATTED: &str = r#"from pyspark.sql import SparkSession
from pyspark.sql.functions import format_number
spark = SparkSession.builder.getOrCreate()
df = spark.read.csv("appl_stock.csv", header=True, inferSchema=True)
df.describe().show()
result = df.describe()
result.select(result['summary'],
              format_number(result['Open'].cast('float'), 2).alias('Open'),
              format_number(result['High'].cast('float'), 2).alias('High'),
              format_number(result['Low'].cast('float'), 2).alias('Low'),
              format_number(result['Close'].cast('float'), 2).alias('Close'),
              result['Volume'].cast('int').alias('Volume')
              ).show()
"#;

#[test]
fn a_select_formatting_what_an_aggregate_made_is_not_the_aggregate() {
    // the plan of `df.describe().show()`: its statistics' aggregate computes no
    // `format_number`, so the select formatting the described frame did not make it
    let plan = support::bench_plan(
        "jupyter",
        "tsp-spark-dataframes-project-exercise-solutions-002",
    );
    let mappings = support::map_against(&[("stocks.py", DESCRIBED_AND_FORMATTED)], &plan);
    for id in ["2", "5"] {
        let (_, lines) = support::code_at(&mappings, id);
        assert!(
            ["5-5", "6-6"].contains(&lines.as_str()),
            "node {id}: {lines}"
        );
    }
}
