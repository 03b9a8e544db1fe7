//! The repository index: what retrieval searches.
//!
//! An index is a set of flat tables addressed by small integer ids:
//!
//! * [`SourceFile`] — every indexed file (repo-relative path, language, line count, flags).
//! * [`Symbol`] — functions, methods, classes, objects with qualified names and line ranges,
//!   plus a call-graph summary (`callers`) so dead code and helpers can be recognised.
//! * [`CallChain`] — one statement's Spark DataFrame method chain
//!   (`spark.read.parquet(p).filter(..).groupBy(..).agg(..)`), each [`SparkCall`] with its exact
//!   lines and broken-down arguments, and the variable flow: which DataFrame variable the chain
//!   starts from (`receiver`), which other DataFrame variables its arguments use (`inputs`, e.g.
//!   the right side of a join) and which variable it is assigned to (`assigned_to`).
//! * [`SqlStatement`] — SQL found in `spark.sql("…")` strings (including f-strings, triple-quoted
//!   strings and SQL held in variables) and `.sql` files, split into [`SqlClause`]s whose line
//!   ranges are *repository* lines, mapped back from positions inside the string literal.
//!
//! Lines are 1-based and inclusive everywhere ([`LineRange`]).
//!
//! Serialised (see [`super::cache`]) as camelCase JSON; empty lists and empty argument text are
//! omitted and default back to empty on load.

use serde::{Deserialize, Serialize};

/// Format version of the serialised index; bump on any incompatible change — and when what the
/// index holds changes meaning, so stale cached indexes are rebuilt rather than trusted
/// (version 2: `usesSpark`, folded variable arguments, subquery clauses; version 3: SQL `IS [NOT]
/// NULL` as `isnull` / `isnotnull`, a `schema=` keyword names columns; version 4: chains know the
/// helper functions they start from or apply and whether their function returns them; version 5:
/// Python SQL built with `+` of string literals; version 6: the files' texts are kept beside the
/// index, `texts.json.zst`; version 7: an `IN`/`EXISTS` predicate names its semi or anti join
/// and the key its subquery selects; version 8: a variable holding a column condition is folded
/// into the calls that use it; version 9: a SELECT's whole-list clause carries its items'
/// literals, as a `select(…)` call does; version 10: Scala SQL built with `+` of string literals;
/// version 11: a derived table's or CTE's column list names its SELECT's items; version 12: an
/// ORDER BY names its descending keys and explicit null orderings as the DataFrame API does;
/// version 13: a fill's arguments after its value are the columns it fills; version 14: names
/// passed as paths and tables, top-level string constants, what calls of user functions
/// pass, and functions' parameters; version 15: `count("*")`, `count(1)`, `count(lit(1))` and SQL
/// `COUNT(*)` record that they count rows; version 16: an unaliased SQL call of a function over
/// columns records the name Spark gives its result, `count(country)`; version 17: the columns of
/// rows written out in a `createDataFrame` call, and which are longs; version 18: `df.columns`,
/// indexed or sliced, names the columns the code listed for `df`; version 19: the same for rows
/// named by `toDF`, Scala's `Seq(…).toDF(…)` included; version 20: an explicit schema's types — a
/// `StructType`'s or a DDL string's — say which columns are longs; version 21: a variable assigned
/// a session, whatever its name, starts chains as `spark` does; version 22: the frames of a
/// `randomSplit` unpacked into several variables are each the chain's; version 23: a DDL schema
/// string names its columns; version 24: a SQL join names its type as `join(…, how=…)` would;
/// version 25: a path interpolating its file name keeps the names it interpolates, for the values
/// callers pass; version 26: Scala's parenless `toDF` / `as[T]` are calls, a chain knows when the
/// variable it is assigned to is never read and where the RDD it makes a frame of was made, a SQL
/// expression names its result, a call of a `udf(lambda …)` variable is Spark's `<lambda>`,
/// and the jobs shell scripts launch with the command-line arguments they pass; version 27:
/// Scala's `agg("x" -> "max")` names the aggregate it applies to a column, as a Python dict does;
/// version 28: a value read off a frame or a fitted model, `summary = model.summary`, carries its
/// frame on; version 29: each variable a `randomSplit` is unpacked into has a chain of its own,
/// naming its own split's weight; version 30: a record class — a Scala case class, a Java record
/// or bean — lists its fields as its `params`; version 31: a class's string fields are
/// constants too; version 32: a chain says how many branches enclose it, Scala's parenless
/// actions are chains and a `catch` case's statements are statements; version 33: a call says
/// when it names columns computed from a frame's column names; version 34: a foreign library's
/// frames make no chains, and pathlib paths joined onto a file name are strings; version 35: the
/// frames of returned and unpacked tuples, by position; version 71: Scala's type parameters are
/// no parameters; version 72: settings files' values and the settings keys the code reads;
/// version 73: the functions a function's returned column expression calls; version 74: INI
/// settings files and `configparser` reads; version 75: `os.path.join` is the path it joins;
/// version 76: an environment variable's default and a conditional's string branch are strings;
/// version 77: `COUNT(DISTINCT *)` carries no made-up name; version 78: a `withColumns` mapping's
/// keys are new names, its values columns; version 79: a fill's mapping fills its keys with its
/// values; version 80: `summary("count")`'s arguments are statistics' names, not columns).
pub const INDEX_FORMAT_VERSION: u32 = 100;

