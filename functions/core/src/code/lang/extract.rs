//! The language-neutral extractor: one pass over a parsed file that fills a [`FileExtract`].
//!
//! The pass walks the tree with an explicit stack. Definitions open symbols; every statement
//! (as the adapter defines it) is searched for *chain tops* — the outermost `a.b(..).c(..)` of a
//! method chain — which are flattened receiver-first into [`SparkCall`]s. A chain is kept when it
//! is a DataFrame chain: it starts at a known DataFrame variable or a session, or uses a method
//! only DataFrames have (see [`vocab`]). Variables assigned from kept chains become known
//! DataFrame variables for later statements (the variable flow). String literals assigned to
//! variables are remembered so `spark.sql(q)` finds its SQL; SQL-looking literals that never
//! reach `sql()` are still indexed (origin `StringLiteral`) when they parse.
//!
//! Arguments that are variables are resolved too: a variable assigned (in the same scope, else
//! an enclosing one, else module level) a string, a literal collection, a `StructType` or a
//! window spec is folded into the call that uses it as if written inline — bounded to
//! [`FOLD_STRING_CAP`] strings, so data lists cannot bloat the index.
//!
//! Ids in a [`FileExtract`] are local to the file; the index builder renumbers them.

use super::vocab::{self, ArgRole};
use super::{LanguageAdapter, Shape, end_line, named_children, start_line, text};
use crate::code::index::{
    CallArgs, CallChain, CodeFlags, Language, LineRange, SparkCall, SqlOrigin, SqlStatement,
    Symbol, SymbolId, SymbolKind,
};
use crate::code::sql::analyse_sql;
use crate::code::sql_expr::sql_expression_tokens;
use crate::code::strings::{DecodedString, capped, dedup, looks_like_sql, strip_margin};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;

mod handoff;

/// Longest statement / argument text kept in the index.
const STATEMENT_TEXT_CAP: usize = 600;
const ARG_TEXT_CAP: usize = 240;
/// Upper bound on nodes visited while breaking down one call's arguments.
const ARG_NODE_BUDGET: usize = 20_000;
/// Most strings one variable argument contributes (data lists can be huge).
const FOLD_STRING_CAP: usize = 200;
/// Upper bound on nodes visited while collecting one variable's strings.
const FOLD_NODE_BUDGET: usize = 5_000;
/// Most variable arguments resolved in one call's arguments.
const FOLD_VARS_CAP: usize = 16;

/// What one file contributes to the index (file-local ids; `file` fields are 0).
#[derive(Debug, Default, Clone)]
pub struct FileExtract {
    pub symbols: Vec<Symbol>,
    /// Parallel to `symbols`: alive whatever the call graph says.
    pub entry_points: Vec<bool>,
    pub chains: Vec<CallChain>,
    pub sql: Vec<SqlStatement>,
    /// `(caller, callee name)`; caller `None` = module level or a `__main__` block.
    pub call_edges: Vec<(Option<SymbolId>, String)>,
    /// tree-sitter produced no tree, or the tree has errors.
    pub had_errors: bool,
}

thread_local! {
    /// One parser per thread and language: a parser keeps its allocations between files.
    static PARSERS: std::cell::RefCell<HashMap<Language, tree_sitter::Parser>> =
        std::cell::RefCell::new(HashMap::new());
}

/// Parse `src` with the adapter's grammar, reusing this thread's parser for the language.
fn parse(adapter: &dyn LanguageAdapter, src: &str) -> Option<tree_sitter::Tree> {
    crate::allocator::install_tree_sitter_allocator();
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let parser = match parsers.entry(adapter.language()) {
            std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
            std::collections::hash_map::Entry::Vacant(entry) => {
                let mut parser = tree_sitter::Parser::new();
                parser.set_language(&adapter.grammar()).ok()?;
                entry.insert(parser)
            }
        };
        let tree = parser.parse(src, None);
        // A parse that stopped early leaves state behind; the next file must start clean.
        parser.reset();
        tree
    })
}

/// Parse `src` with the adapter's grammar and extract symbols, chains and SQL.
/// `module_prefix` (`jobs.etl`) prefixes qualified names; `file_flags` are inherited by symbols.
pub fn extract_file(
    adapter: &dyn LanguageAdapter,
    src: &str,
    module_prefix: &str,
    file_flags: CodeFlags,
) -> FileExtract {
    let Some(tree) = parse(adapter, src) else {
        return FileExtract {
            had_errors: true,
            ..FileExtract::default()
        };
    };
    let mut extractor = Extractor {
        adapter,
        cursor: tree.root_node().walk(),
        src,
        file_flags,
        out: FileExtract {
            had_errors: tree.root_node().has_error(),
            ..FileExtract::default()
        },
        symbol_stack: Vec::new(),
        qualified_stack: if module_prefix.is_empty() {
            Vec::new()
        } else {
            vec![module_prefix.to_string()]
        },
        main_depth: 0,
        df_vars: HashSet::new(),
        string_vars: HashMap::new(),
        sql_literals: HashMap::new(),
        value_vars: HashMap::new(),
        consumed_literals: HashSet::new(),
        returning_functions: HashSet::new(),
    };
    extractor.run(tree.root_node());
    extractor.finish()
}

