//! De-duplications mapped end to end: a pipeline whose cleaning step de-duplicates whole rows of a
//! frame it receives as a parameter, and whose modelling step de-duplicates a narrower selection
//! (`select("id", "customer", …).distinct()`). The plan's whole-row Aggregate, with the rename after it
//! folded into its results, belongs to the cleaning step; a column another module computes after
//! the cleaning, folded into the final step of the de-duplication, belongs to that module.

mod support;

const CLEAN: &str = "\
def clean(df, out):
    cleaned = df.dropDuplicates() \\
        .dropna() \\
        .withColumnRenamed(\"amount\", \"paid\")
    cleaned.write.parquet(out)
    return cleaned
";

const MODEL: &str = "\
def customers(df):
    dim = df.select(\"id\", \"customer\", \"kind\", \"city\").distinct()
    return dim
";

const MAIN: &str = "\
from pyspark.sql import SparkSession
from jobs.clean import clean
from jobs.model import customers
from jobs.report import top_customers
from jobs.flag import flag_risk

spark = SparkSession.builder.getOrCreate()
raw = spark.read.csv(\"data/payments.csv\", header=True, inferSchema=True)
cleaned = clean(raw, \"out/silver\")
customers(cleaned).show()
top_customers(cleaned).show()
flag_risk(cleaned).groupBy(\"risk\").count().show()
";

const FLAG: &str = "\
from pyspark.sql.functions import col, when

def flag_risk(df):
    flagged = df.withColumn(
        \"risk\",
        when(col(\"paid\") > 3000, \"HIGH\").otherwise(\"LOW\")
    )
    return flagged
";

macro_rules! read_and_dropna {
    // Nodes (1) and (2) of every plan here: the read and `dropna()`.
    () => {
        "(1) Scan csv 
Output [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Batched: false
Location: InMemoryFileIndex [file:/data/payments.csv]
ReadSchema: struct<id:int,customer:string,kind:string,shop:string,category:string,amount:double,day:string,city:string>

(2) Filter [codegen id : 1]
Input [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Condition : atleastnnonnulls(8, id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7)

"
    };
}

macro_rules! cleaned_nodes {
    // Nodes (1)–(4) of the first two plans: the read, `dropna()` and the partial de-duplication.
    () => {
        concat!(
            read_and_dropna!(),
            "(3) HashAggregate [codegen id : 1]
Input [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Keys [8]: [id#0, customer#1, kind#2, shop#3, category#4, knownfloatingpointnormalized(normalizenanandzero(amount#5)) AS amount#5, day#6, city#7]
Functions: []
Aggregate Attributes: []
Results [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]

(4) Exchange
Input [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Arguments: hashpartitioning(id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7, 200), ENSURE_REQUIREMENTS, [plan_id=42]

"
        )
    };
}

macro_rules! final_deduplication_step {
    // Node (5): the de-duplication's final step, with the results given (what Spark folded in).
    ($results:literal) => {
        concat!(
            "(5) HashAggregate [codegen id : 2]
Input [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Keys [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Functions: []
Aggregate Attributes: []
Results ",
            $results,
            "\n"
        )
    };
}

const PLAN: &str = concat!(
    "\
== Physical Plan ==
* HashAggregate (5)
+- Exchange (4)
   +- * HashAggregate (3)
      +- * Filter (2)
         +- Scan csv  (1)


",
    cleaned_nodes!(),
    final_deduplication_step!(
        "[8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5 AS paid#29, day#6, city#7]"
    ),
);

const REPORT: &str = "\
from pyspark.sql.functions import sum, desc

def top_customers(df):
    return df.groupBy(\"customer\").agg(sum(\"paid\").alias(\"total\")).orderBy(desc(\"total\"))
";

/// `top_customers(clean(raw, …)).show()`: the report's groupBy over the cleaned frame.
const REPORT_PLAN: &str = concat!(
    "\
== Physical Plan ==
* Sort (10)
+- Exchange (9)
   +- * HashAggregate (8)
      +- Exchange (7)
         +- * HashAggregate (6)
            +- * HashAggregate (5)
               +- Exchange (4)
                  +- * HashAggregate (3)
                     +- * Filter (2)
                        +- Scan csv  (1)


",
    cleaned_nodes!(),
    final_deduplication_step!("[2]: [customer#1, amount#5 AS paid#29]"),
    "
(6) HashAggregate [codegen id : 2]
Input [2]: [customer#1, paid#29]
Keys [1]: [customer#1]
Functions [1]: [partial_sum(paid#29)]
Aggregate Attributes [1]: [sum#133]
Results [2]: [customer#1, sum#134]

(7) Exchange
Input [2]: [customer#1, sum#134]
Arguments: hashpartitioning(customer#1, 200), ENSURE_REQUIREMENTS, [plan_id=43]

(8) HashAggregate [codegen id : 3]
Input [2]: [customer#1, sum#134]
Keys [1]: [customer#1]
Functions [1]: [sum(paid#29)]
Aggregate Attributes [1]: [sum(paid#29)#132]
Results [2]: [customer#1, sum(paid#29)#132 AS total#121]

(9) Exchange
Input [2]: [customer#1, total#121]
Arguments: rangepartitioning(total#121 DESC NULLS LAST, 200), ENSURE_REQUIREMENTS, [plan_id=44]

(10) Sort [codegen id : 4]
Input [2]: [customer#1, total#121]
Arguments: [total#121 DESC NULLS LAST], true, 0
"
);

/// The pipeline's repository, mapped against `plan`: each mapping's file and lines by node id.
fn mapped(plan: &str) -> Vec<(String, String, String)> {
    let files = [
        ("jobs/clean.py", CLEAN),
        ("jobs/model.py", MODEL),
        ("jobs/report.py", REPORT),
        ("jobs/flag.py", FLAG),
        ("main.py", MAIN),
    ];
    support::map_against(&files, plan)
        .into_iter()
        .map(|m| {
            let code = m.mapped_code.expect("every node is mapped");
            (m.dag_node_id, code.file, code.lines)
        })
        .collect()
}

fn location_of<'a>(mappings: &'a [(String, String, String)], id: &str) -> (&'a str, &'a str) {
    let (_, file, lines) = mappings.iter().find(|(n, _, _)| n == id).unwrap();
    (file.as_str(), lines.as_str())
}

#[test]
fn a_whole_row_deduplication_maps_to_the_bare_drop_duplicates_not_a_narrower_distinct() {
    let mappings = mapped(PLAN);
    for id in ["3", "5"] {
        assert_eq!(
            location_of(&mappings, id),
            ("jobs/clean.py", "2-4"),
            "node {id}"
        );
    }
}

#[test]
fn a_deduplication_below_a_report_maps_to_the_step_that_cleaned_the_reports_input() {
    // The report's function receives the cleaned frame as a parameter: its own groupBy computes a
    // sum and is no anchor for the de-duplication below it.
    let mappings = mapped(REPORT_PLAN);
    for id in ["3", "5"] {
        assert_eq!(
            location_of(&mappings, id),
            ("jobs/clean.py", "2-4"),
            "node {id}"
        );
    }
    for id in ["6", "8", "10"] {
        assert_eq!(
            location_of(&mappings, id),
            ("jobs/report.py", "4-4"),
            "node {id}"
        );
    }
}

/// `customers(clean(raw, …)).show()`: the optimiser drops the cleaning step's whole-row
/// de-duplication under the model's narrower `select(…).distinct()`, whose keys are fewer than the
/// columns read.
const MODEL_PLAN: &str = concat!(
    "\
== Physical Plan ==
* HashAggregate (6)
+- Exchange (5)
   +- * HashAggregate (4)
      +- * Project (3)
         +- * Filter (2)
            +- Scan csv  (1)


",
    read_and_dropna!(),
    "(3) Project [codegen id : 1]
Output [4]: [id#0, customer#1, kind#2, city#7]
Input [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]

(4) HashAggregate [codegen id : 1]
Input [4]: [id#0, customer#1, kind#2, city#7]
Keys [4]: [id#0, customer#1, kind#2, city#7]
Functions: []
Aggregate Attributes: []
Results [4]: [id#0, customer#1, kind#2, city#7]

(5) Exchange
Input [4]: [id#0, customer#1, kind#2, city#7]
Arguments: hashpartitioning(id#0, customer#1, kind#2, city#7, 200), ENSURE_REQUIREMENTS, [plan_id=45]

(6) HashAggregate [codegen id : 2]
Input [4]: [id#0, customer#1, kind#2, city#7]
Keys [4]: [id#0, customer#1, kind#2, city#7]
Functions: []
Aggregate Attributes: []
Results [4]: [id#0, customer#1, kind#2, city#7]
"
);

#[test]
fn a_deduplication_of_fewer_columns_than_were_read_maps_to_the_distinct_after_the_select() {
    let mappings = mapped(MODEL_PLAN);
    for id in ["4", "6"] {
        assert_eq!(
            location_of(&mappings, id),
            ("jobs/model.py", "2-2"),
            "node {id}"
        );
    }
    // the rows' nulls were dropped by the cleaning step the model's frame came through
    assert_eq!(location_of(&mappings, "2"), ("jobs/clean.py", "2-4"));
}

/// A notebook counting its unique rows with `df.distinct().count()`, then, cells later, the
/// distinct values of one column in SQL.
const COUNTS: &str = "\
df = spark.createDataFrame(data, schema=[\"id\", \"name\", \"country\"])
unique_rows = df.distinct().count()
df.createOrReplaceTempView(\"people\")
spark.sql(\"SELECT COUNT(DISTINCT country) FROM people\").show()
";

/// `df.distinct()` over the three columns the frame has.
const WHOLE_ROWS_PLAN: &str = "\
== Physical Plan ==
* HashAggregate (3)
+- Exchange (2)
   +- * HashAggregate (1)
      +- * Scan ExistingRDD (0)


(0) Scan ExistingRDD [codegen id : 1]
Output [3]: [id#1L, name#2, country#3]
Arguments: [id#1L, name#2, country#3], MapPartitionsRDD[9] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(1) HashAggregate [codegen id : 1]
Input [3]: [id#1L, name#2, country#3]
Keys [3]: [id#1L, name#2, country#3]
Functions: []
Aggregate Attributes: []
Results [3]: [id#1L, name#2, country#3]

(2) Exchange
Input [3]: [id#1L, name#2, country#3]
Arguments: hashpartitioning(id#1L, name#2, country#3, 200), ENSURE_REQUIREMENTS, [plan_id=7]

(3) HashAggregate [codegen id : 2]
Input [3]: [id#1L, name#2, country#3]
Keys [3]: [id#1L, name#2, country#3]
Functions: []
Aggregate Attributes: []
Results [3]: [id#1L, name#2, country#3]
";

#[test]
fn a_whole_row_deduplication_is_the_bare_distinct_not_a_query_naming_one_of_its_columns() {
    // The SQL names `country` and DISTINCT, the bare `distinct()` only DISTINCT — but it keys on
    // every column of its frame, which is the plan's query; ranking queries counts that as held.
    let mappings: Vec<_> = support::map_against(&[("counts.py", COUNTS)], WHOLE_ROWS_PLAN)
        .into_iter()
        .map(|m| (m.dag_node_id, m.mapped_code.expect("mapped").lines))
        .collect();
    for id in ["1", "3"] {
        let (_, lines) = mappings.iter().find(|(n, _)| n == id).unwrap();
        assert_eq!(lines, "2-2", "node {id}");
    }
}

/// `flag_risk(clean(raw, …)).groupBy("risk").count()`: the flag the other module computes after the
/// cleaning is folded into the de-duplication's final step, which computes nothing of its own.
const FLAG_PLAN: &str = concat!(
    "\
== Physical Plan ==
* HashAggregate (8)
+- Exchange (7)
   +- * HashAggregate (6)
      +- * HashAggregate (5)
         +- Exchange (4)
            +- * HashAggregate (3)
               +- * Filter (2)
                  +- Scan csv  (1)


",
    cleaned_nodes!(),
    final_deduplication_step!(
        "[1]: [CASE WHEN (amount#5 > 3000.0) THEN HIGH ELSE LOW END AS risk#48]"
    ),
    "
(6) HashAggregate [codegen id : 2]
Input [1]: [risk#48]
Keys [1]: [risk#48]
Functions [1]: [partial_count(1)]
Aggregate Attributes [1]: [count#180L]
Results [2]: [risk#48, count#181L]

(7) Exchange
Input [2]: [risk#48, count#181L]
Arguments: hashpartitioning(risk#48, 200), ENSURE_REQUIREMENTS, [plan_id=46]

(8) HashAggregate [codegen id : 3]
Input [2]: [risk#48, count#181L]
Keys [1]: [risk#48]
Functions [1]: [count(1)]
Aggregate Attributes [1]: [count(1)#179L]
Results [2]: [risk#48, count(1)#179L AS count#182L]
"
);

#[test]
fn a_column_computed_after_a_deduplication_and_folded_into_it_maps_to_the_projection_computing_it()
{
    let mappings = mapped(FLAG_PLAN);
    assert_eq!(location_of(&mappings, "3"), ("jobs/clean.py", "2-4"));
    // The final step computes the flag: the projection's statement, and the shuffle before it
    // serves that step.
    for id in ["4", "5"] {
        assert_eq!(
            location_of(&mappings, id),
            ("jobs/flag.py", "4-7"),
            "node {id}"
        );
    }
    for id in ["6", "8"] {
        assert_eq!(
            location_of(&mappings, id),
            ("main.py", "12-12"),
            "node {id}"
        );
    }
}

/// A pipeline cleaning transactions, flagging the suspicious ones and splitting them into a star
/// schema: Spark plans the `dropDuplicates()` with the flag's `CASE WHEN` folded into its results.
const CLEANS: &str = r#"from pyspark.sql.functions import col, to_date


def clean(df, path):
    cleaned = df.dropDuplicates() \
        .dropna() \
        .withColumn("txn_date", to_date(col("txn_date"))) \
        .withColumnRenamed("amount", "txn_amount")
    cleaned.write.mode("overwrite").parquet(path)
    return cleaned
"#;

const FLAGS: &str = r#"from pyspark.sql.functions import col, when


def flag(df, path):
    flagged = df.withColumn(
        "fraud_flag",
        when(col("txn_amount") > 3000, "HIGH_AMOUNT")
        .when(col("merchant") == "Casino", "SUSPICIOUS_MERCHANT")
        .when(col("category") == "Gambling", "GAMBLING_CATEGORY")
        .otherwise("NORMAL")
    )
    flagged.write.mode("overwrite").parquet(path)
    return flagged
"#;

const STAR_SCHEMA: &str = r#"def build(df, path):
    customers = df.select("customer_id", "customer_name", "account_type", "city").distinct()
    facts = df.select("txn_id", "customer_id", "merchant", "txn_date", "txn_amount", "fraud_flag")
    customers.write.mode("overwrite").parquet(path + "/customers")
    facts.write.mode("overwrite").parquet(path + "/facts")
"#;

const PIPELINE: &str = r#"from pyspark.sql import SparkSession
from jobs.clean import clean
from jobs.flag import flag
from jobs.star import build

spark = SparkSession.builder.getOrCreate()
df = spark.read.csv("data/transactions.csv", header=True, inferSchema=True)
cleaned = clean(df, "out/silver")
flagged = flag(cleaned, "out/fraud")
build(flagged, "out/gold")
"#;

#[test]
fn a_projection_folded_into_a_deduplication_is_its_code_though_it_computes_no_aggregate() {
    // `CASE WHEN (amount > 3000.0) THEN HIGH_AMOUNT …` in the de-duplication's results: the
    // `withColumn("fraud_flag", when(…))` computing it, not a select of the star schema
    let plan = support::bench_plan("pipelines", "bank-main-003");
    let mappings = support::map_against(
        &[
            ("jobs/clean.py", CLEANS),
            ("jobs/flag.py", FLAGS),
            ("jobs/star.py", STAR_SCHEMA),
            ("main.py", PIPELINE),
        ],
        &plan,
    );
    let (file, _) = support::code_at(&mappings, "7");
    assert_ne!(file, "jobs/star.py");
}
