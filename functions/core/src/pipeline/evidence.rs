//! Evidence: the comparable facts on both sides of a mapping.
//!
//! A plan node and a code site are each reduced to an [`Evidence`] bag — columns, functions,
//! literals, aliases, tables, paths — normalised so that the plan's `approx_count_distinct` meets
//! Scala's `approxCountDistinct`, the plan's `Sales` meets Python's `"Sales"`, and attribute ids are
//! long gone. Matching two bags is weighted by how rare each token is in the repository
//! ([`TokenWeights`], an inverse document frequency), so `salary` (in forty statements) counts far
//! less than `approx_count_distinct` (in one).

use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What kind of fact a token is; each kind has its own weight when bags are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TokenKind {
    Column,
    Function,
    Literal,
    Alias,
    Table,
    Path,
}

impl TokenKind {
    /// How much one matched token of this kind says about a site, before rarity.
    fn weight(self) -> f64 {
        match self {
            TokenKind::Column => 1.0,
            TokenKind::Function => 1.5,
            TokenKind::Literal => 1.6,
            TokenKind::Alias => 2.0,
            TokenKind::Table => 2.0,
            TokenKind::Path => 2.0,
        }
    }
}

/// A bag of normalised facts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Evidence {
    pub tokens: BTreeSet<(TokenKind, String)>,
    /// Column and alias names (and strings that may be names) spelled with capitals, as written
    /// (`STATE`, `firstName`): Spark prints a column as the query spelled it, so the same
    /// spelling breaks a tie between sites that name it alike (`WHERE STATE IS NULL` beside
    /// `filter("state is NULL")`).
    pub spellings: BTreeSet<String>,
    /// For an aggregate computing something: whether it groups by keys or aggregates every row.
    pub grouping: Option<Grouping>,
    /// For a join: its key columns in order (normalised) — the plan's left keys; the columns a
    /// join call names, first seen first. Spark keys a join in its condition's order and puts a
    /// condition pushed in from a filter after the join first, so the order tells
    /// `join(a & b)` from `join(b).where(a)` ([`same_key_order`]).
    pub key_order: Vec<String>,
    /// For a join the query returns as it is: its result keeps both sides' keys under one name,
    /// so it was joined on a condition (`a.x == b.x`, SQL's `ON`), not on names.
    pub keeps_both_keys: bool,
    /// For a join on a condition (a site's evidence, never a node's): a projection right after it
    /// narrows its columns (`a.join(b, a.k == b.k).select(a.k, …)`, a SQL select list naming
    /// columns), so its result may keep one key of each pair as a join on names does
    /// ([`JOINED_ON_NAMES`]): such a Project says nothing against it.
    pub narrowed_after_join: bool,
    /// For an inner join: a test above it reads its rows (a filter's condition, a later join's
    /// keys), so the optimiser may have made it of an outer join the code wrote — an outer join
    /// whose null rows that test rejects is planned inner.
    pub nulls_rejected_above: bool,
    /// For a de-duplication of keys only: its keys are fewer than the columns its scans read, so
    /// something narrowed the rows first (`select(a, b).distinct()`, not a whole frame's
    /// `dropDuplicates()`).
    pub narrowed_rows: bool,
    /// For a projection computing something: the columns it passes through as they are
    /// (`select("name", map_keys("info"))` keeps `name`). They are no evidence — most code
    /// names them — but a site naming them says nothing the plan does not ([`excess`]).
    pub passed_through: BTreeSet<String>,
    /// For a DataFrame grouping (a site's evidence, never a node's): its result returns every
    /// key, no projection right after the aggregating call narrowing it — so it cannot be an
    /// aggregate whose result leaves a key out ([`KEY_LEFT_OUT`]).
    pub returns_keys: bool,
    /// For a de-duplication whose results compute a column (a node's evidence): Spark folded the
    /// projection after it into the aggregate (`dropDuplicates()` then `withColumn("flag", …)`
    /// plans `CASE WHEN … AS flag` in its results), so the site computing that column — a
    /// projection — produces the node too.
    pub folds_projection: bool,
    /// For in-memory rows — a node's scan of them, or a site writing them out — whether each
    /// column (normalised) is a long ([`crate::code::index::InlineColumn`]).
    pub column_longs: BTreeMap<String, bool>,
    /// For a scan or a site naming paths: each path's last components, directories included
    /// ([`path_tail`]): `Data/sales_info.csv` says more about a scan of
    /// `…/Data/sales_info.csv` than a look-alike's `sales_info.csv` does.
    pub path_tails: BTreeSet<String>,
    /// For a reader (a site's evidence, never a node's): the paths it names whose file is a
    /// pattern, by [`glob_tail`] (`load("/data/retail/all/*.csv")` → `data/retail/all/*.csv`): a
    /// scan of a file the pattern matches in that folder is its scan ([`Evidence::globs_match`]).
    pub path_globs: BTreeSet<String>,
    /// For a reader (a site's evidence, never a node's): the files its string literals name, by
    /// [`named_file`] (`read.csv("data/customer_churn.csv")` → `customer_churn`). A scan whose
    /// paths name none of them reads other files: it is another reader's.
    pub named_files: BTreeSet<String>,
    /// For a reader (a site's evidence, never a node's): the tails of the paths its string
    /// literals name relative to the working folder, by [`working_folder_tail`]
    /// (`read.parquet("data/orders.parquet")` → `data/orders.parquet`). Whatever folder the job
    /// runs from, the path it reads ends so: a scan of `…/data/raw/orders.parquet` is another
    /// reader's.
    pub working_folder_tails: BTreeSet<String>,
    /// For a scan of files, or a reader: the file format (`csv`, `json`, `text`, …; see
    /// [`file_format`]). A reader of another format does not produce the scan.
    pub file_format: Option<String>,
    /// For a node running a closure the user compiled (a typed `map` / `filter`, `groupByKey`):
    /// the top-level class it was compiled in, without its package
    /// ([`super::hints::closure_class`]); for a
    /// site in Scala or Java code: the top-level class around it. A closure compiled in another
    /// class is other code.
    pub compiled_in: Option<String>,
    /// For a scan of rows Python handed to the JVM (`Scan ExistingRDD` of a
    /// `MapPartitionsRDD … at applySchemaToPythonRDD`: PySpark's `createDataFrame`): the data was
    /// made by Python code.
    pub made_by_python: bool,
    /// For a site: it is Scala or Java code, which makes its rows in the JVM
    /// ([`Self::made_by_python`]).
    pub in_jvm_code: bool,
    /// For a node: its plan shows Python drove the query — rows PySpark handed over anywhere in
    /// it, or a Python UDF's evaluation — so no Scala or Java statement ran any of its operators
    /// ([`Self::in_jvm_code`]), whatever translation of the query the repository holds.
    pub driven_by_python: bool,
    /// For a scan of files: it names no catalog table, only where its files are
    /// (`Scan parquet` with a `Location`, not `Scan parquet spark_catalog.sales.orders`).
    pub scans_files_only: bool,
    /// For a scan: it scans a table of a database (`Scan json spark_catalog.default.flights`),
    /// which a reader of files by path never plans ([`Self::reads_files_by_path`]).
    pub scans_catalog_table: bool,
    /// For a reader (a site's evidence, never a node's): it reads a table of a database by name
    /// (`spark.read.table("sales.orders")`, `FROM sales.orders`), which Spark scans as that
    /// table ([`Self::scans_files_only`]).
    pub reads_catalog_table: bool,
    /// For a reader (a site's evidence): it reads files by path (`spark.read.json(path)`,
    /// `.format("csv").load(path)`), which Spark scans naming no table — never as
    /// `Scan json spark_catalog.default.flights` ([`Self::scans_catalog_table`]).
    pub reads_files_by_path: bool,
    /// For a site: it makes a frame of rows held in memory or an RDD's (`createDataFrame(rows)`,
    /// `Seq(…).toDS()`, `rdd.toDF()`), not of a reader's files — which a scan of files is not
    /// ([`Self::file_format`] of a node).
    pub makes_rows_in_memory: bool,
    /// For a site: `toDF("a", "b", …)`, which names every column of its frame anew — a column
    /// keeping its own name is one of the names it gives.
    pub renames_every_column: bool,
    /// For rows held in memory: whether an RDD holds them (a node's `Scan ExistingRDD` or scan of
    /// an RDD's objects; JVM code's `parallelize(…).toDF`) or a local collection does (a node's
    /// `LocalTableScan`; JVM code's `Seq(…).toDF`, `createDataFrame(Arrays.asList(…), …)`).
    /// Either way or not known.
    pub rows_from_rdd: Option<bool>,
    /// For a scan of CSV files, whether Spark named its columns `_c0`, `_c1`, …; for a CSV
    /// reader, whether it gives neither a header row nor a schema. Either way or not at all.
    pub headerless_csv: Option<bool>,
    /// For a filter: what it tests, beyond names and values — comparisons with their operators,
    /// disjunctions, how many non-null values a row needs ([`super::predicates`]).
    pub predicates: BTreeSet<String>,
    /// For an aggregate keyed by columns: the columns its keys name — a node's keys, or those a
    /// site's grouping call names (`groupBy("city", "year")`). Empty when unknown (a key Spark
    /// pulled out of an expression as `_groupingexpression`). A site grouping by a column the
    /// node does not key on is another grouping.
    pub group_keys: BTreeSet<String>,
    /// For a limit: how many rows it keeps — a node's limit, or what a site's call keeps
    /// (`limit(0)`, `take(5)`, `first()`'s one, `show()`'s 21). Not a token: 0 and 1 decide
    /// nothing as literals, but a `limit(0)` is no `isEmpty`.
    pub kept_rows: Option<u64>,
    /// For a range of numbers: its bounds — a node's `Range (0, 100, step=1, …)`, or what a
    /// site's `spark.range(…)` writes (`range(100)`, `range(5, 50, 5)`). Not a token: 0 and 1
    /// decide nothing as literals, but `range(10)` makes no `Range (0, 1, …)`.
    pub range_bounds: Option<RangeBounds>,
    /// For a site: it also names columns the code computes from a frame's column names
    /// (`groupBy(keys.head, keys.tail: _*)`), so a node's keys may be among them.
    pub names_computed_columns: bool,
    /// For a node: the columns its query returns (normalised), when the plan prints them
    /// ([`super::semantics`]); empty when it does not.
    pub result_columns: BTreeSet<String>,
    /// For a site: columns (normalised) the code says its chain's query returns
    /// ([`crate::code::index::CallChain::returned_columns`]): a query returning none of one of
    /// them is another chain's.
    pub returns_columns: BTreeSet<String>,
    /// For a site: its chain's query returns exactly [`Self::returns_columns`] (a plain
    /// `select` right before collecting), no more.
    pub returns_exactly: bool,
}

