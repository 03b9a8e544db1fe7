//! Language adapters and the one call-chain extractor they share.
//!
//! Each language is a small [`LanguageAdapter`] that answers grammar questions about a
//! tree-sitter node — "is this a call, and where are its receiver, method name and arguments?",
//! "is this a statement?", "is this a definition?", "what does this string literal hold?" — in
//! terms of one shared vocabulary, [`Shape`]. Everything else is language-neutral and lives in
//! [`extract`]: symbols and their qualified names, flattening `a.b(..).c(..)` into a
//! [`CallChain`](super::index::CallChain) with per-call lines, breaking arguments down into
//! columns / literals / functions / aliases / tables / paths, the variable flow across
//! statements, SQL held in strings, and the raw call edges of the call graph.
//!
//! Adding a language is one file: implement [`LanguageAdapter`] (its name, file extensions,
//! grammar and call shapes) and list it in [`ADAPTERS`]; the walker, the indexer and the notebook
//! reader take everything else from that list. `docs/extending.md` walks through it.
//!
//! All traversals use explicit stacks, so a pathologically nested expression cannot overflow the
//! thread stack.

pub mod extract;
pub mod java;
pub mod line_statements;
pub mod python;
pub mod scala;
pub mod vocab;

pub use extract::{FileExtract, extract_file};

use super::index::{Language, SymbolKind};
use super::strings::DecodedString;
use tree_sitter::Node;

/// What a node is, in the shared call-chain vocabulary.
#[derive(Debug, Clone, Copy)]
pub enum Shape<'t> {
    /// `object.name(args)`, or `name(args)` when `object` is `None`. `name` is the method-name node.
    Call {
        object: Option<Node<'t>>,
        name: Node<'t>,
        args: Option<Node<'t>>,
    },
    /// A call whose callee is an arbitrary expression (`f(x)(y)`).
    Apply {
        callee: Node<'t>,
        args: Option<Node<'t>>,
    },
    /// Property access without a call: `spark.read`, `df.salary`, Scala `df.count`.
    Member {
        object: Node<'t>,
        name: Node<'t>,
    },
    /// `df["x"]`.
    Index {
        object: Node<'t>,
        index: Node<'t>,
    },
    Ident,
    /// A string literal (decode it with [`LanguageAdapter::decode_string`]).
    Str,
    Number,
    Bool,
    /// A column written as a symbol: Scala `$"x"` or `'x`.
    ColumnSymbol,
    /// `name=value` argument.
    Keyword {
        name: Node<'t>,
        value: Node<'t>,
    },
    /// `key: value` in a dict literal.
    Pair {
        key: Node<'t>,
        value: Node<'t>,
    },
    /// `( expr )`.
    Paren(Node<'t>),
    /// A lambda / anonymous function: its body is not searched for columns.
    Lambda,
    Other,
}

/// A function, method, class or object definition.
#[derive(Debug, Clone, Copy)]
pub struct Definition<'t> {
    pub kind: SymbolKind,
    pub name: Node<'t>,
}

