//! Two build modules of one repository holding the same class
//! (`apache-spark-3/src/main/java/…` and `apache-spark-4/src/main/java/…`), each reading its own
//! copy of a data file by a path relative to the module (`src/main/resources/data/…`): the scan's
//! absolute path names the module it ran from — and a method taking the frame as a parameter is
//! fed by the callers in its own copy of the class. A real Spark 4.3 plan of the project's
//! `bench/java-more` set: a CSV scan, a filter and a projection, run from the second module.

mod support;

const READER: &str = r#"package demo;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import static org.apache.spark.sql.functions.col;

public class MovieReader {
    static final String PATH = "src/main/resources/data/movies-data.txt";

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[*]").getOrCreate();
        Dataset<Row> movies = spark.read().format("csv").option("header", true).load(PATH);
        movies.filter(col("movie_title").contains("Dragon"))
              .select("first_name", "last_name", "movie_title")
              .show();
    }
}
"#;

/// The same job split into methods: the frame reaches the filter as a parameter.
const READER_IN_METHODS: &str = r#"package demo;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import static org.apache.spark.sql.functions.col;

public class MovieReader {
    static final String PATH = "src/main/resources/data/movies-data.txt";

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[*]").getOrCreate();
        Dataset<Row> movies = read(spark);
        showDragons(movies);
    }

    private static void showDragons(Dataset<Row> movies) {
        movies.filter(col("movie_title").contains("Dragon"))
              .select("first_name", "last_name", "movie_title")
              .show();
    }

    private static Dataset<Row> read(SparkSession spark) {
        return spark.read().format("csv").option("header", true).load(PATH);
    }
}
"#;

/// The path reaches the reader as a parameter, from a constant its caller passes.
const READER_OF_PASSED_PATH: &str = r#"package demo;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import static org.apache.spark.sql.functions.col;

public class MovieReader {
    static final String MOVIES = "src/main/resources/data/movies-data.txt";

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().master("local[*]").getOrCreate();
        read(spark, MOVIES).filter(col("movie_title").contains("Dragon"))
              .select("first_name", "last_name", "movie_title")
              .show();
    }

    private static Dataset<Row> read(SparkSession spark, String path) {
        return spark.read().format("csv").option("header", true).load(path);
    }
}
"#;

/// The two modules' copies of one class, mapped against the plan run from `apache-spark-4/`.
fn map_both_copies(source: &str) -> Vec<plan2code_core::contracts::MappingOutput> {
    let plan = support::bench_plan("java-more", "jm-s4-spark-csv-read-003");
    let files = [
        ("apache-spark-3/src/main/java/demo/MovieReader.java", source),
        ("apache-spark-4/src/main/java/demo/MovieReader.java", source),
    ];
    support::map_against(&files, &plan)
}

fn assert_in_the_module_run(m: &plan2code_core::contracts::MappingOutput) {
    let file = &m.mapped_code.as_ref().unwrap().file;
    assert!(
        file.starts_with("apache-spark-4/"),
        "node {} {} in {file}",
        m.dag_node_id,
        m.node_name
    );
}

#[test]
fn a_relative_path_resolves_in_the_module_the_job_ran_from() {
    map_both_copies(READER)
        .iter()
        .for_each(assert_in_the_module_run);
}

#[test]
fn a_methods_frame_comes_from_the_callers_of_its_own_copy_of_the_class() {
    map_both_copies(READER_IN_METHODS)
        .iter()
        .for_each(assert_in_the_module_run);
}

#[test]
fn a_path_a_caller_passes_resolves_in_the_readers_module() {
    let mappings = map_both_copies(READER_OF_PASSED_PATH);
    assert_in_the_module_run(mappings.iter().find(|m| m.dag_node_id == "1").unwrap());
}