/// The numbers a range makes: from `start` up to (not including) `end`, `step` apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RangeBounds {
    pub start: i64,
    pub end: i64,
    pub step: i64,
}

/// How an aggregate gathers its rows: `groupBy(k).agg(…)` / `GROUP BY k` plan aggregates keyed
/// by `k`; `select(count(x))`, `agg(…)` and a SQL aggregate without `GROUP BY`, one over all rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    Keyed,
    Global,
}

impl Grouping {
    pub fn name(self) -> &'static str {
        match self {
            Grouping::Keyed => "keyed",
            Grouping::Global => "global",
        }
    }

    pub fn from_name(name: &str) -> Option<Grouping> {
        match name {
            "keyed" => Some(Grouping::Keyed),
            "global" => Some(Grouping::Global),
            _ => None,
        }
    }
}

/// Functions that say nothing about which statement produced a node: column accessors,
/// literal wrappers, casts and the aliasing calls themselves.
const NOISE_FUNCTIONS: &[&str] = &[
    "col",
    "column",
    "lit",
    "alias",
    "as",
    "name",
    "expr",
    "cast",
    "apply",
    "input",
    "knownfloatingpointnormalized",
    "normalizenanandzero",
    "promoteprecision",
    "checkoverflow",
    "makedecimal",
    "unscaledvalue",
    "staticinvoke",
    "invoke",
    "assertnotnull",
    "getcolumnbyordinal",
];

/// Code-side spellings whose plan spelling differs (after normalisation).
const FUNCTION_SYNONYMS: &[(&str, &str)] = &[
    ("mean", "avg"),
    ("stddev", "stddevsamp"),
    ("std", "stddevsamp"),
    ("variance", "varsamp"),
    ("isnull", "isnull"),
    ("isin", "in"),
    ("startswith", "startswith"),
    ("endswith", "endswith"),
    ("when", "casewhen"),
    ("otherwise", "casewhen"),
    ("approxcountdistinct", "approxcountdistinct"),
    ("todate", "todate"),
    ("currentdate", "currentdate"),
    ("currenttimestamp", "currenttimestamp"),
    // functions Spark plans as the expression they stand for
    ("ifnull", "coalesce"),
    ("nvl", "coalesce"),
    ("nvl2", "if"),
    ("nullif", "if"),
];

/// Lower-case and drop `_` so `approx_count_distinct` == `approxCountDistinct`; strip Spark's
/// partial/merge aggregate prefixes.
pub fn normalise_function(name: &str) -> String {
    let lower: String = name
        .chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    let lower = lower
        .strip_prefix("partial")
        .or_else(|| lower.strip_prefix("merge"))
        .filter(|rest| !rest.is_empty())
        .map(str::to_owned)
        .unwrap_or(lower);
    FUNCTION_SYNONYMS
        .iter()
        .find(|(code, _)| *code == lower)
        .map(|(_, plan)| (*plan).to_owned())
        .unwrap_or(lower)
}

pub fn is_noise_function(normalised: &str) -> bool {
    NOISE_FUNCTIONS.contains(&normalised)
}

/// Column names compare case-insensitively (Spark's default resolution).
pub fn normalise_column(name: &str) -> String {
    column_name(name).to_lowercase()
}

