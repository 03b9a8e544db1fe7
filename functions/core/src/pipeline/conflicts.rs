//! Evidence that rules a site out: what the site says the plan node plainly does not.
//!
//! Look-alike statements share most of their evidence (`df.join(o, "id", "left")` and
//! `df.join(o, "id", "inner")`; `sort(col("w").desc())` and `sort(col("w").asc_nulls_last())`),
//! so matching what they share cannot choose between them. What one of them says *against* the
//! node can:
//!
//! * **join type** — the site names a join type (`how="left"`) and the node's join is another;
//!   or the node joins on column names (a Project over it keeps one `k`) and the site compares;
//! * **sort direction** — the site sorts descending and the Sort is ascending, or the reverse; or
//!   one of them puts nulls where the direction does not by default (`asc_nulls_last`,
//!   `DESC NULLS FIRST`) and the other does not;
//! * **null test** — the site tests `isNotNull` and the Filter tests `isnull`, or the reverse;
//! * **sampling with replacement** — the site says `True` and the Sample samples without
//!   replacement, or the reverse;
//! * **aggregate functions** — the site aggregates with functions the Aggregate never computes
//!   (`count` for a `first`-only aggregate), or computes any (`agg(sum(x))`) where the Aggregate
//!   only removes duplicates (`distinct()`, `dropDuplicates()`: keys and no functions) — unless the
//!   site's own aggregate is a distinct one (`countDistinct` plans such a step first);
//! * **de-duplicated columns** — the site de-duplicates named columns (`select(a, b).distinct()`)
//!   and the node de-duplicates whole rows over columns beyond them (`dropDuplicates()` of a wider
//!   frame): a de-duplication's keys are exactly the columns it sees; or the site keeps columns
//!   beside its keys (`dropDuplicates("a")` plans `first(b)`) where the node has keys only;
//! * **grouping keys** — the site groups by a column the node does not key on
//!   (`groupBy("city", "year")` against keys `[city]`);
//! * **pivot values** — the site pivots into the values it names and the node into others;
//! * **filled columns** — the site fills nulls in the columns it names and the node fills others
//!   too (`na.fill(0, ["population"])` against `coalesce(id, 0) AS id, …`), or with a value the
//!   node never puts in;
//! * **aliases** — the site names its results and the node's results carry none of those names
//!   (Spark keeps user aliases, so `percentile_approx(x, 0.25, …)` as a result name means the
//!   code wrote no alias).
//! * **in-memory column types** — the site's rows or schema make a column a long (Python's whole
//!   numbers, Scala's `1L`, `LongType`) where the node's scan holds no long (`id#0`), or the
//!   reverse (`id#0L` against strings);
//! * **file format** — the site reads another format than the scan's files (`format("json")`
//!   against `Scan text`);
//! * **files read** — the site's literals name files (`read.csv("Ecommerce_Customers.csv")`)
//!   and the scan's paths name none of them (`…/customer_churn.csv`);
//! * **catalog table** — the site reads a database's table by name (`read.table("db.t")`) and
//!   the scan names no table, only its files' location (a reader of paths planned it) — or the
//!   reverse: the site reads files by path (`read.json(path)`) and the scan is of a catalog
//!   table (`Scan json spark_catalog.default.flights`: a `FROM flights` over that table ran);
//! * **rows' holder** — the scan's rows are an RDD's (`Scan ExistingRDD`) and the site, JVM
//!   code, makes its frame of a local collection (`Seq(…).toDF`, which plans a `LocalTableScan`),
//!   or the reverse (`parallelize(…).toDF` against a `LocalTableScan`);
//! * **language** — the scan's rows were handed over by Python (`applySchemaToPythonRDD`) and
//!   the site is Scala or Java code (a translation of the Python that ran); and for any
//!   operator, when such rows or a Python UDF's evaluation anywhere in its plan show Python drove
//!   the query;
//! * **CSV header** — the site reads CSV without a header row or a schema and the scan's columns
//!   are named, or the reverse (Spark names a headerless CSV's columns `_c0`, `_c1`, …);
//! * **range** — the site makes a range of other bounds (`spark.range(10)` against
//!   `Range (0, 1, …)`), or rows it writes in memory where the node is a Range;
//! * **columns renamed** — the site names every column anew (`toDF("a", "b", "c")`) and the
//!   node keeps a column under a name the site does not give;
//! * **columns only dropped** — the node passes every result through and leaves columns out, and
//!   the site, dropping nothing, names one of those columns;
//! * **rows kept** — the site keeps a number of rows (`limit(0)`, `first()`'s one, `show()`'s 21)
//!   and the Limit another;
//! * **window function** — the site computes a ranking or offset window function (`rank()`)
//!   and the node's window another (`dense_rank()`);
//! * **described columns** — the site describes the columns it names (`describe(["number"])`) and
//!   the node's statistics cover another (`describe()` of every column);
//! * **Python UDF** — the site calls a Python UDF and the node reads no UDF's result (a query
//!   calling one plans `sum(pythonUDF0)` over the UDF's evaluation);
//! * **compiled class** — the node runs a closure compiled in another class than the one around
//!   the site (`RDDs.scala`'s `map(_.genre)` against `MapElements Datasets$$$Lambda$42`);
//! * **columns returned** — the code reads a column by name from the rows the site's chain
//!   collects (`….toPandas()["ig"]`), or selects it right before collecting them, and the
//!   node's query returns no such column (`[attribute, iv]`); or it selects plain columns right
//!   before collecting (or handing the rows to RDD code) and the query returns others besides.
//!
//! A conflict does not exclude a site — the plan may be an optimised rewrite — it multiplies its
//! score by [`CONFLICT_PENALTY`]. One contradiction does exclude it, as no rewrite explains it: a
//! grouping by keys the site names against an aggregate of every row
//! ([`groups_where_node_aggregates_all`], checked by `localise::can_produce`).

use super::evidence::{
    DISTINCT, DROPPED_COLUMN, Evidence, FILL_VALUE, FILLED_COLUMN, Grouping, JOINED_ON_NAMES,
    KEY_LEFT_OUT, PIVOT_VALUE, STATISTIC_PICKED, TokenKind, WITH_REPLACEMENT, normalise_function,
};
use super::operations::{AGGREGATE_FUNCTIONS, WINDOW_FUNCTIONS};
use super::semantics::{is_join_type_word, is_outer_join_word};
use crate::code::lang::vocab::{ASC_NULLS_LAST, DESC_NULLS_FIRST, PYTHON_UDF_CALL};
use crate::plan::OperatorFamily;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// Score factor for a site whose evidence contradicts the node's.
pub const CONFLICT_PENALTY: f64 = 0.55;

