//! Subqueries anywhere in an expression (operands, function arguments, `CASE`, `IN` lists,
//! derived tables), found within a node budget, so each gets clauses of its own one level deeper.

use super::*;

/// Subqueries inside an expression (`IN (SELECT …)`, `EXISTS (…)`, scalar subqueries), wherever
/// they sit: operands, function arguments, `CASE`, `BETWEEN`, `IN` lists, casts, …
pub(super) fn collect_subqueries<'q>(
    expr: &'q Expr,
    parent: LineRange,
    builder: &ClauseBuilder<'_>,
    out: &mut Vec<(&'q Query, LineRange, Vec<String>)>,
) {
    for query in subqueries_of(expr) {
        out.push((query, builder.lines(query.span(), parent), Vec::new()));
    }
}

/// The subqueries directly inside an expression (not those nested in them), left to right.
/// Iterative; bounded by [`EXPR_NODE_BUDGET`].
pub(super) fn subqueries_of(expr: &Expr) -> Vec<&Query> {
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