/// A column's own name as written, without quotes and qualifier: `df.x`, `t.x` and `x` are the
/// same column for matching purposes.
fn column_name(name: &str) -> &str {
    let trimmed = name
        .trim()
        .trim_matches('`')
        .trim_matches('"')
        .trim_matches('\'');
    trimmed.rsplit('.').next().unwrap_or(trimmed)
}

/// Literals lose quotes, numeric suffixes (`10L`, `2.0D`) and trailing `.0`.
pub fn normalise_literal(value: &str) -> Option<String> {
    let v = canonical_literal(value);
    if v.is_empty() || v == "null" || v == "true" || v == "false" {
        return None;
    }
    // Single characters and the ubiquitous 0/1 match everything and decide nothing.
    if v.chars().count() < 2 && v.parse::<i64>().map_or(true, |n| n == 0 || n == 1) {
        return None;
    }
    Some(v)
}

/// A literal as code and plan both spell it: unquoted, lower case, without a numeric type suffix
/// or a whole number's `.0` (`"0.0"`, `0L` and `0` are all `0`).
pub fn canonical_literal(value: &str) -> String {
    let mut v = value
        .trim()
        .trim_matches(|c| c == '"' || c == '\'')
        .trim()
        .to_lowercase();
    let numeric_suffix = v.len() > 1
        && (v.ends_with('l') || v.ends_with('d') || v.ends_with('f'))
        && v[..v.len() - 1].parse::<f64>().is_ok();
    if numeric_suffix {
        v.pop();
    }
    if let Some(stripped) = v.strip_suffix(".0")
        && stripped.parse::<i64>().is_ok()
    {
        v = stripped.to_owned();
    }
    v
}

/// Whether a table name names a table of a database (`sales.orders`, `main.sales.orders`) rather
/// than a temporary view (`orders`) or files (`parquet.\`/data/orders\``).
pub fn is_catalog_table(name: &str) -> bool {
    let name = name.trim();
    let format_prefixed = name
        .split_once('.')
        .is_some_and(|(head, _)| file_format(head).is_some());
    name.contains('.') && !name.contains('/') && !name.contains('`') && !format_prefixed
}

/// Paths compare by their last meaningful component (`/data/x/orders.parquet` ~ `orders.parquet`
/// ~ `orders`), since code often builds them from a base directory.
pub fn normalise_path(path: &str) -> Option<String> {
    let trimmed = path.trim().trim_end_matches('/');
    let last = trimmed.rsplit(['/', '\\']).next()?;
    let stem = last.split('.').next().unwrap_or(last).to_lowercase();
    (!stem.is_empty() && stem != "*").then_some(stem)
}

/// A path built at run time from a folder and a name (`dir + "lineitem"`, `f"{root}orders"`):
/// the code's text holds the folder as a placeholder, joined to the name by a space (pieces of a
/// concatenation) or by nothing; the folder ends where the name starts, so it is joined by `/`.
fn runtime_folder_joined(path: &str) -> std::borrow::Cow<'_, str> {
    use crate::code::strings::PLACEHOLDER;
    if !path.contains(PLACEHOLDER) {
        return std::borrow::Cow::Borrowed(path);
    }
    let mut joined = String::with_capacity(path.len() + 4);
    let mut rest = path;
    while let Some(at) = rest.find(PLACEHOLDER) {
        joined.push_str(&rest[..at + PLACEHOLDER.len()]);
        rest = &rest[at + PLACEHOLDER.len()..];
        let name = rest.trim_start_matches(' ');
        if name.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            joined.push('/');
            rest = name;
        }
    }
    joined.push_str(rest);
    std::borrow::Cow::Owned(joined)
}

/// The file a path names, compared as [`normalise_path`] compares paths — only when its last
/// component is a file name with an extension and no pattern (`orders.csv`, not `raw/`,
/// `part-*.csv` or `{base}.csv`): a folder, a piece of a path built at run time or a glob may
/// stand for any file under it.
pub fn named_file(path: &str) -> Option<String> {
    let path = runtime_folder_joined(path);
    let trimmed = path.trim().trim_end_matches(['/', '\\']);
    let last = trimmed.rsplit(['/', '\\']).next()?;
    let (stem, extension) = last.rsplit_once('.')?;
    let pattern = |c: char| matches!(c, '*' | '?' | '{' | '}' | '[' | ']' | '$' | '%');
    if stem.is_empty() || extension.is_empty() || last.contains(pattern) {
        return None;
    }
    normalise_path(last)
}

/// How many trailing components of a path [`path_tail`] keeps: the file and the folders above it
/// — as far as a build module's folder above `src/main/resources/data/x.csv`.
const PATH_TAIL_DEPTH: usize = 8;

/// A path's last components, lower-cased and joined with `/` (`file:/tmp/run/Data/sales.csv` →
/// `tmp/run/data/sales.csv`), when it names a folder at all; a URL's scheme, host (and any
/// credentials in it) and query are left out, and a pattern (`*.csv`, `{a,b}`, `..`) compares with
/// nothing.
pub fn path_tail(path: &str) -> Option<String> {
    let path = path.trim();
    let path = path.split('?').next().unwrap_or(path);
    let path = match path.split_once("://") {
        // (a secret key in the authority may hold a `/`: what follows its last `@` is the host)
        Some((_, rest)) => {
            let rest = rest.rsplit_once('@').map_or(rest, |(_, host_on)| host_on);
            rest.split_once('/').map_or("", |(_, p)| p)
        }
        None => path.strip_prefix("file:").unwrap_or(path),
    };
    let parts: Vec<&str> = path
        .split(['/', '\\'])
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let pattern = |p: &&str| *p == ".." || p.contains(['*', '{', '[', '$']);
    if parts.len() < 2 || parts.iter().any(pattern) {
        return None;
    }
    let keep = parts.len().min(PATH_TAIL_DEPTH);
    Some(parts[parts.len() - keep..].join("/").to_lowercase())
}

/// [`path_tail`] of a path whose file is a pattern (`/data/retail/all/*.csv`,
/// `events/part-*.json`): the folders above it must be plain, at least one of them.
pub fn glob_tail(path: &str) -> Option<String> {
    let (folder, file) = path
        .trim()
        .trim_end_matches(['/', '\\'])
        .rsplit_once(['/', '\\'])?;
    if !file.contains(['*', '?', '[', '{']) {
        return None;
    }
    // the folder's tail as a path's (with a stand-in file, so that one folder is enough)
    let folder = path_tail(&format!("{folder}/x"))?;
    let folder = folder.strip_suffix("/x")?;
    Some(format!("{folder}/{}", file.to_lowercase()))
}

/// The folder a [`glob_tail`] or a [`path_tail`] ends in, as a posting key: what a reader of a
/// pattern and a scan of a file it matches share.
pub fn glob_folder_key(tail: &str) -> Option<String> {
    let (folder, _) = tail.rsplit_once('/')?;
    let last = folder.rsplit('/').next()?;
    Some(format!("glob:{last}"))
}