pub type FileId = u32;
pub type SymbolId = u32;

/// 1-based inclusive line range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LineRange {
    pub start: u32,
    pub end: u32,
}

impl LineRange {
    pub fn new(start: u32, end: u32) -> Self {
        Self {
            start,
            end: end.max(start),
        }
    }
    /// How many lines the range spans (never zero: a range holds at least its start line).
    pub fn line_count(&self) -> u32 {
        self.end - self.start + 1
    }
    /// Never: a range holds at least its start line.
    pub fn is_empty(&self) -> bool {
        false
    }
    pub fn contains(&self, other: &LineRange) -> bool {
        self.start <= other.start && other.end <= self.end
    }
    pub fn overlaps(&self, other: &LineRange) -> bool {
        self.start <= other.end && other.start <= self.end
    }
}

impl std::fmt::Display for LineRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.start, self.end)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Python,
    Scala,
    Java,
    Sql,
}

/// Why a file counts as non-production code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeFlags {
    /// Under a test directory, named like a test, or a test function.
    pub test: bool,
    /// A utility / logging / helper module or function.
    pub utility: bool,
    /// A function nobody calls and that is no entry point (`main`, `__main__`, job entry).
    pub dead: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceFile {
    pub id: FileId,
    /// Repo-relative, `/`-separated.
    pub path: String,
    pub language: Language,
    pub lines: u32,
    pub bytes: u64,
    /// Databricks notebook source or Jupyter notebook.
    pub notebook: bool,
    pub flags: CodeFlags,
    /// The file is Spark code: it imports pyspark / `org.apache.spark` / `com.databricks`, or
    /// mentions `SparkSession`, `SparkContext`, `sqlContext` or `spark.`; Databricks notebooks
    /// always are. Lets retrieval rank pandas / Polars / Dask look-alikes lower.
    #[serde(default)]
    pub uses_spark: bool,
    /// Variables the file reads from its command line (`input_path = sys.argv[1]` → position 1),
    /// for what a launcher script passes ([`Launch`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub argv_names: Vec<(String, u32)>,
}

/// A job a launcher script runs with its arguments (`spark-submit job.py a b`; see
/// [`super::launch`]): `args[0]` is the job's `sys.argv[1]`. The job is the path as the script
/// writes it, resolved to a file where the arguments are read (`pipeline::sites::passing`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Launch {
    /// The launcher script's repository-relative path.
    pub launcher: String,
    pub job: String,
    pub args: Vec<String>,
}

