//! Python adapter (tree-sitter-python): PySpark chains, f-strings, docstrings and SQL built
//! from literals (`"select …" "from …"`, `"select … " + "where …"`).

use super::{
    Definition, Field, Grammar, LanguageAdapter, Shape, decode_concatenation,
    is_string_concatenation, named_children, start_line, text,
};
use crate::code::index::{Language, SymbolKind};
use crate::code::strings::{DecodedString, Interpolation, LiteralBody, decode};
use std::sync::LazyLock;
use tree_sitter::Node;

static GRAMMAR: LazyLock<Grammar> =
    LazyLock::new(|| Grammar::new(&tree_sitter_python::LANGUAGE.into()));

fn kind_of(node: Node<'_>) -> &'static str {
    GRAMMAR.kind(node)
}

fn field_of<'t>(node: Node<'t>, field: Field) -> Option<Node<'t>> {
    GRAMMAR.field(node, field)
}

pub struct Python;

/// A string literal node: one literal, or adjacent ones (`"a" "b"`).
fn is_literal(kind: &str) -> bool {
    matches!(kind, "string" | "concatenated_string")
}

impl LanguageAdapter for Python {
    fn language(&self) -> Language {
        Language::Python
    }

    fn name(&self) -> &'static str {
        "python"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["py"]
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_python::LANGUAGE.into()
    }

    fn highlights_query(&self) -> &'static str {
        tree_sitter_python::HIGHLIGHTS_QUERY
    }

    fn shape<'t>(&self, node: Node<'t>, src: &str) -> Shape<'t> {
        match kind_of(node) {
            "call" => {
                let args = field_of(node, Field::Arguments);
                let Some(function) = field_of(node, Field::Function) else {
                    return Shape::Other;
                };
                match kind_of(function) {
                    "attribute" => match (
                        field_of(function, Field::Object),
                        field_of(function, Field::Attribute),
                    ) {
                        (Some(object), Some(name)) => Shape::Call {
                            object: Some(object),
                            name,
                            args,
                        },
                        _ => Shape::Other,
                    },
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
            "attribute" => match (
                field_of(node, Field::Object),
                field_of(node, Field::Attribute),
            ) {
                (Some(object), Some(name)) => Shape::Member { object, name },
                _ => Shape::Other,
            },
            "subscript" => match (
                field_of(node, Field::Value),
                field_of(node, Field::Subscript),
            ) {
                (Some(object), Some(index)) => Shape::Index { object, index },
                _ => Shape::Other,
            },
            "identifier" => Shape::Ident,
            "string" | "concatenated_string" => Shape::Str,
            "binary_operator"
                if is_string_concatenation(&GRAMMAR, node, src, "binary_operator", is_literal) =>
            {
                Shape::Str
            }
            "integer" | "float" => Shape::Number,
            "true" | "false" | "none" => Shape::Bool,
            "keyword_argument" => match (field_of(node, Field::Name), field_of(node, Field::Value))
            {
                (Some(name), Some(value)) => Shape::Keyword { name, value },
                _ => Shape::Other,
            },
            "pair" => match (field_of(node, Field::Key), field_of(node, Field::Value)) {
                (Some(key), Some(value)) => Shape::Pair { key, value },
                _ => Shape::Other,
            },
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) if node.named_child_count() == 1 => Shape::Paren(inner),
                _ => Shape::Other,
            },
            "lambda" | "comment" => Shape::Lambda,
            _ => Shape::Other,
        }
    }

    fn is_statement(&self, node: Node<'_>, parent: Option<Node<'_>>) -> bool {
        matches!(
            kind_of(node),
            "expression_statement" | "return_statement" | "assert_statement"
        ) || parent.is_some_and(|parent| is_tested_expression(node, parent))
    }

    fn loop_variable(
        &self,
        iterable: Node<'_>,
        parent: Option<Node<'_>>,
        src: &str,
    ) -> Option<String> {
        let parent = parent.filter(|p| kind_of(*p) == "for_statement")?;
        let variable = field_of(parent, Field::Left)?;
        (field_of(parent, Field::Right) == Some(iterable) && kind_of(variable) == "identifier")
            .then(|| text(variable, src).to_string())
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
        let (left, right) = assignment_sides(statement)?;
        match kind_of(left) {
            "identifier" | "attribute" => Some((text(left, src).to_string(), right)),
            _ => None,
        }
    }

    fn declared_type<'t>(&self, statement: Node<'t>) -> Option<Node<'t>> {
        let assignment = statement.named_child(0)?;
        (kind_of(assignment) == "assignment")
            .then(|| field_of(assignment, Field::Type))
            .flatten()
    }

    fn unpacked_assignment<'t>(
        &self,
        statement: Node<'t>,
        src: &str,
    ) -> Option<(Vec<String>, Node<'t>)> {
        let (left, right) = assignment_sides(statement)?;
        if !matches!(
            kind_of(left),
            "pattern_list" | "tuple_pattern" | "list_pattern"
        ) {
            return None;
        }
        let names = named_children(left)
            .into_iter()
            .map(|n| (kind_of(n) == "identifier").then(|| text(n, src).to_string()))
            .collect::<Option<Vec<_>>>()?;
        Some((names, right))
    }

    fn definition<'t>(&self, node: Node<'t>, _src: &str) -> Option<Definition<'t>> {
        let kind = match kind_of(node) {
            "function_definition" => SymbolKind::Function,
            "class_definition" => SymbolKind::Class,
            _ => return None,
        };
        Some(Definition {
            kind,
            name: field_of(node, Field::Name)?,
        })
    }

    fn doc(&self, definition: Node<'_>, src: &str) -> Option<String> {
        let body = field_of(definition, Field::Body)?;
        let first = body.named_child(0)?;
        if kind_of(first) != "expression_statement" {
            return None;
        }
        let string = first.named_child(0)?;
        if kind_of(string) != "string" {
            return None;
        }
        let doc = self.decode_string(string, src)?.text;
        let doc = doc.trim();
        (!doc.is_empty()).then(|| crate::code::strings::capped(doc, 500))
    }

    fn is_entry_point(&self, definition: Node<'_>, name: &str, _src: &str) -> bool {
        name == "main"
            || (name.starts_with("__") && name.ends_with("__"))
            || name.starts_with("test")
            // Decorated: the decorator is the previous sibling inside `decorated_definition`
            // (cheaper than `Node::parent`, which walks down from the root).
            || definition
                .prev_sibling()
                .is_some_and(|p| kind_of(p) == "decorator")
    }

    fn decode_string(&self, node: Node<'_>, src: &str) -> Option<DecodedString> {
        match kind_of(node) {
            "string" => decode_python_literal(text(node, src), start_line(node)),
            "concatenated_string" => {
                let mut out = DecodedString::default();
                for part in named_children(node) {
                    if kind_of(part) == "string" {
                        out.append(decode_python_literal(text(part, src), start_line(part))?);
                    }
                }
                (!out.lines.is_empty()).then_some(out)
            }
            "binary_operator" => decode_concatenation(&GRAMMAR, node, "binary_operator", |leaf| {
                is_literal(kind_of(leaf)).then(|| self.decode_string(leaf, src))
            }),
            _ => None,
        }
    }

    fn collection_items<'t>(&self, node: Node<'t>) -> Option<Vec<Node<'t>>> {
        matches!(kind_of(node), "list" | "tuple" | "set").then(|| {
            named_children(node)
                .into_iter()
                .filter(|c| kind_of(*c) != "comment")
                .collect()
        })
    }

    fn comprehension_item<'t>(&self, node: Node<'t>, _src: &str) -> Option<Node<'t>> {
        matches!(kind_of(node), "list_comprehension" | "generator_expression")
            .then(|| node.child_by_field_name("body"))
            .flatten()
    }

    fn is_main_guard(&self, node: Node<'_>, src: &str) -> bool {
        kind_of(node) == "if_statement"
            && field_of(node, Field::Condition).is_some_and(|c| {
                let t = text(c, src);
                t.contains("__name__") && t.contains("__main__")
            })
    }
}

