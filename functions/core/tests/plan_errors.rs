//! Bad input: truncated or malformed plans give a `PARSE_ERROR` naming line, column and what
//! was expected — and no input makes the parser panic (property tests over truncations and byte
//! mutations of real plans, bounded in cases and time).

use std::path::PathBuf;

use plan2code_core::error::{ErrorName, Named};
use plan2code_core::plan::{ParseOptions, PlanError, parse_plan};
use proptest::prelude::*;

fn fixture(rel: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/plans")
        .join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse(text: &str) -> Result<plan2code_core::plan::PlanGraph, PlanError> {
    parse_plan(text, &ParseOptions::default())
}

/// `text` cut just after the first occurrence of `marker`.
fn cut_after(text: &str, marker: &str) -> String {
    let at = text
        .find(marker)
        .unwrap_or_else(|| panic!("marker {marker:?} not found"));
    text[..at + marker.len()].to_string()
}

/// (line, column) just past the last character: where a cut input ends.
fn end_of(text: &str) -> (u32, u32) {
    let last = text.lines().last().unwrap_or("");
    (text.lines().count() as u32, last.chars().count() as u32 + 1)
}

/// `parse_error!(name, input_expr, (line, column), "expected contains")`
macro_rules! parse_error {
    ($test:ident, $input:expr, $position:expr, $expected:literal) => {
        #[test]
        fn $test() {
            let input: String = $input;
            let err = parse(&input).expect_err("input must be rejected");
            assert_eq!(err.error_name(), ErrorName::ParseError, "{err}");
            let position: (u32, u32) = $position(&input);
            assert_eq!(err.position(), Some(position), "{err}");
            let message = err.to_string();
            assert!(message.starts_with("PARSE_ERROR"), "{message}");
            assert!(message.contains($expected), "{message}");
        }
    };
}

parse_error!(
    empty_input,
    String::from("  \n"),
    |_: &str| (1, 1),
    "a Spark physical plan"
);

parse_error!(
    prose_is_not_a_plan,
    String::from("hello world, this is not a plan\n"),
    |_: &str| (1, 1),
    "an operator name"
);

// line 3 is `+- * Filter (3`: the operator starts at column 6
parse_error!(
    formatted_tree_line_cut_before_its_id_closes,
    cut_after(&fixture("scan-parquet/formatted.txt"), "+- * Filter (3"),
    |_: &str| (3, 6),
    "an operator followed by its id"
);

parse_error!(
    formatted_detail_cut_inside_a_list,
    cut_after(
        &fixture("scan-parquet/formatted.txt"),
        "Output [3]: [o_id#9, o_amo"
    ),
    |input: &str| {
        assert_eq!(end_of(input), (9, 27));
        end_of(input)
    },
    "`]` to close the value of `Output`"
);

parse_error!(
    formatted_plan_cut_between_sections,
    cut_after(
        &fixture("scan-parquet/formatted.txt"),
        "(2) ColumnarToRow [codegen id : 1]\nInput [3]: [o_id#9, o_amount#11, o_cust#13]\n"
    ),
    end_of,
    "the detail section `(4) …` of the node on line 2"
);

// line 10 is `Batched: true` in the fixture: a stray line there is a warning, not a failure
#[test]
fn formatted_detail_line_without_key_is_a_warning() {
    let text = fixture("scan-parquet/formatted.txt").replacen("Batched: true", "@@@ garbage", 1);
    let graph = parse_plan(&text, &ParseOptions::default()).expect("a stray line is not fatal");
    assert_eq!(graph.warnings.len(), 1, "{:?}", graph.warnings);
    assert!(
        graph.warnings[0].starts_with("line 10: detail line `@@@ garbage`"),
        "{:?}",
        graph.warnings
    );
}

parse_error!(
    simple_plan_cut_mid_arguments,
    cut_after(
        &fixture("aggregate-hash/simple.txt"),
        "functions=[sum(o_amount#11"
    ),
    end_of,
    "`)])` to close the operator's arguments"
);

/// An in-progress log cut inside its last line: the truncated line is skipped with a warning
/// naming it, and the executions before it still read.
#[test]
fn event_log_cut_mid_line_keeps_what_came_before() {
    let input = cut_after(
        &fixture("eventlog.jsonl"),
        "SparkListenerSQLExecutionStart\",\"executionId\":3",
    );
    let err = parse(&input).expect_err("three executions remain: one must be chosen");
    assert!(
        matches!(&err, PlanError::ExecutionRequired { available } if available == &[0, 1, 2]),
        "{err}"
    );
    let graph = parse_plan(
        &input,
        &ParseOptions {
            execution_id: Some(2),
        },
    )
    .unwrap();
    assert_eq!(graph.warnings.len(), 1, "{:?}", graph.warnings);
    assert!(
        graph.warnings[0].starts_with("line 8: not a JSON event"),
        "{:?}",
        graph.warnings
    );
}

parse_error!(
    ui_json_cut_mid_document,
    cut_after(
        &fixture("ui-sql-list.json"),
        "\"nodeName\": \"Execute InsertIntoHadoopFsRelationCommand\""
    ),
    end_of,
    "invalid JSON"
);

parse_error!(
    ui_json_without_nodes,
    String::from("{\"id\": 3, \"status\": \"COMPLETED\"}"),
    |_: &str| (1, 1),
    "not a Spark UI SQL execution"
);

parse_error!(
    ui_json_with_cyclic_edges,
    String::from(
        r#"{"id": 1, "nodes": [{"nodeId": 1, "nodeName": "Filter", "desc": "Filter (a#1 > 1)"},
                               {"nodeId": 2, "nodeName": "Project", "desc": "Project [a#1]"}],
            "edges": [{"fromId": 1, "toId": 2}, {"fromId": 2, "toId": 1}]}"#
    ),
    |_: &str| (1, 1),
    "`edges` form a cycle: 1 → 2 → 1"
);

