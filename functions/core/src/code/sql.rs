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
//! small tokenizer used for SQL expression strings.
//!
//! SQL the parser rejects (templated SQL, dialect gaps) is never an error: it becomes one
//! token-level record with `parsed: false` whose single clause lists the identifiers, functions,
//! literals and `FROM`/`JOIN` tables found in the text.

use crate::code::index::{CallArgs, LineRange, SqlClause, SqlClauseKind};
use crate::code::lang::extract::{capped, sql_expression_tokens};
use crate::code::strings::{DecodedString, PLACEHOLDER};
use sqlparser::ast::{
    Expr, JoinConstraint, JoinOperator, Query, SelectItem, SetExpr, Spanned, Statement,
    TableFactor, TableWithJoins,
};
use sqlparser::dialect::{
    DatabricksDialect, Dialect, GenericDialect, HiveDialect, SparkSqlDialect,
};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::Span;

const CLAUSE_TEXT_CAP: usize = 400;

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
    let statements = parse_any_dialect(&sql.text).or_else(|| {
        // `.format()`/`%` templates: `{name}`, `{}`, `%s` stand for values or identifiers.
        let templated = regex_lite_replace_placeholders(&sql.text);
        (templated != sql.text)
            .then(|| parse_any_dialect(&templated))
            .flatten()
    });
    let Some(statements) = statements else {
        return vec![token_level(sql, whole)];
    };
    let mut out = Vec::new();
    for statement in &statements {
        let lines = map_span(sql, statement.span()).unwrap_or(whole);
        let mut builder = ClauseBuilder {
            sql,
            fallback: lines,
            clauses: Vec::new(),
        };
        builder.statement(statement);
        out.push(AnalysedSql {
            lines,
            parsed: true,
            clauses: builder.clauses,
        });
    }
    out
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

fn token_level(sql: &DecodedString, lines: LineRange) -> AnalysedSql {
    let mut tokens = CallArgs::default();
    sql_expression_tokens(&sql.text, &mut tokens);
    let words: Vec<&str> = sql.text.split_whitespace().collect();
    let mut tables = Vec::new();
    for pair in words.windows(2) {
        let keyword = pair[0].to_ascii_lowercase();
        if matches!(
            keyword.as_str(),
            "from" | "join" | "into" | "table" | "update"
        ) {
            let table =
                pair[1].trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'));
            if !table.is_empty() && !tables.iter().any(|t| t == table) {
                tables.push(table.to_string());
            }
        }
    }
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

struct ClauseBuilder<'a> {
    sql: &'a DecodedString,
    fallback: LineRange,
    clauses: Vec<SqlClause>,
}

