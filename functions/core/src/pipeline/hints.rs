//! What the input says about where the code ran, resolved against the repository.
//!
//! Real logs often name the user's code, each in its own way; none is required:
//!
//! * a stack frame of a Scala or Java program, in an execution's `details` or a job's
//!   `callSite.long`: `com.shop.Revenue$.main(Revenue.scala:42)` — the file by its name and
//!   package folders, and the line of the action;
//! * PySpark's call sites, in a job's `callSite.short` and an execution's `description`:
//!   `collect at /home/me/repo/jobs/daily.py:42`;
//! * the submitted program, in the environment's `sun.java.command`: a script path, or
//!   `--class com.shop.Main app.jar`;
//! * a Databricks notebook path (`/Repos/me/repo/notebooks/etl`, no extension);
//! * the user's own `--entry FILE`;
//! * the plan itself: a typed Dataset operator (`MapElements`, `MapPartitions`, a typed
//!   `Filter`) prints the closure it runs, `com.shop.Revenue$$$Lambda$41/0x…@1f`, whose class is
//!   the one the lambda was written in; a `Scan ExistingRDD` prints where its RDD was made,
//!   `MapPartitionsRDD[158] at createDataFrame at Revenue.scala:31` (PySpark's say `<unknown>:0`);
//!   a scan of typed objects prints their class, `obj#5: shop.Revenue$Order`, whose outer class
//!   defines it; a scan of files a pytest test wrote under its `tmp_path` reads a folder named
//!   after the test, `/tmp/pytest-of-me/pytest-2/test_full_pipeline0/silver` — the file defining
//!   `test_full_pipeline`; an aggregate function the user wrote prints its instance,
//!   `sql.UDAF$ScalaAggregateFunction@616b2b2`, whose outer class's file defines it.
//!
//! An RDD's origin naming a file several files are named like (`parallelize at UDAF.scala:76`)
//! names the one whose statement on that line calls that method.
//!
//! A hint is resolved to the repository's files by the longest tail of path folders it shares
//! with one (`/home/me/repo/jobs/daily.py` → `jobs/daily.py`); a name shared by several files with
//! nothing else to tell them apart resolves to none of them. A hint naming no file of the
//! repository (Spark's own classes, a path elsewhere) is ignored.

use crate::code::{RepoIndex, SymbolKind};
use crate::plan::PlanGraph;
use regex::Regex;
use std::collections::{BTreeMap, HashMap};
use std::sync::LazyLock;

/// A file of the repository a hint names, and the line when it names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct CodeHint {
    pub file: u32,
    pub line: Option<u32>,
}

/// `pkg.Class$.method(File.scala:42)` (a JVM stack frame).
static FRAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+)\(([\w$-]+\.(?:scala|java|kt)):(\d+)\)")
        .expect("frame pattern")
});
/// A path to a source file, with `:line` when given.
static PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"((?:[A-Za-z]:)?[\w./\\~@+-]*[\w-]\.(?:py|scala|java|kt|sql|ipynb))(?::(\d+))?\b")
        .expect("path pattern")
});
/// `--class com.shop.Main` of a `spark-submit` command.
static CLASS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"--class\s+([\w$.]+)").expect("class pattern"));
/// A JVM closure's class as a plan prints it: `com.shop.Revenue$$$Lambda$41/0x…` (Scala),
/// `com.shop.Orders$$Lambda/0x…` (Java), `com.shop.Revenue$$anonfun$1` (older Scala). The
/// capture is the outermost class, whose file holds the lambda.
static CLOSURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\$[\w$]*?(?:Lambda|anonfun)")
        .expect("closure pattern")
});
/// The outer class of the user's objects a typed plan carries ([`OBJECT_CLASS`]):
/// `dataframe.Basic` of `obj#5: dataframe.Basic$Cust`; none for the engine's (`int`, tuples).
pub fn object_class(text: &str) -> Option<&str> {
    OBJECT_CLASS
        .captures(text)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
        .filter(|class| !ENGINE_PACKAGES.iter().any(|p| class.starts_with(p)))
}

/// Whether a typed plan carries single values, not objects with fields (`obj#1: int`,
/// `input[0, java.lang.String, true]`): a serializer of those keeps the one `value` column,
/// and nothing can be pruned from it.
pub fn carries_single_values(text: &str) -> bool {
    PRINTED_CLASS
        .captures(text)
        .and_then(|c| c.get(1))
        .is_some_and(|m| SINGLE_VALUE_TYPES.contains(&m.as_str()))
}

