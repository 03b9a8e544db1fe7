//! Following DataFrames across functions and files.
//!
//! The index records, per chain, the user function it starts from (`orders =
//! load_orders(spark, path)`, `load(spark).filter(…)`), the functions it applies
//! (`df.transform(clean)`) and whether its function returns it (see
//! `code::lang::extract::handoff`). Here those names meet the functions the index knows: a chain
//! is fed by every chain the named function returns. The same file's function is preferred
//! (a script's own `load`); otherwise every function of that name anywhere in the repository
//! feeds it, up to [`MAX_DEFINITIONS`] (an imported helper).

use crate::code::{CallChain, FileId, RepoIndex, SymbolId, SymbolKind};
use std::collections::{HashMap, HashSet};

/// Most same-named functions a call is resolved to (a name like `run` is everywhere).
const MAX_DEFINITIONS: usize = 4;

/// How a chain's helper functions resolved.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct HelperFeeds {
    /// Chains returned by the function the chain starts from.
    pub source: Vec<usize>,
    /// Chains returned by the functions the chain applies.
    pub applied: Vec<usize>,
    /// The chain starts from a named function none of whose returned chains the index holds
    /// (a library call, or a helper returning something else).
    pub source_unresolved: bool,
}

/// The chains each function returns, by the function's symbol.
pub fn returned_by_function(index: &RepoIndex) -> HashMap<SymbolId, Vec<usize>> {
    let mut returned_by: HashMap<SymbolId, Vec<usize>> = HashMap::new();
    for (idx, chain) in index.chains.iter().enumerate() {
        if chain.returned
            && let Some(symbol) = chain.symbol
        {
            returned_by.entry(symbol).or_default().push(idx);
        }
    }
    returned_by
}

/// The repository's functions returning frames, found by the name a call writes
/// (`load_orders(…)`, `self.extract()`), as a call at a given place sees them ([`in_scope`]).
pub struct FrameFunctions<'i> {
    index: &'i RepoIndex,
    /// The chains each function returns ([`returned_by_function`]).
    pub returned_by: HashMap<SymbolId, Vec<usize>>,
    by_name: HashMap<&'i str, Vec<SymbolId>>,
    /// The names of the repository's classes and objects.
    classes: HashSet<&'i str>,
}

impl<'i> FrameFunctions<'i> {
    pub fn new(index: &'i RepoIndex) -> Self {
        let returned_by = returned_by_function(index);
        let mut by_name: HashMap<&str, Vec<SymbolId>> = HashMap::new();
        for symbol in &index.symbols {
            if matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method)
                && returned_by.contains_key(&symbol.id)
            {
                for name in index.call_names(symbol) {
                    by_name.entry(name).or_default().push(symbol.id);
                }
            }
        }
        let classes = index
            .symbols
            .iter()
            .filter(|s| matches!(s.kind, SymbolKind::Class | SymbolKind::Object))
            .map(|s| s.name.as_str())
            .collect();
        Self {
            index,
            returned_by,
            by_name,
            classes,
        }
    }

    /// The chains a call of `name` written in the function `symbol` of `file` returns: those
    /// of every definition of the name that the call sees — or, for a function qualified by a
    /// class or object of the repository (`Sources.orders(…)`, `Job(spark).run()`), that
    /// class's own function's.
    pub fn returned_by_call(
        &self,
        file: FileId,
        symbol: Option<SymbolId>,
        name: &str,
    ) -> impl Iterator<Item = usize> + '_ {
        let qualified = name
            .split_once('.')
            .filter(|(class, _)| self.classes.contains(class));
        let method = crate::code::unqualified(name);
        let definitions = match qualified {
            Some((class, method)) => {
                let of_class = |s: &SymbolId| {
                    self.index.symbols[*s as usize]
                        .parent
                        .map(|p| &self.index.symbols[p as usize])
                        .is_some_and(|p| {
                            matches!(p.kind, SymbolKind::Class | SymbolKind::Object)
                                && p.name == class
                        })
                };
                let methods = self.by_name.get(method).into_iter().flatten();
                methods.copied().filter(of_class).collect()
            }
            None => self
                .by_name
                .get(method)
                .map(|symbols| in_scope(self.index, file, symbol, symbols))
                .unwrap_or_default(),
        };
        definitions
            .into_iter()
            .flat_map(|s| self.returned_by.get(&s).into_iter().flatten().copied())
    }
}

