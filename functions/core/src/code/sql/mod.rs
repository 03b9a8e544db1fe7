//! SQL, clause by clause, with repository line ranges.
//!
//! [`analyse_sql`] takes SQL text together with its line map ([`DecodedString`]: where each line
//! of the SQL came from in the repository file) and returns one [`AnalysedSql`] per statement.
//! Statements are parsed with `sqlparser`, trying the Spark SQL, Databricks, Hive and generic
//! dialects in that order; each query is split into [`SqlClause`]s — select items, FROM tables,
//! JOINs and their predicates, WHERE and each of its `AND` conjuncts, GROUP BY, HAVING, ORDER BY,
//! window `OVER`, LIMIT, set operations, CTEs and subqueries (with their nesting depth). A
//! clause's lines come from sqlparser's spans (line/column inside the SQL text) mapped through the
//! line map. Columns, functions and literals of a clause are read off its text with the same
//! small tokenizer used for SQL expression strings — with the text of subqueries inside it
//! masked, since each subquery gets clauses of its own one level deeper (found anywhere in an
//! expression: operands, function arguments, `CASE`, `IN` lists, derived tables).
//!
//! sqlparser's spans stop short of closing parentheses (and of `NOT EXISTS (` before a
//! subquery); [`SqlText`] widens them so a clause's lines are the lines the clause is written on.
//!
//! SQL the parser rejects (templated SQL, dialect gaps) is never an error: it becomes one
//! token-level record with `parsed: false` whose single clause lists the identifiers, functions,
//! literals and `FROM`/`JOIN` tables found in the text.
//!
//! This file parses and maps lines; `clauses` walks a statement into clauses, `spans` widens
//! sqlparser's spans, `subqueries` finds the queries nested in an expression.

use crate::code::index::{CallArgs, LineRange, SqlClause, SqlClauseKind};
use crate::code::sql_expr::sql_expression_tokens;
use crate::code::strings::{DecodedString, PLACEHOLDER};
use crate::code::strings::{capped, dedup};
use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, FunctionArguments, JoinConstraint, JoinOperator, Query,
    SelectItem, SetExpr, Spanned, Statement, TableFactor, TableWithJoins,
};
use sqlparser::dialect::{
    DatabricksDialect, Dialect, GenericDialect, HiveDialect, SparkSqlDialect,
};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Span;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

mod clauses;
mod spans;
mod subqueries;

use clauses::*;
use spans::*;
use subqueries::*;

const CLAUSE_TEXT_CAP: usize = 400;
/// Upper bound on expression nodes visited looking for subqueries in one expression.
const EXPR_NODE_BUDGET: usize = 10_000;

/// One SQL statement found in a string, file or cell.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysedSql {
    /// Repository lines of the statement.
    pub lines: LineRange,
    pub parsed: bool,
    pub clauses: Vec<SqlClause>,
}

/// Parse SQL text (one or more `;`-separated statements) into clauses with repository lines.
pub fn analyse_sql(sql: &DecodedString) -> Vec<AnalysedSql> {
    let whole = sql
        .span()
        .map(|(s, e)| LineRange::new(s, e))
        .unwrap_or(LineRange::new(1, 1));
    if sql.text.trim().is_empty() {
        return Vec::new();
    }
    let parsed = parse_statements(&sql.text);
    let Some(statements) = parsed.as_ref() else {
        return vec![token_level(sql, whole)];
    };
    let mut out = Vec::new();
    for statement in statements {
        // A span walks the whole subtree: compute the statement's once.
        let span = statement.span();
        let lines = map_span(sql, span).unwrap_or(whole);
        let mut builder = ClauseBuilder {
            sql,
            fallback: lines,
            clauses: Vec::new(),
            text: SqlText::new(&sql.text),
            renames: Vec::new(),
        };
        builder.statement(statement, span);
        out.push(AnalysedSql {
            lines,
            parsed: true,
            clauses: builder.clauses,
        });
    }
    out
}

/// The statements of a SQL text, `None` when no dialect parses it.
type Parsed = Rc<Option<Vec<Statement>>>;

/// Most recently parsed SQL texts remembered per thread.
const RECENT_PARSES: usize = 64;