/// The types Spark prints for objects that are one value each ([`carries_single_values`]).
const SINGLE_VALUE_TYPES: &[&str] = &[
    "int",
    "long",
    "double",
    "float",
    "short",
    "byte",
    "boolean",
    "java.lang.String",
    "java.lang.Integer",
    "java.lang.Long",
    "java.lang.Double",
    "java.lang.Float",
    "java.lang.Short",
    "java.lang.Byte",
    "java.lang.Boolean",
];

/// The class of the objects a typed plan carries as Spark prints it, without its package:
/// `Select$Cust` of `input[0, dataframe.Select$Cust, true]` or `obj#5: dataframe.Select$Cust`,
/// `Person` of `input[0, com.shop.Person, true]`.
pub fn printed_class(text: &str) -> Option<&str> {
    let full = PRINTED_CLASS.captures(text)?.get(1)?.as_str();
    Some(full.rsplit('.').next().unwrap_or(full))
        .filter(|_| !ENGINE_PACKAGES.iter().any(|p| full.starts_with(p)))
}

static PRINTED_CLASS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:obj#\d+: |input\[\d+, )([A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)*)")
        .expect("printed class pattern")
});

/// Where the RDD a scan reads was made, as Spark prints it in `Scan ExistingRDD`:
/// `MapPartitionsRDD[158] at createDataFrame at WithColumn.scala:31`.
static RDD_ORIGIN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"RDD\[\d+\] at (\w+) at ([\w$.-]+\.(?:scala|java|kt|py)):(\d+)")
        .expect("RDD origin pattern")
});
/// How [`plan_hints`] passes on an RDD's origin ([`RDD_ORIGIN`]) to the resolver: the method
/// that made it, then the file and line.
const RDD_HINT: &str = "RDD made by ";
/// How [`plan_hints`] passes on the class of a user's object ([`INSTANCE`]) to the resolver.
const INSTANCE_HINT: &str = "instance of ";
/// A user's object as the JVM prints it, `sql.UDAF$ScalaAggregateFunction@616b2b2` (an
/// aggregate function's instance in the functions of a `HashAggregate`): the capture is the
/// outermost class, package included, whose file defines the object's class.
static INSTANCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\$[A-Za-z_][\w$]*)?@[0-9a-f]{4,}\b")
        .expect("instance pattern")
});
/// A class nested in another as a typed plan prints the objects it carries: the case class of
/// `rdd.toDF` in a Scan's `obj#5: dataframe.Basic$Cust`, a serializer's `input[0,
/// dataframe.Basic$Cust, true]`. The capture is the outer class, whose file defines the class.
static OBJECT_CLASS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:obj#\d+: |input\[\d+, )([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\$[A-Za-z_]\w*")
        .expect("object class pattern")
});
/// The folder pytest's `tmp_path` made for one test: the test's name (`[\W]` made `_`, cut to
/// [`PYTEST_NAME_CHARS`]) and a number, under `…/pytest-<n>/`.
static PYTEST_DIR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"/pytest-\d+/([A-Za-z_]\w*\d)(?:/|$)").expect("pytest dir"));
/// How much of a test's name pytest keeps in its `tmp_path` folder.
const PYTEST_NAME_CHARS: usize = 30;
/// How [`plan_hints`] passes on a pytest folder ([`PYTEST_DIR`]) to the resolver.
const PYTEST_HINT: &str = "pytest tmp_path of ";
/// An absolute path without an extension (a Databricks notebook).
static NOTEBOOK: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(/[\w .@+-]+(?:/[\w .@+-]+)+)\s*$").expect("notebook"));

/// Packages of the engine and the JVM, never the user's code.
const ENGINE_PACKAGES: [&str; 9] = [
    "org.apache.spark.",
    "scala.",
    "java.",
    "javax.",
    "jdk.",
    "sun.",
    "py4j.",
    "com.databricks.",
    "io.delta.",
];

/// The repository's files by name, for resolving hints.
pub struct HintResolver<'a> {
    /// Repository-relative paths, by file id.
    paths: Vec<&'a str>,
    by_name: HashMap<&'a str, Vec<u32>>,
    /// Test functions (`test…`) by the name pytest gives their `tmp_path` folder, with their
    /// files.
    tests: HashMap<String, Vec<u32>>,
    /// The statements of the code's call chains by file: their lines and text, for telling
    /// apart files of one name by what a line of theirs calls ([`Self::rdd_origin_files`]).
    made_at: HashMap<u32, Vec<(crate::code::LineRange, &'a str)>>,
}

