//! Filling [`NodeDetails`] from what a plan says about one operator.
//!
//! Two sources, one vocabulary:
//!
//! * [`from_fields`] reads the detail section of `explain("formatted")` (`Output [2]: […]`,
//!   `Condition : …`, `Left keys [1]: …`, `Arguments: …`).
//! * [`from_node_text`] reads the one-line form of `explain()`, which is also the Spark UI's
//!   node `desc` (`HashAggregate(keys=[…], functions=[…])`, `FileScan parquet [...] Batched: …`).
//!
//! Both end in the per-operator argument readers below, because the formatted `Arguments:`
//! line is, for most operators, the same text the one-line form prints after the name.

use super::expr::{
    is_ident_char, matching_close, parse_attribute_list, parse_expr, parse_expr_list,
    parse_sort_list, split_conjuncts, split_top_level, strip_brackets, strip_ids,
};
use super::graph::OperatorFamily;
use super::graph::{ARGUMENTS, Expr, JoinInfo, NodeDetails, Partitioning, ScanInfo, WindowSpec};
use super::operators::{OperatorInfo, scan_format};

/// Details from a formatted detail section: `fields` are `(key, value)` in order, keys without
/// their `[n]` count (`Output`, `Left keys`, `Arguments`). `header_extra` is the text the tree
/// line printed after the name (`Inner BuildRight` for joins).
/// `spelled` are the plan's column names that are no plain identifier ([`spelled_out_names`]).
pub(crate) fn from_fields(
    op: &OperatorInfo,
    name: &str,
    fields: &[(String, String)],
    header_extra: &str,
    spelled: &[String],
) -> NodeDetails {
    let mut d = NodeDetails::default();
    let mut join = JoinInfo::default();
    let mut is_join = op.family == OperatorFamily::Join;
    if is_join {
        read_join_header(header_extra, &mut join);
    }
    let mut scan = scan_base(op, name);
    let quoted = |value| quote_names(value, spelled);
    for (key, value) in fields {
        let value = value.trim();
        match key.as_str() {
            "Output" => {
                d.output = parse_attribute_list(value).into();
                if op.family == OperatorFamily::Project {
                    d.projections = parse_expr_list(&quoted(value)).into();
                }
            }
            "Input" => d.input = parse_attribute_list(value).into(),
            "Condition" => d.conditions = conjuncts(&quoted(value)).into(),
            "Keys" => d.grouping_keys = parse_expr_list(&quoted(value)).into(),
            "Functions" => d.aggregate_functions = parse_expr_list(&quoted(value)).into(),
            "Results" => d.projections = parse_expr_list(&quoted(value)).into(),
            "Aggregate Attributes" => {
                d.arguments
                    .insert("aggregateAttributes".into(), strip_ids(value));
            }
            "Left keys" => join.left_keys = parse_expr_list(&quoted(value)),
            "Right keys" => join.right_keys = parse_expr_list(&quoted(value)),
            "Join type" => {
                is_join = true;
                join.join_type = value.to_string();
            }
            "Join condition" => {
                if value != "None" {
                    join.condition = conjuncts(&quoted(value));
                }
            }
            "Location" => {
                if let Some(s) = scan.as_mut() {
                    s.paths = location_paths(value).into();
                }
            }
            "PushedFilters" => {
                if let Some(s) = scan.as_mut() {
                    s.pushed_filters = string_list(value).into();
                }
            }
            "PartitionFilters" => {
                if let Some(s) = scan.as_mut() {
                    s.partition_filters = string_list(value).into();
                }
            }
            "DataFilters" | "RequiredDataFilters" => {
                if let Some(s) = scan.as_mut().filter(|s| s.data_filters.is_empty()) {
                    s.data_filters = parse_expr_list(value).into();
                }
            }
            "ReadSchema" => {
                if let Some(s) = scan.as_mut() {
                    s.read_schema = read_schema(value).into();
                }
            }
            "Arguments" => read_arguments(op, &quoted(value), &mut d, &mut scan, &mut join),
            other => {
                d.arguments.insert(camel_key(other), value.to_string());
            }
        }
    }
    if is_join {
        d.join = Some(Box::new(join));
    }
    d.scan = scan.map(Box::new);
    unquote_columns(&mut d, spelled);
    finish(d)
}