/// Whether the pattern `glob` (a [`glob_tail`]) matches the path `tail` (a [`path_tail`]): the
/// same folders above, as many as the pattern names, and a file name the pattern matches.
fn glob_matches(glob: &str, tail: &str) -> bool {
    let (Some((glob_folder, pattern)), Some((folder, file))) =
        (glob.rsplit_once('/'), tail.rsplit_once('/'))
    else {
        return false;
    };
    let folders_agree = glob_folder
        .rsplit('/')
        .zip(folder.rsplit('/'))
        .all(|(a, b)| a == b)
        && folder.split('/').count() >= glob_folder.split('/').count();
    folders_agree && globset::Glob::new(pattern).is_ok_and(|g| g.compile_matcher().is_match(file))
}

/// The literal saying an RDD was made on `line` of the file named `file_name`: a scan of an RDD
/// carries it for where Spark says its RDD was made, a site making a frame of an RDD variable
/// (`rdd.toDF`) for each line of the statement that assigned the variable.
pub fn rdd_made_at(file_name: &str, line: u32) -> String {
    format!("rddmadeat:{}:{line}", file_name.to_lowercase())
}

/// The file format a scan or a reader names (`Scan csv`, `read.csv`, `format("json")`), lower-cased;
/// `None` for anything but a file format (tables, in-memory data, a format this does not know).
pub fn file_format(name: &str) -> Option<String> {
    let lower = name.trim().to_ascii_lowercase();
    let lower = match lower.as_str() {
        "textfile" => "text",
        other => other,
    };
    [
        "csv",
        "json",
        "parquet",
        "orc",
        "text",
        "avro",
        "libsvm",
        "xml",
        "binaryfile",
    ]
    .contains(&lower)
    .then(|| lower.to_owned())
}

/// The tail of a relative `path` read by code in `folder` (repository-relative), resolved there:
/// `sales.csv` read in `course/frames/` is `course/frames/sales.csv`. `None` for an absolute
/// path or URL, whose own tail is all there is.
pub fn relative_path_tail(folder: &str, path: &str) -> Option<String> {
    let path = path.trim();
    if !is_relative(path) || folder.is_empty() {
        return None;
    }
    path_tail(&format!("{folder}/{path}"))
}

/// The tail of a plain relative `path` — no folder built at run time, no pattern — from its
/// first folder past any `..` (`../data/x.csv` → `data/x.csv`): the end of every path it can
/// resolve to, whatever the working folder. An absolute path says no such thing: a mount or a
/// copy of the data may move it (`/dbfs/mnt/raw/x.csv` read from `/Volumes/…/x.csv`).
pub fn working_folder_tail(path: &str) -> Option<String> {
    use crate::code::strings::PLACEHOLDER;
    let path = path.trim();
    if !is_relative(path) || path.contains(PLACEHOLDER) {
        return None;
    }
    let mut below_parents: Vec<&str> = path
        .rsplit(['/', '\\'])
        .take_while(|p| *p != "..")
        .collect();
    below_parents.reverse();
    path_tail(&below_parents.join("/"))
}

/// A path neither absolute nor a URL nor under a home folder.
fn is_relative(path: &str) -> bool {
    !(path.starts_with(['/', '\\', '~']) || path.contains(':'))
}

/// Table names compare by their unqualified name.
pub fn normalise_table(name: &str) -> String {
    name.trim()
        .trim_matches('`')
        .rsplit('.')
        .next()
        .unwrap_or(name)
        .to_lowercase()
}

