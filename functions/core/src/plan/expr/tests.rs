//! Tests of the parent module.

use super::*;

#[test]
fn spark_rapids_function_names_lose_their_gpu_prefix() {
    let e = parse_expr("partial_gpucount(gpuisnotnull(a#1))");
    assert_eq!(e.functions, ["partial_count", "isnotnull"]);
    assert_eq!(parse_expr("gpu_x(a#1)").functions, ["gpu_x"]);
    assert_eq!(parse_expr("upper(a#1)").functions, ["upper"]);
}

#[test]
fn an_evaluator_call_reads_as_the_function_it_evaluates() {
    let written = "invoke(StructsToJsonEvaluator(Map(),MapType(StringType,StringType,true),Some(Etc/UTC)).evaluate(name#549)) AS str_name#574";
    let e = parse_expr(written);
    assert_eq!(e.functions, ["to_json"]);
    assert_eq!(e.columns, ["name"]);
    assert!(e.literals.is_empty(), "{:?}", e.literals);
    assert_eq!(e.alias.as_deref(), Some("str_name"));
    assert_eq!(e.text, "to_json(name) AS str_name");
    assert_eq!(e.raw, written, "the plan's own text is kept");
    // nested, beside other calls, and a call of an evaluator Spark does not print so
    let e = parse_expr(
        "concat(upper(invoke(StructsToJsonEvaluator(Map(a -> ')'),x).evaluate(s#1))), invoke(x#2.toString()))",
    );
    assert_eq!(
        e.functions,
        ["concat", "upper", "to_json", "invoke", "tostring"]
    );
    assert_eq!(
        parse_expr("invoke(OtherEvaluator(1).evaluate(a#1))").functions,
        ["invoke", "otherevaluator", "evaluate"]
    );
}

#[test]
fn conjuncts_split_through_spark_parentheses() {
    let c = "((isnotnull(c_mktsegment#181) AND (c_mktsegment#181 = BUILDING)) AND isnotnull(c_custkey#175L))";
    assert_eq!(
        split_conjuncts(c),
        vec![
            "isnotnull(c_mktsegment#181)",
            "(c_mktsegment#181 = BUILDING)",
            "isnotnull(c_custkey#175L)"
        ]
    );
    assert_eq!(
        split_conjuncts("(a#1 OR (b#2 AND c#3))"),
        vec!["(a#1 OR (b#2 AND c#3))"]
    );
    assert_eq!(
        split_conjuncts("(CASE WHEN (a#1 AND b#2) THEN 1 END = 1)"),
        vec!["(CASE WHEN (a#1 AND b#2) THEN 1 END = 1)"]
    );
}