/// The column names of `fields`' `Output` and `Input` lists that are no plain identifier
/// (`Yearly Amount Spent`), longest first. Spark prints them unquoted (`sum(Yearly Amount
/// Spent#7010)`), which the expression reader would take for several words.
pub(crate) fn spelled_out_names<'a>(
    fields: impl Iterator<Item = &'a (String, String)>,
) -> Vec<String> {
    let lists = fields
        .filter(|(key, _)| key == "Output" || key == "Input")
        .map(|(_, value)| value.trim());
    spelled_out_names_of(lists)
}

/// [`spelled_out_names`] for the one-line form and the UI's `desc`, which print no `Output`
/// lists: the names of the bracketed lists of every operator's text (`Project [Yearly Amount
/// Spent#7010, …]`, `HashAggregate(keys=[Country Name#5], …)`).
pub(crate) fn spelled_out_names_in_text<'a>(texts: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut lists: Vec<&str> = Vec::new();
    for text in texts {
        let mut depth = 0usize;
        let mut open = 0usize;
        for (at, c) in text.char_indices() {
            match c {
                '[' => {
                    if depth == 0 {
                        open = at;
                    }
                    depth += 1;
                }
                ']' if depth > 0 => {
                    depth -= 1;
                    // (only a list with a space can spell a name out: keeping every list of a
                    // plan of many small operators cost 4 MiB of 46)
                    if depth == 0 && text[open..=at].contains(' ') {
                        lists.push(&text[open..=at]);
                    }
                }
                _ => {}
            }
        }
    }
    spelled_out_names_of(lists.into_iter())
}

/// The names of the attribute lists `lists` that are no plain identifier, longest first.
fn spelled_out_names_of<'a>(lists: impl Iterator<Item = &'a str>) -> Vec<String> {
    let plain = |name: &str| name.bytes().all(is_ident_char);
    let mut names: Vec<String> = lists
        .filter(|list| list.contains(' '))
        .flat_map(parse_attribute_list)
        .filter(|a| a.id.is_some() && !a.name.is_empty() && !plain(&a.name))
        // (a computed column's printed expression is no name: `(a + b) AS c`, nor a predicate a
        // list holds, `[NOT valid#49]`: Spark prints its keywords in capitals)
        .filter(|a| !a.name.contains(['(', ')', '`', ',', '[', ']']))
        .filter(|a| {
            !a.name
                .split(' ')
                .any(|word| PRINTED_KEYWORDS.contains(&word))
        })
        .map(|a| a.name.to_string())
        .collect();
    names.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    names.dedup();
    names
}

/// The keywords Spark prints in an expression, in capitals as it prints them: no word of a
/// column's name.
const PRINTED_KEYWORDS: &[&str] = &[
    "AND", "AS", "ASC", "BETWEEN", "CASE", "DESC", "DISTINCT", "ELSE", "END", "FIRST", "IN",
    "INTERVAL", "IS", "LAST", "LIKE", "NOT", "NULL", "NULLS", "OR", "THEN", "WHEN",
];

/// `text` with each of `names` that carries an id back-quoted (`` `Yearly Amount Spent`#7010 ``),
/// so the expression reader takes it for one column.
fn quote_names<'a>(text: &'a str, names: &[String]) -> std::borrow::Cow<'a, str> {
    let mut out = std::borrow::Cow::Borrowed(text);
    for name in names {
        let needle = format!("{name}#");
        if !out.contains(&needle) {
            continue;
        }
        let mut quoted = String::with_capacity(out.len() + 8);
        let mut rest: &str = &out;
        while let Some(at) = rest.find(&needle) {
            let before = rest[..at].bytes().last();
            let starts_a_name =
                !before.is_some_and(|b| is_ident_char(b) || matches!(b, b'`' | b'.'));
            quoted.push_str(&rest[..at]);
            if starts_a_name {
                quoted.push('`');
                quoted.push_str(name);
                quoted.push('`');
            } else {
                quoted.push_str(name);
            }
            rest = &rest[at + name.len()..];
        }
        quoted.push_str(rest);
        out = std::borrow::Cow::Owned(quoted);
    }
    out
}