impl Evidence {
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    pub fn add(&mut self, kind: TokenKind, raw: &str) {
        let value = match kind {
            TokenKind::Column => Some(normalise_column(raw)),
            TokenKind::Function => {
                let f = normalise_function(raw);
                (!is_noise_function(&f)).then_some(f)
            }
            TokenKind::Literal => normalise_literal(raw),
            TokenKind::Alias => Some(normalise_column(raw)),
            TokenKind::Table => Some(normalise_table(raw)),
            TokenKind::Path => {
                let raw = &runtime_folder_joined(raw);
                self.path_tails.extend(path_tail(raw));
                self.path_globs.extend(glob_tail(raw));
                normalise_path(raw)
            }
        };
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            // (a name passed as a plain string may be recorded as a literal)
            if matches!(
                kind,
                TokenKind::Column | TokenKind::Alias | TokenKind::Literal
            ) {
                // the name itself: `Properties.eye` spells `eye`
                let name = column_name(raw);
                if name.chars().any(char::is_uppercase) {
                    self.spellings.insert(name.to_owned());
                }
            }
            self.tokens.insert((kind, v));
        }
    }

    pub fn add_all<'a>(&mut self, kind: TokenKind, values: impl IntoIterator<Item = &'a String>) {
        for v in values {
            self.add(kind, v);
        }
    }

    /// Whether the only function is [`DISTINCT`]: a de-duplication of whole rows (`distinct()`,
    /// an Aggregate of keys that computes nothing).
    pub fn deduplicates_only(&self) -> bool {
        self.has(TokenKind::Function, DISTINCT)
            && self
                .tokens
                .iter()
                .all(|(k, v)| *k != TokenKind::Function || v == DISTINCT)
    }

    /// The bag without its tokens of `kind`.
    pub fn without(&self, kind: TokenKind) -> Evidence {
        Evidence {
            tokens: self
                .tokens
                .iter()
                .filter(|(k, _)| *k != kind)
                .cloned()
                .collect(),
            spellings: if matches!(kind, TokenKind::Column | TokenKind::Alias) {
                BTreeSet::new()
            } else {
                self.spellings.clone()
            },
            grouping: self.grouping,
            keeps_both_keys: self.keeps_both_keys,
            narrowed_after_join: self.narrowed_after_join,
            nulls_rejected_above: self.nulls_rejected_above,
            narrowed_rows: self.narrowed_rows,
            passed_through: self.passed_through.clone(),
            returns_keys: self.returns_keys,
            folds_projection: self.folds_projection,
            column_longs: self.column_longs.clone(),
            path_tails: self.path_tails.clone(),
            path_globs: self.path_globs.clone(),
            named_files: self.named_files.clone(),
            working_folder_tails: self.working_folder_tails.clone(),
            file_format: self.file_format.clone(),
            compiled_in: self.compiled_in.clone(),
            headerless_csv: self.headerless_csv,
            scans_files_only: self.scans_files_only,
            scans_catalog_table: self.scans_catalog_table,
            made_by_python: self.made_by_python,
            in_jvm_code: self.in_jvm_code,
            driven_by_python: self.driven_by_python,
            reads_catalog_table: self.reads_catalog_table,
            reads_files_by_path: self.reads_files_by_path,
            makes_rows_in_memory: self.makes_rows_in_memory,
            renames_every_column: self.renames_every_column,
            rows_from_rdd: self.rows_from_rdd,
            group_keys: if kind == TokenKind::Column {
                BTreeSet::new()
            } else {
                self.group_keys.clone()
            },
            predicates: if kind == TokenKind::Column {
                BTreeSet::new()
            } else {
                self.predicates.clone()
            },
            key_order: if kind == TokenKind::Column {
                Vec::new()
            } else {
                self.key_order.clone()
            },
            kept_rows: self.kept_rows,
            range_bounds: self.range_bounds,
            names_computed_columns: self.names_computed_columns,
            result_columns: self.result_columns.clone(),
            returns_columns: self.returns_columns.clone(),
            returns_exactly: self.returns_exactly,
        }
    }

    /// Record a join's key column, once, after those recorded.
    pub fn add_key(&mut self, column: &str) {
        let column = normalise_column(column);
        if !column.is_empty() && !self.key_order.contains(&column) {
            self.key_order.push(column);
        }
    }

    /// Whether the bag reads a Python UDF's result (`pythonUDF0`: `sum(pythonUDF0)` over the
    /// UDF's evaluation).
    pub fn reads_udf_result(&self) -> bool {
        self.tokens.iter().any(|(k, v)| {
            *k == TokenKind::Column && v.starts_with(crate::code::lang::vocab::PYTHON_UDF_RESULT)
        })
    }

    /// Whether the bag holds exactly this token (no cross-kind matching, see `holds`).
    pub fn has(&self, kind: TokenKind, value: &str) -> bool {
        self.tokens.iter().any(|(k, v)| *k == kind && v == value)
    }

    /// The values of the bag's tokens of one kind (a clause's tables: `TokenKind::Table`).
    pub fn values(&self, kind: TokenKind) -> impl Iterator<Item = &str> {
        self.tokens
            .iter()
            .filter(move |(k, _)| *k == kind)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the bag holds any token of this kind (a call naming no column holds no `Column`).
    pub fn has_any(&self, kind: TokenKind) -> bool {
        self.tokens.iter().any(|(k, _)| *k == kind)
    }

    /// How the bag spells the column or alias `value` (normalised) when it spells it with
    /// capitals; `None` when it is written in lower case (or not at all).
    fn spelling(&self, value: &str) -> Option<&str> {
        self.spellings
            .iter()
            .find(|s| normalise_column(s) == value)
            .map(String::as_str)
    }

    /// A fill without a subset (`fill:*`): it fills every column of its value's type.
    pub fn fills_every_column(&self) -> bool {
        self.tokens.iter().any(|(k, v)| {
            *k == TokenKind::Literal && v.strip_prefix(FILLED_COLUMN) == Some(EVERY_COLUMN)
        })
    }

    /// Whether a pattern this reader names matches a path of the scan `node` whose file is
    /// `value` ([`glob_matches`]).
    fn globs_match(&self, node: &Evidence, value: &str) -> bool {
        !self.path_globs.is_empty()
            && node
                .path_tails
                .iter()
                .filter(|t| normalise_path(t).as_deref() == Some(value))
                .any(|t| self.path_globs.iter().any(|g| glob_matches(g, t)))
    }

    /// Whether this bag holds `value` in any role where a plan token of `kind` could appear:
    /// a plan alias may be written as a column elsewhere and vice versa; a table may be read
    /// through a path.
    fn holds(&self, kind: TokenKind, value: &str) -> bool {
        let alike: &[TokenKind] = match kind {
            // PySpark names columns in plain strings (`schema=["name", …]`, `groupBy("dept")`),
            // which the index may record as literals.
            TokenKind::Column | TokenKind::Alias => {
                &[TokenKind::Column, TokenKind::Alias, TokenKind::Literal]
            }
            TokenKind::Table | TokenKind::Path => {
                &[TokenKind::Table, TokenKind::Path, TokenKind::Literal]
            }
            TokenKind::Literal => {
                if value.starts_with(FILLED_COLUMN) && self.fills_every_column() {
                    return true;
                }
                &[TokenKind::Literal]
            }
            TokenKind::Function => &[TokenKind::Function],
        };
        alike
            .iter()
            .any(|k| self.tokens.contains(&(*k, value.to_owned())))
    }
}

/// Rarity of tokens across all sites of an index: `ln(1 + N / df)`.
#[derive(Debug, Clone, Default)]
pub struct TokenWeights {
    documents: f64,
    frequency: HashMap<String, u32>,
}

impl TokenWeights {
    pub fn from_bags<'a>(bags: impl IntoIterator<Item = &'a Evidence>) -> Self {
        let mut frequency: HashMap<String, u32> = HashMap::new();
        let mut documents = 0.0;
        for bag in bags {
            documents += 1.0;
            let distinct: BTreeSet<&String> = bag.tokens.iter().map(|(_, v)| v).collect();
            for v in distinct {
                *frequency.entry(v.clone()).or_default() += 1;
            }
        }
        Self {
            documents,
            frequency,
        }
    }

    pub fn idf(&self, value: &str) -> f64 {
        let df = f64::from(self.frequency.get(value).copied().unwrap_or(0));
        (1.0 + (self.documents.max(1.0) / df.max(0.5))).ln()
    }
}

/// The result of comparing a node's bag with a site's bag.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overlap {
    /// Weighted share of the node's evidence found at the site (0–1).
    pub coverage: f64,
    /// Absolute weighted mass matched (unbounded; used to rank sites with the same coverage).
    pub mass: f64,
    /// The matched tokens, for explanations.
    pub matched: Vec<(TokenKind, String)>,
}

/// How much of `node`'s evidence the `sites` carry between them (weighted share, no
/// tie-breaks): a Project Spark collapsed from several statements' projections
/// (`withColumn(…)` after `withColumn(…)`) holds what each of them computes.
pub fn joint_coverage<'e>(
    node: &Evidence,
    sites: impl IntoIterator<Item = &'e Evidence> + Clone,
    weights: &TokenWeights,
) -> f64 {
    let mut total = 0.0;
    let mut mass = 0.0;
    for (kind, value) in &node.tokens {
        let w = kind.weight() * weights.idf(value);
        total += w;
        let held = sites.clone().into_iter().any(|site| {
            (*kind != TokenKind::Alias || node.spelling(value) == site.spelling(value))
                && site.holds(*kind, value)
        });
        if held {
            mass += w;
        }
    }
    if total > 0.0 { mass / total } else { 0.0 }
}

/// How much of `node`'s evidence the `site` carries.
pub fn overlap(node: &Evidence, site: &Evidence, weights: &TokenWeights) -> Overlap {
    let mut total = 0.0;
    let mut mass = 0.0;
    let mut matched = Vec::new();
    for (kind, value) in &node.tokens {
        let w = kind.weight() * weights.idf(value);
        total += w;
        // Spark prints an alias exactly as written: `as("FirstName")` is no `AS firstname`.
        let same_name = *kind != TokenKind::Alias || node.spelling(value) == site.spelling(value);
        let held =
            site.holds(*kind, value) || *kind == TokenKind::Path && site.globs_match(node, value);
        if same_name && held {
            mass += w;
            matched.push((*kind, value.clone()));
        }
    }
    let coverage = if total > 0.0 { mass / total } else { 0.0 };
    let tie_break = if mass > 0.0 {
        SPELLING_TIE_BREAK * shared_spellings(node, site) - EXCESS_TIE_BREAK * excess(node, site)
            + PASSED_THROUGH_TIE_BREAK * named_passed_through(node, site)
            + PATH_TAIL_TIE_BREAK * shared_path_folders(node, site)
            + PREDICATE_TIE_BREAK * super::predicates::agreement(&node.predicates, &site.predicates)
            + if same_key_order(node, site) {
                KEY_ORDER_TIE_BREAK
            } else {
                0.0
            }
    } else {
        0.0
    };
    Overlap {
        coverage: coverage + tie_break,
        mass,
        matched,
    }
}