#[test]
fn execution_choice_errors_are_invalid_input_not_parse_errors() {
    let text = fixture("eventlog.jsonl");
    let err = parse(&text).expect_err("several executions");
    assert_eq!(err.error_name(), ErrorName::InvalidInput);
    assert!(err.to_string().contains("0, 1, 2, 3, 4, 5"), "{err}");
}

/// Real plans of every form, the seeds of the property tests.
fn seeds() -> Vec<String> {
    [
        "subquery-scalar/formatted.txt",
        "subquery-scalar/simple.txt",
        "reused-exchange/formatted.txt",
        "window-running-sum/simple.txt",
        "eventlog.jsonl",
        "ui-sql-list.json",
    ]
    .iter()
    .map(|f| fixture(f))
    .collect()
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 160,
        max_shrink_time: 10_000,
        timeout: 20_000,
        ..ProptestConfig::default()
    }
}

/// Characters that matter to the parsers.
const NASTY: &[u8] = b"()[]{}:+-*#=,.\" \n\t|0123456789ABCxyz\\\x00\xff";

proptest! {
    #![proptest_config(config())]

    #[test]
    fn truncated_plans_never_panic(seed in 0usize..6, cut in 0.0f64..1.0) {
        let seeds = seeds();
        let text = &seeds[seed];
        let mut at = (text.len() as f64 * cut) as usize;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let truncated = &text[..at];
        if let Err(e) = parse(truncated)
            && let Some((line, _)) = e.position() {
                prop_assert!(line as usize <= truncated.lines().count().max(1) + 1, "{e}");
            }
    }

    #[test]
    fn mutated_plans_never_panic(
        seed in 0usize..6,
        edits in proptest::collection::vec((0.0f64..1.0, 0usize..NASTY.len()), 1..12),
    ) {
        let seeds = seeds();
        let mut bytes = seeds[seed].clone().into_bytes();
        for (pos, pick) in edits {
            let at = ((bytes.len() as f64) * pos) as usize;
            if at < bytes.len() {
                bytes[at] = NASTY[pick];
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse(&text);
        let _ = plan2code_core::plan::list_executions(&text);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "(\\PC|[()\\[\\]+:#*-]|\n| ){0,400}") {
        let _ = parse(&text);
    }
}
