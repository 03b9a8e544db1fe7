//! Arguments: a call's argument nodes broken down into columns, literals, functions, aliases,
//! tables and paths, by the role the method gives each argument (see `vocab`).

use super::*;
use crate::code::sql_expr::COUNT_OF_ROWS;
use crate::code::strings::PLACEHOLDER;
use crate::code::{APPLIED_LAMBDA, INLINE_READ};

impl<'a> Extractor<'a> {
    /// The session an argument reads a frame from inline (`spark.table("stores")`,
    /// `self.spark.read.parquet(path)`): the text its own chain's receiver starts with.
    fn inline_session_read(&self, node: Node<'a>) -> Option<String> {
        if !matches!(self.adapter.shape(node, self.src), Shape::Call { .. }) {
            return None;
        }
        let flat = self.flatten(node)?;
        if flat.base_is_call {
            return None;
        }
        let mut receiver = text(flat.base, self.src).to_string();
        for link in &flat.links {
            match link {
                Link::Member { name } if !self.is_session(&receiver) => {
                    receiver.push('.');
                    receiver.push_str(text(*name, self.src));
                }
                _ => break,
            }
        }
        self.is_session(&receiver).then_some(receiver)
    }

    /// The function a pandas / Arrow method hands over (its first argument), by the name the
    /// plan gives it: `applyInPandas(normalise, …)` → `normalise`, a lambda → `<lambda>`; with
    /// the token of a Python function's evaluation.
    fn python_function_handed_over(&self, args: Node<'a>) -> Vec<String> {
        let Some(first) = positional_argument(args, 0) else {
            return Vec::new();
        };
        let name = match self.adapter.shape(first, self.src) {
            Shape::Ident => text(first, self.src).to_string(),
            Shape::Lambda => vocab::LAMBDA_UDF.to_string(),
            _ => return Vec::new(),
        };
        vec![name, vocab::PYTHON_UDF_CALL.to_string()]
    }