/// Whether `site` says something the node (`family`, `node`) rules out (see module docs).
pub fn conflicts(family: OperatorFamily, node: &Evidence, site: &Evidence) -> bool {
    if node.driven_by_python && site.in_jvm_code {
        return true;
    }
    if let (Some(closure), Some(around)) = (&node.compiled_in, &site.compiled_in)
        && closure != around
    {
        return true;
    }
    if calls_a_udf_the_node_does_not_read(family, node, site) {
        return true;
    }
    if !node.result_columns.is_empty()
        && (!site.returns_columns.is_subset(&node.result_columns)
            || site.returns_exactly && site.returns_columns != node.result_columns)
    {
        return true;
    }
    let statistics_family = matches!(
        family,
        OperatorFamily::Aggregate | OperatorFamily::Generate | OperatorFamily::Project
    );
    if statistics_family && describes_other_columns(node, site) {
        return true;
    }
    match family {
        OperatorFamily::Join => {
            let node_types = values(node, TokenKind::Literal, is_join_type_word);
            let site_types = values(site, TokenKind::Literal, is_join_type_word);
            // A join on names keeps one key; a join on a condition compares two — and keeps
            // one only where a projection right after it narrows the columns.
            let on_names = |e: &Evidence| e.has(TokenKind::Literal, JOINED_ON_NAMES);
            if on_names(node) && !on_names(site) && !site.narrowed_after_join
                || on_names(site) && node.keeps_both_keys
            {
                return true;
            }
            if node_types.is_empty() {
                // An inner join carries no type word: only `how="inner"` agrees with it — or an
                // outer join, when a test above rejects the rows it pads with nulls.
                site_types
                    .iter()
                    .any(|t| *t != "inner" && !(node.nulls_rejected_above && is_outer_join_word(t)))
            } else {
                disjoint_named(node_types, site_types)
            }
        }
        OperatorFamily::Sort => {
            // `desc`, `desc_nulls_first`, … / `asc`, `asc_nulls_last`, …
            let direction = |e: &Evidence, prefix: &str| {
                !values(e, TokenKind::Function, |v| v.starts_with(prefix)).is_empty()
            };
            // The plan names only descending keys; a site mixing directions (`a.asc, b.desc`)
            // agrees with any plan that has a descending key.
            let node_descending = direction(node, "desc");
            let site_descending = direction(site, "desc");
            site_descending && !node_descending
                || direction(site, "asc") && !site_descending && node_descending
                || values(node, TokenKind::Function, is_explicit_null_ordering)
                    != values(site, TokenKind::Function, is_explicit_null_ordering)
        }
        OperatorFamily::Filter => {
            let tests = |e: &Evidence| {
                (
                    e.has(TokenKind::Function, "isnull"),
                    e.has(TokenKind::Function, "isnotnull"),
                )
            };
            matches!(
                (tests(node), tests(site)),
                ((true, false), (false, true)) | ((false, true), (true, false))
            )
        }
        OperatorFamily::Aggregate => {
            let is_aggregate = |v: &str| AGGREGATE_FUNCTIONS.contains(&v);
            let node_aggregates = values(node, TokenKind::Function, is_aggregate);
            let site_aggregates = values(site, TokenKind::Function, is_aggregate);
            let only_deduplicates = node.has(TokenKind::Function, DISTINCT)
                && node_aggregates.iter().all(|f| *f == "first");
            let site_computes = site_aggregates.iter().any(|f| *f != "first")
                && !site.has(TokenKind::Function, DISTINCT);
            // Keys and nothing else: a whole-row de-duplication (`distinct()`).
            let node_only_keys = node.deduplicates_only();
            let site_keeps_columns = site_aggregates.iter().eq(["first"].iter());
            only_deduplicates && site_computes
                || node_only_keys && site_keeps_columns
                || node_only_keys && narrower_deduplication(node, site, &site_aggregates)
                || !node_aggregates.is_empty()
                    && computes_elsewhere_than_the_aggregate(node, site, &site_aggregates)
                || disjoint_named(node_aggregates, site_aggregates)
                || aliases_conflict(node, site)
                || pivots_into_other_values(node, site)
                // a result leaving a key out is no DataFrame grouping, which returns its keys
                || site.returns_keys
                    && !values(node, TokenKind::Literal, |v| v.starts_with(KEY_LEFT_OUT)).is_empty()
                // grouped by keys or over every row: each plans only its own kind
                || matches!((node.grouping, site.grouping), (Some(n), Some(s)) if n != s)
                || groups_by_other_keys(node, site)
        }
        OperatorFamily::Limit => limits_to_other_count(node, site),
        // `sample(True, …)` samples with replacement; the plan says whether it did.
        OperatorFamily::Sample => {
            node.has(TokenKind::Literal, WITH_REPLACEMENT)
                != site.has(TokenKind::Literal, WITH_REPLACEMENT)
        }
        OperatorFamily::Project => {
            aliases_conflict(node, site)
                || picks_statistics_it_does_not(node, site)
                || fills_other_columns(node, site)
                || drops_other_columns(node, site)
                || uses_a_column_the_node_only_drops(node, site)
                || renames_a_column_kept(node, site)
        }
        OperatorFamily::Window => {
            aliases_conflict(node, site) || computes_another_window_function(node, site)
        }
        // rows whose columns' classes contradict the scan's, files of another format or others
        OperatorFamily::Scan => {
            node.column_longs.iter().any(|(column, long)| {
                site.column_longs
                    .get(column)
                    .is_some_and(|written| written != long)
            }) || matches!((&node.file_format, &site.file_format), (Some(n), Some(s)) if n != s)
                || reads_other_files(node, site)
                || reads_from_another_folder(node, site)
                || matches!((node.headerless_csv, site.headerless_csv), (Some(n), Some(s)) if n != s)
                || node.scans_files_only && site.reads_catalog_table
                || node.scans_catalog_table && site.reads_files_by_path
                || node.file_format.is_some() && site.makes_rows_in_memory
                || matches!((node.rows_from_rdd, site.rows_from_rdd), (Some(n), Some(s)) if n != s)
                || node.made_by_python && site.in_jvm_code
                || makes_another_range(node, site)
        }
        _ => false,
    }
}

/// A site calling a Python UDF against an operator reading no UDF's result: a query calling one
/// plans its evaluation, and the operator reading its result names it (`sum(pythonUDF0)`).
fn calls_a_udf_the_node_does_not_read(
    family: OperatorFamily,
    node: &Evidence,
    site: &Evidence,
) -> bool {
    let reads_results = matches!(
        family,
        OperatorFamily::Aggregate
            | OperatorFamily::Project
            | OperatorFamily::Filter
            | OperatorFamily::Window
    );
    reads_results && site.has(TokenKind::Function, PYTHON_UDF_CALL) && !node.reads_udf_result()
}

/// A conflict the node's columns do not explain away: the site contradicts the node and does not
/// name every column the node uses. An optimiser's rewrite keeps the columns (an aggregate whose
/// result nobody reads is pruned, `groupBy(k).count().groupBy(j)` plans `k` alone), so a site
/// naming them all may still be the code; one that also misses columns is other code. No rewrite
/// changes the values a pivot pivots into.
pub fn conflicts_beyond_rewrite(family: OperatorFamily, node: &Evidence, site: &Evidence) -> bool {
    family == OperatorFamily::Aggregate && pivots_into_other_values(node, site)
        || conflicts(family, node, site)
            && !values(node, TokenKind::Column, |_| true).is_subset(&values(
                site,
                TokenKind::Column,
                |_| true,
            ))
}

/// A site grouping by keys it names (`groupBy("a", "b")`, `GROUP BY a, b`) against an aggregate
/// of every row: no rewrite of that code aggregates without keys (Spark keeps a constant key in
/// place of literal ones), so the site cannot have produced the node, however many of its
/// columns it names.
pub fn groups_where_node_aggregates_all(
    family: OperatorFamily,
    node: &Evidence,
    site: &Evidence,
) -> bool {
    family == OperatorFamily::Aggregate && drops_named_keys(node, site)
}

