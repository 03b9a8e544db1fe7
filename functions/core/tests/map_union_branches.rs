//! Unions' inputs. A SQL `UNION ALL` of look-alike branches: three `SELECT key, MIN(CreationDate) … WHERE key IS
//! NOT NULL GROUP BY key` over three tables. Two branches key on a column of the same name, so
//! their filters and aggregates match either branch alike; the plan's `Union` takes its inputs in
//! the branches' order, and each input's operators — the final aggregate and its partial step —
//! are that branch's code, the one reading the table its scan reads. A real Spark 4.3 plan
//! (`bench/catalog`).
//!
//! DataFrame unions chained one after another (`df1.union(df2).union(df3)`, or `u.union(c)` after
//! `u = a.union(b)`) are one `Union` node with an input per frame: Spark combines adjacent
//! unions. Each input is its own frame's code, and code uniting fewer frames than the node has
//! inputs is not the plan's. A real Spark 4.3 plan of a Java application uniting three frames
//! (`bench/java-more`).

mod support;

const QUERY: &str = r#"def first_activity(spark):
    return spark.sql("""
        WITH cohorts AS (
            SELECT DATE_TRUNC('month', CreationDate) AS cohort_month, Id AS user_id,
                   CreationDate AS signup_date
            FROM stackoverflow.dim_users
        ),
        firsts AS (
            SELECT DISTINCT OwnerUserId AS user_id, MIN(CreationDate) AS first_activity_date,
                   'post' AS activity_type
            FROM stackoverflow.fact_posts
            WHERE OwnerUserId IS NOT NULL
            GROUP BY OwnerUserId
            UNION ALL
            SELECT UserId AS user_id, MIN(CreationDate) AS first_activity_date,
                   'comment' AS activity_type
            FROM stackoverflow.comments
            WHERE UserId IS NOT NULL
            GROUP BY UserId
            UNION ALL
            SELECT UserId AS user_id, MIN(CreationDate) AS first_activity_date,
                   'vote' AS activity_type
            FROM stackoverflow.votes
            WHERE UserId IS NOT NULL
            GROUP BY UserId
        ),
        earliest AS (
            SELECT user_id, MIN(first_activity_date) AS first_activity_date
            FROM firsts
            GROUP BY user_id
        )
        SELECT c.cohort_month, COUNT(*) AS users
        FROM cohorts c
        LEFT JOIN earliest e ON c.user_id = e.user_id
        GROUP BY c.cohort_month
        ORDER BY c.cohort_month
    """)
"#;

#[test]
fn each_input_of_a_sql_union_is_its_own_branch() {
    let plan = support::bench_plan("catalog", "sfde-run-pipeline-006");
    let mappings = support::map_against(&[("activity.py", QUERY)], &plan);
    let line_of = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).expect(id);
        let code = m.mapped_code.as_ref().expect("mapped");
        let start: u32 = code.lines.split('-').next().unwrap().parse().unwrap();
        start
    };
    // (final aggregate, partial aggregate) of each input of Union (28), and its branch's lines
    for (nodes, branch) in [
        (["11", "7"], 9..=13),
        (["19", "15"], 15..=19),
        (["27", "23"], 21..=25),
    ] {
        for id in nodes {
            let line = line_of(id);
            assert!(
                branch.contains(&line),
                "node {id} at line {line}, not in {branch:?}"
            );
        }
    }
}

/// Three frames of people made in memory, united in one statement (`JAVA_THREE`), beside a
/// look-alike uniting two of them (`JAVA_TWO`).
const JAVA_THREE: &str = r#"package people;

import java.util.Arrays;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

public class UniteThree {
    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[*]").getOrCreate();
        Dataset<Row> df1 = first(spark);
        Dataset<Row> df2 = second(spark);
        Dataset<Row> df3 = third(spark);
        Dataset<Row> unionDF = df1.union(df2).union(df3);
        unionDF.show();
    }

    private static Dataset<Row> first(SparkSession spark) {
        Dataset<Row> df1 = spark.createDataFrame(Arrays.asList(
                new Person("Alice", 30),
                new Person("Bob", 25)
        ), Person.class);
        return df1;
    }

    private static Dataset<Row> second(SparkSession spark) {
        Dataset<Row> df2 = spark.createDataFrame(Arrays.asList(
                new Person("Charlie", 35),
                new Person("David", 28)
        ), Person.class);
        return df2;
    }

    private static Dataset<Row> third(SparkSession spark) {
        Dataset<Row> df3 = spark.createDataFrame(Arrays.asList(
                new Person("Eve", 22),
                new Person("Frank", 40)
        ), Person.class);
        return df3;
    }
}
"#;

