//! Hand-offs: DataFrames passed between functions, recorded so the flow can follow them.
//!
//! Production code builds a DataFrame in one function and uses it in another:
//!
//! ```text
//! def load_orders(spark, path):
//!     return spark.read.parquet(path)          # a chain its function *returns*
//! orders = load_orders(spark, orders_path)     # a *pass-through* chain: no calls, its DataFrame
//! recent = orders.filter(…)                    #   comes from `load_orders`' returned chains
//! cleaned = df.transform(drop_nulls)           # a chain *applying* `drop_nulls`
//! ```
//!
//! The extractor marks chains whose value their function returns ([`CallChain::returned`]), names
//! the function a chain starts from ([`CallChain::source_function`]) or applies
//! ([`CallChain::applied_functions`]), and emits pass-through chains (no calls, so no sites) for
//! `x = helper(…)` and `return x`. A frame added to a list (`rows.append(flagged.filter(…))`) is
//! recorded as assigned to the list, and a list's element (`union = rows[0]`, the `r` of `for r
//! in rows[1:]:`) as a pass-through from it: a union the code accumulates in a loop reads the
//! frames the loop before it made. A collection mapped to frames (Python's comprehension, Scala's
//! `limits.map(n => …)`, Java's `stream().map(…).collect(…)`) is such a list too, and a reduction
//! folding it with a union (`reduce(DataFrame.union, rows)`, `rows.reduce(_ union _)`,
//! `rows.stream().reduce(Dataset::union)`, `reduce(lambda a, b: a.union(b), rows)`) is a union
//! of its frames — of the frames listed in place too (`Seq(orders, returns).reduce(_ union _)`),
//! and a list of frame variables folds them as written. Names are resolved across
//! files when the site table builds the flow (`pipeline::sites`), where the index knows every
//! function.
//!
//! [`CallChain::returned`]: crate::code::index::CallChain::returned
//! [`CallChain::source_function`]: crate::code::index::CallChain::source_function
//! [`CallChain::applied_functions`]: crate::code::index::CallChain::applied_functions

use super::super::vocab;
use super::super::{Shape, named_children, text};
use super::{Extractor, Flat, Link, STATEMENT_TEXT_CAP, capped};
use crate::code::index::LISTED_VALUES_SEPARATOR;
use crate::code::index::{
    ArgValue, CallChain, Constant, LineRange, ParamDefault, PassedArg, SymbolKind,
};
use crate::code::strings::PLACEHOLDER;
use crate::code::unqualified;
use tree_sitter::Node;

/// The most methods of a fluent object followed back to the call constructing it
/// ([`Extractor::constructed_class`]).
const FLUENT_CALLS_CAP: usize = 16;

/// Most arguments of one call recorded as passed values.
const PASSED_ARGS_CAP: usize = 8;

/// Most elements of a tuple followed as frames.
const TUPLE_CAP: usize = 8;

/// Most frames a union folding frames listed in place (or a list of frame variables) takes as
/// inputs: a generated `Seq(f1, …, f5000).reduce(_ union _)` costs no more than this.
const FOLDED_FRAMES_CAP: usize = 64;

/// A reduction folding frames with a union ([`Extractor::folded_union`]): the union's receiver
/// (the frame list, or the first frame listed in place), the frames it takes besides, its union
/// method, and the position of the reducing call among the chain's links.
pub(super) struct FoldedUnion<'a> {
    pub receiver: String,
    pub inputs: Vec<String>,
    pub method: String,
    pub at: usize,
    /// The function value folding them (`_ union _`, `lambda a, b: a.union(b)`).
    pub function: Node<'a>,
}

/// A fold into a frame ([`Extractor::fold_into_start`]) and what its lambda's chain becomes.
pub(super) struct PendingFold {
    host: LineRange,
    accumulator: String,
    start: String,
    assigned_to: Option<String>,
    returned: bool,
}

impl PendingFold {
    fn folds(&self, chain: &CallChain) -> bool {
        chain.statement == self.host && chain.receiver == self.accumulator
    }

    fn settle(self, chain: &mut CallChain) {
        chain.receiver = self.start;
        if let Some(var) = self.assigned_to {
            chain.assigned_to = Some(var);
        }
        chain.returned |= self.returned;
    }
}

impl<'a> Extractor<'a> {
    /// The last recorded chain is what its function returns.
    pub(super) fn mark_returned(&mut self) {
        if let Some(chain) = self.out.chains.last_mut() {
            chain.returned = true;
        }
        if let Some(name) = self.current_function() {
            self.returning_functions.insert(name);
        }
    }

    fn current_function(&self) -> Option<String> {
        let id = *self.symbol_stack.last()?;
        self.out.symbols.get(id as usize).map(|s| s.name.clone())
    }

    /// Whether `value` calls a function of this file already seen returning a DataFrame.
    pub(super) fn returns_dataframe(&self, value: Node<'a>) -> bool {
        self.helper_callee(value)
            .is_some_and(|(name, _)| self.returning_functions.contains(unqualified(&name)))
    }

