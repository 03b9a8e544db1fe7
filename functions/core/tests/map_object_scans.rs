//! `rdd.toDF()` of case classes in Scala: the plan scans the objects (`obj#5: dataframe.Basic$Cust,
//! ParallelCollectionRDD[0] at parallelize at Basic.scala:33`) and turns them into rows. Two
//! lessons with the same statement at the same line in different packages are told apart by the
//! class's package. The rows' serializer is the operator's above that narrows the columns (an
//! aggregate, a renaming selection) when Spark pruned it for that, the `select` Spark folded into
//! it when one names every column it keeps, and else the `toDF`'s own — which the plan confirms
//! only when the repository's class has exactly the fields the rows keep.

mod support;

use plan2code_core::contracts::ConfidenceStatus;

fn lesson(package: &str) -> String {
    format!(
        "package {package}\n\
         \n\
         object Basic {{\n\
         \x20 case class Cust(id: Int, name: String, sales: Double, discount: Double, state: String)\n\
         \x20 def main(args: Array[String]): Unit = {{\n\
         \x20   val custs = Seq(Cust(1, \"Widget Co\", 120000.00, 0.00, \"AZ\"))\n\
         \x20   val customerDF = spark.sparkContext.parallelize(custs, 4).toDF()\n\
         \x20   customerDF.select(\"id\").show()\n\
         \x20   customerDF.groupBy(\"state\").agg(max($\"discount\")).show()\n\
         \x20 }}\n\
         }}\n"
    )
}

