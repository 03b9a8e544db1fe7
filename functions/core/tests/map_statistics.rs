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
