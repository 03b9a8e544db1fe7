//! Folding: a variable assigned a string, a literal collection, a `StructType`, a window spec or
//! a column condition is read into the calls that use it as if written inline, bounded so data
//! lists cannot bloat the index (see the parent module's caps).

use super::*;

impl<'a> Extractor<'a> {
    /// Whether an assigned value is worth folding into the calls that use the variable.
    pub(super) fn fold_value(&self, value: Node<'a>) -> Option<FoldValue<'a>> {
        let src = self.src;
        match self.adapter.shape(value, src) {
            Shape::Str => return Some(FoldValue::Str(value)),
            Shape::Ident => return self.lookup_value(text(value, src)).cloned(),
            _ => {}
        }
        if self.collection_items(value).is_some() {
            return Some(FoldValue::Collection(value));
        }
        if self.is_mapping(value) {
            return Some(FoldValue::Mapping(value));
        }
        // `exprs = [F.count(F.when(F.col(c).isNull(), c)).alias(c) for c in df.columns]`
        if let Some(item) = self.comprehension_item(value) {
            return Some(FoldValue::Items(vec![item]));
        }
        if self.is_condition(value) {
            return Some(FoldValue::Condition(value));
        }
        let flat = self.flatten(value)?;
        let first = flat.links.first().map(|l| match l {
            Link::Call { name, .. } | Link::Member { name } => text(*name, src),
        });
        let base = text(flat.base, src);
        let constructs_struct = matches!(first, Some("StructType" | "createStructType"))
            || (!flat.base_is_call && base.trim_start_matches("new ").starts_with("StructType"));
        if constructs_struct {
            let fields = self.struct_fields(value);
            return (!fields.is_empty()).then_some(FoldValue::Struct(fields));
        }
        let window_base = !flat.base_is_call
            && (base == "Window"
                || base.ends_with(".Window")
                || matches!(self.lookup_value(base), Some(FoldValue::Window(_))));
        if window_base {
            return Some(FoldValue::Window(value));
        }
        // a call of Spark's column functions, or one windowed by `.over(…)`
        let of_functions = if flat.base_is_call {
            first.is_some_and(|f| vocab::COLUMN_BUILDERS.contains(&f))
        } else {
            vocab::COLUMN_BUILDERS.contains(&base)
        };
        let windowed = flat
            .links
            .iter()
            .any(|l| matches!(l, Link::Call { name, .. } if text(*name, src) == "over"));
        (of_functions || windowed).then_some(FoldValue::Column(value))
    }

    /// A statement adding to a variable's collection: `x.append(v)` / `x.extend(vs)` (Java's
    /// `add` / `addAll`).
    pub(super) fn list_addition(&self, statement: Node<'a>) -> Option<ListAddition<'a>> {
        let src = self.src;
        let expression = match statement.kind() {
            "expression_statement" => statement.named_child(0)?,
            _ => statement,
        };
        let Shape::Call {
            object: Some(object),
            name,
            args: Some(args),
        } = self.adapter.shape(self.unwrap_parens(expression), src)
        else {
            return None;
        };
        let adds_one = matches!(text(name, src), "append" | "add");
        let adds_all = matches!(text(name, src), "extend" | "addAll");
        ((adds_one || adds_all) && matches!(self.adapter.shape(object, src), Shape::Ident)).then(
            || ListAddition {
                list: text(object, src),
                adds_all,
                args,
            },
        )
    }

    /// `aggs.append(F.sum(c).alias(c))` (Python's `append` / `extend`, Java's `add` / `addAll`)
    /// onto a variable holding a literal collection: the variable holds the item too, so
    /// `df.agg(*aggs)` says what it aggregates.
    pub(super) fn record_appended_item(&mut self, statement: Node<'a>) {
        let Some(ListAddition {
            list: variable,
            adds_all,
            args,
        }) = self.list_addition(statement)
        else {
            return;
        };
        let Some(scope) = self
            .symbol_stack
            .iter()
            .rev()
            .map(|s| Some(*s))
            .chain(std::iter::once(None))
            .find(|scope| {
                self.value_vars
                    .contains_key(&(*scope, variable.to_string()))
            })
        else {
            return;
        };
        let key = (scope, variable.to_string());
        let mut items = match self.value_vars.get(&key) {
            Some(Some(FoldValue::Collection(node))) => {
                self.collection_items(*node).unwrap_or_default()
            }
            Some(Some(FoldValue::Items(items))) => items.clone(),
            _ => return,
        };
        let Some(argument) = named_children(args).into_iter().next() else {
            return;
        };
        match self.collection_items(argument) {
            Some(added) if adds_all => items.extend(added),
            _ => items.push(argument),
        }
        if items.len() <= APPENDED_ITEMS_CAP {
            self.value_vars.insert(key, Some(FoldValue::Items(items)));
        }
    }

    /// The foldable value of a variable visible here: this scope, then the enclosing ones, then
    /// module level.
    pub(super) fn lookup_value(&self, name: &str) -> Option<&FoldValue<'a>> {
        self.symbol_stack
            .iter()
            .rev()
            .map(|s| Some(*s))
            .chain(std::iter::once(None))
            .find_map(|scope| self.value_vars.get(&(scope, name.to_string())))?
            .as_ref()
    }

    /// Whether `node` is a literal mapping: a dict of `key: value` pairs, or a call of Scala's
    /// `Map` factory on `key -> value` pairs.
    pub(super) fn is_mapping(&self, node: Node<'a>) -> bool {
        let src = self.src;
        let pairs = match self.adapter.shape(node, src) {
            Shape::Call {
                object: None,
                name,
                args: Some(args),
            } if text(name, src) == "Map" => args,
            Shape::Other => node,
            _ => return false,
        };
        let items: Vec<Node<'a>> = named_children(pairs)
            .into_iter()
            .filter(|c| !c.kind().contains("comment"))
            .collect();
        !items.is_empty()
            && items
                .iter()
                .all(|item| matches!(self.adapter.shape(*item, src), Shape::Pair { .. }))
    }

    /// The items of a literal collection: the adapter's list/tuple/array forms, or a call of a
    /// collection factory (`Seq(…)`, `List(…)`, `Array(…)`, `Arrays.asList(…)`, `List.of(…)`).
    pub(super) fn collection_items(&self, node: Node<'a>) -> Option<Vec<Node<'a>>> {
        if let Some(items) = self.adapter.collection_items(node) {
            return Some(items);
        }
        let src = self.src;
        match self.adapter.shape(node, src) {
            Shape::Call {
                object,
                name,
                args: Some(args),
            } => {
                let factory = match object {
                    None => matches!(
                        text(name, src),
                        "Seq" | "List" | "Array" | "Set" | "Vector" | "IndexedSeq"
                    ),
                    Some(object) => matches!(
                        (text(object, src), text(name, src)),
                        ("Arrays", "asList") | ("List" | "Set" | "Stream", "of")
                    ),
                };
                factory.then(|| {
                    named_children(args)
                        .into_iter()
                        .filter(|c| !c.kind().contains("comment"))
                        .collect()
                })
            }
            _ => None,
        }
    }

    /// The fields of a `StructType` value — the first argument of every `StructField(…)`,
    /// `.add(…)` and `createStructField(…)` inside it, in source order — each with whether its
    /// type is a long when the code names a type this knows ([`type_is_long`]).
    pub(super) fn struct_fields(&self, value: Node<'a>) -> Vec<(String, Option<bool>)> {
        let src = self.src;
        let mut names = Vec::new();
        let mut stack = vec![value];
        let mut budget = FOLD_NODE_BUDGET;
        while let Some(node) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 || names.len() >= FOLD_STRING_CAP {
                break;
            }
            if let Shape::Call {
                name,
                args: Some(args),
                ..
            } = self.adapter.shape(node, src)
                && matches!(text(name, src), "StructField" | "add" | "createStructField")
                && let Some(first) = named_children(args).into_iter().find_map(|a| {
                    match self.adapter.shape(a, src) {
                        Shape::Keyword { name, value } => {
                            (text(name, src) == "name").then_some(value)
                        }
                        _ if a.kind().contains("comment") => None,
                        _ => Some(a),
                    }
                })
                && let Some((decoded, _)) = self.string_value(first)
            {
                // The type: the argument after the name (`StructField("id", LongType())`,
                // `add("id", "long")`), or `dataType=`.
                let field_type = named_children(args)
                    .into_iter()
                    .filter(|a| !a.kind().contains("comment"))
                    .find_map(|a| match self.adapter.shape(a, src) {
                        Shape::Keyword { name, value } => {
                            (text(name, src) == "dataType").then_some(value)
                        }
                        _ if a.start_byte() > first.start_byte() => Some(a),
                        _ => None,
                    })
                    .and_then(|t| match self.string_value(t) {
                        Some((decoded, _)) => type_is_long(&decoded.text),
                        None => type_is_long(text(t, src)),
                    });
                names.push((first.start_byte(), (decoded.text, field_type)));
            }
            let first = stack.len();
            stack.extend(named_children(node));
            stack[first..].reverse();
        }
        // A builder chain (`new StructType().add("a", …).add("b", …)`) nests its last field
        // outermost.
        names.sort_by_key(|(at, _)| *at);
        names.into_iter().map(|(_, field)| field).collect()
    }

    /// The strings inside a value, depth-first, at most [`FOLD_STRING_CAP`].
    pub(super) fn fold_strings(&self, value: Node<'a>) -> Vec<String> {
        let src = self.src;
        let mut strings = Vec::new();
        let mut stack = vec![value];
        let mut budget = FOLD_NODE_BUDGET;
        while let Some(node) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 || strings.len() >= FOLD_STRING_CAP {
                break;
            }
            match self.adapter.shape(node, src) {
                Shape::Str => {
                    if let Some(decoded) = self.adapter.decode_string(node, src) {
                        strings.push(decoded.text);
                    }
                }
                Shape::Lambda => {}
                _ => {
                    let first = stack.len();
                    stack.extend(named_children(node));
                    stack[first..].reverse();
                }
            }
        }
        strings
    }