enum Frame<'t> {
    /// A node and its parent (tree-sitter's `Node::parent` walks down from the root, so the
    /// traversal carries parents itself).
    Enter(Node<'t>, Option<Node<'t>>),
    LeaveSymbol,
    LeaveMain,
}

struct StringVar {
    value: DecodedString,
    host: LineRange,
    literal_start: usize,
}

/// What a variable holds, when that is worth folding into the calls that use it: `columns =
/// ["a", "b"]` then `createDataFrame(data, columns)` mentions `a` and `b` as surely as if they
/// were written inline.
#[derive(Clone)]
enum FoldValue<'t> {
    /// A string literal: folded with the role of the argument it is passed as.
    Str(Node<'t>),
    /// A literal collection (`[…]`, `(…)`, `Seq(…)`, `Arrays.asList(…)`): its strings.
    Collection(Node<'t>),
    /// A `StructType`: its field names, which are columns.
    Struct(Vec<String>),
    /// A window spec (`Window.partitionBy(…).orderBy(…)`): broken down like an inline spec.
    Window(Node<'t>),
}

struct SqlLiteral {
    value: DecodedString,
    host: LineRange,
    symbol: Option<SymbolId>,
}

struct Extractor<'a> {
    adapter: &'a dyn LanguageAdapter,
    /// One cursor reused for every child listing (allocating one per node costs ~10%).
    cursor: tree_sitter::TreeCursor<'a>,
    src: &'a str,
    file_flags: CodeFlags,
    out: FileExtract,
    symbol_stack: Vec<SymbolId>,
    qualified_stack: Vec<String>,
    main_depth: usize,
    df_vars: HashSet<String>,
    string_vars: HashMap<String, StringVar>,
    /// SQL-looking literals by start byte, emitted at the end unless `sql()` consumed them.
    sql_literals: HashMap<usize, SqlLiteral>,
    consumed_literals: HashSet<usize>,
    /// Variables by (scope symbol, name) with their foldable value, if any; scope `None` =
    /// module level.
    value_vars: HashMap<(Option<SymbolId>, String), Option<FoldValue<'a>>>,
    /// Functions of this file seen returning a DataFrame chain (see [`handoff`]).
    returning_functions: HashSet<String>,
}

/// One step of a flattened chain.
#[derive(Clone, Copy)]
enum Link<'t> {
    Call {
        node: Node<'t>,
        name: Node<'t>,
        args: Option<Node<'t>>,
    },
    Member {
        name: Node<'t>,
    },
}

struct Flat<'t> {
    /// Receiver-first.
    links: Vec<Link<'t>>,
    /// The expression the chain starts from (for a base call `f(x)`, that call).
    base: Node<'t>,
    base_is_call: bool,
}

impl<'a> Extractor<'a> {
    fn run(&mut self, root: Node<'a>) {
        let mut stack = vec![Frame::Enter(root, None)];
        while let Some(frame) = stack.pop() {
            let (node, parent) = match frame {
                Frame::Enter(node, parent) => (node, parent),
                Frame::LeaveSymbol => {
                    self.symbol_stack.pop();
                    self.qualified_stack.pop();
                    continue;
                }
                Frame::LeaveMain => {
                    self.main_depth = self.main_depth.saturating_sub(1);
                    continue;
                }
            };
            if let Some(def) = self.adapter.definition(node, self.src) {
                self.open_symbol(node, def);
                stack.push(Frame::LeaveSymbol);
            }
            if self.adapter.is_main_guard(node, self.src) {
                self.main_depth += 1;
                stack.push(Frame::LeaveMain);
            }
            if self.adapter.is_statement(node, parent) {
                // The statement walk visits its whole subtree once and hands back the nested
                // statements and definitions (lambdas with blocks, local classes) it skipped.
                let nested = self.statement(node, parent);
                for (child, child_parent) in nested.into_iter().rev() {
                    stack.push(Frame::Enter(child, child_parent));
                }
                continue;
            }
            if let Shape::Call { name, .. } = self.adapter.shape(node, self.src) {
                self.record_call(name);
            }
            // Listing children resets the cursor even when there are none (most nodes are
            // leaves); asking the count first is one field read.
            if node.child_count() == 0 {
                continue;
            }
            let first = stack.len();
            stack.extend(
                node.named_children(&mut self.cursor)
                    .map(|child| Frame::Enter(child, Some(node))),
            );
            stack[first..].reverse();
        }
    }