/// A site grouping by keys it names (`groupBy("a", "b")`) against an aggregate of every row.
fn drops_named_keys(node: &Evidence, site: &Evidence) -> bool {
    node.grouping == Some(Grouping::Global)
        && site.grouping == Some(Grouping::Keyed)
        && !site.group_keys.is_empty()
}

/// A site grouping by a column the node does not key on (`groupBy("city", "year")` against an
/// aggregate keyed by `city` alone). Keys the node has beyond the site's are no conflict: a
/// rollup, a pivot or a distinct aggregate adds its own.
fn groups_by_other_keys(node: &Evidence, site: &Evidence) -> bool {
    !node.group_keys.is_empty() && !site.group_keys.is_subset(&node.group_keys)
}

/// A site keeping a number of rows (`limit(0)`, `take(5)`, `first()`'s one) while the node keeps
/// another (`CollectLimit 1`).
fn limits_to_other_count(node: &Evidence, site: &Evidence) -> bool {
    matches!((node.kept_rows, site.kept_rows), (Some(n), Some(s)) if n != s)
}

/// A site's `spark.range(…)` of other bounds than the node's Range (`range(10)` against
/// `Range (0, 1, …)`), or rows the site writes in memory (`createDataFrame(rows)`) against a
/// Range, which only a range makes.
fn makes_another_range(node: &Evidence, site: &Evidence) -> bool {
    match (node.range_bounds, site.range_bounds) {
        (Some(n), Some(s)) => n != s,
        (Some(_), None) => site.makes_rows_in_memory,
        (None, _) => false,
    }
}

/// The column `describe()` / `summary()` name their rows of statistics by.
const STATISTIC_NAME_COLUMN: &str = "summary";

/// A `describe("a")` / `summary` naming the columns it describes, while the node computes or
/// lays out statistics of a column it does not name (`describe()` of every column): Spark
/// describes exactly the columns given, or every column when none is.
fn describes_other_columns(node: &Evidence, site: &Evidence) -> bool {
    let describes = site.has(TokenKind::Function, "explode")
        && site.has(TokenKind::Literal, "stddev")
        && site.has(TokenKind::Literal, "max");
    let site_columns = values(site, TokenKind::Column, |_| true);
    // The plan prints `Coach Name#2` unquoted, so the node may hold only a name's last word.
    let named = |c: &str| {
        site_columns
            .iter()
            .any(|s| *s == c || s.split(|ch: char| !ch.is_alphanumeric()).any(|w| w == c))
    };
    describes
        && !site_columns.is_empty()
        && values(node, TokenKind::Column, |c| c != STATISTIC_NAME_COLUMN)
            .iter()
            .any(|c| !named(c))
}

/// The Project laying out `describe()`'s / `summary()`'s statistics — each column's picked out of
/// its map by the statistic's name (`element_at(age, summary, …) AS age`) — against a site that
/// picks nothing out of a map: a `select("age")` naming the same column is other code, whose
/// projection Spark would print as the column alone.
fn picks_statistics_it_does_not(node: &Evidence, site: &Evidence) -> bool {
    node.has(TokenKind::Function, STATISTIC_PICKED)
        && node.has(TokenKind::Column, STATISTIC_NAME_COLUMN)
        && !site.has(TokenKind::Function, STATISTIC_PICKED)
}

/// A call computing no aggregate, only functions the aggregate does not compute
/// (`result.select(format_number(result["Open"].cast("float"), 2))` after a `describe()`): it
/// projects what some aggregate made, and a projection Spark folds into an aggregate shows its
/// functions in the aggregate's results. (A de-duplication computes no aggregate: the projection
/// folded into it, `withColumn("flag", when(…))`, is its code — [`Evidence::folds_projection`].)
fn computes_elsewhere_than_the_aggregate(
    node: &Evidence,
    site: &Evidence,
    site_aggregates: &BTreeSet<&str>,
) -> bool {
    let site_functions = values(site, TokenKind::Function, |_| true);
    site_aggregates.is_empty()
        && !site_functions.is_empty()
        && site_functions
            .iter()
            .all(|f| !node.has(TokenKind::Function, f))
}

/// A reader naming files in its literals (`read.csv("Ecommerce_Customers.csv")`) none of which
/// the scan's paths name (`…/customer_churn.csv`).
fn reads_other_files(node: &Evidence, site: &Evidence) -> bool {
    !site.named_files.is_empty()
        && node.tokens.iter().any(|(k, _)| *k == TokenKind::Path)
        && site
            .named_files
            .iter()
            .all(|f| !node.has(TokenKind::Path, f))
}

/// A reader naming the scan's file by a path relative to the working folder that the scan's path
/// passes through but does not end with (`read.parquet("data/orders.parquet")` against
/// `…/data/raw/orders.parquet`): the same file name in another folder of the same tree is another
/// file. A scan's path not holding the relative path's first folder at all says nothing: the data
/// was copied or mounted elsewhere wholesale (`data/input/x.csv` read from `/mnt/datasets/x.csv`).
fn reads_from_another_folder(node: &Evidence, site: &Evidence) -> bool {
    fn file(tail: &str) -> &str {
        tail.rsplit('/').next().unwrap_or(tail)
    }
    let ends_with = |path: &str, tail: &str| {
        path == tail
            || path
                .strip_suffix(tail)
                .is_some_and(|head| head.ends_with('/'))
    };
    // Each relative path of the site naming a file the node scans, with the node's paths to it.
    // (Most sites name no relative path: nothing is gathered for them.)
    let mut of_scanned_files = site
        .working_folder_tails
        .iter()
        .filter_map(|tail| {
            let scans: Vec<&String> = node
                .path_tails
                .iter()
                .filter(|path| file(path) == file(tail))
                .collect();
            (!scans.is_empty()).then_some((tail, scans))
        })
        .peekable();
    of_scanned_files.peek().is_some()
        && of_scanned_files.all(|(tail, scans)| {
            let first_folder = tail.split('/').next().unwrap_or_default();
            scans.iter().all(|path| !ends_with(path, tail))
                && scans
                    .iter()
                    .any(|path| path.split('/').any(|f| f == first_folder))
        })
}

/// A site that de-duplicates over named columns — by itself, or as the keys-only step a distinct
/// aggregate plans (`countDistinct("a", "b")`) — while the node (keys only) keys on a column the
/// site does not name: the node de-duplicates over more than the site sees.
fn narrower_deduplication(
    node: &Evidence,
    site: &Evidence,
    site_aggregates: &BTreeSet<&str>,
) -> bool {
    let only_distinct_aggregates = site_aggregates.iter().all(|f| f.ends_with(DISTINCT));
    if !site.has(TokenKind::Function, DISTINCT) || !only_distinct_aggregates {
        return false;
    }
    let site_columns = values(site, TokenKind::Column, |_| true);
    !site_columns.is_empty() && !values(node, TokenKind::Column, |_| true).is_subset(&site_columns)
}

/// The site pivots into the values it names (`pivot("g", ["Male"])`) and the node into others
/// (`pivotfirst(g, …, Female, Male, …)`).
fn pivots_into_other_values(node: &Evidence, site: &Evidence) -> bool {
    let pivot = |v: &str| v.starts_with(PIVOT_VALUE);
    let (n, s) = (
        values(node, TokenKind::Literal, pivot),
        values(site, TokenKind::Literal, pivot),
    );
    !n.is_empty() && !s.is_empty() && n != s
}