    /// The function a chain starts from (`load(spark).filter(…)`, `jobs.load(spark).filter(…)`:
    /// the call `starting_call`) and those it applies (`.transform(clean)`).
    pub(super) fn helpers_of(
        &self,
        starting_call: Option<Node<'a>>,
        links: &[Link<'a>],
    ) -> (Option<String>, Vec<String>) {
        let src = self.src;
        let source = starting_call
            .and_then(|call| self.helper_callee(call))
            .map(|(name, _)| name);
        let mut applied = Vec::new();
        for link in links {
            let Link::Call {
                name,
                args: Some(args),
                ..
            } = link
            else {
                continue;
            };
            if !vocab::APPLYING_METHODS.contains(&text(*name, src)) {
                continue;
            }
            for arg in named_children(*args) {
                let function = match self.adapter.shape(arg, src) {
                    // `clean`, `obj.clean` / `Cleaning.clean`
                    Shape::Ident | Shape::Member { .. } => self.function_named(arg),
                    // `partial(tx.filter_statuses, statuses=…)`: Python's `functools.partial`
                    // applies the function it is given first.
                    Shape::Call { name, args, .. }
                        if vocab::PARTIAL_APPLIERS.contains(&text(name, src)) =>
                    {
                        args.and_then(|a| named_children(a).first().copied())
                            .and_then(|f| self.function_named(f))
                    }
                    // `withGreeting()` / `Transforms.withAge(18)`: a curried function given its
                    // first arguments (`def withGreeting()(df: DataFrame)`) applies itself.
                    Shape::Call { name, .. } => Some(text(name, src)),
                    // `lambda df: tx.attach_lines(df, totals)`: a lambda calling a function of
                    // ours with the frame applies that function (a lambda writing a chain on
                    // the frame is the call's own: `lambda d: d.filter(…)`).
                    Shape::Lambda => self
                        .adapter
                        .lambda_body(arg)
                        .map(|body| self.unwrap_parens(body))
                        .filter(|body| self.helper_callee(*body).is_some())
                        .and_then(|body| match self.adapter.shape(body, src) {
                            Shape::Call { name, .. } => Some(text(name, src)),
                            _ => None,
                        }),
                    // `Transformations::cleanOrders`: a method reference names its method.
                    _ => self
                        .adapter
                        .referenced_method(arg, src)
                        .map(|method| text(method, src)),
                };
                let Some(function) = function else {
                    continue;
                };
                if !self.is_dataframe_var(function) && !applied.iter().any(|a| a == function) {
                    applied.push(function.to_string());
                }
            }
        }
        (source, applied)
    }

    /// Whether a call of `callee` calls a function rather than constructing an object: one named
    /// like a function does ([`named_like_function`]); a capitalised one may construct — but never
    /// in Java (only `new` does), and not in Scala when passed a frame (`MostFrequent(flights,
    /// 10)` calls the object's `apply`).
    pub(super) fn calls_a_function(&self, callee: &str, passes_frame: bool) -> bool {
        named_like_function(callee)
            || !self.adapter.calls_may_construct()
            || self.adapter.objects_apply() && passes_frame
    }

    /// The user function a lone call names (qualified by the class or object it is called on:
    /// `Sources.orders`, `Job.run` of `Job(spark).run()`; see [`unqualified`]), with the
    /// DataFrame variables passed to it; `None`
    /// for constructors, column builders, collection factories, library modules and calls on
    /// sessions or DataFrames (those are chains).
    pub(super) fn helper_callee(&self, value: Node<'a>) -> Option<(String, Vec<String>)> {
        let src = self.src;
        let Shape::Call { object, name, args } = self.adapter.shape(value, src) else {
            return None;
        };
        let callee = text(name, src);
        let inputs: Vec<String> = args
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|a| matches!(self.adapter.shape(*a, src), Shape::Ident))
            .map(|a| text(a, src))
            .filter(|a| self.is_dataframe_var(a))
            .map(str::to_string)
            .collect();
        let plausible = self.calls_a_function(callee, !inputs.is_empty())
            && !vocab::COLUMN_BUILDERS.contains(&callee)
            && !self.is_foreign_module(callee);
        if !plausible {
            return None;
        }
        if let Some(object) = object {
            // `loaders.load_orders(…)`, `self.load(…)`, `Loaders.load(…)`; not `df.filter(…)`.
            // `Job(spark, paths).run()`: the method of the class just constructed, `Job.run`
            // (see [`crate::pipeline::handoffs::FrameFunctions::returned_by_call`]).
            let owner = text(object, src);
            if let Some(class) = self.constructed_class(object) {
                return Some((format!("{class}.{callee}"), inputs));
            }
            let module_like = matches!(self.adapter.shape(object, src), Shape::Ident)
                && !self.is_dataframe_var(owner)
                && !self.is_session(owner)
                && !self.column_lists.contains(owner)
                && !vocab::COLUMN_BUILDERS.contains(&owner)
                && !self.is_foreign_module(owner);
            if !module_like {
                return None;
            }
            // `Sources.orders(spark, path)`: a class's or an object's own function
            if owner.starts_with(char::is_uppercase) {
                return Some((format!("{owner}.{callee}"), inputs));
            }
        }
        Some((callee.to_string(), inputs))
    }