/// Grammar knowledge for one language.
pub trait LanguageAdapter: Sync {
    fn language(&self) -> Language;
    /// The language's name as statistics and notebook kernels spell it (`python`).
    fn name(&self) -> &'static str;
    /// File extensions of its sources, lower-case, without the dot.
    fn extensions(&self) -> &'static [&'static str];
    fn grammar(&self) -> tree_sitter::Language;
    /// The grammar's `highlights.scm`, for showing its files in the viewer
    /// ([`crate::view::highlight`]).
    fn highlights_query(&self) -> &'static str;
    /// The node in the shared vocabulary.
    fn shape<'t>(&self, node: Node<'t>, src: &str) -> Shape<'t>;
    /// A statement that can host a call chain (expression statement, assignment, return, `val`).
    /// `parent` is the node's parent when the caller knows it (`None` = not a statement parent).
    fn is_statement(&self, node: Node<'_>, parent: Option<Node<'_>>) -> bool;
    /// Where a statement really ends (byte offset). Grammars that let a statement swallow what
    /// follows it (tree-sitter-scala's indented blocks) end it at its own last member instead.
    fn statement_end_byte(&self, statement: Node<'_>) -> usize {
        statement.end_byte()
    }
    /// For a statement: the variable it assigns and the assigned expression.
    fn assignment<'t>(&self, statement: Node<'t>, src: &str) -> Option<(String, Node<'t>)>;
    /// The type a statement declares its variable with: Java's `Dataset<Row> orders = …`,
    /// Scala's `val orders: DataFrame = …`, Python's `orders: DataFrame = …`.
    fn declared_type<'t>(&self, statement: Node<'t>) -> Option<Node<'t>> {
        let _ = statement;
        None
    }
    /// Whether a call written `Name(…)` may construct an object rather than call a method
    /// (Python's classes, Scala's case classes). Java constructs only with `new`, so its
    /// capitalised `ReadOrders(…)` is a method like any other.
    fn calls_may_construct(&self) -> bool {
        true
    }
    /// Whether `Name(…)` calls the `apply` method of an object `Name` (Scala's companion
    /// objects), so a function defined as `apply` is also called by its object's name.
    fn objects_apply(&self) -> bool {
        false
    }
    /// For a statement binding several variables at once (`(train, test) = df.randomSplit(…)`):
    /// the variables, in order, and the assigned expression.
    fn unpacked_assignment<'t>(
        &self,
        statement: Node<'t>,
        src: &str,
    ) -> Option<(Vec<String>, Node<'t>)> {
        let _ = (statement, src);
        None
    }
    /// A definition that opens a symbol (`def`, `class`, `object`, method).
    fn definition<'t>(&self, node: Node<'t>, src: &str) -> Option<Definition<'t>>;
    /// Doc comment / docstring of a definition.
    fn doc(&self, definition: Node<'_>, src: &str) -> Option<String>;
    /// Alive whatever the call graph says: `main`, `object X extends App`, decorated functions,
    /// overrides, dunder methods, public Java methods.
    fn is_entry_point(&self, definition: Node<'_>, name: &str, src: &str) -> bool;
    /// The value of a string-literal node (or concatenation of literals) with its line map.
    fn decode_string(&self, node: Node<'_>, src: &str) -> Option<DecodedString>;
    /// The items of a literal collection written with the language's own syntax (Python
    /// `[…]` / `(…)` / `{…}` sets, Java array initialisers); factory calls such as `Seq(…)` are
    /// recognised by the extractor.
    fn collection_items<'t>(&self, node: Node<'t>) -> Option<Vec<Node<'t>>> {
        let _ = node;
        None
    }
    /// The item expression of a collection built by a comprehension (Python's
    /// `[f(c) for c in cols]`, a generator too; Scala's `limits.map(n => f(n))`, Java's
    /// `limits.stream().map(n -> f(n)).collect(…)`): what each of its items is. The extractor
    /// decides whether the mapped collection is one (a frame's own `map` is no comprehension).
    fn comprehension_item<'t>(&self, node: Node<'t>, src: &str) -> Option<Node<'t>> {
        let _ = (node, src);
        None
    }
    /// The expression a lambda evaluates (Python's `lambda a, b: a.union(b)`, Java's
    /// `(a, b) -> a.union(b)`, Scala's `(a, b) => a.union(b)`).
    fn lambda_body<'t>(&self, lambda: Node<'t>) -> Option<Node<'t>> {
        lambda.child_by_field_name("body")
    }
    /// The method a function value names: the method-name node of Python's `DataFrame.union`,
    /// Scala's `_ union _` / `_.union(_)` (applying it to its first argument with the second),
    /// Java's `Dataset::union` and `Transformations::cleanOrders` — what a reduction folds a
    /// collection with, or what `transform` applies to a frame.
    fn referenced_method<'t>(&self, function: Node<'t>, src: &str) -> Option<Node<'t>> {
        match self.shape(function, src) {
            Shape::Member { name, .. } => Some(name),
            _ => None,
        }
    }
    /// The text of a [`Shape::ColumnSymbol`]'s column name.
    fn column_symbol_name(&self, node: Node<'_>, src: &str) -> Option<String> {
        let _ = (node, src);
        None
    }
    /// The expression a statement returns from its enclosing function (`return df.filter(…)`,
    /// the last expression of a Scala body), if it does. `parent` as for [`Self::is_statement`].
    fn returned_value<'t>(
        &self,
        statement: Node<'t>,
        parent: Option<Node<'t>>,
    ) -> Option<Node<'t>> {
        let _ = (statement, parent);
        None
    }
    /// For the collection a loop walks, taken as a statement ([`Self::is_statement`]): the
    /// variable each element is bound to (`r` of `for r in rows[1:]:`, `d` of Java's
    /// `for (Dataset<Row> d : frames)`).
    fn loop_variable(
        &self,
        iterable: Node<'_>,
        parent: Option<Node<'_>>,
        src: &str,
    ) -> Option<String> {
        let _ = (iterable, parent, src);
        None
    }
    /// Module-level regions that run as a program (`if __name__ == "__main__":`); calls inside
    /// keep their callees alive.
    fn is_main_guard(&self, node: Node<'_>, src: &str) -> bool {
        let _ = (node, src);
        false
    }
}

