//! Details extracted from plans generated with real Spark 4.3.0
//! (`tests/fixtures/plans/generate.py`; outputs committed, Spark not needed here).
//!
//! Each `fixture!` reads one case in both text forms it was captured in (`formatted.txt` and
//! `simple.txt`), finds the operator under test in the executed (Final) plan and asserts what
//! was extracted from it. The same assertion passing on both forms is the point: both front
//! ends must agree.

mod support;

use std::path::PathBuf;

use plan2code_core::plan::{
    Expr, NodeKind, OperatorFamily, ParseOptions, PlanFormat, PlanGraph, PlanNode, PlanSection,
    parse_plan,
};

fn fixture_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/plans")
        .join(rel)
}

fn load(rel: &str) -> PlanGraph {
    let path = fixture_path(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_plan(&text, &ParseOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The first node of the executed plan with this canonical operator.
fn op<'g>(g: &'g PlanGraph, operator: &str) -> &'g PlanNode {
    g.nodes
        .iter()
        .find(|n| n.operator == operator && n.section == PlanSection::Final)
        .unwrap_or_else(|| {
            let ops: Vec<&str> = g.nodes.iter().map(|n| n.operator.as_str()).collect();
            panic!("no {operator} in the final plan; operators: {ops:?}")
        })
}

fn texts(exprs: &[Expr]) -> Vec<&str> {
    exprs.iter().map(|e| e.text.as_str()).collect()
}

fn names(node: &PlanNode) -> Vec<&str> {
    node.details
        .output
        .iter()
        .map(|a| a.name.as_str())
        .collect()
}

/// `fixture!(test_name, "case-dir", |g| { … })` runs the body on the case's formatted and
/// simple plans; `fixture!(test_name, "case-dir/formatted.txt", |g| …)` on one file.
macro_rules! fixture {
    ($test:ident, $case:literal, |$g:ident| $body:block) => {
        #[test]
        fn $test() {
            let files: Vec<String> =
                if $case.ends_with(".txt") || $case.ends_with(".json") || $case.ends_with(".jsonl")
                {
                    vec![$case.to_string()]
                } else {
                    vec![
                        format!("{}/formatted.txt", $case),
                        format!("{}/simple.txt", $case),
                    ]
                };
            for file in files {
                let $g = load(&file);
                let run = || $body;
                if let Err(panic) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
                    eprintln!("failed on {file}");
                    std::panic::resume_unwind(panic);
                }
            }
        }
    };
}

// ---- scans ------------------------------------------------------------------------------

fixture!(
    parquet_scan_has_path_partition_and_pushed_filters,
    "scan-parquet",
    |g| {
        let scan = op(&g, "FileSourceScan");
        let info = scan.details.scan.as_ref().expect("scan info");
        assert_eq!(info.format, "parquet");
        assert_eq!(
            info.paths,
            vec!["file:/tmp/plan2code-fixture-data/orders.parquet"]
        );
        assert_eq!(
            info.pushed_filters,
            vec!["IsNotNull(o_amount)", "GreaterThan(o_amount,10.5)"]
        );
        assert_eq!(
            info.partition_filters,
            vec!["isnotnull(o_cust#13)", "(o_cust#13 = 3)"]
        );
        assert_eq!(info.read_schema, vec!["o_id:int", "o_amount:double"]);
        assert_eq!(names(scan), vec!["o_id", "o_amount", "o_cust"]);
        assert_eq!(scan.details.output[0].id, Some(9));
        let filter = op(&g, "Filter");
        assert_eq!(
            texts(&filter.details.conditions),
            vec!["isnotnull(o_amount)", "(o_amount > 10.5)"]
        );
        assert_eq!(filter.details.literals, vec!["10.5"]);
        assert_eq!(filter.codegen_stage, Some(1));
    }
);

fixture!(csv_scan_reads_format_and_pushed_filters, "scan-csv", |g| {
    let info = op(&g, "FileSourceScan").details.scan.clone().expect("scan");
    assert_eq!(info.format, "csv");
    assert_eq!(
        info.paths,
        vec!["file:/tmp/plan2code-fixture-data/orders.csv"]
    );
    assert_eq!(
        info.pushed_filters,
        vec!["IsNotNull(o_amount)", "GreaterThan(o_amount,50.0)"]
    );
});

fixture!(json_scan_reads_format_and_schema, "scan-json", |g| {
    let info = op(&g, "FileSourceScan").details.scan.clone().expect("scan");
    assert_eq!(info.format, "json");
    assert_eq!(info.read_schema, vec!["o_id:bigint", "o_name:string"]);
});

fixture!(
    existing_rdd_scan_keeps_the_rdd_description,
    "scan-existing-rdd",
    |g| {
        let scan = op(&g, "RDDScan");
        assert_eq!(scan.name.replace("Scan ", ""), "ExistingRDD");
        assert_eq!(names(scan), vec!["id", "letter"]);
        assert_eq!(scan.details.output[0].id, Some(61));
        let relation = scan
            .details
            .scan
            .as_ref()
            .and_then(|s| s.relation.clone())
            .unwrap_or_default();
        // `explain()` prints only the columns of an RDD scan
        assert!(
            g.format == PlanFormat::Simple
                || relation.starts_with("MapPartitionsRDD[52] at applySchemaToPythonRDD"),
            "{relation}"
        );
    }
);

