//! Values passed across files: what a name in a call's arguments holds when its own file does
//! not say.
//!
//! Production jobs take their paths as parameters and their callers pass constants from a
//! config module:
//!
//! ```text
//! # config.py                  RAW_FILE = "data/transactions.csv"
//! # main.py                    bronze = ingest(spark, RAW_FILE, BRONZE_PATH)
//! # jobs/bronze_ingestion.py   def ingest(spark, input_file, out): spark.read.csv(input_file)
//! ```
//!
//! A parameter holds what the calls of its function pass at its position (or by its keyword):
//! a literal, or a name resolved through the repository's top-level constants. Any other name
//! is looked up among the constants directly (`read.csv(RAW_FILE)`, `config.RAW_FILE`). A
//! function name or a constant name bound in several places may hold several values: all are
//! kept, up to [`MAX_VALUES`] — or [`MAX_PATHS_PASSED`] for a parameter read as a path.

use crate::code::index::LISTED_VALUES_SEPARATOR;
use crate::code::{ArgValue, Launch, PassedArg, RepoIndex, Symbol, SymbolId};
use crate::pipeline::hints::HintResolver;
use std::collections::{BTreeSet, HashMap, HashSet};

/// What a constant holds: its string, or the settings key it reads.
#[derive(Clone, Copy)]
enum ConstantValue<'i> {
    Text(&'i str),
    Setting(&'i str),
}

/// How many callers up a parameter's value is followed ([`PassedValues::values`]).
const PASSED_ON_LEVELS: usize = 2;

/// Most values one name resolves to: more means the name is too common to say anything.
const MAX_VALUES: usize = 4;

/// Most paths a reader's parameter resolves to: a generic reader helper
/// (`read_dataset(spark, path, file_type)`) reads every file its callers pass it, so each of
/// them is its evidence; past this many, too many to say anything.
const MAX_PATHS_PASSED: usize = 64;

pub(super) struct PassedValues<'i> {
    index: &'i RepoIndex,
    constants: HashMap<&'i str, Vec<ConstantValue<'i>>>,
    /// What the settings files give each key, distinct values in file order.
    settings: HashMap<&'i str, Vec<&'i str>>,
    passed: HashMap<&'i str, Vec<&'i PassedArg>>,
    /// Names of the functions defined in more than one file (copies of a class or module).
    copied: HashSet<&'i str>,
    /// The arguments launcher scripts pass, by the file of the job they launch.
    launched: HashMap<u32, Vec<&'i [String]>>,
}

impl<'i> PassedValues<'i> {
    pub(super) fn new(index: &'i RepoIndex) -> Self {
        let mut constants: HashMap<&str, Vec<ConstantValue>> = HashMap::new();
        for c in &index.constants {
            let value = if c.from_setting {
                ConstantValue::Setting(&c.value)
            } else {
                ConstantValue::Text(&c.value)
            };
            constants.entry(&c.name).or_default().push(value);
        }
        let mut settings: HashMap<&str, Vec<&str>> = HashMap::new();
        for s in &index.settings {
            let values = settings.entry(&s.key).or_default();
            if !values.contains(&s.value.as_str()) {
                values.push(&s.value);
            }
        }
        let mut passed: HashMap<&str, Vec<_>> = HashMap::new();
        for p in &index.passed {
            passed.entry(p.callee.as_str()).or_default().push(p);
        }
        let mut defined_in: HashMap<&str, u32> = HashMap::new();
        let mut copied = HashSet::new();
        for symbol in index.symbols.iter().filter(|s| !s.params.is_empty()) {
            match defined_in.insert(&symbol.name, symbol.file) {
                Some(file) if file != symbol.file => {
                    copied.insert(symbol.name.as_str());
                }
                _ => {}
            }
        }
        let mut launched: HashMap<u32, Vec<&[String]>> = HashMap::new();
        // (most repositories launch nothing: no resolver is built for them)
        if !index.launches.is_empty() {
            let resolver = HintResolver::new(index);
            for launch in &index.launches {
                if let Some(file) = job_file(&resolver, launch) {
                    launched.entry(file).or_default().push(&launch.args);
                }
            }
        }
        Self {
            index,
            constants,
            settings,
            passed,
            copied,
            launched,
        }
    }