#[test]
fn expressions_expose_columns_functions_literals_and_alias() {
    let e = parse_expr(
        "CASE WHEN (cast(c_acctbal#1286 as decimal(19,6)) > 0.00) THEN substring(c_phone#1285, 1, 2) ELSE 'none' END AS code#1289",
    );
    assert_eq!(
        e.text,
        "CASE WHEN (cast(c_acctbal as decimal(19,6)) > 0.00) THEN substring(c_phone, 1, 2) ELSE 'none' END AS code"
    );
    assert_eq!(e.columns, vec!["c_acctbal", "c_phone"]);
    assert_eq!(e.functions, vec!["cast", "substring"]);
    assert_eq!(e.literals, vec!["19", "6", "0.00", "1", "2", "none"]);
    assert_eq!(e.alias.as_deref(), Some("code"));

    let e = parse_expr("2026-11-22 03:41:34.347308 AS now#63");
    assert_eq!(e.literals, vec!["2026-11-22 03:41:34.347308"]);
    let e = parse_expr("(o_orderdate#187 < 1995-03-15)");
    assert_eq!(
        (e.columns, e.literals),
        (
            vec!["o_orderdate".to_string()],
            vec!["1995-03-15".to_string()]
        )
    );
    let e = parse_expr("(c_mktsegment#181 = BUILDING)");
    assert_eq!(e.literals, vec!["BUILDING"]);
    // `first` and `last` are aggregates when called, keywords in `NULLS FIRST`.
    let e = parse_expr("first(employee_name#2970, false)");
    assert_eq!(e.functions, vec!["first"]);
    assert_eq!(e.columns, vec!["employee_name"]);
    let e = parse_expr("last(salary#3)() AS salary#9");
    assert_eq!(e.functions, vec!["last"]);
    let e = parse_expr("(state#1 IN (NY,CA) AND count(x#2) > 1)");
    assert_eq!(e.functions, vec!["count"]);
    // a named result computed from bare words: Spark's unquoted string literals
    let e = parse_expr("USA AS country#3556");
    assert_eq!((e.columns.len(), e.literals), (0, vec!["USA".to_string()]));
    let e = parse_expr("CASE WHEN (salary#1 > 3000) THEN High ELSE Low END AS grade#5");
    assert_eq!(e.literals, vec!["3000", "High", "Low"]);
    assert_eq!(e.columns, vec!["salary"]);
    // a name with dashes is one name; a subtraction has spaces around it
    let e = parse_expr("(Depatment-ID#1241L = Depatment-ID#1242L)");
    assert_eq!(e.columns, vec!["Depatment-ID"]);
    let e = parse_expr("(a#1 - b#2)");
    assert_eq!(e.columns, vec!["a", "b"]);
    let e = parse_expr("upper(first.name#7) AS shout#9");
    assert_eq!(e.columns, vec!["first.name"]);
    // a struct's field follows the struct's id
    let e = parse_expr("name#3444.firstname AS firstname#3475");
    assert_eq!(e.columns, vec!["name"]);
    // unnamed, a bare word is no literal (a plan-internal word beside the expression)
    assert!(parse_expr("USA").literals.is_empty());
    // words joined by dashes and no id: an unquoted string, such as a date format
    let e = parse_expr(
        "add_months(cast(gettimestamp(_1#1054, yyyy-MM-dd, TimestampType, try_to_date, \
         Some(Etc/UTC), true) as date), cast(_2#1055L as int)) AS inc_date#1058",
    );
    assert!(
        e.literals.contains(&"yyyy-MM-dd".to_string()),
        "{:?}",
        e.literals
    );
    assert!(
        !e.literals.iter().any(|l| l == "MM" || l == "dd"),
        "{:?}",
        e.literals
    );
    assert_eq!(e.columns, vec!["_1", "_2"]);
    // a quote printed as it is, the whole of a literal, opens no string
    let e = parse_expr("concat(\", trim(word#5518, None), \") AS trimmed_word#5521");
    assert_eq!(e.functions, vec!["concat", "trim"]);
    assert_eq!(e.columns, vec!["word"]);
    assert_eq!(e.alias.as_deref(), Some("trimmed_word"));
}

#[test]
fn computed_attribute_names_refer_to_columns() {
    let e = parse_expr("avg(salary#221L)#1794 AS avg(salary)#1795");
    assert_eq!(e.alias.as_deref(), Some("avg(salary)"));
    assert_eq!(
        (e.columns, e.literals),
        (vec!["salary".to_string()], Vec::<String>::new())
    );
    let e = parse_expr(
        "(sum((l_extendedprice * (1 - l_discount)))#844 = Subquery subquery#840, [id=#6908])",
    );
    assert_eq!(e.columns, vec!["l_extendedprice", "l_discount", "subquery"]);
    assert_eq!(e.literals, vec!["1"]);
}

#[test]
fn attributes_keep_ids_and_the_long_mark_apart() {
    assert_eq!(
        parse_attribute_list("[c_custkey#175L, avg(salary)#1795, x]"),
        vec![
            Attribute {
                name: "c_custkey".into(),
                id: Some(175),
                long: true,
            },
            Attribute {
                name: "avg(salary)".into(),
                id: Some(1795),
                long: false,
            },
            Attribute {
                name: "x".into(),
                id: None,
                long: false,
            },
        ]
    );
    assert_eq!(
        strip_ids("avg(salary#221L)#1794 AS avg(salary)#1795"),
        "avg(salary) AS avg(salary)"
    );
    assert_eq!(
        strip_ids("Subquery subquery#1290, [id=#10326]"),
        "Subquery subquery, [id=#10326]"
    );
}

#[test]
fn long_lists_keep_their_first_elements_and_their_last() {
    let list: Vec<String> = (0..5000).map(|i| format!("c{i}#{i}")).collect();
    let attrs = parse_attribute_list(&format!("[{}]", list.join(", ")));
    assert_eq!(attrs.len(), MAX_LIST_ELEMENTS);
    assert_eq!(attrs[0].name, "c0");
    assert_eq!(
        attrs[MAX_LIST_ELEMENTS - 2].name,
        format!("c{}", MAX_LIST_ELEMENTS - 2)
    );
    assert_eq!(attrs[MAX_LIST_ELEMENTS - 1].name, "c4999");
    // short lists are untouched
    assert_eq!(parse_expr_list("[a#1, b#2, c#3]").len(), 3);

    let condition = (0..5000)
        .map(|i| format!("(c{i}#{i} = {i})"))
        .collect::<Vec<_>>()
        .join(" AND ");
    let conjuncts = split_conjuncts(&condition);
    assert!(conjuncts.len() <= MAX_LIST_ELEMENTS, "{}", conjuncts.len());
    assert_eq!(conjuncts[0], "(c0#0 = 0)");
}

