//! Frames of a record class's objects (`createDataFrame(list, Person.class)`, Scala's
//! `Seq(Person(…)).toDS()`) have the class's fields as columns, though the statement names none:
//! here a union of two frames of a Java bean, beside a frame built from rows under a schema that
//! names one of the same columns. A real Spark 4.3 plan of the project's `bench/java-more` set:
//! two in-memory scans of `[age, name]` and their union.

mod support;

const PERSON: &str = r#"package demo.model;

public class Person {
    private String name;
    private int age;

    public Person(String name, int age) { this.name = name; this.age = age; }
    public String getName() { return name; }
    public int getAge() { return age; }
}
"#;

const UNION: &str = r#"package demo;

import demo.model.Person;
import java.util.Arrays;
import org.apache.spark.sql.*;

public class PeopleUnion {
    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[*]").getOrCreate();
        Dataset<Row> first = spark.createDataFrame(Arrays.asList(
                new Person("Ann", 30), new Person("Bob", 25)), Person.class);
        Dataset<Row> second = spark.createDataFrame(Arrays.asList(
                new Person("Cyd", 35), new Person("Dan", 28)), Person.class);
        first.union(second).show();
    }
}
"#;

/// Rows under a schema naming `name` (and `id`), unioned alike.
const ROWS: &str = r#"package demo;

import java.util.ArrayList;
import java.util.Arrays;
import org.apache.spark.sql.*;
import static org.apache.spark.sql.types.DataTypes.*;

public class RowsUnion {
    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[*]").getOrCreate();
        Dataset<Row> empty = spark.createDataFrame(new ArrayList<>(), createStructType(new StructField[]{
                createStructField("id", IntegerType, false),
                createStructField("name", StringType, true)}));
        empty.union(spark.createDataFrame(Arrays.asList(RowFactory.create(1, "Ann")), empty.schema())).show();
    }
}
"#;

#[test]
fn a_frame_of_a_beans_objects_has_the_beans_fields_as_columns() {
    let plan = support::bench_plan("java-more", "jm-s4-spark-data-frame-union-003");
    let files = [
        ("src/main/java/demo/RowsUnion.java", ROWS),
        ("src/main/java/demo/PeopleUnion.java", UNION),
        ("src/main/java/demo/model/Person.java", PERSON),
    ];
    let mappings = support::map_against(&files, &plan);
    for node in ["1", "2"] {
        let m = mappings.iter().find(|m| m.dag_node_id == node).unwrap();
        let code = m.mapped_code.as_ref().unwrap();
        assert_eq!(
            code.file, "src/main/java/demo/PeopleUnion.java",
            "node {node}"
        );
    }
}