/// The operator's columns named as Spark printed them: without the back-quotes [`quote_names`]
/// put around `names` for the expression reader (a computed column's name is its printed
/// expression, `element_at(Yearly Amount Spent, …) AS Yearly Amount Spent`).
fn unquote_columns(d: &mut NodeDetails, names: &[String]) {
    for attribute in d.output.iter_mut().chain(d.input.iter_mut()) {
        if attribute.name.contains('`') {
            let mut name = attribute.name.to_string();
            for spelled in names {
                name = name.replace(&format!("`{spelled}`"), spelled);
            }
            attribute.name = name.into();
        }
    }
}

/// Details from a one-line node (`explain()` tree line or UI `desc`), name included.
/// `spelled` are the plan's column names that are no plain identifier
/// ([`spelled_out_names_in_text`]).
pub(crate) fn from_node_text(
    op: &OperatorInfo,
    name: &str,
    text: &str,
    spelled: &[String],
) -> NodeDetails {
    let mut d = NodeDetails::default();
    let args = text.strip_prefix(name).unwrap_or(text).trim();
    let quoted = quote_names(args, spelled);
    let args: &str = &quoted;
    let mut scan = scan_base(op, name);
    let mut join = JoinInfo::default();
    if let Some(inner) = keyed_args(args) {
        // `HashAggregate(keys=[…], functions=[…], output=[…])`, `TakeOrderedAndProject(limit=…)`
        for (key, value) in inner {
            match key {
                // SortAggregate prints `key=`, the others `keys=`
                "keys" | "key" => d.grouping_keys = parse_expr_list(value).into(),
                "functions" => d.aggregate_functions = parse_expr_list(value).into(),
                "output" => {
                    d.output = parse_attribute_list(value).into();
                    d.projections = parse_expr_list(value).into();
                }
                "limit" => d.limit = value.trim().parse().ok(),
                "offset" => d.offset = value.trim().parse().ok(),
                "orderBy" => d.sort_order = parse_sort_list(value).into(),
                other => {
                    d.arguments
                        .insert(other.to_string(), value.trim().to_string());
                }
            }
        }
    } else if matches!(
        op.canonical.as_str(),
        "FileSourceScan" | "RowDataSourceScan" | "BatchScan"
    ) && args.contains('[')
    {
        // `FileScan parquet spark_catalog.db.t[a#1] …`: a table name may precede the columns
        let mut cols = args;
        if let Some(open) = args
            .find('[')
            .filter(|&o| o > 0 && !args[..o].contains(' '))
        {
            if let Some(s) = scan.as_mut() {
                s.table = Some(args[..open].to_string());
            }
            cols = &args[open..];
        }
        read_scan_line(cols, &mut d, &mut scan);
    } else if op.canonical == "Filter" {
        d.conditions = conjuncts(args).into();
    } else if op.canonical == "Project" {
        d.projections = parse_expr_list(args).into();
        d.output = parse_attribute_list(args).into();
    } else if !args.is_empty() {
        read_arguments(op, args, &mut d, &mut scan, &mut join);
    }
    if op.family == OperatorFamily::Join {
        d.join = Some(Box::new(join));
    }
    d.scan = scan.map(Box::new);
    unquote_columns(&mut d, spelled);
    finish(d)
}

fn conjuncts(value: &str) -> Vec<Expr> {
    split_conjuncts(value).into_iter().map(parse_expr).collect()
}

fn scan_base(op: &OperatorInfo, name: &str) -> Option<ScanInfo> {
    // A `LocalTableScan` reads no source — its rows are in the plan — so it has no scan details
    // (they held its operator name twice over, at ~130 bytes an operator: a plan of a hundred
    // thousand of them cost 13 MB for nothing).
    if op.family != OperatorFamily::Scan && op.canonical != "InMemoryRelation"
        || op.canonical == "LocalTableScan"
    {
        return None;
    }
    let mut scan = ScanInfo::default();
    match op.canonical.as_str() {
        "FileSourceScan" | "RDDScan" | "RowDataSourceScan" => {
            // `Scan parquet spark_catalog.default.orders`: the third word is the table; Comet
            // puts its scan implementation in brackets after the first word
            // (`CometScan [native_iceberg_compat] parquet spark_catalog.default.orders`)
            let words: Vec<&str> = name
                .split_whitespace()
                .enumerate()
                .filter(|(i, w)| !(*i == 1 && w.starts_with('[') && w.ends_with(']')))
                .map(|(_, w)| w)
                .collect();
            let plain = words.join(" ");
            scan.format = scan_format(&plain).unwrap_or("unknown").into();
            let table = words.get(2).filter(|w| !w.starts_with('['));
            scan.table = table.map(|t| t.to_string());
        }
        "InMemoryTableScan" | "InMemoryRelation" => scan.format = "InMemory".into(),
        "Range" => scan.format = "Range".into(),
        other => scan.format = other.into(),
    }
    Some(scan)
}

