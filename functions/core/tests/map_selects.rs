//! Selects that list the columns they keep, mapped end to end. Two look-alike scripts compute the
//! same expression; one also lists a column the plan keeps as it is. When the plan's projection
//! leaves an input column out, it was a `select` listing what it kept, so the script naming the
//! kept column is the plan's; when it keeps every input column (a `withColumn` replacing one in
//! place), naming them says more than the plan does. A select of `"name.*"` takes every field
//! out of the struct, which the plan names one by one.

mod support;

/// Where node `id` of `plan` maps among `files`.
fn file_of(files: &[(&str, &str)], plan: &str, id: &str) -> String {
    let mappings = support::map_against(files, plan);
    let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
    m.mapped_code.as_ref().expect("mapped").file.clone()
}

const MAP_KEYS_PLAN: &str = "\
== Physical Plan ==
* Project (1)
+- * Scan ExistingRDD (0)


(0) Scan ExistingRDD [codegen id : 1]
Output [2]: [name#1, info#2]
Arguments: [name#1, info#2], MapPartitionsRDD[9] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(1) Project [codegen id : 1]
Output [2]: [name#1, map_keys(info#2) AS map_keys(info)#5]
Input [2]: [name#1, info#2]
";

#[test]
fn a_select_leaving_a_column_out_is_the_one_listing_the_columns_it_keeps() {
    let keys_only = "\
df = spark.createDataFrame(data, schema=[\"name\", \"info\"])
df.select(map_keys(\"info\")).show()
";
    let with_name = "\
df = spark.createDataFrame(data, schema=[\"name\", \"info\"])
df.select(\"name\", map_keys(\"info\")).show()
";
    let files = [("a_keys.py", keys_only), ("b_keys.py", with_name)];
    assert_eq!(file_of(&files, MAP_KEYS_PLAN, "1"), "b_keys.py");
}

const CAST_PLAN: &str = "\
== Physical Plan ==
* Project (1)
+- * Scan ExistingRDD (0)


(0) Scan ExistingRDD [codegen id : 1]
Output [3]: [id#1L, name#2, salary#3]
Arguments: [id#1L, name#2, salary#3], MapPartitionsRDD[9] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(1) Project [codegen id : 1]
Output [3]: [id#1L, name#2, cast(salary#3 as int) AS salary#7]
Input [3]: [id#1L, name#2, salary#3]
";

#[test]
fn a_projection_keeping_every_column_lists_none_of_them() {
    let in_place = "\
df = spark.createDataFrame(data, schema=[\"id\", \"name\", \"salary\"])
df.withColumn(\"salary\", col(\"salary\").cast(\"int\")).show()
";
    let listed = "\
df = spark.createDataFrame(data, schema=[\"id\", \"name\", \"salary\"])
df.select(\"id\", \"name\", col(\"salary\").cast(\"int\").alias(\"salary\")).show()
";
    let files = [("b_cast.py", in_place), ("a_cast.py", listed)];
    assert_eq!(file_of(&files, CAST_PLAN, "1"), "b_cast.py");
}

const STRUCT_PLAN: &str = "\
== Physical Plan ==
* Project (1)
+- * Scan ExistingRDD (0)


(0) Scan ExistingRDD [codegen id : 1]
Output [2]: [name#1, state#2]
Arguments: [name#1, state#2], MapPartitionsRDD[9] at createDataFrame at Example.scala:9, ExistingRDD, UnknownPartitioning(0)

(1) Project [codegen id : 1]
Output [3]: [name#1.firstname AS firstname#5, name#1.middlename AS middlename#6, name#1.lastname AS lastname#7]
Input [2]: [name#1, state#2]
";

#[test]
fn every_field_of_a_struct_taken_out_under_its_name_is_a_select_of_the_struct_star() {
    let source = "\
object Example extends App {
  val df = spark.createDataFrame(rows, schema)
  df.select(\"name.firstname\", \"name.lastname\").show(false)
  df.select(\"name.*\").show(false)
}
";
    let mappings = support::map_against(&[("Example.scala", source)], STRUCT_PLAN);
    let m = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    assert_eq!(m.mapped_code.as_ref().expect("mapped").lines, "4-4");
    // Two of the fields: the select naming them, not the star (which the plan cannot rule out,
    // the struct's other fields being unknown to it).
    let two_fields = STRUCT_PLAN
        .replace("Output [3]", "Output [2]")
        .replace("name#1.middlename AS middlename#6, ", "");
    let mappings = support::map_against(&[("Example.scala", source)], &two_fields);
    let m = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    assert_eq!(m.mapped_code.as_ref().expect("mapped").lines, "3-3");
}