/// For every chain of the index, its helper feeds.
pub fn helper_feeds(index: &RepoIndex, functions: &FrameFunctions<'_>) -> Vec<HelperFeeds> {
    let resolve = |chain: &CallChain, name: &str| -> Vec<usize> {
        // An unpacked variable takes the element at its position of a returned tuple.
        let same_position = |returned: &usize| {
            let returned = index.chains[*returned].tuple_position;
            returned.is_none() || chain.tuple_position.is_none() || returned == chain.tuple_position
        };
        functions
            .returned_by_call(chain.file, chain.symbol, name)
            .filter(same_position)
            .collect()
    };
    index
        .chains
        .iter()
        .map(|chain| {
            let source = chain
                .source_function
                .as_deref()
                .map(|f| resolve(chain, f))
                .unwrap_or_default();
            let applied = chain
                .applied_functions
                .iter()
                .flat_map(|f| resolve(chain, f))
                .collect();
            HelperFeeds {
                source_unresolved: chain.source_function.is_some() && source.is_empty(),
                source,
                applied,
            }
        })
        .collect()
}

/// The definitions of a called name that a chain sees (Python's lexical scope): one nested in
/// the chain's own function, or in a function around it, innermost first (two functions may
/// each define their own `def union_all(dfs)`); else the same file's; else any, up to
/// [`MAX_DEFINITIONS`] — never a function nested in another function than those around the
/// chain, which nothing outside that function can call. (`file`, `symbol`: where the call is.)
fn in_scope(
    index: &RepoIndex,
    file: FileId,
    symbol_of_call: Option<SymbolId>,
    symbols: &[SymbolId],
) -> Vec<SymbolId> {
    let symbol = |id: SymbolId| &index.symbols[id as usize];
    let is_function =
        |id: SymbolId| matches!(symbol(id).kind, SymbolKind::Function | SymbolKind::Method);
    let mut around = Vec::new();
    let mut next = symbol_of_call;
    while let Some(id) = next.filter(|_| around.len() < 64) {
        around.push(id);
        next = symbol(id).parent;
    }
    let nested_in = |id: SymbolId| symbol(id).parent.filter(|p| is_function(*p));
    for scope in &around {
        let local: Vec<SymbolId> = symbols
            .iter()
            .copied()
            .filter(|s| nested_in(*s) == Some(*scope))
            .collect();
        if !local.is_empty() {
            return local;
        }
    }
    let visible: Vec<SymbolId> = symbols
        .iter()
        .copied()
        .filter(|s| nested_in(*s).is_none())
        .collect();
    let visible = if visible.is_empty() {
        symbols.to_vec()
    } else {
        visible
    };
    let same_file: Vec<SymbolId> = visible
        .iter()
        .copied()
        .filter(|s| symbol(*s).file == file)
        .collect();
    if same_file.is_empty() {
        visible.into_iter().take(MAX_DEFINITIONS).collect()
    } else {
        same_file
    }
}

/// Data-set words a helper's callers name: `load_orders(spark, orders_path)` hints that the
/// reader inside `load_orders` (`spark.read.parquet(path)`, whose own argument names nothing)
/// reads `orders`. Returned chain → the hints of every caller that resolved to it.
pub fn caller_path_hints(
    index: &RepoIndex,
    helpers: &[HelperFeeds],
) -> HashMap<usize, Vec<String>> {
    let mut hints: HashMap<usize, Vec<String>> = HashMap::new();
    let mut chains_of: HashMap<SymbolId, Vec<usize>> = HashMap::new();
    for (idx, chain) in index.chains.iter().enumerate() {
        if let Some(symbol) = chain.symbol {
            chains_of.entry(symbol).or_default().push(idx);
        }
    }
    let mut add = |chain: usize, words: &[String]| {
        let list = hints.entry(chain).or_default();
        for w in words {
            if !list.contains(w) {
                list.push(w.clone());
            }
        }
    };
    for (chain, helper) in index.chains.iter().zip(helpers) {
        let (Some(function), false) = (chain.source_function.as_deref(), helper.source.is_empty())
        else {
            continue;
        };
        if let Some(args) = call_arguments(&chain.text, function) {
            // Any reader method will do: the hints come from the arguments' names.
            let words = super::sites::reader_path_hints("load", args);
            for returned in &helper.source {
                add(*returned, &words);
            }
        }
        // `Pipeline(spark, "data/orders.csv").clean().result()`: the object's constructor
        // reads what it is given — its readers take the arguments' names and files.
        if let Some((class, _)) = function.rsplit_once('.')
            && let Some(args) = call_arguments(&chain.text, class)
        {
            let mut words = super::sites::reader_path_hints("load", args);
            words.extend(literal_file_stems(args));
            if words.is_empty() {
                continue;
            }
            for init in constructors(index, chain.file, class) {
                for &read in chains_of.get(&init).into_iter().flatten() {
                    add(read, &words);
                }
            }
        }
    }
    hints
}

