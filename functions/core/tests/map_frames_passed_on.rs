//! A frame assigned to a variable that later code reads is handed on, not where a plan ends: a
//! join written twice in one notebook — once into `joined` (then selected from), once as SQL whose
//! rows are shown — explains a plan of the join alone equally well, and the plan is the statement
//! whose frame was used as it stands. A real Spark 4.3 plan of the project's notebooks set
//! (`bench/notebooks`): an inner join of two in-memory frames on two columns, every column kept.
//! And a statement that goes on past its chain to show the result (`….mean()[[…]].show()`)
//! runs it, beside the same aggregate assigned and formatted further on; a real plan of the
//! project's Jupyter set (`bench/jupyter`): yearly means of a CSV's columns.

mod support;

const NOTEBOOK: &str = r#"# Databricks notebook source
students = [(1, "Ann", 1, "A"), (2, "Bob", 2, "B"), (3, "Cyd", 1, "B")]
std_df = spark.createDataFrame(students, schema=["id", "name", "dept_id", "section"])

# COMMAND ----------

departments = [(1, "civil", "A", 301), (1, "civil", "B", 302), (2, "mech", "A", 401)]
dept_df = spark.createDataFrame(departments, schema=["dept_id", "dept_name", "section", "hall_no"])

# COMMAND ----------

condition = (std_df.dept_id == dept_df.dept_id) & (std_df.section == dept_df.section)
joined = std_df.join(dept_df, condition, how="inner")
joined.select("id", "name", "dept_name", dept_df.section, "hall_no").show()

# COMMAND ----------

std_df.createOrReplaceTempView("student")
dept_df.createOrReplaceTempView("department")
spark.sql('''
    SELECT *
    FROM student AS std
    JOIN department AS dept
    ON std.dept_id = dept.dept_id AND std.section = dept.section
''').show()
"#;

#[test]
fn a_frame_handed_on_is_not_where_the_plan_ends() {
    let plan = support::bench_plan("notebooks", "azl-multiple-column-join-notebook-006");
    let mappings = support::map_against(&[("join.py", NOTEBOOK)], &plan);
    let lines = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        m.mapped_code.as_ref().unwrap().lines.clone()
    };
    // (13) joins; (2) and (8) drop the rows whose keys are null, as the join requires
    for node in ["2", "8", "13"] {
        let (start, _) = lines(node)
            .split_once('-')
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
            .unwrap();
        let start: u32 = start.parse().unwrap();
        assert!((24..=29).contains(&start), "node {node} at {}", lines(node));
    }
}

const YEARLY: &str = r#"from pyspark.sql.functions import year, format_number

df = spark.read.csv("appl_stock.csv", inferSchema=True, header=True)
newdf = df.withColumn("Year", year(df["Date"]))
newdf.groupBy("Year").mean()[["avg(Year)", "avg(Close)"]].show()
result = newdf.groupBy("Year").mean()[["avg(Year)", "avg(Close)"]]
result = result.withColumnRenamed("avg(Year)", "Year")
result.select("Year", format_number("avg(Close)", 2).alias("Mean Close")).show()
"#;

#[test]
fn a_statement_showing_past_its_chain_runs_it() {
    let plan = support::bench_plan("jupyter", "tsp-dates-and-timestamps-008");
    let mappings = support::map_against(&[("yearly.py", YEARLY)], &plan);
    // (3) and (7) aggregate the yearly means that line 5 shows
    for node in ["3", "7"] {
        let m = mappings.iter().find(|m| m.dag_node_id == node).unwrap();
        assert_eq!(m.mapped_code.as_ref().unwrap().lines, "5-5", "node {node}");
    }
}