fixture!(
    local_table_scan_lists_its_columns,
    "scan-local-table",
    |g| {
        let scan = op(&g, "LocalTableScan");
        assert_eq!(scan.family, OperatorFamily::Scan);
        assert_eq!(names(scan), vec!["V", "k"]);
        assert!(
            scan.details.scan.is_none(),
            "a local table reads no source: no scan details"
        );
    }
);

fixture!(
    in_memory_scan_has_predicates_and_a_table_cache_stage,
    "scan-in-memory",
    |g| {
        let scan = op(&g, "InMemoryTableScan");
        assert_eq!(names(scan), vec!["o_amount", "o_cust"]);
        assert_eq!(
            texts(&scan.details.conditions),
            vec!["isnotnull(o_amount)", "(o_amount < 20.0)"]
        );
        if g.format == PlanFormat::Formatted {
            assert_eq!(op(&g, "TableCacheQueryStage").node_kind, NodeKind::Engine);
        }
    }
);

// ---- aggregates -------------------------------------------------------------------------

fixture!(
    hash_aggregate_has_keys_functions_and_aliases,
    "aggregate-hash",
    |g| {
        let partial = g
            .nodes
            .iter()
            .find(|n| {
                n.operator == "HashAggregate"
                    && n.details
                        .aggregate_functions
                        .iter()
                        .any(|f| f.text.starts_with("partial_"))
            })
            .expect("partial aggregate");
        assert_eq!(texts(&partial.details.grouping_keys), vec!["o_cust"]);
        assert_eq!(
            texts(&partial.details.aggregate_functions),
            vec!["partial_sum(o_amount)", "partial_count(1)"]
        );
        let final_agg = op(&g, "HashAggregate");
        assert_eq!(
            texts(&final_agg.details.aggregate_functions),
            vec!["sum(o_amount)", "count(1)"]
        );
        assert_eq!(
            final_agg.details.aggregate_functions[0].functions,
            vec!["sum"]
        );
        assert_eq!(
            final_agg.details.aggregate_functions[0].columns,
            vec!["o_amount"]
        );
        if g.format == PlanFormat::Formatted {
            let aliases: Vec<_> = final_agg
                .details
                .projections
                .iter()
                .filter_map(|p| p.alias.as_deref())
                .collect();
            assert_eq!(aliases, vec!["total", "n"]);
        }
    }
);

fixture!(
    object_hash_aggregate_collects,
    "aggregate-object-hash",
    |g| {
        let agg = op(&g, "ObjectHashAggregate");
        assert_eq!(agg.family, OperatorFamily::Aggregate);
        assert_eq!(
            agg.details.aggregate_functions[0].functions,
            vec!["collect_list"]
        );
    }
);

fixture!(sort_aggregate_on_strings, "aggregate-sort", |g| {
    let agg = op(&g, "SortAggregate");
    assert_eq!(texts(&agg.details.grouping_keys), vec!["o_cust"]);
    assert_eq!(texts(&agg.details.aggregate_functions), vec!["min(o_date)"]);
});

fixture!(
    global_aggregate_uses_a_single_partition_exchange,
    "aggregate-global-single-partition",
    |g| {
        let exchange = op(&g, "Exchange");
        let p = exchange
            .details
            .partitioning
            .as_ref()
            .expect("partitioning");
        assert_eq!(
            (p.kind.as_str(), p.num_partitions, p.origin.as_deref()),
            ("single", Some(1), Some("ENSURE_REQUIREMENTS"))
        );
        assert!(op(&g, "HashAggregate").details.grouping_keys.is_empty());
    }
);

fixture!(count_distinct_expands_rows, "expand-count-distinct", |g| {
    let expand = op(&g, "Expand");
    assert_eq!(expand.family, OperatorFamily::Expand);
    assert_eq!(
        texts(&expand.details.projections),
        vec!["[o_cust, o_name, null, 1]", "[o_cust, null, o_date, 2]"]
    );
    assert_eq!(names(expand), vec!["o_cust", "o_name", "o_date", "gid"]);
});

// ---- joins ------------------------------------------------------------------------------

fixture!(
    broadcast_hash_join_has_type_side_and_keys,
    "join-broadcast-hash",
    |g| {
        let join = op(&g, "BroadcastHashJoin")
            .details
            .join
            .clone()
            .expect("join");
        assert_eq!(join.join_type, "Inner");
        assert_eq!(join.build_side.as_deref(), Some("BuildRight"));
        assert_eq!(texts(&join.left_keys), vec!["o_cust"]);
        assert_eq!(texts(&join.right_keys), vec!["c_id"]);
        assert!(join.condition.is_empty());
        let exchange = op(&g, "BroadcastExchange");
        assert_eq!(
            exchange
                .details
                .partitioning
                .as_ref()
                .map(|p| p.kind.as_str()),
            Some("broadcast")
        );
    }
);

fixture!(
    sort_merge_join_is_left_outer_over_sorted_hash_exchanges,
    "join-sort-merge",
    |g| {
        let join = op(&g, "SortMergeJoin").details.join.clone().expect("join");
        assert_eq!(join.join_type, "LeftOuter");
        assert_eq!(
            (texts(&join.left_keys), texts(&join.right_keys)),
            (vec!["o_cust"], vec!["c_id"])
        );
        let sort = op(&g, "Sort");
        assert!(sort.details.sort_order[0].ascending && sort.details.sort_order[0].nulls_first);
        let p = op(&g, "Exchange")
            .details
            .partitioning
            .clone()
            .expect("partitioning");
        assert_eq!(p.kind, "hash");
        assert_eq!(p.num_partitions, Some(8));
    }
);