/// `BroadcastHashJoin Inner BuildRight` (formatted tree line) → type and build side.
fn read_join_header(extra: &str, join: &mut JoinInfo) {
    for word in extra.split_whitespace() {
        if word.starts_with("Build") {
            join.build_side = Some(word.to_string());
        } else if is_join_type(word) {
            join.join_type = word.to_string();
        }
    }
}

fn is_join_type(word: &str) -> bool {
    matches!(
        word,
        "Inner"
            | "LeftOuter"
            | "RightOuter"
            | "FullOuter"
            | "LeftSemi"
            | "LeftAnti"
            | "Cross"
            | "LeftSingle"
    ) || word.starts_with("ExistenceJoin(")
}

/// `(keys=[…], functions=[…])` → pairs; `None` when the text is not in that shape.
fn keyed_args(args: &str) -> Option<Vec<(&str, &str)>> {
    let inner = args.strip_prefix('(')?.strip_suffix(')')?;
    let parts = split_top_level(inner);
    let mut out = Vec::with_capacity(parts.len());
    for part in parts {
        let (key, value) = part.split_once('=')?;
        if !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return None;
        }
        out.push((key, value));
    }
    Some(out)
}

/// `[cols] Batched: true, DataFilters: […], Format: Parquet, Location: …` (simple / UI scans).
fn read_scan_line(args: &str, d: &mut NodeDetails, scan: &mut Option<ScanInfo>) {
    let close = matching_close(args).unwrap_or(args.len());
    let (cols, rest) = args.split_at(close.min(args.len()));
    d.output = parse_attribute_list(cols).into();
    let rest = rest.trim_start_matches(',').trim();
    let mut fields: Vec<(String, String)> = Vec::new();
    for part in split_top_level(rest) {
        match part.split_once(": ") {
            Some((key, value)) if key.chars().all(|c| c.is_ascii_alphanumeric()) => {
                fields.push((key.to_string(), value.to_string()));
            }
            _ => match fields.last_mut() {
                // `struct<a:int,b:string>` and truncated lists split on their inner commas
                Some((_, value)) => {
                    value.push(',');
                    value.push_str(part);
                }
                None => {
                    d.arguments.insert(ARGUMENTS.into(), part.to_string());
                }
            },
        }
    }
    let Some(s) = scan.as_mut() else { return };
    for (key, value) in fields {
        match key.as_str() {
            "Location" => s.paths = location_paths(&value).into(),
            "PushedFilters" => s.pushed_filters = string_list(&value).into(),
            "PartitionFilters" => s.partition_filters = string_list(&value).into(),
            "DataFilters" => s.data_filters = parse_expr_list(&value).into(),
            // Photon's name for the filters it must apply
            "RequiredDataFilters" if s.data_filters.is_empty() => {
                s.data_filters = parse_expr_list(&value).into()
            }
            "ReadSchema" => s.read_schema = read_schema(&value).into(),
            "Format" => {
                if s.format == "unknown" {
                    s.format = value.to_ascii_lowercase().into();
                }
            }
            other => {
                d.arguments.insert(camel_key(other), value);
            }
        }
    }
}

