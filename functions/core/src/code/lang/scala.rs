//! Scala adapter (tree-sitter-scala): `$"x"` / `'x` columns, `s"…"` interpolation,
//! `"""…""".stripMargin`, `object X extends App` entry points, parenless calls (`df.count`).

use super::{
    Definition, Field, Grammar, KindSet, LanguageAdapter, Shape, decode_concatenation,
    is_string_concatenation, named_children, start_line, text,
};
use crate::code::index::{Language, SymbolKind};
use crate::code::strings::{DecodedString, Interpolation, LiteralBody, decode};
use std::sync::LazyLock;
use tree_sitter::Node;

static GRAMMAR: LazyLock<Grammar> =
    LazyLock::new(|| Grammar::new(&tree_sitter_scala::LANGUAGE.into()));

fn kind_of(node: Node<'_>) -> &'static str {
    GRAMMAR.kind(node)
}

fn field_of<'t>(node: Node<'t>, field: Field) -> Option<Node<'t>> {
    GRAMMAR.field(node, field)
}

pub struct Scala;

/// Containers whose direct children are statements.
static STATEMENT_PARENTS: LazyLock<KindSet> = LazyLock::new(|| {
    GRAMMAR.kind_set(&[
        "block",
        "template_body",
        "compilation_unit",
        "indented_block",
        "case_block",
        "with_template_body",
    ])
});

/// Children of statement containers that are no statements (definitions open symbols).
static NEVER_STATEMENTS: LazyLock<KindSet> = LazyLock::new(|| {
    GRAMMAR.kind_set(&[
        "function_definition",
        "function_declaration",
        "class_definition",
        "object_definition",
        "trait_definition",
        "import_declaration",
        "package_clause",
        "comment",
        "block_comment",
        "type_definition",
        "enum_definition",
    ])
});

impl LanguageAdapter for Scala {
    fn language(&self) -> Language {
        Language::Scala
    }

    fn name(&self) -> &'static str {
        "scala"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["scala", "sc"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_scala::LANGUAGE.into()
    }

