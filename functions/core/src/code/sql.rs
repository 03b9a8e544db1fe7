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

struct ClauseBuilder<'a> {
    sql: &'a DecodedString,
    fallback: LineRange,
    clauses: Vec<SqlClause>,
    text: SqlText,
}

/// The SQL text as characters with line starts, to read around sqlparser's spans.
struct SqlText {
    chars: Vec<char>,
    /// Char index where each (1-based) line starts; index 0 = line 1.
    line_starts: Vec<usize>,
}

impl SqlText {
    fn new(text: &str) -> Self {
        let chars: Vec<char> = text.chars().collect();
        let mut line_starts = vec![0];
        line_starts.extend(
            chars
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == '\n')
                .map(|(i, _)| i + 1),
        );
        Self { chars, line_starts }
    }

    fn index(&self, location: sqlparser::tokenizer::Location) -> Option<usize> {
        let start = *self
            .line_starts
            .get((location.line as usize).checked_sub(1)?)?;
        Some((start + (location.column as usize).saturating_sub(1)).min(self.chars.len()))
    }

    /// Extend a span's start back over the `(` right before it and then over any of `keywords`
    /// (case-insensitive) before that.
    fn open_parens(&self, span: Span, keywords: &[&str]) -> Span {
        let Some(start) = self.index(span.start) else {
            return span;
        };
        let skip_blank = |mut i: usize| {
            while i > 0 && self.chars[i - 1].is_whitespace() {
                i -= 1;
            }
            i
        };
        let mut i = skip_blank(start);
        if i == 0 || self.chars[i - 1] != '(' {
            return span;
        }
        i -= 1;
        let mut new_start = i;
        loop {
            let word_end = skip_blank(new_start);
            let mut word_start = word_end;
            while word_start > 0 && self.chars[word_start - 1].is_alphabetic() {
                word_start -= 1;
            }
            let word: String = self.chars[word_start..word_end].iter().collect();
            if word.is_empty() || !keywords.iter().any(|k| k.eq_ignore_ascii_case(&word)) {
                break;
            }
            new_start = word_start;
        }
        match self.location(new_start) {
            Some(location) => Span::new(location, span.end),
            None => span,
        }
    }

    /// The 1-based line/column of a char index.
    fn location(&self, index: usize) -> Option<sqlparser::tokenizer::Location> {
        let line = self.line_starts.partition_point(|s| *s <= index);
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        Some(sqlparser::tokenizer::Location::new(
            line as u64,
            (index - start + 1) as u64,
        ))
    }

    /// sqlparser's spans can end before the last token of an expression (an `INTERVAL`'s unit)
    /// and before the `)` that close parentheses opened inside it (`x IN (SELECT … )`): extend
    /// the span until those parentheses are closed. Whatever lies before that closing belongs
    /// to the expression.
    fn close_parens(&self, span: Span) -> Span {
        let (Some(start), Some(end)) = (self.index(span.start), self.index(span.end)) else {
            return span;
        };
        let mut depth = 0i64;
        let mut quote: Option<char> = None;
        for &c in self.chars.get(start..end).unwrap_or(&[]) {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"' | '`') => quote = Some(c),
                (None, '(') => depth += 1,
                (None, ')') => depth -= 1,
                _ => {}
            }
        }
        let mut end_location = span.end;
        quote = None;
        let mut line = span.end.line;
        let mut column = span.end.column;
        let mut i = end;
        while depth > 0 && i < self.chars.len() {
            match (quote, self.chars[i]) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), '\n') | (None, '\n') => {
                    line += 1;
                    column = 0;
                }
                (Some(_), _) => {}
                (None, c @ ('\'' | '"' | '`')) => quote = Some(c),
                (None, '(') => depth += 1,
                (None, ')') => {
                    depth -= 1;
                    end_location = sqlparser::tokenizer::Location::new(line, column + 1);
                }
                _ => {}
            }
            column += 1;
            i += 1;
        }
        Span::new(span.start, end_location)
    }
}