/// Operator arguments shared by the formatted `Arguments:` line and the one-line form. Where the
/// two differ (Generate prints its required child output only in the one-line form), the readers
/// look at the shape of each part rather than its position.
// Long (~180 lines): one match arm per operator whose `Arguments:` it reads; the arms are the
// table of what each operator prints, kept side by side to compare.
fn read_arguments(
    op: &OperatorInfo,
    args: &str,
    d: &mut NodeDetails,
    scan: &mut Option<ScanInfo>,
    join: &mut JoinInfo,
) {
    let parts = split_top_level(args);
    match op.canonical.as_str() {
        // Photon prints these operators' expressions under `Arguments:`
        "Filter" => d.conditions = conjuncts(args).into(),
        "Project" => {
            // Photon: `[projections]`; Comet: `[output], [projections]`
            let lists: Vec<&str> = parts
                .iter()
                .copied()
                .filter(|p| p.starts_with('['))
                .collect();
            let projections = match lists.as_slice() {
                [_, .., last] => last,
                _ => args,
            };
            d.projections = parse_expr_list(projections).into();
            d.output = parse_attribute_list(lists.first().copied().unwrap_or(args)).into();
        }
        "HashAggregate" | "ObjectHashAggregate" | "SortAggregate" => {
            // `[keys], [aggregates], [aggregate attributes], [results], isFinal`; an aggregate
            // without grouping (Photon's `PhotonAgg`) prints no key list
            let lists: Vec<&str> = parts
                .iter()
                .copied()
                .filter(|p| p.starts_with('['))
                .collect();
            let keyed = lists.len() != 3;
            let at = |i: usize| lists.get(if keyed { i } else { i.wrapping_sub(1) });
            if keyed && let Some(keys) = lists.first() {
                d.grouping_keys = parse_expr_list(keys).into();
            }
            if let Some(functions) = at(1) {
                d.aggregate_functions = parse_expr_list(functions).into();
            }
            if let Some(results) = at(3) {
                d.projections = parse_expr_list(results).into();
            }
        }
        "Exchange" => d.partitioning = Some(Box::new(read_partitioning(&parts))),
        "BroadcastExchange" => {
            d.partitioning = Some(Box::new(Partitioning {
                kind: "broadcast".into(),
                exprs: parts
                    .first()
                    .map(|mode| broadcast_keys(mode))
                    .unwrap_or_default(),
                ..Partitioning::default()
            }));
        }
        "Sort" => {
            if let Some(keys) = parts.first() {
                d.sort_order = parse_sort_list(keys).into();
            }
            if let Some(global) = parts.get(1) {
                d.arguments.insert("global".into(), global.to_string());
            }
        }
        "TakeOrderedAndProject" => {
            // formatted: `limit, [order], [output]`
            d.limit = parts.first().and_then(|l| l.parse().ok());
            if let Some(order) = parts.get(1) {
                d.sort_order = parse_sort_list(order).into();
            }
            if let Some(out) = parts.get(2) {
                d.projections = parse_expr_list(out).into();
                d.output = parse_attribute_list(out).into();
            }
        }
        "CollectLimit" | "GlobalLimit" | "LocalLimit" | "CollectTail" => {
            d.limit = parts.first().and_then(|l| l.parse().ok());
            d.offset = parts.get(1).and_then(|o| o.parse().ok()).filter(|o| *o > 0);
        }
        "Window" => {
            let mut spec = WindowSpec::default();
            if let Some(f) = parts.first() {
                spec.functions = parse_expr_list(f);
            }
            if let Some(p) = parts.get(1) {
                spec.partition_by = parse_expr_list(p);
            }
            if let Some(o) = parts.get(2) {
                spec.order_by = parse_sort_list(o);
            }
            d.window = Some(Box::new(spec));
        }
        "WindowGroupLimit" => {
            let mut spec = WindowSpec::default();
            if let Some(p) = parts.first() {
                spec.partition_by = parse_expr_list(p);
            }
            if let Some(o) = parts.get(1) {
                spec.order_by = parse_sort_list(o);
            }
            if let Some(f) = parts.get(2) {
                spec.functions = vec![parse_expr(f)];
            }
            d.limit = parts.get(3).and_then(|l| l.parse().ok());
            d.window = Some(Box::new(spec));
        }
        "Generate" => {
            d.generator = parts.first().map(|g| Box::new(parse_expr(g)));
            if let Some(out) = parts.last().filter(|p| p.starts_with('[')) {
                d.output = parse_attribute_list(out).into();
            }
            if let Some(outer) = parts.iter().find(|p| **p == "true" || **p == "false") {
                d.arguments.insert("outer".into(), outer.to_string());
            }
        }
        "Expand" => {
            if let Some(projections) = parts.first() {
                for set in split_top_level(strip_brackets(projections)) {
                    d.projections.push(parse_expr(set));
                }
            }
            if let Some(out) = parts.get(1) {
                d.output = parse_attribute_list(out).into();
            }
        }
        "Sample" => {
            for (key, value) in ["lowerBound", "upperBound", "withReplacement", "seed"]
                .into_iter()
                .zip(parts.iter())
            {
                d.arguments.insert(key.into(), value.to_string());
            }
        }
        "Coalesce" => {
            d.arguments.insert("numPartitions".into(), args.to_string());
        }
        "RDDScan" | "LocalTableScan" | "InMemoryTableScan" | "InMemoryRelation" => {
            if let Some(cols) = parts.first().filter(|p| p.starts_with('[')) {
                d.output = parse_attribute_list(cols).into();
            }
            if let Some(s) = scan.as_mut() {
                s.relation = match op.canonical.as_str() {
                    "RDDScan" => parts.get(1).map(|r| (*r).into()),
                    "InMemoryRelation" => parts.get(1).map(|r| strip_ids(r).into()),
                    _ => None,
                };
            }
            if op.canonical == "InMemoryTableScan"
                && let Some(preds) = parts.get(1)
            {
                d.conditions = parse_expr_list(preds).into();
            }
        }
        "Range" => {
            d.arguments
                .insert("range".into(), strip_brackets(args).to_string());
        }
        _ if op.family == OperatorFamily::Join => read_join_args(&parts, join),
        _ if op.family == OperatorFamily::PythonEval => {
            if let Some(udfs) = parts.first() {
                // `[<lambda>(c_name#15)#354, plus_one(c_id#14)#357]`: the name is what precedes
                // the call's `(`; `<lambda>` is not an identifier, so read it from the text
                for udf in split_top_level(strip_brackets(udfs)) {
                    let name = udf.split('(').next().unwrap_or("").trim();
                    if !name.is_empty() && !d.python_udfs.iter().any(|u| u == name) {
                        d.python_udfs.push(name.to_string());
                    }
                }
            }
            if let Some(out) = parts.get(1).filter(|p| p.starts_with('[')) {
                d.output = parse_attribute_list(out).into();
            }
        }
        "WholeStageCodegen" => {}
        _ => {
            d.arguments.insert(ARGUMENTS.into(), args.to_string());
        }
    }
}

