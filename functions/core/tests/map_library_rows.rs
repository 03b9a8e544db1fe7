//! A model's `transform` plans operators of the library's own: ALS joins the rows it is given
//! with its `userFactors` and `itemFactors`, frames Spark made from RDDs inside `ALS.scala`, which
//! the repository does not hold. Those scans, and the joins and projections over them that no
//! statement states, are the library's: they map to the statement that asked for them (the
//! `orderBy(…).show()` of the predictions), not to a reader of the user's nor to a SQL join
//! elsewhere that merely shares the join type. A real Spark 4.3 plan of the project's `jupyter`
//! set (`bench/jupyter`), with code of our own.

mod support;

const RECOMMEND: &str = r#"from pyspark.sql import SparkSession
from pyspark.ml.recommendation import ALS
spark = SparkSession.builder.getOrCreate()
data = spark.read.csv('movielens_ratings.csv', inferSchema=True, header=True)
(training, test) = data.randomSplit([0.8, 0.2])
als = ALS(maxIter=5, regParam=0.01, userCol="userId", itemCol="movieId", ratingCol="rating")
model = als.fit(training)
single_user = test.filter(test['userId'] == 11).select(['movieId', 'userId'])
recommendations = model.transform(single_user)
recommendations.orderBy('prediction', ascending=False).show()
"#;

/// Another notebook's SQL: a left outer join, as ALS's joins are.
const ALBUMS: &str = r#"from pyspark.sql import SparkSession
spark = SparkSession.builder.getOrCreate()
combined = spark.sql("SELECT * FROM artists LEFT JOIN albums ON artists.ArtistId = albums.ArtistId ORDER BY artists.ArtistId")
combined.show()
"#;

fn mappings() -> Vec<plan2code_core::contracts::MappingOutput> {
    let plan = support::bench_plan("jupyter", "tsp-recommender-code-along-005");
    support::map_against(&[("recommend.py", RECOMMEND), ("albums.py", ALBUMS)], &plan)
}

#[test]
fn the_rows_a_library_made_and_its_joins_map_to_the_statement_asking_for_them() {
    let mappings = mappings();
    let shown = ("recommend.py".to_owned(), "10-10".to_owned());
    // Scan userFactors, its objects' rows, the exchange and the join bringing them to the
    // user's rows; the same for itemFactors
    for id in ["10", "11", "13", "18", "20", "28"] {
        assert_eq!(support::code_at(&mappings, id), shown, "{id}");
    }
    let join = mappings.iter().find(|m| m.dag_node_id == "18").unwrap();
    assert!(
        join.explanation.contains("ALS.scala:1132"),
        "{}",
        join.explanation
    );
}

#[test]
fn the_users_own_operators_under_the_library_stay_the_users() {
    let mappings = mappings();
    // the filter of the single user, the user's side of the library's join
    assert_eq!(
        support::code_at(&mappings, "5"),
        ("recommend.py".to_owned(), "8-8".to_owned())
    );
    // the file scan is the user's read, not the library's
    assert_eq!(
        support::code_at(&mappings, "1"),
        ("recommend.py".to_owned(), "4-4".to_owned())
    );
}
