//! Inline rows: what a call building a frame from rows written out says about its columns.
//! Their names, in order (`createDataFrame(data, ["id", "name"])`, `toDF("id", "name")`), which is
//! what `df.columns[1:]` later selects; and the class of each column as Spark infers it. Python's
//! whole numbers are longs — the plan marks such a column's id with `L` (`id#0L`) — and Scala's
//! are ints unless written `1L`; strings, floats and booleans are no longs. An explicit schema (a
//! `StructType`, `"id long, name string"`) names the types itself; otherwise only rows given with
//! a list of column names say anything (`createDataFrame(data, ["id", …])`,
//! `Seq(…).toDF("id", …)`), and a column holding values of both classes, or values that are not
//! literals, says nothing.

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
    /// The classified columns of the rows a call writes out: `createDataFrame(data, schema)`,
    /// or `toDF("a", "b")` over rows (`Seq((1, "a")).toDF(…)`, `data.toDF(…)`,
    /// `createDataFrame(data).toDF(…)`, `parallelize(data).toDF(…)`). `previous` is the call
    /// before it in its chain (method, call, arguments), `base` the variable the chain starts
    /// from; empty for any other call.
    pub(super) fn inline_columns(
        &self,
        method: &str,
        args: Node<'a>,
        previous: Option<(&str, Node<'a>, Option<Node<'a>>)>,
        base: Option<Node<'a>>,
    ) -> Vec<InlineColumn> {
        match method {
            "createDataFrame" | "createDF" => self.created_columns(args),
            "toDF" => {
                let data = match previous {
                    None => base,
                    Some(("createDataFrame" | "parallelize", _, Some(args))) => {
                        self.data_and_schema(args).0
                    }
                    Some((_, call, _)) if self.collection_items(call).is_some() => Some(call),
                    Some(_) => None,
                };
                match (data, self.frame_column_names("toDF", args)) {
                    (Some(data), Some(names)) => self.classified(data, names),
                    _ => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    /// `createDataFrame(data, schema)` (positional or `data=` / `schema=`): an explicit schema's
    /// types, else the classes of the rows under a list of names.
    fn created_columns(&self, args: Node<'a>) -> Vec<InlineColumn> {
        let (data, Some(schema)) = self.data_and_schema(args) else {
            return Vec::new();
        };
        // An explicit schema decides the types itself, whatever the rows hold.
        if let Some(fields) = self.schema_fields(schema) {
            return fields
                .into_iter()
                .filter_map(|(name, long)| Some(InlineColumn { name, long: long? }))
                .collect();
        }
        match (data, self.literal_names(schema)) {
            (Some(data), Some(names)) => self.classified(data, names),
            _ => Vec::new(),
        }
    }

    /// The fields of an explicit schema: a `StructType` written here or held by a variable, or a
    /// DDL string (`"id long, name string"`), each with whether its type is a long.
    fn schema_fields(&self, schema: Node<'a>) -> Option<Vec<(String, Option<bool>)>> {
        let schema = self.unwrap_parens(schema);
        let fields = match self.adapter.shape(schema, self.src) {
            Shape::Str => ddl_fields(&self.string_of(schema)?)?,
            Shape::Ident => match self.lookup_value(text(schema, self.src))? {
                FoldValue::Struct(fields) => fields.clone(),
                FoldValue::Str(node) => ddl_fields(&self.string_of(*node)?)?,
                _ => return None,
            },
            _ => match self.struct_fields(schema) {
                fields if fields.is_empty() => self.triple_fields(schema).unwrap_or_default(),
                fields => fields,
            },
        };
        (!fields.is_empty()).then_some(fields)
    }

    /// spark-daria's schema for `createDF`: `List(("name", StringType, true), …)`, each field a
    /// (name, type, nullable) triple.
    fn triple_fields(&self, schema: Node<'a>) -> Option<Vec<(String, Option<bool>)>> {
        self.literal_items(schema)?
            .into_iter()
            .map(|item| {
                let parts = self.adapter.collection_items(self.unwrap_parens(item))?;
                let [name, field_type, _nullable] = parts.as_slice() else {
                    return None;
                };
                let long = super::folding::type_is_long(text(*field_type, self.src));
                Some((self.string_of(*name)?, long))
            })
            .collect()
    }

    /// The columns `names` of the rows in `data`, each with its class when all its values agree.
    fn classified(&self, data: Node<'a>, names: Vec<String>) -> Vec<InlineColumn> {
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

    /// The columns a call building a frame names, in order: `createDataFrame(data, ["a", "b"])`,
    /// `createDF(rows, List(("a", StringType, true)))`, `toDF("a", "b")`, `toDF(["a", "b"])`.
    pub(super) fn frame_column_names(&self, method: &str, args: Node<'a>) -> Option<Vec<String>> {
        match method {
            "createDataFrame" | "createDF" => {
                let schema = self.data_and_schema(args).1?;
                match self.schema_fields(schema) {
                    Some(fields) => Some(fields.into_iter().map(|(name, _)| name).collect()),
                    None => self.literal_names(schema),
                }
            }
            "toDF" => {
                let args = named_children(args);
                match &args[..] {
                    [one] if self.literal_items(*one).is_some() => self.literal_names(*one),
                    _ => args.into_iter().map(|a| self.string_of(a)).collect(),
                }
            }
            _ => None,
        }
    }

    /// The frame and its columns `df.columns` names (`Some` only for a frame whose columns the
    /// code listed).
    pub(super) fn listed_columns(
        &self,
        object: Node<'a>,
        member: Node<'a>,
    ) -> Option<(&str, &[String])> {
        if text(member, self.src) != "columns" {
            return None;
        }
        let owner = text(object, self.src);
        self.frame_columns.get(owner).map(|c| (owner, c.as_slice()))
    }

    /// The frame and the columns `df.columns[i]` / `df.columns[a:b:c]` select, as Python indexes
    /// and slices the frame's listed columns.
    pub(super) fn indexed_columns(
        &self,
        object: Node<'a>,
        index: Node<'a>,
    ) -> Option<(&str, Vec<String>)> {
        let Shape::Member { object, name } = self.adapter.shape(object, self.src) else {
            return None;
        };
        let (owner, columns) = self.listed_columns(object, name)?;
        let picked = python_index(columns.len(), text(index, self.src))?;
        Some((
            owner,
            picked.into_iter().map(|i| columns[i].clone()).collect(),
        ))
    }

    /// `createDataFrame`'s data and schema arguments, positional or by keyword.
    fn data_and_schema(&self, args: Node<'a>) -> (Option<Node<'a>>, Option<Node<'a>>) {
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
        (data, schema)
    }

    /// The strings of a literal collection of strings only (a list of column names).
    fn literal_names(&self, node: Node<'a>) -> Option<Vec<String>> {
        self.literal_items(node)?
            .into_iter()
            .map(|n| self.string_of(n))
            .collect()
    }

    fn string_of(&self, node: Node<'a>) -> Option<String> {
        self.string_value(node).map(|(decoded, _)| decoded.text)
    }

    /// The items of a literal collection written here or held by a variable.
    fn literal_items(&self, node: Node<'a>) -> Option<Vec<Node<'a>>> {
        let node = self.unwrap_parens(node);
        if let Shape::Ident = self.adapter.shape(node, self.src) {
            return match self.lookup_value(text(node, self.src))? {
                FoldValue::Collection(value) => self.collection_items(*value),
                FoldValue::Items(items) => Some(items.clone()),
                _ => None,
            };
        }
        self.collection_items(node)
    }

    /// The class of one literal value; `None` for a null.
    fn class_of(&self, value: Node<'a>) -> Option<Class> {
        let src = self.src;
        Some(match self.adapter.shape(value, src) {
            Shape::Number => {
                let number = text(value, src).to_ascii_lowercase();
                let whole = !number.contains(['.', 'e', 'j']) || number.starts_with("0x");
                // Python's whole numbers are longs; Scala's and Java's only when written `1L`.
                let long = match self.adapter.language() {
                    Language::Python => whole,
                    _ => whole && number.ends_with('l'),
                };
                if long { Class::Long } else { Class::NotLong }
            }
            Shape::Bool if text(value, src) == "None" => return None,
            Shape::Str | Shape::Bool => Class::NotLong,
            _ => Class::Unknown,
        })
    }
}

/// The fields of a DDL schema string (`"id long, name string"`, `"id BIGINT, tags ARRAY<STRING>"`):
/// each name with whether its type is a long; `None` for a string that is no such list.
fn ddl_fields(ddl: &str) -> Option<Vec<(String, Option<bool>)>> {
    let mut fields = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let mut items = Vec::new();
    for (i, c) in ddl.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&ddl[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&ddl[start..]);
    for item in items {
        let mut words = item.split_whitespace();
        let name = words.next()?.trim_end_matches(':').trim_matches('`');
        let field_type = words.next()?;
        let long = super::folding::type_is_long(field_type);
        let lower = field_type.to_ascii_lowercase();
        let complex = ["array<", "map<", "struct<", "varchar(", "char("]
            .iter()
            .any(|t| lower.starts_with(t));
        // a name with a space in it (`"first name"`) is no schema
        if long.is_none() && !complex {
            return None;
        }
        fields.push((name.to_owned(), long));
    }
    Some(fields)
}

/// The column names a DDL schema string lists (`"id long, name string"` → `id`, `name`).
pub(super) fn ddl_field_names(ddl: &str) -> Option<Vec<String>> {
    if !ddl.trim().contains(char::is_whitespace) {
        return None;
    }
    Some(ddl_fields(ddl)?.into_iter().map(|(name, _)| name).collect())
}

/// The positions `[i]` or `[start:stop:step]` (`index` as written) picks from a list of `len`
/// items, as Python does; `None` for anything but whole-number literals.
fn python_index(len: usize, index: &str) -> Option<Vec<usize>> {
    let n = i64::try_from(len).ok()?;
    let number = |part: &str| -> Option<Option<i64>> {
        let part: String = part.chars().filter(|c| !c.is_whitespace()).collect();
        if part.is_empty() {
            Some(None)
        } else {
            part.parse().ok().map(Some)
        }
    };
    let parts: Vec<&str> = index.split(':').collect();
    if parts.len() == 1 {
        let i = number(parts[0])??;
        let i = if i < 0 { i + n } else { i };
        return (0..n).contains(&i).then(|| vec![i as usize]);
    }
    if parts.len() > 3 {
        return None;
    }
    let (start, stop) = (number(parts[0])?, number(parts[1])?);
    let step = match parts.get(2) {
        Some(p) => number(p)?.unwrap_or(1),
        None => 1,
    };
    if step == 0 {
        return None;
    }
    let resolve = |v: i64, low: i64, high: i64| (if v < 0 { v + n } else { v }).clamp(low, high);
    let mut picked = Vec::new();
    if step > 0 {
        let (mut i, stop) = (
            start.map_or(0, |v| resolve(v, 0, n)),
            stop.map_or(n, |v| resolve(v, 0, n)),
        );
        while i < stop {
            picked.push(i as usize);
            // (a step past the end of i64 ends the slice, as it would in Python)
            let Some(next) = i.checked_add(step) else {
                break;
            };
            i = next;
        }
    } else {
        let (mut i, stop) = (
            start.map_or(n - 1, |v| resolve(v, -1, n - 1)),
            stop.map_or(-1, |v| resolve(v, -1, n - 1)),
        );
        while i > stop {
            picked.push(i as usize);
            let Some(next) = i.checked_add(step) else {
                break;
            };
            i = next;
        }
    }
    Some(picked)
}

#[cfg(test)]
mod tests {
    use super::python_index;

    #[test]
    fn indexes_and_slices_pick_as_python_does() {
        assert_eq!(python_index(3, "0"), Some(vec![0]));
        assert_eq!(python_index(3, "-1"), Some(vec![2]));
        assert_eq!(python_index(3, "3"), None);
        assert_eq!(python_index(3, "1:"), Some(vec![1, 2]));
        assert_eq!(python_index(3, "::2"), Some(vec![0, 2]));
        assert_eq!(python_index(3, "::-1"), Some(vec![2, 1, 0]));
        assert_eq!(python_index(3, ":-1"), Some(vec![0, 1]));
        assert_eq!(python_index(3, "-2::-1"), Some(vec![1, 0]));
        assert_eq!(python_index(3, "5:0:-1"), Some(vec![2, 1]));
        assert_eq!(python_index(3, "i:"), None);
        assert_eq!(python_index(3, "::0"), None);
        // Steps and bounds at the ends of i64 pick what Python would, without overflowing.
        assert_eq!(python_index(3, "1::9223372036854775807"), Some(vec![1]));
        assert_eq!(python_index(3, "::-9223372036854775808"), Some(vec![2]));
        assert_eq!(
            python_index(3, "-9223372036854775808:"),
            Some(vec![0, 1, 2])
        );
        assert_eq!(python_index(3, "99999999999999999999"), None);
    }
}