/// `[lk], [rk], Inner, BuildRight, (cond), false` in any Spark join's argument order.
fn read_join_args(parts: &[&str], join: &mut JoinInfo) {
    let mut key_lists = 0;
    for part in parts {
        if part.starts_with('[') {
            match key_lists {
                0 => join.left_keys = parse_expr_list(part),
                1 => join.right_keys = parse_expr_list(part),
                _ => {}
            }
            key_lists += 1;
        } else if part.starts_with("Build") {
            join.build_side = Some(part.to_string());
        } else if is_join_type(part) {
            join.join_type = part.to_string();
        } else if *part == "true" || *part == "false" {
            // null-aware anti join / skew-join flags
        } else {
            join.condition = conjuncts(part);
        }
    }
}

/// `hashpartitioning(a#1, 200), ENSURE_REQUIREMENTS, [plan_id=5]` and friends.
fn read_partitioning(parts: &[&str]) -> Partitioning {
    let mut p = Partitioning {
        kind: "unknown".into(),
        ..Partitioning::default()
    };
    let Some(first) = parts.first() else { return p };
    let (fname, inner) = match first.find('(') {
        Some(open) if first.ends_with(')') => (&first[..open], &first[open + 1..first.len() - 1]),
        _ => (*first, ""),
    };
    let args = split_top_level(inner);
    let num = |s: Option<&&str>| s.and_then(|n| n.trim().parse::<u64>().ok());
    // spark-rapids prints Spark's partitionings with a `gpu` prefix (`gpuhashpartitioning`)
    let fname = fname.strip_prefix("gpu").unwrap_or(fname);
    match fname {
        "hashpartitioning" | "HashPartitioning" => {
            p.kind = "hash".into();
            p.num_partitions = num(args.last());
            p.exprs = args[..args.len().saturating_sub(1)]
                .iter()
                .map(|e| parse_expr(e))
                .collect();
        }
        "rangepartitioning" | "RangePartitioning" => {
            p.kind = "range".into();
            p.num_partitions = num(args.last());
            p.exprs = args[..args.len().saturating_sub(1)]
                .iter()
                .map(|e| super::expr::parse_sort_key(e).expr)
                .collect();
        }
        "SinglePartition" | "singlepartitioning" => {
            p.kind = "single".into();
            p.num_partitions = Some(1);
        }
        "RoundRobinPartitioning" | "roundrobinpartitioning" => {
            p.kind = "roundRobin".into();
            p.num_partitions = num(args.first());
        }
        _ => {}
    }
    p.origin = parts
        .iter()
        .skip(1)
        .find(|s| s.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
        .map(|s| s.to_string());
    p
}

/// `HashedRelationBroadcastMode(List(input[0, bigint, true]),false)` → the key expressions.
fn broadcast_keys(mode: &str) -> Vec<Expr> {
    let Some(list_start) = mode.find("List(") else {
        return Vec::new();
    };
    let rest = &mode[list_start + 4..];
    let end = matching_close(rest).unwrap_or(rest.len());
    split_top_level(strip_brackets(&rest[..end]))
        .into_iter()
        .map(parse_expr)
        .collect()
}

/// `InMemoryFileIndex [file:/a, file:/b]` / `InMemoryFileIndex(1 paths)[file:/a]` → paths.
fn location_paths(value: &str) -> Vec<String> {
    let Some(open) = value.find('[') else {
        return Vec::new();
    };
    split_top_level(strip_brackets(&value[open..]))
        .into_iter()
        .filter(|p| !p.ends_with("..."))
        .map(str::to_string)
        .collect()
}

/// `[IsNotNull(a), EqualTo(a,1)]` → items as written.
fn string_list(value: &str) -> Vec<String> {
    split_top_level(strip_brackets(value))
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// `struct<a:bigint,b:decimal(15,2)>` → `a:bigint`, `b:decimal(15,2)`.
fn read_schema(value: &str) -> Vec<String> {
    let inner = value
        .trim()
        .strip_prefix("struct<")
        .map(|s| s.strip_suffix('>').unwrap_or(s))
        .unwrap_or("");
    let mut fields = Vec::new();
    let mut depth = 0i32;
    let mut from = 0;
    for (i, c) in inner.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                fields.push(inner[from..i].trim().to_string());
                from = i + 1;
            }
            _ => {}
        }
    }
    if !inner[from..].trim().is_empty() {
        fields.push(inner[from..].trim().to_string());
    }
    fields
}

