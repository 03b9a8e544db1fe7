//! Which code operations can produce which plan operators — the one table of that knowledge.
//!
//! A plan node has an [`OperatorFamily`] (from the plan's operator table); a code site is either a
//! DataFrame method call or a SQL clause. This module says which families a site can produce:
//! `.where(...)` and a `WHERE` conjunct produce `Filter`; `.groupBy(...).agg(...)`, a `GROUP BY` and
//! `df.select(sum("x"))` produce `Aggregate`; `.withColumn("r", row_number().over(w))` produces
//! `Window`; and so on. Functions inside the arguments widen a call's families (an aggregate
//! function inside `select` makes it an aggregation).

use crate::code::SqlClauseKind;
use crate::plan::OperatorFamily;

/// A small set of operator families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct FamilySet(u32);

impl FamilySet {
    pub const EMPTY: FamilySet = FamilySet(0);

    fn bit(family: OperatorFamily) -> u32 {
        1 << (family as u32)
    }

    pub fn of(families: &[OperatorFamily]) -> Self {
        FamilySet(families.iter().fold(0, |acc, f| acc | Self::bit(*f)))
    }

    pub fn contains(self, family: OperatorFamily) -> bool {
        self.0 & Self::bit(family) != 0
    }

    /// Membership by the family's index (`OperatorFamily as usize`).
    pub fn contains_index(self, index: usize) -> bool {
        index < 32 && self.0 & (1 << index) != 0
    }

    pub fn insert(&mut self, family: OperatorFamily) {
        self.0 |= Self::bit(family);
    }