thread_local! {
    /// The statements of the last [`RECENT_PARSES`] SQL texts parsed on this thread, oldest
    /// first. Test suites repeat the same SQL: on delta-io/delta a third of the ~5,900 SQL
    /// strings repeat one of the previous 64, and a text no dialect accepts costs up to eight
    /// failed parses. Parsing is a pure function of the text, so this changes nothing but time.
    static RECENT: RefCell<VecDeque<(String, Parsed)>> = const { RefCell::new(VecDeque::new()) };
}

/// The statements of SQL text: as written, else with its templating replaced; `None` when no
/// dialect parses either. Remembered for the next [`RECENT_PARSES`] calls on this thread.
fn parse_statements(text: &str) -> Parsed {
    let hit = RECENT.with(|recent| {
        recent
            .borrow()
            .iter()
            .find(|(seen, _)| seen == text)
            .map(|(_, statements)| Rc::clone(statements))
    });
    if let Some(statements) = hit {
        return statements;
    }
    let statements = Rc::new(parse_any_dialect(text).or_else(|| {
        // `.format()`/`%` templates: `{name}`, `{}`, `%s` stand for values or identifiers.
        let templated = regex_lite_replace_placeholders(text);
        (templated != text)
            .then(|| parse_any_dialect(&templated))
            .flatten()
    }));
    RECENT.with(|recent| {
        let mut recent = recent.borrow_mut();
        if recent.len() == RECENT_PARSES {
            recent.pop_front();
        }
        recent.push_back((text.to_string(), Rc::clone(&statements)));
    });
    statements
}

/// The name Spark gives one SQL expression written without a name (`selectExpr("avg(count)")`,
/// `expr("count(1)")`): its function call's, as for an unaliased select item (`avg(count)`);
/// none for anything else.
pub fn implicit_expression_name(expr: &str) -> Option<String> {
    let mut parser = Parser::new(&SparkSqlDialect {}).try_with_sql(expr).ok()?;
    let parsed = parser.parse_expr().ok()?;
    // the whole text, or it names its result (`max(x) AS top`) or is no one expression
    let whole = parser.peek_token().token == sqlparser::tokenizer::Token::EOF;
    whole.then(|| implicit_name(&parsed)).flatten()
}

fn parse_any_dialect(text: &str) -> Option<Vec<Statement>> {
    let dialects: [&dyn Dialect; 4] = [
        &SparkSqlDialect {},
        &DatabricksDialect {},
        &HiveDialect {},
        &GenericDialect {},
    ];
    dialects.iter().find_map(|dialect| {
        Parser::parse_sql(*dialect, text)
            .ok()
            .filter(|statements| !statements.is_empty())
    })
}

/// Replace `{…}`, `%s`, `%(name)s` and `?` templating with the placeholder identifier.
fn regex_lite_replace_placeholders(text: &str) -> String {
    // TPC-H `dbgen` templates: directive lines (`:x`, `:o`, `:n -1`) and `:1` parameters.
    let text: String = text
        .split('\n')
        .map(|line| {
            let trimmed = line.trim_start();
            let is_directive = trimmed.starts_with(':')
                && trimmed
                    .chars()
                    .nth(1)
                    .is_some_and(|c| c.is_ascii_alphabetic());
            if is_directive { "" } else { line }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                for inner in chars.by_ref() {
                    if inner == '}' {
                        break;
                    }
                }
                out.push_str(PLACEHOLDER);
            }
            '%' if chars.peek() == Some(&'s') || chars.peek() == Some(&'d') => {
                chars.next();
                out.push_str(PLACEHOLDER);
            }
            '%' if chars.peek() == Some(&'(') => {
                for inner in chars.by_ref() {
                    if inner == ')' {
                        break;
                    }
                }
                chars.next();
                out.push_str(PLACEHOLDER);
            }
            ':' if chars.peek().is_some_and(|c| c.is_ascii_alphanumeric())
                && !out.ends_with(':') =>
            {
                while chars
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
                {
                    chars.next();
                }
                out.push_str(PLACEHOLDER);
            }
            other => out.push(other),
        }
    }
    out
}

