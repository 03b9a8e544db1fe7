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
//!
//! This file holds the walk, symbols and statements; the stages have their own files under
//! `extract/`: `chains` (flattening a chain, `spark.sql` calls and their SQL), `arguments`
//! (breaking a call's arguments down by role), `folding` (variables read into the calls that use
//! them), `inline_rows` (the classes of the columns of rows written out) and `handoff`
//! (DataFrames passed between functions).

use super::vocab::{self, ArgRole};
use super::{LanguageAdapter, Shape, end_line, named_children, start_line, text};
use crate::code::index::{
    CallArgs, CallChain, CodeFlags, Constant, Language, LineRange, NameRole, NamedArg, PassedArg,
    SparkCall, SqlOrigin, SqlStatement, Symbol, SymbolId, SymbolKind,
};
use crate::code::sql::analyse_sql;
use crate::code::sql_expr::sql_expression_tokens;
use crate::code::strings::{
    DecodedString, PLACEHOLDER, capped, dedup, looks_like_sql, strip_margin,
};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;

mod arguments;
mod chains;
mod column_helpers;
mod folding;
mod handoff;
mod inline_rows;
mod settings_reads;
pub(crate) mod splits;

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
/// Most items a collection built item by item keeps ([`FoldValue::Items`]).
const APPENDED_ITEMS_CAP: usize = 64;