/// What testing what the filter tests adds to a coverage: a tie-break between filters naming the
/// same columns and values (`df.filter(a | b)` beside `df.filter(a & b)`).
const PREDICATE_TIE_BREAK: f64 = 0.01;

/// What a join site naming the plan's keys in the plan's order adds to a coverage: a tie-break.
const KEY_ORDER_TIE_BREAK: f64 = 0.01;

/// Whether the site names the node's join keys (two or more) in the node's order.
fn same_key_order(node: &Evidence, site: &Evidence) -> bool {
    node.key_order.len() >= 2
        && site
            .key_order
            .iter()
            .filter(|c| node.key_order.contains(c))
            .eq(node.key_order.iter())
}

/// What naming the scan's folders adds to a coverage: a tie-break between look-alike readers of
/// one file name in other folders (`read.csv("Data/sales.csv")`, `read.csv("sales.csv")`).
const PATH_TAIL_TIE_BREAK: f64 = 0.01;

/// The most folders above one file that a site's path and the node's share, as a share of the
/// most a tail holds (the file's own name is already a token).
fn shared_path_folders(node: &Evidence, site: &Evidence) -> f64 {
    let shared = |a: &String, b: &String| {
        a.rsplit('/')
            .zip(b.rsplit('/'))
            .take_while(|(x, y)| x == y)
            .count()
    };
    let most = node
        .path_tails
        .iter()
        .flat_map(|n| site.path_tails.iter().map(move |s| shared(n, s)))
        .max()
        .unwrap_or(0);
    most.saturating_sub(1) as f64 / (PATH_TAIL_DEPTH - 1) as f64
}

/// What naming the columns a projection passes through adds to a coverage: a tie-break between
/// `select("name", f(x))` and `select(f(x))` when the plan keeps `name` beside `f(x)`.
const PASSED_THROUGH_TIE_BREAK: f64 = 0.01;

/// The share of the columns the node passes through that the site names.
fn named_passed_through(node: &Evidence, site: &Evidence) -> f64 {
    if node.passed_through.is_empty() {
        return 0.0;
    }
    let named = node
        .passed_through
        .iter()
        .filter(|c| {
            [TokenKind::Column, TokenKind::Literal]
                .iter()
                .any(|k| site.has(*k, c))
        })
        .count();
    named as f64 / node.passed_through.len() as f64
}

/// What naming columns or values the node lacks takes from a coverage: as little as the spelling
/// adds, so that of two sites holding the node's evidence the one saying no more wins.
const EXCESS_TIE_BREAK: f64 = 0.01;

/// The share of the names the site gives (columns and aliases; literals too when the node has
/// any: in-memory rows are no literals of their scan; paths when it reads files) the node does
/// not hold under any kind nor pass through, as a string may be a name or a path:
/// `toDF(["id", "ts"])` says more than a scan of `ts` alone; `to_timestamp(ts, "MM-dd-yyyy")`
/// more than `cast(ts as timestamp) AS ts`; a reader of a parameter its callers pass three files
/// (`load(path)`) more than `read.parquet("data/orders.parquet")` for a scan of the orders.
fn excess(node: &Evidence, site: &Evidence) -> f64 {
    let node_has = |kind: TokenKind| node.tokens.iter().any(|(k, _)| *k == kind);
    let (node_literals, node_paths) = (node_has(TokenKind::Literal), node_has(TokenKind::Path));
    let named: Vec<&String> = site
        .tokens
        .iter()
        .filter(|(k, _)| {
            matches!(k, TokenKind::Column | TokenKind::Alias)
                || node_literals && *k == TokenKind::Literal
                || node_paths && *k == TokenKind::Path
        })
        .map(|(_, v)| v)
        .collect();
    if named.is_empty() {
        return 0.0;
    }
    let held = |v: &String| {
        node.passed_through.contains(v)
            || node
                .tokens
                .iter()
                .any(|(k, n)| *k != TokenKind::Function && n == v)
    };
    named.iter().filter(|v| !held(v)).count() as f64 / named.len() as f64
}

/// What the same spelling of the node's capitalised names adds to a coverage: enough to break a
/// tie, never to outweigh a token.
const SPELLING_TIE_BREAK: f64 = 0.01;

/// The share of the node's capitalised names the site spells the same way.
fn shared_spellings(node: &Evidence, site: &Evidence) -> f64 {
    if node.spellings.is_empty() {
        return 0.0;
    }
    let same = node.spellings.intersection(&site.spellings).count();
    same as f64 / node.spellings.len() as f64
}

/// The function of the Filter `dropna()` / `na.drop()` plan: `atleastnnonnulls(n, cols…)`.
pub const NULL_DROP: &str = "atleastnnonnulls";

/// The token that ties a de-duplicating aggregate to `distinct()` / `dropDuplicates()`.
pub const DISTINCT: &str = "distinct";

/// The token of a join on column *names* (`join(other, "k")`, `Seq("k")`, SQL `USING (k)`), whose
/// plan keeps one `k` (a Project over the join), not a join on a condition (`a.k == b.k`), whose
/// output holds both.
pub const JOINED_ON_NAMES: &str = "using";
/// The literal marking a sample taken with replacement (`sample(True, 0.3)`; the plan's
/// `Sample 0.0, 0.3, true, …`): booleans are no literals of their own.
pub const WITH_REPLACEMENT: &str = "withreplacement";

/// The prefix of a pivot value named as such (`pivot:male`): a pivot given its values
/// (`pivot("g", ["Male"])`) plans exactly those, and the plan's
/// `pivotfirst(g, …, Female, Male, 0, 0)` lists every value it pivots into.
pub const PIVOT_VALUE: &str = "pivot:";

