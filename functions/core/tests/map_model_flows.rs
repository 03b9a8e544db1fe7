//! Machine-learning code carries a frame through objects that are no frames: a fitted model and
//! its summary (`model = lr.fit(train)`, `summary = model.summary`, then
//! `summary.predictions.describe()`). Two look-alike scripts read, assemble, select and split
//! their data alike; only the file the scan reads and the model's hand-off tell them apart; and
//! the two frames of one `randomSplit` differ only in the bounds Spark samples each by. Real
//! Spark 4.3 plans of the project's Jupyter set (`bench/jupyter`): the statistics of a fitted
//! model's predictions over the training split, of the raw rows read, and of each split.

mod support;

/// Churn data, split, fitted; the statistics of the predictions on the training split.
const CHURN: &str = r#"from pyspark.ml.feature import VectorAssembler
from pyspark.ml.classification import LogisticRegression

data = spark.read.csv('customer_churn.csv', inferSchema=True, header=True)
data.describe().show()
assembler = VectorAssembler(inputCols=['Age', 'Total_Purchase', 'Account_Manager', 'Years', 'Num_Sites'], outputCol='features')
output = assembler.transform(data)
final_data = output.select('features', 'churn')
train_churn, test_churn = final_data.randomSplit([0.7, 0.3])
lr_churn = LogisticRegression(labelCol='churn')
fitted_churn_model = lr_churn.fit(train_churn)
training_sum = fitted_churn_model.summary
training_sum.predictions.describe().show()
"#;

/// Another file read alike: its training split described directly.
const SPENDING: &str = r#"from pyspark.ml.feature import VectorAssembler

data = spark.read.csv("Ecommerce_Customers.csv", inferSchema=True, header=True)
assembler = VectorAssembler(inputCols=["Avg Session Length", "Time on App"], outputCol="features")
output = assembler.transform(data)
final_data = output.select("features", "Yearly Amount Spent")
train_data, test_data = final_data.randomSplit([0.7, 0.3])
train_data.describe().show()
test_data.describe().show()
"#;

fn mapped(mappings: &[plan2code_core::contracts::MappingOutput], id: &str) -> (String, String) {
    let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
    let code = m.mapped_code.as_ref().unwrap();
    (code.file.clone(), code.lines.clone())
}

#[test]
fn a_fitted_models_predictions_are_the_frame_it_was_fitted_on() {
    let plan = support::bench_plan(
        "jupyter",
        "tsp-logistic-regression-consulting-project-solutions-002",
    );
    let files = [("a/spending.py", SPENDING), ("b/churn.py", CHURN)];
    let mappings = support::map_against(&files, &plan);
    // (1) reads customer_churn.csv; (5) samples it; (7) and (10) aggregate the predictions
    assert_eq!(mapped(&mappings, "1"), ("b/churn.py".into(), "4-4".into()));
    assert_eq!(mapped(&mappings, "5"), ("b/churn.py".into(), "9-9".into()));
    for aggregate in ["7", "10"] {
        assert_eq!(
            mapped(&mappings, aggregate),
            ("b/churn.py".into(), "13-13".into())
        );
    }
    // the look-alike's reader of another file is no alternative to the scan worth confirming
    let scan = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    assert!(scan.confidence >= 0.7, "{}", scan.confidence);
}

#[test]
fn the_raw_rows_described_are_not_a_split_the_plan_never_samples() {
    let plan = support::bench_plan(
        "jupyter",
        "tsp-logistic-regression-consulting-project-solutions-001",
    );
    let mappings = support::map_against(&[("b/churn.py", CHURN)], &plan);
    // (2) aggregates the statistics of every column read; (7) picks them out per column
    for node in ["2", "5", "6", "7"] {
        assert_eq!(
            mapped(&mappings, node),
            ("b/churn.py".into(), "5-5".into()),
            "node {node}"
        );
    }
}

#[test]
fn each_frame_of_a_random_split_is_told_by_its_bounds() {
    let files = [("a/spending.py", SPENDING)];
    // `Sample 0.0, 0.7` is the training split, `Sample 0.7, 1.0` the test split
    for (case, line) in [
        ("tsp-linear-regression-code-along-006", "8-8"),
        ("tsp-linear-regression-code-along-007", "9-9"),
    ] {
        let mappings = support::map_against(&files, &support::bench_plan("jupyter", case));
        for aggregate in ["7", "10"] {
            assert_eq!(
                mapped(&mappings, aggregate),
                ("a/spending.py".into(), line.into()),
                "{case} node {aggregate}"
            );
        }
    }
}