    pub fn remove(&mut self, family: OperatorFamily) {
        self.0 &= !Self::bit(family);
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the sets share a family.
    pub fn intersects(self, other: FamilySet) -> bool {
        self.0 & other.0 != 0
    }
}

use OperatorFamily as F;

/// DataFrame / Dataset / reader methods (lower-cased) and the families they produce.
const METHOD_FAMILIES: &[(&[&str], &[OperatorFamily])] = &[
    (&["filter", "where", "dropna", "drop_nulls"], &[F::Filter]),
    (
        &[
            "select",
            "selectexpr",
            "withcolumn",
            "withcolumns",
            "withcolumnrenamed",
            "withcolumnsrenamed",
            "todf",
            "drop",
            "fillna",
            "fill",
            "replace",
            "transform",
            "withfield",
            "map",
            "mapelements",
            "flatmap",
            "as",
            // (cleaning its columns before counting, filling the counts after)
            "crosstab",
        ],
        &[F::Project],
    ),
    (
        &[
            "groupby",
            "groupBy",
            "rollup",
            "cube",
            "agg",
            "aggregate",
            "count",
            "sum",
            "avg",
            "mean",
            "max",
            "min",
            "pivot",
            "distinct",
            "dropduplicates",
            "drop_duplicates",
            "dropduplicateswithinwatermark",
            "describe",
            "summary",
            "countdistinct",
            "groupbykey",
            "reducegroups",
            "mapgroups",
            "crosstab",
            "approxquantile",
            "freqitems",
            "applyinpandas",
        ],
        &[F::Aggregate, F::Expand],
    ),
    (&["join", "crossjoin", "joinwith"], &[F::Join]),
    (&["orderby", "sort", "sortwithinpartitions"], &[F::Sort]),
    (
        &["limit", "offset", "tail", "head", "take", "first", "show"],
        &[F::Limit],
    ),
    (
        &[
            "repartition",
            "repartitionbyrange",
            "coalesce",
            "distribute",
            "rebalance",
        ],
        &[F::Exchange],
    ),
    (
        &[
            "union",
            "unionall",
            "unionbyname",
            "intersect",
            "intersectall",
            "except",
            "exceptall",
            "subtract",
        ],
        &[F::Union, F::Join, F::Aggregate],
    ),
    // `isEmpty()` runs `select().limit(1)`: a CollectLimit 1 over a projection of no column.
    (&["isempty"], &[F::Limit, F::Project]),
    // `groupByKey(f)` appends each row's key before grouping by it (`AppendColumns`).
    (&["groupbykey"], &[F::Project]),
    // `exceptAll` / `intersectAll` keep copies: Spark tags each side's rows, concatenates the
    // sides (`Union`), counts each row per side (`Aggregate`), keeps those left over (`Filter`)
    // and copies each back as many times (`Generate replicaterows`).
    (
        &["exceptall", "intersectall"],
        &[F::Filter, F::Generate, F::Project],
    ),
    // `mapInPandas(f, schema)`: the function runs over batches of rows in a Python worker.
    (
        &["mapinpandas", "mapinarrow", "applyinarrow"],
        &[F::PythonEval],
    ),
    (&["sample"], &[F::Sample]),
    // `randomSplit` sorts each partition on every column (so that the splits agree) before
    // sampling each split's share.
    (&["randomsplit"], &[F::Sample, F::Sort]),
    // `sampleBy(col, fractions, seed)` is a Filter keeping a row when a UDF of its key and
    // `rand(seed)` says so: `Filter UDF((id % 3), rand(0))`.
    (&["sampleby"], &[F::Filter]),
    // `describe()` / `summary()` aggregate every statistic, then explode them into rows.
    (&["describe", "summary"], &[F::Generate, F::Project]),
    (&["explode", "lateralview", "inline"], &[F::Generate]),
    // `unpivot` / `melt` copy each row once per value column: an `Expand`.
    (&["unpivot", "melt"], &[F::Generate, F::Expand]),
    (
        &["cache", "persist", "checkpoint", "localcheckpoint"],
        &[F::Cache],
    ),
    (
        &[
            "parquet",
            "csv",
            "json",
            "orc",
            "text",
            "textfile",
            "load",
            "table",
            "createdataframe",
            "createdataset",
            "createdf",
            "tods",
            "range",
            "parallelize",
            "sql",
            "read",
            "format",
            "jdbc",
            "avro",
            "delta",
            "readstream",
            "todf",
            "makerdd",
            "wholetextfiles",
            "binaryfiles",
        ],
        &[F::Scan],
    ),
    (
        &[
            "write",
            "save",
            "saveastable",
            "insertinto",
            "writeto",
            "mode",
        ],
        &[F::Write],
    ),
];

/// Dataset methods taking a closure and the typed operator each plans (`ds.map(f)` →
/// `MapElements`). The closure leaves no column or function in the plan, so the operator's name
/// is the evidence the node and the call share ([`typed_operator_of`]).
const TYPED_OPERATORS: &[(&[&str], &str)] = &[
    (&["map"], "MapElements"),
    (&["flatmap", "mappartitions"], "MapPartitions"),
    (&["groupbykey"], "AppendColumns"),
    (&["mapgroups", "flatmapgroups"], "MapGroups"),
];

/// The token a `Union` node and the code concatenating its inputs share (`union`, `unionAll`,
/// `unionByName`, SQL's `UNION`): a union names no column or function of its own, so the
/// operation is the evidence both sides hold, as a typed operator's name is for a closure.
pub const CONCATENATION: &str = "union";

/// The generator copying a row back as many times as the set operation kept it
/// (`replicaterows(sum#12, item#3)`).
pub const ROW_REPLICATION: &str = "replicaterows";

/// Whether a DataFrame method keeps duplicate rows of a set operation (`exceptAll`,
/// `intersectAll`): it concatenates both sides and replicates the rows it keeps.
pub fn keeps_copies(method: &str) -> bool {
    ["exceptall", "intersectall"]
        .iter()
        .any(|m| m.eq_ignore_ascii_case(method))
}

/// Whether a DataFrame method concatenates its inputs as a `Union` node.
pub fn concatenates(method: &str) -> bool {
    ["union", "unionall", "unionbyname"]
        .iter()
        .any(|m| m.eq_ignore_ascii_case(method))
}

/// The typed operator a Dataset method with a closure plans, if it is one.
pub fn typed_operator_of(method: &str) -> Option<&'static str> {
    TYPED_OPERATORS
        .iter()
        .find(|(methods, _)| methods.iter().any(|m| m.eq_ignore_ascii_case(method)))
        .map(|(_, operator)| *operator)
}

/// The token of a filter by a closure (`ds.filter(r -> r.getAge() > 30)`): the plan's `Filter`
/// prints only `invoke(pkg.Job$$Lambda$12/….call(<the row as an object>))`.
pub const TYPED_FILTER: &str = "typedfilter";

/// Whether a plan expression calls a JVM closure (see `hints::CLOSURE` for the forms).
pub fn calls_closure(expression: &str) -> bool {
    expression.contains("$$Lambda") || expression.contains("$anonfun")
}

