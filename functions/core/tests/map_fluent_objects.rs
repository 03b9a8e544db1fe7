//! A fluent pipeline object: its constructor reads a file it is given, each step replaces the
//! frame the object holds (`self.df = self.df.filter(…)`) and returns the object, and a last
//! method returns the frame. A job chaining the steps (`Pipeline(spark, "…/orders.csv")
//! .drop_cancelled().result()`) runs the object's readers and steps: the scan is the
//! constructor's reader, though another job reads the same file by name.

mod support;

const PIPELINE: &str = "\
from pyspark.sql import functions as F


class OrdersPipeline:
    def __init__(self, spark, path):
        self.df = spark.read.option(\"header\", True).csv(path)

    def drop_small(self):
        self.df = self.df.filter(F.col(\"o_amount\") > 50)
        return self

    def result(self):
        return self.df
";

const JOB: &str = "\
from shop.pipeline import OrdersPipeline

spark = SparkSession.builder.getOrCreate()
orders = (
    OrdersPipeline(spark, \"/tmp/plan2code-fixture-data/orders.csv\")
    .drop_small()
    .result()
)
orders.show()
";

/// Reads the same file by name, and filters it on another column.
const OTHER_JOB: &str = "\
spark = SparkSession.builder.getOrCreate()
orders = spark.read.option(\"header\", True).csv(\"/tmp/plan2code-fixture-data/orders.csv\")
orders.filter(orders.o_cust > 50).show()
";

#[test]
fn a_fluent_objects_steps_are_the_flow_of_the_frame_it_returns() {
    let plan = support::fixture_plan("scan-csv");
    let mappings = support::map_against(
        &[
            ("shop/__init__.py", ""),
            ("shop/pipeline.py", PIPELINE),
            ("jobs/report.py", JOB),
            ("jobs/other.py", OTHER_JOB),
        ],
        &plan,
    );
    for (node, lines) in [("1", "6-6"), ("2", "9-9")] {
        let m = mappings.iter().find(|m| m.dag_node_id == node).expect(node);
        let code = m.mapped_code.as_ref().expect("mapped");
        assert_eq!(
            (code.file.as_str(), code.lines.as_str()),
            ("shop/pipeline.py", lines),
            "{node}: {m:#?}"
        );
    }
}