/// A null ordering only code asks for (`asc_nulls_last`, SQL `DESC NULLS FIRST`): every other
/// sort puts nulls where its direction does by default, so the plan's null ordering and the
/// site's must agree.
fn is_explicit_null_ordering(normalised: &str) -> bool {
    // Evidence holds function names as `normalise_function` spells them.
    static NAMES: LazyLock<[String; 2]> = LazyLock::new(|| {
        [
            normalise_function(ASC_NULLS_LAST),
            normalise_function(DESC_NULLS_FIRST),
        ]
    });
    NAMES.iter().any(|name| name == normalised)
}

/// The site fills nulls in the columns it names (`na.fill(0, ["population"])`) and the node fills
/// others too (`coalesce(id, 0) AS id`): a fill without a subset, or another one; or the site
/// fills with a value the node never puts in (`fill(0)` against `coalesce(city, ) AS city`).
fn fills_other_columns(node: &Evidence, site: &Evidence) -> bool {
    let filled = |v: &str| v.starts_with(FILLED_COLUMN);
    let value = |v: &str| v.starts_with(FILL_VALUE);
    // Most sites fill nothing: check that side first, it is the cheap one.
    let (site_filled, site_values) = (
        values(site, TokenKind::Literal, filled),
        values(site, TokenKind::Literal, value),
    );
    if site_filled.is_empty() && site_values.is_empty() {
        return false;
    }
    !site_filled.is_empty()
        && !site.fills_every_column()
        && !values(node, TokenKind::Literal, filled).is_subset(&site_filled)
        || disjoint_named(values(node, TokenKind::Literal, value), site_values)
}

/// The site names every column anew (`toDF("student_id", "student_name", "student_address")`)
/// and the node keeps one under its own name, which the site does not give (`id AS student_id,
/// name AS student_name, state`: two `withColumnRenamed`s).
fn renames_a_column_kept(node: &Evidence, site: &Evidence) -> bool {
    site.renames_every_column
        && node
            .passed_through
            .iter()
            .any(|column| !site.has(TokenKind::Alias, column))
}

/// The site drops a column the node keeps or never had (`drop("department", "url")` against a
/// Project leaving out only `url`). Several drops in a row plan one Project, so a site dropping
/// some of the node's columns is no conflict.
fn drops_other_columns(node: &Evidence, site: &Evidence) -> bool {
    let dropped = |v: &str| v.starts_with(DROPPED_COLUMN);
    let site_dropped = values(site, TokenKind::Literal, dropped);
    if site_dropped.is_empty() {
        return false;
    }
    let node_dropped = values(node, TokenKind::Literal, dropped);
    !node_dropped.is_empty() && !site_dropped.is_subset(&node_dropped)
}

/// The node only leaves columns out (every result passed through, no alias) and the site, which
/// drops nothing, names one of those columns (`select(…, F.col("ingest_ts"))` upstream of the
/// `drop("_rn", "ingest_ts")` the node is): a projection using the column would keep it or
/// compute from it, and the node does neither.
fn uses_a_column_the_node_only_drops(node: &Evidence, site: &Evidence) -> bool {
    let dropped = |v: &str| v.starts_with(DROPPED_COLUMN);
    if !values(site, TokenKind::Literal, dropped).is_empty()
        || !values(node, TokenKind::Alias, |_| true).is_empty()
    {
        return false;
    }
    // (not a join's second key of the same name, whose first the node keeps; nor what a site
    // making the column names, `withColumn("_rn", …)`, upstream of any drop of it)
    values(node, TokenKind::Literal, dropped).iter().any(|d| {
        let column = &d[DROPPED_COLUMN.len()..];
        !node.has(TokenKind::Column, column)
            && site.has(TokenKind::Column, column)
            && !site.has(TokenKind::Alias, column)
    })
}

/// Both sides name something of a kind and share none of it.
fn disjoint_named(node: BTreeSet<&str>, site: BTreeSet<&str>) -> bool {
    !node.is_empty() && !site.is_empty() && node.is_disjoint(&site)
}

fn aliases_conflict(node: &Evidence, site: &Evidence) -> bool {
    // Most sites name nothing: check that side first, it is the cheap one.
    let site_aliases = values(site, TokenKind::Alias, |_| true);
    if site_aliases.is_empty() {
        return false;
    }
    let node_aliases = values(node, TokenKind::Alias, |_| true);
    // A plan alias may also be a column a later statement selects: only names count.
    let node_names: BTreeSet<&str> = node_aliases
        .union(&values(node, TokenKind::Column, |_| true))
        .copied()
        .collect();
    !node_aliases.is_empty() && site_aliases.is_disjoint(&node_names)
}

/// A site computing window functions ([`WINDOW_FUNCTIONS`]) none of which the node's window
/// computes (`rank().over(w)` against the plan's `dense_rank()`): which one a window computes is
/// no rewrite's choice.
fn computes_another_window_function(node: &Evidence, site: &Evidence) -> bool {
    let of = |e| values(e, TokenKind::Function, |f| WINDOW_FUNCTIONS.contains(&f));
    let (node_functions, site_functions) = (of(node), of(site));
    !node_functions.is_empty()
        && !site_functions.is_empty()
        && node_functions.is_disjoint(&site_functions)
}