/// What one file contributes to the index (file-local ids; `file` fields are 0).
#[derive(Debug, Default, Clone)]
pub struct FileExtract {
    pub symbols: Vec<Symbol>,
    /// Parallel to `symbols`: alive whatever the call graph says.
    pub entry_points: Vec<bool>,
    pub chains: Vec<CallChain>,
    pub sql: Vec<SqlStatement>,
    /// Variables assigned a command-line argument (`input_path = sys.argv[1]`), with its
    /// position.
    pub argv_names: Vec<(String, u32)>,
    /// `(caller, callee name)`; caller `None` = module level or a `__main__` block.
    pub call_edges: Vec<(Option<SymbolId>, String)>,
    pub constants: Vec<Constant>,
    pub passed: Vec<PassedArg>,
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
        local_modules: match adapter.language() {
            Language::Python => modules_imported_from_packages(src),
            _ => HashSet::new(),
        },
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
        frame_lists: HashSet::new(),
        pending_list_items: Vec::new(),
        frame_list_variables: HashMap::new(),
        session_vars: HashSet::new(),
        frame_columns: HashMap::new(),
        column_lists: HashSet::new(),
        foreign_frames: HashSet::new(),
        string_vars: HashMap::new(),
        widget_defaults: HashMap::new(),
        setting_vars: HashMap::new(),
        sql_literals: HashMap::new(),
        value_vars: HashMap::new(),
        consumed_literals: HashSet::new(),
        returning_functions: HashSet::new(),
        pending_folds: Vec::new(),
        assigned_at: HashMap::new(),
        lambda_udfs: HashSet::new(),
        function_udfs: HashMap::new(),
        line_statements: match adapter.language() {
            Language::Scala | Language::Java => super::line_statements::line_statements(src),
            _ => Vec::new(),
        },
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
    /// A `StructType`: its fields, in order — names, which are columns, and whether each type is
    /// a long when the code names one this knows.
    Struct(Vec<(String, Option<bool>)>),
    /// A window spec (`Window.partitionBy(…).orderBy(…)`): broken down like an inline spec.
    Window(Node<'t>),
    /// A column expression of Spark's functions (`max_func = max(col("salary")).over(w)`,
    /// `total = F.sum("amount")`): broken down like one written inline.
    Column(Node<'t>),
    /// A column condition (`cond = (a.k == b.k) & (a.s == b.s)`), passed to `join`, `filter`,
    /// `where`, `when`: broken down like an inline one.
    Condition(Node<'t>),
    /// A literal mapping (`{"tax": col("salary") * 0.2}`, Scala's `Map("tax" -> …)`): passed
    /// where names go (`withColumns(columns)`, `agg(exprs)`), its pairs broken down like an
    /// inline one's.
    Mapping(Node<'t>),
    /// A collection the code built item by item (`aggs = []` then `aggs.append(F.sum(c))` in a
    /// loop; Java's `cols.add(…)`): the items, each broken down like an inline argument.
    Items(Vec<Node<'t>>),
}

struct SqlLiteral {
    value: DecodedString,
    host: LineRange,
    symbol: Option<SymbolId>,
}

struct Extractor<'a> {
    adapter: &'a dyn LanguageAdapter,
    /// Names a Python file imports from packages of its own (`from retail import io`): its
    /// modules, though a library's module bears the name ([`is_foreign_module`]).
    local_modules: HashSet<&'a str>,
    /// One cursor reused for every child listing (allocating one per node costs ~10%).
    cursor: tree_sitter::TreeCursor<'a>,
    src: &'a str,
    file_flags: CodeFlags,
    out: FileExtract,
    symbol_stack: Vec<SymbolId>,
    qualified_stack: Vec<String>,
    main_depth: usize,
    df_vars: HashSet<String>,
    /// Lists frames are added to (`rows.append(df.filter(…))`, Java's `frames.add(ds)`): their
    /// elements (`rows[0]`, `for r in rows`) are those frames ([`handoff`]).
    frame_lists: HashSet<String>,
    /// A list's items that live in a statement nested in the one making the list (Scala's
    /// `limits.map { n => … }`, whose lambda is a statement of its block): that statement adds
    /// them to the list when the walk reaches it.
    pending_list_items: Vec<(Node<'a>, String)>,
    /// Frame lists made of frame variables alone (`frames = [orders, returns]`): those
    /// variables, in order — a union folding the list takes them as written.
    frame_list_variables: HashMap<String, Vec<String>>,
    /// Variables assigned a session however they are named (`spark1 =
    /// SparkSession.builder.getOrCreate()`): `spark1.read.csv(…)` reads like `spark.read.csv(…)`.
    session_vars: HashSet<String>,
    /// DataFrame variables whose columns the code lists (`df = spark.createDataFrame(data,
    /// ["id", "name"])`): what `df.columns[1:]` selects.
    frame_columns: HashMap<String, Vec<String>>,
    /// Variables holding a frame's column names, not a frame (`val cols = df.columns`,
    /// `val rest = cols.filter(…)`): their `filter`, `head` and `tail` are a collection's.
    column_lists: HashSet<String>,
    /// Variables (by scope symbol and name) holding what a foreign library made
    /// (`merged = pd.merge(a, b)`, `x = np.array(…)`), or made of such a value: a pandas
    /// frame's `groupby(…).agg(…)` is no Spark code.
    foreign_frames: HashSet<(Option<SymbolId>, String)>,
    string_vars: HashMap<String, StringVar>,
    /// The default each notebook widget was declared with (`dbutils.widgets.text("min_qty",
    /// "2")`), by its name: what `dbutils.widgets.get("min_qty")` reads in a run given none.
    widget_defaults: HashMap<String, Node<'a>>,
    /// Variables assigned a settings read, with the key it reads ([`settings_reads`]).
    setting_vars: HashMap<String, String>,
    /// SQL-looking literals by start byte, emitted at the end unless `sql()` consumed them.
    sql_literals: HashMap<usize, SqlLiteral>,
    consumed_literals: HashSet<usize>,
    /// Variables by (scope symbol, name) with their foldable value, if any; scope `None` =
    /// module level.
    value_vars: HashMap<(Option<SymbolId>, String), Option<FoldValue<'a>>>,
    /// Functions of this file seen returning a DataFrame chain (see [`handoff`]).
    returning_functions: HashSet<String>,
    /// Folds into a frame whose lambda's chain is recorded after their statement (Scala's
    /// `foldLeft(df) { (acc, c) => … }`, a block read later): see [`handoff`].
    pending_folds: Vec<handoff::PendingFold>,
    /// Where each variable was last assigned (its statement's lines): where an RDD a chain
    /// makes a frame of was made ([`CallChain::receiver_made_at`]).
    assigned_at: HashMap<String, LineRange>,
    /// Variables holding a UDF made of a lambda ([`vocab::makes_lambda_udf`]).
    lambda_udfs: HashSet<String>,
    /// Variables holding a UDF of a named function (`decrease = pandas_udf(discount_f, …)`), with
    /// that function's name: Spark names the UDF after it (`discount_f(l_price, l_discount)`).
    function_udfs: HashMap<String, String>,
    /// Scala's and Java's statements as lines read (empty for other languages): the part of a
    /// chain's statement each call is reported at ([`SparkCall::statement`]).
    line_statements: Vec<LineRange>,
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
                self.record_passed(node);
                self.record_widget(node);
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
        let assigned: HashSet<&str> = self
            .out
            .chains
            .iter()
            .filter_map(|c| c.assigned_to.as_deref())
            .collect();
        let last_lines = last_reading_of_each_name(self.src, &assigned);
        for chain in &mut self.out.chains {
            chain.unread = chain.assigned_to.as_ref().is_some_and(|name| {
                last_lines
                    .get(name.as_str())
                    .is_none_or(|&line| line <= chain.statement.end)
            });
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
            params: self.parameters(node, kind),
            defaults: self.parameter_defaults(node, kind),
            returned_functions: Vec::new(),
            flags,
        });
        // `def enrich(events: DataFrame, …)`: a parameter typed as a frame holds one, whatever
        // its name, so `events.join(…)` is a DataFrame join and no string's.
        let typed_frames = self.frame_typed_parameters(node, kind);
        self.df_vars.extend(typed_frames);
        self.out
            .entry_points
            .push(self.adapter.is_entry_point(node, &name, self.src));
        self.symbol_stack.push(id);
        self.qualified_stack.push(name);
    }

    fn is_dataframe_var(&self, name: &str) -> bool {
        let holds_udf = self.lambda_udfs.contains(name) || self.function_udfs.contains_key(name);
        !holds_udf && (self.df_vars.contains(name) || vocab::looks_like_dataframe_name(name))
    }

    /// How many branches enclose `statement` inside its function or module
    /// ([`CallChain::branch_depth`]).
    fn branch_depth(&self, statement: Node<'a>) -> u8 {
        let mut depth = 0u8;
        let mut current = statement.parent();
        while let Some(node) = current {
            if self.adapter.definition(node, self.src).is_some() {
                break;
            }
            if is_branch(node.kind()) {
                depth = depth.saturating_add(1);
            }
            current = node.parent();
        }
        depth
    }

    /// Whether `value` is a frame's column names or a collection made of them: `df.columns`,
    /// `df.schema.fieldNames`, `cols.filter(…)` of a variable holding them.
    fn lists_columns(&self, value: Node<'a>) -> bool {
        self.value_base(value).is_some_and(|base| {
            self.column_lists.contains(base.name)
                || self.is_dataframe_var(base.name)
                    && base
                        .first_member
                        .is_some_and(|m| vocab::COLUMN_LISTINGS.contains(&m))
        })
    }

    /// Whether `value` is made by a foreign library's call (`pd.merge(…)`, `np.where(…)`), or
    /// off a variable holding such a value ([`Self::is_foreign_frame`]). A collection a factory
    /// makes of items (`Arrays.asList(orders.filter(…), returns)`, `Seq(a, b)`) holds what its
    /// items are, frames included.
    fn made_by_foreign_library(&self, value: Node<'a>) -> bool {
        if self.collection_items(value).is_some() {
            return false;
        }
        self.value_base(value).is_some_and(|base| {
            base.called && self.is_foreign_module(base.name) || self.is_foreign_frame(base.name)
        })
    }

    /// The variable or module a value's calls and members start from (`df` in
    /// `df.columns.filter(…)`, `pd` in `pd.merge(a, b)`), with what is done to it first.
    fn value_base(&self, value: Node<'a>) -> Option<ValueBase<'a>> {
        let src = self.src;
        let mut current = value;
        let mut first_member = None;
        let mut called = false;
        for _ in 0..64 {
            match self.adapter.shape(current, src) {
                Shape::Call {
                    object: Some(object),
                    ..
                } => {
                    first_member = None;
                    called = true;
                    current = object;
                }
                Shape::Member { object, name } => {
                    first_member = Some(text(name, src));
                    current = object;
                }
                Shape::Paren(inner) => current = inner,
                Shape::Ident => {
                    return Some(ValueBase {
                        name: text(current, src),
                        first_member,
                        called,
                    });
                }
                _ => return None,
            }
        }
        None
    }

    /// Whether variable `name` holds what a foreign library made, in the current scope.
    fn is_foreign_frame(&self, name: &str) -> bool {
        self.foreign_frames
            .contains(&(self.symbol_stack.last().copied(), name.to_string()))
    }

    /// A session or SQL context: by its usual names, or a variable assigned one.
    fn is_session(&self, name: &str) -> bool {
        vocab::is_session_name(name) || self.session_vars.contains(name)
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
    // Long (~150 lines): one statement's chains, SQL strings, assignments and nested definitions
    // found in one explicit-stack walk (no recursion, so hostile nesting cannot overflow the
    // stack) whose state the steps share.
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
        // `(train, test) = df.randomSplit([0.8, 0.2])`: a chain per variable, each its own split
        // ([`splits`]; no other DataFrame method returns several frames).
        let mut unpacked = Vec::new();
        let assignment = self.adapter.assignment(statement, self.src).or_else(|| {
            let (mut names, value) = self.adapter.unpacked_assignment(statement, self.src)?;
            let value = self.unwrap_parens(value);
            let splits = matches!(
                self.adapter.shape(value, self.src),
                Shape::Call { name, .. } if text(name, self.src) == "randomSplit"
            );
            if !splits || names.is_empty() {
                return None;
            }
            unpacked = names.split_off(1);
            Some((names.remove(0), value))
        });
        let assigned_value = assignment.as_ref().map(|(_, v)| self.unwrap_parens(*v));
        let returned_value = self
            .adapter
            .returned_value(statement, parent)
            .map(|v| self.unwrap_parens(v));
        if assignment.is_none() {
            self.record_appended_item(statement);
        }
        let appended = match (&assignment, assigned_value) {
            (Some((list, _)), Some(value)) => self.listed_values(value).map(|v| (list.clone(), v)),
            _ => self
                .appended_frame(statement)
                .map(|(list, v)| (list, vec![v])),
        }
        .or_else(|| self.take_pending_list_item(statement));
        self.bind_loop_variable(statement, parent, host);
        if let Some((name, value)) = &assignment {
            self.assigned_at.insert(name.clone(), host);
            // `Dataset<Row> orders = …`: a variable declared a frame holds one, whatever its name
            // and whatever call makes it.
            // `List<Dataset<Row>> parts = …`: one declared a collection of frames holds frames.
            if let Some(declared) = self.adapter.declared_type(statement) {
                let declared = text(declared, self.src);
                if handoff::names_frame_collection_type(declared) {
                    self.frame_lists.insert(name.clone());
                } else if handoff::names_frame_type(declared) {
                    self.df_vars.insert(name.clone());
                }
            }
            if let Some(position) = command_line_argument(text(*value, self.src)) {
                self.out.argv_names.push((name.clone(), position));
            }
            let value = self.unwrap_parens(*value);
            // The latest assignment wins: a variable reassigned to something else stops folding
            // (and hides an outer variable of the same name).
            let key = (self.symbol_stack.last().copied(), name.clone());
            let fold = self.fold_value(value);
            self.value_vars.insert(key, fold);
            self.record_constant(name, value);
            if self.lists_columns(value) {
                self.column_lists.insert(name.clone());
            } else {
                self.column_lists.remove(name);
            }
            let scoped = (self.symbol_stack.last().copied(), name.clone());
            if self.made_by_foreign_library(value) {
                self.foreign_frames.insert(scoped);
            } else {
                self.foreign_frames.remove(&scoped);
            }
            if vocab::makes_lambda_udf(text(value, self.src)) {
                self.lambda_udfs.insert(name.clone());
            } else {
                self.lambda_udfs.remove(name);
            }
            match vocab::udf_of_function(text(value, self.src)) {
                Some(function) => {
                    self.function_udfs
                        .insert(name.clone(), function.to_string());
                }
                None => {
                    self.function_udfs.remove(name);
                }
            }
            if vocab::creates_session(text(value, self.src)) {
                self.session_vars.insert(name.clone());
            } else {
                self.session_vars.remove(name);
            }
            match self.setting_key(value) {
                Some(key) => {
                    self.setting_vars.insert(name.clone(), key);
                }
                None => {
                    self.setting_vars.remove(name);
                }
            }
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
        // `orders = load_orders(spark, path)`: a call fed a session or DataFrame yields one; a
        // class's (`app = Analytics(spark)`) yields an object whose methods are the user's.
        if let (Some((name, _)), Some(value)) = (&assignment, assigned_value)
            && let Shape::Call {
                name: callee,
                args: Some(args),
                ..
            } = self.adapter.shape(value, self.src)
        {
            let passed: Vec<&str> = named_children(args)
                .into_iter()
                .filter(|a| matches!(self.adapter.shape(*a, self.src), Shape::Ident))
                .map(|a| text(a, self.src))
                .collect();
            let passes_frame = passed.iter().any(|a| self.is_dataframe_var(a));
            let fed_dataframe = (passes_frame || passed.iter().any(|a| self.is_session(a)))
                && self.calls_a_function(text(callee, self.src), passes_frame);
            if fed_dataframe || self.returns_dataframe(value) {
                self.df_vars.insert(name.clone());
            }
        }
        let mut stack: Vec<(Node<'a>, Option<Node<'a>>)> = vec![(statement, None)];
        let mut folding_lambda = None;
        while let Some((node, parent)) = stack.pop() {
            if Some(node) == folding_lambda {
                continue;
            }
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
                            if let Link::Call { name, node, .. } = link {
                                self.record_call(*name);
                                self.record_passed(*node);
                                self.record_widget(*node);
                            }
                        }
                        let is_outer = assigned_value == Some(node)
                            || assigned_value.and_then(|v| self.frame_subscripted(v)) == Some(node)
                            || assigned_value.and_then(|v| self.reduced_by(v)) == Some(node);
                        let assigned_to = if is_outer {
                            assignment.as_ref().map(|(n, _)| n.clone())
                        } else {
                            appended
                                .as_ref()
                                .filter(|(_, items)| items.contains(&node))
                                .map(|(list, _)| list.clone())
                        };
                        let before = self.out.chains.len();
                        self.chain(&flat, node, statement, host, assigned_to);
                        if is_outer
                            && !unpacked.is_empty()
                            && self.out.chains.len() > before
                            && let Some(split) = self.out.chains.pop()
                        {
                            self.df_vars.extend(unpacked.iter().cloned());
                            for mut copy in
                                splits::per_variable(split, &std::mem::take(&mut unpacked))
                            {
                                copy.id = self.out.chains.len() as u32;
                                self.out.chains.push(copy);
                            }
                        }
                        let is_returned = returned_value == Some(node)
                            || returned_value.and_then(|v| self.reduced_by(v)) == Some(node);
                        if is_returned && self.out.chains.len() > before {
                            self.mark_returned();
                        }
                        // A union folding frames took its lambda's chain
                        // (`reduce(lambda a, b: a.union(b), frames)`).
                        folding_lambda = self
                            .folded_union(&flat)
                            .map(|f| f.function)
                            .filter(|f| matches!(self.adapter.shape(*f, self.src), Shape::Lambda))
                            .or(folding_lambda);
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
        // (a list of items this statement makes is no helper's frame: `limits.map { n => … }`)
        let makes_list =
            matches!((&appended, &assignment), (Some((list, _)), Some((name, _))) if list == name);
        if let Some((list, items)) = appended {
            self.record_frame_list_variables(&list, &items, makes_list);
            self.defer_nested_list_items(&nested, &list, &items);
            self.add_to_frame_list(statement, host, chains_before, list, &items);
        }
        let folded = !makes_list
            && self.fold_into_start(
                host,
                assignment
                    .as_ref()
                    .map(|(name, _)| name.as_str())
                    .zip(assigned_value),
                returned_value,
            );
        let outer_recorded = self.out.chains[chains_before..]
            .iter()
            .any(|c| c.assigned_to.is_some() || c.returned);
        if !outer_recorded && !makes_list && !folded {
            self.hand_off(
                statement,
                host,
                assignment.map(|(name, _)| name).zip(assigned_value),
                returned_value,
            );
            self.hand_off_tuples(statement, host, returned_value);
        }
        // (a pass-through chain, `return helper(df)`, has no calls and says nothing either way)
        if let Some(value) = returned_value
            && self.out.chains[chains_before..]
                .iter()
                .all(|c| c.calls.is_empty())
        {
            self.record_returned_functions(value);
            self.record_returned_constant(value);
        }
        nested
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

    /// The chain a reduction folds its frames with, whose result is the reduction's:
    /// `a.join(b, keys, how)` of `reduce(lambda a, b: a.join(b, keys, how), frames)` (any
    /// function named `…reduce`, `functools.reduce` or a project's own `pairwise_reduce`).
    fn reduced_by(&self, value: Node<'a>) -> Option<Node<'a>> {
        let Shape::Call {
            name,
            args: Some(args),
            ..
        } = self.adapter.shape(self.unwrap_parens(value), self.src)
        else {
            return None;
        };
        if !text(name, self.src)
            .to_ascii_lowercase()
            .ends_with("reduce")
        {
            return None;
        }
        let lambda = named_children(args)
            .into_iter()
            .find(|a| matches!(self.adapter.shape(*a, self.src), Shape::Lambda))?;
        Some(self.unwrap_parens(self.adapter.lambda_body(lambda)?))
    }

    /// The frame a subscript selects from, when what it selects is a frame too: columns
    /// (`df.groupBy("y").mean()[["avg(y)"]]`) or rows (`df[df.y > 1]`), not one column
    /// (`df["y"]`).
    fn frame_subscripted(&self, value: Node<'a>) -> Option<Node<'a>> {
        match self.adapter.shape(value, self.src) {
            Shape::Index { object, index }
                if !matches!(
                    self.adapter.shape(self.unwrap_parens(index), self.src),
                    Shape::Str | Shape::Number
                ) =>
            {
                Some(self.unwrap_parens(object))
            }
            _ => None,
        }
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
            // `String.format("SELECT … FROM %s", table)`: Java's (and Scala's) template, its
            // first argument, filled as `"…".format(…)` is
            Shape::Call {
                object: Some(object),
                name,
                args: Some(args),
            } if text(name, self.src) == "format" && text(object, self.src) == "String" => {
                let mut values = named_children(args)
                    .into_iter()
                    .filter(|a| !a.kind().contains("comment"));
                let (mut decoded, literal) = self.string_value(values.next()?)?;
                decoded.text = self.printf_formatted(&decoded.text, values.collect());
                Some((decoded, literal))
            }
            Shape::Call {
                object: Some(object),
                name,
                args,
            } if matches!(
                text(name, self.src),
                "stripMargin" | "format" | "strip" | "trim"
            ) =>
            {
                let (mut decoded, literal) = self.string_value(object)?;
                match (text(name, self.src), args) {
                    ("stripMargin", _) => strip_margin(&mut decoded),
                    // `"SELECT … FROM {} WHERE qty > {}".format(table, 3)`; Scala's
                    // `"SELECT … FROM %s".format(table)` fills `printf`'s fields
                    ("format", Some(args)) if has_printf_fields(&decoded.text) => {
                        let values = named_children(args)
                            .into_iter()
                            .filter(|a| !a.kind().contains("comment"))
                            .collect();
                        decoded.text = self.printf_formatted(&decoded.text, values);
                    }
                    ("format", Some(args)) => decoded.text = self.formatted(&decoded.text, args),
                    _ => {}
                }
                Some((decoded, literal))
            }
            // `dedent("…")`; a path made a string or a `Path` (`str(RAW_DIR / "orders.parquet")`)
            Shape::Call {
                object: None,
                name,
                args: Some(args),
            } if text(name, self.src) == "dedent"
                || vocab::PATH_WRAPPERS.contains(&text(name, self.src))
                || vocab::NUMBER_CONVERSIONS.contains(&text(name, self.src)) =>
            {
                let first = named_children(args).into_iter().next()?;
                self.string_value(first)
            }
            _ if node.kind() == "binary_operator" => self.joined_path(node),
            // `sys.argv[1] if len(sys.argv) > 1 else "data/orders.csv"`: the string branch
            _ if node.kind() == "conditional_expression" => named_children(node)
                .into_iter()
                .find_map(|branch| self.string_value(branch)),
            _ => self.computed_path(node),
        }
    }

    /// A template's `printf` fields (`%s`, `%d`, `%.1f`, `%1$s`) filled in order with
    /// `values` the file holds ([`Self::format_argument`]); a field whose value it does not
    /// hold becomes a [`PLACEHOLDER`] (a table name it stands for still parses).
    fn printf_formatted(&self, template: &str, values: Vec<Node<'a>>) -> String {
        let values: Vec<Option<String>> = values
            .into_iter()
            .map(|v| self.format_argument(v))
            .collect();
        let mut out = String::with_capacity(template.len());
        let mut next = 0usize;
        let mut chars = template.char_indices().peekable();
        while let Some((_, c)) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            // `%[index$][flags][width][.precision]conversion`
            let mut spec = String::new();
            while let Some(&(_, d)) = chars.peek() {
                // (no space flag: `100 % of` in a template's SQL is no field)
                if d.is_ascii_digit() || matches!(d, '$' | '.' | '-' | '+' | ',' | '#') {
                    spec.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            match chars.next() {
                Some((_, '%')) if spec.is_empty() => out.push('%'),
                Some((_, 'n')) if spec.is_empty() => out.push('\n'),
                Some((_, conversion)) if conversion.is_ascii_alphabetic() => {
                    let index = match spec.split_once('$') {
                        Some((index, _)) => {
                            index.parse::<usize>().ok().and_then(|i| i.checked_sub(1))
                        }
                        None => {
                            next += 1;
                            Some(next - 1)
                        }
                    };
                    let value = index.and_then(|i| values.get(i).cloned().flatten());
                    out.push_str(value.as_deref().unwrap_or(PLACEHOLDER));
                }
                Some((_, other)) => {
                    out.push('%');
                    out.push_str(&spec);
                    out.push(other);
                }
                None => {
                    out.push('%');
                    out.push_str(&spec);
                }
            }
        }
        out
    }

    /// The value of a `format` argument the file holds: a number, a string, a name bound to a
    /// string or to a constant (`limit = 3`, `static final String VIEW = "orders"`).
    fn format_argument(&self, node: Node<'a>) -> Option<String> {
        match self.adapter.shape(node, self.src) {
            Shape::Number => Some(text(node, self.src).to_string()),
            // a name bound to a string, or to a number at the top (`limit = 3`)
            Shape::Ident => {
                let name = text(node, self.src);
                self.string_vars
                    .get(name)
                    .map(|bound| bound.value.text.clone())
                    .or_else(|| {
                        let constants = self.out.constants.iter().rev();
                        // (a listed constant is no one string)
                        constants
                            .filter(|c| !c.from_setting)
                            .find(|c| c.name == name)
                            .filter(|c| {
                                !c.value
                                    .contains(crate::code::index::LISTED_VALUES_SEPARATOR)
                            })
                            .map(|c| c.value.clone())
                    })
            }
            _ => self.string_value(node).map(|(decoded, _)| decoded.text),
        }
    }

    /// A template's `str.format` fields (`{}`, `{0}`, `{table}`) filled with the arguments whose
    /// values the file holds ([`Self::format_argument`]); any other field stays as written.
    fn formatted(&self, template: &str, args: Node<'a>) -> String {
        let mut positional: Vec<Option<String>> = Vec::new();
        let mut named: HashMap<&str, String> = HashMap::new();
        let value = |node: Node<'a>| self.format_argument(node);
        for arg in named_children(args)
            .into_iter()
            .filter(|a| !a.kind().contains("comment"))
        {
            match self.adapter.shape(arg, self.src) {
                Shape::Keyword { name, value: v } => {
                    if let Some(v) = value(v) {
                        named.insert(text(name, self.src), v);
                    }
                }
                _ => positional.push(value(arg)),
            }
        }
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        let mut next = 0usize;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            if let Some(escaped) = after.strip_prefix('{') {
                out.push_str("{{");
                rest = escaped;
                continue;
            }
            let Some(close) = after.find('}') else {
                rest = &rest[open..];
                break;
            };
            let field = &after[..close];
            let key = field.split([':', '!']).next().unwrap_or("");
            let filled = if key.is_empty() {
                next += 1;
                positional.get(next - 1).cloned().flatten()
            } else if let Ok(index) = key.parse::<usize>() {
                positional.get(index).cloned().flatten()
            } else {
                named.get(key).cloned()
            };
            match filled {
                Some(v) => out.push_str(&v),
                None => {
                    out.push('{');
                    out.push_str(field);
                    out.push('}');
                }
            }
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        out
    }

    /// A path the code computes from strings: an `os.path.join` ([`Self::os_path_joined`]) or
    /// the default of an environment variable (`os.getenv("INPUT", "data/orders.csv")`,
    /// `os.environ.get(…, …)`), which is what a run without the variable reads.
    pub(super) fn computed_path(&self, node: Node<'a>) -> Option<(DecodedString, Node<'a>)> {
        if let Some(joined) = self.os_path_joined(node) {
            return Some(joined);
        }
        let (object, method, args) = self.method_call(node)?;
        if is_widgets(object) && WIDGET_READS.contains(&method) {
            // `dbutils.widgets.get("min_qty")`: the widget's default
            let (name, _) = self.string_value(positional_argument(args, 0)?)?;
            return self.string_value(*self.widget_defaults.get(&name.text)?);
        }
        if !ENVIRONMENT_READS.contains(&(object, method)) {
            return None;
        }
        self.string_value(positional_argument(args, 1)?)
    }

    /// A notebook widget's declaration (`dbutils.widgets.text("min_qty", "2")`,
    /// `dropdown(name, default, choices)`), kept for the reads of its value.
    fn record_widget(&mut self, call: Node<'a>) {
        let Some((object, method, args)) = self.method_call(call) else {
            return;
        };
        if !is_widgets(object) || !WIDGET_DECLARATIONS.contains(&method) {
            return;
        }
        let (Some(name), Some(default)) =
            (positional_argument(args, 0), positional_argument(args, 1))
        else {
            return;
        };
        if let Some((name, _)) = self.string_value(name) {
            self.widget_defaults.insert(name.text, default);
        }
    }

    /// `object.method(args)` as the texts of its object and method, and its arguments.
    fn method_call(&self, node: Node<'a>) -> Option<(&'a str, &'a str, Node<'a>)> {
        match self.adapter.shape(node, self.src) {
            Shape::Call {
                object: Some(object),
                name,
                args: Some(args),
            } => Some((text(object, self.src), text(name, self.src), args)),
            _ => None,
        }
    }

    /// `os.path.join(DATA_DIR, "sales", "orders.csv")`: each part's value where the file holds
    /// it, else a [`PLACEHOLDER`], joined with `/`; the last part must be a string.
    pub(super) fn os_path_joined(&self, node: Node<'a>) -> Option<(DecodedString, Node<'a>)> {
        let (object, method, args) = self.method_call(node)?;
        if method != "join" || !OS_PATH_MODULES.contains(&object) {
            return None;
        }
        let parts = named_children(args);
        let (last, folders) = parts.split_last()?;
        let (mut file, literal) = self.string_value(*last)?;
        let mut joined = String::new();
        for folder in folders {
            joined.push_str(self.folder_value(*folder).trim_end_matches('/'));
            joined.push('/');
        }
        joined.push_str(&file.text);
        file.text = joined;
        Some((file, literal))
    }

    /// A pathlib path joined with `/` onto a string (`RAW_DIR / "orders.parquet"`): the folder's
    /// value when the file holds it, else a [`PLACEHOLDER`], then the string.
    fn joined_path(&self, node: Node<'a>) -> Option<(DecodedString, Node<'a>)> {
        let operator = node.child_by_field_name("operator")?;
        if text(operator, self.src) != "/" {
            return None;
        }
        let (mut file, literal) = self.string_value(node.child_by_field_name("right")?)?;
        let folder = self.folder_value(node.child_by_field_name("left")?);
        file.text = format!("{}/{}", folder.trim_end_matches('/'), file.text);
        Some((file, literal))
    }

    /// A folder a path is joined onto: its string, or the string a variable holds, else a
    /// [`PLACEHOLDER`].
    fn folder_value(&self, folder: Node<'a>) -> String {
        let folder = self.unwrap_parens(folder);
        match self.string_value(folder) {
            Some((value, _)) => value.text,
            None => self
                .string_vars
                .get(text(folder, self.src))
                .map_or_else(|| PLACEHOLDER.to_string(), |v| v.value.text.clone()),
        }
    }
}

/// Whether a template holds `printf` fields (`%s`, `%d`, `%.2f`) and no `str.format` ones.
fn has_printf_fields(template: &str) -> bool {
    !template.contains('{')
        && template.match_indices('%').any(|(at, _)| {
            template[at + 1..]
                .trim_start_matches(|c: char| {
                    c.is_ascii_digit() || matches!(c, '$' | '.' | '-' | ',')
                })
                .starts_with(['s', 'd', 'f'])
        })
}

/// A call's positional argument at `position` (0-based), comments skipped.
fn positional_argument(args: Node<'_>, position: usize) -> Option<Node<'_>> {
    named_children(args)
        .into_iter()
        .filter(|a| !a.kind().contains("comment"))
        .nth(position)
}

/// Whether an object is a Databricks notebook's widgets (`dbutils.widgets`).
fn is_widgets(object: &str) -> bool {
    object == "dbutils.widgets"
}

/// The widget methods declaring one with its default, and those reading its value.
const WIDGET_DECLARATIONS: &[&str] = &["text", "dropdown", "combobox", "multiselect"];
const WIDGET_READS: &[&str] = &["get", "getArgument"];

/// Reads of an environment variable whose second argument is its default.
const ENVIRONMENT_READS: &[(&str, &str)] = &[("os", "getenv"), ("os.environ", "get")];

/// The modules whose `join` joins a path (`os.path.join`, `from os import path`).
const OS_PATH_MODULES: &[&str] = &["os.path", "path", "posixpath", "ntpath"];

/// Where a value's calls and members start ([`Extractor::value_base`]).
struct ValueBase<'a> {
    /// The identifier they start from.
    name: &'a str,
    /// The member read off it first, when the first step is a member (`columns` in
    /// `df.columns.filter(…)`), not a call.
    first_member: Option<&'a str>,
    /// Whether anything on the way is called.
    called: bool,
}

/// Syntax nodes (of Python, Scala and Java) whose body may run or not, or run instead of another.
fn is_branch(kind: &str) -> bool {
    matches!(
        kind,
        "if_statement"
            | "if_expression"
            | "else_clause"
            | "elif_clause"
            | "try_statement"
            | "try_with_resources_statement"
            | "try_expression"
            | "except_clause"
            | "catch_clause"
            | "finally_clause"
            | "for_statement"
            | "enhanced_for_statement"
            | "for_expression"
            | "while_statement"
            | "while_expression"
            | "do_statement"
            | "match_statement"
            | "match_expression"
            | "case_clause"
            | "switch_expression"
            | "switch_block_statement_group"
    )
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

/// The names `from <package> import a, b as c` lines bind (`c` for `b as c`), the package not a
/// library's ([`is_foreign_module`]): `from retail import io` names the project's `retail/io.py`.
fn modules_imported_from_packages(src: &str) -> HashSet<&str> {
    let mut names = HashSet::new();
    for line in src.lines() {
        let Some(rest) = line.trim_start().strip_prefix("from ") else {
            continue;
        };
        let Some((package, imported)) = rest.split_once(" import ") else {
            continue;
        };
        let root = package.trim().split('.').next().unwrap_or("");
        if root.is_empty() || is_foreign_module(root) {
            continue;
        }
        let imported = imported
            .trim()
            .trim_start_matches('(')
            .trim_end_matches([')', '\\']);
        for item in imported.split(',') {
            let name = item.rsplit(" as ").next().unwrap_or("").trim();
            if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                names.insert(name);
            }
        }
    }
    names
}

impl Extractor<'_> {
    /// Whether `name` is a library's module here: not one the file imports from its own packages.
    fn is_foreign_module(&self, name: &str) -> bool {
        is_foreign_module(name) && !self.local_modules.contains(name)
    }
}

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
            | "Optional"
            | "Objects"
            | "String"
            | "Integer"
            | "Long"
            | "Double"
            | "Boolean"
            | "LocalDate"
            | "LocalDateTime"
            | "Instant"
            | "Duration"
            | "UUID"
            | "Pattern"
            | "Thread"
            | "Executors"
    )
}

fn record_string(out: &mut CallArgs, role: ArgRole, value: String) {
    match role {
        // `createDataFrame(rows, "id long, name string")`: the schema names the columns
        ArgRole::Column => match inline_rows::ddl_field_names(&value) {
            Some(names) => out.columns.extend(names),
            None => out.columns.push(value),
        },
        ArgRole::Literal => out.literals.push(value),
        ArgRole::Path => out.paths.push(value),
        ArgRole::Table => out.tables.push(value),
        ArgRole::Alias => out.aliases.push(value),
        ArgRole::Function => out.functions.push(value),
        ArgRole::SqlExpr => {
            sql_expression_tokens(&value, out);
            out.aliases
                .extend(crate::code::sql::implicit_expression_name(&value));
        }
    }
}

/// The position a value reads from the command line: 1 for `sys.argv[1]`, `argv[1]`.
fn command_line_argument(value: &str) -> Option<u32> {
    let value = value.trim();
    let index = value
        .strip_prefix("sys.argv[")
        .or_else(|| value.strip_prefix("argv["))?
        .strip_suffix(']')?;
    index.trim().parse().ok().filter(|p| *p > 0)
}

/// The last line (1-based) on which each of `names` is read in `src` as a whole word — a reading
/// that only prints the frame's plan or schema (`way.explain()`, `df.printSchema`) runs nothing
/// and does not count. One pass over the source, so that whether a variable is read after its
/// assignment costs a lookup.
fn last_reading_of_each_name<'s>(src: &'s str, names: &HashSet<&str>) -> HashMap<&'s str, u32> {
    let mut last = HashMap::new();
    if names.is_empty() {
        return last;
    }
    let mut line = 1u32;
    let mut word_start: Option<usize> = None;
    for (at, c) in src.char_indices() {
        if c.is_alphanumeric() || c == '_' {
            word_start.get_or_insert(at);
            continue;
        }
        if let Some(start) = word_start.take()
            && names.contains(&src[start..at])
            && !only_describes(&src[at..])
        {
            last.insert(&src[start..at], line);
        }
        if c == '\n' {
            line += 1;
        }
    }
    if let Some(start) = word_start
        && names.contains(&src[start..])
    {
        last.insert(&src[start..], line);
    }
    last
}

/// Whether the text after a variable's name calls a method that only describes the frame
/// ([`vocab::only_describes_frame`]: `.explain()`, `.printSchema()`).
fn only_describes(after_name: &str) -> bool {
    let Some(method) = after_name.trim_start().strip_prefix('.') else {
        return false;
    };
    let method = method.trim_start();
    let name_end = method
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(method.len());
    vocab::only_describes_frame(&method[..name_end])
}

fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
