//! Clauses: a parsed statement walked into [`SqlClause`]s — select items, FROM tables, JOINs and
//! their predicates, WHERE and its conjuncts, GROUP BY, HAVING, ORDER BY, window `OVER`, LIMIT,
//! set operations and CTEs — each with its lines and its depth.

use super::*;
use crate::code::lang::vocab::{ASC_NULLS_LAST, DESC_NULLS_FIRST};

pub(super) struct ClauseBuilder<'a> {
    pub(super) sql: &'a DecodedString,
    pub(super) fallback: LineRange,
    pub(super) clauses: Vec<SqlClause>,
    pub(super) text: SqlText,
    /// The column names a derived table's or a CTE's alias gives its query's result
    /// (`(SELECT c_custkey, count(o_orderkey) …) AS c_orders (c_custkey, c_count)`): the n-th
    /// names the n-th item of the SELECT about to be read, which takes them.
    pub(super) renames: Vec<String>,
}

/// The column names an alias lists (`AS t (a, b)`), if any.
fn renamed_columns(alias: Option<&sqlparser::ast::TableAlias>) -> Vec<String> {
    alias
        .map(|a| a.columns.iter().map(|c| c.name.value.clone()).collect())
        .unwrap_or_default()
}

/// The name Spark gives an unaliased call of a function over columns: `count(country)` for
/// `COUNT(country)`, `count(1)` for `COUNT(*)`, `count(DISTINCT country)` (the plan prints the
/// result under that name, as it would an alias).
pub(super) fn implicit_name(expr: &sqlparser::ast::Expr) -> Option<String> {
    use sqlparser::ast::{Expr, FunctionArg, FunctionArgExpr, FunctionArguments};
    let Expr::Function(function) = expr else {
        return None;
    };
    let FunctionArguments::List(list) = &function.args else {
        return None;
    };
    if function.over.is_some() {
        return None;
    }
    let distinct = matches!(
        list.duplicate_treatment,
        Some(sqlparser::ast::DuplicateTreatment::Distinct)
    );
    let mut args = Vec::with_capacity(list.args.len());
    for arg in &list.args {
        let FunctionArg::Unnamed(arg) = arg else {
            return None;
        };
        args.push(match arg {
            // `COUNT(*)` counts rows; `COUNT(DISTINCT *)` expands the star to every column of
            // the frame, which only the plan knows.
            FunctionArgExpr::Wildcard if !distinct => "1".to_owned(),
            FunctionArgExpr::Expr(Expr::Identifier(column)) => column.value.clone(),
            FunctionArgExpr::Expr(Expr::CompoundIdentifier(parts)) => parts.last()?.value.clone(),
            _ => return None,
        });
    }
    let name = function.name.0.last()?.as_ident()?.value.to_lowercase();
    let distinct = if distinct { "DISTINCT " } else { "" };
    Some(format!("{name}({distinct}{})", args.join(", ")))
}

/// The names Spark makes up for the function calls of a condition (`sum(x) > 300 AND …`).
fn implicit_names_within(expr: &sqlparser::ast::Expr, names: &mut Vec<String>) {
    use sqlparser::ast::Expr;
    match expr {
        Expr::BinaryOp { left, right, .. } => {
            implicit_names_within(left, names);
            implicit_names_within(right, names);
        }
        Expr::Nested(inner) | Expr::UnaryOp { expr: inner, .. } => {
            implicit_names_within(inner, names);
        }
        _ => names.extend(implicit_name(expr)),
    }
}

/// The DataFrame API's names for what an `ORDER BY` asks beyond ascending with nulls first:
/// `desc` for `DESC`, and [`ASC_NULLS_LAST`] / [`DESC_NULLS_FIRST`] for a null ordering that
/// is not its direction's default — so `ORDER BY w DESC NULLS FIRST` reads like
/// `orderBy(col("w").desc_nulls_first())`.
fn ordering_functions(order_by: &sqlparser::ast::OrderBy) -> Vec<String> {
    let sqlparser::ast::OrderByKind::Expressions(items) = &order_by.kind else {
        return Vec::new();
    };
    ordering_names(items)
}