    fn finish(mut self) -> FileExtract {
        let mut literals: Vec<(usize, SqlLiteral)> = self
            .sql_literals
            .drain()
            .filter(|(start, _)| !self.consumed_literals.contains(start))
            .collect();
        literals.sort_by_key(|(start, _)| *start);
        for (_, literal) in literals {
            for analysed in analyse_sql(&literal.value) {
                if !analysed.parsed {
                    continue;
                }
                let id = self.out.sql.len() as u32;
                self.out.sql.push(SqlStatement {
                    id,
                    file: 0,
                    symbol: literal.symbol,
                    origin: SqlOrigin::StringLiteral,
                    lines: analysed.lines,
                    host_statement: literal.host,
                    parsed: true,
                    clauses: analysed.clauses,
                    assigned_to: None,
                });
            }
        }
        self.out.sql.sort_by_key(|s| (s.lines.start, s.lines.end));
        for (i, s) in self.out.sql.iter_mut().enumerate() {
            s.id = i as u32;
        }
        self.out
    }

    fn open_symbol(&mut self, node: Node<'a>, def: super::Definition<'a>) {
        let name = text(def.name, self.src).to_string();
        let parent = self.symbol_stack.last().copied();
        let parent_kind = parent
            .and_then(|p| self.out.symbols.get(p as usize))
            .map(|s| s.kind);
        let kind = match (def.kind, parent_kind) {
            (SymbolKind::Function, Some(SymbolKind::Class | SymbolKind::Object)) => {
                SymbolKind::Method
            }
            (kind, _) => kind,
        };
        let mut qualified = self.qualified_stack.join(".");
        if !qualified.is_empty() {
            qualified.push('.');
        }
        qualified.push_str(&name);
        let lower = name.to_ascii_lowercase();
        let flags = CodeFlags {
            test: self.file_flags.test
                || lower.starts_with("test")
                || name.ends_with("Test")
                || name.ends_with("Tests")
                || name.ends_with("Suite")
                || name.ends_with("Spec"),
            utility: self.file_flags.utility
                || lower.contains("util")
                || lower.contains("helper")
                || lower.starts_with("log")
                || lower.starts_with("debug")
                || lower.starts_with("print"),
            dead: false,
        };
        let id = self.out.symbols.len() as SymbolId;
        self.out.symbols.push(Symbol {
            id,
            file: 0,
            name: name.clone(),
            qualified_name: qualified,
            kind,
            lines: LineRange::new(start_line(node), end_line(node)),
            doc: self.adapter.doc(node, self.src),
            parent,
            callers: Vec::new(),
            flags,
        });
        self.out
            .entry_points
            .push(self.adapter.is_entry_point(node, &name, self.src));
        self.symbol_stack.push(id);
        self.qualified_stack.push(name);
    }

    fn is_dataframe_var(&self, name: &str) -> bool {
        self.df_vars.contains(name) || vocab::looks_like_dataframe_name(name)
    }

    /// Search one statement for chains, SQL and SQL-holding variables.
    fn record_call(&mut self, name: Node<'a>) {
        let caller = if self.main_depth > 0 {
            None
        } else {
            self.symbol_stack.last().copied()
        };
        let callee = text(name, self.src);
        if !callee.is_empty() {
            self.out.call_edges.push((caller, callee.to_string()));
        }
    }