/// Whether a call's arguments are a closure: a Java (`->`) or Scala (`=>`) lambda, a method
/// reference (`Job::keep`), or Scala's placeholder syntax (`_.age > 30`, `_ + _`).
pub fn passes_closure(arguments: &str) -> bool {
    let placeholder = arguments.match_indices('_').any(|(at, _)| {
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '"' || c == '\'';
        !arguments[..at].ends_with(word) && !arguments[at + 1..].starts_with(word)
    });
    placeholder || ["->", "=>", "::"].iter().any(|op| arguments.contains(op))
}

/// Whether the plan operator runs a user's closure over objects (`MapElements`, `MapPartitions`…).
pub fn is_typed_operator(operator: &str) -> bool {
    TYPED_OPERATORS
        .iter()
        .any(|(_, op)| op.eq_ignore_ascii_case(operator))
}

/// Whether a function name as written (`SUM`, `count`) is an aggregate function's.
pub fn is_aggregate_function(name: &str) -> bool {
    AGGREGATE_FUNCTIONS.contains(&super::evidence::normalise_function(name).as_str())
}

/// Aggregate functions (normalised, see [`super::evidence::normalise_function`]).
pub const AGGREGATE_FUNCTIONS: &[&str] = &[
    "sum",
    "avg",
    "count",
    crate::code::sql_expr::COUNT_OF_ROWS,
    "countdistinct",
    "sumdistinct",
    "min",
    "max",
    "first",
    "last",
    "collectlist",
    "collectset",
    "approxcountdistinct",
    "stddevsamp",
    "stddevpop",
    "varsamp",
    "varpop",
    "kurtosis",
    "skewness",
    "corr",
    "covarsamp",
    "covarpop",
    "percentile",
    "percentileapprox",
    "median",
    "mode",
    "anyvalue",
    "boolor",
    "booland",
    "every",
    "some",
    "bitand",
    "bitor",
    "bitxor",
    "maxby",
    "minby",
    "countif",
    "grouping",
    "groupingid",
    "product",
    "approxpercentile",
    "firstvalue",
    "lastvalue",
    "listagg",
    "stringagg",
    "histogramnumeric",
    "countminsketch",
];

/// Window-only functions: the ranking and offset functions a window computes, which a plan names
/// exactly (normalised).
pub const WINDOW_FUNCTIONS: &[&str] = &[
    "rownumber",
    "rank",
    "denserank",
    "percentrank",
    "cumedist",
    "ntile",
    "lag",
    "lead",
    "nthvalue",
];

/// The calls that make a window of any function: `over` (any aggregate), the spec's builders.
const WINDOW_SPEC_CALLS: &[&str] = &[
    "over",
    "window",
    "partitionby",
    "rowsbetween",
    "rangebetween",
];

/// Generator functions (Generate operator).
pub const GENERATOR_FUNCTIONS: &[&str] = &[
    "explode",
    "posexplode",
    "inline",
    "stack",
    "jsontuple",
    "explodeouter",
    "posexplodeouter",
    "inlineouter",
];

/// Families a DataFrame call can produce, given its method and the functions in its arguments.
pub fn call_families(method: &str, arg_functions: &[String]) -> FamilySet {
    let method = method.to_lowercase();
    let mut set = FamilySet::EMPTY;
    for (methods, families) in METHOD_FAMILIES {
        if methods.iter().any(|m| m.eq_ignore_ascii_case(&method)) {
            for f in *families {
                set.insert(*f);
            }
        }
    }
    let has = |list: &[&str]| arg_functions.iter().any(|f| list.contains(&f.as_str()));
    let projecting =
        set.contains(F::Project) || set.contains(F::Aggregate) || set.contains(F::Filter);
    if projecting {
        // `avg(x).over(w)` is a window aggregate, not a grouping.
        if has(AGGREGATE_FUNCTIONS) && !arg_functions.iter().any(|f| f == "over") {
            set.insert(F::Aggregate);
            set.insert(F::Expand);
        }
        if has(WINDOW_FUNCTIONS) || has(WINDOW_SPEC_CALLS) {
            set.insert(F::Window);
        }
        if has(GENERATOR_FUNCTIONS) {
            set.insert(F::Generate);
        }
        // A call that applies a function we do not know as a Spark builtin may apply a UDF.
        set.insert(F::PythonEval);
    }
    set
}