const JAVA_TWO: &str = r#"package people;

import java.util.Arrays;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

public class UniteTwo {
    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[*]").getOrCreate();
        Dataset<Row> df1 = first(spark);
        Dataset<Row> df2 = second(spark);
        Dataset<Row> unionDF = df1.union(df2);
        unionDF.show();
    }

    private static Dataset<Row> first(SparkSession spark) {
        Dataset<Row> df1 = spark.createDataFrame(Arrays.asList(
                new Person("Alice", 30),
                new Person("Bob", 25)
        ), Person.class);
        return df1;
    }

    private static Dataset<Row> second(SparkSession spark) {
        Dataset<Row> df2 = spark.createDataFrame(Arrays.asList(
                new Person("Charlie", 35),
                new Person("David", 28)
        ), Person.class);
        return df2;
    }
}
"#;

const PERSON: &str = r#"package people;

public class Person {
    private String name;
    private int age;

    public Person(String name, int age) {
        this.name = name;
        this.age = age;
    }

    public String getName() { return name; }
    public int getAge() { return age; }
}
"#;

/// The line of `text` holding `needle` (1-based).
fn line_of(text: &str, needle: &str) -> u32 {
    let at = text.lines().position(|l| l.contains(needle)).expect(needle);
    at as u32 + 1
}

/// Where node `id` was mapped: its file and first line.
fn mapped_to(mappings: &[plan2code_core::contracts::MappingOutput], id: &str) -> (String, u32) {
    let (file, lines) = support::code_at(mappings, id);
    (file, lines.split('-').next().unwrap().parse().unwrap())
}

#[test]
fn a_chain_of_dataframe_unions_is_one_union_of_every_frame() {
    // Union (4) of LocalTableScans (1), (2), (3): the frames of `df1`, `df2` and `df3`.
    let plan = support::bench_plan("java-more", "jm-qs-union-multiple-data-frame-004");
    let mappings = support::map_against(
        &[
            ("src/people/UniteThree.java", JAVA_THREE),
            ("src/people/UniteTwo.java", JAVA_TWO),
            ("src/people/Person.java", PERSON),
        ],
        &plan,
    );
    assert_eq!(
        mapped_to(&mappings, "4"),
        (
            "src/people/UniteThree.java".to_owned(),
            line_of(JAVA_THREE, "df1.union(df2).union(df3)")
        )
    );
    for (id, frame) in [
        ("1", "Dataset<Row> df1 = spark"),
        ("2", "Dataset<Row> df2 = spark"),
        ("3", "Dataset<Row> df3 = spark"),
    ] {
        assert_eq!(
            mapped_to(&mappings, id),
            (
                "src/people/UniteThree.java".to_owned(),
                line_of(JAVA_THREE, frame)
            ),
            "node {id}"
        );
    }
}

/// The same union in two statements, in Python: `u = first.union(second)`, then
/// `u.union(third)`; beside a look-alike uniting two frames.
const PYTHON_THREE: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
first = spark.createDataFrame([(30, "Alice"), (25, "Bob")], ["age", "name"])
second = spark.createDataFrame([(35, "Charlie"), (28, "David")], ["age", "name"])
third = spark.createDataFrame([(22, "Eve"), (40, "Frank")], ["age", "name"])
both = first.union(second)
both.union(third).show()
"#;

const PYTHON_TWO: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
first = spark.createDataFrame([(30, "Alice"), (25, "Bob")], ["age", "name"])
second = spark.createDataFrame([(35, "Charlie"), (28, "David")], ["age", "name"])
first.union(second).show()
"#;

#[test]
fn a_union_of_a_union_held_in_a_variable_is_one_union_of_every_frame() {
    let plan = support::bench_plan("java-more", "jm-qs-union-multiple-data-frame-004");
    let mappings = support::map_against(
        &[("jobs/three.py", PYTHON_THREE), ("jobs/two.py", PYTHON_TWO)],
        &plan,
    );
    assert_eq!(
        mapped_to(&mappings, "4"),
        (
            "jobs/three.py".to_owned(),
            line_of(PYTHON_THREE, "both.union(third)")
        )
    );
    for (id, frame) in [("1", "first = "), ("2", "second = "), ("3", "third = ")] {
        assert_eq!(
            mapped_to(&mappings, id),
            ("jobs/three.py".to_owned(), line_of(PYTHON_THREE, frame)),
            "node {id}"
        );
    }
}