impl<'a> HintResolver<'a> {
    /// A resolver over the index's files.
    pub fn new(index: &'a RepoIndex) -> Self {
        let mut resolver = Self::over(index.files.iter().map(|f| f.path.as_str()).collect());
        for chain in &index.chains {
            resolver
                .made_at
                .entry(chain.file)
                .or_default()
                .push((chain.statement, chain.text.as_str()));
        }
        for symbol in &index.symbols {
            let test = matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method)
                && symbol.name.starts_with("test");
            if test
                && index
                    .files
                    .get(symbol.file as usize)
                    .is_some_and(|f| f.path.ends_with(".py"))
            {
                let folder: String = symbol.name.chars().take(PYTEST_NAME_CHARS).collect();
                let files = resolver.tests.entry(folder).or_default();
                if !files.contains(&symbol.file) {
                    files.push(symbol.file);
                }
            }
        }
        resolver
    }

    /// A resolver over these repository-relative paths (file id = position).
    fn over(paths: Vec<&'a str>) -> Self {
        let mut by_name: HashMap<&str, Vec<u32>> = HashMap::new();
        for (id, path) in paths.iter().enumerate() {
            let name = path.rsplit('/').next().unwrap_or(path);
            by_name.entry(name).or_default().push(id as u32);
            if let Some((stem, _)) = name.rsplit_once('.') {
                // notebooks are named without their extension
                by_name.entry(stem).or_default().push(id as u32);
            }
        }
        Self {
            paths,
            by_name,
            tests: HashMap::new(),
            made_at: HashMap::new(),
        }
    }

    /// Every file of the repository the hints name, each once (with the first line named).
    pub fn resolve(&self, hints: &[String]) -> Vec<CodeHint> {
        let mut found: BTreeMap<u32, Option<u32>> = BTreeMap::new();
        for hint in hints {
            for (file, line) in self.resolve_one(hint) {
                let entry = found.entry(file).or_insert(line);
                if entry.is_none() {
                    *entry = line;
                }
            }
        }
        found
            .into_iter()
            .map(|(file, line)| CodeHint { file, line })
            .collect()
    }

    fn resolve_one(&self, hint: &str) -> Vec<(u32, Option<u32>)> {
        let unlined = |files: Vec<u32>| files.into_iter().map(|f| (f, None)).collect();
        if let Some(folder) = hint.strip_prefix(PYTEST_HINT) {
            return unlined(self.test_files(folder));
        }
        if let Some(class) = hint.strip_prefix(INSTANCE_HINT) {
            return unlined(self.class_files(class));
        }
        if let Some(origin) = hint.strip_prefix(RDD_HINT) {
            return self.rdd_origin_files(origin);
        }
        let mut out = Vec::new();
        for frame in FRAME.captures_iter(hint) {
            let qualified = &frame[1];
            if ENGINE_PACKAGES.iter().any(|p| qualified.starts_with(p)) {
                continue;
            }
            // `com.shop.Revenue$.main` → folders com/shop, file Revenue.scala
            let mut parts: Vec<&str> = qualified.split('.').collect();
            parts.truncate(parts.len().saturating_sub(2));
            let path = format!("{}/{}", parts.join("/"), &frame[2]);
            let line = frame[3].parse().ok();
            out.extend(self.files_for(&path).into_iter().map(|f| (f, line)));
        }
        let classes = CLASS
            .captures_iter(hint)
            .chain(CLOSURE.captures_iter(hint))
            .chain(OBJECT_CLASS.captures_iter(hint));
        for class in classes {
            out.extend(self.class_files(&class[1]).into_iter().map(|f| (f, None)));
        }
        for path in PATH.captures_iter(hint) {
            let text = path[1].replace('\\', "/");
            // a frame's bare `File.scala` was handled above, with its package
            if !text.contains('/') && FRAME.is_match(hint) {
                continue;
            }
            let line = path.get(2).and_then(|l| l.as_str().parse().ok());
            out.extend(self.files_for(&text).into_iter().map(|f| (f, line)));
        }
        if let Some(notebook) = NOTEBOOK.captures(hint) {
            out.extend(
                self.files_for(notebook[1].trim())
                    .into_iter()
                    .map(|f| (f, None)),
            );
        }
        out
    }

    /// The files defining the test whose `tmp_path` folder is `folder`: the test's name and
    /// pytest's number (`test_full_pipeline0`), or — a parametrised test's, `test_read[csv]` —
    /// its name with its parameters, `[` and `]` made `_` (`test_read_csv_0`), both cut to
    /// [`PYTEST_NAME_CHARS`] before the number; the longest name that fits, and only one file
    /// defining it.
    fn test_files(&self, folder: &str) -> Vec<u32> {
        let fits = |name: &str| {
            let Some(rest) = folder.strip_prefix(name) else {
                return false;
            };
            let parameters = rest.trim_end_matches(|c: char| c.is_ascii_digit());
            let cut = name.chars().count() + parameters.chars().count() == PYTEST_NAME_CHARS;
            parameters.len() < rest.len()
                && (parameters.is_empty()
                    || parameters.starts_with('_') && (parameters.ends_with('_') || cut))
        };
        self.tests
            .iter()
            .filter(|(name, _)| fits(name))
            .max_by_key(|(name, _)| name.len())
            .filter(|(_, files)| files.len() == 1)
            .map(|(_, files)| files.clone())
            .unwrap_or_default()
    }

    /// The file an RDD was made in, from `parallelize at UDAF.scala:76` ([`RDD_HINT`]): the
    /// file [`Self::files_for`] names, or, of several files of that name, the one whose
    /// statement on that line calls that method (`sc.parallelize(custs, 4)`).
    fn rdd_origin_files(&self, origin: &str) -> Vec<(u32, Option<u32>)> {
        let Some((method, at)) = origin.split_once(" at ") else {
            return Vec::new();
        };
        let Some((path, line)) = at.rsplit_once(':') else {
            return Vec::new();
        };
        let line: Option<u32> = line.parse().ok();
        let mut files = self.files_for(path);
        if files.is_empty()
            && let Some(line) = line
        {
            let name = path.rsplit('/').next().unwrap_or(path);
            let calls_it = |file: &u32| {
                self.made_at.get(file).is_some_and(|statements| {
                    statements.iter().any(|(lines, text)| {
                        lines.start <= line && line <= lines.end && text.contains(method)
                    })
                })
            };
            let named: Vec<u32> = self.by_name.get(name).cloned().unwrap_or_default();
            let making: Vec<u32> = named.into_iter().filter(calls_it).collect();
            if making.len() == 1 {
                files = making;
            }
        }
        files.into_iter().map(|f| (f, line)).collect()
    }

    /// The source files of a JVM class (`com.shop.Main` → `…/com/shop/Main.scala`, `.java`,
    /// `.kt`); none for the engine's own classes.
    fn class_files(&self, qualified: &str) -> Vec<u32> {
        if ENGINE_PACKAGES.iter().any(|p| qualified.starts_with(p)) {
            return Vec::new();
        }
        let folders = qualified.replace('.', "/");
        ["scala", "java", "kt"]
            .iter()
            .flat_map(|ext| self.files_for(&format!("{}.{ext}", folders.trim_end_matches('$'))))
            .collect()
    }

    /// The files whose path shares the longest tail of folders with `path` (at least its name);
    /// none when that tail is only the name and several files carry it.
    pub(crate) fn files_for(&self, path: &str) -> Vec<u32> {
        let wanted: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let Some(name) = wanted.last() else {
            return Vec::new();
        };
        let Some(candidates) = self.by_name.get(name) else {
            return Vec::new();
        };
        let shared = |file: u32| {
            let have: Vec<&str> = self.paths[file as usize].split('/').collect();
            let mut n = 0;
            // a notebook hint has no extension: compare the last part by stem
            let last_matches = have.last().is_some_and(|h| {
                h == name || h.rsplit_once('.').is_some_and(|(stem, _)| stem == *name)
            });
            if last_matches {
                n = 1;
                while n < have.len()
                    && n < wanted.len()
                    && have[have.len() - 1 - n] == wanted[wanted.len() - 1 - n]
                {
                    n += 1;
                }
            }
            n
        };
        let scored: Vec<(u32, usize)> = candidates.iter().map(|&f| (f, shared(f))).collect();
        let best = scored.iter().map(|(_, n)| *n).max().unwrap_or(0);
        let winners: Vec<u32> = scored
            .iter()
            .filter(|(_, n)| *n == best && best > 0)
            .map(|(f, _)| *f)
            .collect();
        if best == 1 && winners.len() > 1 {
            return Vec::new(); // only the name is shared, by several files
        }
        let mut winners = winners;
        winners.sort_unstable();
        winners.dedup();
        winners
    }
}