/// `Aggregate Attributes` → `aggregateAttributes`.
fn camel_key(key: &str) -> String {
    let mut out = String::new();
    for (i, word) in key.split_whitespace().enumerate() {
        if i == 0 {
            out.push_str(&word.to_ascii_lowercase());
        } else {
            let mut chars = word.chars();
            if let Some(c) = chars.next() {
                out.push(c.to_ascii_uppercase());
                out.push_str(chars.as_str());
            }
        }
    }
    out
}

/// Gather every literal of the node's expressions into `literals`.
fn finish(mut d: NodeDetails) -> NodeDetails {
    d.literals = node_literals(&d).into();
    d
}

/// Every literal of the node's expressions, each once, in order of appearance.
fn node_literals(d: &NodeDetails) -> Vec<String> {
    let mut exprs: Vec<&Expr> = Vec::new();
    exprs.extend(&d.projections);
    exprs.extend(&d.grouping_keys);
    exprs.extend(&d.aggregate_functions);
    exprs.extend(&d.conditions);
    if let Some(j) = &d.join {
        exprs.extend(&j.condition);
    }
    exprs.extend(d.sort_order.iter().map(|k| &k.expr));
    if let Some(s) = &d.scan {
        exprs.extend(&s.data_filters);
    }
    if let Some(w) = &d.window {
        exprs.extend(&w.functions);
    }
    exprs.extend(d.generator.as_deref());
    let mut literals = super::expr::Unique::<&str>::new();
    for l in exprs.iter().flat_map(|e| &e.literals) {
        literals.push(l.as_str());
    }
    literals.into_vec()
}