    /// The variable a lambda's body starts its chain from (`d` of `lambda d: d.filter(…)`).
    fn lambda_chain_root(&self, lambda: Node<'a>) -> Option<&'a str> {
        let body = self.unwrap_parens(self.adapter.lambda_body(lambda)?);
        let flat = self.flatten(body)?;
        (!flat.base_is_call && !flat.links.is_empty()).then(|| text(flat.base, self.src))
    }

    /// Break a call's arguments down into columns, literals, functions, aliases, tables, paths.
    // Long (~145 lines): one explicit-stack walk over an argument tree, one arm per node shape
    // (string, column symbol, call, keyword, lambda …).
    pub(super) fn break_down_args(
        &self,
        args: Node<'a>,
        method: &str,
        receiver: &str,
        inputs: &mut Vec<String>,
    ) -> CallArgs {
        let src = self.src;
        let mut out = CallArgs {
            text: capped(&collapse_whitespace(text(args, src)), ARG_TEXT_CAP),
            ..CallArgs::default()
        };
        let mut stack: Vec<(Node<'a>, ArgRole)> = Vec::new();
        self.push_args(args, method, &mut stack);
        if is_sort_method(method) {
            out.functions.extend(self.sort_directions(args));
        }
        if vocab::PYTHON_FUNCTION_METHODS.contains(&method) {
            out.functions.extend(self.python_function_handed_over(args));
        }
        let mut budget = ARG_NODE_BUDGET;
        let mut folded: HashSet<&str> = HashSet::new();
        while let Some((node, role)) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            // `read.csv(conf.getString("in.path"))`, `load(settings.paths.silver)`
            if matches!(role, ArgRole::Path | ArgRole::Table)
                && let Some(key) = self.setting_key(node)
            {
                record_setting(&mut out, role, key);
                if !matches!(self.adapter.shape(node, src), Shape::Member { .. }) {
                    continue;
                }
            }
            // `join(spark.table("stores"), …)`: a frame read inline from a session, whose own
            // chain (indexed after this one) enters the call as its argument
            if vocab::FRAME_TAKING_METHODS.contains(&method)
                && let Some(session) = self.inline_session_read(node)
            {
                inputs.push(format!("{session}{INLINE_READ}"));
            }
            // `union(frames(1))`: the frame variable a list holds at that position
            if let Some(variable) = self.listed_variable(node) {
                if variable != receiver {
                    inputs.push(variable);
                }
                continue;
            }
            match self.adapter.shape(node, src) {
                // The SQL of `spark.sql("…")` is indexed as a SqlStatement, not as a literal.
                Shape::Str if method == "sql" => {}
                Shape::Str => {
                    if let Some(decoded) = self.adapter.decode_string(node, src) {
                        // `json(s"data/$filename")`: the file is what the name holds.
                        for name in self.file_name_interpolations(node, &decoded.text) {
                            record_name(&mut out, role, name);
                        }
                        record_string(&mut out, role, decoded.text);
                    }
                }
                Shape::Number | Shape::Bool => out.literals.push(text(node, src).to_string()),
                Shape::ColumnSymbol => {
                    if let Some(name) = self.adapter.column_symbol_name(node, src) {
                        out.columns.push(name);
                    }
                }
                Shape::Ident => {
                    let name = text(node, src);
                    let value = if method == "sql" || folded.len() >= FOLD_VARS_CAP {
                        None
                    } else {
                        self.lookup_value(name)
                    };
                    if let Some(value) = value {
                        // Each variable once: `w = w.orderBy(…)` must not fold forever.
                        if folded.insert(name) {
                            self.fold_variable(value, method, role, &mut out, &mut stack);
                        }
                    } else if self.column_lists.contains(name) {
                        // `select(*cols)` of a frame's column names
                        out.computed_columns = true;
                    } else if self.is_dataframe_var(name) {
                        if name != receiver {
                            inputs.push(name.to_string());
                        }
                    } else if let (ArgRole::Path, Some(path)) = (role, self.string_vars.get(name)) {
                        // `read.parquet(str(orders_path))` after `orders_path = DIR / "o.parquet"`
                        record_string(&mut out, role, path.value.text.clone());
                    } else {
                        record_name(&mut out, role, name);
                    }
                }
                Shape::Member { object, name } => {
                    if let Some((owner, columns)) = self.listed_columns(object, name) {
                        // `select(df.columns)`: every column the code listed for the frame.
                        out.columns.extend(columns.iter().cloned());
                        if owner != receiver {
                            inputs.push(owner.to_string());
                        }
                    } else if self.df_vars.contains(text(node, src)) {
                        // `join(self.partsupp, …)`: a frame an object holds
                        let frame = text(node, src);
                        if frame != receiver {
                            inputs.push(frame.to_string());
                        }
                    } else if let Some(owner) = self.frame_owning(object) {
                        // `df.amount`, `self.part.p_type`: a column of the frame
                        out.columns.push(text(name, src).to_string());
                        if owner != receiver {
                            inputs.push(owner.to_string());
                        }
                    } else if matches!(self.adapter.shape(object, src), Shape::Ident) {
                        if self.column_lists.contains(text(object, src)) {
                            // `select(cols.head, cols.tail: _*)`: names the code computed
                            out.computed_columns = true;
                        } else {
                            // `read.csv(config.RAW_FILE)`
                            record_name(&mut out, role, text(name, src));
                        }
                    } else {
                        // Scala's parenless column methods: `col("x").desc`, `$"y".isNull`.
                        let member = text(name, src);
                        if vocab::PARENLESS_COLUMN_METHODS.contains(&member) {
                            out.functions.push(member.to_string());
                        }
                        stack.push((object, role));
                    }
                }
                Shape::Index { object, index } => {
                    if self.frame_list_element(node).is_some() {
                        // `union(rows[1])`: a frame a list holds
                        inputs.push(text(node, src).to_string());
                    } else if let Some((owner, columns)) = self.indexed_columns(object, index) {
                        // `select(df.columns[1:])`
                        out.columns.extend(columns);
                        if owner != receiver {
                            inputs.push(owner.to_string());
                        }
                    } else {
                        if let Shape::Str = self.adapter.shape(index, src) {
                            if let Some(decoded) = self.adapter.decode_string(index, src) {
                                out.columns.push(decoded.text);
                            }
                        } else {
                            stack.push((index, role));
                        }
                        stack.push((object, role));
                    }
                }
                Shape::Call { object, name, args } => {
                    let callee = text(name, src);
                    if role == ArgRole::Path
                        && let Some((path, _)) = self.computed_path(node)
                    {
                        // `read.csv(os.path.join(DATA_DIR, "orders.csv"))`,
                        // `read.csv(os.getenv("INPUT", "data/orders.csv"))`
                        record_string(&mut out, role, path.text);
                    } else if object.is_none() && self.is_dataframe_var(callee) {
                        // Scala `df("x")`.
                        if callee != receiver {
                            inputs.push(callee.to_string());
                        }
                        if let Some(args) = args {
                            for child in named_children(args) {
                                stack.push((child, ArgRole::Column));
                            }
                        }
                    } else if object.is_none() && callee == "Map" {
                        // Scala's `withColumns(Map("tax" -> …))`: the pairs, in the call's role
                        if let Some(args) = args {
                            for child in named_children(args) {
                                stack.push((child, role));
                            }
                        }
                    } else if object.is_none() && vocab::PATH_WRAPPERS.contains(&callee) {
                        // `read.parquet(str(orders_path))`: the path as a string
                        if let Some(args) = args {
                            for child in named_children(args) {
                                stack.push((child, role));
                            }
                        }
                    } else {
                        // A UDF variable's own name is never printed: Spark names the UDF after
                        // its lambda or function (below).
                        let udf_variable = object.is_none()
                            && (self.lambda_udfs.contains(callee)
                                || self.function_udfs.contains_key(callee));
                        if !vocab::is_column_reference_function(callee)
                            && !matches!(callee, "alias" | "as" | "name")
                            && !udf_variable
                        {
                            out.functions.push(callee.to_string());
                        }
                        // `zip_ = udf(lambda a, b: …)`: Spark names the UDF `<lambda>`
                        if object.is_none() && self.lambda_udfs.contains(callee) {
                            out.functions.push(vocab::LAMBDA_UDF.to_string());
                            out.functions.push(vocab::PYTHON_UDF_CALL.to_string());
                        }
                        // `decrease(col("p"))` after `decrease = pandas_udf(discount_f, …)`
                        if let Some(function) =
                            self.function_udfs.get(callee).filter(|_| object.is_none())
                        {
                            out.functions.push(function.clone());
                            out.functions.push(vocab::PYTHON_UDF_CALL.to_string());
                        }
                        if callee.eq_ignore_ascii_case("count")
                            && args.is_some_and(|args| self.counts_rows(args))
                        {
                            out.functions.push(COUNT_OF_ROWS.to_string());
                        }
                        if let Some(args) = args {
                            self.push_args(args, callee, &mut stack);
                        }
                        if let Some(object) = object {
                            let object_role = if vocab::COLUMN_BUILDERS.contains(&text(object, src))
                            {
                                ArgRole::Literal
                            } else {
                                role
                            };
                            stack.push((object, object_role));
                        }
                    }
                }
                Shape::Apply { callee, args } => {
                    if let Some(args) = args {
                        stack.push((args, role));
                    }
                    stack.push((callee, role));
                }
                Shape::Keyword { value, .. } => stack.push((value, role)),
                Shape::Pair { key, value } => {
                    let (key_role, value_role) = vocab::pair_roles(method, role);
                    stack.push((value, value_role));
                    stack.push((key, key_role));
                }
                Shape::Paren(inner) => stack.push((inner, role)),
                Shape::Lambda => {
                    // `transform(lambda d: d.filter(…))`
                    if vocab::APPLYING_METHODS.contains(&method)
                        && let Some(root) = self.lambda_chain_root(node)
                    {
                        inputs.push(format!("{root}{APPLIED_LAMBDA}"));
                    }
                }
                Shape::Other => {
                    // `col("country") != "Croatia"`, `$"state" === "OH"`: a string compared with
                    // a column is a value, not a column's name
                    let compares = self.is_comparison(node);
                    for child in named_children(node).into_iter().rev() {
                        let value =
                            compares && matches!(self.adapter.shape(child, src), Shape::Str);
                        stack.push((child, if value { ArgRole::Literal } else { role }));
                    }
                }
            }
        }
        if is_filter_method(method) && self.negates_whole_condition(args) {
            // `filter(~missing)` after `missing = col("a").isNull() | …`: Spark plans the
            // negation pushed down, `isnotnull(a) AND …`, so the null tests are the opposite ones
            for function in &mut out.functions {
                let flipped = if function.eq_ignore_ascii_case("isNull") {
                    "isNotNull"
                } else if function.eq_ignore_ascii_case("isNotNull") {
                    "isNull"
                } else {
                    continue;
                };
                *function = flipped.to_string();
            }
        }
        for list in [
            &mut out.columns,
            &mut out.literals,
            &mut out.functions,
            &mut out.aliases,
            &mut out.tables,
            &mut out.paths,
        ] {
            dedup(list);
        }
        out
    }

    /// Whether a call's one argument is a negation of everything in it: Python's `~cond` /
    /// `not cond`, Scala's and Java's `!cond`, `not(cond)`.
    fn negates_whole_condition(&self, args: Node<'a>) -> bool {
        let [argument] = named_children(args)[..] else {
            return false;
        };
        let argument = self.unwrap_parens(argument);
        let written = text(argument, self.src).trim_start();
        let prefixed = (written.starts_with('~') || written.starts_with('!'))
            && !written.starts_with("!=")
            && argument.named_child_count() == 1;
        let keyword = argument.kind() == "not_operator"
            || matches!(
                self.adapter.shape(argument, self.src),
                Shape::Call { object: None, name, args: Some(a) }
                    if text(name, self.src) == "not" && named_children(a).len() == 1
            );
        prefixed || keyword
    }

    /// A sort's `ascending=False` / `ascending=[0, 1]`: `desc` or `asc` per key, as the functions
    /// Spark plans them with (a value this cannot read says nothing).
    fn sort_directions(&self, args: Node<'a>) -> Vec<String> {
        let Some(value) = named_children(args).into_iter().find_map(|arg| {
            match self.adapter.shape(arg, self.src) {
                Shape::Keyword { name, value } if text(name, self.src) == "ascending" => {
                    Some(value)
                }
                _ => None,
            }
        }) else {
            return Vec::new();
        };
        let direction = |node: Node<'a>| match text(node, self.src) {
            "False" | "false" | "0" => Some("desc".to_string()),
            "True" | "true" | "1" => Some("asc".to_string()),
            _ => None,
        };
        match self.adapter.collection_items(value) {
            Some(items) => items.into_iter().filter_map(direction).collect(),
            None => direction(value).into_iter().collect(),
        }
    }