/// The constructors of the class `class` a call in `file` sees: Python's `__init__`, a Java
/// constructor (named as its class), of the same file's class when it defines one, else of any
/// of that name (up to [`MAX_DEFINITIONS`]).
fn constructors(index: &RepoIndex, file: FileId, class: &str) -> Vec<SymbolId> {
    let is_constructor = |s: &crate::code::Symbol| {
        (s.name == "__init__" || s.name == class)
            && s.parent
                .is_some_and(|p| index.symbols[p as usize].name == class)
    };
    let all: Vec<&crate::code::Symbol> =
        index.symbols.iter().filter(|s| is_constructor(s)).collect();
    let same_file: Vec<SymbolId> = all
        .iter()
        .filter(|s| s.file == file)
        .map(|s| s.id)
        .collect();
    if same_file.is_empty() {
        all.iter().take(MAX_DEFINITIONS).map(|s| s.id).collect()
    } else {
        same_file
    }
}

/// The file stems the string literals of a call's arguments name (`"data/orders.csv"` →
/// `orders`): a path handed to a constructor reading it.
fn literal_file_stems(args: &str) -> Vec<String> {
    args.split(['"', '\''])
        .skip(1)
        .step_by(2)
        .filter(|literal| literal.contains(['/', '.']) && !literal.contains(char::is_whitespace))
        .filter_map(|literal| {
            let name = literal.trim_end_matches('/').rsplit('/').next()?;
            let stem = name.split('.').next()?;
            (!stem.is_empty()).then(|| stem.to_lowercase())
        })
        .collect()
}