/// The orderings of the windows a select item calls (`DENSE_RANK() OVER (… ORDER BY x DESC)`),
/// named as [`ordering_functions`] names an `ORDER BY`'s.
fn window_orderings(expr: &Expr) -> Vec<String> {
    use sqlparser::ast::WindowType;
    match expr {
        Expr::Function(function) => match &function.over {
            Some(WindowType::WindowSpec(spec)) => ordering_names(&spec.order_by),
            _ => Vec::new(),
        },
        Expr::BinaryOp { left, right, .. } => {
            let mut names = window_orderings(left);
            names.extend(window_orderings(right));
            names
        }
        Expr::Nested(inner)
        | Expr::UnaryOp { expr: inner, .. }
        | Expr::Cast { expr: inner, .. } => window_orderings(inner),
        _ => Vec::new(),
    }
}

fn ordering_names(items: &[sqlparser::ast::OrderByExpr]) -> Vec<String> {
    use sqlparser::ast::OrderBySort;
    let mut names = Vec::new();
    for item in items {
        let descending = matches!(item.options.sort, Some(OrderBySort::Desc));
        if descending {
            names.push("desc");
        }
        match (descending, item.options.nulls_first) {
            (false, Some(false)) => names.push(ASC_NULLS_LAST),
            (true, Some(true)) => names.push(DESC_NULLS_FIRST),
            _ => {}
        }
    }
    names.into_iter().map(str::to_owned).collect()
}