impl ClauseBuilder<'_> {
    /// An expression's span, widened for `[NOT] EXISTS (…)` and `(SELECT …)`, whose spans are
    /// only the subquery inside the parentheses.
    fn expr_span(&self, expr: &Expr) -> Span {
        let mut inner = expr;
        while let Expr::UnaryOp { expr, .. } | Expr::Nested(expr) = inner {
            inner = expr;
        }
        match inner {
            Expr::Exists { .. } | Expr::Subquery(_) => self
                .text
                .open_parens(expr.span().union(&inner.span()), &["exists", "not"]),
            _ => expr.span(),
        }
    }

    fn lines(&self, span: Span, parent: LineRange) -> LineRange {
        map_span(self.sql, self.text.close_parens(span)).unwrap_or(parent)
    }

    fn push(&mut self, kind: SqlClauseKind, lines: LineRange, text: String, depth: u32) -> usize {
        let tokens = text.clone();
        self.push_tokens(kind, lines, text, &tokens, depth)
    }

    /// A clause over an expression: its columns, functions and literals are the expression's
    /// own — the subqueries inside it get clauses of their own and lend it nothing.
    fn push_expr(
        &mut self,
        kind: SqlClauseKind,
        lines: LineRange,
        expr: &Expr,
        depth: u32,
    ) -> usize {
        let text = expr.to_string();
        let mut tokens = text.clone();
        for query in subqueries_of(expr) {
            tokens = tokens.replace(&query.to_string(), " ");
        }
        self.push_tokens(kind, lines, text, &tokens, depth)
    }

    fn push_tokens(
        &mut self,
        kind: SqlClauseKind,
        lines: LineRange,
        text: String,
        token_source: &str,
        depth: u32,
    ) -> usize {
        let mut tokens = CallArgs::default();
        sql_expression_tokens(token_source, &mut tokens);
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

    /// One statement; `span` is its span (the caller has it already).
    fn statement(&mut self, statement: &Statement, span: Span) {
        let lines = self.lines(span, self.fallback);
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
                // `CREATE VIEW v (a, b) AS …`: the column list names the query's outputs.
                self.clauses[i].aliases =
                    view.columns.iter().map(|c| c.name.value.clone()).collect();
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
            Statement::Drop { names, .. } => {
                let i = self.push(SqlClauseKind::Other, lines, statement.to_string(), 0);
                self.clauses[i].columns.clear();
                self.clauses[i].tables = names.iter().map(|n| n.to_string()).collect();
            }
            other => {
                // DDL and commands (`CACHE TABLE t`, `CREATE VIEW v USING orc …`): the words
                // are keywords, options and names, not columns.
                let text = other.to_string();
                let i = self.push(SqlClauseKind::Other, lines, text.clone(), 0);
                self.clauses[i].columns.clear();
                self.clauses[i].tables = statement_tables(&text);
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
        // Each item's text, kept for the head clause (rendering an AST is not cheap).
        let mut item_texts: Vec<String> = Vec::with_capacity(select.projection.len());
        for item in &select.projection {
            let item_lines = self.lines(item.span(), lines);
            let (text, alias, expr) = match item {
                SelectItem::ExprWithAlias { expr, alias } => {
                    (item.to_string(), Some(alias.value.clone()), Some(expr))
                }
                SelectItem::UnnamedExpr(expr) => (item.to_string(), None, Some(expr)),
                other => (other.to_string(), None, None),
            };
            item_texts.push(text.clone());
            let upper = text.to_ascii_uppercase();
            let is_window = upper.contains(" OVER ") || upper.contains(" OVER(");
            let mut tokens = text.clone();
            for query in expr.map(subqueries_of).unwrap_or_default() {
                tokens = tokens.replace(&query.to_string(), " ");
            }
            // The tokenizer skips the word after `AS`, so the alias is no column (and a column
            // of the same name, `CAST(x AS INT) AS x`, stays one).
            let i = self.push_tokens(
                SqlClauseKind::SelectItem,
                item_lines,
                text.clone(),
                &tokens,
                depth,
            );
            if let Some(alias) = alias {
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
            clause.text = capped(&item_texts.join(", "), CLAUSE_TEXT_CAP);
            clause.columns = projection_columns;
            clause.functions = projection_functions;
            dedup(&mut clause.columns);
            dedup(&mut clause.functions);
        }
        for table in &select.from {
            self.table_with_joins(table, depth, lines, &mut subqueries);
        }
        if let Some(selection) = &select.selection {
            // Spans walk their whole subtree: each conjunct's once, for WHERE and for itself.
            let parts: Vec<(&Expr, Span)> = conjuncts(selection)
                .into_iter()
                .map(|c| (c, self.expr_span(c)))
                .collect();
            let where_span = Span::union_iter(
                parts
                    .iter()
                    .map(|(_, span)| *span)
                    .chain([selection.span()]),
            );
            let where_lines = self.lines(where_span, lines);
            self.push_expr(SqlClauseKind::Where, where_lines, selection, depth);
            for (conjunct, span) in parts {
                let c_lines = self.lines(span, where_lines);
                self.push_expr(SqlClauseKind::WherePredicate, c_lines, conjunct, depth);
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
            self.push_expr(SqlClauseKind::Having, h_lines, having, depth);
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
        let from_span = match &table.relation {
            // `FROM (SELECT …) t`: the span starts inside the parentheses.
            TableFactor::Derived { .. } => self.text.open_parens(table.relation.span(), &[]),
            _ => table.relation.span(),
        };
        let from_lines = self.lines(from_span, parent);
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
                let p = self.push_expr(SqlClauseKind::JoinPredicate, p_lines, predicate, depth);
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
                subqueries.push((subquery, self.lines(subquery.span(), lines)));
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

/// Subqueries inside an expression (`IN (SELECT …)`, `EXISTS (…)`, scalar subqueries), wherever
/// they sit: operands, function arguments, `CASE`, `BETWEEN`, `IN` lists, casts, …
fn collect_subqueries<'q>(
    expr: &'q Expr,
    parent: LineRange,
    builder: &ClauseBuilder<'_>,
    out: &mut Vec<(&'q Query, LineRange)>,
) {
    for query in subqueries_of(expr) {
        out.push((query, builder.lines(query.span(), parent)));
    }
}

/// The subqueries directly inside an expression (not those nested in them), left to right.
/// Iterative; bounded by [`EXPR_NODE_BUDGET`].
fn subqueries_of(expr: &Expr) -> Vec<&Query> {
    let mut out = Vec::new();
    let mut stack = vec![expr];
    let mut budget = EXPR_NODE_BUDGET;
    while let Some(e) = stack.pop() {
        budget = budget.saturating_sub(1);
        if budget == 0 {
            break;
        }
        let mut children: Vec<&Expr> = Vec::new();
        match e {
            Expr::Subquery(query) => out.push(query.as_ref()),
            Expr::InSubquery { expr, subquery, .. } => {
                children.push(expr);
                out.push(subquery.as_ref());
            }
            Expr::Exists { subquery, .. } => out.push(subquery.as_ref()),
            Expr::BinaryOp { left, right, .. }
            | Expr::AnyOp { left, right, .. }
            | Expr::AllOp { left, right, .. }
            | Expr::IsDistinctFrom(left, right)
            | Expr::IsNotDistinctFrom(left, right) => children.extend([&**left, &**right]),
            Expr::UnaryOp { expr, .. }
            | Expr::Nested(expr)
            | Expr::IsNull(expr)
            | Expr::IsNotNull(expr)
            | Expr::IsTrue(expr)
            | Expr::IsNotTrue(expr)
            | Expr::IsFalse(expr)
            | Expr::IsNotFalse(expr)
            | Expr::IsUnknown(expr)
            | Expr::IsNotUnknown(expr)
            | Expr::Cast { expr, .. }
            | Expr::Extract { expr, .. }
            | Expr::Ceil { expr, .. }
            | Expr::Floor { expr, .. }
            | Expr::Collate { expr, .. }
            | Expr::Named { expr, .. } => children.push(expr),
            Expr::InList { expr, list, .. } => {
                children.push(expr);
                children.extend(list);
            }
            Expr::Between {
                expr, low, high, ..
            } => children.extend([&**expr, &**low, &**high]),
            Expr::Like { expr, pattern, .. }
            | Expr::ILike { expr, pattern, .. }
            | Expr::SimilarTo { expr, pattern, .. }
            | Expr::RLike { expr, pattern, .. } => children.extend([&**expr, &**pattern]),
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                children.push(expr);
                children.extend(substring_from.as_deref());
                children.extend(substring_for.as_deref());
            }
            Expr::Case {
                operand,
                conditions,
                else_result,
                ..
            } => {
                children.extend(operand.as_deref());
                for when in conditions {
                    children.extend([&when.condition, &when.result]);
                }
                children.extend(else_result.as_deref());
            }
            Expr::Tuple(items) => children.extend(items),
            Expr::Function(function) => {
                for arguments in [&function.parameters, &function.args] {
                    match arguments {
                        FunctionArguments::Subquery(query) => out.push(query.as_ref()),
                        FunctionArguments::List(list) => {
                            for arg in &list.args {
                                let (FunctionArg::Named { arg, .. }
                                | FunctionArg::ExprNamed { arg, .. }
                                | FunctionArg::Unnamed(arg)) = arg;
                                if let FunctionArgExpr::Expr(e) = arg {
                                    children.push(e);
                                }
                            }
                        }
                        FunctionArguments::None => {}
                    }
                }
                children.extend(function.filter.as_deref());
            }
            _ => {}
        }
        stack.extend(children.into_iter().rev());
    }
    out
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