fixture!(shuffled_hash_join_from_a_hint, "join-shuffled-hash", |g| {
    let join = op(&g, "ShuffledHashJoin")
        .details
        .join
        .clone()
        .expect("join");
    assert_eq!(join.join_type, "Inner");
    assert_eq!(texts(&join.right_keys), vec!["c_id"]);
});

fixture!(
    nested_loop_join_keeps_its_non_equi_condition,
    "join-broadcast-nested-loop",
    |g| {
        let join = op(&g, "BroadcastNestedLoopJoin")
            .details
            .join
            .clone()
            .expect("join");
        assert_eq!(join.join_type, "LeftOuter");
        assert_eq!(texts(&join.condition), vec!["(o_cust < c_id)"]);
        assert_eq!(join.condition[0].columns, vec!["o_cust", "c_id"]);
    }
);

fixture!(cartesian_product_is_a_join, "join-cartesian", |g| {
    let node = op(&g, "CartesianProduct");
    assert_eq!(node.family, OperatorFamily::Join);
    assert_eq!(node.children.len(), 2);
    let project = op(&g, "Project");
    assert_eq!(
        project.details.projections[0].alias.as_deref(),
        Some("other")
    );
});

// ---- exchanges, sorts, limits -----------------------------------------------------------

fixture!(round_robin_repartition, "exchange-round-robin", |g| {
    let p = op(&g, "Exchange")
        .details
        .partitioning
        .clone()
        .expect("partitioning");
    assert_eq!(
        (p.kind.as_str(), p.num_partitions, p.origin.as_deref()),
        ("roundRobin", Some(4), Some("REPARTITION_BY_NUM"))
    );
});

fixture!(hash_repartition_by_column, "exchange-hash-by-column", |g| {
    let p = op(&g, "Exchange")
        .details
        .partitioning
        .clone()
        .expect("partitioning");
    assert_eq!(
        (p.kind.as_str(), texts(&p.exprs), p.num_partitions),
        ("hash", vec!["o_name"], Some(3))
    );
});

fixture!(
    order_by_ranges_and_sorts_globally,
    "sort-range-exchange",
    |g| {
        let p = op(&g, "Exchange")
            .details
            .partitioning
            .clone()
            .expect("partitioning");
        assert_eq!(
            (p.kind.as_str(), texts(&p.exprs)),
            ("range", vec!["o_amount", "o_id"])
        );
        let sort = op(&g, "Sort");
        let keys: Vec<_> = sort
            .details
            .sort_order
            .iter()
            .map(|k| (k.expr.text.as_str(), k.ascending, k.nulls_first))
            .collect();
        assert_eq!(keys, vec![("o_amount", false, false), ("o_id", true, true)]);
        assert_eq!(
            sort.details.arguments.get("global").map(String::as_str),
            Some("true")
        );
    }
);

fixture!(
    take_ordered_and_project_has_limit_order_and_output,
    "take-ordered-and-project",
    |g| {
        let node = op(&g, "TakeOrderedAndProject");
        assert_eq!(node.details.limit, Some(5));
        assert_eq!(node.details.sort_order[0].expr.text, "o_amount");
        assert!(!node.details.sort_order[0].ascending);
        assert_eq!(texts(&node.details.projections), vec!["o_id", "o_amount"]);
    }
);

fixture!(collect_limit, "collect-limit", |g| {
    let node = op(&g, "CollectLimit");
    assert_eq!(
        (node.family, node.details.limit),
        (OperatorFamily::Limit, Some(7))
    );
});

fixture!(global_and_local_limits, "global-local-limit", |g| {
    assert_eq!(op(&g, "LocalLimit").details.limit, Some(20));
    let global = op(&g, "GlobalLimit");
    assert_eq!(
        (global.details.limit, global.details.offset),
        (Some(20), None)
    );
});

// ---- window, union, generate, python ----------------------------------------------------

fixture!(
    window_spec_has_function_partition_and_order,
    "window-running-sum",
    |g| {
        let w = op(&g, "Window").details.window.clone().expect("window");
        assert_eq!(w.functions.len(), 1);
        assert_eq!(w.functions[0].alias.as_deref(), Some("running_total"));
        assert_eq!(
            w.functions[0].functions[..2],
            ["sum".to_string(), "windowspecdefinition".to_string()]
        );
        assert_eq!(texts(&w.partition_by), vec!["o_cust"]);
        assert_eq!(w.order_by[0].expr.text, "o_date");
    }
);

fixture!(
    row_number_filter_becomes_window_group_limit,
    "window-row-number",
    |g| {
        let node = op(&g, "WindowGroupLimit");
        assert_eq!(node.family, OperatorFamily::Window);
        assert_eq!(node.details.limit, Some(2));
        let w = node.details.window.clone().expect("window");
        assert_eq!(
            (texts(&w.partition_by), w.functions[0].text.as_str()),
            (vec!["o_cust"], "row_number()")
        );
        let window = op(&g, "Window").details.window.clone().expect("window");
        assert_eq!(window.functions[0].alias.as_deref(), Some("rank"));
    }
);

fixture!(union_has_both_inputs, "union", |g| {
    let node = op(&g, "Union");
    assert_eq!(
        (node.family, node.children.len()),
        (OperatorFamily::Union, 2)
    );
});