/// `(…)` of the first call of `function` in a statement's text.
fn call_arguments<'t>(text: &'t str, function: &str) -> Option<&'t str> {
    let start = text.find(&format!("{function}("))? + function.len();
    let rest = &text[start..];
    let mut depth = 0usize;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(&rest[..=i]);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::code::{IndexOptions, RepoIndex, build_index};
    use crate::pipeline::sites::{SiteKind, SiteTable};

    fn index_of(files: &[(&str, &str)]) -> RepoIndex {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        build_index(dir.path(), None, "test".into(), &IndexOptions::default()).unwrap()
    }

    /// The site of `method` in the chain whose statement starts on `line` of `file`.
    fn site(index: &RepoIndex, table: &SiteTable, file: &str, method: &str) -> usize {
        table
            .sites
            .iter()
            .find(|s| {
                index.files[s.file as usize].path.ends_with(file)
                    && matches!(&s.kind, SiteKind::Call { method: m, .. } if m == method)
            })
            .unwrap_or_else(|| panic!("no .{method} in {file}"))
            .id
    }

    /// The reader inside a helper in another file is upstream of the filter on its result, and
    /// that flow is no longer open (its scan is in view).
    fn assert_reader_feeds_filter(files: &[(&str, &str)], reader: (&str, &str), job: &str) {
        let index = index_of(files);
        let table = SiteTable::build(&index);
        let read = site(&index, &table, reader.0, reader.1);
        let filter = site(&index, &table, job, "filter");
        assert!(
            table.upstream(filter, None).contains(&read),
            "{:#?}",
            index.chains
        );
        assert!(!table.flow_is_open(table.chain_of(filter).unwrap()));
    }

    #[test]
    fn python_helper_returning_a_reader_feeds_its_caller() {
        assert_reader_feeds_filter(
            &[
                (
                    "jobs/loaders.py",
                    "def load_orders(spark, path):\n    return spark.read.parquet(path)\n",
                ),
                (
                    "jobs/report.py",
                    "from jobs.loaders import load_orders\n\ndef build(spark, p):\n    orders = load_orders(spark, p)\n    recent = orders.filter(orders.status == 'SHIPPED')\n    return recent\n",
                ),
            ],
            ("loaders.py", "parquet"),
            "report.py",
        );
    }

    #[test]
    fn callers_argument_names_hint_at_what_a_helpers_reader_reads() {
        let index = index_of(&[(
            "job.py",
            "def load(spark, path):\n    return spark.read.parquet(path)\n\n\
             def main(spark, orders_path):\n    orders = load(spark, orders_path)\n    orders.filter(orders.a > 1).show()\n",
        )]);
        let table = SiteTable::build(&index);
        let read = site(&index, &table, "job.py", "parquet");
        assert!(
            table.sites[read]
                .evidence
                .has(crate::pipeline::evidence::TokenKind::Path, "orders"),
            "{:?}",
            table.sites[read].evidence
        );
        assert_eq!(
            super::call_arguments("x = load(spark, f(a), b)", "load"),
            Some("(spark, f(a), b)")
        );
    }

    #[test]
    fn a_call_of_a_nested_function_is_the_one_defined_around_it() {
        // Two functions each define their own `union_all`: each caller's frame is made by the
        // one inside its own function, not by its namesake in the other.
        let nested = |name: &str, read: &str| {
            format!(
                "def {name}(spark, frames):\n\
                 \x20   def union_all(dfs):\n\
                 \x20       return spark.read.{read}('x')\n\
                 \x20   odf = union_all(frames)\n\
                 \x20   return odf\n\n"
            )
        };
        let src = nested("iv_of", "parquet")
            + &nested("ig_of", "json")
            + "def test_iv(spark, frames):\n\
               \x20   result = iv_of(spark, frames)\n\
               \x20   result.filter(result.iv > 1).show()\n";
        let index = index_of(&[("job.py", &src)]);
        let table = SiteTable::build(&index);
        let filter = site(&index, &table, "job.py", "filter");
        let upstream = table.upstream(filter, None);
        assert!(upstream.contains(&site(&index, &table, "job.py", "parquet")));
        assert!(!upstream.contains(&site(&index, &table, "job.py", "json")));
    }

    #[test]
    fn a_test_s_parameter_holds_what_the_fixture_of_its_name_returns() {
        let conftest = "import pytest\n\n@pytest.fixture\ndef orders(spark):\n    \
                        frame = spark.read.parquet('orders.parquet')\n    return frame\n";
        let own = "import pytest\n\n@pytest.fixture\ndef people(spark):\n    \
                   return spark.read.json('people.json')\n\n\
                   def test_big(spark, orders, people):\n    \
                   orders.filter(orders.amount > 1).show()\n    \
                   people.where(people.age > 1).show()\n";
        let index = index_of(&[("tests/conftest.py", conftest), ("tests/test_big.py", own)]);
        let table = SiteTable::build(&index);
        let filter = site(&index, &table, "test_big.py", "filter");
        let where_ = site(&index, &table, "test_big.py", "where");
        let parquet = site(&index, &table, "conftest.py", "parquet");
        let json = site(&index, &table, "test_big.py", "json");
        assert!(table.upstream(filter, None).contains(&parquet));
        assert!(table.upstream(where_, None).contains(&json));
        assert!(!table.upstream(filter, None).contains(&json));
    }

    #[test]
    fn a_fixture_a_test_passes_on_feeds_the_function_it_is_passed_to() {
        // `test_big(orders)` hands its fixture to `big_orders(df)`: what the helper filters is
        // what the fixture read, though no statement of the test assigns `orders`.
        let conftest = "import pytest\n\n@pytest.fixture\ndef orders(spark):\n    \
                        frame = spark.read.parquet('orders.parquet')\n    return frame\n";
        let job = "def big_orders(df):\n    return df.filter(df.amount > 100)\n";
        let test = "from jobs.orders import big_orders\n\n\
                    def test_big(spark, orders):\n    \
                    result = big_orders(orders)\n    \
                    assert result.count() == 2\n";
        let index = index_of(&[
            ("tests/conftest.py", conftest),
            ("jobs/orders.py", job),
            ("tests/test_orders.py", test),
        ]);
        let table = SiteTable::build(&index);
        let filter = site(&index, &table, "orders.py", "filter");
        let parquet = site(&index, &table, "conftest.py", "parquet");
        assert!(table.upstream(filter, None).contains(&parquet));
    }

    #[test]
    fn python_returned_variable_and_transform_are_followed() {
        let src = "def clean(df):\n    out = df.dropna()\n    return out\n\n\
                   def main(spark):\n    raw = spark.read.json('x.json')\n    tidy = raw.transform(clean)\n    tidy.filter(tidy.a > 1).show()\n";
        let index = index_of(&[("job.py", src)]);
        let table = SiteTable::build(&index);
        let dropna = site(&index, &table, "job.py", "dropna");
        let filter = site(&index, &table, "job.py", "filter");
        assert!(table.upstream(filter, None).contains(&dropna));
    }

    #[test]
    fn java_method_reference_given_to_transform_is_followed() {
        let steps = "class Steps {\n  static Dataset<Row> clean(Dataset<Row> df) {\n    return df.dropDuplicates(\"id\");\n  }\n}\n";
        let job = "class Job {\n  public static void main(String[] a) {\n    Dataset<Row> raw = spark.read().json(\"x.json\");\n    Dataset<Row> tidy = raw.transform(Steps::clean);\n    tidy.filter(col(\"a\").gt(1)).show();\n  }\n}\n";
        let index = index_of(&[("src/Steps.java", steps), ("src/Job.java", job)]);
        let table = SiteTable::build(&index);
        let dedupe = site(&index, &table, "Steps.java", "dropDuplicates");
        let filter = site(&index, &table, "Job.java", "filter");
        assert!(table.upstream(filter, None).contains(&dedupe));
    }

    #[test]
    fn scala_object_member_returning_a_reader_feeds_its_caller() {
        assert_reader_feeds_filter(
            &[
                (
                    "src/Loaders.scala",
                    "object Loaders {\n  def load(spark: SparkSession): DataFrame =\n    spark.read.json(\"people.json\")\n}\n",
                ),
                (
                    "src/Job.scala",
                    "object Job extends App {\n  val spark = SparkSession.builder().getOrCreate()\n  val people = Loaders.load(spark)\n  people.filter($\"age\" > 21).show()\n}\n",
                ),
            ],
            ("Loaders.scala", "json"),
            "Job.scala",
        );
    }

    #[test]
    fn java_method_returning_a_reader_feeds_its_caller() {
        assert_reader_feeds_filter(
            &[(
                "src/Job.java",
                "class Job {\n  static Dataset<Row> load(SparkSession spark) {\n    return spark.read().json(\"people.json\");\n  }\n  public static void main(String[] a) {\n    SparkSession spark = SparkSession.builder().getOrCreate();\n    Dataset<Row> people = load(spark);\n    people.filter(col(\"age\").gt(21)).show();\n  }\n}\n",
            )],
            ("Job.java", "json"),
            "Job.java",
        );
    }

    #[test]
    fn unknown_helpers_leave_the_flow_open() {
        let index = index_of(&[(
            "job.py",
            "def main(spark):\n    orders = fetch_orders(spark)\n    orders.filter(orders.a > 1).show()\n",
        )]);
        let table = SiteTable::build(&index);
        let filter = site(&index, &table, "job.py", "filter");
        assert!(table.flow_is_open(table.chain_of(filter).unwrap()));
    }

    #[test]
    fn a_function_called_on_its_class_or_object_is_that_one_s() {
        // `Sources.orders(…)` is `Sources`' `orders`, not a Scala object's of the same name
        let index = index_of(&[
            (
                "src/Sources.java",
                "public final class Sources {\n  \
                 public static Dataset<Row> orders(SparkSession spark, String path) {\n    \
                 return spark.read().csv(path);\n  }\n}\n",
            ),
            (
                "src/Readers.scala",
                "object Readers {\n  \
                 def orders(spark: SparkSession, path: String): DataFrame =\n    \
                 spark.read.json(path)\n}\n",
            ),
            (
                "src/Weekly.java",
                "public class Weekly {\n  \
                 public static void main(String[] args) {\n    \
                 Dataset<Row> orders = Sources.orders(spark, \"data/orders.csv\");\n    \
                 orders.groupBy(\"item\").count().show();\n  }\n}\n",
            ),
        ]);
        let table = SiteTable::build(&index);
        let site = |file: &str, method: &str| site(&index, &table, file, method);
        let upstream = table.upstream(site("Weekly.java", "count"), None);
        assert!(upstream.contains(&site("Sources.java", "csv")));
        assert!(!upstream.contains(&site("Readers.scala", "json")));
    }
}
