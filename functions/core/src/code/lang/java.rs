//! Java adapter (tree-sitter-java): `functions.col("x")` / static-imported `col("x")`,
//! `Dataset<Row> df = …` declarations, text blocks and `"…" + "…"` SQL concatenation.

use super::scala::doc_comment_before;
use super::{
    Definition, Field, Grammar, LanguageAdapter, Shape, decode_concatenation,
    is_string_concatenation, named_children, start_line, text,
};
use crate::code::index::{Language, SymbolKind};
use crate::code::strings::{DecodedString, Interpolation, LiteralBody, decode};
use std::sync::LazyLock;
use tree_sitter::Node;

static GRAMMAR: LazyLock<Grammar> =
    LazyLock::new(|| Grammar::new(&tree_sitter_java::LANGUAGE.into()));

fn kind_of(node: Node<'_>) -> &'static str {
    GRAMMAR.kind(node)
}

fn field_of<'t>(node: Node<'t>, field: Field) -> Option<Node<'t>> {
    GRAMMAR.field(node, field)
}

pub struct Java;

impl LanguageAdapter for Java {
    fn language(&self) -> Language {
        Language::Java
    }

    fn name(&self) -> &'static str {
        "java"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["java"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_java::LANGUAGE.into()
    }

    fn highlights_query(&self) -> &'static str {
        tree_sitter_java::HIGHLIGHTS_QUERY
    }

    fn shape<'t>(&self, node: Node<'t>, src: &str) -> Shape<'t> {
        match kind_of(node) {
            "method_invocation" => match field_of(node, Field::Name) {
                Some(name) => Shape::Call {
                    object: field_of(node, Field::Object),
                    name,
                    args: field_of(node, Field::Arguments),
                },
                None => Shape::Other,
            },
            "field_access" => match (field_of(node, Field::Object), field_of(node, Field::Field)) {
                (Some(object), Some(name)) => Shape::Member { object, name },
                _ => Shape::Other,
            },
            "array_access" => match (field_of(node, Field::Array), field_of(node, Field::Index)) {
                (Some(object), Some(index)) => Shape::Index { object, index },
                _ => Shape::Other,
            },
            "identifier" => Shape::Ident,
            "string_literal" => Shape::Str,
            "binary_expression"
                if is_string_concatenation(&GRAMMAR, node, src, "binary_expression", |k| {
                    k == "string_literal"
                }) =>
            {
                Shape::Str
            }
            "decimal_integer_literal"
            | "hex_integer_literal"
            | "decimal_floating_point_literal" => Shape::Number,
            "true" | "false" | "null_literal" => Shape::Bool,
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) if node.named_child_count() == 1 => Shape::Paren(inner),
                _ => Shape::Other,
            },
            "lambda_expression" | "line_comment" | "block_comment" => Shape::Lambda,
            _ => Shape::Other,
        }
    }

    fn is_statement(&self, node: Node<'_>, parent: Option<Node<'_>>) -> bool {
        matches!(
            kind_of(node),
            "expression_statement"
                | "local_variable_declaration"
                | "return_statement"
                | "field_declaration"
        ) || parent.is_some_and(|parent| is_tested_expression(node, parent))
    }

    fn loop_variable(
        &self,
        iterable: Node<'_>,
        parent: Option<Node<'_>>,
        src: &str,
    ) -> Option<String> {
        let parent = parent.filter(|p| kind_of(*p) == "enhanced_for_statement")?;
        (field_of(parent, Field::Value) == Some(iterable))
            .then(|| field_of(parent, Field::Name))
            .flatten()
            .map(|name| text(name, src).to_string())
    }

    fn returned_value<'t>(
        &self,
        statement: Node<'t>,
        _parent: Option<Node<'t>>,
    ) -> Option<Node<'t>> {
        (kind_of(statement) == "return_statement")
            .then(|| statement.named_child(0))
            .flatten()
    }

    fn assignment<'t>(&self, statement: Node<'t>, src: &str) -> Option<(String, Node<'t>)> {
        match kind_of(statement) {
            "local_variable_declaration" | "field_declaration" => {
                let declarator = field_of(statement, Field::Declarator)?;
                let name = field_of(declarator, Field::Name)?;
                let value = field_of(declarator, Field::Value)?;
                Some((text(name, src).to_string(), value))
            }
            "expression_statement" => {
                let expression = statement.named_child(0)?;
                if kind_of(expression) != "assignment_expression" {
                    return None;
                }
                let left = field_of(expression, Field::Left)?;
                let right = field_of(expression, Field::Right)?;
                Some((text(left, src).to_string(), right))
            }
            _ => None,
        }
    }

    fn declared_type<'t>(&self, statement: Node<'t>) -> Option<Node<'t>> {
        match kind_of(statement) {
            "local_variable_declaration" | "field_declaration" => field_of(statement, Field::Type),
            _ => None,
        }
    }

    fn calls_may_construct(&self) -> bool {
        false
    }

    fn collection_items<'t>(&self, node: Node<'t>) -> Option<Vec<Node<'t>>> {
        let initializer = match kind_of(node) {
            "array_initializer" => node,
            "array_creation_expression" => field_of(node, Field::Value)?,
            _ => return None,
        };
        Some(
            named_children(initializer)
                .into_iter()
                .filter(|c| !kind_of(*c).contains("comment"))
                .collect(),
        )
    }

    /// `limits.stream().map(n -> df.where(…)).collect(Collectors.toList())` (or `.toList()`).
    fn comprehension_item<'t>(&self, node: Node<'t>, src: &str) -> Option<Node<'t>> {
        let Shape::Call {
            object: Some(mapped),
            name,
            ..
        } = self.shape(node, src)
        else {
            return None;
        };
        if !matches!(text(name, src), "collect" | "toList") {
            return None;
        }
        let Shape::Call {
            name,
            args: Some(args),
            ..
        } = self.shape(mapped, src)
        else {
            return None;
        };
        let [lambda] = named_children(args)[..] else {
            return None;
        };
        (text(name, src) == "map" && kind_of(lambda) == "lambda_expression")
            .then(|| self.lambda_body(lambda))
            .flatten()
    }

    /// `Dataset::union`: a method reference names its method last.
    fn referenced_method<'t>(&self, function: Node<'t>, _src: &str) -> Option<Node<'t>> {
        (kind_of(function) == "method_reference")
            .then(|| named_children(function).pop())
            .flatten()
            .filter(|method| kind_of(*method) == "identifier")
    }

    fn definition<'t>(&self, node: Node<'t>, _src: &str) -> Option<Definition<'t>> {
        let kind = match kind_of(node) {
            "method_declaration" | "constructor_declaration" => SymbolKind::Function,
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration" => SymbolKind::Class,
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

    /// Java methods are reachable from outside unless private (reflection, frameworks,
    /// `public static void main`), so only private methods can be dead.
    fn is_entry_point(&self, definition: Node<'_>, name: &str, src: &str) -> bool {
        if name == "main" || kind_of(definition) != "method_declaration" {
            return true;
        }
        let modifiers = named_children(definition)
            .into_iter()
            .find(|c| kind_of(*c) == "modifiers")
            .map(|m| text(m, src))
            .unwrap_or("");
        !modifiers.contains("private") || modifiers.contains('@')
    }

    fn decode_string(&self, node: Node<'_>, src: &str) -> Option<DecodedString> {
        match kind_of(node) {
            "string_literal" => decode_java_literal(text(node, src), start_line(node)),
            "binary_expression" => {
                decode_concatenation(&GRAMMAR, node, "binary_expression", |leaf| {
                    (kind_of(leaf) == "string_literal")
                        .then(|| decode_java_literal(text(leaf, src), start_line(leaf)))
                })
            }
            _ => None,
        }
    }
}

