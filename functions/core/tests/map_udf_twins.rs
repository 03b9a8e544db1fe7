//! A plan evaluating a Python UDF ran the code that calls it: the query's SQL translation,
//! written without the UDF (`upper(Name)` for a Python `shout`), explains the rest of the plan
//! as well but is not what ran.

mod support;

use plan2code_core::code::{IndexOptions, build_index};
use plan2code_core::pipeline::{localise, semantics, sites};
use plan2code_core::plan::{ParseOptions, parse_plan};

const DATAFRAME: &str = "\
from pyspark.sql import SparkSession, functions as F
from pyspark.sql.types import StringType

spark = SparkSession.builder.getOrCreate()
people = spark.createDataFrame([(1, \"john jones\"), (2, \"tracey smith\")], [\"Seqno\", \"Name\"])
people.createOrReplaceTempView(\"people\")
shout = F.udf(lambda s: s.upper(), StringType())
adults = people.filter(\"Seqno > 1\")
adults.select(\"*\").show()
adults.select(\"Seqno\", shout(\"Name\").alias(\"Name\")).show()
";

const SQL: &str = "\
SELECT Seqno, upper(Name) AS Name
FROM people
WHERE Seqno > 1;
";

const PLAN: &str = "\
== Physical Plan ==
* Project (4)
+- BatchEvalPython (3)
   +- * Filter (2)
      +- * Scan ExistingRDD (1)


(1) Scan ExistingRDD [codegen id : 1]
Output [2]: [Seqno#0L, Name#1]
Arguments: [Seqno#0L, Name#1], MapPartitionsRDD[4] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(2) Filter [codegen id : 1]
Input [2]: [Seqno#0L, Name#1]
Condition : (isnotnull(Seqno#0L) AND (Seqno#0L > 1))

(3) BatchEvalPython
Input [2]: [Seqno#0L, Name#1]
Arguments: [<lambda>(Name#1)#7], [pythonUDF0#9]

(4) Project [codegen id : 2]
Output [2]: [Seqno#0L, pythonUDF0#9 AS Name#8]
Input [3]: [Seqno#0L, Name#1, pythonUDF0#9]
";

/// The SQL unit's and the DataFrame unit's fit, with `sql` beside the DataFrame code and the
/// plan's UDF named `udf`.
fn unit_scores(sql: &str, udf: &str) -> (f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    for (path, source) in [("people.py", DATAFRAME), ("queries/people.sql", sql)] {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, source).unwrap();
    }
    let index = build_index(dir.path(), None, "t".into(), &IndexOptions::default()).unwrap();
    let plan = PLAN.replace("<lambda>(Name", &format!("{udf}(Name"));
    let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
    let table = sites::SiteTable::build(&index);
    let semantics = semantics::plan_semantics(&graph);
    let localisation = localise::localise_plan(&graph, &semantics, &table, &Default::default());
    let score_of = |sql: bool| {
        localisation
            .units
            .iter()
            .filter(|u| matches!(u.kind, localise::UnitKind::Sql { .. }) == sql)
            .map(|u| u.score)
            .fold(0.0, f64::max)
    };
    (score_of(true), score_of(false))
}

#[test]
fn a_unit_calling_no_udf_counts_half_against_a_plan_evaluating_one() {
    let (twin, dataframe) = unit_scores(SQL, "<lambda>");
    assert!(twin > 0.0, "the SQL twin is a unit");
    assert!(twin < 0.6 * dataframe, "twin {twin} against {dataframe}");
    // SQL calling the UDF the plan evaluates, registered by name, is no twin
    let registered = SQL.replace("upper(Name)", "shout(Name)");
    let (sql, dataframe) = unit_scores(&registered, "shout");
    assert!(sql > 0.6 * dataframe, "sql {sql} against {dataframe}");
}

#[test]
fn the_code_calling_the_udf_the_plan_evaluates_is_the_answer_not_its_sql_twin() {
    let mappings = support::map_against(
        &[("people.py", DATAFRAME), ("queries/people.sql", SQL)],
        PLAN,
    );
    for id in ["2", "4"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).expect(id);
        let code = m.mapped_code.as_ref().expect("mapped");
        assert_eq!(
            (id, code.file.as_str()),
            (id, "people.py"),
            "{}",
            m.explanation
        );
    }
}