    fn highlights_query(&self) -> &'static str {
        tree_sitter_scala::HIGHLIGHTS_QUERY
    }

    fn shape<'t>(&self, node: Node<'t>, src: &str) -> Shape<'t> {
        match kind_of(node) {
            "call_expression" => {
                let args = field_of(node, Field::Arguments);
                let Some(mut function) = field_of(node, Field::Function) else {
                    return Shape::Other;
                };
                if kind_of(function) == "generic_function" {
                    match field_of(function, Field::Function) {
                        Some(inner) => function = inner,
                        None => return Shape::Other,
                    }
                }
                match kind_of(function) {
                    "field_expression" => {
                        match (
                            field_of(function, Field::Value),
                            field_of(function, Field::Field),
                        ) {
                            (Some(object), Some(name)) => Shape::Call {
                                object: Some(object),
                                name,
                                args,
                            },
                            _ => Shape::Other,
                        }
                    }
                    "identifier" => Shape::Call {
                        object: None,
                        name: function,
                        args,
                    },
                    _ => Shape::Apply {
                        callee: function,
                        args,
                    },
                }
            }
            "field_expression" => {
                match (field_of(node, Field::Value), field_of(node, Field::Field)) {
                    (Some(object), Some(name)) => Shape::Member { object, name },
                    _ => Shape::Other,
                }
            }
            "generic_function" => match field_of(node, Field::Function) {
                Some(inner) if kind_of(inner) == "field_expression" => {
                    match (field_of(inner, Field::Value), field_of(inner, Field::Field)) {
                        (Some(object), Some(name)) => Shape::Member { object, name },
                        _ => Shape::Other,
                    }
                }
                _ => Shape::Other,
            },
            "identifier" => Shape::Ident,
            "string" => Shape::Str,
            // `"select a, " + "b from t"`: SQL built over several lines
            "infix_expression"
                if is_string_concatenation(&GRAMMAR, node, src, "infix_expression", |k| {
                    k == "string" || k == "interpolated_string_expression"
                }) =>
            {
                Shape::Str
            }
            // `agg("discount" -> "max")`: a column and the aggregate applied to it
            "infix_expression"
                if field_of(node, Field::Operator).map(|o| text(o, src)) == Some("->") =>
            {
                match (field_of(node, Field::Left), field_of(node, Field::Right)) {
                    (Some(key), Some(value)) => Shape::Pair { key, value },
                    _ => Shape::Other,
                }
            }
            "interpolated_string_expression" => {
                let interpolator = field_of(node, Field::Interpolator)
                    .map(|i| text(i, src))
                    .unwrap_or("");
                if interpolator == "$" {
                    Shape::ColumnSymbol
                } else {
                    Shape::Str
                }
            }
            "symbol_literal" | "quote_expression" => Shape::ColumnSymbol,
            // `val q =\n  expr`: a one-expression indented block is just that expression.
            "indented_block" => match sole_member(node) {
                Some(inner) => Shape::Paren(inner),
                None => Shape::Other,
            },
            "integer_literal" | "floating_point_literal" => Shape::Number,
            "boolean_literal" | "null_literal" => Shape::Bool,
            "assignment_expression" => {
                match (field_of(node, Field::Left), field_of(node, Field::Right)) {
                    (Some(name), Some(value)) if kind_of(name) == "identifier" => {
                        Shape::Keyword { name, value }
                    }
                    _ => Shape::Other,
                }
            }
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) if node.named_child_count() == 1 => Shape::Paren(inner),
                _ => Shape::Other,
            },
            "lambda_expression" | "comment" | "block_comment" => Shape::Lambda,
            _ => Shape::Other,
        }
    }

    fn is_statement(&self, node: Node<'_>, parent: Option<Node<'_>>) -> bool {
        let Some(parent) = parent else {
            return false;
        };
        // Asked of every node: kind sets, not string comparisons.
        if NEVER_STATEMENTS.contains(node) {
            return false;
        }
        if kind_of(parent) == "indented_block" && sole_member(parent) == Some(node) {
            // `val q =⏎  expr` holds an expression; `def f(…) =⏎  expr` is a statement.
            return parent
                .parent()
                .is_some_and(|p| kind_of(p) == "function_definition");
        }
        if STATEMENT_PARENTS.contains(parent) {
            return true;
        }
        // `catch { case e: AnalysisException => log(e); df = other }`: the statements of a
        // case's body, in a `catch` or a `match` (not a case of a closure's pattern match).
        if kind_of(parent) == "case_clause"
            && field_of(parent, Field::Pattern) != Some(node)
            && kind_of(node) != "guard"
        {
            return parent
                .parent()
                .and_then(|block| block.parent())
                .is_some_and(|owner| {
                    matches!(kind_of(owner), "catch_clause" | "match_expression")
                });
        }
        // `def f(df: DataFrame) = df.filter(…)`: an expression body is a statement.
        kind_of(parent) == "function_definition"
            && field_of(parent, Field::Body) == Some(node)
            && !STATEMENT_PARENTS.contains(node)
    }

    /// A function's expression body, or the last member of its block body, is what it returns.
    fn returned_value<'t>(
        &self,
        statement: Node<'t>,
        parent: Option<Node<'t>>,
    ) -> Option<Node<'t>> {
        let parent = parent?;
        if matches!(kind_of(statement), "val_definition" | "var_definition") {
            return None;
        }
        let returned = match kind_of(parent) {
            "function_definition" => field_of(parent, Field::Body) == Some(statement),
            "block" | "indented_block" => {
                let last = own_members(parent).last().copied();
                last == Some(statement)
                    && parent
                        .parent()
                        .is_some_and(|f| kind_of(f) == "function_definition")
            }
            _ => false,
        };
        if !returned {
            return None;
        }
        match kind_of(statement) {
            "return_expression" => statement.named_child(0),
            _ => Some(statement),
        }
    }

    fn assignment<'t>(&self, statement: Node<'t>, src: &str) -> Option<(String, Node<'t>)> {
        match kind_of(statement) {
            "val_definition" | "var_definition" => {
                let pattern = field_of(statement, Field::Pattern)?;
                let value = field_of(statement, Field::Value)?;
                (kind_of(pattern) == "identifier").then(|| (text(pattern, src).to_string(), value))
            }
            "assignment_expression" => {
                let left = field_of(statement, Field::Left)?;
                let right = field_of(statement, Field::Right)?;
                Some((text(left, src).to_string(), right))
            }
            _ => None,
        }
    }

    fn objects_apply(&self) -> bool {
        true
    }

    fn declared_type<'t>(&self, statement: Node<'t>) -> Option<Node<'t>> {
        match kind_of(statement) {
            "val_definition" | "var_definition" => field_of(statement, Field::Type),
            _ => None,
        }
    }

    fn statement_end_byte(&self, statement: Node<'_>) -> usize {
        if matches!(kind_of(statement), "val_definition" | "var_definition")
            && let Some(value) = field_of(statement, Field::Value)
            && kind_of(value) == "indented_block"
            && let Some(last) = own_members(value).last()
        {
            return last.end_byte();
        }
        statement.end_byte()
    }

    fn definition<'t>(&self, node: Node<'t>, _src: &str) -> Option<Definition<'t>> {
        let kind = match kind_of(node) {
            "function_definition" => SymbolKind::Function,
            "class_definition" | "trait_definition" => SymbolKind::Class,
            "object_definition" => SymbolKind::Object,
            _ => return None,
        };
        Some(Definition {
            kind,
            name: field_of(node, Field::Name)?,
        })
    }

    fn doc(&self, definition: Node<'_>, src: &str) -> Option<String> {
        doc_comment_before(definition, src)
    }

    fn is_entry_point(&self, definition: Node<'_>, name: &str, src: &str) -> bool {
        if name == "main" {
            return true;
        }
        let head_end = field_of(definition, Field::Body)
            .map(|b| b.start_byte())
            .unwrap_or(definition.end_byte());
        let head = src.get(definition.start_byte()..head_end).unwrap_or("");
        head.contains("override ")
            || (kind_of(definition) == "object_definition"
                && (head.contains("extends App") || head.contains("with App")))
            || kind_of(definition) != "function_definition"
    }

    fn decode_string(&self, node: Node<'_>, src: &str) -> Option<DecodedString> {
        match kind_of(node) {
            "string" => {
                decode_scala_literal(text(node, src), start_line(node), Interpolation::None)
            }
            "interpolated_string_expression" => {
                let interpolator = text(field_of(node, Field::Interpolator)?, src);
                let body = field_of(node, Field::InterpolatedString).or_else(|| {
                    named_children(node)
                        .into_iter()
                        .find(|c| kind_of(*c) == "interpolated_string")
                })?;
                let mut decoded =
                    decode_scala_literal(text(body, src), start_line(body), Interpolation::Dollar)?;
                if interpolator == "raw" {
                    decoded = decode_scala_raw(text(body, src), start_line(body))?;
                }
                Some(decoded)
            }
            "infix_expression" => {
                decode_concatenation(&GRAMMAR, node, "infix_expression", |leaf| {
                    matches!(kind_of(leaf), "string" | "interpolated_string_expression")
                        .then(|| self.decode_string(leaf, src))
                })
            }
            _ => None,
        }
    }

    /// A tuple (`(1, "a")`, a row of `Seq(…).toDF(…)`); `Seq(…)` and friends are factory calls.
    fn collection_items<'t>(&self, node: Node<'t>) -> Option<Vec<Node<'t>>> {
        (kind_of(node) == "tuple_expression").then(|| {
            named_children(node)
                .into_iter()
                .filter(|c| !kind_of(*c).contains("comment"))
                .collect()
        })
    }

    /// `limits.map(n => df.where(…))`, `Seq(1, 3).map { n => … }`: each item is the lambda's
    /// value.
    fn comprehension_item<'t>(&self, node: Node<'t>, src: &str) -> Option<Node<'t>> {
        // `for (c <- cities) yield df.where($"city" === c)`: what it yields for each
        if kind_of(node) == "for_expression" {
            let yields = (0..node.child_count())
                .filter_map(|i| node.child(i))
                .any(|c| c.kind() == "yield");
            return yields.then(|| field_of(node, Field::Body)).flatten();
        }
        let Shape::Call {
            object: Some(_),
            name,
            args: Some(args),
        } = self.shape(node, src)
        else {
            return None;
        };
        if text(name, src) != "map" {
            return None;
        }
        // `(n => …)` or a block `{ n => … }` holding the lambda alone
        let [lambda] = named_children(args)[..] else {
            return None;
        };
        let lambda = match kind_of(lambda) {
            "block" => sole_member(lambda)?,
            _ => lambda,
        };
        (kind_of(lambda) == "lambda_expression")
            .then(|| self.lambda_body(lambda))
            .flatten()
    }

    /// A lambda's body is its last child; the grammar gives it no field.
    fn lambda_body<'t>(&self, lambda: Node<'t>) -> Option<Node<'t>> {
        let last = named_children(lambda).pop()?;
        (Some(last) != field_of(lambda, Field::Parameters)).then_some(last)
    }

    /// `_ union _`, `_.union(_)`: a placeholder function applying a method to its two arguments.
    fn referenced_method<'t>(&self, function: Node<'t>, src: &str) -> Option<Node<'t>> {
        let is_placeholder = |n: Option<Node<'_>>| n.is_some_and(|n| kind_of(n) == "wildcard");
        match kind_of(function) {
            "infix_expression" => {
                let operator = field_of(function, Field::Operator)?;
                (is_placeholder(field_of(function, Field::Left))
                    && is_placeholder(field_of(function, Field::Right))
                    && kind_of(operator) == "identifier")
                    .then_some(operator)
            }
            _ => match self.shape(function, src) {
                Shape::Call {
                    object,
                    name,
                    args: Some(args),
                } if is_placeholder(object)
                    && matches!(named_children(args)[..], [only] if is_placeholder(Some(only))) =>
                {
                    Some(name)
                }
                _ => None,
            },
        }
    }

    fn column_symbol_name(&self, node: Node<'_>, src: &str) -> Option<String> {
        match kind_of(node) {
            "symbol_literal" | "quote_expression" => {
                Some(text(node, src).trim_start_matches('\'').to_string())
            }
            _ => {
                let body = field_of(node, Field::InterpolatedString).or_else(|| {
                    named_children(node)
                        .into_iter()
                        .find(|c| kind_of(*c) == "interpolated_string")
                })?;
                Some(text(body, src).trim_matches('"').to_string())
            }
        }
    }
}