    /// What the calls of the function `function` pass for its parameter `param`, by position or
    /// by keyword; nothing when `param` is none of its parameters. Calls are matched by name, so
    /// when another file defines a function of that name too and the function's own file calls
    /// it, those are its calls: a same-named method of another file's copy of the class is
    /// called by that copy. A function defined once is called from every file
    /// (`analytics.top(orders)` in a script, `self.top(orders)` in its class's `run`).
    pub(super) fn arguments<'a>(
        &'a self,
        function: &'i Symbol,
        param: &'a str,
    ) -> impl Iterator<Item = &'i PassedArg> + 'a {
        let position = function.params.iter().position(|p| p == param);
        let calls: Vec<&'i PassedArg> = position
            .map(|_| {
                self.index
                    .call_names(function)
                    .filter_map(|name| self.passed.get(name))
                    .flatten()
                    .copied()
                    .collect()
            })
            .unwrap_or_default();
        let own_file = self.copied.contains(function.name.as_str())
            && calls.iter().any(|a| a.file == function.file);
        calls.into_iter().filter(move |a| {
            (!own_file || a.file == function.file)
                && (a.keyword.as_deref() == Some(param)
                    || a.keyword.is_none() && a.position.map(|p| p as usize) == position)
        })
    }

    /// The values `name` may hold inside `symbol` (a chain's enclosing function) — as a path
    /// when `as_path` — none when it cannot be told or holds too many. A parameter holds what
    /// its callers pass, and a caller passing on a parameter of its own what its callers pass
    /// (`_csv(spark, path, schema)` called by `read_orders(spark, path)` called with
    /// `cfg.orders_path`), up to [`PASSED_ON_LEVELS`] callers up.
    pub(super) fn values(
        &self,
        symbol: Option<SymbolId>,
        name: &str,
        as_path: bool,
    ) -> Vec<&'i str> {
        self.values_within(symbol, name, as_path, PASSED_ON_LEVELS)
    }

    fn values_within(
        &self,
        symbol: Option<SymbolId>,
        name: &str,
        as_path: bool,
        levels: usize,
    ) -> Vec<&'i str> {
        let function = symbol.and_then(|s| self.index.symbols.get(s as usize));
        // Each alternative the name may hold: one value, or a listed constant's values together.
        let mut alternatives: BTreeSet<Vec<&'i str>> = BTreeSet::new();
        let mut most = MAX_VALUES;
        match function.filter(|f| f.params.iter().any(|p| p == name)) {
            Some(function) => {
                if as_path {
                    most = MAX_PATHS_PASSED;
                }
                for arg in self.arguments(function, name) {
                    match &arg.value {
                        // (a caller's own parameter: what its callers pass)
                        ArgValue::Name(n) if levels > 1 && self.is_parameter(arg.symbol, n) => {
                            let passed = self.values_within(arg.symbol, n, as_path, levels - 1);
                            alternatives.extend(passed.into_iter().map(|v| vec![v]));
                        }
                        value => self.add_alternatives(&mut alternatives, value),
                    }
                }
                // … and what it defaults to, for a call leaving it out
                // (`def read_sales(spark, path=SALES_PATH)` called `read_sales(spark)`)
                for default in function.defaults.iter().filter(|d| d.param == name) {
                    self.add_alternatives(&mut alternatives, &default.value);
                }
            }
            None => alternatives.extend(self.constant(name)),
        }
        if alternatives.len() > most {
            return Vec::new();
        }
        let mut values: Vec<&'i str> = alternatives.into_iter().flatten().collect();
        values.sort_unstable();
        values.dedup();
        values
    }

    /// Adds what one passed value stands for: a literal itself, a name its constant's values, a
    /// settings key what the settings files give it.
    fn add_alternatives(&self, alternatives: &mut BTreeSet<Vec<&'i str>>, value: &'i ArgValue) {
        match value {
            ArgValue::Literal(v) => {
                alternatives.insert(vec![v.as_str()]);
            }
            ArgValue::Name(n) => alternatives.extend(self.constant(n)),
            ArgValue::Setting(key) => {
                alternatives.extend(self.setting(key).iter().map(|v| vec![*v]))
            }
            ArgValue::Returned(_) | ArgValue::Expression => {}
        }
    }

    /// Whether `name` is a parameter of the function `symbol`.
    fn is_parameter(&self, symbol: Option<SymbolId>, name: &str) -> bool {
        symbol
            .and_then(|s| self.index.symbols.get(s as usize))
            .is_some_and(|f| f.params.iter().any(|p| p == name))
    }

    /// What launcher scripts pass a job for `name` when the job reads it from its command line
    /// (`input_path = sys.argv[1]`, `spark-submit job.py data/emps.txt`); none when the file
    /// reads no such argument or too many launches pass different values.
    pub(super) fn launched(&self, file: u32, name: &str) -> Vec<&'i str> {
        let Some(position) = self
            .index
            .files
            .get(file as usize)
            .and_then(|f| f.argv_names.iter().find(|(n, _)| n == name))
            .map(|(_, p)| *p as usize)
        else {
            return Vec::new();
        };
        let mut values: Vec<&str> = self
            .launched
            .get(&file)
            .into_iter()
            .flatten()
            .filter_map(|args| args.get(position - 1).map(String::as_str))
            .collect();
        values.sort_unstable();
        values.dedup();
        if values.len() > MAX_VALUES {
            values.clear();
        }
        values
    }

    /// What the constant `name` holds, each definition one alternative: a string, a listed
    /// constant's strings together ([`crate::code::index::LISTED_VALUES_SEPARATOR`]), or what the
    /// settings files give a key it reads.
    fn constant(&self, name: &str) -> impl Iterator<Item = Vec<&'i str>> + '_ {
        self.constants
            .get(name)
            .into_iter()
            .flatten()
            .flat_map(|c| match c {
                ConstantValue::Text(value) => {
                    vec![value.split(LISTED_VALUES_SEPARATOR).collect::<Vec<_>>()]
                }
                ConstantValue::Setting(key) => self.setting(key).iter().map(|v| vec![*v]).collect(),
            })
    }

    /// What the repository's settings files give the key `key` (`input.flights`), or — for a
    /// key read through a settings object (`settings.paths.silver`) — the longest of its tails
    /// of two segments or more that they give; none when no file gives it or files give it too
    /// many values.
    pub(super) fn setting(&self, key: &str) -> &[&'i str] {
        let mut tail = key;
        loop {
            if let Some(values) = self.settings.get(tail) {
                return if values.len() > MAX_VALUES {
                    &[]
                } else {
                    values
                };
            }
            match tail.split_once('.') {
                Some((_, rest)) if rest.contains('.') => tail = rest,
                _ => return &[],
            }
        }
    }
}

/// The file a launch runs: the one its job's path names (the longest tail of folders, as a hint
/// is resolved), or, when several share only its name, the one of that name beside the launcher
/// (`spark-submit job.py` run from the script's folder).
fn job_file(resolver: &HintResolver<'_>, launch: &Launch) -> Option<u32> {
    if let [only] = resolver.files_for(&launch.job)[..] {
        return Some(only);
    }
    let folder = launch
        .launcher
        .rsplit_once('/')
        .map_or("", |(folder, _)| folder);
    let name = launch.job.rsplit('/').next().unwrap_or(&launch.job);
    match resolver.files_for(&format!("{folder}/{name}"))[..] {
        [only] => Some(only),
        _ => None,
    }
}
