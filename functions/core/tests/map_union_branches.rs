//! A SQL `UNION ALL` of look-alike branches: three `SELECT key, MIN(CreationDate) … WHERE key IS
//! NOT NULL GROUP BY key` over three tables. Two branches key on a column of the same name, so
//! their filters and aggregates match either branch alike; the plan's `Union` takes its inputs in
//! the branches' order, and each input's operators — the final aggregate and its partial step —
//! are that branch's code, the one reading the table its scan reads. A real Spark 4.3 plan
//! (`bench/catalog`).

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