fixture!(explode_is_a_generator, "generate-explode", |g| {
    let node = op(&g, "Generate");
    let generator = node.details.generator.clone().expect("generator");
    assert_eq!(
        (generator.text.as_str(), generator.functions.clone()),
        ("explode(c_langs)", vec!["explode".to_string()])
    );
    assert_eq!(names(node), vec!["lang"]);
    assert_eq!(
        node.details.arguments.get("outer").map(String::as_str),
        Some("false")
    );
});

fixture!(python_udf_is_batch_evaluated, "python-batch-eval", |g| {
    let node = op(&g, "BatchEvalPython");
    assert_eq!(
        (node.family, node.details.python_udfs.to_vec()),
        (OperatorFamily::PythonEval, vec!["<lambda>".to_string()])
    );
});

fixture!(pandas_udf_is_arrow_evaluated, "python-arrow-eval", |g| {
    let node = op(&g, "ArrowEvalPython");
    assert_eq!(node.details.python_udfs, vec!["plus_one"]);
    assert_eq!(names(node), vec!["pythonUDF0"]);
});

// ---- links: reuse, subqueries, AQE sections ---------------------------------------------

fixture!(
    reused_exchange_points_at_the_exchange_it_reuses,
    "reused-exchange",
    |g| {
        let reused = op(&g, "ReusedExchange");
        let target = &g.nodes[reused.reuses.expect("reuses")];
        assert_eq!(target.operator, "Exchange");
        assert!(
            target.children.len() == 1 && reused.children.is_empty(),
            "linked, not duplicated"
        );
    }
);

fixture!(
    scalar_subquery_is_linked_from_its_filter,
    "subquery-scalar",
    |g| {
        let filter = op(&g, "Filter");
        assert_eq!(filter.subqueries.len(), 1, "filter links one subquery plan");
        let sub = &g.nodes[filter.subqueries[0]];
        assert_eq!(sub.section, PlanSection::Subquery);
        assert!(
            g.nodes
                .iter()
                .filter(|n| n.section == PlanSection::Subquery)
                .any(|n| n
                    .details
                    .aggregate_functions
                    .iter()
                    .any(|f| f.text == "avg(o_amount)")),
            "the subquery's aggregate is in the graph"
        );
        // the scan's pushed-down copy reuses the same subquery
        let scan = op(&g, "FileSourceScan");
        assert_eq!(scan.subqueries.len(), 1);
    }
);

fixture!(
    an_adaptive_subquery_owns_its_initial_plan,
    "subquery-scalar/formatted.txt",
    |g| {
        let nested = g.in_subquery();
        let filter = op(&g, "Filter");
        let mut below = vec![filter.subqueries[0]];
        let mut seen = Vec::new();
        while let Some(i) = below.pop() {
            seen.push(i);
            below.extend(g.nodes[i].children.iter().copied());
        }
        assert!(
            seen.iter()
                .any(|&i| g.nodes[i].section == PlanSection::Initial),
            "the subquery lists an AQE Initial Plan of its own"
        );
        for &i in &seen {
            assert!(nested[i], "node {} is the subquery's", g.nodes[i].id);
        }
        assert!(!nested[g.roots[0]] && !nested[g.node_by_id(&filter.id).unwrap()]);
        let outer_initial = g
            .nodes
            .iter()
            .position(|n| {
                n.section == PlanSection::Initial && !seen.contains(&g.node_by_id(&n.id).unwrap())
            })
            .expect("the outer query's Initial Plan");
        assert!(
            !nested[outer_initial],
            "the outer Initial Plan is not a subquery's"
        );
    }
);

#[test]
fn an_exchange_a_subquery_reuses_stays_the_outer_querys() {
    // The UI's graph links a reused exchange to every reader: here the subquery's join reads the
    // broadcast of the outer plan (2).
    let ui = r#"{"id": 0, "nodes": [
        {"nodeId": 0, "nodeName": "Filter", "desc": "Filter (a#1 > Subquery subquery#9, [id=#3])", "metrics": []},
        {"nodeId": 1, "nodeName": "BroadcastHashJoin", "desc": "BroadcastHashJoin [a#1], [b#2], Inner, BuildRight, false", "metrics": []},
        {"nodeId": 2, "nodeName": "BroadcastExchange", "desc": "BroadcastExchange HashedRelationBroadcastMode(List(input[0, int, false]),false), [plan_id=5]", "metrics": []},
        {"nodeId": 3, "nodeName": "LocalTableScan", "desc": "LocalTableScan [b#2]", "metrics": []},
        {"nodeId": 4, "nodeName": "LocalTableScan", "desc": "LocalTableScan [a#1]", "metrics": []},
        {"nodeId": 5, "nodeName": "Subquery", "desc": "Subquery subquery#9, [id=#3]", "metrics": []},
        {"nodeId": 6, "nodeName": "HashAggregate", "desc": "HashAggregate(keys=[], functions=[max(a#7)])", "metrics": []},
        {"nodeId": 7, "nodeName": "BroadcastHashJoin", "desc": "BroadcastHashJoin [a#7], [b#2], Inner, BuildRight, false", "metrics": []},
        {"nodeId": 8, "nodeName": "LocalTableScan", "desc": "LocalTableScan [a#7]", "metrics": []}
    ], "edges": [
        {"fromId": 1, "toId": 0}, {"fromId": 4, "toId": 1}, {"fromId": 2, "toId": 1},
        {"fromId": 3, "toId": 2}, {"fromId": 5, "toId": 0}, {"fromId": 6, "toId": 5},
        {"fromId": 7, "toId": 6}, {"fromId": 8, "toId": 7}, {"fromId": 2, "toId": 7}
    ]}"#;
    let g = parse_plan(ui, &ParseOptions::default()).expect("ui json");
    let nested = g.in_subquery();
    let of = |id: &str| nested[g.node_by_id(id).expect(id)];
    for id in ["6", "7", "8"] {
        assert!(of(id), "node {id} is the subquery's");
    }
    for id in ["0", "1", "2", "3", "4"] {
        assert!(!of(id), "node {id} is the outer query's");
    }
}