/// The prefix of a column a fill of nulls replaces (`fill:population`): `na.fill(0, ["population"])`
/// fills only the columns it names, and the plan's `coalesce(population, 0) AS population` says
/// which columns were filled.
pub const FILLED_COLUMN: &str = "fill:";
/// The prefix of the value a fill of nulls puts in (`fillvalue:0`; `fillvalue:` for `""`).
pub const FILL_VALUE: &str = "fillvalue:";
/// What a fill without a subset fills (`fill:*`): every column of its value's type, so it holds
/// every `fill:` column a node names.
pub const EVERY_COLUMN: &str = "*";
/// The prefix of a column a projection drops (`drop:url`): `drop("url")` names what it removes,
/// and the plan's pruning Project says which of its input's columns it did not keep.
pub const DROPPED_COLUMN: &str = "drop:";
/// Marks a projection taking every field out of a struct under the field's own name
/// (`fields:name` for `name.firstname AS firstname, name.lastname AS lastname`), and a select of
/// `"name.*"`, which plans exactly that.
pub const STRUCT_FIELDS: &str = "fields:";
/// Marks a read of cached data: the plan's `InMemoryTableScan` (the UI shows no
/// `InMemoryRelation` beside it), and a read whose frame its chain caches
/// (`createDataFrame(…).cache()`).
pub const CACHED: &str = "cache";
/// Marks a cache of a read as it is, nothing done to its rows: the plan's `InMemoryTableScan`
/// whose cached relation is a scan alone, and a read whose frame is cached as read — right after
/// the read (`spark.read.parquet(p).cache()`) or by a later statement of its function
/// (`silver = spark.read…load(p)`, then `silver.cache()`).
pub const CACHED_READ: &str = "cached:read";
/// The function `describe()` / `summary()` pick each column's statistic out of its map with
/// (`element_at`), normalised.
pub const STATISTIC_PICKED: &str = "elementat";
/// Marks a grouping key an aggregate's result leaves out (`key-left-out:release_year` for
/// `SELECT origin, count(1) … GROUP BY origin, release_year`; a DataFrame grouping returns its
/// keys).
pub const KEY_LEFT_OUT: &str = "key-left-out:";
/// The function token of a fill of nulls (`fillna(0)`, `na.fill("")`): a Project that computes
/// nothing but `coalesce(x, value) AS x` is one, whichever columns it fills.
pub const FILLS_NULLS: &str = "fillna";
/// The prefix of how a partitioning call or node redistributes rows: `partitioned:coalesce` for
/// `coalesce(n)` and its `Coalesce` (partitions merged where they are, no shuffle),
/// `partitioned:shuffle` for `repartition(…)` / `rebalance()` and the `Exchange` they plan.
pub const PARTITIONED: &str = "partitioned:";
/// The prefix of the command a SQL statement or a command node runs (`command:show tables`; see
/// [`super::commands`]).
pub const SQL_COMMAND: &str = "command:";

/// Split source text into code-aware terms: identifiers split on case changes and underscores,
/// lower-cased, followed by the whole identifier when it had several parts; digits kept as their
/// own terms.
pub fn code_terms(text: &str) -> Vec<String> {
    let mut terms = Vec::new();
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        let parts = identifier_parts(word);
        let several = parts.len() > 1;
        terms.extend(parts);
        if several {
            terms.push(word.to_lowercase());
        }
    }
    terms
}