    /// Returns the nested statements and definitions left for the main walk.
    fn statement(
        &mut self,
        statement: Node<'a>,
        parent: Option<Node<'a>>,
    ) -> Vec<(Node<'a>, Option<Node<'a>>)> {
        let mut nested = Vec::new();
        let chains_before = self.out.chains.len();
        // Some grammars let a statement swallow the next line's indentation (or, in Scala, the
        // next statements); end at its own last non-blank character instead.
        // Some grammars (tree-sitter-scala's automatic semicolons) start a statement at the
        // newline ending the previous one: it starts at its own first non-blank character.
        let raw_text = self.statement_text(statement);
        let statement_text = raw_text.trim_start();
        let leading = raw_text[..raw_text.len() - statement_text.len()]
            .matches('\n')
            .count();
        let host_start = start_line(statement) + leading as u32;
        let host_end = host_start + statement_text.matches('\n').count() as u32;
        let host = LineRange::new(
            host_start,
            host_end.min(end_line(statement)).max(host_start),
        );
        let assignment = self.adapter.assignment(statement, self.src);
        let assigned_value = assignment.as_ref().map(|(_, v)| self.unwrap_parens(*v));
        let returned_value = self
            .adapter
            .returned_value(statement, parent)
            .map(|v| self.unwrap_parens(v));
        if let Some((name, value)) = &assignment {
            let value = self.unwrap_parens(*value);
            // The latest assignment wins: a variable reassigned to something else stops folding
            // (and hides an outer variable of the same name).
            let key = (self.symbol_stack.last().copied(), name.clone());
            let fold = self.fold_value(value);
            self.value_vars.insert(key, fold);
            if let Some((decoded, literal)) = self.string_value(value) {
                self.string_vars.insert(
                    name.clone(),
                    StringVar {
                        value: decoded,
                        host,
                        literal_start: literal.start_byte(),
                    },
                );
            }
        }
        // `orders = load_orders(spark, path)`: a call fed a session or DataFrame yields one.
        if let (Some((name, _)), Some(value)) = (&assignment, assigned_value)
            && let Shape::Call {
                args: Some(args), ..
            } = self.adapter.shape(value, self.src)
        {
            let fed_dataframe = named_children(args).into_iter().any(|a| {
                matches!(self.adapter.shape(a, self.src), Shape::Ident)
                    && (self.is_dataframe_var(text(a, self.src))
                        || vocab::is_session_name(text(a, self.src)))
            });
            if fed_dataframe || self.returns_dataframe(value) {
                self.df_vars.insert(name.clone());
            }
        }
        let mut stack: Vec<(Node<'a>, Option<Node<'a>>)> = vec![(statement, None)];
        while let Some((node, parent)) = stack.pop() {
            if node != statement
                && (self.adapter.is_statement(node, parent)
                    || self.adapter.definition(node, self.src).is_some())
            {
                nested.push((node, parent));
                continue;
            }
            match self.adapter.shape(node, self.src) {
                Shape::Call { .. } | Shape::Member { .. } => {
                    if let Some(flat) = self.flatten(node) {
                        for link in &flat.links {
                            if let Link::Call { name, .. } = link {
                                self.record_call(*name);
                            }
                        }
                        let is_outer = assigned_value == Some(node);
                        let assigned_to = if is_outer {
                            assignment.as_ref().map(|(n, _)| n.clone())
                        } else {
                            None
                        };
                        let before = self.out.chains.len();
                        self.chain(&flat, node, statement, host, assigned_to);
                        if returned_value == Some(node) && self.out.chains.len() > before {
                            self.mark_returned();
                        }
                        // Nested chains live in arguments (`a.join(b.filter(..))`).
                        for link in flat.links.iter() {
                            if let Link::Call {
                                args: Some(args), ..
                            } = link
                            {
                                stack.push((*args, None));
                            }
                        }
                        if !flat.base_is_call {
                            stack.push((flat.base, None));
                        }
                        continue;
                    }
                }
                Shape::Str => {
                    let decoded = if may_hold_sql(text(node, self.src)) {
                        self.adapter.decode_string(node, self.src)
                    } else {
                        None
                    };
                    if let Some(decoded) = decoded
                        && looks_like_sql(&decoded.text)
                    {
                        self.sql_literals
                            .entry(node.start_byte())
                            .or_insert(SqlLiteral {
                                value: decoded,
                                host,
                                symbol: self.symbol_stack.last().copied(),
                            });
                    }
                    // Interpolations (`f"{df.count()}"`, `s"${rows.mkString}"`) hold code.
                }
                Shape::Lambda => {}
                _ => {}
            }
            if node.child_count() == 0 {
                continue;
            }
            let first = stack.len();
            stack.extend(
                node.named_children(&mut self.cursor)
                    .map(|child| (child, Some(node))),
            );
            stack[first..].reverse();
        }
        let outer_recorded = self.out.chains[chains_before..]
            .iter()
            .any(|c| c.assigned_to.is_some() || c.returned);
        if !outer_recorded {
            self.hand_off(
                statement,
                host,
                assignment.map(|(name, _)| name).zip(assigned_value),
                returned_value,
            );
        }
        nested
    }

    /// Whether an assigned value is worth folding into the calls that use the variable.
    fn fold_value(&self, value: Node<'a>) -> Option<FoldValue<'a>> {
        let src = self.src;
        match self.adapter.shape(value, src) {
            Shape::Str => return Some(FoldValue::Str(value)),
            Shape::Ident => return self.lookup_value(text(value, src)).cloned(),
            _ => {}
        }
        if self.collection_items(value).is_some() {
            return Some(FoldValue::Collection(value));
        }
        let flat = self.flatten(value)?;
        let first = flat.links.first().map(|l| match l {
            Link::Call { name, .. } | Link::Member { name } => text(*name, src),
        });
        let base = text(flat.base, src);
        let constructs_struct = matches!(first, Some("StructType" | "createStructType"))
            || (!flat.base_is_call && base.trim_start_matches("new ").starts_with("StructType"));
        if constructs_struct {
            let names = self.struct_field_names(value);
            return (!names.is_empty()).then_some(FoldValue::Struct(names));
        }
        let window_base = !flat.base_is_call
            && (base == "Window"
                || base.ends_with(".Window")
                || matches!(self.lookup_value(base), Some(FoldValue::Window(_))));
        window_base.then_some(FoldValue::Window(value))
    }

    /// The foldable value of a variable visible here: this scope, then the enclosing ones, then
    /// module level.
    fn lookup_value(&self, name: &str) -> Option<&FoldValue<'a>> {
        self.symbol_stack
            .iter()
            .rev()
            .map(|s| Some(*s))
            .chain(std::iter::once(None))
            .find_map(|scope| self.value_vars.get(&(scope, name.to_string())))?
            .as_ref()
    }