    /// The class an expression constructs an object of, when named like one (`Job(spark,
    /// cfg)`), not a call of a function or a library's builder — also through the methods a
    /// fluent object's calls chain on it (`Pipeline(spark, path).clean().enrich()`: each returns
    /// the object), none of them a frame's.
    fn constructed_class(&self, expression: Node<'a>) -> Option<&'a str> {
        let src = self.src;
        let mut expression = self.unwrap_parens(expression);
        for _ in 0..FLUENT_CALLS_CAP {
            match self.adapter.shape(expression, src) {
                Shape::Call {
                    object: Some(object),
                    name,
                    ..
                } if !vocab::is_dataframe_method(text(name, src)) => {
                    expression = self.unwrap_parens(object);
                }
                _ => break,
            }
        }
        let Shape::Call {
            object: None, name, ..
        } = self.adapter.shape(expression, src)
        else {
            return None;
        };
        let class = text(name, src);
        (self.adapter.calls_may_construct()
            && !named_like_function(class)
            && !vocab::COLUMN_BUILDERS.contains(&class)
            && !self.is_foreign_module(class))
        .then_some(class)
    }

    /// After a statement recorded no chain for its value: `x = helper(…)` and `return x` /
    /// `return helper(…)` become pass-through chains.
    pub(super) fn hand_off(
        &mut self,
        statement: Node<'a>,
        host: LineRange,
        assigned: Option<(String, Node<'a>)>,
        returned: Option<Node<'a>>,
    ) {
        if let Some((var, value)) = assigned {
            // (`first = frames[0]` of a list of frame variables: that variable's frame)
            if let Some(list) = self
                .listed_variable(value)
                .or_else(|| self.frame_list_element(value))
            {
                self.pass_through(statement, host, list, Vec::new(), Some(var.clone()), None);
                self.df_vars.insert(var);
                return;
            }
            if let Some((function, inputs)) = self.helper_callee(value) {
                self.pass_through(
                    statement,
                    host,
                    String::new(),
                    inputs,
                    Some(var),
                    Some(function),
                );
                return;
            }
            if let Some(base) = self.read_off_dataframe(value) {
                self.pass_through(statement, host, base, Vec::new(), Some(var.clone()), None);
                self.df_vars.insert(var);
                return;
            }
            // `upper = sales` (before a loop reassigning `upper`): the frame carried on
            let alias = text(value, self.src);
            if matches!(self.adapter.shape(value, self.src), Shape::Ident)
                && alias != var
                && self.is_dataframe_var(alias)
            {
                let alias = alias.to_string();
                self.pass_through(statement, host, alias, Vec::new(), Some(var.clone()), None);
                self.df_vars.insert(var);
                return;
            }
        }
        let Some(value) = returned else { return };
        if let Some((function, inputs)) = self.helper_callee(value) {
            self.pass_through(statement, host, String::new(), inputs, None, Some(function));
            self.mark_returned();
        } else if matches!(
            self.adapter.shape(value, self.src),
            Shape::Ident | Shape::Member { .. }
        ) {
            // (`return self.df`: the frame an object's attribute holds, as a variable's)
            let var = text(value, self.src);
            if self.is_dataframe_var(var) {
                self.pass_through(statement, host, var.to_string(), Vec::new(), None, None);
                self.mark_returned();
            }
        }
    }

    /// Frames carried in tuples, by position: `return orders, products, elapsed` makes a
    /// returned pass-through of each frame; `orders, products, _ = bench.load_data()` a
    /// pass-through from `load_data` for each variable.
    pub(super) fn hand_off_tuples(
        &mut self,
        statement: Node<'a>,
        host: LineRange,
        returned: Option<Node<'a>>,
    ) {
        let src = self.src;
        // (a helper seen returning frames, or variables named like frames: not
        // `current, peak = tracemalloc.get_traced_memory()`)
        if let Some((names, value)) = self.adapter.unpacked_assignment(statement, src)
            && let Some((function, inputs)) = self.helper_callee(self.unwrap_parens(value))
            && (self.returning_functions.contains(unqualified(&function))
                || names.iter().any(|n| vocab::looks_like_dataframe_name(n)))
        {
            for (position, name) in names.into_iter().enumerate().take(TUPLE_CAP) {
                self.pass_through(
                    statement,
                    host,
                    String::new(),
                    inputs.clone(),
                    Some(name),
                    Some(function.clone()),
                );
                self.position_last_chain(position);
            }
            return;
        }
        let Some(tuple) = returned.filter(|v| matches!(v.kind(), "expression_list" | "tuple"))
        else {
            return;
        };
        for (position, element) in named_children(tuple)
            .into_iter()
            .enumerate()
            .take(TUPLE_CAP)
        {
            let var = text(element, src);
            if matches!(self.adapter.shape(element, src), Shape::Ident)
                && self.is_dataframe_var(var)
            {
                self.pass_through(statement, host, var.to_string(), Vec::new(), None, None);
                self.position_last_chain(position);
                self.mark_returned();
            }
        }
    }

    fn position_last_chain(&mut self, position: usize) {
        if let Some(chain) = self.out.chains.last_mut() {
            chain.tuple_position = u8::try_from(position).ok();
        }
    }

    /// `rows.append(flagged.filter(…))`, `frames.add(ds)`: the list a statement adds one value
    /// to, and that value (a frame or not: [`Self::add_to_frame_list`] tells).
    pub(super) fn appended_frame(&self, statement: Node<'a>) -> Option<(String, Node<'a>)> {
        let addition = self.list_addition(statement).filter(|a| !a.adds_all)?;
        let [item] = named_children(addition.args)[..] else {
            return None;
        };
        Some((addition.list.to_string(), self.unwrap_parens(item)))
    }

    /// The values a list is made of: a literal's items (`[orders, returns.filter(…)]`, Scala's
    /// `Seq(orders, returns)`, Java's `List.of(orders, returns)`), a comprehension's item
    /// (`[df.where(c > n) for n in limits]`).
    ///
    /// A mapping's values count as its items (`frames = {"sales": spark.read.csv(…), …}`,
    /// `{name: spark.table(name) for name in names}`, Scala's `Map("sales" -> sales)`): read
    /// back by key (`frames["sales"]`), they are its frames as a list's elements are.
    pub(super) fn listed_values(&self, value: Node<'a>) -> Option<Vec<Node<'a>>> {
        let src = self.src;
        let pair_value = |pair: Node<'a>| match self.adapter.shape(pair, src) {
            Shape::Pair { value, .. } => Some(value),
            _ => None,
        };
        let items = if value.kind() == "dictionary_comprehension" {
            vec![pair_value(value.child_by_field_name("body")?)?]
        } else if self.is_mapping(value) {
            let pairs = match self.adapter.shape(value, src) {
                Shape::Call {
                    args: Some(args), ..
                } => args,
                _ => value,
            };
            named_children(pairs)
                .into_iter()
                .filter_map(pair_value)
                .collect()
        } else {
            match self.comprehension_item(value) {
                Some(item) => vec![item],
                None => self.collection_items(value)?,
            }
        };
        Some(items.into_iter().map(|i| self.unwrap_parens(i)).collect())
    }

    /// After a statement adding `items` to `list` (or making it of them): when they are frames
    /// (chains the statement recorded as assigned to the list, or frame variables and calls of
    /// functions returning frames, recorded now as pass-throughs), the list holds frames — it
    /// is no frame itself, so its own methods (`append`) are no chain.
    pub(super) fn add_to_frame_list(
        &mut self,
        statement: Node<'a>,
        host: LineRange,
        chains_before: usize,
        list: String,
        items: &[Node<'a>],
    ) {
        let mut added = false;
        for chain in &mut self.out.chains[chains_before..] {
            if chain.assigned_to.as_deref() == Some(list.as_str()) {
                chain.appended = true;
                added = true;
            }
        }
        for &item in items {
            let variable = text(item, self.src);
            if matches!(self.adapter.shape(item, self.src), Shape::Ident)
                && self.is_dataframe_var(variable)
            {
                let variable = variable.to_string();
                self.pass_through(
                    statement,
                    host,
                    variable,
                    Vec::new(),
                    Some(list.clone()),
                    None,
                );
                if let Some(chain) = self.out.chains.last_mut() {
                    chain.appended = true;
                }
                added = true;
            } else if let Some((function, inputs)) = self.helper_callee(item)
                && (self.returning_functions.contains(unqualified(&function))
                    || vocab::looks_like_dataframe_name(&list))
            {
                // `[read_day(spark, p) for p in paths]`: what a function returning frames
                // returns, once per element
                self.pass_through(
                    statement,
                    host,
                    String::new(),
                    inputs,
                    Some(list.clone()),
                    Some(function),
                );
                if let Some(chain) = self.out.chains.last_mut() {
                    chain.appended = true;
                }
                added = true;
            }
        }
        if added {
            self.df_vars.remove(&list);
            self.frame_lists.insert(list);
        }
    }

    /// After a statement making `list` of `items` (`frames = [orders, returns]`) or adding to
    /// it: the frame variables the list holds, in order, while it holds nothing else.
    pub(super) fn record_frame_list_variables(
        &mut self,
        list: &str,
        items: &[Node<'a>],
        makes_list: bool,
    ) {
        let variables: Vec<String> = items
            .iter()
            .map(|i| text(*i, self.src))
            .filter(|v| self.is_dataframe_var(v) && !self.frame_lists.contains(*v))
            .map(str::to_string)
            .collect();
        if makes_list
            && !variables.is_empty()
            && variables.len() == items.len()
            && variables.len() <= FOLDED_FRAMES_CAP
        {
            self.frame_list_variables
                .insert(list.to_string(), variables);
        } else {
            self.frame_list_variables.remove(list);
        }
    }

    /// Items of a list this statement makes that lie in statements nested in it: theirs to add
    /// ([`Self::take_pending_list_item`]).
    pub(super) fn defer_nested_list_items(
        &mut self,
        nested: &[(Node<'a>, Option<Node<'a>>)],
        list: &str,
        items: &[Node<'a>],
    ) {
        for &item in items {
            let inside = |n: Node<'a>| {
                n.start_byte() <= item.start_byte() && item.end_byte() <= n.end_byte()
            };
            if nested.iter().any(|(n, _)| inside(*n)) {
                self.pending_list_items.push((item, list.to_string()));
            }
        }
    }

    /// The list item deferred to `statement` by the statement it is nested in, as the list and
    /// its items.
    pub(super) fn take_pending_list_item(
        &mut self,
        statement: Node<'a>,
    ) -> Option<(String, Vec<Node<'a>>)> {
        let at = self.pending_list_items.iter().position(|(item, _)| {
            statement.start_byte() <= item.start_byte() && item.end_byte() <= statement.end_byte()
        })?;
        let (item, list) = self.pending_list_items.swap_remove(at);
        Some((list, vec![item]))
    }

    /// The frame list whose element `value` is: `rows[0]`, Java's `frames.get(0)`, Scala's
    /// `frames(0)` and `frames.head` / `frames.last`.
    pub(super) fn frame_list_element(&self, value: Node<'a>) -> Option<String> {
        let src = self.src;
        let list = match self.adapter.shape(value, src) {
            Shape::Index { object, .. } => object,
            Shape::Call {
                object: Some(object),
                name,
                ..
            } if matches!(text(name, src), "get" | "head") => object,
            Shape::Call {
                object: None, name, ..
            } => name,
            Shape::Member { object, name } if matches!(text(name, src), "head" | "last") => object,
            _ => return None,
        };
        let list = text(list, src);
        self.frame_lists.contains(list).then(|| list.to_string())
    }

    /// The frame variable an element of a list of frame variables is, when its position is
    /// written: `frames[1]`, `frames[-1]`, Java's `frames.get(1)`, Scala's `frames(1)`,
    /// `frames.head`, `frames.last` ([`Self::record_frame_list_variables`]).
    pub(super) fn listed_variable(&self, element: Node<'a>) -> Option<String> {
        let src = self.src;
        let list = self.frame_list_element(element)?;
        let variables = self.frame_list_variables.get(&list)?;
        let position = |n: Node<'a>| -> Option<i64> { text(n, src).trim().parse().ok() };
        let at = match self.adapter.shape(element, src) {
            Shape::Index { index, .. } => position(index)?,
            Shape::Call {
                args: Some(args), ..
            } => match named_children(args)[..] {
                [only] => position(only)?,
                _ => return None,
            },
            Shape::Member { name, .. } if text(name, src) == "last" => -1,
            Shape::Member { .. } => 0,
            _ => return None,
        };
        let at = if at < 0 {
            variables.len() as i64 + at
        } else {
            at
        };
        usize::try_from(at)
            .ok()
            .and_then(|at| variables.get(at))
            .cloned()
    }

    /// A reduction folding frames with a union — Python's `reduce(DataFrame.union, rows)`
    /// (`functools.reduce`, `DataFrame.unionByName`, …), Scala's `rows.reduce(_ union _)`, Java's
    /// `rows.stream().reduce(Dataset::union)` — over a frame list, or over frames listed in place
    /// (`Seq(orders, returns).reduce(_ union _)`, `reduce(DataFrame.union, [orders, returns])`,
    /// `Stream.of(orders, returns).reduce(Dataset::union)`): the union it is, from the reducing
    /// call on.
    pub(super) fn folded_union(&self, flat: &Flat<'a>) -> Option<FoldedUnion<'a>> {
        let src = self.src;
        let (at, function, collection) = flat.links.iter().enumerate().find_map(|(at, link)| {
            let Link::Call {
                node,
                name,
                args: Some(args),
            } = link
            else {
                return None;
            };
            let name = text(*name, src);
            match named_children(*args)[..] {
                // `reduce(f, frames)`, `reduce(f, frames[1:], frames[0])`
                // (`functools.reduce`, a project's own `pairwise_reduce`)
                [function, collection] | [function, collection, _] if name.ends_with("reduce") => {
                    Some((at, function, collection))
                }
                // `frames.reduce(f)`, `frames.stream().reduce(f)`
                [function] if vocab::COLLECTION_REDUCERS.contains(&name) => {
                    let Shape::Call {
                        object: Some(object),
                        ..
                    } = self.adapter.shape(*node, src)
                    else {
                        return None;
                    };
                    Some((at, function, self.streamed(object)))
                }
                _ => None,
            }
        })?;
        let method = self.union_folded_by(function)?;
        let collection = self.unwrap_parens(collection);
        // (`frames[1:]` after `frames[0]` as the start: the list's frames all the same)
        let collection = match self.adapter.shape(collection, src) {
            Shape::Index { object, .. } if self.frame_lists.contains(text(object, src)) => object,
            _ => collection,
        };
        let list = text(collection, src);
        if matches!(self.adapter.shape(collection, src), Shape::Ident) {
            if !self.frame_lists.contains(list) {
                return None;
            }
            // a list of frame variables folds them in order, as if listed here
            let (receiver, inputs) = match self.frame_list_variables.get(list) {
                Some(variables) => (variables[0].clone(), variables[1..].to_vec()),
                None => (list.to_string(), Vec::new()),
            };
            return Some(FoldedUnion {
                receiver,
                inputs,
                method,
                at,
                function,
            });
        }
        let items = self.collection_items(collection)?;
        let (first, rest) = items.split_first()?;
        Some(FoldedUnion {
            receiver: capped(text(*first, src), 80),
            inputs: rest
                .iter()
                .filter(|i| matches!(self.adapter.shape(**i, src), Shape::Ident))
                .map(|i| text(*i, src).to_string())
                .take(FOLDED_FRAMES_CAP)
                .collect(),
            method,
            at,
            function,
        })
    }

    /// After a statement whose value folds items into a frame with a lambda (`reduce(lambda acc,
    /// c: acc.withColumn(c, …), columns, df)`): the lambda's chain, applied to `df` once per
    /// column, is the statement's value — on `df`, assigned or returned. Whether it was (a
    /// lambda the extractor reads later, in a block, takes it on when its chain is recorded:
    /// [`Self::settle_pending_fold`]).
    pub(super) fn fold_into_start(
        &mut self,
        host: LineRange,
        assigned: Option<(&str, Node<'a>)>,
        returned: Option<Node<'a>>,
    ) -> bool {
        let value = assigned.map(|(_, v)| v).or(returned);
        let Some((accumulator, start)) = value.and_then(|v| self.folded_frame(v)) else {
            return false;
        };
        let fold = PendingFold {
            host,
            accumulator,
            start,
            assigned_to: assigned.map(|(var, _)| var.to_string()),
            returned: assigned.is_none(),
        };
        if let Some(var) = &fold.assigned_to {
            self.df_vars.insert(var.clone());
        }
        if fold.returned
            && let Some(function) = self.current_function()
        {
            self.returning_functions.insert(function);
        }
        match self.out.chains.iter().rposition(|c| fold.folds(c)) {
            Some(chain) => fold.settle(&mut self.out.chains[chain]),
            None => self.pending_folds.push(fold),
        }
        true
    }

    /// A chain just recorded that a fold read earlier was waiting for takes the fold on.
    pub(super) fn settle_pending_fold(&mut self) {
        let Some(chain) = self.out.chains.last_mut() else {
            return;
        };
        if let Some(at) = self.pending_folds.iter().position(|f| f.folds(chain)) {
            self.pending_folds.swap_remove(at).settle(chain);
        }
    }

    /// A reduction folding items into a frame (`reduce(lambda acc, c: acc.withColumn(c, …),
    /// columns, df)`, Scala's `columns.foldLeft(df)((acc, c) => …)`): the accumulator the
    /// lambda's body is a chain on, and the name of the frame the reduction starts from (`df`).
    fn folded_frame(&self, value: Node<'a>) -> Option<(String, String)> {
        let src = self.src;
        let (function, start) = match self.adapter.shape(self.unwrap_parens(value), src) {
            Shape::Call {
                name,
                args: Some(args),
                ..
            } if text(name, src).ends_with("reduce") => match named_children(args)[..] {
                [function, _, start] => (function, start),
                _ => return None,
            },
            // Scala's `cols.foldLeft(df)((acc, c) => acc.withColumn(c, …))`, the function
            // also written as a block (`{ (acc, c) => … }`)
            Shape::Apply {
                callee,
                args: Some(args),
            } => {
                let Shape::Call {
                    object: Some(_),
                    name,
                    args: Some(starts),
                } = self.adapter.shape(callee, src)
                else {
                    return None;
                };
                let ([start], [function]) =
                    (&named_children(starts)[..], &named_children(args)[..])
                else {
                    return None;
                };
                if text(name, src) != "foldLeft" {
                    return None;
                }
                let function = match named_children(*function)[..] {
                    [only] if function.kind() == "block" => only,
                    _ => *function,
                };
                (function, *start)
            }
            _ => return None,
        };
        if !matches!(self.adapter.shape(function, src), Shape::Lambda)
            || !matches!(self.adapter.shape(start, src), Shape::Ident)
        {
            return None;
        }
        let body = self.flatten(self.unwrap_parens(self.adapter.lambda_body(function)?))?;
        if body.base_is_call || !matches!(self.adapter.shape(body.base, src), Shape::Ident) {
            return None;
        }
        Some((
            text(body.base, src).to_string(),
            text(start, src).to_string(),
        ))
    }

    /// The collection a Java stream walks (`frames` of `frames.stream()`), or `node` itself.
    fn streamed(&self, node: Node<'a>) -> Node<'a> {
        match self.adapter.shape(node, self.src) {
            Shape::Call {
                object: Some(object),
                name,
                args,
            } if text(name, self.src) == "stream"
                && args.is_none_or(|a| named_children(a).is_empty()) =>
            {
                object
            }
            _ => node,
        }
    }

    /// The union method a reduction's function value applies (`DataFrame.union`, `_ union _`,
    /// `Dataset::unionByName`, `lambda a, b: a.union(b)`); `None` for any other function.
    fn union_folded_by(&self, function: Node<'a>) -> Option<String> {
        let method = self
            .adapter
            .referenced_method(function, self.src)
            .or_else(|| self.lambda_folding_method(function))?;
        let method = text(method, self.src);
        matches!(method, "union" | "unionAll" | "unionByName").then(|| method.to_string())
    }

    /// The method a lambda applies to one variable with another (`lambda a, b: a.union(b)`,
    /// `(a, b) -> a.union(b, …)`).
    fn lambda_folding_method(&self, function: Node<'a>) -> Option<Node<'a>> {
        let src = self.src;
        if !matches!(self.adapter.shape(function, src), Shape::Lambda) {
            return None;
        }
        let body = self.unwrap_parens(self.adapter.lambda_body(function)?);
        let Shape::Call {
            object: Some(object),
            name,
            args: Some(args),
        } = self.adapter.shape(body, src)
        else {
            return None;
        };
        let other = *named_children(args).first()?;
        let variables = [object, other]
            .map(|v| matches!(self.adapter.shape(v, src), Shape::Ident).then(|| text(v, src)));
        match variables {
            [Some(a), Some(b)] if a != b => Some(name),
            _ => None,
        }
    }

    /// The item a comprehension makes of each element ([`LanguageAdapter::comprehension_item`]),
    /// unless what it maps is a frame: a typed Dataset's `ds.map(r => …)` (or
    /// `spark.range(3).map(…)`) makes rows, not a collection — a frame's column names
    /// (`df.columns.map(c => col(c))`) are a collection.
    ///
    /// [`LanguageAdapter::comprehension_item`]: super::super::LanguageAdapter::comprehension_item
    pub(super) fn comprehension_item(&self, value: Node<'a>) -> Option<Node<'a>> {
        let item = self.adapter.comprehension_item(value, self.src)?;
        let maps_a_frame = self.flatten(value).is_some_and(|flat| {
            let base = text(flat.base, self.src);
            !flat.base_is_call
                && (self.is_dataframe_var(base) || self.is_session(base))
                && !flat
                    .links
                    .iter()
                    .any(|l| self.member_named(l, vocab::COLUMN_LISTINGS))
        });
        (!maps_a_frame).then_some(item)
    }

    /// `for r in rows[1:]:` over a frame list or part of it: `r` holds its frames, a pass-through
    /// from the list on the loop's line.
    pub(super) fn bind_loop_variable(
        &mut self,
        iterable: Node<'a>,
        parent: Option<Node<'a>>,
        host: LineRange,
    ) {
        let Some(variable) = self.adapter.loop_variable(iterable, parent, self.src) else {
            return;
        };
        // the list, or a part of it (`rows[1:]`, `frames.subList(1, n)`)
        let walked = self.unwrap_parens(iterable);
        let list = match self.adapter.shape(walked, self.src) {
            Shape::Ident => walked,
            Shape::Index { object, .. }
            | Shape::Call {
                object: Some(object),
                ..
            } => object,
            _ => return,
        };
        let list = text(list, self.src);
        if self.frame_lists.contains(list) {
            let list = list.to_string();
            self.pass_through(
                iterable,
                host,
                list,
                Vec::new(),
                Some(variable.clone()),
                None,
            );
            self.df_vars.insert(variable);
        }
    }

    /// `summary = model.summary`, `preds = summary.predictions`: a value read off a DataFrame
    /// variable — or off what one was fed to, a fitted model — carries that frame's data on. Not
    /// what describes the frame instead (`df.columns`, `df.schema`, `df.write`).
    fn read_off_dataframe(&self, value: Node<'a>) -> Option<String> {
        let src = self.src;
        let Shape::Member { mut object, name } = self.adapter.shape(value, src) else {
            return None;
        };
        if vocab::FRAME_DESCRIPTIONS.contains(&text(name, src)) {
            return None;
        }
        while let Shape::Member { object: inner, .. } = self.adapter.shape(object, src) {
            object = inner;
        }
        let base = text(object, src);
        (matches!(self.adapter.shape(object, src), Shape::Ident) && self.is_dataframe_var(base))
            .then(|| base.to_string())
    }

    fn pass_through(
        &mut self,
        statement: Node<'a>,
        host: LineRange,
        receiver: String,
        inputs: Vec<String>,
        assigned_to: Option<String>,
        source_function: Option<String>,
    ) {
        let id = self.out.chains.len() as u32;
        self.out.chains.push(CallChain {
            id,
            file: 0,
            symbol: self.symbol_stack.last().copied(),
            statement: host,
            receiver,
            inputs,
            assigned_to,
            calls: Vec::new(),
            text: capped(self.own_statement_text(statement), STATEMENT_TEXT_CAP),
            source_function,
            applied_functions: Vec::new(),
            returned: false,
            unread: false,
            receiver_made_at: None,
            branch_depth: self.branch_depth(statement),
            tuple_position: None,
            appended: false,
            returned_columns: Vec::new(),
            returns_exactly: false,
        });
    }

    /// The function a value names: `clean`, the member of `tx.clean` / `Cleaning.clean`.
    fn function_named(&self, value: Node<'a>) -> Option<&'a str> {
        match self.adapter.shape(value, self.src) {
            Shape::Ident => Some(text(value, self.src)),
            Shape::Member { name, .. } => Some(text(name, self.src)),
            _ => None,
        }
    }

    /// What a call of a user function passes (`ingest(spark, RAW_FILE, "out/")`): string
    /// literals and names, by position or keyword, so a parameter used as a path
    /// (`read.csv(input_file)`) can be given its callers' values.
    pub(super) fn record_passed(&mut self, call: Node<'a>) {
        let src = self.src;
        let Some((callee, _)) = self.helper_callee(call) else {
            return;
        };
        let mut callee = unqualified(&callee).to_string();
        let Shape::Call {
            args: Some(args), ..
        } = self.adapter.shape(call, src)
        else {
            return;
        };
        let mut given = named_children(args);
        // `partial(tx.at_least, minimum=50.0)` passes its other arguments to the function it is
        // given first
        if vocab::PARTIAL_APPLIERS.contains(&callee.as_str()) {
            let Some(function) = given.first().and_then(|f| self.function_named(*f)) else {
                return;
            };
            callee = function.to_string();
            given.remove(0);
        }
        let mut position = 0u32;
        for arg in given.into_iter().take(PASSED_ARGS_CAP) {
            if arg.kind().contains("comment") {
                continue;
            }
            let (keyword, value) = match self.adapter.shape(arg, src) {
                Shape::Keyword { name, value } => (Some(text(name, src).to_string()), value),
                _ => {
                    position += 1;
                    (None, arg)
                }
            };
            let Some(value) = self.passed_value(value) else {
                continue;
            };
            self.out.passed.push(PassedArg {
                file: 0,
                symbol: self.symbol_stack.last().copied(),
                line: super::super::start_line(call),
                callee: callee.clone(),
                position: keyword.is_none().then(|| position - 1),
                keyword,
                value,
            });
        }
    }

    /// What an argument passes a parameter, or a parameter's default gives it: a string or
    /// number literal, a name (a constant's, resolved later across files), a settings key, a
    /// user function's call, another expression; `None` for a session.
    fn passed_value(&self, value: Node<'a>) -> Option<ArgValue> {
        let src = self.src;
        if let Some(key) = self.setting_key(value) {
            return Some(ArgValue::Setting(key));
        }
        Some(match self.adapter.shape(value, src) {
            Shape::Str => ArgValue::Literal(self.adapter.decode_string(value, src)?.text),
            // `below(df, "Close", 500)`: a value the helper compares with
            Shape::Number => ArgValue::Literal(text(value, src).to_string()),
            Shape::Ident => {
                let name = text(value, src);
                if let Some(var) = self.string_vars.get(name) {
                    ArgValue::Literal(var.value.text.clone())
                } else if self.is_session(name) {
                    return None;
                } else {
                    ArgValue::Name(name.to_string())
                }
            }
            // `config.RAW_FILE`
            Shape::Member { object, name }
                if matches!(self.adapter.shape(object, src), Shape::Ident) =>
            {
                ArgValue::Name(text(name, src).to_string())
            }
            // `str(RAW_DIR / "orders.parquet")`, `"a" "b"`
            _ => match self.string_value(value) {
                Some((string, _)) => ArgValue::Literal(string.text),
                // `self.transform(self.extract())`: the frame `extract` returns
                None => match self.helper_callee(value) {
                    Some((function, _)) => ArgValue::Returned(function),
                    None => ArgValue::Expression,
                },
            },
        })
    }

    /// A class's method that takes nothing and returns a string reads like its field
    /// (`@property def orders_path(self): return str(self.data_dir / "orders.csv")`, Scala's
    /// `def ordersPath: String = s"$base/orders.csv"`): `cfg.orders_path` is that string, a
    /// constant by the method's name as a field's value is one by the field's.
    pub(super) fn record_returned_constant(&mut self, value: Node<'a>) {
        let Some(method) = self
            .symbol_stack
            .last()
            .and_then(|id| self.out.symbols.get(*id as usize))
        else {
            return;
        };
        let in_class = method
            .parent
            .and_then(|p| self.out.symbols.get(p as usize))
            .is_some_and(|p| matches!(p.kind, SymbolKind::Object | SymbolKind::Class));
        let function = matches!(method.kind, SymbolKind::Function | SymbolKind::Method);
        if !function || !method.params.is_empty() || !in_class {
            return;
        }
        let name = method.name.clone();
        if let Some((decoded, literal)) = self.string_value(value) {
            self.out.constants.push(Constant {
                file: 0,
                name,
                value: self.filled_interpolations(literal, decoded.text),
                from_setting: false,
            });
        }
    }

    /// A string (or a number) bound at a module's top level, or as a field of an object or
    /// class, is a constant other files may import or inherit (`RAW_FILE =
    /// "data/transactions.csv"`, a base job class's `val gold_path = s"$gold_layer/products/"`,
    /// `MIN_QTY = 2`); so is a settings read bound there (`val flights =
    /// config.getString("input.flights")`), as its key.
    pub(super) fn record_constant(&mut self, name: &str, value: Node<'a>) {
        let top_level = match self.symbol_stack.last() {
            None => true,
            Some(id) => self
                .out
                .symbols
                .get(*id as usize)
                .is_some_and(|s| matches!(s.kind, SymbolKind::Object | SymbolKind::Class)),
        };
        if !top_level {
            return;
        }
        let (value, from_setting) = if let Some((decoded, literal)) = self.string_value(value) {
            (self.filled_interpolations(literal, decoded.text), false)
        } else if matches!(self.adapter.shape(value, self.src), Shape::Number) {
            // `MIN_QTY = 2`, compared with in a filter elsewhere
            (text(value, self.src).to_string(), false)
        } else if let Some(key) = self.setting_key(value) {
            // `val flights = config.getString("input.flights")` in an object
            (key, true)
        } else {
            // `CUSTOMER_KEYS = Arrays.asList("customer_id")`, `KEYS = ["id", "day"]`: each
            // string is one of the values the name stands for
            let strings: Vec<String> = self
                .collection_items(value)
                .and_then(|items| {
                    items
                        .into_iter()
                        .map(|item| self.string_value(item).map(|(decoded, _)| decoded.text))
                        .collect()
                })
                .unwrap_or_default();
            if !strings.is_empty() && strings.iter().all(|s| !s.contains(LISTED_VALUES_SEPARATOR)) {
                self.out.constants.push(Constant {
                    file: 0,
                    name: name.to_string(),
                    value: strings.join(&LISTED_VALUES_SEPARATOR.to_string()),
                    from_setting: false,
                });
            }
            return;
        };
        self.out.constants.push(Constant {
            file: 0,
            name: name.to_string(),
            value,
            from_setting,
        });
    }

    /// `decoded` (the text of string `literal`) with each interpolation of a name holding a
    /// string (`s"$gold_layer/products/"`, `f"{BASE}/orders.csv"`) replaced by that string;
    /// other interpolations stay [`PLACEHOLDER`]s.
    fn filled_interpolations(&self, literal: Node<'a>, decoded: String) -> String {
        if !decoded.contains(PLACEHOLDER) {
            return decoded;
        }
        let interpolations = self.interpolations(literal);
        let mut filled = String::with_capacity(decoded.len());
        let mut pieces = decoded.split(PLACEHOLDER);
        filled.push_str(pieces.next().unwrap_or(""));
        for (position, piece) in pieces.enumerate() {
            let held = interpolations.get(position).and_then(|node| {
                let name = named_children(*node)
                    .into_iter()
                    .find(|n| matches!(self.adapter.shape(*n, self.src), Shape::Ident))
                    .map_or_else(|| text(*node, self.src), |n| text(n, self.src));
                let name = name.trim_start_matches('$');
                self.string_vars.get(name).map(|v| v.value.text.as_str())
            });
            filled.push_str(held.unwrap_or(PLACEHOLDER));
            filled.push_str(piece);
        }
        filled
    }

    /// A function's parameter names in order, its receiver (`self`, `cls`) left out; a record
    /// class's fields ([`Self::record_fields`]).
    pub(super) fn parameters(&self, definition: Node<'a>, kind: SymbolKind) -> Vec<String> {
        if kind == SymbolKind::Class {
            return self.record_fields(definition);
        }
        self.parameter_nodes(definition, kind)
            .into_iter()
            .map(|(_, name)| text(name, self.src))
            .filter(|name| *name != "self" && *name != "cls")
            .map(str::to_string)
            .collect()
    }

    /// The values a function's parameters default to: Python's `path=SALES_PATH`, Scala's
    /// `path: String = Paths.Sales` ([`Self::passed_value`]).
    pub(super) fn parameter_defaults(
        &self,
        definition: Node<'a>,
        kind: SymbolKind,
    ) -> Vec<ParamDefault> {
        self.parameter_nodes(definition, kind)
            .into_iter()
            .filter_map(|(param, name)| {
                let value = param
                    .child_by_field_name("value")
                    .or_else(|| param.child_by_field_name("default_value"))?;
                // (a default naming no value the callers' values could be: none kept)
                let value = self.passed_value(value)?;
                let kept = matches!(
                    value,
                    ArgValue::Literal(_) | ArgValue::Name(_) | ArgValue::Setting(_)
                );
                kept.then(|| ParamDefault {
                    param: text(name, self.src).to_string(),
                    value,
                })
            })
            .collect()
    }

    /// The parameters of a function whose declared type is a frame: Python's `df: DataFrame`
    /// (also `pyspark.sql.DataFrame`, `"DataFrame"`, `DataFrame | None`), Scala's
    /// `df: DataFrame` / `ds: Dataset[Order]`, Java's `Dataset<Row> df`.
    pub(super) fn frame_typed_parameters(
        &self,
        definition: Node<'a>,
        kind: SymbolKind,
    ) -> Vec<String> {
        self.parameter_nodes(definition, kind)
            .into_iter()
            .filter(|(param, _)| {
                param
                    .child_by_field_name("type")
                    .is_some_and(|declared| names_frame_type(text(declared, self.src)))
            })
            .map(|(_, name)| text(name, self.src).to_string())
            .collect()
    }

    /// A function's parameters in order (its first four parameter lists, as Scala's curried
    /// ones), each with the node naming it; none for anything but a function or method.
    fn parameter_nodes(&self, definition: Node<'a>, kind: SymbolKind) -> Vec<(Node<'a>, Node<'a>)> {
        if !matches!(kind, SymbolKind::Function | SymbolKind::Method) {
            return Vec::new();
        }
        definition
            .children_by_field_name("parameters", &mut definition.walk())
            // (Scala's `def read[T](…)`: a type parameter is no value a call passes)
            .filter(|list| list.kind() != "type_parameters")
            .take(4)
            .flat_map(named_children)
            .filter_map(|param| {
                let name = if param.kind() == "identifier" {
                    Some(param)
                } else {
                    param
                        .child_by_field_name("name")
                        .or_else(|| param.named_child(0).filter(|n| n.kind() == "identifier"))
                };
                name.map(|name| (param, name))
            })
            .collect()
    }

    /// The fields a frame of a class's objects has as columns: a Scala case class's parameters
    /// (`case class Person(name: String, age: Int)`), a Java record's components, a Java bean's
    /// instance fields (`private String name;`), in order. Empty for any other class.
    fn record_fields(&self, definition: Node<'a>) -> Vec<String> {
        let src = self.src;
        let name_of = |n: Node<'a>| {
            n.child_by_field_name("name")
                .map(|n| text(n, src).to_string())
        };
        let mut fields = Vec::new();
        // (`case class`, whatever modifiers come first)
        let head = definition
            .child_by_field_name("name")
            .map_or("", |n| &src[definition.start_byte()..n.start_byte()]);
        match definition.kind() {
            "class_definition" if head.split_whitespace().any(|w| w == "case") => {
                for list in
                    definition.children_by_field_name("class_parameters", &mut definition.walk())
                {
                    fields.extend(named_children(list).into_iter().filter_map(name_of));
                }
            }
            "record_declaration" => {
                if let Some(list) = definition.child_by_field_name("parameters") {
                    fields.extend(named_children(list).into_iter().filter_map(name_of));
                }
            }
            "class_declaration" => {
                let body = definition.child_by_field_name("body");
                for member in body.map(named_children).unwrap_or_default() {
                    let is_static = named_children(member)
                        .iter()
                        .any(|c| c.kind() == "modifiers" && text(*c, src).contains("static"));
                    if member.kind() != "field_declaration" || is_static {
                        continue;
                    }
                    let declarators = member
                        .children_by_field_name("declarator", &mut member.walk())
                        .collect::<Vec<_>>();
                    fields.extend(declarators.into_iter().filter_map(name_of));
                }
            }
            _ => {}
        }
        fields.truncate(RECORD_FIELDS_CAP);
        fields
    }
}

/// Most fields one record class keeps.
const RECORD_FIELDS_CAP: usize = 64;

/// Whether a declared type is a collection of frames (`List<Dataset<Row>>`, `Seq[DataFrame]`):
/// its variable is a frame list, not a frame.
pub(super) fn names_frame_collection_type(declared: &str) -> bool {
    const COLLECTIONS: [&str; 9] = [
        "List",
        "ArrayList",
        "LinkedList",
        "Collection",
        "Seq",
        "Array",
        "ListBuffer",
        "ArrayBuffer",
        "Vector",
    ];
    let outer = declared
        .split(['<', '['])
        .next()
        .and_then(|name| name.trim().rsplit('.').next())
        .unwrap_or("");
    COLLECTIONS.contains(&outer) && names_frame_type(declared)
}

/// Whether a declared type is a frame: `DataFrame`, `Dataset[T]`, `Dataset<Row>`,
/// `pyspark.sql.DataFrame`, `Optional[DataFrame]`, `DataFrame | None`, `"DataFrame"`.
pub(super) fn names_frame_type(declared: &str) -> bool {
    declared
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| word == "DataFrame" || word == "Dataset")
}

/// Whether `callee` is named like a function rather than a class: lower case or `_` first
/// (`load_orders`), or words joined by `_` after a capitalised acronym (`IV_calculation`) — a
/// class's name is CamelCase.
fn named_like_function(callee: &str) -> bool {
    callee.starts_with(|c: char| c.is_lowercase() || c == '_')
        || callee.contains('_') && callee.chars().any(|c| c.is_lowercase())
}
