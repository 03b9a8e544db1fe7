//! SQL expressions inside DataFrame calls (`filter("salary > 1000 and dept = 'x'")`,
//! `expr(…)`, `selectExpr(…)`): their columns, functions and literals, read with a small
//! tokenizer. Whole statements (`spark.sql(…)`) are parsed by [`crate::code::sql`], which uses this
//! for the expressions it keeps as text.

use crate::code::index::CallArgs;

/// The function recorded beside `count` when it counts rows, not a column's values: `count(*)`,
/// `count(1)`, `count(lit(1))` and `groupBy(…).count()` all plan as `count(1)`, while
/// `count("country")` plans as `count(country)`. (Normalised as a function name is.)
pub const COUNT_OF_ROWS: &str = "countrows";

/// Whether the text right after `count(` is a row count's argument (`*` or `1`) and the call
/// ends there.
fn counts_rows(after_paren: &[char]) -> bool {
    let rest: String = after_paren
        .iter()
        .take(8)
        .filter(|c| !c.is_whitespace())
        .collect();
    rest.starts_with("*)") || rest.starts_with("1)")
}

/// Split a SQL expression string (`"salary > 1000 and dept = 'x'"`) into columns, functions and
/// literals with a small tokenizer (full SQL parsing is for statements, see [`crate::code::sql`]).
///
/// Columns are identifiers only: keywords, the type or alias after `AS`, typed-literal types
/// (`DATE '…'`) and date-time units (`INTERVAL '3' MONTH`, `EXTRACT(YEAR FROM d)`) are not.
pub fn sql_expression_tokens(expr: &str, out: &mut CallArgs) {
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    // The next word is an alias or a type (`x AS total`, `CAST(x AS INT)`).
    let mut after_as = false;
    // Brackets open around the current word: an `AS` outside any names a result.
    let mut depth = 0usize;
    // Date-time units may follow (`INTERVAL '1' DAY TO SECOND`, `EXTRACT(YEAR FROM d)`).
    let mut units_may_follow = false;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            let lower = word.to_ascii_lowercase();
            if std::mem::take(&mut after_as) {
                if depth == 0 {
                    out.aliases.push(word);
                }
                continue;
            }
            if units_may_follow && (DATE_TIME_UNITS.contains(&lower.as_str()) || lower == "to") {
                continue;
            }
            units_may_follow = lower == "interval";
            if lower == "as" {
                after_as = true;
                continue;
            }
            if chars.get(j) == Some(&'\'') {
                // A typed literal's type (`DATE '2020-01-01'`, `INTERVAL '1' DAY`).
                continue;
            }
            if lower == "is" {
                // `x IS [NOT] NULL` is Spark's `isnull(x)` / `isnotnull(x)`.
                let (next, after_next) = next_word(&chars, j);
                let (then, after_then) = next_word(&chars, after_next);
                match (next.as_str(), then.as_str()) {
                    ("null", _) => {
                        out.functions.push("isnull".to_owned());
                        i = after_next;
                    }
                    ("not", "null") => {
                        out.functions.push("isnotnull".to_owned());
                        i = after_then;
                    }
                    _ => {}
                }
                continue;
            }
            if chars.get(j) == Some(&'(') {
                units_may_follow = lower == "extract";
                if lower == "count" && counts_rows(&chars[j + 1..]) {
                    out.functions.push(COUNT_OF_ROWS.to_owned());
                }
                out.functions.push(lower);
            } else if matches!(lower.as_str(), "true" | "false" | "null") {
                out.literals.push(lower);
            } else if !SQL_EXPR_KEYWORDS.contains(&lower.as_str()) {
                let column = word.rsplit('.').next().unwrap_or(&word).to_string();
                out.columns.push(column);
            }
        } else if c == '\'' || c == '"' {
            after_as = false;
            let quote = c;
            i += 1;
            let start = i;
            while i < chars.len() && chars[i] != quote {
                i += 1;
            }
            out.literals
                .push(chars[start..i.min(chars.len())].iter().collect());
            i += 1;
        } else if c == '`' {
            i += 1;
            let start = i;
            while i < chars.len() && chars[i] != '`' {
                i += 1;
            }
            let name: String = chars[start..i.min(chars.len())].iter().collect();
            if !std::mem::take(&mut after_as) {
                out.columns.push(name);
            } else if depth == 0 {
                out.aliases.push(name);
            }
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            // `x * -1`: the plan prints the literal `-1`
            out.literals.push(if is_negated(&chars, start) {
                format!("-{digits}")
            } else {
                digits
            });
        } else {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
            i += 1;
        }
    }
    // the plan prints what Spark folded `.06 - 0.01` and `date '…' + interval …` into
    out.literals
        .extend(crate::code::sql_constants::folded_constants(expr));
}