fixture!(
    aqe_initial_plan_is_kept_and_shares_the_scan,
    "aggregate-hash/formatted.txt",
    |g| {
        let root = &g.nodes[g.roots[0]];
        assert_eq!(root.operator, "AdaptiveSparkPlan");
        assert_eq!(
            root.children
                .iter()
                .map(|&c| g.nodes[c].section)
                .collect::<Vec<_>>(),
            vec![PlanSection::Final, PlanSection::Initial]
        );
        let scans: Vec<_> = g
            .nodes
            .iter()
            .filter(|n| n.operator == "FileSourceScan")
            .collect();
        assert_eq!(
            scans.len(),
            1,
            "the scan listed under both plans is one node"
        );
        let parents = g
            .nodes
            .iter()
            .filter(|n| n.children.iter().any(|&c| g.nodes[c].id == scans[0].id))
            .count();
        assert_eq!(parents, 2);
    }
);

fixture!(
    without_aqe_codegen_stages_come_from_the_star_prefix,
    "no-aqe-codegen-stages/simple.txt",
    |g| {
        assert_eq!(g.nodes[0].operator, "Sort");
        assert_eq!(g.nodes[0].codegen_stage, Some(4));
        let ids: Vec<_> = g.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids.first().copied(), Some("0"));
        let filter = op(&g, "Filter");
        assert_eq!(filter.details.literals, vec!["2024-01-10"]);
    }
);

// ---- multi-execution inputs -------------------------------------------------------------

#[test]
fn event_log_with_several_executions_needs_a_choice_and_keeps_the_call_site() {
    let text = std::fs::read_to_string(fixture_path("eventlog.jsonl")).expect("eventlog");
    let listed = plan2code_core::plan::list_executions(&text).expect("list");
    assert_eq!(
        listed
            .iter()
            .filter_map(|e| e.execution_id)
            .collect::<Vec<_>>(),
        vec![0, 1, 2, 3, 4, 5]
    );
    let err = parse_plan(&text, &ParseOptions::default()).expect_err("several executions");
    assert!(
        matches!(
            err,
            plan2code_core::plan::PlanError::ExecutionRequired { .. }
        ),
        "{err}"
    );
    let g = parse_plan(
        &text,
        &ParseOptions {
            execution_id: Some(4),
        },
    )
    .expect("execution 4");
    assert_eq!(g.format, PlanFormat::Eventlog);
    assert_eq!(g.execution.spark_version.as_deref(), Some("4.3.0"));
    assert_eq!(
        g.execution.description.as_deref(),
        Some("collect at /work/wt/plan/tests/fixtures/plans/generate.py:41")
    );
    assert_eq!(op(&g, "Filter").id, "3");
    let missing = parse_plan(
        &text,
        &ParseOptions {
            execution_id: Some(99),
        },
    )
    .expect_err("no such execution");
    assert!(missing.to_string().contains("no execution 99"), "{missing}");
}

#[test]
fn ui_sql_list_selects_one_execution() {
    let text = std::fs::read_to_string(fixture_path("ui-sql-list.json")).expect("ui");
    assert_eq!(
        plan2code_core::plan::list_executions(&text)
            .expect("list")
            .len(),
        4
    );
    let g = parse_plan(
        &text,
        &ParseOptions {
            execution_id: Some(0),
        },
    )
    .expect("execution 0");
    assert_eq!(g.format, PlanFormat::Ui);
    assert_eq!(g.execution.execution_id, Some(0));
    assert!(
        g.nodes
            .iter()
            .any(|n| n.name.starts_with("WholeStageCodegen") && !n.members.is_empty())
    );
}

// ---- Photon (hand-written plans, see tests/fixtures/plans/photon/README.md) -------------

fixture!(photon_names_map_onto_spark_operators, "photon", |g| {
    let agg = g
        .nodes
        .iter()
        .find(|n| {
            n.name == "PhotonGroupingAgg"
                && n.details
                    .aggregate_functions
                    .iter()
                    .any(|f| f.text.starts_with("partial_sum"))
        })
        .expect("partial PhotonGroupingAgg");
    assert_eq!(
        (agg.operator.as_str(), agg.family, agg.node_kind),
        ("HashAggregate", OperatorFamily::Aggregate, NodeKind::Code)
    );
    assert_eq!(texts(&agg.details.grouping_keys), vec!["region"]);
    // the grouping's shuffle: the sink hash-partitioned by the key
    let sink = g
        .nodes
        .iter()
        .filter(|n| n.name == "PhotonShuffleExchangeSink")
        .find(|n| {
            n.details
                .partitioning
                .as_ref()
                .is_some_and(|p| p.kind == "hash")
        })
        .expect("hash sink");
    assert_eq!(sink.operator, "Exchange");
    assert_eq!(
        texts(&sink.details.partitioning.clone().expect("p").exprs),
        vec!["region"]
    );
    for engine in [
        "PhotonResultStage",
        "PhotonShuffleMapStage",
        "PhotonShuffleExchangeSource",
        "ColumnarToRow",
    ] {
        let node = g.nodes.iter().find(|n| n.name == engine).expect(engine);
        assert_eq!(node.node_kind, NodeKind::Engine, "{engine}");
    }
    let filter = op(&g, "Filter");
    assert_eq!(filter.name, "PhotonFilter");
    assert_eq!(
        texts(&filter.details.conditions),
        vec!["isnotnull(amount)", "(amount > 100.0)"]
    );
    let scan = op(&g, "FileSourceScan");
    let info = scan.details.scan.as_ref().expect("scan");
    assert_eq!(
        (info.format.as_str(), info.table.as_deref()),
        ("parquet", Some("spark_catalog.sales.orders"))
    );
    assert_eq!(
        texts(&info.data_filters),
        vec!["isnotnull(amount)", "(amount > 100.0)"]
    );
    assert_eq!(
        info.paths,
        vec!["dbfs:/user/hive/warehouse/sales.db/orders"]
    );
});

