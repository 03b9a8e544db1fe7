//! SQL commands: the statement a command node runs, named alike on both sides.
//!
//! `spark.sql("show tables in default").show()` plans `CommandResult` over `ShowTables`;
//! `SHOW DATABASES` plans `Execute ShowNamespacesCommand`, `DESCRIBE orders`
//! `DescribeTableCommand`. Such a node has no columns, functions or paths of the user's — the
//! class name is all it says — and a statement's text says the same thing in SQL's words. Both
//! reduce to one key, a verb and the kind of object it acts on (`show tables`,
//! `show namespaces`, `describe table`, `create view`, `insert`): [`command_of_operator`] reads
//! it off the class name's words, [`command_of_statement`] off the statement's leading keywords.
//! A command listing part of what it shows says which part on both sides too: `SHOW USER
//! FUNCTIONS` and `SHOW FUNCTIONS LIKE 's*'` are `ShowFunctionsCommand`s whose arguments say
//! so ([`narrowed_by_arguments`]), and their key says it as well (`show functions user`,
//! `show functions like s*`).

use crate::code::index::{SqlClause, SqlClauseKind};

/// The statement kinds a command runs: the first word of the statement, or of the class name.
const VERBS: &[&str] = &[
    "add", "alter", "analyze", "cache", "clear", "create", "describe", "drop", "explain", "insert",
    "list", "refresh", "repair", "reset", "set", "show", "truncate", "uncache",
];

/// The kinds of object a command acts on, as the class name spells them.
const OBJECTS: &[&str] = &[
    "columns",
    "function",
    "functions",
    "namespace",
    "namespaces",
    "partitions",
    "table",
    "tables",
    "view",
    "views",
];

/// Words a statement may put between its verb and its object (`CREATE OR REPLACE TEMPORARY
/// VIEW`, `SHOW CREATE TABLE`, `CACHE LAZY TABLE`, `DESCRIBE TABLE EXTENDED`).
const MODIFIERS: &[&str] = &[
    "or",
    "replace",
    "temporary",
    "temp",
    "global",
    "external",
    "if",
    "not",
    "exists",
    "extended",
    "formatted",
    "lazy",
    "user",
    "system",
    "all",
    "create",
    "into",
    "overwrite",
];

/// SQL's names for an object beside the one Spark's class names use.
fn object_named(word: &str) -> &str {
    match word {
        "databases" | "schemas" => "namespaces",
        "database" | "schema" => "namespace",
        other => other,
    }
}

/// The key of a verb and its object: `insert` whatever it inserts into; `drop view` is Spark's
/// `DropTableCommand`; `describe t` describes a table.
fn key(verb: &str, object: Option<&str>) -> String {
    let object = match (verb, object) {
        ("insert", _) => None,
        ("drop", Some("view")) => Some("table"),
        ("describe", None) => Some("table"),
        (_, object) => object,
    };
    match object {
        Some(object) => format!("{verb} {object}"),
        None => verb.to_owned(),
    }
}

/// The command a plan node runs, from its class name (`ShowTables`, `Execute
/// ShowNamespacesCommand`, `CreateDataSourceTableAsSelectCommand`); none for other operators and
/// for the nodes around a command (`CommandResult`, `ResolvedNamespace`).
pub fn command_of_operator(name: &str) -> Option<String> {
    let mut words = name.split_whitespace();
    let first = words.next()?;
    let class = if first == "Execute" {
        words.next()?
    } else {
        first
    };
    let class = ["CommandExec", "Command", "Exec"]
        .iter()
        .find_map(|suffix| class.strip_suffix(suffix))
        .unwrap_or(class);
    let class = class.strip_prefix("Atomic").unwrap_or(class);
    let words = camel_case_words(class);
    let verb = words.first().filter(|w| VERBS.contains(&w.as_str()))?;
    let object = words[1..]
        .iter()
        .map(|w| object_named(w))
        .find(|w| OBJECTS.contains(w));
    Some(key(verb, object))
}