/// `"…"` or a `"""` text block (its body starts on the line after the opening quotes).
fn decode_java_literal(literal: &str, line: u32) -> Option<DecodedString> {
    if let Some(rest) = literal.strip_prefix("\"\"\"") {
        let newline = rest.find('\n')?;
        let body = rest.get(newline + 1..rest.len().checked_sub(3)?)?;
        return Some(decode(LiteralBody {
            body,
            start_line: line + 1,
            escapes: true,
            interpolation: Interpolation::None,
        }));
    }
    let body = literal.get(1..literal.len().checked_sub(1)?)?;
    Some(decode(LiteralBody {
        body,
        start_line: line,
        escapes: true,
        interpolation: Interpolation::None,
    }))
}

/// Whether `node` is the expression a compound statement tests or walks over — the condition of
/// an `if` / `while` / `do`, the collection of a `for (Row r : …)` (`if (df.filter(…).count() >
/// 0)`, `for (Row r : df.collectAsList())`): Spark runs the frame it acts on there, as in a
/// statement of its own.
fn is_tested_expression(node: Node<'_>, parent: Node<'_>) -> bool {
    match kind_of(parent) {
        "if_statement" | "while_statement" | "do_statement" => {
            field_of(parent, Field::Condition) == Some(node)
        }
        "enhanced_for_statement" => field_of(parent, Field::Value) == Some(node),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::assert_chains;
    use super::*;

    #[test]
    fn chains_of_typed_declarations_and_static_imports() {
        let source = r#"
class Orders {
  static void run(SparkSession spark) {
    Dataset<Row> orders = spark.read().parquet("orders");
    Dataset<Row> shipped = orders.filter(col("status").equalTo("SHIPPED"))
        .groupBy(col("region"))
        .agg(sum("amount").alias("revenue"));
    shipped.orderBy(desc("revenue")).show();
  }
}
"#;
        assert_chains(
            &Java,
            source,
            &[
                "spark.read.parquet",
                "orders.filter.groupBy.agg",
                "shipped.orderBy.show",
            ],
        );
    }
}
