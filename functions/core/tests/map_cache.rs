//! Cached data mapped end to end. A notebook builds the same frame twice, the second time cached,
//! and filters each alike. The UI's SQL DAG shows a read of the cached copy as `InMemoryTableScan`
//! alone (no `InMemoryRelation` beside it), which is the cached frame's read, not the first one.

mod support;

const NOTEBOOK: &str = "\
df1 = spark.createDataFrame(data, schema=[\"f_name\", \"l_name\"])
df2 = df1.filter(col(\"l_name\").endswith(\"s\"))
df2.show()
df3 = spark.createDataFrame(data, schema=[\"f_name\", \"l_name\"]).cache()
df4 = df3.filter(col(\"l_name\").endswith(\"s\"))
df4.show()
";

const PLAN: &str = "\
Filter EndsWith(l_name#2, s)
+- InMemoryTableScan [f_name#1, l_name#2], [EndsWith(l_name#2, s)]
";

#[test]
fn a_read_of_cached_data_maps_to_the_frame_that_was_cached() {
    let mappings = support::map_against(&[("notebook.py", NOTEBOOK)], PLAN);
    let lines: Vec<(String, String)> = mappings
        .iter()
        .map(|m| {
            let code = m.mapped_code.as_ref().expect("mapped");
            (m.node_name.clone(), code.lines.clone())
        })
        .collect();
    assert!(
        lines.contains(&("InMemoryTableScan".to_owned(), "4-4".to_owned())),
        "{lines:?}"
    );
    assert!(
        lines.contains(&("Filter".to_owned(), "5-5".to_owned())),
        "{lines:?}"
    );
}