/// The command a SQL statement runs, from its leading keywords (`SHOW TABLES IN default`,
/// `CREATE OR REPLACE TEMP VIEW v AS …`, `USE sales`); none for a query.
pub fn command_of_statement(sql: &str) -> Option<String> {
    let text: String = sql
        .lines()
        .filter(|line| !line.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut words = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase);
    let verb = match words.next()?.as_str() {
        "desc" => "describe".to_owned(),
        // `USE db` is Spark's `SetCatalogAndNamespace`.
        "use" => return Some(key("set", Some("namespace"))),
        "msck" => "repair".to_owned(),
        other => other.to_owned(),
    };
    if !VERBS.contains(&verb.as_str()) {
        return None;
    }
    let mut object = None;
    for word in words {
        let word = object_named(&word);
        if OBJECTS.contains(&word) {
            object = Some(word.to_owned());
            break;
        }
        if !MODIFIERS.contains(&word) && word != "repair" {
            break;
        }
    }
    let key = key(&verb, object.as_deref());
    if key == SHOW_FUNCTIONS {
        return Some(narrowed_statement(&text));
    }
    Some(key)
}

/// The key of a `SHOW FUNCTIONS`, which [`narrowed`] narrows.
const SHOW_FUNCTIONS: &str = "show functions";

/// A `show functions` key narrowed to the functions listed: only the user's or the system's
/// (`scope`), only those matching `pattern`.
fn narrowed(scope: Option<&str>, pattern: Option<&str>) -> String {
    let mut key = SHOW_FUNCTIONS.to_owned();
    if let Some(scope) = scope {
        key = format!("{key} {scope}");
    }
    if let Some(pattern) = pattern {
        key = format!("{key} like {}", pattern.to_lowercase());
    }
    key
}

/// A command's key narrowed by the arguments its node prints: `ShowFunctionsCommand`'s
/// `database, [pattern,] user functions, system functions, [output]`
/// (`default, s*, true, true, [function#3]`). Other commands' keys are as they are.
pub fn narrowed_by_arguments(key: String, arguments: &str) -> String {
    if key != SHOW_FUNCTIONS {
        return key;
    }
    let parts: Vec<&str> = arguments
        .split(',')
        .map(str::trim)
        .filter(|p| !p.starts_with('['))
        .collect();
    let flags: Vec<bool> = parts.iter().filter_map(|p| p.parse().ok()).collect();
    let (user, system) = match flags[..] {
        [user, system] => (user, system),
        _ => return key,
    };
    let scope = match (user, system) {
        (true, false) => Some("user"),
        (false, true) => Some("system"),
        _ => None,
    };
    // (the first part names the database; a pattern, when given, comes next)
    let pattern = parts
        .iter()
        .skip(1)
        .find(|p| p.parse::<bool>().is_err())
        .copied();
    narrowed(scope, pattern)
}

/// A `SHOW FUNCTIONS` statement's key narrowed as it narrows the listing:
/// `SHOW [USER | SYSTEM | ALL] FUNCTIONS [[LIKE] pattern]`.
fn narrowed_statement(text: &str) -> String {
    let lower = text.to_lowercase();
    let Some((head, rest)) = lower.split_once("functions") else {
        return SHOW_FUNCTIONS.to_owned();
    };
    let scope = ["user", "system"]
        .into_iter()
        .find(|s| head.split_whitespace().any(|w| w == *s));
    let rest = rest.trim().trim_end_matches(';').trim();
    let rest = rest.strip_prefix("like").map_or(rest, str::trim);
    let pattern = rest
        .trim_matches(|c| c == '"' || c == '\'' || c == '`')
        .split_whitespace()
        .next()
        .filter(|p| !p.is_empty());
    narrowed(scope, pattern)
}

/// The command an SQL clause of the index runs: a `CREATE VIEW`'s or an `INSERT`'s (whose clause
/// text is the name they write), or a top-level statement's the index keeps whole (DDL and
/// commands, and SQL no dialect parsed).
pub fn command_of_clause(clause: &SqlClause) -> Option<String> {
    if clause.depth > 0 {
        return None;
    }
    match clause.kind {
        SqlClauseKind::CreateView => Some(key("create", Some("view"))),
        SqlClauseKind::Insert => Some(key("insert", None)),
        SqlClauseKind::Other => command_of_statement(&clause.text),
        _ => None,
    }
}