/// `rb"…"`, `f'''…'''`, `"…"`: split the prefix and quotes off and decode the body.
fn decode_python_literal(literal: &str, line: u32) -> Option<DecodedString> {
    let prefix_len = literal.find(['"', '\''])?;
    let prefix = literal.get(..prefix_len)?.to_ascii_lowercase();
    let rest = literal.get(prefix_len..)?;
    let quote = if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
        3
    } else {
        1
    };
    let body = rest.get(quote..rest.len().checked_sub(quote)?)?;
    Some(decode(LiteralBody {
        body,
        start_line: line,
        escapes: !prefix.contains('r'),
        interpolation: if prefix.contains('f') {
            Interpolation::Braces
        } else {
            Interpolation::None
        },
    }))
}

/// The target and the value of an assignment statement (`x = …`, `a, b = …`).
fn assignment_sides(statement: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    let assignment = statement.named_child(0)?;
    if kind_of(assignment) != "assignment" {
        return None;
    }
    Some((
        field_of(assignment, Field::Left)?,
        field_of(assignment, Field::Right)?,
    ))
}

/// Whether `node` is the expression a compound statement tests or walks over — the condition of
/// an `if` / `elif` / `while`, the iterable of a `for` (`if df.filter(…).count() > 0:`, `for row
/// in df.collect():`): Spark runs the frame it acts on there, as in a statement of its own.
fn is_tested_expression(node: Node<'_>, parent: Node<'_>) -> bool {
    match kind_of(parent) {
        "if_statement" | "elif_clause" | "while_statement" => {
            field_of(parent, Field::Condition) == Some(node)
        }
        "for_statement" => field_of(parent, Field::Right) == Some(node),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::assert_chains;
    use super::*;

    #[test]
    fn chains_across_lines_keyword_arguments_and_the_main_guard() {
        let source = r#"
from pyspark.sql import functions as F

def report(spark, path):
    orders = spark.read.parquet(path)
    shipped = orders.filter(F.col("status") == "SHIPPED") \
        .groupBy("region") \
        .agg(F.sum("amount").alias("revenue"))
    return shipped.orderBy(F.desc("revenue"))

if __name__ == "__main__":
    report(spark, "data/orders.parquet").write.mode("overwrite").parquet("out")
"#;
        assert_chains(
            &Python,
            source,
            &[
                "spark.read.parquet",
                "orders.filter.groupBy.agg",
                "shipped.orderBy",
                "report(…).report.write.mode.parquet",
            ],
        );
    }

    #[test]
    fn sql_built_with_plus_is_read_clause_by_clause_with_its_lines() {
        let source = r#"
spark.sql("select Seqno, Name from NAME_TABLE " + \
          "where Name is not null and Seqno > 1") \
     .show()
"#;
        let extract = crate::code::lang::extract_file(&Python, source, "", Default::default());
        let sql = extract.sql.first().expect("one SQL statement");
        assert!(sql.parsed, "{sql:?}");
        assert_eq!((sql.lines.start, sql.lines.end), (2, 3));
        let predicate = sql
            .clauses
            .iter()
            .find(|c| c.text.contains("Seqno > 1"))
            .expect("the WHERE conjunct");
        assert_eq!(predicate.lines.start, 3, "{predicate:?}");
        // `1 + 2` builds no string
        let arithmetic =
            crate::code::lang::extract_file(&Python, "x = 1 + 2\n", "", Default::default());
        assert!(arithmetic.sql.is_empty());
    }
}
