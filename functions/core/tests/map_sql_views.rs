//! A SQL query over a temp view against a DataFrame flow doing the same: the read registered as
//! the view and the query's FROM explain the scan equally well, so the read is no idle statement
//! of the query's unit, and the query competes on its evidence alone.

const SQL_JOB: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
orders = spark.read.option("header", True).option("inferSchema", True).csv("data/orders.csv")
orders.createOrReplaceTempView("orders")
spark.sql("SELECT * FROM orders WHERE o_amount > 50").show()
"#;

const DATAFRAME_JOB: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
orders = spark.read.option("header", True).option("inferSchema", True).csv("data/orders.csv")
orders.where("o_amount > 50").show()
"#;

#[test]
fn a_query_over_a_view_is_not_charged_for_the_read_it_registered() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("jobs")).unwrap();
    std::fs::write(dir.path().join("jobs/sql_job.py"), SQL_JOB).unwrap();
    std::fs::write(dir.path().join("jobs/df_job.py"), DATAFRAME_JOB).unwrap();
    let index = plan2code_core::code::build_index(
        dir.path(),
        None,
        "test".into(),
        &plan2code_core::code::IndexOptions::default(),
    )
    .unwrap();
    let table = plan2code_core::pipeline::sites::SiteTable::build(&index);
    let plan = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/plans/scan-csv/formatted.txt"),
    )
    .unwrap();
    let graph =
        plan2code_core::plan::parse_plan(&plan, &plan2code_core::plan::ParseOptions::default())
            .unwrap();
    let semantics = plan2code_core::pipeline::semantics::plan_semantics(&graph);
    let localisation = plan2code_core::pipeline::localise::localise_plan(
        &graph,
        &semantics,
        &table,
        &plan2code_core::pipeline::localise::FilePrior::default(),
    );
    use plan2code_core::pipeline::localise::UnitKind;
    let score = |sql: bool| {
        localisation
            .units
            .iter()
            .filter(|u| matches!(u.kind, UnitKind::Sql { .. }) == sql)
            .map(|u| u.score)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    // The read and the FROM naming its view explain the scan alike; the filter and the WHERE
    // the filter: the two units explain the plan equally well.
    assert!(
        (score(true) - score(false)).abs() < 1e-9,
        "query {} against flow {}",
        score(true),
        score(false)
    );
}