    /// Fold a variable argument's value into `out`, as if it were written inline; `stack` gets
    /// what must be broken down further (window specs).
    pub(super) fn fold_variable(
        &self,
        value: &FoldValue<'a>,
        method: &str,
        role: ArgRole,
        out: &mut CallArgs,
        stack: &mut Vec<(Node<'a>, ArgRole)>,
    ) {
        match value {
            FoldValue::Str(node) => {
                if let Some(decoded) = self.adapter.decode_string(*node, self.src) {
                    record_string(out, role, decoded.text);
                }
            }
            FoldValue::Collection(node) => {
                // A flat list of names passed where names go (`select(cols)`, `toDF(cols: _*)`)
                // names columns / aliases; anything else (data rows, `isin` values) is literals.
                let flat = self.collection_items(*node).is_some_and(|items| {
                    items
                        .iter()
                        .all(|i| matches!(self.adapter.shape(*i, self.src), Shape::Str))
                });
                let role = match role {
                    ArgRole::Column | ArgRole::Alias if flat => role,
                    _ => ArgRole::Literal,
                };
                for string in self.fold_strings(*node) {
                    record_string(out, role, string);
                }
            }
            FoldValue::Struct(fields) => out
                .columns
                .extend(fields.iter().map(|(name, _)| name.clone())),
            FoldValue::Window(node) | FoldValue::Column(node) => {
                stack.push((*node, ArgRole::Column));
            }
            // where the method gives a pair's key and value roles of their own (a mapping passed
            // anywhere else, `options(**opts)`, says nothing of the plan)
            FoldValue::Mapping(node) if vocab::pair_roles(method, role) != (role, role) => {
                stack.push((*node, role));
            }
            FoldValue::Mapping(_) => {}
            FoldValue::Items(items) => {
                // names where names go, as a literal collection's; expressions as written inline
                let names = items
                    .iter()
                    .all(|i| matches!(self.adapter.shape(*i, self.src), Shape::Str));
                let role = match role {
                    ArgRole::Column | ArgRole::Alias => role,
                    _ if names => ArgRole::Literal,
                    other => other,
                };
                stack.extend(items.iter().map(|i| (*i, role)));
            }
            FoldValue::Condition(node) => {
                // Its text joins the arguments' too: a join on a folded condition compares keys
                // (it is no join on names), as one written inline does.
                let condition = collapse_whitespace(text(*node, self.src));
                out.text = capped(&format!("{} {condition}", out.text), ARG_TEXT_CAP);
                stack.push((*node, ArgRole::Column));
            }
        }
    }

    /// Whether `value` compares two operands (`a == b`, `a != b`, `a < b`, Scala's `===`, `=!=`).
    pub(super) fn is_comparison(&self, value: Node<'a>) -> bool {
        const COMPARISONS: &[&str] = &["==", "!=", "<", ">", "<=", ">=", "===", "=!=", "<=>"];
        self.operators(value)
            .any(|op| COMPARISONS.contains(&op.trim()))
    }

    /// The operator tokens between an expression's operands.
    fn operators(&self, value: Node<'a>) -> impl Iterator<Item = &'a str> + '_ {
        let src = self.src;
        let binary = matches!(self.adapter.shape(value, src), Shape::Other)
            && value.named_child_count() >= 2;
        (0..value.child_count())
            .filter(move |_| binary)
            .filter_map(move |i| value.child(i))
            // Python and Java operators are anonymous tokens; Scala's are identifiers
            .filter(|c| !c.is_named() || c.kind() == "operator_identifier")
            .map(move |c| text(c, src))
    }

    /// A comparison or a boolean combination of them, written as an operator expression (not a
    /// call): `df.a == other.b`, `(x > 1) & (y < 2)`, Scala `$"a" === $"b"`.
    fn is_condition(&self, value: Node<'a>) -> bool {
        const OPERATORS: &[&str] = &["==", "!=", "<", ">", "&", "|"];
        self.operators(value)
            .any(|op| OPERATORS.iter().any(|o| op.contains(o)))
    }
}

/// Whether a type named in code (`LongType()`, `DataTypes.LongType`, `"bigint"`, `IntegerType`)
/// is a long; `None` for a type this does not know.
/// What [`Extractor::list_addition`] finds.
pub(super) struct ListAddition<'a> {
    /// The variable added to.
    pub list: &'a str,
    /// Every item of the argument is added (`extend`, `addAll`), not the argument itself.
    pub adds_all: bool,
    /// The call's arguments.
    pub args: Node<'a>,
}

pub(super) fn type_is_long(written: &str) -> Option<bool> {
    let lower = written.trim().to_ascii_lowercase();
    let name = lower.trim_end_matches("()").trim_end_matches('$');
    let name = name.rsplit('.').next().unwrap_or(name);
    let name = name.strip_suffix("type").unwrap_or(name);
    match name {
        "long" | "bigint" => Some(true),
        "integer" | "int" | "string" | "double" | "float" | "boolean" | "date" | "timestamp"
        | "short" | "smallint" | "byte" | "tinyint" | "binary" => Some(false),
        _ if name.starts_with("decimal") => Some(false),
        _ => None,
    }
}