/// Every language parsed with tree-sitter.
pub static ADAPTERS: [&dyn LanguageAdapter; 3] = [&python::Python, &scala::Scala, &java::Java];

/// The adapter for a language, if we parse it with tree-sitter.
pub fn adapter_for(language: Language) -> Option<&'static dyn LanguageAdapter> {
    ADAPTERS.iter().copied().find(|a| a.language() == language)
}

/// The adapter whose sources carry this extension (any case).
pub fn adapter_for_extension(extension: &str) -> Option<&'static dyn LanguageAdapter> {
    let extension = extension.to_ascii_lowercase();
    ADAPTERS
        .iter()
        .copied()
        .find(|a| a.extensions().contains(&extension.as_str()))
}

/// The adapter of a language by name, any case, a version after it ignored (a notebook kernel's
/// `python3`, `scala2.12`).
pub fn adapter_named(name: &str) -> Option<&'static dyn LanguageAdapter> {
    let name = name.to_ascii_lowercase();
    let name = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    ADAPTERS.iter().copied().find(|a| a.name() == name)
}

/// A language's name as statistics spell it (`python`, `sql`).
pub fn language_name(language: Language) -> &'static str {
    match adapter_for(language) {
        Some(adapter) => adapter.name(),
        None => "sql", // the one language read without an adapter (`code/sql/`)
    }
}

/// Test helper for the adapters: the call chains `source` holds, one string each as
/// `receiver.method.method…` in file order, must be `expected`.
#[cfg(test)]
pub(crate) fn assert_chains(adapter: &dyn LanguageAdapter, source: &str, expected: &[&str]) {
    let extract = extract_file(adapter, source, "", Default::default());
    let chains: Vec<String> = extract
        .chains
        .iter()
        .filter(|c| !c.calls.is_empty())
        .map(|c| {
            std::iter::once(c.receiver.as_str())
                .chain(c.calls.iter().map(|call| call.method.as_str()))
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect();
    assert_eq!(chains, expected, "{}", adapter.name());
}

/// `"a" + "b" + x` in a grammar whose binary operations are `binary` nodes: a `+` whose right
/// operand or leftmost operand is a string literal (`is_literal` on the node's kind). Only
/// string-building `+` chains count; `1 + 2` does not.
pub(crate) fn is_string_concatenation(
    grammar: &Grammar,
    node: Node<'_>,
    src: &str,
    binary: &str,
    is_literal: impl Fn(&str) -> bool,
) -> bool {
    let is_plus = |n: Node<'_>| {
        grammar.kind(n) == binary
            && grammar.field(n, Field::Operator).map(|o| text(o, src)) == Some("+")
    };
    if !is_plus(node) {
        return false;
    }
    if grammar
        .field(node, Field::Right)
        .is_some_and(|r| is_literal(grammar.kind(r)))
    {
        return true;
    }
    let mut current = node;
    for _ in 0..64 {
        let Some(left) = grammar.field(current, Field::Left) else {
            return false;
        };
        if is_literal(grammar.kind(left)) {
            return true;
        }
        if !is_plus(left) {
            return false;
        }
        current = left;
    }
    false
}

/// The string a `+` concatenation builds: its literal operands decoded by `literal` (`None` for
/// an operand that is no literal; `Some(None)` for a literal that does not decode, which undoes
/// the whole), any other operand (a variable, a call) a placeholder on its line. Walked with an
/// explicit stack.
pub(crate) fn decode_concatenation(
    grammar: &Grammar,
    node: Node<'_>,
    binary: &str,
    literal: impl Fn(Node<'_>) -> Option<Option<DecodedString>>,
) -> Option<DecodedString> {
    let mut out = DecodedString::default();
    let mut stack = vec![node];
    let mut leaves = Vec::new();
    while let Some(n) = stack.pop() {
        if grammar.kind(n) == binary {
            if let (Some(l), Some(r)) = (
                grammar.field(n, Field::Left),
                grammar.field(n, Field::Right),
            ) {
                stack.push(r);
                stack.push(l);
            }
        } else {
            leaves.push(n);
        }
    }
    for leaf in leaves {
        match literal(leaf) {
            Some(decoded) => out.append(decoded?),
            None => out.append(DecodedString {
                text: crate::code::strings::PLACEHOLDER.to_string(),
                lines: vec![(start_line(leaf), start_line(leaf))],
            }),
        }
    }
    (!out.lines.is_empty()).then_some(out)
}

/// Node-kind and field-name lookups answered from tables built once per grammar.
///
/// `Node::kind` measures and UTF-8-checks the C string on every call and
/// `Node::child_by_field_name` scans the grammar's field names with `strncmp`; together they
/// were about a tenth of indexing time. These tables turn a kind into an index and a [`Field`]
/// into its grammar id (an array index too: scanning the field names, even as Rust `&str`s,
/// was still ~2% of indexing time, called several times per node by `shape`). Each adapter
/// keeps one in a `LazyLock`.
pub struct Grammar {
    kinds: Vec<Box<str>>,
    /// Indexed by `Field as usize`; `None` when this grammar has no such field.
    fields: [Option<std::num::NonZeroU16>; Field::ALL.len()],
}

impl Grammar {
    pub fn new(language: &tree_sitter::Language) -> Grammar {
        let kinds = (0..language.node_kind_count() as u16)
            .map(|id| language.node_kind_for_id(id).unwrap_or("").into())
            .collect();
        let fields = Field::ALL.map(|field| {
            (1..=language.field_count() as u16)
                .find(|id| language.field_name_for_id(*id) == Some(field.name()))
                .and_then(std::num::NonZeroU16::new)
        });
        Grammar { kinds, fields }
    }

    /// The node's kind, as `Node::kind` would say it.
    pub fn kind<'g>(&'g self, node: Node<'_>) -> &'g str {
        match self.kinds.get(node.kind_id() as usize) {
            Some(kind) => kind,
            // Error nodes carry the builtin id u16::MAX, outside the table.
            None if node.is_error() => "ERROR",
            None => "",
        }
    }

    /// The child under a field, as `Node::child_by_field_name(field.name())` would find it.
    pub fn field<'t>(&self, node: Node<'t>, field: Field) -> Option<Node<'t>> {
        let id = self.fields[field as usize]?;
        node.child_by_field_id(id.get())
    }

    /// The set of the kinds named `names`.
    pub fn kind_set(&self, names: &[&str]) -> KindSet {
        KindSet(self.kinds.iter().map(|k| names.contains(&&**k)).collect())
    }
}