fn values(e: &Evidence, kind: TokenKind, keep: impl Fn(&str) -> bool) -> BTreeSet<&str> {
    e.values(kind).filter(|v| keep(v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_site_calling_a_python_udf_did_not_plan_a_node_reading_no_udf_result() {
        let mut calls_udf = Evidence::default();
        calls_udf.add(TokenKind::Function, PYTHON_UDF_CALL);
        calls_udf.add(TokenKind::Function, "sum");
        let mut plain_sum = Evidence::default();
        plain_sum.add(TokenKind::Function, "sum");
        plain_sum.add(TokenKind::Column, "l_extendedprice");
        let mut udf_sum = Evidence::default();
        udf_sum.add(TokenKind::Function, "sum");
        udf_sum.add(TokenKind::Column, "pythonUDF0");
        let aggregate = OperatorFamily::Aggregate;
        assert!(conflicts(aggregate, &plain_sum, &calls_udf));
        assert!(!conflicts(aggregate, &udf_sum, &calls_udf));
        assert!(!conflicts(aggregate, &plain_sum, &plain_sum));
        // a scan reads no UDF result either way
        assert!(!conflicts(
            OperatorFamily::Scan,
            &Evidence::default(),
            &calls_udf
        ));
    }

    #[test]
    fn a_projection_naming_a_column_the_node_only_drops_is_not_that_drop() {
        let evidence = |tokens: &[(TokenKind, &str)]| {
            let mut e = Evidence::default();
            for (kind, value) in tokens {
                e.add(*kind, value);
            }
            e
        };
        let drop = |c: &str| format!("{DROPPED_COLUMN}{c}");
        let (rank, ingest) = (drop("_rn"), drop("ingest_ts"));
        // Project [event_id, …] over [event_id, …, ingest_ts, _rn]
        let node = evidence(&[
            (TokenKind::Column, "event_id"),
            (TokenKind::Literal, &rank),
            (TokenKind::Literal, &ingest),
        ]);
        let select = evidence(&[
            (TokenKind::Column, "event_id"),
            (TokenKind::Column, "ingest_ts"),
            (TokenKind::Alias, "event_id"),
        ]);
        let dropping = evidence(&[(TokenKind::Column, "_rn"), (TokenKind::Literal, &rank)]);
        let project = OperatorFamily::Project;
        assert!(conflicts(project, &node, &select));
        assert!(!conflicts(project, &node, &dropping));
        // one of two `event_id`s left out after a join keeps the name
        let deduplicated = evidence(&[
            (TokenKind::Column, "event_id"),
            (TokenKind::Literal, &drop("event_id")),
        ]);
        assert!(!conflicts(project, &deduplicated, &select));
        // a node computing a result may use the column it leaves out (`c + 1 AS y`)
        let mut computing = node.clone();
        computing.add(TokenKind::Alias, "y");
        assert!(!conflicts(project, &computing, &select));
    }

    #[test]
    fn code_reading_a_column_the_query_does_not_return_ran_another_query() {
        let returns = |columns: &[&str]| Evidence {
            result_columns: columns.iter().map(|c| c.to_string()).collect(),
            ..Evidence::default()
        };
        let reads = |columns: &[&str]| Evidence {
            returns_columns: columns.iter().map(|c| c.to_string()).collect(),
            ..Evidence::default()
        };
        let filter = OperatorFamily::Filter;
        assert!(conflicts(
            filter,
            &returns(&["attribute", "iv"]),
            &reads(&["ig"])
        ));
        assert!(!conflicts(
            filter,
            &returns(&["attribute", "iv"]),
            &reads(&["iv"])
        ));
        // a plan printing no columns, or code reading none, says nothing
        assert!(!conflicts(filter, &returns(&[]), &reads(&["ig"])));
        assert!(!conflicts(
            filter,
            &returns(&["attribute", "iv"]),
            &reads(&[])
        ));
        // a select right before collecting returns its columns and no others
        let selects = |columns: &[&str]| Evidence {
            returns_exactly: true,
            ..reads(columns)
        };
        let both = returns(&["attribute", "iv"]);
        assert!(conflicts(filter, &both, &selects(&["attribute"])));
        assert!(!conflicts(filter, &both, &selects(&["iv", "attribute"])));
        assert!(!conflicts(filter, &both, &reads(&["attribute"])));
    }

    #[test]
    fn jvm_code_did_not_make_rows_python_handed_over() {
        let python_rows = Evidence {
            made_by_python: true,
            ..Evidence::default()
        };
        let scala_site = Evidence {
            in_jvm_code: true,
            ..Evidence::default()
        };
        assert!(conflicts(OperatorFamily::Scan, &python_rows, &scala_site));
        assert!(!conflicts(
            OperatorFamily::Scan,
            &python_rows,
            &Evidence::default()
        ));
        assert!(!conflicts(
            OperatorFamily::Scan,
            &Evidence::default(),
            &scala_site
        ));
    }

    #[test]
    fn a_window_computing_another_ranking_is_no_match() {
        let window = |function: &str| {
            let mut e = Evidence::default();
            e.add(TokenKind::Function, function);
            e.add(TokenKind::Column, "tier");
            e
        };
        let plan = window("dense_rank");
        assert!(conflicts(OperatorFamily::Window, &plan, &window("rank")));
        assert!(!conflicts(
            OperatorFamily::Window,
            &plan,
            &window("DENSE_RANK")
        ));
        // a window naming no ranking function (a spec held in a variable) says nothing
        let mut spec = Evidence::default();
        spec.add(TokenKind::Column, "tier");
        assert!(!conflicts(OperatorFamily::Window, &plan, &spec));
    }

    #[test]
    fn jvm_code_ran_no_operator_of_a_plan_python_drove() {
        let python_driven = Evidence {
            driven_by_python: true,
            ..Evidence::default()
        };
        let scala_site = Evidence {
            in_jvm_code: true,
            ..Evidence::default()
        };
        for family in [
            OperatorFamily::Join,
            OperatorFamily::Aggregate,
            OperatorFamily::Sort,
        ] {
            assert!(conflicts(family, &python_driven, &scala_site));
            assert!(!conflicts(family, &python_driven, &Evidence::default()));
            assert!(!conflicts(family, &Evidence::default(), &scala_site));
        }
    }

    #[test]
    fn rows_made_in_memory_are_no_scan_of_files() {
        let csv_files = Evidence {
            file_format: Some("csv".to_owned()),
            ..Evidence::default()
        };
        let in_memory = Evidence {
            makes_rows_in_memory: true,
            ..Evidence::default()
        };
        assert!(conflicts(OperatorFamily::Scan, &csv_files, &in_memory));
        // a local or RDD scan names no file format
        assert!(!conflicts(
            OperatorFamily::Scan,
            &Evidence::default(),
            &in_memory
        ));
        assert!(!conflicts(
            OperatorFamily::Scan,
            &csv_files,
            &Evidence::default()
        ));
    }

    #[test]
    fn rows_an_rdd_holds_are_no_local_collections_rows() {
        let holder = |rdd: Option<bool>| Evidence {
            rows_from_rdd: rdd,
            ..Evidence::default()
        };
        let scan = OperatorFamily::Scan;
        // `Scan ExistingRDD` against `Seq(…).toDF`, `LocalTableScan` against `parallelize(…).toDF`
        assert!(conflicts(scan, &holder(Some(true)), &holder(Some(false))));
        assert!(conflicts(scan, &holder(Some(false)), &holder(Some(true))));
        assert!(!conflicts(scan, &holder(Some(true)), &holder(Some(true))));
        // a frame of a variable or a helper's rows says nothing
        assert!(!conflicts(scan, &holder(Some(true)), &holder(None)));
        assert!(!conflicts(scan, &holder(None), &holder(Some(false))));
    }

    #[test]
    fn a_reader_of_a_database_table_did_not_plan_a_scan_of_files_alone() {
        let files_only = Evidence {
            scans_files_only: true,
            ..Evidence::default()
        };
        let table_scan = Evidence::default();
        let table_reader = Evidence {
            reads_catalog_table: true,
            ..Evidence::default()
        };
        assert!(conflicts(OperatorFamily::Scan, &files_only, &table_reader));
        assert!(!conflicts(OperatorFamily::Scan, &table_scan, &table_reader));
        assert!(!conflicts(
            OperatorFamily::Scan,
            &files_only,
            &Evidence::default()
        ));
    }

    #[test]
    fn a_reader_of_files_by_path_did_not_plan_a_scan_of_a_catalog_table() {
        let catalog_scan = Evidence {
            scans_catalog_table: true,
            ..Evidence::default()
        };
        let mut view_scan = Evidence::default();
        view_scan.add(TokenKind::Table, "flights");
        let path_reader = Evidence {
            file_format: Some("json".to_owned()),
            reads_files_by_path: true,
            ..Evidence::default()
        };
        let mut table_reader = Evidence::default();
        table_reader.add(TokenKind::Table, "flights");
        assert!(conflicts(OperatorFamily::Scan, &catalog_scan, &path_reader));
        assert!(!conflicts(
            OperatorFamily::Scan,
            &catalog_scan,
            &table_reader
        ));
        // a name without a database is a view's, and a view may stand for a reader of paths
        assert!(!conflicts(OperatorFamily::Scan, &view_scan, &path_reader));
    }

    #[test]
    fn a_csv_reader_naming_no_column_did_not_read_named_columns() {
        let csv = |headerless: bool| Evidence {
            file_format: Some("csv".to_owned()),
            headerless_csv: Some(headerless),
            ..Evidence::default()
        };
        assert!(conflicts(OperatorFamily::Scan, &csv(false), &csv(true)));
        assert!(conflicts(OperatorFamily::Scan, &csv(true), &csv(false)));
        assert!(!conflicts(OperatorFamily::Scan, &csv(true), &csv(true)));
        // a scan that reads no column says nothing either way
        let unknown = Evidence {
            file_format: Some("csv".to_owned()),
            ..Evidence::default()
        };
        assert!(!conflicts(OperatorFamily::Scan, &unknown, &csv(true)));
    }

    #[test]
    fn a_reader_naming_only_other_files_did_not_read_the_scans() {
        let mut node = Evidence::default();
        node.add(TokenKind::Path, "file:/tmp/run/ml/customer_churn.csv");
        let reader = |literals: &[&str]| Evidence {
            named_files: literals
                .iter()
                .filter_map(|p| crate::pipeline::evidence::named_file(p))
                .collect(),
            ..Evidence::default()
        };
        let scan = OperatorFamily::Scan;
        assert!(conflicts(
            scan,
            &node,
            &reader(&["Ecommerce_Customers.csv"])
        ));
        assert!(!conflicts(
            scan,
            &node,
            &reader(&["data/customer_churn.csv"])
        ));
        // one of several files read is the scan's
        assert!(!conflicts(
            scan,
            &node,
            &reader(&["a.csv", "customer_churn.csv"])
        ));
        // a folder, a glob or a name built at run time may stand for the scan's file
        assert!(!conflicts(
            scan,
            &node,
            &reader(&["data/", "part-*.csv", "{name}.csv"])
        ));
        // a scan of a table names no file
        assert!(!conflicts(
            scan,
            &Evidence::default(),
            &reader(&["other.csv"])
        ));
    }

    #[test]
    fn a_reader_of_a_relative_path_the_scan_does_not_end_with_read_another_folder() {
        let mut node = Evidence::default();
        node.add(TokenKind::Path, "file:/tmp/run/A/data/raw/orders.parquet");
        let reader = |paths: &[&str]| Evidence {
            working_folder_tails: paths
                .iter()
                .filter_map(|p| crate::pipeline::evidence::working_folder_tail(p))
                .collect(),
            ..Evidence::default()
        };
        let scan = OperatorFamily::Scan;
        assert!(conflicts(scan, &node, &reader(&["data/orders.parquet"])));
        assert!(conflicts(
            scan,
            &node,
            &reader(&["./raw/data/orders.parquet"])
        ));
        // data copied or mounted elsewhere wholesale keeps none of the path's folders
        assert!(!conflicts(scan, &node, &reader(&["input/orders.parquet"])));
        // resolved from any working folder, these end the scan's path
        for path in [
            "data/raw/orders.parquet",
            "raw/orders.parquet",
            "../data/raw/orders.parquet",
            "orders.parquet",
        ] {
            assert!(!conflicts(scan, &node, &reader(&[path])), "{path}");
        }
        // an absolute path, a URL or a folder built at run time may be moved by a mount or a
        // copy of the data
        for path in [
            "/data/orders.parquet",
            "dbfs:/data/orders.parquet",
            "p2c_param/data/orders.parquet",
        ] {
            assert!(!conflicts(scan, &node, &reader(&[path])), "{path}");
        }
        // a path to another file is for `reads_other_files` to judge, and one of several paths
        // ending the scan's is enough
        assert!(!conflicts(
            scan,
            &node,
            &reader(&["data/customers.parquet"])
        ));
        assert!(!conflicts(
            scan,
            &node,
            &reader(&["data/orders.parquet", "A/data/raw/orders.parquet"])
        ));
    }

    #[test]
    fn a_site_keeping_another_number_of_rows_is_another_limit() {
        let rows = |kept_rows: Option<u64>| Evidence {
            kept_rows,
            ..Evidence::default()
        };
        let limit = OperatorFamily::Limit;
        // `CollectLimit 1` (an `isEmpty`) against `limit(0)`
        assert!(conflicts(limit, &rows(Some(1)), &rows(Some(0))));
        assert!(!conflicts(limit, &rows(Some(1)), &rows(Some(1))));
        // a site saying no number says nothing against it
        assert!(!conflicts(limit, &rows(Some(1)), &rows(None)));
    }

    #[test]
    fn a_describe_of_named_columns_did_not_describe_others() {
        let describe = |columns: &[&str]| {
            let mut e = Evidence::default();
            e.add(TokenKind::Function, "explode");
            for row in ["count", "mean", "stddev", "min", "max"] {
                e.add(TokenKind::Function, row);
                e.add(TokenKind::Literal, row);
            }
            for c in columns {
                e.add(TokenKind::Column, c);
            }
            e
        };
        let statistics = |columns: &[&str]| {
            let mut e = Evidence::default();
            e.add(TokenKind::Function, "stddev");
            for c in columns {
                e.add(TokenKind::Column, c);
            }
            e
        };
        let agg = OperatorFamily::Aggregate;
        let every_column = statistics(&["number", "name"]);
        assert!(conflicts(agg, &every_column, &describe(&["number"])));
        assert!(!conflicts(agg, &every_column, &describe(&[])));
        assert!(!conflicts(
            agg,
            &statistics(&["number"]),
            &describe(&["number"])
        ));
        // the rows' `summary` column is describe's own; `Coach Name#2` prints as `Name`
        let project = OperatorFamily::Project;
        assert!(!conflicts(
            project,
            &statistics(&["summary", "number"]),
            &describe(&["number"])
        ));
        assert!(!conflicts(
            agg,
            &statistics(&["name"]),
            &describe(&["coach name"])
        ));
    }

    #[test]
    fn a_grouping_by_a_column_the_aggregate_does_not_key_on_is_another() {
        let keyed = |keys: &[&str]| Evidence {
            group_keys: keys.iter().map(|k| k.to_string()).collect(),
            ..Evidence::default()
        };
        let agg = OperatorFamily::Aggregate;
        let node = keyed(&["city"]);
        assert!(conflicts(agg, &node, &keyed(&["city", "year"])));
        assert!(!conflicts(agg, &node, &keyed(&["city"])));
        // a rollup, pivot or distinct aggregate keys on more than the code names
        assert!(!conflicts(
            agg,
            &keyed(&["city", "year", "spark_grouping_id"]),
            &node
        ));
        // keys pulled out of expressions (unknown) or a site naming none say nothing
        assert!(!conflicts(agg, &keyed(&[]), &keyed(&["city", "year"])));
        assert!(!conflicts(agg, &node, &keyed(&[])));
    }

    #[test]
    fn a_closure_compiled_in_another_class_is_other_code() {
        let class = |name: Option<&str>| Evidence {
            compiled_in: name.map(str::to_owned),
            ..Evidence::default()
        };
        let node = class(Some("Datasets"));
        assert!(conflicts(
            OperatorFamily::Project,
            &node,
            &class(Some("RDDs"))
        ));
        assert!(!conflicts(
            OperatorFamily::Project,
            &node,
            &class(Some("Datasets"))
        ));
        // Python code, or a plan without a closure, says nothing either way
        assert!(!conflicts(OperatorFamily::Project, &node, &class(None)));
        assert!(!conflicts(
            OperatorFamily::Project,
            &class(None),
            &class(Some("RDDs"))
        ));
    }

    fn bag(tokens: &[(TokenKind, &str)]) -> Evidence {
        let mut e = Evidence::default();
        for (k, v) in tokens {
            e.add(*k, v);
        }
        e
    }

    #[test]
    fn a_pivot_naming_other_values_is_ruled_out_whatever_its_columns() {
        let node = bag(&[
            (TokenKind::Column, "gender"),
            (TokenKind::Function, "pivotfirst"),
            (TokenKind::Literal, "pivot:female"),
            (TokenKind::Literal, "pivot:male"),
        ]);
        let only_male = bag(&[
            (TokenKind::Column, "gender"),
            (TokenKind::Function, "pivotfirst"),
            (TokenKind::Literal, "pivot:male"),
        ]);
        let unnamed = bag(&[
            (TokenKind::Column, "gender"),
            (TokenKind::Function, "pivotfirst"),
        ]);
        let agg = OperatorFamily::Aggregate;
        assert!(conflicts_beyond_rewrite(agg, &node, &only_male));
        assert!(!conflicts(agg, &node, &unnamed), "values found at run time");
        let both = bag(&[
            (TokenKind::Column, "gender"),
            (TokenKind::Literal, "pivot:female"),
            (TokenKind::Literal, "pivot:male"),
        ]);
        assert!(!conflicts(agg, &node, &both));
    }

    #[test]
    fn a_keyed_aggregate_and_one_over_every_row_rule_each_other_out() {
        use crate::pipeline::evidence::Grouping;
        let with = |grouping: Option<Grouping>| {
            let mut e = bag(&[
                (TokenKind::Column, "country"),
                (TokenKind::Function, "count"),
            ]);
            e.grouping = grouping;
            e
        };
        let agg = OperatorFamily::Aggregate;
        let (keyed, global) = (Some(Grouping::Keyed), Some(Grouping::Global));
        // `groupBy("country").count()` is no `select(count("country"))`, nor the other way round
        assert!(conflicts(agg, &with(keyed), &with(global)));
        assert!(conflicts(agg, &with(global), &with(keyed)));
        assert!(!conflicts(agg, &with(keyed), &with(keyed)));
        // a site that cannot tell (a correlated subquery's aggregate) rules nothing out
        assert!(!conflicts(agg, &with(keyed), &with(None)));
    }

    #[test]
    fn a_deduplicating_aggregate_rules_out_sites_that_compute_aggregates() {
        let dedup = bag(&[
            (TokenKind::Column, "customer_name"),
            (TokenKind::Function, DISTINCT),
        ]);
        let sums = bag(&[
            (TokenKind::Column, "customer_name"),
            (TokenKind::Function, "sum"),
        ]);
        let drop_duplicates = bag(&[(TokenKind::Function, DISTINCT)]);
        let count_distinct = bag(&[
            (TokenKind::Column, "customer_name"),
            (TokenKind::Function, "countdistinct"),
            (TokenKind::Function, DISTINCT),
        ]);
        assert!(conflicts(OperatorFamily::Aggregate, &dedup, &sums));
        assert!(!conflicts(
            OperatorFamily::Aggregate,
            &dedup,
            &drop_duplicates
        ));
        // `countDistinct` plans a keys-only aggregate first: its site is not ruled out
        assert!(!conflicts(
            OperatorFamily::Aggregate,
            &dedup,
            &count_distinct
        ));
        // an aggregate that computes a sum is not a de-duplication
        let summing = bag(&[(TokenKind::Function, "sum"), (TokenKind::Column, "x")]);
        assert!(!conflicts(OperatorFamily::Aggregate, &summing, &sums));
    }

    #[test]
    fn a_whole_row_deduplication_is_not_a_narrower_one() {
        // `dropDuplicates()` of a wider frame keys on columns `select(a, b).distinct()` never sees.
        let whole_rows = bag(&[
            (TokenKind::Column, "a"),
            (TokenKind::Column, "b"),
            (TokenKind::Column, "c"),
            (TokenKind::Function, DISTINCT),
        ]);
        let selected = bag(&[
            (TokenKind::Column, "a"),
            (TokenKind::Column, "b"),
            (TokenKind::Function, DISTINCT),
        ]);
        assert!(conflicts(OperatorFamily::Aggregate, &whole_rows, &selected));
        assert!(!conflicts(
            OperatorFamily::Aggregate,
            &selected,
            &whole_rows
        ));
        // A site naming no columns (`df.distinct()`) fits any keys.
        let bare = bag(&[(TokenKind::Function, DISTINCT)]);
        assert!(!conflicts(OperatorFamily::Aggregate, &whole_rows, &bare));
        // `countDistinct("a", "b")` first de-duplicates over `a, b` only.
        let count_distinct = bag(&[
            (TokenKind::Column, "a"),
            (TokenKind::Column, "b"),
            (TokenKind::Function, DISTINCT),
            (TokenKind::Function, "countdistinct"),
        ]);
        assert!(conflicts(
            OperatorFamily::Aggregate,
            &whole_rows,
            &count_distinct
        ));
        assert!(!conflicts(
            OperatorFamily::Aggregate,
            &selected,
            &count_distinct
        ));
        // `dropDuplicates("a")` plans `first(b) AS b, first(c) AS c`: its columns are not all
        // keys, and a whole-row de-duplication is not it.
        let subset = bag(&[
            (TokenKind::Column, "a"),
            (TokenKind::Column, "b"),
            (TokenKind::Column, "c"),
            (TokenKind::Function, DISTINCT),
            (TokenKind::Function, "first"),
        ]);
        let subset_site = bag(&[
            (TokenKind::Column, "a"),
            (TokenKind::Function, DISTINCT),
            (TokenKind::Function, "first"),
        ]);
        assert!(!conflicts(OperatorFamily::Aggregate, &subset, &subset_site));
        assert!(conflicts(
            OperatorFamily::Aggregate,
            &whole_rows,
            &subset_site
        ));
    }

    #[test]
    fn a_rewrite_keeps_the_columns_other_code_misses_them() {
        // `groupBy(k, j).count().groupBy(k)`: the first count is pruned, its keys are kept.
        let pruned = bag(&[
            (TokenKind::Column, "k"),
            (TokenKind::Column, "j"),
            (TokenKind::Function, DISTINCT),
        ]);
        let counts_by_both = bag(&[
            (TokenKind::Column, "k"),
            (TokenKind::Column, "j"),
            (TokenKind::Function, "count"),
        ]);
        let sums_by_one = bag(&[(TokenKind::Column, "k"), (TokenKind::Function, "sum")]);
        assert!(conflicts(
            OperatorFamily::Aggregate,
            &pruned,
            &counts_by_both
        ));
        assert!(!conflicts_beyond_rewrite(
            OperatorFamily::Aggregate,
            &pruned,
            &counts_by_both
        ));
        assert!(conflicts_beyond_rewrite(
            OperatorFamily::Aggregate,
            &pruned,
            &sums_by_one
        ));
    }

    #[test]
    fn join_types_must_agree() {
        // The plan's inner join has no type word; a left join has its spellings.
        let inner_node = bag(&[(TokenKind::Column, "id")]);
        let left_node = bag(&[
            (TokenKind::Column, "id"),
            (TokenKind::Literal, "left"),
            (TokenKind::Literal, "leftouter"),
        ]);
        let says_inner = bag(&[(TokenKind::Column, "id"), (TokenKind::Literal, "inner")]);
        let says_left = bag(&[(TokenKind::Column, "id"), (TokenKind::Literal, "left")]);
        let says_nothing = bag(&[(TokenKind::Column, "id")]);
        assert!(conflicts(OperatorFamily::Join, &inner_node, &says_left));
        assert!(!conflicts(OperatorFamily::Join, &inner_node, &says_inner));
        assert!(!conflicts(OperatorFamily::Join, &inner_node, &says_nothing));
        // A join on names (one key kept) is not a join comparing two keys.
        let on_names = bag(&[
            (TokenKind::Column, "id"),
            (TokenKind::Literal, JOINED_ON_NAMES),
        ]);
        assert!(conflicts(OperatorFamily::Join, &on_names, &says_nothing));
        assert!(!conflicts(OperatorFamily::Join, &on_names, &on_names));
        // … unless a projection right after it narrows the columns, keeping one key as well
        let selects_after = Evidence {
            narrowed_after_join: true,
            ..says_nothing.clone()
        };
        assert!(!conflicts(OperatorFamily::Join, &on_names, &selects_after));
        assert!(!conflicts(OperatorFamily::Join, &inner_node, &on_names));
        assert!(conflicts(OperatorFamily::Join, &left_node, &says_inner));
        assert!(!conflicts(OperatorFamily::Join, &left_node, &says_left));
        assert!(!conflicts(OperatorFamily::Join, &left_node, &says_nothing));
        // An inner join whose rows a test above reads may be an outer join the optimiser made
        // inner; never a semi or anti join.
        let tested_inner = Evidence {
            nulls_rejected_above: true,
            ..inner_node.clone()
        };
        let says_semi = bag(&[(TokenKind::Column, "id"), (TokenKind::Literal, "semi")]);
        assert!(!conflicts(OperatorFamily::Join, &tested_inner, &says_left));
        assert!(conflicts(OperatorFamily::Join, &tested_inner, &says_semi));
    }

    #[test]
    fn sort_direction_and_null_tests_must_agree() {
        let asc = bag(&[(TokenKind::Column, "w")]);
        let desc = bag(&[(TokenKind::Column, "w"), (TokenKind::Function, "desc")]);
        assert!(conflicts(OperatorFamily::Sort, &asc, &desc));
        assert!(!conflicts(OperatorFamily::Sort, &desc, &desc));
        assert!(!conflicts(OperatorFamily::Sort, &asc, &asc));
        // `sort(col("a").asc, col("b").desc)` is the plan's `a ASC, b DESC`.
        let mixed = bag(&[
            (TokenKind::Column, "w"),
            (TokenKind::Function, "asc"),
            (TokenKind::Function, "desc"),
        ]);
        assert!(!conflicts(OperatorFamily::Sort, &desc, &mixed));
        assert!(conflicts(OperatorFamily::Sort, &asc, &mixed));
        let all_asc = bag(&[(TokenKind::Column, "w"), (TokenKind::Function, "asc")]);
        assert!(conflicts(OperatorFamily::Sort, &desc, &all_asc));
        // `age ASC NULLS LAST` is `asc_nulls_last()`, not `asc()`, and the reverse.
        let nulls_last = bag(&[
            (TokenKind::Column, "age"),
            (TokenKind::Function, "asc_nulls_last"),
        ]);
        let plain_asc = bag(&[(TokenKind::Column, "age"), (TokenKind::Function, "asc")]);
        assert!(conflicts(OperatorFamily::Sort, &nulls_last, &plain_asc));
        assert!(conflicts(OperatorFamily::Sort, &plain_asc, &nulls_last));
        assert!(!conflicts(OperatorFamily::Sort, &nulls_last, &nulls_last));
        let desc_nulls_first = bag(&[
            (TokenKind::Column, "age"),
            (TokenKind::Function, "desc"),
            (TokenKind::Function, "desc_nulls_first"),
        ]);
        assert!(conflicts(OperatorFamily::Sort, &desc_nulls_first, &desc));
        assert!(!conflicts(
            OperatorFamily::Sort,
            &desc_nulls_first,
            &bag(&[(TokenKind::Function, "desc_nulls_first")])
        ));
        let is_null = bag(&[(TokenKind::Function, "isnull")]);
        let not_null = bag(&[(TokenKind::Function, "isNotNull")]);
        assert!(conflicts(OperatorFamily::Filter, &is_null, &not_null));
        assert!(!conflicts(OperatorFamily::Filter, &is_null, &is_null));
    }

    #[test]
    fn a_fill_names_the_columns_and_the_value_it_fills_with() {
        // `coalesce(id, 0) AS id, coalesce(zipcode, 0) AS zipcode, coalesce(population, 0) …`
        let node = bag(&[
            (TokenKind::Function, "coalesce"),
            (TokenKind::Literal, "fill:id"),
            (TokenKind::Literal, "fill:zipcode"),
            (TokenKind::Literal, "fill:population"),
            (TokenKind::Literal, "fillvalue:0"),
        ]);
        let fill = |tokens: &[&str]| {
            let mut all = vec![(TokenKind::Function, "coalesce")];
            all.extend(tokens.iter().map(|t| (TokenKind::Literal, *t)));
            bag(&all)
        };
        // `na.fill(0)` fills every numeric column; `na.fill(0, ["population"])` one of three.
        assert!(!conflicts(
            OperatorFamily::Project,
            &node,
            &fill(&["fill:*", "fillvalue:0"])
        ));
        assert!(conflicts(
            OperatorFamily::Project,
            &node,
            &fill(&["fill:population", "fillvalue:0"])
        ));
        // `na.fill("")` puts in another value than `fill(0)`.
        assert!(conflicts(
            OperatorFamily::Project,
            &node,
            &fill(&["fill:*", "fillvalue:"])
        ));
        // A subset naming every filled column, value unknown (a dict of values), agrees.
        assert!(!conflicts(
            OperatorFamily::Project,
            &node,
            &fill(&["fill:id", "fill:zipcode", "fill:population"])
        ));
    }

    #[test]
    fn aggregates_and_aliases_must_agree() {
        let firsts = bag(&[(TokenKind::Column, "id"), (TokenKind::Function, "first")]);
        let counts = bag(&[(TokenKind::Column, "id"), (TokenKind::Function, "count")]);
        assert!(conflicts(OperatorFamily::Aggregate, &firsts, &counts));
        // A distinct aggregate's partial step computes only some of the functions.
        let both = bag(&[(TokenKind::Function, "count"), (TokenKind::Function, "sum")]);
        let sums = bag(&[(TokenKind::Function, "sum")]);
        assert!(!conflicts(OperatorFamily::Aggregate, &sums, &both));
        let auto_named = bag(&[(TokenKind::Alias, "percentile_approx(total, 0.25, 10000)")]);
        let aliased = bag(&[(TokenKind::Alias, "q1")]);
        assert!(conflicts(OperatorFamily::Project, &auto_named, &aliased));
        assert!(!conflicts(OperatorFamily::Project, &aliased, &aliased));
        assert!(!conflicts(
            OperatorFamily::Project,
            &auto_named,
            &bag(&[(TokenKind::Column, "total")])
        ));
    }
}
