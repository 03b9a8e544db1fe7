//! A SQL query's generator read by the aggregate of its query: `SELECT explode(genres) AS g`
//! in a subquery whose query groups by `g`. Pruning the columns the aggregate does not read,
//! Spark's optimizer rebuilds the Generate while rewriting the aggregate, and the new node carries
//! the aggregate's origin: Spark places it at the aggregate's clause, and so do we. DataFrame
//! code keeps a projection of its own over its generator, so there the Generate stays the
//! `explode`'s. The SQL plan is a real Spark 4.3 plan
//! (`bench/sqlfiles`).

mod support;

const TOP_GENRES: &str = "\
SELECT exploded_genres as top_5_genres
FROM (
SELECT exploded_genres,
count(*) as cnt
FROM (
SELECT explode(genres) as exploded_genres
FROM {parsed_table_name}
WHERE genres is not NULL )
GROUP BY exploded_genres
ORDER BY cnt desc
limit 5
)";

#[test]
fn a_sql_generator_under_its_query_s_aggregate_is_the_aggregate_s() {
    let plan = support::bench_plan("sqlfiles", "adi-main-002");
    let mappings = support::map_against(&[("etl/sql/get_top_5_genres.sql", TOP_GENRES)], &plan);
    let aggregate = support::code_at(&mappings, "6");
    for id in ["5", "17"] {
        let generate = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        assert_eq!(
            support::code_at(&mappings, id),
            aggregate,
            "{}",
            generate.explanation
        );
        assert!(
            generate.explanation.contains("rebuilt by the optimizer"),
            "{}",
            generate.explanation
        );
    }
    // the pruning Project below the generator serves what the generator serves
    assert_eq!(support::code_at(&mappings, "4"), aggregate);
    // the query's own `WHERE genres is not NULL` is the null check's, not the aggregate's
    for id in ["3", "15"] {
        assert_eq!(support::code_at(&mappings, id).1, "8-8");
    }
}

const AUTHORS_PER_YEAR: &str = "\
SELECT publish_year,
count(*) as no_of_authors_with_one_book
FROM (
SELECT
explode(authors.key) as author,
publish_year
FROM {parsed_table_name}
)
GROUP BY publish_year
HAVING count(*) > 1";

#[test]
fn a_sql_generator_stands_where_its_aggregate_stands() {
    // The aggregate's evidence (`count(*) AS no_of_authors_with_one_book`) is stated by its select
    // item, but the plan's tree aligns it with its GROUP BY: the generator, and the Project the
    // planner put below it, follow the aggregate there.
    let plan = support::bench_plan("sqlfiles", "adi-main-008");
    let mappings = support::map_against(
        &[(
            "etl/sql/get_no_of_authors_with_one_book_per_yr.sql",
            AUTHORS_PER_YEAR,
        )],
        &plan,
    );
    for aggregate in ["6", "18"] {
        assert_eq!(support::code_at(&mappings, aggregate).1, "9-9");
    }
    for id in ["3", "4", "15", "16"] {
        assert_eq!(support::code_at(&mappings, id).1, "9-9", "node {id}");
    }
}

const ITEMS: &str = "\
from pyspark.sql import SparkSession
from pyspark.sql.functions import explode

spark = SparkSession.builder.getOrCreate()
orders = spark.read.json(\"data/orders.json\")
items = orders.withColumn(\"item\", explode(\"items\")).select(\"order_id\", \"item\")
items.groupBy(\"item\").count().show()
";

/// `items.groupBy("item").count()` of [`ITEMS`]: the Generate under the partial aggregate.
const ITEMS_PLAN: &str = "\
== Physical Plan ==
* HashAggregate (6)
+- Exchange (5)
   +- * HashAggregate (4)
      +- * Generate (3)
         +- * Filter (2)
            +- Scan json  (1)


(1) Scan json 
Output [1]: [items#0]
Batched: false
Location: InMemoryFileIndex [file:/data/orders.json]
PushedFilters: [IsNotNull(items)]
ReadSchema: struct<items:array<string>>

(2) Filter [codegen id : 1]
Input [1]: [items#0]
Condition : ((size(items#0, true) > 0) AND isnotnull(items#0))

(3) Generate [codegen id : 1]
Input [1]: [items#0]
Arguments: explode(items#0), false, [item#5]

(4) HashAggregate [codegen id : 1]
Input [1]: [item#5]
Keys [1]: [item#5]
Functions [1]: [partial_count(1)]
Aggregate Attributes [1]: [count#9L]
Results [2]: [item#5, count#10L]

(5) Exchange
Input [2]: [item#5, count#10L]
Arguments: hashpartitioning(item#5, 200), ENSURE_REQUIREMENTS, [plan_id=20]

(6) HashAggregate [codegen id : 2]
Input [2]: [item#5, count#10L]
Keys [1]: [item#5]
Functions [1]: [count(1)]
Aggregate Attributes [1]: [count(1)#8L]
Results [2]: [item#5, count(1)#8L AS count#11L]
";

#[test]
fn a_dataframe_generator_under_an_aggregate_stays_the_explode_s() {
    let mappings = support::map_against(&[("items.py", ITEMS)], ITEMS_PLAN);
    assert_eq!(
        support::code_at(&mappings, "3"),
        ("items.py".to_owned(), "6-6".to_owned())
    );
    assert_eq!(
        support::code_at(&mappings, "4"),
        ("items.py".to_owned(), "7-7".to_owned())
    );
}