impl ClauseBuilder<'_> {
    fn lines(&self, span: Span, parent: LineRange) -> LineRange {
        map_span(self.sql, span).unwrap_or(parent)
    }

    fn push(&mut self, kind: SqlClauseKind, lines: LineRange, text: String, depth: u32) -> usize {
        let mut tokens = CallArgs::default();
        sql_expression_tokens(&text, &mut tokens);
        dedup(&mut tokens.columns);
        dedup(&mut tokens.functions);
        dedup(&mut tokens.literals);
        self.clauses.push(SqlClause {
            kind,
            lines,
            text: capped(&text, CLAUSE_TEXT_CAP),
            columns: tokens.columns,
            tables: Vec::new(),
            functions: tokens.functions,
            literals: tokens.literals,
            aliases: Vec::new(),
            depth,
        });
        self.clauses.len() - 1
    }

    fn statement(&mut self, statement: &Statement) {
        let lines = self.lines(statement.span(), self.fallback);
        match statement {
            Statement::Query(query) => self.query(query, 0, lines),
            Statement::Insert(insert) => {
                let i = self.push(SqlClauseKind::Insert, lines, insert.table.to_string(), 0);
                self.clauses[i].columns.clear();
                self.clauses[i].tables.push(insert.table.to_string());
                if let Some(source) = &insert.source {
                    self.query(source, 0, lines);
                }
            }
            Statement::CreateView(view) => {
                let i = self.push(SqlClauseKind::CreateView, lines, view.name.to_string(), 0);
                self.clauses[i].columns.clear();
                self.clauses[i].tables.push(view.name.to_string());
                self.query(&view.query, 0, lines);
            }
            Statement::CreateTable(create) => {
                let name = create.name.to_string();
                let i = self.push(
                    SqlClauseKind::Other,
                    lines,
                    format!("CREATE TABLE {name}"),
                    0,
                );
                self.clauses[i].columns.clear();
                self.clauses[i].tables.push(name);
                if let Some(query) = &create.query {
                    self.query(query, 0, lines);
                }
            }
            other => {
                self.push(SqlClauseKind::Other, lines, other.to_string(), 0);
            }
        }
    }

    fn query(&mut self, query: &Query, depth: u32, parent: LineRange) {
        let lines = self.lines(query.span(), parent);
        if let Some(with) = &query.with {
            for cte in &with.cte_tables {
                let cte_lines = self.lines(cte.span(), lines);
                let i = self.push(
                    SqlClauseKind::With,
                    cte_lines,
                    format!("{} AS (…)", cte.alias.name),
                    depth,
                );
                self.clauses[i].columns.clear();
                self.clauses[i].aliases.push(cte.alias.name.value.clone());
                self.query(&cte.query, depth + 1, cte_lines);
            }
        }
        self.set_expr(&query.body, depth, lines);
        if let Some(order_by) = &query.order_by {
            let lines_ob = self.lines(order_by.span(), lines);
            self.push(
                SqlClauseKind::OrderBy,
                lines_ob,
                order_by.to_string(),
                depth,
            );
        }
        if let Some(limit) = &query.limit_clause {
            let limit_lines = self.lines(limit.span(), lines);
            self.push(SqlClauseKind::Limit, limit_lines, limit.to_string(), depth);
        }
    }

    fn set_expr(&mut self, body: &SetExpr, depth: u32, parent: LineRange) {
        // Set operations nest to the left; walk them with a stack, not recursion.
        let mut stack = vec![body];
        while let Some(body) = stack.pop() {
            match body {
                SetExpr::Select(select) => self.select(select, depth, parent),
                SetExpr::Query(query) => self.query(query, depth + 1, parent),
                SetExpr::SetOperation {
                    op, left, right, ..
                } => {
                    let lines = self.lines(body.span(), parent);
                    let i = self.push(SqlClauseKind::Union, lines, op.to_string(), depth);
                    self.clauses[i].columns.clear();
                    stack.push(right);
                    stack.push(left);
                }
                other => {
                    let lines = self.lines(other.span(), parent);
                    self.push(SqlClauseKind::Other, lines, other.to_string(), depth);
                }
            }
        }
    }

    fn select(&mut self, select: &sqlparser::ast::Select, depth: u32, parent: LineRange) {
        let lines = self.lines(select.span(), parent);
        let head = self.push(SqlClauseKind::Select, lines, String::new(), depth);
        let mut subqueries: Vec<(&Query, LineRange)> = Vec::new();
        for item in &select.projection {
            let item_lines = self.lines(item.span(), lines);
            let (text, alias, expr) = match item {
                SelectItem::ExprWithAlias { expr, alias } => {
                    (item.to_string(), Some(alias.value.clone()), Some(expr))
                }
                SelectItem::UnnamedExpr(expr) => (item.to_string(), None, Some(expr)),
                other => (other.to_string(), None, None),
            };
            let is_window = text.to_ascii_uppercase().contains(" OVER ")
                || text.to_ascii_uppercase().contains(" OVER(");
            let i = self.push(SqlClauseKind::SelectItem, item_lines, text.clone(), depth);
            if let Some(alias) = alias {
                self.clauses[i].columns.retain(|c| *c != alias);
                self.clauses[i].aliases.push(alias.clone());
                self.clauses[head].aliases.push(alias);
            }
            if is_window {
                let w = self.push(SqlClauseKind::Window, item_lines, text, depth);
                self.clauses[w].aliases = self.clauses[i].aliases.clone();
            }
            if let Some(expr) = expr {
                collect_subqueries(expr, item_lines, self, &mut subqueries);
            }
        }
        let projection_columns: Vec<String> = self
            .clauses
            .iter()
            .skip(head + 1)
            .filter(|c| c.kind == SqlClauseKind::SelectItem)
            .flat_map(|c| c.columns.clone())
            .collect();
        let projection_functions: Vec<String> = self
            .clauses
            .iter()
            .skip(head + 1)
            .filter(|c| c.kind == SqlClauseKind::SelectItem)
            .flat_map(|c| c.functions.clone())
            .collect();
        {
            let clause = &mut self.clauses[head];
            clause.text = capped(
                &select
                    .projection
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                CLAUSE_TEXT_CAP,
            );
            clause.columns = projection_columns;
            clause.functions = projection_functions;
            dedup(&mut clause.columns);
            dedup(&mut clause.functions);
        }
        for table in &select.from {
            self.table_with_joins(table, depth, lines, &mut subqueries);
        }
        if let Some(selection) = &select.selection {
            let where_lines = self.lines(selection.span(), lines);
            self.push(
                SqlClauseKind::Where,
                where_lines,
                selection.to_string(),
                depth,
            );
            for conjunct in conjuncts(selection) {
                let c_lines = self.lines(conjunct.span(), where_lines);
                self.push(
                    SqlClauseKind::WherePredicate,
                    c_lines,
                    conjunct.to_string(),
                    depth,
                );
            }
            collect_subqueries(selection, where_lines, self, &mut subqueries);
        }
        if let sqlparser::ast::GroupByExpr::Expressions(exprs, _) = &select.group_by
            && !exprs.is_empty()
        {
            let span = Span::union_iter(exprs.iter().map(|e| e.span()));
            let g_lines = self.lines(span, lines);
            let text = exprs
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            self.push(SqlClauseKind::GroupBy, g_lines, text, depth);
        }
        if let Some(having) = &select.having {
            let h_lines = self.lines(having.span(), lines);
            self.push(SqlClauseKind::Having, h_lines, having.to_string(), depth);
            collect_subqueries(having, h_lines, self, &mut subqueries);
        }
        if !select.sort_by.is_empty() {
            let span = Span::union_iter(select.sort_by.iter().map(|e| e.span()));
            let s_lines = self.lines(span, lines);
            let text = select
                .sort_by
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            self.push(SqlClauseKind::OrderBy, s_lines, text, depth);
        }
        for (query, q_lines) in subqueries {
            let i = self.push(SqlClauseKind::Subquery, q_lines, String::new(), depth + 1);
            self.clauses[i].text = capped(&query.to_string(), CLAUSE_TEXT_CAP);
            self.query(query, depth + 1, q_lines);
        }
    }

    fn table_with_joins<'q>(
        &mut self,
        table: &'q TableWithJoins,
        depth: u32,
        parent: LineRange,
        subqueries: &mut Vec<(&'q Query, LineRange)>,
    ) {
        let from_lines = self.lines(table.relation.span(), parent);
        let i = self.push(
            SqlClauseKind::From,
            from_lines,
            table.relation.to_string(),
            depth,
        );
        self.clauses[i].columns.clear();
        self.relation(&table.relation, i, from_lines, subqueries);
        for join in &table.joins {
            let join_lines = self.lines(join.span(), parent);
            let j = self.push(SqlClauseKind::Join, join_lines, join.to_string(), depth);
            self.clauses[j].columns.clear();
            self.relation(&join.relation, j, join_lines, subqueries);
            if let Some(JoinConstraint::On(predicate)) = join_constraint(&join.join_operator) {
                let p_lines = self.lines(predicate.span(), join_lines);
                let p = self.push(
                    SqlClauseKind::JoinPredicate,
                    p_lines,
                    predicate.to_string(),
                    depth,
                );
                self.clauses[j].columns = self.clauses[p].columns.clone();
            }
            if let Some(JoinConstraint::Using(names)) = join_constraint(&join.join_operator) {
                self.clauses[j].columns = names.iter().map(|n| n.to_string()).collect();
            }
        }
    }

    fn relation<'q>(
        &mut self,
        relation: &'q TableFactor,
        clause: usize,
        lines: LineRange,
        subqueries: &mut Vec<(&'q Query, LineRange)>,
    ) {
        match relation {
            TableFactor::Table { name, alias, .. } => {
                self.clauses[clause].tables.push(name.to_string());
                if let Some(alias) = alias {
                    self.clauses[clause].aliases.push(alias.name.value.clone());
                }
            }
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                if let Some(alias) = alias {
                    self.clauses[clause].aliases.push(alias.name.value.clone());
                }
                subqueries.push((subquery, lines));
            }
            _ => {}
        }
    }
}