/// The members that really belong to an indented block: its non-comment children from the first
/// one on, while they start at least at the first one's column.
///
/// tree-sitter-scala lets the block of `val x =⏎  expr` swallow what follows it — a trailing
/// comment, and sometimes the next, *less* indented statements. Those are no part of the value:
/// they must neither widen the `val` statement nor turn `expr` into a statement of its own.
fn own_members(block: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = block.walk();
    let mut members = block
        .named_children(&mut cursor)
        .filter(|c| !kind_of(*c).contains("comment"));
    let Some(first) = members.next() else {
        return Vec::new();
    };
    let column = first.start_position().column;
    let mut out = vec![first];
    out.extend(members.take_while(|c| c.start_position().column >= column));
    out
}

/// The one member of an indented block, when [`own_members`] would list exactly one.
///
/// Asked for every child of every indented block (`is_statement`) and every block itself
/// (`shape`), so it stops at the second member instead of listing them all — listing them made
/// a block of n statements cost n² child visits.
fn sole_member(block: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = block.walk();
    let mut members = block
        .named_children(&mut cursor)
        .filter(|c| !kind_of(*c).contains("comment"));
    let first = members.next()?;
    let column = first.start_position().column;
    match members.next() {
        Some(second) if second.start_position().column >= column => None,
        _ => Some(first),
    }
}