/// A value a settings file gives a key (`quantexa.input.flights` = `data/flights.csv` in
/// `application.conf`; see [`super::settings`]), for the code that reads the key
/// ([`ArgValue::Setting`], [`CallArgs::settings`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    /// The settings file's repository-relative path.
    pub file: String,
    pub key: String,
    pub value: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SymbolKind {
    Function,
    Method,
    Class,
    Object,
    Module,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Symbol {
    pub id: SymbolId,
    pub file: FileId,
    pub name: String,
    /// `module.Class.method` / `pkg.Object.method`.
    pub qualified_name: String,
    pub kind: SymbolKind,
    pub lines: LineRange,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// Enclosing symbol (a method's class).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<SymbolId>,
    /// Symbols whose bodies call this one by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub callers: Vec<SymbolId>,
    /// A function's parameters in order (a method's receiver, `self` / `cls`, left out); a record
    /// class's fields — a Scala case class's parameters, a Java record's components, a Java
    /// bean's instance fields — the columns a frame of its objects has.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<String>,
    /// The values a function's parameters default to (`def read(spark, path=SALES_PATH)`,
    /// Scala's `path: String = Paths.Sales`): what a call leaving one out passes it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defaults: Vec<ParamDefault>,
    /// For a function returning a column expression (`def clean(c): return lower(trim(c))`):
    /// the functions that expression calls, which a call of it in a frame's arguments applies
    /// (`select(clean(col("name")))` plans `lower(trim(name))`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returned_functions: Vec<String>,
    pub flags: CodeFlags,
}

/// What a call's arguments mention, broken down for matching.
///
/// Variable arguments holding a string, a literal collection, a `StructType` or a window spec
/// contribute their value (strings of data lists to `literals`, schema field names to
/// `columns`, a window spec's columns and functions), at most 200 strings per variable.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallArgs {
    /// Column references: `"x"`, `col("x")`, `F.col("x")`, `df.x`, `df["x"]`, `$"x"`, `'x`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    /// String / numeric / boolean literals that are not column references.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub literals: Vec<String>,
    /// Functions called inside the arguments (`sum`, `avg`, `when`, `row_number`, UDF names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<String>,
    /// Aliases introduced (`.alias("total")`, `.as("total")`, `withColumn("total", …)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Table names (`spark.table("t")`, `saveAsTable`, `createOrReplaceTempView`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<String>,
    /// File paths / URIs passed to readers and writers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String>,
    /// The arguments' source text, whitespace-collapsed (capped).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
    /// Names passed where a path or a table goes whose value the file does not hold —
    /// a parameter (`read.csv(input_file)`), an imported constant — resolved across files when
    /// the site table builds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<NamedArg>,
    /// Settings keys read where a path or a table goes (`read.csv(conf.getString("in.path"))`),
    /// each `name` a key (see `lang::extract::settings_reads`), resolved against the
    /// repository's settings files when the site table builds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<NamedArg>,
    /// The columns of rows written out in the call (`createDataFrame([(1, "a")], ["id", "name"])`)
    /// whose values are all of one class, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inline_columns: Vec<InlineColumn>,
    /// The call also names columns the code computes at run time from a frame's column names
    /// (`groupBy(keys.head, keys.tail: _*)` after `val keys = df.columns.filter(…)`): which ones,
    /// the source does not say.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub computed_columns: bool,
}

/// A column of rows written out in code, and whether Spark infers it as a long (`id#0L` in the
/// plan): Python's whole numbers are longs, its strings, floats and booleans are not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InlineColumn {
    pub name: String,
    pub long: bool,
}

/// A name an argument passes in one role: `input_file` of `spark.read.csv(input_file)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NamedArg {
    pub role: NameRole,
    pub name: String,
}

/// What a [`NamedArg`]'s value stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NameRole {
    Path,
    Table,
    /// A column's name (`col(column_name)` in a helper its callers pass `"publish_year"`).
    Column,
    /// A value (`col(c) > threshold`).
    Literal,
}

/// A string constant bound at a module's or an object's top level
/// (`RAW_FILE = "data/transactions.csv"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Constant {
    pub file: FileId,
    pub name: String,
    /// The string; for a collection of strings (`KEYS = ["id", "day"]`), its strings joined by
    /// [`LISTED_VALUES_SEPARATOR`].
    pub value: String,
    /// `value` is a settings key the binding reads (`val input = conf.getString("in")`), not
    /// the string itself.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_setting: bool,
}

/// Joins the strings of a listed constant's [`Constant::value`]: one alternative holding them
/// all, not as many alternatives.
pub const LISTED_VALUES_SEPARATOR: char = '\n';

/// What one argument of a call of a user function passes
/// (`ingest_transactions(spark, RAW_FILE, BRONZE_PATH)`: `RAW_FILE` at position 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PassedArg {
    pub file: FileId,
    /// The function the call is written in (`None`: module level).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<SymbolId>,
    /// The call's first line.
    pub line: u32,
    /// The function called, by its own name (`ingest_transactions` of `jobs.ingest_transactions`).
    pub callee: String,
    /// Positional index, or the keyword the argument is passed by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    pub value: ArgValue,
}

/// A parameter's default value ([`Symbol::defaults`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ParamDefault {
    pub param: String,
    pub value: ArgValue,
}