fixture!(photon_join_in_the_simple_plan, "photon/simple.txt", |g| {
    let join = op(&g, "BroadcastHashJoin");
    assert_eq!(join.name, "PhotonBroadcastHashJoin");
    let info = join.details.join.clone().expect("join");
    assert_eq!(
        (info.join_type.as_str(), info.build_side.as_deref()),
        ("Inner", Some("BuildRight"))
    );
    assert_eq!(
        (texts(&info.left_keys), texts(&info.right_keys)),
        (vec!["cust_id"], vec!["id"])
    );
    assert_eq!(op(&g, "Sort").name, "PhotonSort");
});

// ---- extended text and the CLI's JSON ---------------------------------------------------

fixture!(
    extended_text_keeps_logical_plans_and_reads_the_physical_one,
    "aggregate-hash/extended.txt",
    |g| {
        assert_eq!(g.format, PlanFormat::Extended);
        let logical: Vec<&str> = g.logical_plans.keys().map(String::as_str).collect();
        assert_eq!(
            logical,
            vec![
                "Analyzed Logical Plan",
                "Optimized Logical Plan",
                "Parsed Logical Plan"
            ]
        );
        assert!(g.logical_plans["Optimized Logical Plan"].contains("Aggregate [o_cust#13]"));
        assert_eq!(g.nodes[0].operator, "AdaptiveSparkPlan");
        assert_eq!(g.nodes[0].id, "0");
        assert_eq!(
            op(&g, "Exchange")
                .details
                .partitioning
                .as_ref()
                .map(|p| p.kind.as_str()),
            Some("range")
        );
    }
);