/// The lower-cased parts of one identifier, split on underscores and case changes
/// (`customerFile_v2` → `customer`, `file`, `v2`).
pub(crate) fn identifier_parts(word: &str) -> Vec<String> {
    let mut parts = Vec::new();
    for part in word.split('_').filter(|p| !p.is_empty()) {
        let mut current = String::new();
        let mut prev_lower = false;
        for ch in part.chars() {
            if ch.is_uppercase() && prev_lower && !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
            prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
            current.extend(ch.to_lowercase());
        }
        if !current.is_empty() {
            parts.push(current);
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_joined_at_run_time_names_the_file_after_its_folder() {
        let mut e = Evidence::default();
        // `spark.read.parquet(dir + "lineitem")`, `read.csv(base + "orders.csv")`,
        // `f"{root}customers"`
        e.add(TokenKind::Path, "p2c_param lineitem");
        e.add(TokenKind::Path, "p2c_paramcustomers");
        assert!(e.has(TokenKind::Path, "lineitem"));
        assert!(e.has(TokenKind::Path, "customers"));
        assert_eq!(
            named_file("p2c_param orders.csv").as_deref(),
            Some("orders")
        );
        // a path with a space of its own keeps it
        e.add(TokenKind::Path, "/mnt/Source Files/sales.csv");
        assert!(e.has(TokenKind::Path, "sales"));
        assert_eq!(
            named_file("/mnt/Source Files/sales.csv").as_deref(),
            Some("sales")
        );
    }

    #[test]
    fn a_function_spark_plans_as_another_is_that_other() {
        assert_eq!(normalise_function("ifnull"), "coalesce");
        assert_eq!(normalise_function("nvl"), "coalesce");
        assert_eq!(normalise_function("nullif"), "if");
        assert_eq!(normalise_function("nvl2"), "if");
    }

    #[test]
    fn function_spellings_meet() {
        assert_eq!(
            normalise_function("approxCountDistinct"),
            normalise_function("approx_count_distinct")
        );
        assert_eq!(normalise_function("partial_sum"), "sum");
        assert_eq!(normalise_function("merge_avg"), "avg");
        assert_eq!(normalise_function("mean"), "avg");
        assert_eq!(normalise_function("partial"), "partial");
    }

    #[test]
    fn a_catalog_table_is_a_database_s_not_a_view_or_files() {
        for name in ["stackoverflow.posts", "main.sales.orders", "default.t"] {
            assert!(is_catalog_table(name), "{name}");
        }
        for name in [
            "orders",
            "parquet.`/data/orders`",
            "csv.data",
            "{posts}",
            "a/b.c",
        ] {
            assert!(!is_catalog_table(name), "{name}");
        }
    }

    #[test]
    fn literals_lose_quotes_and_suffixes() {
        assert_eq!(normalise_literal("'BUILDING'").as_deref(), Some("building"));
        assert_eq!(normalise_literal("10L").as_deref(), Some("10"));
        assert_eq!(normalise_literal("3000.0").as_deref(), Some("3000"));
        assert_eq!(normalise_literal("1"), None);
        assert_eq!(normalise_literal("null"), None);
        assert_eq!(
            normalise_literal("1995-03-15").as_deref(),
            Some("1995-03-15")
        );
    }

    #[test]
    fn paths_compare_by_stem() {
        assert_eq!(
            normalise_path("file:/data/tpch/orders.parquet").as_deref(),
            Some("orders")
        );
        assert_eq!(
            normalise_path("resources/zipcodes.csv/").as_deref(),
            Some("zipcodes")
        );
    }

    #[test]
    fn a_reader_of_one_file_says_no_more_than_a_scan_of_it_and_one_of_several_does() {
        let bag = |paths: &[&str]| {
            let mut e = Evidence::default();
            for p in paths {
                e.add(TokenKind::Path, p);
            }
            e
        };
        let scan = bag(&["file:/run/app/data/orders.parquet"]);
        let weights = TokenWeights::default();
        let coverage = |site: &Evidence| overlap(&scan, site, &weights).coverage;
        // `read.parquet("data/orders.parquet")` beside `load(path)`, whose callers pass three files
        let literal = bag(&["data/orders.parquet"]);
        let parameter = bag(&[
            "data/orders.parquet",
            "data/products.parquet",
            "data/customers.parquet",
        ]);
        assert!(coverage(&parameter) > 0.9);
        assert!(coverage(&literal) > coverage(&parameter));
    }

    #[test]
    fn a_reader_of_a_pattern_holds_the_files_it_matches_in_its_folder() {
        let scan = {
            let mut e = Evidence::default();
            e.add(
                TokenKind::Path,
                "file:/run/book/data/retail-data/all/online-retail-dataset.csv",
            );
            e
        };
        let reader = |path: &str| {
            let mut e = Evidence::default();
            e.add(TokenKind::Path, path);
            e
        };
        let weights = TokenWeights::default();
        let coverage = |site: &Evidence| overlap(&scan, site, &weights).coverage;
        assert!(coverage(&reader("/data/retail-data/all/*.csv")) > 0.9);
        assert!(coverage(&reader("data/retail-data/all/online-*")) > 0.9);
        // another folder, or a pattern the file does not match, holds nothing
        assert!(coverage(&reader("/data/retail-data/by-day/*.csv")) < 0.1);
        assert!(coverage(&reader("/data/retail-data/all/*.json")) < 0.1);
        // and a pattern is found by the folder it reads
        assert_eq!(
            glob_tail("/data/retail-data/all/*.csv")
                .as_deref()
                .and_then(glob_folder_key),
            scan.path_tails
                .iter()
                .next()
                .and_then(|t| glob_folder_key(t))
        );
    }

    #[test]
    fn the_same_spelling_breaks_a_tie_and_nothing_more() {
        let bag = |column: &str, function: &str| {
            let mut e = Evidence::default();
            e.add(TokenKind::Column, column);
            e.add(TokenKind::Function, function);
            e
        };
        let node = bag("STATE", "isnull");
        let (sql, dataframe) = (bag("STATE", "isnull"), bag("state", "isnull"));
        let weights = TokenWeights::default();
        let coverage = |site: &Evidence| overlap(&node, site, &weights).coverage;
        assert!(coverage(&sql) > coverage(&dataframe));
        assert_eq!(coverage(&dataframe), 1.0, "the names still meet");
        // a token more outweighs a spelling
        let other = bag("STATE", "isnotnull");
        assert!(coverage(&dataframe) > coverage(&other));
        // a node spelled in lower case prefers neither
        let lower = bag("state", "isnull");
        let plain = |site: &Evidence| overlap(&lower, site, &weights).coverage;
        assert_eq!(plain(&sql), plain(&dataframe));
    }

    #[test]
    fn a_reader_naming_the_scans_folders_breaks_a_tie_and_nothing_more() {
        let bag = |path: &str| {
            let mut e = Evidence::default();
            e.add(TokenKind::Path, path);
            e
        };
        let node = bag("file:/tmp/run/checkout/Data/sales_info.csv");
        let weights = TokenWeights::default();
        let coverage = |site: &Evidence| overlap(&node, site, &weights).coverage;
        let (in_folder, bare) = (bag("Data/sales_info.csv"), bag("sales_info.csv"));
        assert!(coverage(&in_folder) > coverage(&bare));
        assert_eq!(coverage(&bare), 1.0, "the file names still meet");
        // another folder of the same file name is no better than none
        assert_eq!(coverage(&bag("./raw/sales_info.csv")), coverage(&bare));
        // a token more outweighs the folders
        let mut more = bare.clone();
        more.add(TokenKind::Path, "orders.csv");
        let mut two = bag("file:/tmp/run/checkout/Data/sales_info.csv");
        two.add(TokenKind::Path, "/x/orders.csv");
        let cover_two = |site: &Evidence| overlap(&two, site, &weights).coverage;
        assert!(cover_two(&more) > cover_two(&in_folder));
    }

    #[test]
    fn a_path_tail_keeps_no_scheme_host_credentials_or_query() {
        assert_eq!(
            path_tail("s3a://AKIAX:se/cret@bucket/raw/2021/sales.csv?sig=abc").as_deref(),
            Some("raw/2021/sales.csv")
        );
        assert_eq!(
            path_tail("file:/a/b/c/d/e/f/g/h/i/F.parquet").as_deref(),
            Some("c/d/e/f/g/h/i/f.parquet")
        );
        assert_eq!(
            path_tail("C:\\data\\x.csv").as_deref(),
            Some("c:/data/x.csv")
        );
        assert_eq!(path_tail("sales.csv"), None, "no folder to compare");
        assert_eq!(path_tail("data/*.csv"), None);
        assert_eq!(path_tail("../data/x.csv"), None);
    }

    #[test]
    fn an_alias_meets_only_its_own_spelling() {
        let bag = |kind: TokenKind, name: &str| {
            let mut e = Evidence::default();
            e.add(kind, name);
            e
        };
        let weights = TokenWeights::default();
        let coverage = |node: &Evidence, site: &Evidence| overlap(node, site, &weights).coverage;
        // the plan's `AS firstname` is not `as("FirstName")`, and the other way round
        let plan = bag(TokenKind::Alias, "firstname");
        assert_eq!(coverage(&plan, &bag(TokenKind::Alias, "FirstName")), 0.0);
        assert!(coverage(&plan, &bag(TokenKind::Alias, "firstname")) > 0.0);
        let plan = bag(TokenKind::Alias, "Salary-Amount");
        assert_eq!(
            coverage(&plan, &bag(TokenKind::Alias, "salary-amount")),
            0.0
        );
        // a name passed as a plain string (a literal), or qualified, keeps its spelling
        assert!(coverage(&plan, &bag(TokenKind::Literal, "Salary-Amount")) > 0.0);
        let plan = bag(TokenKind::Alias, "eye");
        assert!(coverage(&plan, &bag(TokenKind::Column, "Properties.eye")) > 0.0);
    }

    #[test]
    fn rare_tokens_weigh_more() {
        let mut common = Evidence::default();
        common.add(TokenKind::Column, "salary");
        let mut rare = common.clone();
        rare.add(TokenKind::Function, "kurtosis");
        let bags = vec![common.clone(), common.clone(), common.clone(), rare.clone()];
        let weights = TokenWeights::from_bags(&bags);
        assert!(weights.idf("kurtosis") > weights.idf("salary"));

        let mut node = Evidence::default();
        node.add(TokenKind::Column, "salary");
        node.add(TokenKind::Function, "kurtosis");
        let with_rare = overlap(&node, &rare, &weights);
        let without = overlap(&node, &common, &weights);
        assert!(with_rare.coverage > 0.99);
        assert!(without.coverage < 0.5, "{}", without.coverage);
        assert_eq!(
            without.matched,
            vec![(TokenKind::Column, "salary".to_owned())]
        );
    }

    #[test]
    fn code_terms_split_identifiers() {
        assert_eq!(
            code_terms("groupBy(\"dept_name\").agg(sumDistinct(x))"),
            vec![
                "group",
                "by",
                "groupby",
                "dept",
                "name",
                "dept_name",
                "agg",
                "sum",
                "distinct",
                "sumdistinct",
                "x"
            ]
        );
    }
}