/// Map a span inside the SQL text to repository lines.
fn map_span(sql: &DecodedString, span: Span) -> Option<LineRange> {
    if span.start.line == 0 {
        return None;
    }
    let (start, end) = sql.file_lines(span.start.line, span.end.line.max(span.start.line))?;
    Some(LineRange::new(start, end))
}

/// Names following `FROM`, `JOIN`, `INTO`, `TABLE`, `VIEW`, `UPDATE` in SQL text.
fn statement_tables(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut tables: Vec<String> = Vec::new();
    for pair in words.windows(2) {
        let keyword = pair[0].to_ascii_lowercase();
        if matches!(
            keyword.as_str(),
            "from" | "join" | "into" | "table" | "view" | "update"
        ) {
            let table =
                pair[1].trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'));
            let keyword_next = matches!(
                table.to_ascii_lowercase().as_str(),
                "if" | "select" | "with" | "as"
            );
            if !table.is_empty() && !keyword_next && !tables.iter().any(|t| t == table) {
                tables.push(table.to_string());
            }
        }
    }
    tables
}

fn token_level(sql: &DecodedString, lines: LineRange) -> AnalysedSql {
    let mut tokens = CallArgs::default();
    sql_expression_tokens(&sql.text, &mut tokens);
    let tables = statement_tables(&sql.text);
    tokens.columns.retain(|c| {
        !tables
            .iter()
            .any(|t| t == c || t.ends_with(&format!(".{c}")))
    });
    dedup(&mut tokens.columns);
    dedup(&mut tokens.functions);
    dedup(&mut tokens.literals);
    AnalysedSql {
        lines,
        parsed: false,
        clauses: vec![SqlClause {
            kind: SqlClauseKind::Other,
            lines,
            text: capped(sql.text.trim(), CLAUSE_TEXT_CAP),
            columns: tokens.columns,
            tables,
            functions: tokens.functions,
            literals: tokens.literals,
            aliases: Vec::new(),
            depth: 0,
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::strings::{Interpolation, LiteralBody, decode};

    fn at_line(sql: &str, line: u32) -> DecodedString {
        decode(LiteralBody {
            body: sql,
            start_line: line,
            escapes: false,
            interpolation: Interpolation::None,
        })
    }

    #[test]
    fn a_derived_tables_column_list_names_its_selects_items() {
        let sql = "SELECT c_count, count(*) AS custdist\nFROM (\n  SELECT c_custkey, count(o_orderkey)\n  FROM customer\n  GROUP BY c_custkey\n) AS c_orders (c_custkey, c_count)\nGROUP BY c_count";
        let out = analyse_sql(&at_line(sql, 1));
        let inner_items: Vec<&SqlClause> = out[0]
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::SelectItem && c.depth == 1)
            .collect();
        assert_eq!(inner_items.len(), 2);
        assert_eq!(
            inner_items[1].aliases,
            ["c_count"],
            "count(o_orderkey) is c_count"
        );
        assert_eq!(inner_items[1].lines, LineRange::new(3, 3));
        let outer_items = out[0]
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::SelectItem && c.depth == 0);
        assert!(
            outer_items.flat_map(|c| &c.aliases).all(|a| a != "c_count"),
            "the outer query reads c_count; it does not name it"
        );
        let cte = "WITH t (k, n) AS (SELECT a, sum(b) FROM x GROUP BY a) SELECT k, n FROM t";
        let out = analyse_sql(&at_line(cte, 1));
        let cte_items: Vec<&Vec<String>> = out[0]
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::SelectItem && c.depth == 1)
            .map(|c| &c.aliases)
            .collect();
        assert_eq!(cte_items, [&vec!["k".to_owned()], &vec!["n".to_owned()]]);
    }

    #[test]
    fn an_order_by_names_its_directions_and_null_orderings_as_the_dataframe_api_does() {
        let functions = |sql: &str| {
            let out = analyse_sql(&at_line(sql, 1));
            out[0]
                .clauses
                .iter()
                .find(|c| c.kind == SqlClauseKind::OrderBy)
                .unwrap()
                .functions
                .clone()
        };
        assert!(functions("SELECT a FROM t ORDER BY a").is_empty());
        assert_eq!(
            functions("SELECT a FROM t ORDER BY a ASC NULLS LAST"),
            ["asc_nulls_last"]
        );
        assert_eq!(
            functions("SELECT a, b FROM t ORDER BY a DESC NULLS FIRST, b DESC"),
            ["desc", "desc_nulls_first"]
        );
        // The defaults spelled out are the defaults.
        assert_eq!(
            functions("SELECT a FROM t ORDER BY a DESC NULLS LAST, b ASC NULLS FIRST"),
            ["desc"]
        );
    }

    #[test]
    fn an_on_conjunct_testing_one_side_is_a_predicate_of_its_own() {
        let sql = "SELECT * FROM s LEFT JOIN e\n  ON s.id = e.id\n  AND e.kind NOT LIKE '%x%'\n  AND e.day >= DATE '1995-09-01'\n  AND s.a + 1 > e.b";
        let out = analyse_sql(&at_line(sql, 1));
        let predicates: Vec<_> = out[0]
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::WherePredicate)
            .map(|c| (c.lines.start, c.text.as_str()))
            .collect();
        assert_eq!(
            predicates,
            [
                (3, "e.kind NOT LIKE '%x%'"),
                (4, "e.day >= DATE '1995-09-01'")
            ]
        );
    }

    #[test]
    fn a_joins_type_is_the_word_a_dataframe_join_would_use() {
        let words = |sql: &str| {
            let out = analyse_sql(&at_line(sql, 1));
            out[0]
                .clauses
                .iter()
                .filter(|c| matches!(c.kind, SqlClauseKind::Join | SqlClauseKind::JoinPredicate))
                .map(|c| c.literals.clone())
                .collect::<Vec<_>>()
        };
        let left = words("SELECT * FROM s LEFT JOIN e ON s.id = e.id");
        assert_eq!(left, [vec!["left".to_owned()], vec!["left".to_owned()]]);
        assert_eq!(
            words("SELECT * FROM s LEFT OUTER JOIN e ON s.id = e.id")[0],
            ["left"]
        );
        assert_eq!(
            words("SELECT * FROM s FULL OUTER JOIN e ON s.id = e.id")[0],
            ["full"]
        );
        assert_eq!(
            words("SELECT * FROM s LEFT ANTI JOIN e ON s.id = e.id")[0],
            ["left_anti"]
        );
        // an inner join names no type, as `join(other, key)` does not
        assert!(words("SELECT * FROM s JOIN e ON s.id = e.id")[0].is_empty());
    }

    #[test]
    fn clauses_carry_repository_lines() {
        let sql = "SELECT dept, sum(salary) AS total\nFROM emp e\nJOIN dept d ON e.dept_id = d.id\nWHERE e.age > 30 AND d.name <> 'x'\nGROUP BY dept\nHAVING sum(salary) > 10\nORDER BY total DESC\nLIMIT 5";
        let out = analyse_sql(&at_line(sql, 20));
        assert_eq!(out.len(), 1);
        let a = &out[0];
        assert!(a.parsed);
        assert_eq!(a.lines, LineRange::new(20, 27));
        let find = |k: SqlClauseKind| a.clauses.iter().find(|c| c.kind == k).unwrap();
        assert_eq!(find(SqlClauseKind::From).lines, LineRange::new(21, 21));
        assert_eq!(find(SqlClauseKind::From).tables, vec!["emp"]);
        assert_eq!(find(SqlClauseKind::Join).lines, LineRange::new(22, 22));
        assert_eq!(find(SqlClauseKind::Join).tables, vec!["dept"]);
        assert_eq!(
            find(SqlClauseKind::JoinPredicate).columns,
            vec!["dept_id", "id"]
        );
        assert_eq!(find(SqlClauseKind::Where).lines, LineRange::new(23, 23));
        let preds: Vec<_> = a
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::WherePredicate)
            .map(|c| c.text.as_str())
            .collect();
        assert_eq!(preds, vec!["e.age > 30", "d.name <> 'x'"]);
        assert_eq!(find(SqlClauseKind::GroupBy).lines, LineRange::new(24, 24));
        assert_eq!(find(SqlClauseKind::GroupBy).columns, vec!["dept"]);
        assert_eq!(find(SqlClauseKind::Having).lines, LineRange::new(25, 25));
        assert_eq!(find(SqlClauseKind::OrderBy).lines, LineRange::new(26, 26));
        assert_eq!(find(SqlClauseKind::Limit).lines, LineRange::new(27, 27));
        let select = find(SqlClauseKind::Select);
        assert_eq!(select.functions, vec!["sum"]);
        assert_eq!(select.aliases, vec!["total"]);
    }

    #[test]
    fn unaliased_calls_carry_the_names_spark_makes_up_for_them() {
        let sql = "SELECT k, COUNT(*), count(t.x), upper(y) AS u, sum(x) + 1, COUNT(DISTINCT *),\n  count(DISTINCT k)\nFROM t GROUP BY k\nHAVING sum(x) > 3 AND (max(y) < 9)";
        let out = analyse_sql(&at_line(sql, 1));
        let aliases = |kind: SqlClauseKind| -> Vec<String> {
            out[0]
                .clauses
                .iter()
                .filter(|c| c.kind == kind)
                .flat_map(|c| c.aliases.clone())
                .collect()
        };
        // an expression over a call is named after the whole expression, and `COUNT(DISTINCT *)`
        // after every column of the frame: neither guessed here
        assert_eq!(
            aliases(SqlClauseKind::SelectItem),
            ["count(1)", "count(x)", "u", "count(DISTINCT k)"]
        );
        assert_eq!(aliases(SqlClauseKind::Having), ["sum(x)", "max(y)"]);
    }

    #[test]
    fn the_select_list_holds_its_items_literals_as_a_select_call_does() {
        let sql = "SELECT salary * 100 AS salary, salary * -1 AS flipped, 'USA' AS country,\n  (SELECT max(b) + 7 FROM y) AS top\nFROM people";
        let out = analyse_sql(&at_line(sql, 1));
        let select = out[0]
            .clauses
            .iter()
            .find(|c| c.kind == SqlClauseKind::Select && c.depth == 0)
            .unwrap();
        // the subquery's own literal stays with the subquery
        assert_eq!(select.literals, vec!["100", "-1", "USA"]);
    }

    #[test]
    fn ctes_and_subqueries_are_deeper() {
        let sql = "WITH t AS (\n  SELECT a FROM x\n)\nSELECT * FROM t WHERE a IN (SELECT b FROM y)";
        let out = analyse_sql(&at_line(sql, 1));
        let a = &out[0];
        let with = a
            .clauses
            .iter()
            .find(|c| c.kind == SqlClauseKind::With)
            .unwrap();
        assert_eq!(with.aliases, vec!["t"]);
        assert_eq!(with.lines, LineRange::new(1, 3));
        let inner_from: Vec<_> = a
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::From && c.depth == 1)
            .flat_map(|c| c.tables.clone())
            .collect();
        assert_eq!(inner_from, vec!["x", "y"]);
    }

    #[test]
    fn window_functions_are_flagged() {
        let sql = "SELECT id, row_number() OVER (PARTITION BY dept ORDER BY salary) AS rn FROM emp";
        let a = &analyse_sql(&at_line(sql, 3))[0];
        let window = a
            .clauses
            .iter()
            .find(|c| c.kind == SqlClauseKind::Window)
            .unwrap();
        assert!(window.functions.contains(&"row_number".to_string()));
        assert!(window.columns.contains(&"dept".to_string()));
    }

    #[test]
    fn a_lateral_view_is_a_generator_naming_its_columns() {
        let sql = "SELECT tag, count(*) AS n\nFROM posts\nLATERAL VIEW explode(split(Tags, '\\\\|')) t AS tag\nGROUP BY tag";
        let a = &analyse_sql(&at_line(sql, 10))[0];
        assert!(a.parsed);
        let view = a
            .clauses
            .iter()
            .find(|c| c.functions.contains(&"explode".to_string()))
            .expect("the lateral view's generator is a clause");
        assert_eq!(view.kind, SqlClauseKind::SelectItem);
        assert!(view.columns.contains(&"Tags".to_string()), "{view:?}");
        assert_eq!(view.aliases, vec!["tag".to_string()]);
        assert_eq!(view.lines, LineRange::new(12, 12));
    }

    #[test]
    fn unparseable_sql_degrades_to_tokens() {
        let sql = "SELECT a, b FROM my_table WHERE ??? garbage (((";
        let a = &analyse_sql(&at_line(sql, 7))[0];
        assert!(!a.parsed);
        assert_eq!(a.clauses[0].tables, vec!["my_table"]);
        assert!(a.clauses[0].columns.contains(&"a".to_string()));
        assert_eq!(a.lines, LineRange::new(7, 7));
    }

    #[test]
    fn dbgen_templates_are_parsed_with_lines_kept() {
        let sql = ":x\n:o\nselect a\nfrom t\nwhere d > date ':1'\n:n -1";
        let a = &analyse_sql(&at_line(sql, 1))[0];
        assert!(a.parsed);
        let from = a
            .clauses
            .iter()
            .find(|c| c.kind == SqlClauseKind::From)
            .unwrap();
        assert_eq!(from.lines, LineRange::new(4, 4));
    }

    #[test]
    fn keywords_and_typed_literals_are_not_columns() {
        let sql = "SELECT a FROM t WHERE d < DATE '1995-03-15' LIMIT 10";
        let a = &analyse_sql(&at_line(sql, 1))[0];
        let clause = |k| a.clauses.iter().find(|c| c.kind == k).unwrap();
        assert_eq!(clause(SqlClauseKind::Where).columns, vec!["d"]);
        assert_eq!(clause(SqlClauseKind::Where).literals, vec!["1995-03-15"]);
        assert!(clause(SqlClauseKind::Limit).columns.is_empty());
        assert_eq!(clause(SqlClauseKind::Limit).literals, vec!["10"]);
    }

    #[test]
    fn in_and_exists_predicates_name_their_semi_or_anti_join() {
        let sql = "SELECT a FROM t\nWHERE a IN (SELECT k FROM u GROUP BY k)\n  AND NOT EXISTS (SELECT * FROM v WHERE v.b = t.b)\n  AND a NOT IN (SELECT j AS key FROM w)\n  AND a > 1";
        let a = &analyse_sql(&at_line(sql, 1))[0];
        let predicates: Vec<_> = a
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::WherePredicate && c.depth == 0)
            .map(|c| (c.lines.start, c.columns.clone(), c.literals.clone()))
            .collect();
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            predicates,
            vec![
                (2, strings(&["a", "k"]), strings(&["semi"])),
                (3, vec![], strings(&["anti"])),
                (4, strings(&["a", "j"]), strings(&["anti"])),
                (5, strings(&["a"]), strings(&["1"])),
            ]
        );
    }

    #[test]
    fn subqueries_in_function_arguments_and_case_are_found() {
        let sql = "SELECT coalesce((SELECT max(a) FROM t), 0) AS m,\n  CASE WHEN b IN (SELECT c FROM u\n    WHERE d > 1) THEN 1 END AS f\nFROM v";
        let a = &analyse_sql(&at_line(sql, 5))[0];
        let deeper: Vec<_> = a
            .clauses
            .iter()
            .filter(|c| c.depth == 1 && c.kind == SqlClauseKind::From)
            .map(|c| (c.tables.clone(), c.lines))
            .collect();
        assert_eq!(
            deeper,
            vec![
                (vec!["t".to_string()], LineRange::new(5, 5)),
                (vec!["u".to_string()], LineRange::new(6, 6)),
            ]
        );
        let predicate = a
            .clauses
            .iter()
            .find(|c| c.kind == SqlClauseKind::WherePredicate)
            .unwrap();
        assert_eq!(
            (predicate.depth, predicate.lines),
            (1, LineRange::new(7, 7))
        );
        let items: Vec<_> = a
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::SelectItem && c.depth == 0)
            .map(|c| (c.columns.clone(), c.lines))
            .collect();
        assert_eq!(
            items,
            vec![
                (vec![], LineRange::new(5, 5)),
                (vec!["b".to_string()], LineRange::new(6, 7)),
            ]
        );
    }

    #[test]
    fn format_templates_are_parsed() {
        let sql = "SELECT a FROM {table} WHERE b = %s";
        let a = &analyse_sql(&at_line(sql, 1))[0];
        assert!(a.parsed);
    }
}