fn decode_scala_literal(
    literal: &str,
    line: u32,
    interpolation: Interpolation,
) -> Option<DecodedString> {
    let triple = literal.starts_with("\"\"\"");
    let quote = if triple { 3 } else { 1 };
    let body = literal.get(quote..literal.len().checked_sub(quote)?)?;
    Some(decode(LiteralBody {
        body,
        start_line: line,
        escapes: !triple,
        interpolation,
    }))
}

fn decode_scala_raw(literal: &str, line: u32) -> Option<DecodedString> {
    let quote = if literal.starts_with("\"\"\"") { 3 } else { 1 };
    let body = literal.get(quote..literal.len().checked_sub(quote)?)?;
    Some(decode(LiteralBody {
        body,
        start_line: line,
        escapes: false,
        interpolation: Interpolation::Dollar,
    }))
}

/// A `/** … */` comment right before a definition (Scala and Java), without its stars.
/// Shared with the Java adapter, so it asks the node itself for kinds rather than this grammar's
/// table (the ids differ between grammars).
pub fn doc_comment_before(definition: Node<'_>, src: &str) -> Option<String> {
    let mut previous = definition.prev_sibling();
    // Skip annotations / modifiers that sit between the doc comment and the definition.
    while let Some(p) = previous {
        if p.kind() == "annotation" || p.kind() == "modifiers" {
            previous = p.prev_sibling();
        } else {
            break;
        }
    }
    let comment = previous?;
    let raw = text(comment, src);
    if !(comment.kind().contains("comment") && raw.starts_with("/**")) {
        return None;
    }
    let cleaned: Vec<&str> = raw
        .trim_start_matches("/**")
        .trim_end_matches("*/")
        .lines()
        .map(|l| l.trim().trim_start_matches('*').trim())
        .filter(|l| !l.is_empty())
        .collect();
    let doc = cleaned.join(" ");
    (!doc.is_empty()).then(|| crate::code::strings::capped(&doc, 500))
}

#[cfg(test)]
mod adapter_tests {
    use super::super::assert_chains;
    use super::*;

    #[test]
    fn chains_of_vals_symbols_and_an_object_body() {
        let source = r#"
object Revenue {
  def main(args: Array[String]): Unit = {
    val orders = spark.read.parquet("orders")
    val byRegion = orders
      .where($"status" === "SHIPPED")
      .groupBy('region)
      .agg(sum("amount").as("revenue"))
    byRegion.orderBy(desc("revenue")).show()
  }
}
"#;
        assert_chains(
            &Scala,
            source,
            &[
                "spark.read.parquet",
                "orders.where.groupBy.agg",
                "byRegion.orderBy.show",
            ],
        );
    }
}