fn join_constraint(op: &JoinOperator) -> Option<&JoinConstraint> {
    match op {
        JoinOperator::Join(c)
        | JoinOperator::Inner(c)
        | JoinOperator::Left(c)
        | JoinOperator::LeftOuter(c)
        | JoinOperator::Right(c)
        | JoinOperator::RightOuter(c)
        | JoinOperator::FullOuter(c)
        | JoinOperator::CrossJoin(c)
        | JoinOperator::Semi(c)
        | JoinOperator::LeftSemi(c)
        | JoinOperator::RightSemi(c)
        | JoinOperator::Anti(c)
        | JoinOperator::LeftAnti(c)
        | JoinOperator::RightAnti(c)
        | JoinOperator::StraightJoin(c) => Some(c),
        JoinOperator::AsOf { constraint, .. } => Some(constraint),
        _ => None,
    }
}

/// The `AND`-separated conjuncts of a predicate, left to right (iterative).
fn conjuncts(expr: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        match e {
            Expr::BinaryOp {
                left,
                op: sqlparser::ast::BinaryOperator::And,
                right,
            } => {
                stack.push(right);
                stack.push(left);
            }
            other => out.push(other),
        }
    }
    out
}

/// Subqueries inside an expression (`IN (SELECT …)`, `EXISTS (…)`, scalar subqueries).
fn collect_subqueries<'q>(
    expr: &'q Expr,
    parent: LineRange,
    builder: &ClauseBuilder<'_>,
    out: &mut Vec<(&'q Query, LineRange)>,
) {
    let mut stack = vec![expr];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Subquery(query) => out.push((query, builder.lines(query.span(), parent))),
            Expr::InSubquery { expr, subquery, .. } => {
                out.push((subquery, builder.lines(subquery.span(), parent)));
                stack.push(expr);
            }
            Expr::Exists { subquery, .. } => {
                out.push((subquery, builder.lines(subquery.span(), parent)))
            }
            Expr::BinaryOp { left, right, .. } => {
                stack.push(right);
                stack.push(left);
            }
            Expr::UnaryOp { expr, .. } | Expr::Nested(expr) => stack.push(expr),
            _ => {}
        }
    }
}

fn dedup(list: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    list.retain(|item| !item.is_empty() && seen.insert(item.clone()));
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
    fn format_templates_are_parsed() {
        let sql = "SELECT a FROM {table} WHERE b = %s";
        let a = &analyse_sql(&at_line(sql, 1))[0];
        assert!(a.parsed);
    }
}