    /// Whether `count(…)`'s arguments count rows rather than a column's values: `count("*")`,
    /// `count(1)`, `count(lit(1))` (Spark plans each as `count(1)`).
    fn counts_rows(&self, args: Node<'a>) -> bool {
        let [arg] = named_children(args)[..] else {
            return false;
        };
        match self.adapter.shape(arg, self.src) {
            Shape::Str => self
                .adapter
                .decode_string(arg, self.src)
                .is_some_and(|s| s.text == "*"),
            Shape::Number => text(arg, self.src) == "1",
            Shape::Call {
                object: None,
                name,
                args: Some(inner),
            } if text(name, self.src) == "lit" => self.counts_rows(inner),
            _ => false,
        }
    }

    /// A string literal's interpolations (`$name`, `{name}`, `${dir.name}`) in source order, each
    /// standing for one [`PLACEHOLDER`] of its decoded text.
    pub(super) fn interpolations(&self, string: Node<'a>) -> Vec<Node<'a>> {
        // a stack walk, children pushed in reverse
        let mut interpolations = Vec::new();
        let mut stack = named_children(string);
        stack.reverse();
        let mut budget = ARG_NODE_BUDGET;
        while let Some(node) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            if node.kind() == "interpolation" {
                interpolations.push(node);
            } else {
                stack.extend(named_children(node).into_iter().rev());
            }
        }
        interpolations
    }

