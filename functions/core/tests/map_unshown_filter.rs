//! A plan without a filter, mapped against one file holding two statements that compute what it
//! computes, one of them after a `where`: the plan shows no Filter, so it is the other's.

mod support;

const TRIPS: &str = "\
from pyspark.sql import SparkSession
from pyspark.sql.functions import col, count

spark = SparkSession.builder.getOrCreate()
trips = spark.read.parquet(\"data/trips\")
few = trips.where(col(\"passengers\") < 3).select(count(\"*\"))
few.show()
trips.select(count(\"*\")).show()
";

const COUNT_PLAN: &str = "\
== Physical Plan ==
AdaptiveSparkPlan (7)
+- HashAggregate (6)
   +- Exchange (5)
      +- HashAggregate (4)
         +- Scan parquet  (1)


(1) Scan parquet 
Output: []
Batched: true
Location: InMemoryFileIndex [file:/home/me/data/trips]
ReadSchema: struct<>

(4) HashAggregate
Input: []
Keys: []
Functions [1]: [partial_count(1)]
Aggregate Attributes [1]: [count#23L]
Results [1]: [count#24L]

(5) Exchange
Input [1]: [count#24L]
Arguments: SinglePartition, ENSURE_REQUIREMENTS, [plan_id=22]

(6) HashAggregate
Input [1]: [count#24L]
Keys: []
Functions [1]: [count(1)]
Aggregate Attributes [1]: [count(1)#20L]
Results [1]: [count(1)#20L AS count(1)#21L]

(7) AdaptiveSparkPlan
Output [1]: [count(1)#21L]
Arguments: isFinalPlan=false
";

#[test]
fn a_statement_whose_filter_the_plan_does_not_show_is_not_its_code() {
    let mappings = support::map_against(&[("jobs/trips.py", TRIPS)], COUNT_PLAN);
    let aggregate = mappings
        .iter()
        .find(|m| m.node_name.starts_with("HashAggregate"))
        .expect("an aggregate");
    let lines = &aggregate.mapped_code.as_ref().expect("mapped").lines;
    assert_eq!(lines, "8-8", "{aggregate:#?}");
}
