//! Inline rows: the class of each column of the rows a `createDataFrame` call writes out, as
//! Spark infers it. Python's whole numbers are longs — the plan marks such a column's id with `L`
//! (`id#0L`) — and its strings, floats and booleans are not. Only rows given with a list of
//! column names say anything: an explicit schema (`StructType`) decides the types itself, and a
//! column holding values of both classes, or values that are not literals, says nothing.

use super::*;
use crate::code::index::InlineColumn;

/// Most rows read to classify a column (data lists can be long; a class is settled early).
const ROWS_READ: usize = 64;

/// What one column's values say about its type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Long,
    NotLong,
    Unknown,
}

impl<'a> Extractor<'a> {
    /// The classified columns of `createDataFrame(data, ["a", "b"])` (positional or `data=` /
    /// `schema=`), the data written inline or held by a variable; empty for anything else.
    pub(super) fn inline_columns(&self, method: &str, args: Node<'a>) -> Vec<InlineColumn> {
        if method != "createDataFrame" || self.adapter.language() != Language::Python {
            return Vec::new();
        }
        let src = self.src;
        let (mut data, mut schema) = (None, None);
        let mut position = 0;
        for arg in named_children(args) {
            match self.adapter.shape(arg, src) {
                Shape::Keyword { name, value } => match text(name, src) {
                    "data" => data = Some(value),
                    "schema" => schema = Some(value),
                    _ => {}
                },
                _ if arg.kind().contains("comment") => {}
                _ => {
                    match position {
                        0 => data = Some(arg),
                        1 => schema = Some(arg),
                        _ => {}
                    }
                    position += 1;
                }
            }
        }
        let (Some(data), Some(schema)) = (data, schema) else {
            return Vec::new();
        };
        let Some(names) = self.literal_items(schema).and_then(|items| {
            items
                .into_iter()
                .map(|n| match self.adapter.shape(n, src) {
                    Shape::Str => self.adapter.decode_string(n, src).map(|d| d.text),
                    _ => None,
                })
                .collect::<Option<Vec<String>>>()
        }) else {
            return Vec::new();
        };
        let Some(rows) = self.literal_items(data) else {
            return Vec::new();
        };
        let mut classes = vec![None; names.len()];
        for row in rows.into_iter().take(ROWS_READ) {
            let Some(values) = self.adapter.collection_items(self.unwrap_parens(row)) else {
                return Vec::new();
            };
            if values.len() != names.len() {
                return Vec::new();
            }
            for (class, value) in classes.iter_mut().zip(values) {
                let Some(seen) = self.class_of(value) else {
                    continue; // a null fits any class
                };
                *class = match *class {
                    None => Some(seen),
                    Some(earlier) if earlier == seen => Some(seen),
                    Some(_) => Some(Class::Unknown),
                };
            }
        }
        names
            .into_iter()
            .zip(classes)
            .filter_map(|(name, class)| match class? {
                Class::Long => Some(InlineColumn { name, long: true }),
                Class::NotLong => Some(InlineColumn { name, long: false }),
                Class::Unknown => None,
            })
            .collect()
    }

    /// The items of a literal collection written here or held by a variable.
    fn literal_items(&self, node: Node<'a>) -> Option<Vec<Node<'a>>> {
        let node = self.unwrap_parens(node);
        if let Shape::Ident = self.adapter.shape(node, self.src) {
            return match self.lookup_value(text(node, self.src))? {
                FoldValue::Collection(value) => self.adapter.collection_items(*value),
                _ => None,
            };
        }
        self.adapter.collection_items(node)
    }

    /// The class of one literal value; `None` for a null.
    fn class_of(&self, value: Node<'a>) -> Option<Class> {
        let src = self.src;
        Some(match self.adapter.shape(value, src) {
            Shape::Number => {
                let number = text(value, src).to_ascii_lowercase();
                let whole = !number.contains(['.', 'e', 'j']) || number.starts_with("0x");
                if whole { Class::Long } else { Class::NotLong }
            }
            Shape::Str | Shape::Bool if text(value, src) == "None" => return None,
            Shape::Str | Shape::Bool => Class::NotLong,
            _ => Class::Unknown,
        })
    }
}
