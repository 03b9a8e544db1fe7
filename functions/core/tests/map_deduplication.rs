//! De-duplications mapped end to end: a pipeline whose cleaning step de-duplicates whole rows of a
//! frame it receives as a parameter, and whose modelling step de-duplicates a narrower selection
//! (`select("id", "customer", …).distinct()`). The plan's whole-row Aggregate, with the rename after it
//! folded into its results, belongs to the cleaning step.

use plan2code_core::code::{IndexOptions, build_index};
use plan2code_core::pipeline::reason::EvidenceReasoner;
use plan2code_core::pipeline::{PipelineConfig, map_plan};
use plan2code_core::plan::{ParseOptions, parse_plan};
use std::sync::Arc;

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

spark = SparkSession.builder.getOrCreate()
raw = spark.read.csv(\"data/payments.csv\", header=True, inferSchema=True)
cleaned = clean(raw, \"out/silver\")
customers(cleaned).show()
";

const PLAN: &str = "\
== Physical Plan ==
* HashAggregate (5)
+- Exchange (4)
   +- * HashAggregate (3)
      +- * Filter (2)
         +- Scan csv  (1)


(1) Scan csv 
Output [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Batched: false
Location: InMemoryFileIndex [file:/data/payments.csv]
ReadSchema: struct<id:int,customer:string,kind:string,shop:string,category:string,amount:double,day:string,city:string>

(2) Filter [codegen id : 1]
Input [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Condition : atleastnnonnulls(8, id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7)

(3) HashAggregate [codegen id : 1]
Input [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Keys [8]: [id#0, customer#1, kind#2, shop#3, category#4, knownfloatingpointnormalized(normalizenanandzero(amount#5)) AS amount#5, day#6, city#7]
Functions: []
Aggregate Attributes: []
Results [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]

(4) Exchange
Input [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Arguments: hashpartitioning(id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7, 200), ENSURE_REQUIREMENTS, [plan_id=42]

(5) HashAggregate [codegen id : 2]
Input [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Keys [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5, day#6, city#7]
Functions: []
Aggregate Attributes: []
Results [8]: [id#0, customer#1, kind#2, shop#3, category#4, amount#5 AS paid#29, day#6, city#7]
";

#[test]
fn a_whole_row_deduplication_maps_to_the_bare_drop_duplicates_not_a_narrower_distinct() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("jobs")).unwrap();
    std::fs::write(dir.path().join("jobs/clean.py"), CLEAN).unwrap();
    std::fs::write(dir.path().join("jobs/model.py"), MODEL).unwrap();
    std::fs::write(dir.path().join("main.py"), MAIN).unwrap();
    let index = build_index(dir.path(), None, "test".into(), &IndexOptions::default()).unwrap();
    let graph = parse_plan(PLAN, &ParseOptions::default()).unwrap();
    let (mappings, _) = map_plan(
        &graph,
        Arc::new(index),
        &EvidenceReasoner,
        &PipelineConfig::default(),
    )
    .unwrap();
    for id in ["3", "5"] {
        let mapping = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        let code = mapping.mapped_code.as_ref().unwrap();
        assert_eq!(
            (code.file.as_str(), code.lines.as_str()),
            ("jobs/clean.py", "2-4"),
            "HashAggregate ({id}): {} {:?}",
            mapping.explanation,
            mapping.alternatives
        );
    }
}