/// A set of node kinds answered by one table lookup instead of string comparisons, for
/// questions asked of every node (Scala's `is_statement`).
pub struct KindSet(Vec<bool>);

impl KindSet {
    pub fn contains(&self, node: Node<'_>) -> bool {
        // Error nodes (id u16::MAX) fall outside the table: no set holds them.
        self.0
            .get(node.kind_id() as usize)
            .copied()
            .unwrap_or(false)
    }
}

/// Declares [`Field`], its [`Field::ALL`] and [`Field::name`] from one list.
macro_rules! grammar_fields {
    ($($variant:ident => $name:literal,)*) => {
        /// The grammar fields the adapters read (each grammar has some of them).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Field {
            $($variant,)*
        }

        impl Field {
            const ALL: [Field; [$($name),*].len()] = [$(Field::$variant,)*];

            /// The field's name in the grammars.
            pub fn name(self) -> &'static str {
                match self {
                    $(Field::$variant => $name,)*
                }
            }
        }
    };
}

grammar_fields! {
    Arguments => "arguments",
    Array => "array",
    Attribute => "attribute",
    Body => "body",
    Condition => "condition",
    Declarator => "declarator",
    Field => "field",
    Function => "function",
    Index => "index",
    InterpolatedString => "interpolated_string",
    Interpolator => "interpolator",
    Key => "key",
    Left => "left",
    Name => "name",
    Object => "object",
    Operator => "operator",
    Parameters => "parameters",
    Pattern => "pattern",
    Right => "right",
    Subscript => "subscript",
    Type => "type",
    Value => "value",
}

/// Node text, or "" when the byte range is not valid UTF-8 boundaries (never panics).
pub fn text<'s>(node: Node<'_>, src: &'s str) -> &'s str {
    src.get(node.byte_range()).unwrap_or("")
}

/// 1-based line of a node's start / end.
pub fn start_line(node: Node<'_>) -> u32 {
    node.start_position().row as u32 + 1
}

pub fn end_line(node: Node<'_>) -> u32 {
    let end = node.end_position();
    // A node ending at column 0 ends on the previous line (its trailing newline).
    if end.column == 0 && end.row > node.start_position().row {
        end.row as u32
    } else {
        end.row as u32 + 1
    }
}

/// Named children, in source order.
pub fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}