#[test]
fn a_huge_expression_keeps_its_text_and_reads_a_bounded_prefix() {
    let args: Vec<String> = (0..40_000).map(|i| format!("c{i}#{i}")).collect();
    let raw = format!("concat({}) AS y#1", args.join(", "));
    let expr = parse_expr(&raw);
    assert_eq!(expr.raw, raw);
    assert!(expr.text.ends_with("AS y"));
    assert_eq!(expr.functions, vec!["concat"]);
    assert!(expr.columns.len() < 40_000 && expr.columns.len() > 30_000);
    assert_eq!(expr.columns[0], "c0");
}

#[test]
fn spark_truncation_closes_open_brackets() {
    // a number cut short: `IN (13,31,23,2...,`
    assert_eq!(
        split_top_level("[a IN (13,31,23,2..., Format: Parquet"),
        vec!["[a IN (13,31,23,2...", "Format: Parquet"]
    );
    assert_eq!(
        split_top_level(
            "[isnotnull(a#1), (cast(c_acct..., Format: Parquet, Location: X(1 paths)[file:/a]"
        ),
        vec![
            "[isnotnull(a#1), (cast(c_acct...",
            "Format: Parquet",
            "Location: X(1 paths)[file:/a]"
        ]
    );
    assert_eq!(
        split_top_level("a#1, ... 5 more fields"),
        vec!["a#1", "... 5 more fields"]
    );
}

#[test]
fn sort_keys_read_direction_and_nulls() {
    let k = parse_sort_key("revenue#208 DESC NULLS LAST");
    assert_eq!(
        (k.expr.text.as_str(), k.ascending, k.nulls_first),
        ("revenue", false, false)
    );
}

#[test]
fn a_field_of_a_typed_joins_tuple_is_a_column_and_a_structs_field_is_not() {
    let e = parse_expr("array_contains(_1#252.guitars, _2#253.id)");
    assert_eq!(e.columns, vec!["_1", "guitars", "_2", "id"]);
    let e = parse_expr("(name#3.first = James)");
    assert_eq!(e.columns, vec!["name"]);
}

#[test]
fn an_unquoted_argument_of_several_tokens_is_also_a_literal_whole() {
    let e = parse_expr(
        "date_format(cast(pyspark_date#1889 as timestamp), dd/MMM/yyyy, Some(Etc/UTC)) AS fmt_date#1917",
    );
    assert!(
        e.literals.contains(&"dd/MMM/yyyy".to_string()),
        "{:?}",
        e.literals
    );
    assert!(e.literals.contains(&"MMM".to_string()), "{:?}", e.literals);
    assert!(
        !e.literals.contains(&"Etc/UTC".to_string()),
        "{:?}",
        e.literals
    );
    let e = parse_expr("to_timestamp(ts#3, yyyy-MM-dd HH:mm:ss, TimestampType, Some(UTC), false)");
    assert!(
        e.literals.contains(&"yyyy-MM-dd HH:mm:ss".to_string()),
        "{:?}",
        e.literals
    );
    // an argument holding a column, a call or a keyword is none
    let e = parse_expr("round((price#4 * 1.1), 2)");
    assert!(
        !e.literals.iter().any(|l| l.contains('*')),
        "{:?}",
        e.literals
    );
    let e = parse_expr("cast(x#1 as decimal(10,2))");
    assert!(
        !e.literals.iter().any(|l| l.contains(' ')),
        "{:?}",
        e.literals
    );
}

#[test]
fn a_field_of_a_struct_an_expression_makes_is_a_column() {
    let e = parse_expr(
        "(isnotnull(raw#40) AND isnotnull(from_json(StructField(event_id,StringType,true), raw#40, Some(UTC), false).event_id))",
    );
    assert!(e.columns.iter().any(|c| c == "event_id"), "{:?}", e.columns);
    assert!(e.columns.iter().any(|c| c == "raw"), "{:?}", e.columns);
    // a field of a column's struct stays none (`a#1.field`)
    assert!(
        !parse_expr("isnotnull(a#1.field)")
            .columns
            .iter()
            .any(|c| c == "field")
    );
}