/// A string literal, or a name: a constant's (resolved through [`Constant`]s) or a DataFrame
/// variable's (the flow into the function's parameter); or a settings key, or what another
/// user function's call returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ArgValue {
    Literal(String),
    Name(String),
    /// A settings key read in the argument (`config.getString("input.flights")`).
    Setting(String),
    /// What a call of the user function of this name returns (`self.transform(self.extract())`
    /// passes `extract`'s frame).
    Returned(String),
    /// Any other expression (`idf.select(cols).summary("count")`): the call passes something
    /// there, nothing this can name.
    Expression,
}

/// One method call in a chain: `.groupBy("dept")`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SparkCall {
    /// Method name as written (`groupBy`, `agg`, `where`, `withColumn`, `parquet`, `sql`).
    pub method: String,
    /// Lines of this call (from the method name to its closing parenthesis).
    pub lines: LineRange,
    pub args: CallArgs,
    /// The part of the chain's statement holding this call, when a block passed outside
    /// parentheses splits the statement as a reader sees it (Scala's `.mapGroups { … }` then
    /// `}.orderBy(…)`; see [`crate::code::lang::line_statements`]); `None` for the whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<LineRange>,
}

impl RepoIndex {
    /// The names a call of `symbol` is written with: its own, and for a Scala `apply` method
    /// its object's (`MostFrequent(flights, 10)` calls `object MostFrequent { def apply(…) }`).
    pub fn call_names<'s>(&'s self, symbol: &'s Symbol) -> impl Iterator<Item = &'s str> {
        let owner = (symbol.name == "apply")
            .then(|| symbol.parent.and_then(|p| self.symbols.get(p as usize)))
            .flatten()
            .filter(|p| matches!(p.kind, SymbolKind::Class | SymbolKind::Object))
            .map(|p| p.name.as_str());
        std::iter::once(symbol.name.as_str()).chain(owner)
    }
}

/// Ends an input of a [`CallChain`] that is no variable but the frames an argument reads inline
/// from the session before it: `spark(…)` for `join(spark.table("stores"), …)`, whose read is
/// indexed as a chain of its own after the joining one.
pub const INLINE_READ: &str = "(…)";

/// Ends an input of a [`CallChain`] that is the parameter of a lambda it applies to its frame
/// (`d` of `transform(lambda d: d.filter(…))`): the lambda's body, indexed as a chain of its own
/// after the applying one, is what the call makes of the frame.
pub const APPLIED_LAMBDA: &str = "(λ)";

/// A function's own name, without the class or object a call qualified it with
/// (`Sources.orders` → `orders`; see [`CallChain::source_function`]).
pub fn unqualified(function: &str) -> &str {
    function.rsplit('.').next().unwrap_or(function)
}