/// The outermost class a JVM closure printed in `text` was compiled in, package included:
/// `part3.Datasets` of `part3.Datasets$$$Lambda$4283/0x…@451e` ([`CLOSURE`]). A lambda is
/// compiled into the class whose code creates it, so the class names the code.
pub fn closure_class(text: &str) -> Option<&str> {
    CLOSURE
        .captures(text)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str())
}

/// Where the RDD a scan reads was made, as its plan prints it ([`RDD_ORIGIN`]): the source
/// file's name and the line (`RDDs.scala`, 134 of `MapPartitionsRDD[57] at map at
/// RDDs.scala:134`).
pub fn rdd_origin(text: &str) -> Option<(&str, u32)> {
    let origin = RDD_ORIGIN.captures(text)?;
    Some((origin.get(2)?.as_str(), origin[3].parse().ok()?))
}

/// Whether a scan's RDD is rows PySpark made (`MapPartitionsRDD[590] at applySchemaToPythonRDD
/// at …`, `PythonRDD[5] at …`): the user's Python code handed them over.
pub fn made_by_python(text: &str) -> bool {
    text.contains("applySchemaToPythonRDD") || text.contains("PythonRDD[")
}

/// What a plan itself says of the user's code, each once: the closures its typed operators and
/// filters run ([`CLOSURE`]), the classes of the objects they carry ([`OBJECT_CLASS`]) and the
/// file and line that made the RDDs it scans ([`RDD_ORIGIN`]).
pub fn plan_hints(graph: &PlanGraph) -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    for node in &graph.nodes {
        let d = &node.details;
        let relation = d.scan.as_ref().and_then(|s| s.relation.as_deref());
        // a typed `filter(lambda)` prints its closure in its condition
        let expressions = d
            .conditions
            .iter()
            .chain(&d.projections)
            .map(|e| e.raw.as_str());
        let arguments = d.arguments.values().map(String::as_str);
        let scanned = d.scan.iter().flat_map(|s| s.paths.iter());
        for path in scanned {
            texts.extend(
                PYTEST_DIR
                    .captures_iter(path)
                    .map(|c| format!("{PYTEST_HINT}{}", &c[1])),
            );
        }
        let functions = d.aggregate_functions.iter().map(|e| e.raw.as_str());
        for text in arguments.chain(relation).chain(expressions) {
            texts.extend(CLOSURE.find_iter(text).map(|m| m.as_str().to_owned()));
            texts.extend(OBJECT_CLASS.find_iter(text).map(|m| m.as_str().to_owned()));
            texts.extend(
                RDD_ORIGIN
                    .captures_iter(text)
                    .map(|c| format!("{RDD_HINT}{} at {}:{}", &c[1], &c[2], &c[3])),
            );
        }
        for text in functions {
            texts.extend(
                INSTANCE
                    .captures_iter(text)
                    .map(|c| format!("{INSTANCE_HINT}{}", &c[1])),
            );
        }
    }
    texts.sort_unstable();
    texts.dedup();
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closure_names_the_outermost_class_it_was_compiled_in() {
        let cases = [
            (
                "part3.Datasets$$$Lambda$4283/0x00007f9e9d21cf10@451e8bd0, obj#170: bigint",
                Some("part3.Datasets"),
            ),
            (
                "invoke(part3.Datasets$$$Lambda$4233/0x1@4b8ab2f8.apply(newInstance(class part3.Datasets$Car)))",
                Some("part3.Datasets"),
            ),
            (
                "com.x.TypedDataset$$Lambda$4444/0x7@4c33450c",
                Some("com.x.TypedDataset"),
            ),
            ("com.x.Outer$Inner$$Lambda$7/0x1@1", Some("com.x.Outer")),
            ("com.x.Job$$anonfun$1", Some("com.x.Job")),
            // a case class alone, or a named class's instance, is no closure
            ("newInstance(class part3.Datasets$Car)", None),
            ("part3.MyFunction@37a5ac85", None),
        ];
        for (text, class) in cases {
            assert_eq!(closure_class(text), class, "{text}");
        }
    }

    const PATHS: [&str; 6] = [
        "src/main/scala/com/shop/Revenue.scala",
        "src/main/scala/com/shop/copy/Revenue.scala",
        "src/main/java/com/shop/Orders.java",
        "jobs/daily.py",
        "notebooks/etl.py",
        "other/daily.py",
    ];

    fn resolve(hint: &str) -> Vec<(&'static str, Option<u32>)> {
        HintResolver::over(PATHS.to_vec())
            .resolve(&[hint.to_owned()])
            .into_iter()
            .map(|h| (PATHS[h.file as usize], h.line))
            .collect()
    }

    #[test]
    fn a_pytest_folder_names_the_test_that_made_it() {
        let mut resolver = HintResolver::over(PATHS.to_vec());
        // jobs/daily.py (3) and notebooks/etl.py (4) define tests; other/daily.py (5) too
        resolver.tests.insert("test_daily".into(), vec![3]);
        resolver.tests.insert("test_daily_totals".into(), vec![4]);
        resolver.tests.insert("test_case_2".into(), vec![5]);
        let long = "test_a_name_pytest_cuts_at_thirty_characters";
        resolver
            .tests
            .insert(long.chars().take(PYTEST_NAME_CHARS).collect(), vec![5]);
        let files = |folder: &str| resolver.test_files(folder);
        // the longest name that fits: not `test_daily` + `_totals0`
        assert_eq!(files("test_daily_totals0"), [4]);
        assert_eq!(files("test_daily12"), [3]);
        // a parametrised test: `test_daily[eu-west]` → `test_daily_eu_west_0`, cut at 30
        assert_eq!(files("test_daily_eu_west_0"), [3]);
        assert_eq!(files("test_daily_a_parameter_too_lon3"), [3]);
        // … but a longer name is another test's
        assert!(files("test_daily_weekly0").is_empty());
        // a name ending in digits keeps them before pytest's number
        assert_eq!(files("test_case_20"), [5]);
        assert_eq!(files("test_a_name_pytest_cuts_at_thi0"), [5]);
        assert!(files("test_other0").is_empty());
        assert!(
            files("test_daily").is_empty(),
            "pytest always numbers its folders"
        );

        let plan = "== Physical Plan ==\n\
            Scan parquet  (1)\n\n\n\
            (1) Scan parquet \n\
            Output [1]: [id#0]\n\
            Batched: true\n\
            Location: InMemoryFileIndex [file:/tmp/pytest-of-me/pytest-3/test_daily_totals0/silver]\n\
            ReadSchema: struct<id:string>\n";
        let graph = crate::plan::parse_plan(plan, &Default::default()).unwrap();
        let hints = plan_hints(&graph);
        assert_eq!(hints, ["pytest tmp_path of test_daily_totals0"]);
        assert_eq!(resolver.resolve(&hints)[0].file, 4);
    }

    #[test]
    fn a_stack_frame_names_its_file_by_package_and_the_line() {
        let details = "org.apache.spark.sql.Dataset.collect(Dataset.scala:3612)\n\
                       com.shop.copy.Revenue$.main(Revenue.scala:42)\n\
                       com.shop.Revenue$.helper(Revenue.scala:7)";
        assert_eq!(
            resolve(details),
            [
                ("src/main/scala/com/shop/Revenue.scala", Some(7)),
                ("src/main/scala/com/shop/copy/Revenue.scala", Some(42)),
            ]
        );
        // Spark's own frames and files the repository does not have name nothing
        assert!(resolve("org.apache.spark.sql.Dataset.show(Dataset.scala:1)").is_empty());
        assert!(resolve("com.other.Job.run(Job.java:3)").is_empty());
    }

    #[test]
    fn a_submit_command_names_the_main_class_or_script() {
        assert_eq!(
            resolve("org.apache.spark.deploy.SparkSubmit --class com.shop.Orders app.jar"),
            [("src/main/java/com/shop/Orders.java", None)]
        );
        assert_eq!(
            resolve("org.apache.spark.deploy.SparkSubmit /home/me/repo/jobs/daily.py --day 1"),
            [("jobs/daily.py", None)]
        );
    }

    #[test]
    fn a_closure_printed_in_the_plan_names_the_class_it_was_written_in() {
        assert_eq!(
            resolve(
                "com.shop.Revenue$$$Lambda$3641/0x00007fecdd2013b0@4437af21, obj#85: scala.Tuple4"
            ),
            [("src/main/scala/com/shop/Revenue.scala", None)]
        );
        assert_eq!(
            resolve(
                "com.shop.Orders$$Lambda/0x000071cc2c4d2a48@6b1e7ad3, obj#12: java.lang.String"
            ),
            [("src/main/java/com/shop/Orders.java", None)]
        );
        assert_eq!(
            resolve("com.shop.copy.Revenue$Inner$$anonfun$1@5e2c"),
            [("src/main/scala/com/shop/copy/Revenue.scala", None)]
        );
        // the engine's closures and classes the repository lacks name nothing
        assert!(resolve("org.apache.spark.sql.Dataset$$Lambda$12/0x1@2").is_empty());
        assert!(resolve("com.other.Job$$Lambda/0x1@2").is_empty());
    }

    #[test]
    fn a_plan_names_its_closures_and_where_its_rdds_were_made() {
        let plan = "== Physical Plan ==\n\
            * SerializeFromObject (4)\n\
            +- * MapElements (3)\n   \
               +- * DeserializeToObject (2)\n      \
                  +- * Scan ExistingRDD (1)\n\n\n\
            (1) Scan ExistingRDD [codegen id : 1]\n\
            Output [1]: [name#1]\n\
            Arguments: [name#1], MapPartitionsRDD[158] at createDataFrame at Orders.java:31, \
            ExistingRDD, UnknownPartitioning(0)\n\n\
            (2) DeserializeToObject [codegen id : 1]\n\
            Input [1]: [name#1]\n\
            Arguments: invoke(name#1.toString()), obj#7: java.lang.String\n\n\
            (3) MapElements [codegen id : 1]\n\
            Input [1]: [obj#7]\n\
            Arguments: com.shop.copy.Revenue$$$Lambda$2035/0x00007f61f0ccc5e8@7c07deff, obj#9: int\n\n\
            (4) SerializeFromObject [codegen id : 1]\n\
            Input [1]: [obj#9]\n\
            Arguments: [input[0, int, false] AS value#11]\n";
        let graph = crate::plan::parse_plan(plan, &Default::default()).unwrap();
        let hints = plan_hints(&graph);
        assert_eq!(
            hints,
            [
                "RDD made by createDataFrame at Orders.java:31",
                "com.shop.copy.Revenue$$$Lambda"
            ]
        );
        let resolved: Vec<_> = HintResolver::over(PATHS.to_vec())
            .resolve(&hints)
            .into_iter()
            .map(|h| (PATHS[h.file as usize], h.line))
            .collect();
        assert_eq!(
            resolved,
            [
                ("src/main/scala/com/shop/copy/Revenue.scala", None),
                ("src/main/java/com/shop/Orders.java", Some(31)),
            ]
        );
        // a typed filter prints its closure in its condition
        let filter = plan.replace(
            "(2) DeserializeToObject [codegen id : 1]\n",
            "(2) DeserializeToObject [codegen id : 1]\nCondition : invoke(com.shop.Orders$$Lambda$3802/0x00007f@64.call(obj#7))\n",
        );
        let graph = crate::plan::parse_plan(&filter, &Default::default()).unwrap();
        assert!(plan_hints(&graph).contains(&"com.shop.Orders$$Lambda".to_owned()));
        // PySpark's RDDs are made by the JVM side of the bridge: nothing to resolve
        let python = plan.replace("Orders.java:31", "<unknown>:0");
        let graph = crate::plan::parse_plan(&python, &Default::default()).unwrap();
        assert_eq!(plan_hints(&graph), ["com.shop.copy.Revenue$$$Lambda"]);
    }

    #[test]
    fn a_scan_of_objects_names_the_class_its_objects_are_defined_in() {
        let plan = "== Physical Plan ==\n\
            * SerializeFromObject (2)\n\
            +- Scan (1)\n\n\n\
            (1) Scan\n\
            Output [1]: [obj#5]\n\
            Arguments: obj#5: dataframe.Basic$Cust, ParallelCollectionRDD[0] at parallelize at Basic.scala:33\n\n\
            (2) SerializeFromObject [codegen id : 1]\n\
            Input [1]: [obj#5]\n\
            Arguments: [invoke(knownnotnull(assertnotnull(input[0, dataframe.Basic$Cust, true])).id()) AS id#11]\n";
        let graph = crate::plan::parse_plan(plan, &Default::default()).unwrap();
        let paths = [
            "src/main/scala/dataframe/Basic.scala",
            "src/main/scala/sql/Basic.scala",
        ];
        let resolved: Vec<_> = HintResolver::over(paths.to_vec())
            .resolve(&plan_hints(&graph))
            .into_iter()
            .map(|h| (paths[h.file as usize], h.line))
            .collect();
        // `Basic.scala:33` alone names two files; the class's package names one
        assert_eq!(resolved, [("src/main/scala/dataframe/Basic.scala", None)]);
        // a class of the engine's (a tuple) names no file
        let tuples = plan.replace("dataframe.Basic$Cust", "scala.Tuple2");
        let graph = crate::plan::parse_plan(&tuples, &Default::default()).unwrap();
        assert!(
            HintResolver::over(paths.to_vec())
                .resolve(&plan_hints(&graph))
                .is_empty()
        );
        // …unless one of the files calls `parallelize` on line 33, where the RDD was made
        let mut resolver = HintResolver::over(paths.to_vec());
        let statement = |start, end| crate::code::LineRange::new(start, end);
        resolver.made_at.insert(
            0,
            vec![(
                statement(32, 32),
                "val rows = spark.sparkContext.parallelize(custs, 4)",
            )],
        );
        resolver.made_at.insert(
            1,
            vec![
                (
                    statement(32, 32),
                    "val rows = spark.sparkContext.parallelize(custs, 4)",
                ),
                (statement(33, 34), "val df = rows.toDF(\"id\", \"name\")"),
            ],
        );
        let resolved: Vec<_> = resolver
            .resolve(&plan_hints(&graph))
            .into_iter()
            .map(|h| (paths[h.file as usize], h.line))
            .collect();
        assert!(
            resolved.is_empty(),
            "no file makes it on line 33: {resolved:?}"
        );
        resolver.made_at.get_mut(&1).unwrap()[0].0 = statement(33, 33);
        let resolved: Vec<_> = resolver
            .resolve(&plan_hints(&graph))
            .into_iter()
            .map(|h| (paths[h.file as usize], h.line))
            .collect();
        assert_eq!(resolved, [("src/main/scala/sql/Basic.scala", Some(33))]);
    }

    #[test]
    fn an_aggregate_function_s_instance_names_the_class_it_is_defined_in() {
        let plan = "== Physical Plan ==\n\
            HashAggregate (2)\n\
            +- LocalTableScan (1)\n\n\n\
            (1) LocalTableScan\n\
            Output [2]: [sales#29, state#31]\n\
            Arguments: [sales#29, state#31]\n\n\
            (2) HashAggregate\n\
            Input [2]: [sales#29, state#31]\n\
            Keys [1]: [state#31]\n\
            Functions [1]: [mysum(sales#29, sql.UDAF$ScalaAggregateFunction@616b2b2, 0, 0, Some(mysum))]\n\
            Aggregate Attributes [1]: [mysum(sales#29)#35]\n\
            Results [2]: [state#31, mysum(sales#29)#35 AS bigsales#32]\n";
        let graph = crate::plan::parse_plan(plan, &Default::default()).unwrap();
        assert_eq!(plan_hints(&graph), ["instance of sql.UDAF"]);
        let paths = [
            "src/main/scala/dataframe/UDAF.scala",
            "src/main/scala/sql/UDAF.scala",
        ];
        let resolved: Vec<_> = HintResolver::over(paths.to_vec())
            .resolve(&plan_hints(&graph))
            .into_iter()
            .map(|h| paths[h.file as usize])
            .collect();
        assert_eq!(resolved, ["src/main/scala/sql/UDAF.scala"]);
        // the engine's own aggregate objects name nothing
        let engine = plan.replace(
            "sql.UDAF$ScalaAggregateFunction@616b2b2",
            "org.apache.spark.sql.execution.aggregate.ScalaUDAF@1f2e3d4c",
        );
        let graph = crate::plan::parse_plan(&engine, &Default::default()).unwrap();
        assert!(
            HintResolver::over(paths.to_vec())
                .resolve(&plan_hints(&graph))
                .is_empty()
        );
    }

    #[test]
    fn pyspark_call_sites_and_notebook_paths() {
        assert_eq!(
            resolve("collect at /Workspace/Repos/me/repo/jobs/daily.py:33"),
            [("jobs/daily.py", Some(33))]
        );
        assert_eq!(
            resolve("C:\\work\\repo\\other\\daily.py:5"),
            [("other/daily.py", Some(5))]
        );
        assert_eq!(
            resolve("/Repos/me/repo/notebooks/etl"),
            [("notebooks/etl.py", None)]
        );
    }

    #[test]
    fn a_name_several_files_share_with_nothing_to_choose_names_none() {
        assert!(resolve("collect at /opt/elsewhere/daily.py:3").is_empty());
        assert!(resolve("collect at NativeMethodAccessorImpl.java:0").is_empty());
    }
}