    /// The names read by the interpolations (`$filename`, `{name}`, `${dir.name}`) that write a
    /// decoded path's last component: `{folder}/{name}.csv` reads `name`, not `folder`.
    fn file_name_interpolations(&self, string: Node<'a>, decoded: &str) -> Vec<&'a str> {
        let last_start = decoded
            .trim_end_matches(['/', '\\'])
            .rfind(['/', '\\'])
            .map_or(0, |i| i + 1);
        let before = decoded[..last_start].matches(PLACEHOLDER).count();
        let mut names = Vec::new();
        for interpolation in self.interpolations(string).into_iter().skip(before) {
            let mut inner = vec![interpolation];
            while let Some(node) = inner.pop() {
                if names.len() >= NAMES_CAP {
                    return names;
                }
                match self.adapter.shape(node, self.src) {
                    Shape::Ident => names.push(text(node, self.src)),
                    _ => inner.extend(named_children(node)),
                }
            }
        }
        names
    }

    /// Push a call's arguments with the role the method gives each position / keyword.
    pub(super) fn push_args(
        &self,
        args: Node<'a>,
        method: &str,
        stack: &mut Vec<(Node<'a>, ArgRole)>,
    ) {
        let mut position = 0usize;
        let mut pending = Vec::new();
        for arg in named_children(args) {
            match self.adapter.shape(arg, self.src) {
                Shape::Keyword { name, value } => {
                    let role = vocab::arg_role(method, position, Some(text(name, self.src)));
                    pending.push((value, role));
                }
                _ => {
                    if arg.kind().contains("comment") {
                        continue;
                    }
                    pending.push((arg, vocab::arg_role(method, position, None)));
                    position += 1;
                }
            }
        }
        stack.extend(pending.into_iter().rev());
    }
}

impl<'a> Extractor<'a> {
    /// The frame whose column a member access names, by its text: a variable holding a frame
    /// (not a frame's column names), or an object's attribute seen holding one (`self.part`).
    fn frame_owning(&self, object: Node<'a>) -> Option<&'a str> {
        let owner = text(object, self.src);
        let holds_frame = match self.adapter.shape(object, self.src) {
            Shape::Ident => !self.column_lists.contains(owner) && self.is_dataframe_var(owner),
            Shape::Member { .. } => self.df_vars.contains(owner),
            _ => false,
        };
        holds_frame.then_some(owner)
    }
}

/// The DataFrame methods that keep rows by a condition.
fn is_filter_method(method: &str) -> bool {
    ["filter", "where"].contains(&method)
}

/// The DataFrame methods that sort (and so take `ascending=`).
fn is_sort_method(method: &str) -> bool {
    ["orderBy", "sort", "sortWithinPartitions"].contains(&method)
}

/// A name passed where a path, a table or a value goes, kept for resolving across files.
fn record_name(out: &mut CallArgs, role: ArgRole, name: &str) {
    let role = match role {
        ArgRole::Path => NameRole::Path,
        ArgRole::Table => NameRole::Table,
        // (a name in an expression: `filter(df[column_name] < limit)`)
        ArgRole::Column | ArgRole::SqlExpr => NameRole::Column,
        ArgRole::Literal => NameRole::Literal,
        _ => return,
    };
    if out.names.len() < NAMES_CAP && !out.names.iter().any(|n| n.name == name) {
        out.names.push(NamedArg {
            role,
            name: name.to_string(),
        });
    }
}

/// A settings key read where a path or a table goes, kept for resolving against the
/// repository's settings files.
fn record_setting(out: &mut CallArgs, role: ArgRole, key: String) {
    let role = if role == ArgRole::Table {
        NameRole::Table
    } else {
        NameRole::Path
    };
    if out.settings.len() < NAMES_CAP && !out.settings.iter().any(|n| n.name == key) {
        out.settings.push(NamedArg { role, name: key });
    }
}

/// Most names one call's arguments keep.
const NAMES_CAP: usize = 8;