#[test]
fn json_output_names_nodes_by_id_with_camel_case_fields() {
    let g = load("reused-exchange/formatted.txt");
    let doc = plan2code_core::plan::render::to_json(&g);
    assert_eq!(doc["format"], "formatted");
    let nodes = doc["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), g.nodes.len());
    let by_id = |id: &str| {
        nodes
            .iter()
            .find(|n| n["id"] == id)
            .unwrap_or_else(|| panic!("node {id}"))
    };
    for node in nodes {
        for child in node["children"].as_array().expect("children") {
            assert!(child.is_string(), "children are ids");
            by_id(child.as_str().unwrap_or_default());
        }
    }
    let reused = nodes
        .iter()
        .find(|n| n["operator"] == "ReusedExchange")
        .expect("reused");
    assert_eq!(
        by_id(reused["reuses"].as_str().expect("reuses id"))["operator"],
        "Exchange"
    );
    let join = nodes
        .iter()
        .find(|n| n["operator"] == "BroadcastHashJoin")
        .expect("join");
    assert_eq!(join["nodeKind"], "code");
    assert_eq!(join["join"]["joinType"], "Inner");
    assert!(join["codegenStage"].is_u64());
    assert_eq!(doc["roots"][0], g.nodes[g.roots[0]].id.as_str());
}

#[test]
fn event_log_with_an_extended_plan_description_is_read_too() {
    // Spark 2.x logs carry `explain(true)` text instead of the formatted form
    let extended =
        std::fs::read_to_string(fixture_path("aggregate-hash/extended.txt")).expect("extended");
    let event = serde_json::json!({
        "Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart",
        "executionId": 7,
        "description": "count at job.py:12",
        "details": "",
        "physicalPlanDescription": extended,
    });
    let g = parse_plan(&event.to_string(), &ParseOptions::default()).expect("event log");
    assert_eq!(g.format, PlanFormat::Eventlog);
    assert_eq!(g.execution.execution_id, Some(7));
    assert_eq!(
        g.execution.call_site, None,
        "an empty call site is no call site"
    );
    assert_eq!(g.nodes[0].id, "0");
    assert_eq!(op(&g, "Sort").details.sort_order[0].expr.text, "total");
}

#[test]
fn adaptively_optimized_out_exchanges_are_kept_as_initial_nodes() {
    // hand-made: Spark's layout for exchanges AQE removed, appended to a real plan
    let mut text =
        std::fs::read_to_string(fixture_path("scan-parquet/formatted.txt")).expect("plan");
    text.push_str(
        "===== Adaptively Optimized Out Exchanges =====\n\nSubplan:1\nExchange (9)\n+- Scan parquet  (1)\n\n\n\
         (9) Exchange\nInput [3]: [o_id#9, o_amount#11, o_cust#13]\n\
         Arguments: hashpartitioning(o_cust#13, 8), ENSURE_REQUIREMENTS, [plan_id=7]\n\n",
    );
    let g = parse_plan(&text, &ParseOptions::default()).expect("plan");
    let idx = g.node_by_id("9").expect("node 9");
    let exchange = &g.nodes[idx];
    assert_eq!(exchange.section, PlanSection::Initial);
    assert_eq!(
        g.nodes[exchange.children[0]].id, "1",
        "linked to the scan, not a copy"
    );
    assert!(!g.roots.contains(&idx));
    assert_eq!(
        exchange
            .details
            .partitioning
            .as_ref()
            .map(|p| p.kind.as_str()),
        Some("hash")
    );
}

#[test]
fn operators_without_an_id_and_gaps_in_details_are_tolerated() {
    // hand-made from a real plan: Spark prints `(unknown)` for an operator it gave no id, and a
    // missing section in the middle (not at the end) is not a cut-off plan
    let text = std::fs::read_to_string(fixture_path("scan-parquet/formatted.txt"))
        .expect("plan")
        .replace("+- * ColumnarToRow (2)", "+- * ColumnarToRow (unknown)");
    let g = parse_plan(&text, &ParseOptions::default()).expect("plan");
    let idx = g
        .node_by_id("unknown@4")
        .expect("synthetic id from the line");
    assert_eq!(g.nodes[idx].operator, "ColumnarToRow");
    assert_eq!(g.nodes[g.nodes[idx].children[0]].id, "1");
    // the `(2)` section stays: a section whose node the tree did not show is kept
    assert!(g.node_by_id("2").is_some());
}

#[test]
fn a_photon_explanation_after_the_plan_is_not_part_of_it() {
    // Databricks appends this section to explain output
    for file in ["photon/simple.txt", "photon/formatted.txt"] {
        let mut text = std::fs::read_to_string(fixture_path(file)).expect("plan");
        let plain = parse_plan(&text, &ParseOptions::default()).expect("plan");
        text.push_str("== Photon Explanation ==\nThe query is fully supported by Photon.\n");
        let with_note = parse_plan(&text, &ParseOptions::default()).expect("plan with note");
        assert_eq!(with_note.nodes.len(), plain.nodes.len(), "{file}");
    }
}

#[test]
fn a_cached_plan_in_the_ui_and_the_log_pairs_with_its_text() {
    // A cached join, counted once the cache is built: the listeners' tree puts the cache's plan
    // straight under `InMemoryTableScan`, while the text has an `InMemoryRelation` between
    // them and lists the scan again in the outer AQE Initial Plan.
    let case = "jm-qs-join-compare-filter-data-frames-and-count-003";
    let ui = parse_plan(
        &support::bench_plan_form("java-more", case, "ui.json"),
        &ParseOptions::default(),
    )
    .expect("ui");
    let mut paths: Vec<&str> = ui
        .nodes
        .iter()
        .filter_map(|n| n.details.scan.as_ref())
        .flat_map(|s| s.paths.iter().map(String::as_str))
        .collect();
    paths.sort_unstable();
    // the UI's `desc` cuts the location short; the plan text has it whole
    assert_eq!(paths.len(), 2, "{paths:?}");
    assert!(paths[0].ends_with("chapter10/allTrades.csv"), "{paths:?}");
    assert!(paths[1].ends_with("chapter10/validTrades.csv"), "{paths:?}");
    assert!(
        ui.nodes
            .iter()
            .filter(|n| n.operator == "Filter")
            .all(|n| !n.details.input.is_empty())
    );
    let log = parse_plan(
        &support::bench_plan_form("java-more", case, "eventlog.jsonl"),
        &ParseOptions::default(),
    )
    .expect("event log");
    let scan = &log.nodes[log.node_by_id("1").expect("node 1")];
    assert_eq!(scan.operator, "InMemoryTableScan");
    assert_eq!(scan.details.metrics["number of output rows"], "16");
}

#[test]
fn a_ui_scan_of_an_rdd_pairs_with_its_text_whatever_the_ui_draws_below_it() {
    // `createDataFrame` over an RDD of earlier results: the UI draws those results' plans
    // below `Scan ExistingRDD`; the text stops at the scan.
    let g = parse_plan(
        &support::bench_plan_form("dynamic", "ano-test-association-evaluator-007", "ui.json"),
        &ParseOptions::default(),
    )
    .expect("ui");
    let filter = g
        .nodes
        .iter()
        .find(|n| {
            n.operator == "Filter" && n.children.iter().any(|&c| g.nodes[c].operator == "RDDScan")
        })
        .expect("the query's filter");
    assert_eq!(
        texts(&filter.details.conditions),
        vec!["(attribute = relationship)"]
    );
    assert_eq!(filter.details.input.len(), 2);
}

#[test]
fn an_exchange_a_subquery_reuses_keeps_the_main_querys_join_as_its_parent() {
    // TPC-H q11: its HAVING subquery joins the same tables as the query; the UI draws the
    // query's two broadcast exchanges under the subquery's joins too, and lists the subquery's
    // nodes first.
    let g = parse_plan(
        &support::bench_plan_form("dev", "tpch-default-q11", "ui.json"),
        &ParseOptions::default(),
    )
    .expect("ui");
    let parents = g.parents();
    for exchange in ["20", "25"] {
        let idx = g.node_by_id(exchange).expect("exchange");
        assert_eq!(g.nodes[idx].operator, "BroadcastExchange");
        let users: Vec<PlanSection> = g
            .nodes
            .iter()
            .filter(|n| n.children.contains(&idx))
            .map(|n| n.section)
            .collect();
        assert_eq!(users.len(), 2, "drawn under both joins: {users:?}");
        let parent = &g.nodes[parents[idx].expect("a parent")];
        assert_eq!(
            (parent.operator.as_str(), parent.section),
            ("BroadcastHashJoin", PlanSection::Final),
            "exchange {exchange}"
        );
    }
}

#[test]
fn a_ui_empty_relation_pairs_with_its_text_whatever_the_ui_draws_below_it() {
    // TPC-H q19 with no row passing its join: the UI draws the logical plan AQE found empty
    // below `EmptyRelation`; the text keeps it as `(unknown)` lines the walk does not enter.
    let g = parse_plan(
        &support::bench_plan_form("sqltwins", "dnt-tpch-019", "ui.json"),
        &ParseOptions::default(),
    )
    .expect("ui");
    let partial = &g.nodes[g.node_by_id("5").expect("node 5")];
    assert_eq!(partial.operator, "HashAggregate");
    assert_eq!(
        partial.details.input.len(),
        2,
        "{:?}",
        partial.details.input
    );
}

#[test]
fn an_exchange_reused_in_the_same_plan_keeps_its_first_user_as_its_parent() {
    // TPC-H q20: the broadcast of `part`'s keys serves a semi join and is reused by a later
    // one; the UI draws it under both and lists the later join first.
    let g = parse_plan(
        &support::bench_plan_form("dev", "tpch-default-q20", "ui.json"),
        &ParseOptions::default(),
    )
    .expect("ui");
    let exchange = g.node_by_id("23").expect("exchange");
    assert_eq!(g.nodes[exchange].operator, "BroadcastExchange");
    let users = g
        .nodes
        .iter()
        .filter(|n| n.children.contains(&exchange))
        .count();
    assert_eq!(users, 2);
    let parent = g.parents()[exchange].expect("a parent");
    // the join written first: ps_partkey in (select p_partkey …)
    assert_eq!(g.nodes[parent].id, "19");
}

#[test]
fn a_column_named_with_spaces_is_one_column_wherever_an_expression_names_it() {
    // `describe()` of `Yearly Amount Spent` after a `randomSplit` (bench/jupyter): Spark prints
    // the name unquoted in expressions — `count(Yearly Amount Spent#7010)`, a sort key
    // `Yearly Amount Spent#7010 ASC NULLS FIRST` — as it does in the operators' column lists.
    let plan = support::bench_plan("jupyter", "tsp-linear-regression-code-along-006");
    let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
    let node = |id: &str| graph.nodes.iter().find(|n| n.id == id).unwrap();
    let columns = |exprs: &[Expr]| -> Vec<String> {
        exprs
            .iter()
            .flat_map(|e| e.columns.iter().cloned())
            .collect()
    };
    let name = "Yearly Amount Spent".to_string();
    // a reordering select (3), the randomSplit's sort (4), the statistics' aggregate (10) and the
    // summary's projection (12)
    assert_eq!(
        columns(&node("3").details.projections),
        ["features".to_string(), name.clone()]
    );
    let sort_keys: Vec<Expr> = node("4")
        .details
        .sort_order
        .iter()
        .map(|k| k.expr.clone())
        .collect();
    assert_eq!(columns(&sort_keys), ["features".to_string(), name.clone()]);
    assert_eq!(
        columns(&node("10").details.projections),
        std::slice::from_ref(&name)
    );
    assert!(columns(&node("12").details.projections).contains(&name));
    // (and the words of the name are no literals)
    assert!(
        !node("12").details.projections[1]
            .literals
            .contains(&"Yearly".to_string())
    );
}

#[test]
fn a_column_named_with_spaces_is_one_column_in_the_ui_graph_too() {
    // The same plan as the UI's SQL graph prints it: no column lists of their own, but the
    // operators' bracketed lists (`Project [Yearly Amount Spent#7010, …]`) name it whole.
    let ui = support::bench_plan_form("jupyter", "tsp-linear-regression-code-along-006", "ui.json");
    let graph = parse_plan(&ui, &ParseOptions::default()).unwrap();
    let name = "Yearly Amount Spent".to_string();
    let sort = graph.nodes.iter().find(|n| n.name == "Sort").unwrap();
    let keys: Vec<String> = sort
        .details
        .sort_order
        .iter()
        .flat_map(|k| k.expr.columns.iter().cloned())
        .collect();
    assert_eq!(keys, ["features".to_string(), name.clone()]);
    let statistics = graph
        .nodes
        .iter()
        .find(|n| n.name == "HashAggregate" && n.details.projections.len() == 1)
        .unwrap();
    assert_eq!(
        statistics.details.projections[0].columns,
        std::slice::from_ref(&name)
    );
    // the columns keep the names as printed, never the reader's back-quotes
    assert!(
        graph
            .nodes
            .iter()
            .flat_map(|n| n.details.output.iter())
            .all(|a| !a.name.contains('`'))
    );
    // A bracketed list may hold a predicate (`InMemoryTableScan […], [NOT valid_trade#49]`):
    // words Spark prints in capitals are keywords, no part of a name.
    let ui = support::bench_plan_form(
        "java-more",
        "jm-qs-join-compare-filter-data-frames-and-count-005",
        "ui.json",
    );
    let graph = parse_plan(&ui, &ParseOptions::default()).unwrap();
    let filter = graph.nodes.iter().find(|n| n.id == "2").unwrap();
    assert_eq!(filter.details.conditions[0].columns, ["valid_trade"]);
}
