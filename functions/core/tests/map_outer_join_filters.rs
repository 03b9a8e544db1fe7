//! A left outer join keeps every row of its left side, so Spark infers no `isnotnull(key)` there:
//! an `isnotnull` Filter on the preserved side is the user's own `isNotNull()`, while the one on
//! the null-supplying side is the join's.

mod support;

const TRADES: &str = "\
from pyspark.sql import SparkSession
from pyspark.sql.functions import broadcast, col

spark = SparkSession.builder.getOrCreate()


def read_all_trades():
    return (spark.read.option(\"header\", True)
            .csv(\"data/allTrades.csv\")
            .filter(col(\"trade_id\").isNotNull()))


def read_valid_trades():
    return spark.read.option(\"header\", True).csv(\"data/validTrades.csv\").select(\"trade_id\")


trades = read_all_trades()
valid = read_valid_trades()
flagged = trades.join(broadcast(valid), trades.trade_id == valid.trade_id, \"left_outer\")
flagged.show()
";

const PLAN: &str = "\
== Physical Plan ==
* BroadcastHashJoin LeftOuter BuildRight (6)
:- * Filter (2)
:  +- Scan csv  (1)
+- BroadcastExchange (5)
   +- * Filter (4)
      +- Scan csv  (3)


(1) Scan csv 
Output [2]: [trade_id#17, price#18]
Batched: false
Location: InMemoryFileIndex [file:/home/me/data/allTrades.csv]
PushedFilters: [IsNotNull(trade_id)]
ReadSchema: struct<trade_id:string,price:string>

(2) Filter [codegen id : 2]
Input [2]: [trade_id#17, price#18]
Condition : isnotnull(trade_id#17)

(3) Scan csv 
Output [1]: [trade_id#42]
Batched: false
Location: InMemoryFileIndex [file:/home/me/data/validTrades.csv]
PushedFilters: [IsNotNull(trade_id)]
ReadSchema: struct<trade_id:string>

(4) Filter [codegen id : 1]
Input [1]: [trade_id#42]
Condition : isnotnull(trade_id#42)

(5) BroadcastExchange
Input [1]: [trade_id#42]
Arguments: HashedRelationBroadcastMode(List(input[0, string, false]),false), [plan_id=52]

(6) BroadcastHashJoin [codegen id : 2]
Left keys [1]: [trade_id#17]
Right keys [1]: [trade_id#42]
Join type: LeftOuter
Join condition: None
";

fn lines_of(mappings: &[plan2code_core::contracts::MappingOutput], id: &str) -> String {
    let node = mappings
        .iter()
        .find(|m| m.dag_node_id == id)
        .unwrap_or_else(|| panic!("node {id}"));
    node.mapped_code.as_ref().expect("mapped").lines.clone()
}

#[test]
fn an_isnotnull_on_the_preserved_side_of_an_outer_join_is_the_users_filter() {
    let mappings = support::map_against(&[("jobs/trades.py", TRADES)], PLAN);
    // Filter (2), on the left outer join's preserved side: the helper's `.filter(…isNotNull())`.
    assert_eq!(lines_of(&mappings, "2"), "8-10", "{mappings:#?}");
    // Filter (4), on the null-supplying side: inferred from the join's key.
    assert_eq!(lines_of(&mappings, "4"), "19-19", "{mappings:#?}");
}