    /// The items of a literal collection: the adapter's list/tuple/array forms, or a call of a
    /// collection factory (`Seq(…)`, `List(…)`, `Array(…)`, `Arrays.asList(…)`, `List.of(…)`).
    fn collection_items(&self, node: Node<'a>) -> Option<Vec<Node<'a>>> {
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

    /// Field names of a `StructType` value: the first argument of every `StructField(…)`,
    /// `.add(…)` and `createStructField(…)` inside it, in source order.
    fn struct_field_names(&self, value: Node<'a>) -> Vec<String> {
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
                names.push((first.start_byte(), decoded.text));
            }
            let first = stack.len();
            stack.extend(named_children(node));
            stack[first..].reverse();
        }
        // A builder chain (`new StructType().add("a", …).add("b", …)`) nests its last field
        // outermost.
        names.sort_by_key(|(at, _)| *at);
        names.into_iter().map(|(_, name)| name).collect()
    }

    /// The strings inside a value, depth-first, at most [`FOLD_STRING_CAP`].
    fn fold_strings(&self, value: Node<'a>) -> Vec<String> {
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
    fn fold_variable(
        &self,
        value: &FoldValue<'a>,
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
            FoldValue::Struct(names) => out.columns.extend(names.iter().cloned()),
            FoldValue::Window(node) => stack.push((*node, ArgRole::Column)),
        }
    }