/// `ShowNamespaces` → `show`, `namespaces`.
fn camel_case_words(class: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for c in class.chars() {
        if c.is_ascii_uppercase() || words.is_empty() {
            words.push(String::new());
        }
        if let Some(word) = words.last_mut() {
            word.push(c.to_ascii_lowercase());
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_class_and_its_statement_share_one_key() {
        let pairs = [
            ("ShowTables", "show tables in default"),
            ("Execute ShowNamespacesCommand", "SHOW DATABASES"),
            ("ShowNamespacesCommand", "show schemas like 'x*'"),
            ("Execute DescribeTableCommand", "DESCRIBE orders"),
            ("DescribeTableCommand", "DESC TABLE EXTENDED orders"),
            ("Execute ShowPartitionsCommand", "SHOW PARTITIONS sales"),
            ("Execute ShowFunctionsCommand", "SHOW FUNCTIONS"),
            ("Execute ExplainCommand", "EXPLAIN SELECT 1"),
            (
                "Execute CreateViewCommand",
                "CREATE OR REPLACE TEMP VIEW v AS SELECT 1",
            ),
            (
                "Execute CreateDataSourceTableAsSelectCommand",
                "CREATE TABLE t USING parquet AS SELECT 1",
            ),
            (
                "AtomicCreateTableAsSelect",
                "create table if not exists t as select 1",
            ),
            (
                "Execute InsertIntoHadoopFsRelationCommand",
                "INSERT OVERWRITE TABLE t SELECT 1",
            ),
            ("Execute DropTableCommand", "DROP VIEW IF EXISTS v"),
            ("Execute SetCommand", "SET spark.sql.shuffle.partitions=4"),
            ("SetCatalogAndNamespace", "USE sales"),
            ("Execute ShowCreateTableCommand", "SHOW CREATE TABLE t"),
            ("Execute RepairTableCommand", "MSCK REPAIR TABLE t"),
        ];
        for (class, sql) in pairs {
            let node = command_of_operator(class);
            assert!(node.is_some(), "{class}");
            assert_eq!(node, command_of_statement(sql), "{class} / {sql}");
        }
    }

    #[test]
    fn a_listing_of_some_functions_says_which_on_both_sides() {
        let node = |arguments: &str| {
            let key = command_of_operator("ShowFunctionsCommand").unwrap();
            narrowed_by_arguments(key, arguments)
        };
        let pairs = [
            ("default, true, true, [function#1]", "SHOW FUNCTIONS"),
            ("default, true, true, [function#1]", "show all functions;"),
            (
                "default, false, true, [function#1]",
                "SHOW SYSTEM FUNCTIONS",
            ),
            ("default, true, false, [function#1]", "SHOW USER FUNCTIONS"),
            (
                "default, s*, true, true, [function#1]",
                "SHOW FUNCTIONS \"s*\";",
            ),
            (
                "default, collect*, true, true, [function#1]",
                "SHOW FUNCTIONS LIKE 'collect*'",
            ),
        ];
        for (arguments, sql) in pairs {
            assert_eq!(Some(node(arguments)), command_of_statement(sql), "{sql}");
        }
        assert_ne!(
            Some(node("default, true, true, [function#1]")),
            command_of_statement("SHOW USER FUNCTIONS")
        );
        assert_ne!(
            Some(node("default, s*, true, true, [function#1]")),
            command_of_statement("SHOW FUNCTIONS")
        );
        // other commands keep their key whatever they print
        assert_eq!(
            narrowed_by_arguments("show tables".into(), "default, true, false"),
            "show tables"
        );
    }

    #[test]
    fn different_commands_differ() {
        assert_ne!(
            command_of_operator("ShowTables"),
            command_of_statement("SHOW DATABASES")
        );
        assert_ne!(
            command_of_operator("Execute DescribeTableCommand"),
            command_of_statement("DESCRIBE FUNCTION upper")
        );
        assert_ne!(
            command_of_operator("Execute ShowFunctionsCommand"),
            command_of_statement("SHOW TABLES")
        );
    }

    #[test]
    fn queries_and_the_nodes_around_a_command_run_none() {
        for sql in [
            "SELECT * FROM t",
            "WITH x AS (SELECT 1) SELECT * FROM x",
            "-- SHOW TABLES\nSELECT 1",
        ] {
            assert_eq!(command_of_statement(sql), None, "{sql}");
        }
        for name in [
            "CommandResult",
            "ResolvedNamespace",
            "Project",
            "Scan parquet",
            "Execute",
        ] {
            assert_eq!(command_of_operator(name), None, "{name}");
        }
    }
}