/// Whether the number starting at `start` follows a unary minus: a `-` after an operator, an
/// opening parenthesis, a comma or nothing (not the `-` of `a - 1`).
fn is_negated(chars: &[char], start: usize) -> bool {
    let mut before = chars[..start]
        .iter()
        .rev()
        .skip_while(|c| c.is_whitespace());
    if before.next() != Some(&'-') {
        return false;
    }
    match before.find(|c| !c.is_whitespace()) {
        None => true,
        Some(c) => "*/+-%(,=<>".contains(*c),
    }
}

/// The lower-case word starting at or after `from` (skipping blanks) and the index after it.
fn next_word(chars: &[char], from: usize) -> (String, usize) {
    let mut start = from;
    while start < chars.len() && chars[start].is_whitespace() {
        start += 1;
    }
    let mut end = start;
    while end < chars.len() && chars[end].is_alphanumeric() {
        end += 1;
    }
    let word: String = chars[start..end].iter().collect();
    (word.to_ascii_lowercase(), end)
}

const SQL_EXPR_KEYWORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "in",
    "is",
    "like",
    "rlike",
    "between",
    "case",
    "when",
    "then",
    "else",
    "end",
    "as",
    "asc",
    "desc",
    "distinct",
    "over",
    "partition",
    "by",
    "order",
    "rows",
    "range",
    "unbounded",
    "preceding",
    "following",
    "current",
    "row",
    "interval",
    "exists",
    "cast",
    "nulls",
    "first",
    "last",
    "limit",
    "offset",
    "select",
    "from",
    "where",
    "group",
    "having",
    "join",
    "on",
    "inner",
    "left",
    "right",
    "outer",
    "full",
    "cross",
    "semi",
    "anti",
    "union",
    "all",
    "with",
    "using",
    "lateral",
    "view",
    "insert",
    "into",
    "overwrite",
    "values",
    "table",
    "create",
    "replace",
    "temporary",
    "temp",
    "if",
    "global",
    "except",
    "intersect",
    "natural",
    "for",
    "escape",
    "similar",
    "within",
    "drop",
    "alter",
    "add",
    "truncate",
    "delete",
    "update",
    "merge",
    "matched",
    "cache",
    "uncache",
    "lazy",
    "refresh",
    "show",
    "describe",
    "explain",
    "analyze",
    "compute",
    "statistics",
    "use",
    "set",
    "database",
    "tables",
    "partitioned",
    "stored",
    "options",
    "tblproperties",
    "external",
    "purge",
    "cascade",
    "int",
    "integer",
    "bigint",
    "smallint",
    "tinyint",
    "string",
    "varchar",
    "double",
    "float",
    "decimal",
    "boolean",
];

/// Units of `INTERVAL '…' <unit>` and `EXTRACT(<unit> FROM …)`.
const DATE_TIME_UNITS: &[&str] = &[
    "year",
    "years",
    "quarter",
    "quarters",
    "month",
    "months",
    "week",
    "weeks",
    "day",
    "days",
    "dayofweek",
    "doy",
    "dow",
    "hour",
    "hours",
    "minute",
    "minutes",
    "second",
    "seconds",
    "millisecond",
    "milliseconds",
    "microsecond",
    "microseconds",
];