    /// A statement's own text: up to where the adapter says it ends, trailing blanks trimmed.
    fn statement_text(&self, statement: Node<'a>) -> &'a str {
        let end = self
            .adapter
            .statement_end_byte(statement)
            .clamp(statement.start_byte(), statement.end_byte());
        self.src
            .get(statement.start_byte()..end)
            .unwrap_or("")
            .trim_end()
    }

    /// [`Self::statement_text`] without the blanks a grammar may put before the statement.
    fn own_statement_text(&self, statement: Node<'a>) -> &'a str {
        self.statement_text(statement).trim_start()
    }

    fn unwrap_parens(&self, mut node: Node<'a>) -> Node<'a> {
        for _ in 0..64 {
            match self.adapter.shape(node, self.src) {
                Shape::Paren(inner) => node = inner,
                _ => break,
            }
        }
        node
    }

    /// A string value: a literal, `"…".stripMargin`, `"…".format(…)`, `textwrap.dedent("…")`.
    fn string_value(&self, node: Node<'a>) -> Option<(DecodedString, Node<'a>)> {
        let node = self.unwrap_parens(node);
        match self.adapter.shape(node, self.src) {
            Shape::Str => Some((self.adapter.decode_string(node, self.src)?, node)),
            Shape::Member { object, name } if text(name, self.src) == "stripMargin" => {
                let (mut decoded, literal) = self.string_value(object)?;
                strip_margin(&mut decoded);
                Some((decoded, literal))
            }
            Shape::Call {
                object: Some(object),
                name,
                ..
            } if matches!(
                text(name, self.src),
                "stripMargin" | "format" | "strip" | "trim"
            ) =>
            {
                let (mut decoded, literal) = self.string_value(object)?;
                if text(name, self.src) == "stripMargin" {
                    strip_margin(&mut decoded);
                }
                Some((decoded, literal))
            }
            Shape::Call {
                name,
                args: Some(args),
                ..
            } if text(name, self.src) == "dedent" => {
                let first = named_children(args).into_iter().next()?;
                self.string_value(first)
            }
            _ => None,
        }
    }

    /// Flatten the chain whose outermost node is `top`; `None` if it holds no call.
    fn flatten(&self, top: Node<'a>) -> Option<Flat<'a>> {
        let mut links = Vec::new();
        let mut current = top;
        let mut base_is_call = false;
        let mut steps = 0usize;
        loop {
            steps += 1;
            if steps > 100_000 {
                break;
            }
            match self.adapter.shape(current, self.src) {
                Shape::Call {
                    object: Some(object),
                    name,
                    args,
                } => {
                    links.push(Link::Call {
                        node: current,
                        name,
                        args,
                    });
                    current = object;
                }
                Shape::Call {
                    object: None,
                    name,
                    args,
                } => {
                    links.push(Link::Call {
                        node: current,
                        name,
                        args,
                    });
                    base_is_call = true;
                    break;
                }
                Shape::Member { object, name } => {
                    links.push(Link::Member { name });
                    current = object;
                }
                Shape::Paren(inner) => current = inner,
                _ => break,
            }
        }
        if !links.iter().any(|l| matches!(l, Link::Call { .. })) {
            return None;
        }
        links.reverse();
        Some(Flat {
            links,
            base: current,
            base_is_call,
        })
    }

    fn chain(
        &mut self,
        flat: &Flat<'a>,
        top: Node<'a>,
        statement: Node<'a>,
        host: LineRange,
        assigned_to: Option<String>,
    ) {
        let src = self.src;
        let mut links = flat.links.as_slice();
        let mut receiver;
        let mut via_dataframe_helper = false;
        let base_ident = match self.adapter.shape(flat.base, src) {
            Shape::Ident if !flat.base_is_call => Some(text(flat.base, src)),
            _ => None,
        };
        if flat.base_is_call {
            let Some(Link::Call { name, .. }) = links.first() else {
                return;
            };
            let name = text(*name, src);
            // A lone call `f(x)` is no chain; `broadcast(df).join(…)` is.
            if vocab::COLUMN_BUILDERS.contains(&name) || links.len() < 2 {
                return;
            }
            receiver = String::new();
        } else {
            match self.adapter.shape(flat.base, src) {
                Shape::Ident | Shape::Member { .. } | Shape::Call { .. } | Shape::Apply { .. } => {}
                // `"sep".join(…)`, `$"x".desc`, numbers: never DataFrames.
                _ => return,
            }
            receiver = capped(text(flat.base, src), 80);
            if base_ident
                .is_some_and(|b| vocab::COLUMN_BUILDERS.contains(&b) || is_foreign_module(b))
            {
                return;
            }
            let base_is_df = base_ident.is_some_and(|b| self.is_dataframe_var(b));
            if !base_is_df {
                while let Some(Link::Member { name }) = links.first() {
                    let member = text(*name, src);
                    // `frame.na.drop(…)`: the null and statistics helpers exist on DataFrames.
                    via_dataframe_helper |= vocab::DATAFRAME_HELPERS.contains(&member);
                    receiver.push('.');
                    receiver.push_str(member);
                    links = &links[1..];
                }
            }
        }
        let methods: Vec<&str> = links
            .iter()
            .map(|l| match l {
                Link::Call { name, .. } | Link::Member { name } => text(*name, src),
            })
            .collect();
        let root = receiver.split('.').next().unwrap_or("");
        let known_start = base_ident.is_some_and(|b| self.is_dataframe_var(b))
            || via_dataframe_helper
            || vocab::is_session_name(root)
            || receiver.split('.').any(vocab::is_session_name);
        let strong = methods
            .iter()
            .any(|m| vocab::is_dataframe_method(m) && !WEAK_METHODS.contains(m));
        let weak_pair = methods.len() >= 2
            && methods
                .iter()
                .filter(|m| vocab::is_dataframe_method(m))
                .count()
                >= 2;
        if !(known_start || strong || weak_pair) {
            return;
        }
        if methods
            .iter()
            .all(|m| vocab::COLUMN_ONLY_METHODS.contains(m))
            && !known_start
        {
            return;
        }
        let mut inputs: Vec<String> = Vec::new();
        let mut calls = Vec::with_capacity(links.len());
        for link in links {
            match *link {
                Link::Call { node, name, args } => {
                    let method = text(name, src).to_string();
                    let start = if flat.base_is_call && node == flat.base {
                        start_line(node)
                    } else {
                        start_line(name)
                    };
                    let args = match args {
                        Some(args) => self.break_down_args(args, &method, &receiver, &mut inputs),
                        None => CallArgs::default(),
                    };
                    if method == "sql" {
                        self.sql_call(node, args_node(link), host, assigned_to.clone());
                    }
                    calls.push(SparkCall {
                        method,
                        lines: LineRange::new(start, end_line(node)),
                        args,
                    });
                }
                Link::Member { name } => calls.push(SparkCall {
                    method: text(name, src).to_string(),
                    lines: LineRange::new(start_line(name), end_line(name)),
                    args: CallArgs::default(),
                }),
            }
        }
        if flat.base_is_call
            && let Some(first) = calls.first()
        {
            receiver = format!("{}(…)", first.method);
        }
        dedup(&mut inputs);
        inputs.retain(|i| *i != receiver);
        if let Some(var) = &assigned_to {
            // Window specs are chains too, but the variable holds no DataFrame.
            if receiver != "Window" {
                self.df_vars.insert(var.clone());
            }
        }
        let (source_function, applied_functions) = self.helpers_of(flat, links);
        let id = self.out.chains.len() as u32;
        let _ = top;
        self.out.chains.push(CallChain {
            id,
            file: 0,
            symbol: self.symbol_stack.last().copied(),
            statement: host,
            receiver,
            inputs,
            assigned_to,
            calls,
            text: capped(self.own_statement_text(statement), STATEMENT_TEXT_CAP),
            source_function,
            applied_functions,
            returned: false,
        });
    }

    /// `spark.sql(<literal | variable>)`.
    fn sql_call(
        &mut self,
        call: Node<'a>,
        args: Option<Node<'a>>,
        host: LineRange,
        assigned_to: Option<String>,
    ) {
        let Some(args) = args else { return };
        let Some(first) = named_children(args).into_iter().next() else {
            return;
        };
        let first = match self.adapter.shape(first, self.src) {
            Shape::Keyword { value, .. } => value,
            _ => first,
        };
        let first = self.unwrap_parens(first);
        let Some((value, host_statement, literal_start)) = self.sql_text(first, host) else {
            return;
        };
        let _ = call;
        self.consumed_literals.insert(literal_start);
        for analysed in analyse_sql(&value) {
            let id = self.out.sql.len() as u32;
            self.out.sql.push(SqlStatement {
                id,
                file: 0,
                symbol: self.symbol_stack.last().copied(),
                origin: SqlOrigin::SparkSqlCall,
                lines: analysed.lines,
                host_statement,
                parsed: analysed.parsed,
                clauses: analysed.clauses,
                assigned_to: assigned_to.clone(),
            });
        }
    }

    /// The SQL passed to `sql(…)`: a literal, a variable holding one, or either formatted
    /// (`q.format(t=…)`, `q.stripMargin`). Returns the text, its host statement and the
    /// literal's start byte.
    fn sql_text(
        &self,
        node: Node<'a>,
        host: LineRange,
    ) -> Option<(DecodedString, LineRange, usize)> {
        if let Some((decoded, literal)) = self.string_value(node) {
            return Some((decoded, host, literal.start_byte()));
        }
        let mut current = self.unwrap_parens(node);
        for _ in 0..8 {
            match self.adapter.shape(current, self.src) {
                Shape::Ident => {
                    let var = self.string_vars.get(text(current, self.src))?;
                    return Some((var.value.clone(), var.host, var.literal_start));
                }
                Shape::Call {
                    object: Some(object),
                    name,
                    ..
                } if matches!(
                    text(name, self.src),
                    "format" | "strip" | "trim" | "stripMargin"
                ) =>
                {
                    current = self.unwrap_parens(object)
                }
                Shape::Member { object, name } if text(name, self.src) == "stripMargin" => {
                    current = self.unwrap_parens(object)
                }
                _ => return None,
            }
        }
        None
    }

    /// Break a call's arguments down into columns, literals, functions, aliases, tables, paths.
    fn break_down_args(
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
        let mut budget = ARG_NODE_BUDGET;
        let mut folded: HashSet<&str> = HashSet::new();
        while let Some((node, role)) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            match self.adapter.shape(node, src) {
                // The SQL of `spark.sql("…")` is indexed as a SqlStatement, not as a literal.
                Shape::Str if method == "sql" => {}
                Shape::Str => {
                    if let Some(decoded) = self.adapter.decode_string(node, src) {
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
                            self.fold_variable(value, role, &mut out, &mut stack);
                        }
                    } else if self.is_dataframe_var(name) && name != receiver {
                        inputs.push(name.to_string());
                    }
                }
                Shape::Member { object, name } => {
                    if matches!(self.adapter.shape(object, src), Shape::Ident) {
                        let owner = text(object, src);
                        if self.is_dataframe_var(owner) {
                            out.columns.push(text(name, src).to_string());
                            if owner != receiver {
                                inputs.push(owner.to_string());
                            }
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
                    if let Shape::Str = self.adapter.shape(index, src) {
                        if let Some(decoded) = self.adapter.decode_string(index, src) {
                            out.columns.push(decoded.text);
                        }
                    } else {
                        stack.push((index, role));
                    }
                    stack.push((object, role));
                }
                Shape::Call { object, name, args } => {
                    let callee = text(name, src);
                    if object.is_none() && self.is_dataframe_var(callee) {
                        // Scala `df("x")`.
                        if callee != receiver {
                            inputs.push(callee.to_string());
                        }
                        if let Some(args) = args {
                            for child in named_children(args) {
                                stack.push((child, ArgRole::Column));
                            }
                        }
                    } else {
                        if !vocab::is_column_reference_function(callee)
                            && !matches!(callee, "alias" | "as" | "name")
                        {
                            out.functions.push(callee.to_string());
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
                    stack.push((value, ArgRole::Function));
                    stack.push((key, ArgRole::Column));
                }
                Shape::Paren(inner) => stack.push((inner, role)),
                Shape::Lambda => {}
                Shape::Other => {
                    for child in named_children(node).into_iter().rev() {
                        stack.push((child, role));
                    }
                }
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

    /// Push a call's arguments with the role the method gives each position / keyword.
    fn push_args(&self, args: Node<'a>, method: &str, stack: &mut Vec<(Node<'a>, ArgRole)>) {
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

fn args_node<'t>(link: &Link<'t>) -> Option<Node<'t>> {
    match link {
        Link::Call { args, .. } => *args,
        Link::Member { .. } => None,
    }
}

/// Cheap pre-check before decoding a literal: does its raw text contain a statement keyword?
fn may_hold_sql(raw: &str) -> bool {
    if raw.len() < 12 {
        return false;
    }
    let bytes = raw.as_bytes();
    ["select", "insert", "create", "merge", "with"]
        .iter()
        .any(|keyword| {
            bytes
                .windows(keyword.len())
                .any(|w| w.eq_ignore_ascii_case(keyword.as_bytes()))
        })
}

/// Method names too common outside Spark to make a chain Spark on their own.
const WEAK_METHODS: &[&str] = &[
    "join",
    "sort",
    "format",
    "count",
    "replace",
    "first",
    "head",
    "take",
    "drop",
    "limit",
    "sample",
    "describe",
    "transform",
    "options",
    "option",
    "mode",
    "range",
    "load",
    "save",
    "start",
    "show",
    "collect",
    "as",
    "text",
    "json",
    "table",
    "foreach",
    "summary",
    "explain",
    "checkpoint",
    "trigger",
    "stat",
    "rdd",
    "csv",
];

/// Module roots whose chains are never DataFrames (`os.path.join`, `"".join`, `logging.info`).
fn is_foreign_module(name: &str) -> bool {
    matches!(
        name,
        "os" | "sys"
            | "re"
            | "json"
            | "logging"
            | "logger"
            | "log"
            | "np"
            | "numpy"
            | "pd"
            | "pandas"
            | "math"
            | "time"
            | "datetime"
            | "shutil"
            | "subprocess"
            | "pathlib"
            | "Path"
            | "io"
            | "random"
            | "itertools"
            | "collections"
            | "string"
            | "textwrap"
            | "urllib"
            | "requests"
            | "boto3"
            | "yaml"
            | "argparse"
            | "parser"
            | "plt"
            | "System"
            | "Arrays"
            | "Collections"
            | "Files"
            | "Paths"
            | "Math"
            | "LOGGER"
            | "LOG"
            | "Logger"
            | "println"
            | "Option"
            | "Some"
            | "Seq"
            | "List"
            | "Map"
            | "Array"
            | "Set"
            | "Vector"
            | "StringBuilder"
            | "builder"
    )
}

fn record_string(out: &mut CallArgs, role: ArgRole, value: String) {
    match role {
        ArgRole::Column => out.columns.push(value),
        ArgRole::Literal => out.literals.push(value),
        ArgRole::Path => out.paths.push(value),
        ArgRole::Table => out.tables.push(value),
        ArgRole::Alias => out.aliases.push(value),
        ArgRole::Function => out.functions.push(value),
        ArgRole::SqlExpr => sql_expression_tokens(&value, out),
    }
}

fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(expr: &str) -> CallArgs {
        let mut out = CallArgs::default();
        sql_expression_tokens(expr, &mut out);
        out
    }

    #[test]
    fn scala_statements_start_on_their_own_first_line() {
        // tree-sitter-scala may start a statement at the newline ending the previous one.
        let src = "object Job extends App {\n    val data = Seq((\"a\", 1),\n      (\"b\", 2)\n    )\n    val df = data.toDF(\"name\", \"n\")\n    df.withColumn(\"m\", col(\"n\"))\n      .show()\n}\n";
        let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
        let starts: Vec<(u32, u32)> = out
            .chains
            .iter()
            .map(|c| (c.statement.start, c.statement.end))
            .collect();
        assert_eq!(starts, vec![(5, 5), (6, 7)], "{:#?}", out.chains);
        // `col("x").desc` written without parentheses is the `desc` function all the same.
        let src = "object S extends App {\n  df.sort(col(\"a\").asc, col(\"b\").desc).show()\n}\n";
        let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
        let sort = &out.chains[0].calls[0];
        assert_eq!(sort.args.functions, vec!["asc", "desc"]);
    }

    #[test]
    fn null_tests_read_as_spark_functions() {
        let t = tokens("state IS NOT NULL AND gender is null");
        assert_eq!(t.functions, vec!["isnotnull", "isnull"]);
        assert_eq!(t.columns, vec!["state", "gender"]);
        assert!(t.literals.is_empty(), "{:?}", t.literals);
        // `IS` before anything else keeps its operand (`x IS TRUE`).
        let t = tokens("flag IS TRUE");
        assert!(t.functions.is_empty());
        assert_eq!(t.literals, vec!["true"]);
    }
}