impl ClauseBuilder<'_> {
    /// An expression's span, widened for `[NOT] EXISTS (…)` and `(SELECT …)`, whose spans are
    /// only the subquery inside the parentheses.
    pub(super) fn expr_span(&self, expr: &Expr) -> Span {
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

    pub(super) fn lines(&self, span: Span, parent: LineRange) -> LineRange {
        map_span(self.sql, self.text.close_parens(span)).unwrap_or(parent)
    }

    pub(super) fn push(
        &mut self,
        kind: SqlClauseKind,
        lines: LineRange,
        text: String,
        depth: u32,
    ) -> usize {
        let tokens = text.clone();
        self.push_tokens(kind, lines, text, &tokens, depth)
    }

    /// A clause over an expression: its columns, functions and literals are the expression's
    /// own — the subqueries inside it get clauses of their own and lend it nothing.
    pub(super) fn push_expr(
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

    pub(super) fn push_tokens(
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
    pub(super) fn statement(&mut self, statement: &Statement, span: Span) {
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

    pub(super) fn query(&mut self, query: &Query, depth: u32, parent: LineRange) {
        let lines = self.lines(query.span(), parent);
        let renames = std::mem::take(&mut self.renames);
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
                self.renames = renamed_columns(Some(&cte.alias));
                self.query(&cte.query, depth + 1, cte_lines);
            }
        }
        self.renames = renames;
        self.set_expr(&query.body, depth, lines);
        if let Some(order_by) = &query.order_by {
            let lines_ob = self.lines(order_by.span(), lines);
            let i = self.push(
                SqlClauseKind::OrderBy,
                lines_ob,
                order_by.to_string(),
                depth,
            );
            self.clauses[i]
                .functions
                .extend(ordering_functions(order_by));
            dedup(&mut self.clauses[i].functions);
            // `ORDER BY sum(count) DESC`: the aggregate computing it names it `sum(count)`
            if let sqlparser::ast::OrderByKind::Expressions(items) = &order_by.kind {
                let mut names = Vec::new();
                for item in items {
                    implicit_names_within(&item.expr, &mut names);
                }
                self.clauses[i].aliases.extend(names);
            }
        }
        if let Some(limit) = &query.limit_clause {
            let limit_lines = self.lines(limit.span(), lines);
            self.push(SqlClauseKind::Limit, limit_lines, limit.to_string(), depth);
        }
    }

    pub(super) fn set_expr(&mut self, body: &SetExpr, depth: u32, parent: LineRange) {
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

    // Long (~125 lines): one SELECT's parts in their SQL order (items, FROM/joins, WHERE, GROUP
    // BY, HAVING, windows), each a few lines pushing clauses with shared subquery bookkeeping.
    pub(super) fn select(
        &mut self,
        select: &sqlparser::ast::Select,
        depth: u32,
        parent: LineRange,
    ) {
        let lines = self.lines(select.span(), parent);
        let head = self.push(SqlClauseKind::Select, lines, String::new(), depth);
        let renames = std::mem::take(&mut self.renames);
        let mut subqueries: Vec<(&Query, LineRange, Vec<String>)> = Vec::new();
        // Each item's text, kept for the head clause (rendering an AST is not cheap).
        let mut item_texts: Vec<String> = Vec::with_capacity(select.projection.len());
        for (position, item) in select.projection.iter().enumerate() {
            let item_lines = self.lines(item.span(), lines);
            let (text, alias, expr) = match item {
                SelectItem::ExprWithAlias { expr, alias } => {
                    (item.to_string(), Some(alias.value.clone()), Some(expr))
                }
                SelectItem::UnnamedExpr(expr) => (item.to_string(), None, Some(expr)),
                other => (other.to_string(), None, None),
            };
            let alias = renames.get(position).cloned().or(alias);
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
            if let Some(alias) = alias.or_else(|| expr.and_then(implicit_name)) {
                self.clauses[i].aliases.push(alias.clone());
                self.clauses[head].aliases.push(alias);
            }
            if is_window {
                let w = self.push(SqlClauseKind::Window, item_lines, text, depth);
                self.clauses[w].aliases = self.clauses[i].aliases.clone();
                let orderings = expr.map(window_orderings).unwrap_or_default();
                for clause in [i, w] {
                    self.clauses[clause]
                        .functions
                        .extend(orderings.iter().cloned());
                    dedup(&mut self.clauses[clause].functions);
                }
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
        let projection_literals: Vec<String> = self
            .clauses
            .iter()
            .skip(head + 1)
            .filter(|c| c.kind == SqlClauseKind::SelectItem && c.depth == depth)
            .flat_map(|c| c.literals.clone())
            .collect();
        {
            let clause = &mut self.clauses[head];
            clause.text = capped(&item_texts.join(", "), CLAUSE_TEXT_CAP);
            clause.columns = projection_columns;
            clause.functions = projection_functions;
            clause.literals = projection_literals;
            dedup(&mut clause.columns);
            dedup(&mut clause.functions);
            dedup(&mut clause.literals);
        }
        for table in &select.from {
            self.table_with_joins(table, depth, lines, &mut subqueries);
        }
        // `LATERAL VIEW explode(split(Tags, '\\|')) t AS tag`: a generator over every row, as
        // `SELECT explode(…) AS tag` would be, its columns named by the view's column list.
        for view in &select.lateral_views {
            let v_lines = self.lines(view.lateral_view.span(), lines);
            let text = view.lateral_view.to_string();
            let i = self.push_tokens(
                SqlClauseKind::SelectItem,
                v_lines,
                text.clone(),
                &text,
                depth,
            );
            let names = view.lateral_col_alias.iter().map(|a| a.value.clone());
            self.clauses[i].aliases.extend(names);
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
                let p = self.push_expr(SqlClauseKind::WherePredicate, c_lines, conjunct, depth);
                self.mark_semi_join(p, conjunct);
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
            let h = self.push_expr(SqlClauseKind::Having, h_lines, having, depth);
            // `HAVING sum(x) > 300` computes `sum(x)` under the name Spark makes up for it.
            let mut names = Vec::new();
            implicit_names_within(having, &mut names);
            self.clauses[h].aliases.extend(names);
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
        for (query, q_lines, renames) in subqueries {
            let i = self.push(SqlClauseKind::Subquery, q_lines, String::new(), depth + 1);
            self.clauses[i].text = capped(&query.to_string(), CLAUSE_TEXT_CAP);
            self.renames = renames;
            self.query(query, depth + 1, q_lines);
        }
    }

    /// `x IN (SELECT y …)` and `EXISTS (…)` are planned as a left semi join of the outer query
    /// with the subquery (with `NOT`, a left anti join): the predicate names the join's type
    /// as `join(…, how=…)` would, and an `IN` also the key the subquery selects.
    fn mark_semi_join(&mut self, clause: usize, predicate: &Expr) {
        let mut negated = false;
        let mut inner = predicate;
        loop {
            match inner {
                Expr::Nested(e) => inner = e,
                Expr::UnaryOp {
                    op: sqlparser::ast::UnaryOperator::Not,
                    expr,
                } => {
                    negated = !negated;
                    inner = expr;
                }
                _ => break,
            }
        }
        let key = match inner {
            Expr::InSubquery {
                subquery,
                negated: n,
                ..
            } => {
                negated ^= *n;
                first_selected(subquery)
            }
            Expr::Exists { negated: n, .. } => {
                negated ^= *n;
                None
            }
            _ => return,
        };
        let clause = &mut self.clauses[clause];
        clause
            .literals
            .push(if negated { "anti" } else { "semi" }.to_string());
        if let Some(key) = key {
            let mut tokens = CallArgs::default();
            sql_expression_tokens(&key, &mut tokens);
            for column in tokens.columns {
                if !clause.columns.contains(&column) {
                    clause.columns.push(column);
                }
            }
        }
    }

    pub(super) fn table_with_joins<'q>(
        &mut self,
        table: &'q TableWithJoins,
        depth: u32,
        parent: LineRange,
        subqueries: &mut Vec<(&'q Query, LineRange, Vec<String>)>,
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
            let join_type = join_type_word(&join.join_operator);
            self.clauses[j]
                .literals
                .extend(join_type.map(str::to_owned));
            if let Some(JoinConstraint::On(predicate)) = join_constraint(&join.join_operator) {
                let p_lines = self.lines(predicate.span(), join_lines);
                let p = self.push_expr(SqlClauseKind::JoinPredicate, p_lines, predicate, depth);
                self.clauses[j].columns = self.clauses[p].columns.clone();
                self.clauses[p]
                    .literals
                    .extend(join_type.map(str::to_owned));
                self.push_one_sided_conjuncts(predicate, p_lines, depth);
            }
            if let Some(JoinConstraint::Using(names)) = join_constraint(&join.join_operator) {
                self.clauses[j].columns = names.iter().map(|n| n.to_string()).collect();
            }
        }
    }

    /// The conjuncts of a join's `ON` that test one side alone (`o_comment NOT LIKE '%x%'`,
    /// `l_shipdate >= DATE '1995-09-01'`), each also a predicate of its own, as a WHERE's
    /// conjunct is: the optimiser pushes them below the join as a Filter of that side.
    fn push_one_sided_conjuncts(&mut self, predicate: &Expr, lines: LineRange, depth: u32) {
        for conjunct in conjuncts(predicate) {
            if !tests_one_side(conjunct) {
                continue;
            }
            let c_lines = self.lines(self.expr_span(conjunct), lines);
            self.push_expr(SqlClauseKind::WherePredicate, c_lines, conjunct, depth);
        }
    }

    pub(super) fn relation<'q>(
        &mut self,
        relation: &'q TableFactor,
        clause: usize,
        lines: LineRange,
        subqueries: &mut Vec<(&'q Query, LineRange, Vec<String>)>,
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
                subqueries.push((
                    subquery,
                    self.lines(subquery.span(), lines),
                    renamed_columns(alias.as_ref()),
                ));
            }
            _ => {}
        }
    }
}

pub(super) fn join_constraint(op: &JoinOperator) -> Option<&JoinConstraint> {
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
pub(super) fn conjuncts(expr: &Expr) -> Vec<&Expr> {
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

/// Whether a condition reads one column alone: a comparison with a value, not of two columns
/// (`a.id = b.id` names `id` twice), or a test of one column (`x NOT LIKE '%y%'`, `x IN (1, 2)`).
fn tests_one_side(condition: &Expr) -> bool {
    let columns = |e: &Expr| {
        let mut tokens = CallArgs::default();
        sql_expression_tokens(&e.to_string(), &mut tokens);
        dedup(&mut tokens.columns);
        tokens.columns.len()
    };
    match condition {
        Expr::Nested(inner) => tests_one_side(inner),
        Expr::BinaryOp { left, op, right } if is_comparison(op) => {
            (columns(left) == 0) != (columns(right) == 0)
        }
        Expr::BinaryOp { .. } => false,
        other => columns(other) == 1,
    }
}

fn is_comparison(op: &sqlparser::ast::BinaryOperator) -> bool {
    use sqlparser::ast::BinaryOperator as B;
    matches!(
        op,
        B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::Spaceship
    )
}

/// The first item a query selects (`l_orderkey` of `SELECT l_orderkey FROM …`), as written.
fn first_selected(query: &Query) -> Option<String> {
    let sqlparser::ast::SetExpr::Select(select) = query.body.as_ref() else {
        return None;
    };
    match select.projection.first()? {
        SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => {
            Some(expr.to_string())
        }
        _ => None,
    }
}

/// The word `join(…, how=…)` would use for a SQL join's type (`LEFT [OUTER] JOIN` → `left`), so a
/// query's join meets its plan's join type as DataFrame code does; none for an inner join.
fn join_type_word(operator: &JoinOperator) -> Option<&'static str> {
    match operator {
        JoinOperator::Left(_) | JoinOperator::LeftOuter(_) => Some("left"),
        JoinOperator::Right(_) | JoinOperator::RightOuter(_) => Some("right"),
        JoinOperator::FullOuter(_) => Some("full"),
        JoinOperator::CrossJoin(_) => Some("cross"),
        JoinOperator::LeftSemi(_) => Some("left_semi"),
        JoinOperator::LeftAnti(_) => Some("left_anti"),
        _ => None,
    }
}