/// The scan of the lesson's `Cust` objects, as every plan here prints it.
const SCAN: &str = "\
(1) Scan
Output [1]: [obj#5]
Arguments: obj#5: dataframe.Basic$Cust, ParallelCollectionRDD[0] at parallelize at Basic.scala:7
";

/// The rows of `id` alone that `customerDF.select("id").show()` plans.
fn plan() -> String {
    format!(
        "\
== Physical Plan ==
* SerializeFromObject (2)
+- Scan (1)


{SCAN}
(2) SerializeFromObject [codegen id : 1]
Input [1]: [obj#5]
Arguments: [invoke(knownnotnull(assertnotnull(input[0, dataframe.Basic$Cust, true])).id()) AS id#11]
"
    )
}

#[test]
fn a_scan_of_case_class_objects_is_the_to_df_of_the_package_its_class_is_in() {
    let (dataframe, sql) = (lesson("dataframe"), lesson("sql"));
    let mappings = support::map_against(
        &[
            ("src/main/scala/sql/Basic.scala", sql.as_str()),
            ("src/main/scala/dataframe/Basic.scala", dataframe.as_str()),
        ],
        &plan(),
    );
    let scan = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    let code = scan.mapped_code.as_ref().unwrap();
    assert_eq!(
        (code.file.as_str(), code.lines.as_str()),
        ("src/main/scala/dataframe/Basic.scala", "7-7"),
        "{}",
        scan.explanation
    );
    assert!(scan.confidence > 0.5, "no coin toss: {}", scan.confidence);
    let rows = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    assert_eq!(
        rows.mapped_code.as_ref().unwrap().lines,
        "8-8",
        "{}",
        rows.explanation
    );
}

/// The mapping of the plan's rows of every field of `Basic$Cust` against the lesson showing its
/// frame whole, with the case class named `class` (the lesson's own is `Cust`); they are the
/// `toDF`'s either way.
fn whole_rows(class: &str) -> plan2code_core::contracts::MappingOutput {
    let fields = ["id", "name", "sales", "discount", "state"];
    let serializer = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            format!(
                "invoke(knownnotnull(assertnotnull(input[0, dataframe.Basic$Cust, true])).{f}()) AS {f}#{}",
                11 + i
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let plan = plan().replace(
        "invoke(knownnotnull(assertnotnull(input[0, dataframe.Basic$Cust, true])).id()) AS id#11",
        &serializer,
    );
    let script = lesson("dataframe")
        .replace("customerDF.select(\"id\").show()", "customerDF.show()")
        .replace("Cust(", &format!("{class}("));
    let mappings = support::map_against(
        &[("src/main/scala/dataframe/Basic.scala", script.as_str())],
        &plan,
    );
    let rows = mappings.into_iter().find(|m| m.dag_node_id == "2").unwrap();
    assert_eq!(rows.mapped_code.as_ref().unwrap().lines, "7-7");
    rows
}

#[test]
fn rows_keeping_every_field_of_the_repositorys_class_are_the_to_dfs() {
    let rows = whole_rows("Cust");
    // the class has these five fields and no more: nothing was pruned
    assert!(rows.confidence > 0.5, "{}", rows.confidence);
    assert!(!rows.explanation.contains("pruned"), "{}", rows.explanation);
}

#[test]
fn rows_of_a_class_the_repository_does_not_define_are_the_to_dfs_and_never_confirmed() {
    let rows = whole_rows("Customer");
    // whether Spark kept every field or pruned them, the plan does not say
    assert!(rows.confidence <= 0.5, "{}", rows.confidence);
    assert_ne!(rows.confidence_status, ConfidenceStatus::Confirmed);
    assert!(rows.explanation.contains("pruned"), "{}", rows.explanation);
}

#[test]
fn rows_of_single_values_are_the_to_dfs_and_nothing_was_pruned() {
    // `parallelize(1 to 10).toDF`: one `int` per object, one `value` column — nothing to prune
    let script = "object Anatomy {\n\
                  \x20 def main(args: Array[String]): Unit = {\n\
                  \x20   val numbers = spark.sparkContext.parallelize(1 to 10)\n\
                  \x20   numbers.toDF.show()\n\
                  \x20 }\n\
                  }\n";
    let plan = "\
== Physical Plan ==
* SerializeFromObject (2)
+- Scan (1)


(1) Scan
Output [1]: [obj#1]
Arguments: obj#1: int, ParallelCollectionRDD[0] at parallelize at Anatomy.scala:3

(2) SerializeFromObject [codegen id : 1]
Input [1]: [obj#1]
Arguments: [input[0, int, false] AS value#3]
";
    let mappings = support::map_against(&[("src/main/scala/Anatomy.scala", script)], plan);
    let rows = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    assert_eq!(
        rows.mapped_code.as_ref().unwrap().lines,
        "4-4",
        "{}",
        rows.explanation
    );
    assert!(rows.confidence > 0.5, "{}", rows.confidence);
    assert!(!rows.explanation.contains("pruned"), "{}", rows.explanation);
}

#[test]
fn rows_pruned_for_a_renaming_selection_are_its_statements() {
    // `select($"id".as("Customer ID"))` passes `id` through under another name: the rows of `id`
    // alone keep fewer fields than the class has, so the selection pruned them
    let plan = plan()
        .replace(
            "* SerializeFromObject (2)\n+- Scan (1)",
            "* Project (3)\n+- * SerializeFromObject (2)\n   +- Scan (1)",
        )
        .replace(
            "AS id#11]\n",
            "AS id#11]\n\n(3) Project [codegen id : 1]\nOutput [1]: [id#11 AS Customer ID#57]\nInput [1]: [id#11]\n",
        );
    let script = lesson("dataframe").replace(
        "customerDF.select(\"id\").show()",
        "customerDF.select($\"id\".as(\"Customer ID\")).show()",
    );
    let mappings = support::map_against(
        &[("src/main/scala/dataframe/Basic.scala", script.as_str())],
        &plan,
    );
    let rows = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    assert_eq!(
        rows.mapped_code.as_ref().unwrap().lines,
        "8-8",
        "{}",
        rows.explanation
    );
    assert!(rows.confidence > 0.5, "{}", rows.confidence);
}

/// The aggregate `customerDF.groupBy("state").agg(max($"discount"))` plans over the rows of
/// `state, discount`.
fn grouped() -> String {
    format!(
        "\
== Physical Plan ==
* HashAggregate (5)
+- Exchange (4)
   +- * HashAggregate (3)
      +- * SerializeFromObject (2)
         +- Scan (1)


{SCAN}
(2) SerializeFromObject [codegen id : 1]
Input [1]: [obj#5]
Arguments: [invoke(knownnotnull(assertnotnull(input[0, dataframe.Basic$Cust, true])).discount()) AS discount#14, static_invoke(UTF8String.fromString(invoke(knownnotnull(assertnotnull(input[0, dataframe.Basic$Cust, true])).state()))) AS state#15]

(3) HashAggregate [codegen id : 1]
Input [2]: [discount#14, state#15]
Keys [1]: [state#15]
Functions [1]: [partial_max(discount#14)]
Aggregate Attributes [1]: [max#30]
Results [2]: [state#15, max#31]

(4) Exchange
Input [2]: [state#15, max#31]
Arguments: hashpartitioning(state#15, 200), ENSURE_REQUIREMENTS, [plan_id=20]

(5) HashAggregate [codegen id : 2]
Input [2]: [state#15, max#31]
Keys [1]: [state#15]
Functions [1]: [max(discount#14)]
Aggregate Attributes [1]: [max(discount#14)#29]
Results [2]: [state#15, max(discount#14)#29 AS max(discount)#32]
"
    )
}

#[test]
fn rows_pruned_for_an_aggregate_are_the_aggregating_statements() {
    let dataframe = lesson("dataframe");
    let mappings = support::map_against(
        &[("src/main/scala/dataframe/Basic.scala", dataframe.as_str())],
        &grouped(),
    );
    let line = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        (m.mapped_code.as_ref().unwrap().lines.clone(), m.confidence)
    };
    assert_eq!(line("1").0, "7-7", "the scan is the toDF's");
    let (rows, confidence) = line("2");
    assert_eq!(
        rows, "9-9",
        "the rows kept for the aggregate are its statement's"
    );
    assert!(confidence > 0.5, "{confidence}");
}