/// One statement's DataFrame method chain and its place in the variable flow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallChain {
    pub id: u32,
    pub file: FileId,
    /// Innermost enclosing symbol.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<SymbolId>,
    /// The whole statement holding the chain.
    pub statement: LineRange,
    /// The chain's starting expression: a variable (`df`), `spark`, `spark.read`, …
    pub receiver: String,
    /// Other DataFrame variables used in arguments (join partners, union inputs, …), and a
    /// session followed by [`INLINE_READ`] for frames read from it inline there
    /// (`join(spark.table("stores"), …)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<String>,
    /// Variable the chain's result is assigned to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_to: Option<String>,
    /// Calls in evaluation order (receiver first). Empty for a *pass-through* chain, which only
    /// carries a DataFrame between variables and functions (`orders = load_orders(spark, p)`,
    /// `return report`).
    pub calls: Vec<SparkCall>,
    /// Statement source text (capped), for snippets and lexical search.
    pub text: String,
    /// The user function whose returned DataFrame the chain starts from: `load_orders` in
    /// `orders = load_orders(spark, path)` or `load_orders(spark, path).filter(…)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_function: Option<String>,
    /// Functions applied to the chain's DataFrame (`df.transform(clean)`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub applied_functions: Vec<String>,
    /// The chain's value is what its enclosing function returns (`return …`, the last expression
    /// of a Scala body).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub returned: bool,
    /// The chain is assigned to a variable that nothing after it in its file reads (the name
    /// never appears on a later line, or only to print the frame's plan or schema —
    /// `way.explain()`): the frame it builds is never run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unread: bool,
    /// For a chain making a frame of an RDD variable (`rdd.toDF`): the lines of the statement
    /// that last assigned the variable — where Spark says the RDD it scans was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receiver_made_at: Option<LineRange>,
    /// How many branches of its function (`if`/`else`, `try`/`catch`, loops, `match` cases)
    /// enclose the statement: an assignment nested deeper than the statement reading its
    /// variable may not have run, so an earlier assignment may reach the read as well.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub branch_depth: u8,
    /// For a frame that is one element of a tuple: its position — in a function's returned
    /// tuple (`return orders, products, elapsed`), or among the variables a call's tuple is
    /// unpacked into (`orders, products, _ = bench.load_data()`), which it is fed by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuple_position: Option<u8>,
    /// The chain's frame is added to the list [`Self::assigned_to`] names (`rows.append(…)`),
    /// not assigned to it: the list's elements (`rows[0]`, `for r in rows`) are it, while the
    /// list passed whole to a function (`union_all(rows)`) may be taken apart as anything.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub appended: bool,
    /// Columns the code says the query the chain runs returns: those it reads by name from the
    /// rows the chain collects (`….toPandas()["iv"]`, `….collect()[0]["iv"]`,
    /// `….first().getAs("iv")`), and those a `select` of plain columns right before the
    /// collecting action keeps (`….select("original_form").toPandas()`). A look-alike query
    /// returning other columns is another chain's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returned_columns: Vec<String>,
    /// The query returns exactly [`Self::returned_columns`]: they are those of a plain `select`
    /// right before the rows are collected or the frame becomes an RDD
    /// (`….select("attribute").rdd.flatMap(…).collect()`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub returns_exactly: bool,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Where a SQL statement came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SqlOrigin {
    /// A string literal passed to `spark.sql(…)` (directly or through a variable).
    SparkSqlCall,
    /// A string literal that parses as SQL but was not seen flowing into `sql(…)`.
    StringLiteral,
    /// A `.sql` file.
    SqlFile,
    /// A `%sql` notebook cell.
    NotebookCell,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SqlClauseKind {
    Select,
    SelectItem,
    From,
    Join,
    JoinPredicate,
    Where,
    WherePredicate,
    GroupBy,
    Having,
    OrderBy,
    Window,
    Limit,
    Union,
    Subquery,
    With,
    Insert,
    CreateView,
    Other,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SqlClause {
    pub kind: SqlClauseKind,
    /// Repository lines of the clause.
    pub lines: LineRange,
    /// Clause text (capped).
    pub text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub literals: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// Nesting depth (0 = outermost query; subqueries and CTEs deeper).
    pub depth: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SqlStatement {
    pub id: u32,
    pub file: FileId,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<SymbolId>,
    pub origin: SqlOrigin,
    /// Lines of the SQL text itself.
    pub lines: LineRange,
    /// Lines of the host statement (`q = """…"""`, `spark.sql(…)`), equal to `lines` for `.sql`.
    pub host_statement: LineRange,
    /// Whether the SQL parser accepted it; if not, `clauses` holds a token-level fallback.
    pub parsed: bool,
    pub clauses: Vec<SqlClause>,
    /// Variable the resulting DataFrame is assigned to (`df = spark.sql(q)`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub assigned_to: Option<String>,
}

/// Why a file was not indexed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SkipReason {
    TooLarge,
    Binary,
    InvalidUtf8,
    Symlink,
    OutsideRepo,
    UnsupportedLanguage,
    ParseFailed,
    /// Not handed to the parser: it would crash the grammar's C scanner ([`super::guard`]).
    ParserHazard,
    /// A FIFO, socket or device: never opened (opening a FIFO blocks forever).
    NotRegularFile,
    FileCountCap,
    TotalBytesCap,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexStats {
    pub files_scanned: u64,
    pub files_skipped: std::collections::BTreeMap<SkipReason, u64>,
    pub bytes_scanned: u64,
    pub symbols: u64,
    pub spark_ops: u64,
    pub sql_statements: u64,
    pub by_language: std::collections::BTreeMap<String, u64>,
    pub elapsed_ms: u64,
    /// One line per file that needs the user's attention (`path: what happened`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The index of one repository at one commit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepoIndex {
    pub version: u32,
    /// Resolved commit (None for a plain directory that is not a git checkout).
    pub commit: Option<String>,
    pub cache_key: String,
    pub files: Vec<SourceFile>,
    pub symbols: Vec<Symbol>,
    pub chains: Vec<CallChain>,
    pub sql: Vec<SqlStatement>,
    /// Top-level string constants of every file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<Constant>,
    /// What calls of user functions pass: literals and names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passed: Vec<PassedArg>,
    /// The jobs launcher scripts run, with their arguments.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub launches: Vec<Launch>,
    /// What the repository's settings files give their keys.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub settings: Vec<Setting>,
    pub stats: IndexStats,
}
