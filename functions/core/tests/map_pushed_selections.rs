//! A selection Spark pushed down: `test.filter(…).select(['movieId', 'userId'])` of one of a
//! `randomSplit`'s frames plans the Project of those two columns below the filter and the
//! split's sample (both keep every column), and none where the `select` was written. That
//! Project is the user's selection, moved — not the planner's pruning for the sample above it.
//! A selection naming the columns in another order than its input's stays where it was written
//! (a Project of its own above), and the one Spark adds below it is the planner's.

mod support;

const SCRIPT: &str = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
data = spark.read.csv(\"movielens_ratings.csv\", inferSchema=True, header=True)
(training, test) = data.randomSplit([0.8, 0.2])
single_user = test.filter(test['userId'] == 11).select(['movieId', 'userId'])
single_user.show()
";

const SCAN_AND_SORT: &str = "\
(1) Scan csv 
Output [3]: [movieId#0, rating#1, userId#2]
Batched: false
Location: InMemoryFileIndex [file:/data/movielens_ratings.csv]
ReadSchema: struct<movieId:int,rating:double,userId:int>

(2) Sort [codegen id : 1]
Input [3]: [movieId#0, rating#1, userId#2]
Arguments: [movieId#0 ASC NULLS FIRST, rating#1 ASC NULLS FIRST, userId#2 ASC NULLS FIRST], false, 0
";

/// The plan of `single_user` as Spark 4.3 makes it (`bench/jupyter`'s recommender notebook):
/// the selection below the sample — and, when the selection reorders its input's columns
/// (`reordered`), its own Project on top.
fn plan(reordered: bool) -> String {
    let (top, on_top) = if reordered {
        (
            "* Project (6)\n+- ",
            "\n(6) Project [codegen id : 1]\nOutput [2]: [userId#2, movieId#0]\n\
             Input [2]: [movieId#0, userId#2]\n",
        )
    } else {
        ("", "")
    };
    let indent = if reordered { "   " } else { "" };
    format!(
        "== Physical Plan ==
{top}* Filter (5)
{indent}+- * Sample (4)
{indent}   +- * Project (3)
{indent}      +- * Sort (2)
{indent}         +- Scan csv  (1)


{SCAN_AND_SORT}
(3) Project [codegen id : 1]
Output [2]: [movieId#0, userId#2]
Input [3]: [movieId#0, rating#1, userId#2]

(4) Sample [codegen id : 1]
Input [2]: [movieId#0, userId#2]
Arguments: 0.8, 1.0, false, 42

(5) Filter [codegen id : 1]
Input [2]: [movieId#0, userId#2]
Condition : (isnotnull(userId#2) AND (userId#2 = 11))
{on_top}"
    )
}

fn lines_of(mappings: &[plan2code_core::contracts::MappingOutput], id: &str) -> String {
    let node = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
    node.mapped_code.as_ref().unwrap().lines.clone()
}

#[test]
fn a_pruning_project_a_select_of_the_flow_names_exactly_is_that_select() {
    let mappings = support::map_against(&[("recommend.py", SCRIPT)], &plan(false));
    assert_eq!(lines_of(&mappings, "3"), "6-6");
    let project = mappings.iter().find(|m| m.dag_node_id == "3").unwrap();
    assert!(
        !project.explanation.contains("column pruning"),
        "{}",
        project.explanation
    );
    // the sample is still the split's
    assert_eq!(lines_of(&mappings, "4"), "5-5");
}

#[test]
fn below_the_selection_itself_a_pruning_project_stays_the_planner_s() {
    // `select(['userId', 'movieId'])`: the selection reorders, so it stays on top and Spark
    // prunes below the sample for it in the input's order.
    let script = SCRIPT.replace("['movieId', 'userId']", "['userId', 'movieId']");
    let mappings = support::map_against(&[("recommend.py", &script)], &plan(true));
    assert_eq!(lines_of(&mappings, "6"), "6-6");
    let pruning = mappings.iter().find(|m| m.dag_node_id == "3").unwrap();
    assert!(
        pruning.explanation.contains("column pruning for Sample"),
        "{}",
        pruning.explanation
    );
}