/// Families a SQL clause can produce.
pub fn clause_families(kind: SqlClauseKind, functions: &[String]) -> FamilySet {
    use SqlClauseKind as K;
    let mut set = match kind {
        // Whole SELECT lists and WHERE clauses are containers: their items and conjuncts are the
        // sites (the index records both), and a container would win every comparison by holding
        // the union of its items' evidence.
        K::Where | K::Select => FamilySet::EMPTY,
        K::WherePredicate => FamilySet::of(&[F::Filter, F::Join]),
        K::Having => FamilySet::of(&[F::Filter, F::Aggregate]),
        K::SelectItem => FamilySet::of(&[F::Project]),
        K::GroupBy => FamilySet::of(&[F::Aggregate, F::Expand]),
        K::From => FamilySet::of(&[F::Scan, F::Join]),
        K::Join | K::JoinPredicate => FamilySet::of(&[F::Join]),
        K::OrderBy => FamilySet::of(&[F::Sort, F::Limit]),
        K::Limit => FamilySet::of(&[F::Limit]),
        K::Window => FamilySet::of(&[F::Window]),
        K::Union => FamilySet::of(&[F::Union]),
        K::Subquery => FamilySet::of(&[F::Subquery, F::Join]),
        K::With | K::CreateView | K::Insert | K::Other => FamilySet::EMPTY,
    };
    let has = |list: &[&str]| functions.iter().any(|f| list.contains(&f.as_str()));
    if kind == K::SelectItem {
        if has(AGGREGATE_FUNCTIONS) {
            set.insert(F::Aggregate);
        }
        if has(WINDOW_FUNCTIONS) || has(WINDOW_SPEC_CALLS) {
            set.insert(F::Window);
        }
        if has(GENERATOR_FUNCTIONS) {
            set.insert(F::Generate);
        }
        set.insert(F::PythonEval);
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closure_is_a_lambda_a_method_reference_or_scalas_placeholder() {
        for closure in [
            "(r -> r.getAge() > 30)",
            "(car => car.Name)",
            "(Job::keep)",
            "(_.Horsepower.getOrElse(0L) > 140)",
            "(_ + _)",
            "(_ < 100)",
        ] {
            assert!(passes_closure(closure), "{closure}");
        }
        for condition in [
            "(col(\"first_name\") > 1)",
            "(df._c0 > 1)",
            "(\"_\")",
            "(F.col(\"x\") == 2)",
        ] {
            assert!(!passes_closure(condition), "{condition}");
        }
    }

    #[test]
    fn select_with_an_aggregate_is_an_aggregation() {
        let plain = call_families("select", &["upper".into()]);
        assert!(plain.contains(F::Project));
        assert!(!plain.contains(F::Aggregate));
        let agg = call_families("select", &["kurtosis".into()]);
        assert!(agg.contains(F::Aggregate));
        assert!(
            call_families("withColumn", &["rownumber".into(), "over".into()]).contains(F::Window)
        );
    }

    #[test]
    fn an_unpivot_expands_rows_and_an_explode_generates_them() {
        for method in ["unpivot", "melt"] {
            assert!(call_families(method, &[]).contains(F::Expand), "{method}");
        }
        assert!(!call_families("explode", &[]).contains(F::Expand));
        assert!(call_families("explode", &[]).contains(F::Generate));
    }

    #[test]
    fn readers_scan_and_writers_do_not() {
        assert!(call_families("parquet", &[]).contains(F::Scan));
        assert!(call_families("createDataFrame", &[]).contains(F::Scan));
        assert!(!call_families("saveAsTable", &[]).contains(F::Scan));
        // Registering a frame as a view reads nothing: a scan under a query of the view is the
        // frame's reader's, or the query's `FROM` (the benchmark never labels the registration).
        for register in [
            "createOrReplaceTempView",
            "createTempView",
            "createGlobalTempView",
        ] {
            assert!(
                !call_families(register, &[]).contains(F::Scan),
                "{register}"
            );
        }
        assert!(call_families("frobnicate", &[]).is_empty());
    }

    #[test]
    fn sample_by_is_a_filter_and_sample_a_sample() {
        // Spark plans `sampleBy("key", {0: 0.1}, 0)` as `Filter UDF(key, rand(0))`.
        let by = call_families("sampleBy", &[]);
        assert!(by.contains(F::Filter) && !by.contains(F::Sample));
        assert!(call_families("sample", &[]).contains(F::Sample));
    }

    #[test]
    fn where_conjuncts_can_be_implicit_joins() {
        let set = clause_families(SqlClauseKind::WherePredicate, &[]);
        assert!(set.contains(F::Filter) && set.contains(F::Join));
        assert!(clause_families(SqlClauseKind::GroupBy, &[]).contains(F::Aggregate));
    }
}
