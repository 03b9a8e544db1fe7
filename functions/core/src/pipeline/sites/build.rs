//! Building the site table: every call of every chain and every clause of every SQL statement
//! becomes a site with its evidence, families and flags; then the flow between them is linked.

use super::*;
use crate::code::lang::vocab;
use crate::code::sql_expr::COUNT_OF_ROWS;
use crate::code::{Language, SymbolKind};
use crate::pipeline::evidence::{
    CACHED, CACHED_READ, DROPPED_COLUMN, EVERY_COLUMN, FILL_VALUE, FILLED_COLUMN, FILLS_NULLS,
    Grouping, KEY_LEFT_OUT, NULL_DROP, PARTITIONED, PIVOT_VALUE, RangeBounds, SQL_COMMAND,
    STRUCT_FIELDS, WITH_REPLACEMENT, canonical_literal, file_format, is_catalog_table,
    is_noise_function, named_file, normalise_column, rdd_made_at, relative_path_tail,
    working_folder_tail,
};
use crate::pipeline::operations::{
    AGGREGATE_FUNCTIONS, CONCATENATION, ROW_REPLICATION, TYPED_FILTER, concatenates,
    is_aggregate_function, keeps_copies, passes_closure, typed_operator_of,
};
use crate::pipeline::predicates;
use crate::pipeline::semantics::is_join_type_word;
use regex::Regex;
use std::sync::LazyLock;

impl SiteTable {
    pub fn build(index: &RepoIndex) -> Self {
        let origin = Origin::new(index);
        let mut sites = Vec::new();
        let passed = PassedValues::new(index);
        let chain_sites = call_sites(index, &origin, &passed, &mut sites);
        let sql_sites = clause_sites(index, &origin, &mut sites);
        let functions = crate::pipeline::handoffs::FrameFunctions::new(index);
        let helpers = crate::pipeline::handoffs::helper_feeds(index, &functions);
        add_caller_paths(index, &helpers, &chain_sites, &mut sites);
        let weights = TokenWeights::from_bags(sites.iter().map(|s| &s.evidence));
        let cached_by = frames_cached_by(index);
        let mut chain_feeds = flow_edges(index, &helpers, &functions, &passed);
        feed_applied_functions(&helpers, &mut chain_feeds);
        add_cache_feeds(&cached_by, &mut chain_feeds);
        let views = registered_views(index);
        let mut chain_sql = sql_links(index);
        link_view_reads(
            index,
            &views,
            &chain_sites,
            &mut chain_feeds,
            &mut chain_sql,
            &mut sites,
        );
        views_of_derived_frames_scan_nothing(
            index,
            &views,
            &chain_sites,
            &chain_feeds,
            &sql_sites,
            &mut sites,
        );
        absorb_pushed_join_conditions(index, &chain_sites, &chain_feeds, &mut sites);
        join_sorts_and_limits(index, &chain_sites, &chain_feeds, &mut sites);
        join_sql_sorts_and_limits(&sql_sites, &mut sites);
        inline_computed_columns(index, &chain_sites, &chain_feeds, &mut sites);
        join_split_groupings(index, &chain_sites, &chain_feeds, &mut sites);
        let chain_open = open_chains(index, &chain_feeds, &chain_sites, &helpers, &sites);
        mark_narrowed_frames(index, &chain_feeds, &chain_sites, &mut sites);
        mark_aggregated_frames(&chain_feeds, &chain_sites, &mut sites);
        mark_reads_cached_later(index, &chain_feeds, &chain_sites, &mut sites);
        Self {
            weights,
            family_sites: family_sites(&sites),
            postings: postings(&sites),
            sites,
            chain_sites,
            sql_sites,
            chain_feeds,
            chain_open,
            // (`result = df.groupBy(…).mean()`, read by a later statement; a returned frame)
            chain_passes_on: index
                .chains
                .iter()
                .map(|c| c.returned || c.assigned_to.is_some() && !c.unread)
                .collect(),
            chain_applies: helpers.iter().map(|h| !h.applied.is_empty()).collect(),
            chain_cached_by: cached_by,
            chain_sql,
            sql_views: view_edges(index),
            sql_view_chains: view_chain_edges(index, &views),
            placement: index.files.iter().map(|f| placement(&f.path)).collect(),
            languages: index.files.iter().map(|f| f.language).collect(),
            file_names: index
                .files
                .iter()
                .map(|f| f.path.rsplit('/').next().unwrap_or(&f.path).to_owned())
                .collect(),
            record_fields: unique_record_classes(index),
        }
    }
}

/// Where a site's code sits: how much to trust it runs as Spark, and its file's and symbol's
/// flags.
struct Origin<'a> {
    index: &'a RepoIndex,
    spark_files: std::collections::HashSet<FileId>,
}

impl<'a> Origin<'a> {
    fn new(index: &'a RepoIndex) -> Self {
        Self {
            index,
            spark_files: spark_files(index),
        }
    }

    fn file_prior(&self, file: FileId) -> f64 {
        if self.spark_files.contains(&file) {
            1.0
        } else {
            NON_SPARK_PRIOR
        }
    }

    fn flags(&self, file: FileId, symbol: Option<SymbolId>) -> CodeFlags {
        let index = self.index;
        let mut flags = index
            .files
            .get(file as usize)
            .map(|f| f.flags)
            .unwrap_or_default();
        if let Some(sym) = symbol.and_then(|s| index.symbols.get(s as usize)) {
            flags.test |= sym.flags.test;
            flags.utility |= sym.flags.utility;
            flags.dead |= sym.flags.dead;
        }
        flags
    }
}

/// `spark.table("people")` of a view the repository registers is the registered frame
/// ([`reads_registered_view`]): the chain is fed by the registration, as SQL reading the view
/// is ([`registrations_of`]), and its `table` call scans nothing — the view's reader made the
/// scan. So does one of a view SQL defines ([`sql_view_reads`]): the chain runs that statement
/// (`chain_sql`).
fn link_view_reads(
    index: &RepoIndex,
    views: &ViewRegistrations,
    chain_sites: &[Vec<SiteId>],
    chain_feeds: &mut [Vec<(FlowRole, usize)>],
    chain_sql: &mut HashMap<usize, Vec<usize>>,
    sites: &mut [Site],
) {
    let mut reading_views: Vec<usize> = Vec::new();
    for (chain, statements) in sql_view_reads(index) {
        reading_views.push(chain);
        let linked = chain_sql.entry(chain).or_default();
        for statement in statements {
            if !linked.contains(&statement) {
                linked.push(statement);
            }
        }
    }
    // (no view registered: nothing to read back)
    let registered = if views.is_empty() {
        &[][..]
    } else {
        &index.chains[..]
    };
    for (idx, chain) in registered.iter().enumerate() {
        let Some(name) = reads_registered_view(chain, views) else {
            continue;
        };
        reading_views.push(idx);
        for fed_by in registrations_of(views, name, chain.file, index) {
            if fed_by != idx && !chain_feeds[idx].iter().any(|(_, f)| *f == fed_by) {
                chain_feeds[idx].push((FlowRole::Receiver, fed_by));
            }
        }
    }
    for idx in reading_views {
        for &site in &chain_sites[idx] {
            if matches!(&sites[site].kind, SiteKind::Call { method, .. } if method == "table") {
                sites[site].families.remove(OperatorFamily::Scan);
            }
        }
    }
}

/// A FROM or JOIN naming a view the code registered of a frame (`events.createOrReplaceTempView(
/// "events")`) reads that frame, whose scans are its readers': Spark plans a scan under the
/// SQL's reference to the view only when the frame is a read and projections of it (the plan's
/// scan sits right under the view). A frame the code filters, unions, joins or aggregates before
/// registering it leaves the clause no scan to produce.
fn views_of_derived_frames_scan_nothing(
    index: &RepoIndex,
    views: &ViewRegistrations,
    chain_sites: &[Vec<SiteId>],
    chain_feeds: &[Vec<(FlowRole, usize)>],
    sql_sites: &[Vec<SiteId>],
    sites: &mut [Site],
) {
    if views.is_empty() {
        return;
    }
    // (what a projection may also plan, `Expand` of a `select`, stays a projection)
    let beyond_projection = FamilySet::of(&[
        OperatorFamily::Filter,
        OperatorFamily::Aggregate,
        OperatorFamily::Join,
        OperatorFamily::Union,
        OperatorFamily::Window,
        OperatorFamily::Sort,
        OperatorFamily::Limit,
        OperatorFamily::Sample,
    ]);
    let derived = |registration: usize| {
        let mut seen = BTreeSet::from([registration]);
        let mut stack = vec![registration];
        while let Some(chain) = stack.pop() {
            let beyond_reads = chain_sites[chain].iter().any(|&site| {
                let families = sites[site].families;
                families.intersects(beyond_projection)
            });
            if beyond_reads {
                return true;
            }
            for &(_, fed_by) in &chain_feeds[chain] {
                if seen.len() < MAX_VIEW_FLOW_CHAINS && seen.insert(fed_by) {
                    stack.push(fed_by);
                }
            }
        }
        false
    };
    let derived_registrations: BTreeSet<usize> = views
        .values()
        .flatten()
        .copied()
        .filter(|&registration| derived(registration))
        .collect();
    let mut reading_derived_views = Vec::new();
    for (statement, ids) in index.sql.iter().zip(sql_sites) {
        for (clause, &site) in statement.clauses.iter().zip(ids) {
            // (`FROM unioned JOIN person`: the clause may still be `person`'s scan)
            let reads_derived_view = reads_tables(clause.kind)
                && !clause.tables.is_empty()
                && clause.tables.iter().all(|table| {
                    registrations_of(views, table, statement.file, index)
                        .iter()
                        .any(|r| derived_registrations.contains(r))
                });
            if reads_derived_view {
                reading_derived_views.push(site);
            }
        }
    }
    for site in reading_derived_views {
        sites[site].families.remove(OperatorFamily::Scan);
    }
}

/// How many chains [`views_of_derived_frames_scan_nothing`] follows up a view's frame.
const MAX_VIEW_FLOW_CHAINS: usize = 4096;

/// A filter comparing columns right after a join (`a.join(b, k).where(a.x == b.x)`, in the
/// same chain or the next statement) is planned as part of that join: the optimiser pushes its
/// condition into the join's, ahead of the join's own keys. So the join's site holds the filter's
/// columns too, first in its key order, and a plan of the join alone is not better explained by a
/// join naming every condition itself.
fn absorb_pushed_join_conditions(
    index: &RepoIndex,
    chain_sites: &[Vec<SiteId>],
    chain_feeds: &[Vec<(FlowRole, usize)>],
    sites: &mut [Site],
) {
    for (chain_idx, position, call) in filter_calls(index) {
        if !compares_columns(call) {
            continue;
        }
        let join = if position > 0 {
            chain_sites[chain_idx].get(position - 1).copied()
        } else {
            receiver_feed(chain_feeds, chain_idx).and_then(|fed| chain_sites[fed].last().copied())
        };
        let Some(join) = join.filter(|site| sites[*site].families.contains(OperatorFamily::Join))
        else {
            continue;
        };
        let joined = &mut sites[join].evidence;
        joined.add_all(TokenKind::Column, &call.args.columns);
        let own_keys = std::mem::take(&mut joined.key_order);
        for column in call.args.columns.iter().chain(&own_keys) {
            joined.add_key(column);
        }
    }
}

/// A sort whose rows a limit then takes is planned as one TakeOrderedAndProject with the
/// limit's origin. Written in one chain (`df.orderBy(desc("n")).limit(5)`), the sort's site
/// carries how many rows the limit keeps; written apart (`top = df.orderBy(desc("n"))`, then
/// `top.limit(5).show()` or `top.show(5)`), the limit's site produces the sort, on the sort's
/// keys, and carries the number — it is the operator's code, the sort its input's.
fn join_sorts_and_limits(
    index: &RepoIndex,
    chain_sites: &[Vec<SiteId>],
    chain_feeds: &[Vec<(FlowRole, usize)>],
    sites: &mut [Site],
) {
    let is_sort =
        |sites: &[Site], site: SiteId| sites[site].families.contains(OperatorFamily::Sort);
    for (chain_idx, chain) in index.chains.iter().enumerate() {
        for (position, pair) in chain.calls.windows(2).enumerate() {
            if let (Some(&sort), Some(kept)) =
                (chain_sites[chain_idx].get(position), rows_kept(&pair[1]))
                && is_sort(sites, sort)
            {
                sites[sort]
                    .evidence
                    .add(TokenKind::Literal, &kept.to_string());
            }
        }
        let (Some(first), Some(&limit)) = (chain.calls.first(), chain_sites[chain_idx].first())
        else {
            continue;
        };
        let Some(kept) = rows_kept(first) else {
            continue;
        };
        let Some(sort) = receiver_feed(chain_feeds, chain_idx)
            .and_then(|fed| chain_sites[fed].last().copied())
            .filter(|&site| is_sort(sites, site))
        else {
            continue;
        };
        let keys: Vec<(TokenKind, String)> = sites[sort]
            .evidence
            .tokens
            .iter()
            .filter(|(kind, _)| matches!(kind, TokenKind::Column | TokenKind::Function))
            .cloned()
            .collect();
        let taken = &mut sites[limit];
        taken.families.insert(OperatorFamily::Sort);
        taken.evidence.tokens.extend(keys);
        taken.evidence.add(TokenKind::Literal, &kept.to_string());
    }
}

/// … and in SQL, the ORDER BY of a statement with a LIMIT carries the LIMIT's number.
fn join_sql_sorts_and_limits(sql_sites: &[Vec<SiteId>], sites: &mut [Site]) {
    let clause_of = |sites: &[Site], site: SiteId, wanted: SqlClauseKind| matches!(&sites[site].kind, SiteKind::Sql { kind, .. } if *kind == wanted);
    for statement in sql_sites {
        let numbers: Vec<(TokenKind, String)> = statement
            .iter()
            .filter(|&&s| clause_of(sites, s, SqlClauseKind::Limit))
            .flat_map(|&s| sites[s].evidence.tokens.iter())
            .filter(|(kind, _)| *kind == TokenKind::Literal)
            .cloned()
            .collect();
        if numbers.is_empty() {
            continue;
        }
        for &sort in statement {
            if clause_of(sites, sort, SqlClauseKind::OrderBy) {
                sites[sort].evidence.tokens.extend(numbers.iter().cloned());
            }
        }
    }
}

/// Every `where` / `filter` call of the index: its chain, its position there, the call.
fn filter_calls(
    index: &RepoIndex,
) -> impl Iterator<Item = (usize, usize, &crate::code::SparkCall)> {
    index
        .chains
        .iter()
        .enumerate()
        .flat_map(|(chain_idx, chain)| {
            chain
                .calls
                .iter()
                .enumerate()
                .filter(|(_, call)| ["where", "filter"].contains(&call.method.as_str()))
                .map(move |(position, call)| (chain_idx, position, call))
        })
}

/// How many chains back a filter's computed column is looked for.
const COMPUTED_COLUMN_DEPTH: usize = 8;

/// A filter on a column its frame computed earlier (`withColumn("valid", when(a === b, true)…)`,
/// then `filter(col("valid") === true)`): the optimiser puts the column's expression into the
/// condition and pushes it below the projection, so the plan's Filter reads the expression's
/// columns (`((a#1 = b#2) <=> true)`). Those columns join the filter site's evidence.
fn inline_computed_columns(
    index: &RepoIndex,
    chain_sites: &[Vec<SiteId>],
    chain_feeds: &[Vec<(FlowRole, usize)>],
    sites: &mut [Site],
) {
    for (chain_idx, position, call) in filter_calls(index) {
        let mut inlined = Vec::new();
        for column in &call.args.columns {
            let column = normalise_column(column);
            if let Some(computed) = computing_call(index, chain_feeds, chain_idx, position, &column)
            {
                inlined.extend(computed.args.columns.iter().cloned());
            }
        }
        if let Some(&site) = chain_sites[chain_idx].get(position) {
            sites[site].evidence.add_all(TokenKind::Column, &inlined);
        }
    }
}

/// The latest `withColumn` before call `position` of chain `chain_idx`, in that chain or the
/// chains its frame comes from, that computes `column`.
fn computing_call<'i>(
    index: &'i RepoIndex,
    chain_feeds: &[Vec<(FlowRole, usize)>],
    chain_idx: usize,
    position: usize,
    column: &str,
) -> Option<&'i crate::code::SparkCall> {
    let mut chain = chain_idx;
    let mut before = position;
    for _ in 0..COMPUTED_COLUMN_DEPTH {
        let found = index.chains[chain].calls[..before].iter().rev().find(|c| {
            c.method == "withColumn"
                && c.args
                    .aliases
                    .first()
                    .is_some_and(|a| normalise_column(a) == column)
        });
        if found.is_some() {
            return found;
        }
        chain = receiver_feed(chain_feeds, chain)?;
        before = index.chains[chain].calls.len();
    }
    None
}

/// The chain whose frame `chain` starts from (`grouped` in `grouped.count()`), if one defines it.
fn receiver_feed(chain_feeds: &[Vec<(FlowRole, usize)>], chain: usize) -> Option<usize> {
    chain_feeds[chain]
        .iter()
        .find(|(role, _)| *role == FlowRole::Receiver)
        .map(|(_, fed)| *fed)
}

/// Whether an aggregation's result keeps every grouping key, given the calls after the
/// aggregating one: none of the projections and filters right after it (which Spark folds into
/// the Aggregate) narrows the columns.
fn returns_keys(following: &[crate::code::SparkCall]) -> bool {
    !narrowed_right_after(following)
}

/// Whether the calls right after a call narrow its frame's columns: one of the projections and
/// filters straight after it (which Spark folds together) keeps fewer columns.
fn narrowed_right_after(following: &[crate::code::SparkCall]) -> bool {
    following
        .iter()
        .take_while(|c| {
            let families = call_families(&c.method, &[]);
            families.contains(OperatorFamily::Project) || families.contains(OperatorFamily::Filter)
        })
        .any(|c| narrows_columns(&c.method))
}

/// Calls that keep fewer columns than their frame has.
fn narrows_columns(method: &str) -> bool {
    ["select", "selectExpr", "drop"]
        .iter()
        .any(|m| method.eq_ignore_ascii_case(m))
}

/// Sets [`Site::narrowed_before`]: an earlier call of the site's chain narrows its columns, or
/// the chain building the frame it starts from ends with one.
fn mark_narrowed_frames(
    index: &RepoIndex,
    chain_feeds: &[Vec<(FlowRole, usize)>],
    chain_sites: &[Vec<SiteId>],
    sites: &mut [Site],
) {
    for (chain_idx, chain) in index.chains.iter().enumerate() {
        let mut narrowed = receiver_feed(chain_feeds, chain_idx)
            .and_then(|fed| index.chains[fed].calls.last())
            .is_some_and(|c| narrows_columns(&c.method));
        for (call, &site) in chain.calls.iter().zip(&chain_sites[chain_idx]) {
            sites[site].narrowed_before = narrowed;
            narrowed |= narrows_columns(&call.method);
        }
    }
}

/// Sets [`Site::aggregated_before`]: a call of the site's chain before it aggregates, or one of
/// the chains its frame came from does (followed back receiver by receiver, at most
/// [`AGGREGATED_STEPS`] statements).
fn mark_aggregated_frames(
    chain_feeds: &[Vec<(FlowRole, usize)>],
    chain_sites: &[Vec<SiteId>],
    sites: &mut [Site],
) {
    let aggregates =
        |site: SiteId, sites: &[Site]| sites[site].families.contains(OperatorFamily::Aggregate);
    for (chain, own_sites) in chain_sites.iter().enumerate() {
        let mut aggregated = false;
        let mut at = chain;
        for _ in 0..AGGREGATED_STEPS {
            let Some(fed) = receiver_feed(chain_feeds, at).filter(|&fed| fed != chain) else {
                break;
            };
            if chain_sites[fed].iter().any(|&s| aggregates(s, sites)) {
                aggregated = true;
                break;
            }
            at = fed;
        }
        for &site in own_sites {
            sites[site].aggregated_before = aggregated;
            aggregated |= aggregates(site, sites);
        }
    }
}

/// A read whose frame, as read, a later statement of its function caches
/// (`silver = spark.read…load(p)`, then `silver.cache()`) is read back from memory: an
/// `InMemoryTableScan` of that scan alone ([`CACHED_READ`]). A function caching the frame it is
/// given (`idf.persist()`) says nothing of which of its callers' reads it was, and a frame
/// changed after its read (`read…coalesce(5)`) is cached as changed.
fn mark_reads_cached_later(
    index: &RepoIndex,
    chain_feeds: &[Vec<(FlowRole, usize)>],
    chain_sites: &[Vec<SiteId>],
    sites: &mut [Site],
) {
    for (cache, chain) in index.chains.iter().enumerate() {
        if !chain.calls.first().is_some_and(caches) {
            continue;
        }
        let variable = root_variable(&chain.receiver);
        let Some(read) = receiver_feed(chain_feeds, cache).filter(|&fed| {
            let read = &index.chains[fed];
            fed != cache
                && read.file == chain.file
                && read.symbol == chain.symbol
                && read.assigned_to.as_deref() == Some(variable)
        }) else {
            continue;
        };
        let reads = |site: &Site| site.families.contains(OperatorFamily::Scan);
        if !chain_sites[read].last().is_some_and(|s| reads(&sites[*s])) {
            continue;
        }
        for &site in &chain_sites[read] {
            if reads(&sites[site]) {
                sites[site].evidence.add(TokenKind::Literal, CACHED_READ);
            }
        }
    }
}

/// Whether `call` caches its frame (`cache()`, `persist(…)`, `checkpoint()`).
fn caches(call: &crate::code::SparkCall) -> bool {
    call_families(&call.method, &[]).contains(OperatorFamily::Cache)
}

/// How many statements back [`mark_aggregated_frames`] looks for the aggregation.
const AGGREGATED_STEPS: usize = 8;

/// Whether a filter's condition compares columns for equality and nothing else (`a.x == b.x`,
/// Scala's `===`, Java's `equalTo`; no literal), as a join condition does.
fn compares_columns(call: &crate::code::SparkCall) -> bool {
    !call.args.columns.is_empty()
        && call.args.literals.is_empty()
        && ["==", "===", "equalTo("]
            .iter()
            .any(|op| call.args.text.contains(op))
}

/// A site for every call of every chain; the ids of each chain's sites, in call order.
fn call_sites(
    index: &RepoIndex,
    origin: &Origin<'_>,
    passed: &PassedValues<'_>,
    sites: &mut Vec<Site>,
) -> Vec<Vec<SiteId>> {
    let mut chain_sites = Vec::with_capacity(index.chains.len());
    let records = record_classes(index);
    let column_helpers = column_helpers(index);
    for (chain_idx, chain) in index.chains.iter().enumerate() {
        let mut ids = Vec::with_capacity(chain.calls.len());
        let mut after_join = false;
        // `df.write.parquet(path)` writes: the reader-named methods after `write` are sinks.
        let mut after_write = is_writer_accessor(chain.receiver.rsplit('.').next());
        let runs_prior = if never_runs(chain) {
            NEVER_RUNS_PRIOR
        } else {
            1.0
        };
        // `read.csv("sales.csv")` in a notebook: its kernel reads from the notebook's folder.
        let path = index
            .files
            .get(chain.file as usize)
            .map_or("", |f| f.path.as_str());
        let (folder, file_name) = path.rsplit_once('/').unwrap_or(("", path));
        let module = build_module(path);
        let class = top_level_class(index, chain);
        let in_jvm_code = in_jvm_code(index, chain);
        let returns_columns: BTreeSet<String> = chain
            .returned_columns
            .iter()
            .map(|c| normalise_column(c))
            .collect();
        let rdd_lines = rdd_made_in_chain(chain);
        for (position, call) in chain.calls.iter().enumerate() {
            after_write |= is_writer_accessor(Some(&call.method));
            let (mut evidence, families) = call_evidence(chain, position, after_join, after_write);
            evidence.compiled_in.clone_from(&class);
            evidence.in_jvm_code = in_jvm_code;
            if in_jvm_code {
                evidence.rows_from_rdd = jvm_rows_from_rdd(chain, position);
            }
            evidence.returns_columns.clone_from(&returns_columns);
            evidence.returns_exactly = chain.returns_exactly;
            // `select(best_lower(col("cry")))`: what the column helper's expression calls
            for function in &call.args.functions {
                for inner in column_helpers.get(function.as_str()).into_iter().flatten() {
                    evidence.add(TokenKind::Function, inner);
                }
            }
            // `createDataFrame(people, Person.class)`, `Seq(Person("a", 1)).toDS()`
            if makes_frame_of_objects(&call.method) {
                for fields in records_named(&records, &chain.text) {
                    evidence.add_all(TokenKind::Column, fields);
                }
            }
            // `rdd.toDF`: the statement that made the RDD, as the scan of it names it
            if let Some(made) = chain.receiver_made_at.filter(|_| position == 0) {
                for line in (made.start..=made.end).take(RDD_STATEMENT_LINES) {
                    evidence.add(TokenKind::Literal, &rdd_made_at(file_name, line));
                }
            }
            // `sc.parallelize(rows).toDF()`: the RDD is made in this very statement
            if families.contains(OperatorFamily::Scan) {
                for line in &rdd_lines {
                    evidence.add(TokenKind::Literal, &rdd_made_at(file_name, *line));
                }
            }
            // `read.csv(input_file)`, `col(column_name) > threshold`: what its callers pass.
            for named in &call.args.names {
                let kind = token_kind_of(named.role);
                for value in passed.values(chain.symbol, &named.name, kind == TokenKind::Path) {
                    // (a number in a column expression is a value: `col(c) > threshold`)
                    let kind = if kind == TokenKind::Column && value.parse::<f64>().is_ok() {
                        TokenKind::Literal
                    } else {
                        kind
                    };
                    evidence.add(kind, value);
                    if kind == TokenKind::Path
                        && let Some(module) = module
                    {
                        evidence
                            .path_tails
                            .extend(relative_path_tail(module, value));
                    }
                }
                // `read.csv(input_path)`, `input_path = sys.argv[1]`: what its launcher passes
                for value in passed.launched(chain.file, &named.name) {
                    evidence.add(kind, value);
                    evidence
                        .path_tails
                        .extend(relative_path_tail(folder, value));
                }
            }
            // `read.csv(conf.getString("input.path"))`: what the settings files say
            for read in &call.args.settings {
                for value in passed.setting(&read.name) {
                    evidence.add(token_kind_of(read.role), value);
                }
            }
            // `load("src/main/resources/x.csv")` in a build module: run from that module (also
            // for a path a caller passes, above)
            for path in &call.args.paths {
                evidence.path_tails.extend(relative_path_tail(folder, path));
                if let Some(module) = module {
                    evidence.path_tails.extend(relative_path_tail(module, path));
                }
            }
            after_join |= families.contains(OperatorFamily::Join)
                && !families.contains(OperatorFamily::Union);
            let id = sites.len();
            sites.push(Site {
                id,
                file: chain.file,
                symbol: chain.symbol,
                kind: SiteKind::Call {
                    chain: chain_idx,
                    position,
                    method: call.method.clone(),
                },
                families,
                lines: call.statement.unwrap_or(chain.statement),
                precise: call.lines,
                evidence,
                terms: code_terms(&format!("{} {}", call.method, call.args.text)),
                flags: origin.flags(chain.file, chain.symbol),
                depth: 0,
                origin_prior: origin.file_prior(chain.file) * runs_prior,
                narrowed_before: false,
                aggregated_before: false,
            });
            ids.push(id);
        }
        chain_sites.push(ids);
    }
    chain_sites
}

/// The lines of the calls making the RDD a chain turns into a frame itself
/// (`sc.parallelize(rows, 4).toDF()`, `sc.textFile(p).map(parse).toDF()`): every call before
/// its `toDF` / `toDS` works on RDDs, and the scan names the last one's line.
fn rdd_made_in_chain(chain: &CallChain) -> Vec<u32> {
    let Some(maker) = chain
        .calls
        .iter()
        .position(|c| vocab::makes_frame_of_rows(&c.method))
    else {
        return Vec::new();
    };
    chain.calls[..maker]
        .iter()
        .flat_map(|c| c.lines.start..=c.lines.end)
        .take(RDD_STATEMENT_LINES)
        .collect()
}

/// Most lines of the statement making an RDD that a frame made of it names.
const RDD_STATEMENT_LINES: usize = 20;

/// Whether a chain is Scala or Java code ([`Evidence::in_jvm_code`]).
pub(super) fn in_jvm_code(index: &RepoIndex, chain: &CallChain) -> bool {
    index
        .files
        .get(chain.file as usize)
        .is_some_and(|f| matches!(f.language, Language::Scala | Language::Java))
}

/// The top-level class (Scala `object` / `class`, Java `class`) around a JVM chain: its closures
/// are compiled in it ([`Evidence::compiled_in`]). Python's closures print no class.
fn top_level_class(index: &RepoIndex, chain: &CallChain) -> Option<String> {
    let jvm = in_jvm_code(index, chain);
    let mut symbol = index.symbols.get(chain.symbol? as usize).filter(|_| jvm)?;
    while let Some(parent) = symbol.parent.and_then(|p| index.symbols.get(p as usize)) {
        symbol = parent;
    }
    matches!(symbol.kind, SymbolKind::Class | SymbolKind::Object).then(|| symbol.name.clone())
}

/// A chain ending in a lazy transformation that nothing uses — standing alone as a statement,
/// not returned, passed on, shown nor written (`df.groupby("k").mean()` on a line of its own, a
/// notebook cell that displays only its repr), or assigned to a variable nothing reads later
/// (`val names = ds.map(_.name)`) — builds a plan Spark never runs; so does one that only
/// prints its plan or schema (`a.join(b, "id").explain()`).
fn never_runs(chain: &CallChain) -> bool {
    let Some(last) = chain.calls.last() else {
        return false;
    };
    if vocab::only_describes_frame(&last.method) {
        return true;
    }
    let method = last.method.to_ascii_lowercase();
    let after_grouping =
        chain.calls.len() >= 2 && is_grouping_method(&chain.calls[chain.calls.len() - 2].method);
    let lazy = LAZY_ENDINGS.contains(&method.as_str())
        || after_grouping && matches!(method.as_str(), "count" | "sum" | "min" | "max");
    let stands_alone = chain.assigned_to.is_none()
        && chain.text.trim_start().starts_with(chain.receiver.as_str())
        && !shown_further_on(chain);
    lazy && !chain.returned && (stands_alone || chain.unread)
}

/// The statement goes on past the chain to an action on what it built
/// (`df.groupBy("y").mean()[["avg(y)"]].show()`: the subscript ends the chain, not the
/// statement).
fn shown_further_on(chain: &CallChain) -> bool {
    let Some(last) = chain.calls.last() else {
        return false;
    };
    let after = chain
        .text
        .rfind(&format!(".{}", last.method))
        .map_or("", |at| &chain.text[at + 1 + last.method.len()..]);
    ACTIONS_AFTER
        .iter()
        .any(|action| after.contains(&format!(".{action}(")))
}

/// How many rows a call keeps: the number `limit`, `take` and `head` are given; one for
/// `first()`, `head()` and `isEmpty`; one more than `show(n)` prints (20 by default), to say
/// whether there are more.
fn rows_kept(call: &crate::code::SparkCall) -> Option<u64> {
    let written = call
        .args
        .literals
        .iter()
        .find_map(|l| l.parse::<u64>().ok());
    match call.method.as_str() {
        "first" | "isEmpty" => Some(1),
        "head" => Some(written.unwrap_or(1)),
        "limit" | "take" | "tail" => written,
        "show" => Some(written.unwrap_or(20) + 1),
        _ => None,
    }
}

/// The functions Spark plans `stat.crosstab("a", "b")` with: a count of each pair of values
/// (each column first cleaned: `CASE WHEN isnull(a) …`, back-quotes taken out with
/// `regexp_replace`), pivoted on `b`'s values (`pivotfirst`), the pairs never seen filled with 0
/// (`coalesce`). Its key column is named `a_b`.
const CROSSTAB_FUNCTIONS: &[&str] = &[
    "count",
    COUNT_OF_ROWS,
    "pivotfirst",
    "coalesce",
    "regexp_replace",
    "isnull",
];

/// The column Spark names the numbers of `spark.range(…)`.
const RANGE_COLUMN: &str = "id";

/// Whether a chain starts with a session's `range(…)` (`spark.range(10)`).
fn makes_range(chain: &CallChain) -> bool {
    chain.calls.first().is_some_and(|c| c.method == "range")
        && chain.receiver.split('.').any(vocab::is_session_name)
}

/// The bounds a chain's `spark.range(…)` writes, for the range and every call after it
/// (`spark.range(10).toDF("n")`): None for a chain of no range, or of bounds it computes.
fn range_written(chain: &CallChain) -> Option<RangeBounds> {
    makes_range(chain)
        .then(|| range_arguments(&chain.calls[0].args.text))
        .flatten()
}

/// `(100)`, `(5, 50, 5)`, `(0, 10L)`, `(start=0, end=10, numPartitions=4)`: a range's bounds,
/// as Spark reads its arguments (one alone is the end); None when one is not a number.
fn range_arguments(text: &str) -> Option<RangeBounds> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    let number = |written: &str| {
        let written = written.trim().trim_end_matches(['L', 'l']).replace('_', "");
        written.parse::<i64>().ok()
    };
    let mut positional = Vec::new();
    let (mut start, mut end, mut step) = (None, None, None);
    for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.split_once('=') {
            Some((name, value)) => match name.trim() {
                "start" => start = Some(number(value)?),
                "end" => end = Some(number(value)?),
                "step" => step = Some(number(value)?),
                _ => {}
            },
            None => positional.push(number(part)?),
        }
    }
    let mut positional = positional.into_iter();
    if start.is_none() && end.is_none() && positional.len() == 1 {
        end = positional.next();
    }
    let start = start.or_else(|| positional.next()).unwrap_or(0);
    let end = end.or_else(|| positional.next())?;
    let step = step.or_else(|| positional.next()).unwrap_or(1);
    Some(RangeBounds { start, end, step })
}

/// Actions a statement may apply past the end of a lazy chain ([`shown_further_on`]).
const ACTIONS_AFTER: &[&str] = &["show", "collect", "toPandas", "take", "head", "first"];

/// How much to trust a chain that [`never_runs`] as the code of a plan Spark ran: a look-alike
/// of the chain that runs wins, and one that never runs is still found when nothing else fits.
const NEVER_RUNS_PRIOR: f64 = 0.9;

/// Methods (lower-cased) returning a DataFrame or a grouping without running anything.
const LAZY_ENDINGS: &[&str] = &[
    "select",
    "selectexpr",
    "filter",
    "where",
    "withcolumn",
    "withcolumns",
    "withcolumnrenamed",
    "drop",
    "dropduplicates",
    "drop_duplicates",
    "distinct",
    "orderby",
    "sort",
    "join",
    "crossjoin",
    "union",
    "unionall",
    "unionbyname",
    "agg",
    "mean",
    "avg",
    "groupby",
    "limit",
    "fillna",
    "dropna",
    "sample",
    "pivot",
    "alias",
    "describe",
    "summary",
    "map",
    "flatmap",
    "mappartitions",
    "groupbykey",
    "as",
    "todf",
];

/// The evidence of call `position` of `chain` and the operator families it can produce, given
/// whether a join or a `write` came before it in the chain.
fn call_evidence(
    chain: &CallChain,
    position: usize,
    after_join: bool,
    after_write: bool,
) -> (Evidence, FamilySet) {
    let call = &chain.calls[position];
    let functions: Vec<String> = call
        .args
        .functions
        .iter()
        .map(|f| normalise_function(f))
        .collect();
    let mut evidence = Evidence::default();
    evidence.add_all(TokenKind::Column, &call.args.columns);
    evidence.add_all(TokenKind::Function, &call.args.functions);
    // `desc_nulls_last()` is a descending key (the plan's `DESC NULLS LAST` reads as `desc`)
    for direction in ["asc", "desc"] {
        if call.args.functions.iter().any(|f| {
            f.strip_prefix(direction)
                .is_some_and(|rest| rest.starts_with("_nulls_"))
        }) {
            evidence.add(TokenKind::Function, direction);
        }
    }
    evidence.add_all(TokenKind::Literal, &call.args.literals);
    evidence.add_all(TokenKind::Alias, &call.args.aliases);
    if let Some(name) = implicit_aggregate_name(call) {
        evidence.add(TokenKind::Alias, &name);
    }
    evidence.kept_rows = rows_kept(call);
    evidence.range_bounds = range_written(chain);
    // Spark names a range's one column `id`
    if position == 0 && makes_range(chain) {
        evidence.add(TokenKind::Column, RANGE_COLUMN);
    }
    evidence.names_computed_columns = call.args.computed_columns;
    for column in &call.args.inline_columns {
        evidence
            .column_longs
            .insert(normalise_column(&column.name), column.long);
    }
    evidence.add_all(TokenKind::Table, &call.args.tables);
    evidence.reads_catalog_table = call.args.tables.iter().any(|t| is_catalog_table(t));
    evidence.makes_rows_in_memory = makes_rows_in_memory(chain, position);
    evidence.renames_every_column =
        call.method == "toDF" && !call.args.aliases.is_empty() && !call.args.computed_columns;
    evidence.add_all(TokenKind::Path, &call.args.paths);
    if !after_write {
        evidence
            .named_files
            .extend(call.args.paths.iter().filter_map(|p| named_file(p)));
        evidence.working_folder_tails.extend(
            call.args
                .paths
                .iter()
                .filter_map(|p| working_folder_tail(p)),
        );
        evidence.file_format = reader_format(chain, position);
        evidence.reads_files_by_path =
            evidence.file_format.is_some() && call.args.tables.is_empty();
        if evidence.file_format.as_deref() == Some("csv") {
            evidence.headerless_csv = Some(!names_csv_columns(chain, position));
        }
    }
    if call.args.paths.is_empty() && call.args.tables.is_empty() {
        for hint in reader_path_hints(&call.method, &call.args.text) {
            evidence.add(TokenKind::Path, &hint);
        }
    }
    // `describe()` / `summary()`: the statistics and the rows it explodes them into.
    let (statistics, rows) = statistics_computed_by(&call.method);
    for f in statistics {
        evidence.add(TokenKind::Function, f);
    }
    for row in rows {
        evidence.add(TokenKind::Literal, row);
    }
    // `stat.crosstab("a", "b")`: what it plans without naming it, and the key column it names.
    if call.method.eq_ignore_ascii_case("crosstab") {
        for function in CROSSTAB_FUNCTIONS {
            evidence.add(TokenKind::Function, function);
        }
        if let [first, second] = &call.args.columns[..] {
            evidence.add(TokenKind::Alias, &format!("{first}_{second}"));
        }
    }
    if let Some(operator) = typed_operator_of(&call.method) {
        evidence.add(TokenKind::Function, operator);
    }
    if concatenates(&call.method) {
        evidence.add(TokenKind::Function, CONCATENATION);
    }
    if keeps_copies(&call.method) {
        // the names Spark's rewrite gives its side tags and their counts
        let (tags, counted, aliases): (&[&str], &str, &[&str]) =
            if call.method.eq_ignore_ascii_case("exceptAll") {
                (&["vcol"], "sum", &["sum"])
            } else {
                (
                    &["vcol1", "vcol2"],
                    "count",
                    &["vcol1_count", "vcol2_count", "min_count"],
                )
            };
        evidence.add(TokenKind::Function, CONCATENATION);
        evidence.add(TokenKind::Function, ROW_REPLICATION);
        evidence.add(TokenKind::Function, counted);
        for tag in tags {
            evidence.add(TokenKind::Column, tag);
        }
        for alias in aliases {
            evidence.add(TokenKind::Alias, alias);
        }
    }
    if ["filter", "where"].contains(&call.method.as_str()) {
        if passes_closure(&call.args.text) {
            evidence.add(TokenKind::Function, TYPED_FILTER);
        } else {
            evidence.predicates = predicates::of_filter_arguments(&call.args.text);
        }
    }
    if is_deduplicating_method(&call.method)
        || functions
            .iter()
            .any(|f| f == "countdistinct" || f == "sumdistinct")
    {
        evidence.add(TokenKind::Function, DISTINCT);
    }
    if let Some(join_type) = set_operation_join(&call.method) {
        evidence.add(TokenKind::Literal, join_type);
        evidence.add(TokenKind::Function, DISTINCT);
    }
    // `dropDuplicates("a", "b")` keeps every other column as `first(x)`, as the plan shows, and
    // keys on the columns it names: another column in the keys is another de-duplication.
    if is_deduplicating_method(&call.method) && names_keys(call) {
        evidence.add(TokenKind::Function, "first");
        add_group_keys(&mut evidence, call);
    }
    let previous_call = position.checked_sub(1).map(|p| &chain.calls[p]);
    // The call aggregating a grouping is the same Aggregate: it holds the grouping's keys too
    // (`groupBy(df.state).agg(sum(df.salary))` keys on `state` at the `agg` as well), and returns
    // them unless a projection right after it narrows them.
    if let Some(grouping) = previous_call.filter(|c| is_grouping_method(&c.method))
        && call_families(&call.method, &functions).contains(OperatorFamily::Aggregate)
    {
        evidence.add_all(TokenKind::Column, &grouping.args.columns);
        add_group_keys(&mut evidence, grouping);
        evidence.returns_keys = returns_keys(&chain.calls[position + 1..]);
    }
    // A de-duplication without columns (`distinct()`, `dropDuplicates()`) de-duplicates whole
    // rows of its input: right after a `select("a", "b")` of bare columns those are the selected
    // columns — the keys of the aggregate it plans. (A computed selection names its inputs, not
    // its outputs: `select(explode(m))` yields `col`.)
    if is_deduplicating_method(&call.method)
        && call.args.columns.is_empty()
        && let Some(select) = previous_call.filter(|c| {
            c.method.eq_ignore_ascii_case("select")
                && c.args
                    .functions
                    .iter()
                    .all(|f| is_noise_function(&normalise_function(f)))
                && c.args.aliases.is_empty()
        })
    {
        evidence.add_all(TokenKind::Column, &select.args.columns);
    }
    // A grouping is planned as one Aggregate of what the calls after it name: the pivot's column
    // and values (`groupBy(k).pivot("g", ["v"])`) and the aggregating call's functions
    // (`.agg(sum(x))`, `.count()`; a distinct one's columns too). The grouping call carries them,
    // so the statement is matched whole and is never mistaken for a mere de-duplication.
    if is_grouping_method(&call.method) {
        add_group_keys(&mut evidence, call);
        let mut pivoted = false;
        for (offset, next) in chain.calls[position + 1..].iter().enumerate() {
            if !next.method.eq_ignore_ascii_case("pivot") {
                add_aggregation(&mut evidence, call, next, pivoted);
                let after = &chain.calls[position + 2 + offset..];
                evidence.returns_keys = !pivoted && returns_keys(after);
                if !pivoted {
                    for name in names_folded_into_aggregate(after) {
                        evidence.add(TokenKind::Alias, name);
                    }
                }
                break;
            }
            pivoted = true;
            evidence.add_all(TokenKind::Column, &next.args.columns);
            evidence.add_all(TokenKind::Literal, &next.args.literals);
            // Spark plans a pivot as `pivotfirst(column, aggregate, values…)`; the values after
            // the pivot's column are the values it pivots into.
            evidence.add(TokenKind::Function, "pivotfirst");
            for value in &next.args.literals {
                evidence.add(TokenKind::Literal, &format!("{PIVOT_VALUE}{value}"));
            }
        }
    }
    let mut families = call_families(&call.method, &functions);
    if families.contains(OperatorFamily::Exchange) {
        let merges = call.method.eq_ignore_ascii_case("coalesce");
        let how = if merges { "coalesce" } else { "shuffle" };
        evidence.add(TokenKind::Literal, &format!("{PARTITIONED}{how}"));
    }
    if families.contains(OperatorFamily::Aggregate) && !is_deduplicating_method(&call.method) {
        evidence.grouping = Some(call_grouping(chain, position));
    }
    if families.contains(OperatorFamily::Join) {
        if joins_on_names(call) {
            evidence.add(TokenKind::Literal, JOINED_ON_NAMES);
        } else {
            evidence.narrowed_after_join = narrowed_right_after(&chain.calls[position + 1..]);
        }
        for column in &call.args.columns {
            evidence.add_key(column);
        }
        let one_side = tests_of_one_side(call);
        if one_side.compares_with_values || one_side.applies_functions {
            families.insert(OperatorFamily::Filter);
            evidence.predicates = one_side.facts;
        }
        if one_side.applies_functions {
            families.insert(OperatorFamily::PythonEval);
        }
    }
    // `groupBy(k).count()` and `df.count()` alike (`count()` is `groupBy().count()`).
    if names_its_count(call)
        && !previous_call.is_some_and(|c| c.method.eq_ignore_ascii_case("pivot"))
    {
        evidence.add(TokenKind::Alias, grouped_count_name(previous_call));
    }
    if families.contains(OperatorFamily::Aggregate) {
        for name in names_folded_into_aggregate(&chain.calls[position + 1..]) {
            evidence.add(TokenKind::Alias, name);
        }
    }
    if after_write && families.contains(OperatorFamily::Scan) {
        families.remove(OperatorFamily::Scan);
        families.insert(OperatorFamily::Write);
    }
    // `dropna()` / `na.drop()` plan a Filter of `atleastnnonnulls(n, cols…)`.
    // `frame.na.drop()` with `frame` unknown keeps `na` in the receiver.
    let previous = match previous_call {
        Some(c) => Some(c.method.as_str()),
        None => chain.receiver.rsplit('.').next(),
    };
    for parent in structs_taken_apart(call) {
        evidence.add(TokenKind::Column, parent);
        evidence.add(TokenKind::Literal, &format!("{STRUCT_FIELDS}{parent}"));
    }
    // (`"name.*"` names no column `*`)
    if call.args.columns.iter().any(|c| c.ends_with('*')) {
        evidence.tokens.remove(&(TokenKind::Column, "*".to_owned()));
    }
    // `drop("url")` names the columns the plan's pruning Project leaves out.
    if call.method.eq_ignore_ascii_case("drop") && !is_null_dropping_call(&call.method, previous) {
        for column in &call.args.columns {
            evidence.add(TokenKind::Literal, &format!("{DROPPED_COLUMN}{column}"));
        }
    }
    if is_null_dropping_call(&call.method, previous) {
        // (`na.drop` drops rows, not columns: no Project)
        families.remove(OperatorFamily::Project);
        families.insert(OperatorFamily::Filter);
        evidence.add(TokenKind::Function, NULL_DROP);
        evidence.predicates = predicates::of_null_drop_arguments(&call.args.text);
    }
    // `sample(True, 0.3, 123)` / `sample(withReplacement=True, …)` samples with replacement.
    if call.method.eq_ignore_ascii_case("sample") {
        let args: String = call
            .args
            .text
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let args = args.trim_start_matches('(');
        if args.starts_with("true") || args.contains("withreplacement=true") {
            evidence.add(TokenKind::Literal, WITH_REPLACEMENT);
        }
    }
    // A fill plans `coalesce(x, value) AS x` for each column it fills — only those it names
    // (`na.fill(0, ["population"])`), so the plan says which columns were filled.
    if is_fill_method(&call.method) {
        evidence.add(TokenKind::Function, "coalesce");
        evidence.add(TokenKind::Function, FILLS_NULLS);
        let columns = filled_columns(chain, position);
        if columns.is_empty() {
            evidence.add(
                TokenKind::Literal,
                &format!("{FILLED_COLUMN}{EVERY_COLUMN}"),
            );
        }
        for column in columns {
            evidence.add(TokenKind::Literal, &format!("{FILLED_COLUMN}{column}"));
        }
        // The value comes first (`fill(0)`, `fill("unknown", ["city"])`); a dict names columns.
        // One computed at run time (`fill(df.select(mean(x)).collect()[0][0])`) is unknown: the
        // literals inside it are no value.
        let computed = first_argument(&call.args.text).is_some_and(|first| {
            !first.starts_with(['{', '"', '\'']) && first.contains(['(', '['])
        });
        if let Some(value) = call.args.literals.first().filter(|_| !computed) {
            let value = canonical_literal(value);
            evidence.add(TokenKind::Literal, &format!("{FILL_VALUE}{value}"));
        }
    }
    // `sampleBy(col, fractions, seed)` plans a Filter of a UDF over the key and `rand(seed)`.
    if call.method.eq_ignore_ascii_case("sampleby") {
        evidence.add(TokenKind::Function, "udf");
        evidence.add(TokenKind::Function, "rand");
    }
    // A read its chain caches is read back from memory (`InMemoryTableScan`).
    if families.contains(OperatorFamily::Scan) && chain.calls[position + 1..].iter().any(caches) {
        evidence.add(TokenKind::Function, CACHED);
        if chain.calls.get(position + 1).is_some_and(caches) {
            evidence.add(TokenKind::Literal, CACHED_READ);
        }
    }
    // `a.join(b).where(a.x == b.y)`: the optimiser moves a filter over a join into
    // the join's condition, so that filter is the join's source.
    if after_join && families.contains(OperatorFamily::Filter) {
        families.insert(OperatorFamily::Join);
    }
    (evidence, families)
}

/// The name Spark makes up for the one aggregate a `select` / `agg` computes without naming it:
/// `count(1)` for `select(count(lit(1)))`, `max(ts)` for `agg(max("ts"))` — as SQL's unaliased
/// `COUNT(*)` is named (see `code::sql`). None when the call names its results or computes
/// several (which argument is which is not kept).
fn implicit_aggregate_name(call: &crate::code::SparkCall) -> Option<String> {
    let aggregating = ["select", "agg"]
        .iter()
        .any(|m| call.method.eq_ignore_ascii_case(m));
    if !aggregating || !call.args.aliases.is_empty() || call.args.columns.len() > 1 {
        return None;
    }
    let mut aggregates = call
        .args
        .functions
        .iter()
        .map(|f| normalise_function(f))
        .filter(|f| AGGREGATE_FUNCTIONS.contains(&f.as_str()) && f != COUNT_OF_ROWS);
    let (Some(function), None) = (aggregates.next(), aggregates.next()) else {
        return None;
    };
    let counts_rows = call.args.functions.iter().any(|f| f == COUNT_OF_ROWS);
    // `count("*")` names the star it counts
    let column = call
        .args
        .columns
        .first()
        .filter(|c| !(counts_rows && *c == "*"));
    match (column, counts_rows) {
        (None, true) => Some("count(1)".to_owned()),
        (Some(column), false) => result_name(&function, column),
        _ => None,
    }
}

/// The name Spark gives an unaliased aggregate `function` (normalised) of `column`. Only names
/// known to be Spark's own (`mean` is `avg`): a wrong one would count against the site as a name
/// the plan does not have.
fn result_name(function: &str, column: &str) -> Option<String> {
    match function {
        "countdistinct" => Some(format!("count(DISTINCT {column})")),
        "sum" | "avg" | "min" | "max" | "count" => Some(format!("{function}({column})")),
        _ => None,
    }
}

/// The structs a call takes fields out of, each under the field's own name: every field
/// (`select("name.*")`), or two or more named (`select("name.firstname", "name.lastname")`,
/// which plans as a star over a struct of those fields would).
fn structs_taken_apart(call: &crate::code::SparkCall) -> BTreeSet<&str> {
    let mut fields: BTreeMap<&str, usize> = BTreeMap::new();
    let mut structs = BTreeSet::new();
    for column in call.args.columns.iter().chain(&call.args.literals) {
        let Some((parent, field)) = column.rsplit_once('.') else {
            continue;
        };
        if parent.is_empty() || field.is_empty() {
            continue;
        }
        if field == "*" {
            structs.insert(parent);
        } else {
            *fields.entry(parent).or_default() += 1;
        }
    }
    structs.extend(fields.into_iter().filter(|(_, n)| *n >= 2).map(|(p, _)| p));
    structs
}

fn is_fill_method(method: &str) -> bool {
    method.eq_ignore_ascii_case("fill") || method.eq_ignore_ascii_case("fillna")
}

/// The text of a call's first argument (`(a(b, c), [d])` → `a(b, c)`), past a keyword's name.
pub(super) fn first_argument(args_text: &str) -> Option<&str> {
    let first = *arguments(args_text).first()?;
    let first = match first.split_once('=') {
        Some((name, value)) if name.trim().chars().all(|c| c.is_alphanumeric() || c == '_') => {
            value.trim()
        }
        _ => first,
    };
    (!first.is_empty()).then_some(first)
}

/// The texts of a call's arguments (`(a(b, c), [d])` → `a(b, c)`, `[d]`), split at the commas
/// outside brackets and strings; none when the text is not a parenthesised list.
pub(super) fn arguments(args_text: &str) -> Vec<&str> {
    let Some(inner) = args_text.trim().strip_prefix('(') else {
        return Vec::new();
    };
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut quote = None;
    let mut from = 0;
    let mut end = inner.len();
    for (at, c) in inner.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') if depth == 0 => {
                end = at;
                break;
            }
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ',') if depth == 0 => {
                parts.push(inner[from..at].trim());
                from = at + 1;
            }
            _ => {}
        }
    }
    parts.push(inner[from..end].trim());
    parts.retain(|p| !p.is_empty());
    parts
}

/// The columns a run of fills names (`na.fill("x", ["a"]).na.fill("", ["b"])` — Spark plans the
/// run as one Project): none when any of them fills every column of its value's type (no
/// subset).
fn filled_columns(chain: &CallChain, position: usize) -> Vec<&str> {
    let in_run = |c: &crate::code::SparkCall| is_fill_method(&c.method) || c.method == "na";
    let calls = &chain.calls;
    let first = calls[..position]
        .iter()
        .rposition(|c| !in_run(c))
        .map_or(0, |p| p + 1);
    let end = calls[position..]
        .iter()
        .position(|c| !in_run(c))
        .map_or(calls.len(), |p| position + p);
    let fills = || {
        calls[first..end]
            .iter()
            .filter(|c| is_fill_method(&c.method))
    };
    if fills().any(|c| c.args.columns.is_empty()) {
        return Vec::new();
    }
    fills()
        .flat_map(|c| c.args.columns.iter().map(String::as_str))
        .collect()
}

/// A site for every clause of every SQL statement; the ids of each statement's sites.
fn clause_sites(index: &RepoIndex, origin: &Origin<'_>, sites: &mut Vec<Site>) -> Vec<Vec<SiteId>> {
    let mut sql_sites = Vec::with_capacity(index.sql.len());
    for (stmt_idx, stmt) in index.sql.iter().enumerate() {
        let mut ids = Vec::with_capacity(stmt.clauses.len());
        for (clause_idx, clause) in stmt.clauses.iter().enumerate() {
            let mut evidence = clause_evidence(stmt, clause);
            let functions: Vec<String> = clause_functions(stmt, clause);
            let mut families = clause_families(clause.kind, &functions);
            // A statement running a command (`SHOW TABLES`) is what a command node runs.
            if let Some(command) = crate::pipeline::commands::command_of_clause(clause) {
                families.insert(OperatorFamily::Write);
                evidence.add(TokenKind::Literal, &format!("{SQL_COMMAND}{command}"));
            }
            if clause.kind == SqlClauseKind::Subquery && !is_predicate_subquery(stmt, clause) {
                families = FamilySet::EMPTY;
            }
            // A grouped block's windows are planned from its aggregate ([`block_windows`]).
            if clause.kind == SqlClauseKind::GroupBy && !block_windows(stmt, clause).is_empty() {
                families.insert(OperatorFamily::Window);
            }
            if matches!(
                clause.kind,
                SqlClauseKind::SelectItem | SqlClauseKind::Window
            ) && in_grouped_block(stmt, clause)
            {
                families.remove(OperatorFamily::Window);
            }
            // A WHERE or SELECT the index could not split into conjuncts or items stands in for
            // them.
            let item_kind = match clause.kind {
                SqlClauseKind::Where => Some((
                    SqlClauseKind::WherePredicate,
                    clause_families(SqlClauseKind::WherePredicate, &functions),
                )),
                SqlClauseKind::Select => Some((
                    SqlClauseKind::SelectItem,
                    clause_families(SqlClauseKind::SelectItem, &functions),
                )),
                _ => None,
            };
            if let Some((item, item_families)) = item_kind
                && !stmt.clauses.iter().any(|c| {
                    c.kind == item && c.depth == clause.depth && clause.lines.contains(&c.lines)
                })
            {
                families = item_families;
            }
            let id = sites.len();
            sites.push(Site {
                id,
                file: stmt.file,
                symbol: stmt.symbol,
                kind: SiteKind::Sql {
                    statement: stmt_idx,
                    clause: clause_idx,
                    kind: clause.kind,
                },
                families,
                lines: clause.lines,
                precise: clause.lines,
                evidence,
                terms: code_terms(&clause.text),
                flags: origin.flags(stmt.file, stmt.symbol),
                depth: clause.depth,
                origin_prior: match stmt.origin {
                    SqlOrigin::SparkSqlCall | SqlOrigin::NotebookCell => 1.0,
                    SqlOrigin::SqlFile => 0.9,
                    SqlOrigin::StringLiteral => 0.85 * origin.file_prior(stmt.file),
                },
                narrowed_before: false,
                aggregated_before: false,
            });
            ids.push(id);
        }
        sql_sites.push(ids);
    }
    sql_sites
}

/// A reader that names no path of its own (`spark.read.parquet(path)` in a helper) takes the
/// paths its callers pass in.
fn add_caller_paths(
    index: &RepoIndex,
    helpers: &[crate::pipeline::handoffs::HelperFeeds],
    chain_sites: &[Vec<SiteId>],
    sites: &mut [Site],
) {
    for (chain, hints) in crate::pipeline::handoffs::caller_path_hints(index, helpers) {
        for &id in &chain_sites[chain] {
            let site = &mut sites[id];
            let names_nothing = !site
                .evidence
                .tokens
                .iter()
                .any(|(k, _)| matches!(k, TokenKind::Path | TokenKind::Table));
            if site.families.contains(OperatorFamily::Scan) && names_nothing {
                for hint in &hints {
                    site.evidence.add(TokenKind::Path, hint);
                }
            }
        }
    }
}

/// For each chain: whether it starts from a DataFrame no chain of its file builds (see
/// [`SiteTable::flow_is_open`]).
fn open_chains(
    index: &RepoIndex,
    chain_feeds: &[Vec<(FlowRole, usize)>],
    chain_sites: &[Vec<SiteId>],
    helpers: &[crate::pipeline::handoffs::HelperFeeds],
    sites: &[Site],
) -> Vec<bool> {
    index
        .chains
        .iter()
        .zip(chain_feeds)
        .zip(chain_sites)
        .zip(helpers)
        .map(|(((chain, feeds), ids), helper)| {
            let reads_a_source = ids
                .first()
                .is_some_and(|s: &SiteId| sites[*s].families.contains(OperatorFamily::Scan));
            let receiver_defined = feeds.iter().any(|(role, _)| *role == FlowRole::Receiver);
            // `x = helper(…)` with `helper` nowhere in the index: built out of sight.
            let unseen_source = ids.is_empty() && helper.source_unresolved;
            unseen_source
                || (!reads_a_source
                    && !receiver_defined
                    && !root_variable(&chain.receiver).is_empty())
        })
        .collect()
}

/// Token value → the sites holding it.
fn postings(sites: &[Site]) -> HashMap<String, Vec<SiteId>> {
    let mut postings: HashMap<String, Vec<SiteId>> = HashMap::new();
    for site in sites {
        let values: BTreeSet<&String> = site.evidence.tokens.iter().map(|(_, v)| v).collect();
        for v in values {
            postings.entry(v.clone()).or_default().push(site.id);
        }
        // a reader of a pattern: found by the folders of the files it matches
        let folders: BTreeSet<String> = site
            .evidence
            .path_globs
            .iter()
            .filter_map(|g| glob_folder_key(g))
            .collect();
        for key in folders {
            postings.entry(key).or_default().push(site.id);
        }
    }
    postings
}

/// The sites of each operator family (indexed by `OperatorFamily as usize`).
fn family_sites(sites: &[Site]) -> Vec<Vec<SiteId>> {
    let mut family_sites: Vec<Vec<SiteId>> = vec![Vec::new(); OperatorFamily::Other as usize + 1];
    for site in sites {
        for (f, list) in family_sites.iter_mut().enumerate() {
            if site.families.contains_index(f) {
                list.push(site.id);
            }
        }
    }
    family_sites
}

/// `distinct()`, `dropDuplicates(…)`: the plan shows them as aggregates with no functions of
/// their own (see `semantics::is_deduplication`); so does `countDistinct(…)`, whose plan first
/// de-duplicates its columns.
/// The aggregate functions `describe()` / `summary()` plan without naming them, and the rows
/// they return, one per statistic.
pub(super) fn statistics_computed_by(
    method: &str,
) -> (&'static [&'static str], &'static [&'static str]) {
    // Both explode the statistics into rows named as the plan prints them and pick each
    // column's value out of its map; `summary()` adds the quartiles.
    if method.eq_ignore_ascii_case("describe") {
        (
            &[
                "count",
                "mean",
                "stddev",
                "min",
                "max",
                "explode",
                "element_at",
            ],
            &["count", "mean", "stddev", "min", "max"],
        )
    } else if method.eq_ignore_ascii_case("summary") {
        (
            &[
                "count",
                "mean",
                "stddev",
                "min",
                "max",
                "percentile_approx",
                "explode",
                "element_at",
            ],
            &["count", "mean", "stddev", "min", "25%", "50%", "75%", "max"],
        )
    } else {
        (&[], &[])
    }
}

/// The file format a reader call reads: its own method's (`read.csv`, `textFile`), or for
/// `load` the `format("json")` before it in the chain.
/// Whether a CSV reader names its columns: a header row (`option("header", "true")`,
/// `csv(p, header=True)`) or a schema (`schema(s)`, `schema=s`) before or at the read.
fn names_csv_columns(chain: &CallChain, position: usize) -> bool {
    chain.calls[..=position].iter().any(|c| {
        let arguments = c.args.text.to_ascii_lowercase();
        c.method.eq_ignore_ascii_case("schema")
            || arguments.contains("schema")
            || arguments.contains("header") && arguments.contains("true")
    })
}

/// Whether `calls[position]` makes a frame of rows no reader of files gave: a session's
/// [`vocab::ROWS_TO_FRAME`] (`createDataFrame`), or `toDF` / `toDS` of a collection or an RDD —
/// which Spark scans as local rows or as an RDD, whatever made them — not of a reader's frame
/// (`read.csv(p).toDF("a")` renames the file scan's columns) ([`Evidence::makes_rows_in_memory`]).
fn makes_rows_in_memory(chain: &CallChain, position: usize) -> bool {
    let before = &chain.calls[..position];
    match chain.calls[position].method.as_str() {
        method if vocab::ROWS_TO_FRAME.contains(&method) => true,
        "toDF" | "toDS" => {
            !chain.receiver.split('.').any(vocab::is_session_name)
                && !before.iter().any(|c| {
                    file_format(&c.method).is_some()
                        || ["read", "readStream", "load", "table", "sql"]
                            .contains(&c.method.as_str())
                })
        }
        _ => false,
    }
}

/// Whether the frame JVM code makes at `position` holds an RDD's rows or a local collection's
/// ([`Evidence::rows_from_rdd`]): a `parallelize` / `makeRDD`, and `toDF` / `toDS` of one, is
/// an RDD's (`Scan ExistingRDD`); `toDF` / `toDS` of a `Seq(…)`, `List(…)` or `Array(…)` is a
/// local collection's (Spark plans a `LocalTableScan`), and so is `createDataFrame` /
/// `createDataset` of a collection written in place (`Seq(…)`, `Arrays.asList(…)`). Not known
/// otherwise (a variable, a helper).
fn jvm_rows_from_rdd(chain: &CallChain, position: usize) -> Option<bool> {
    let call = &chain.calls[position];
    let before = &chain.calls[..position];
    match call.method.as_str() {
        method if RDD_MAKERS.contains(&method) => Some(true),
        "toDF" | "toDS" => {
            if before
                .iter()
                .any(|c| RDD_MAKERS.contains(&c.method.as_str()))
            {
                Some(true)
            } else if before.len() == 1 && LOCAL_COLLECTIONS.contains(&before[0].method.as_str()) {
                Some(false)
            } else {
                None
            }
        }
        "createDataFrame" | "createDataset" => {
            let (_, after) = chain.text.split_once(&format!("{}(", call.method))?;
            let argument = after.trim_start();
            LOCAL_COLLECTIONS
                .iter()
                .chain(["Arrays.asList", "List.of", "Collections.singletonList"].iter())
                .any(|c| argument.starts_with(&format!("{c}(")))
                .then_some(false)
        }
        _ => None,
    }
}

/// The `SparkContext` methods making an RDD of a driver's collection.
const RDD_MAKERS: &[&str] = &["parallelize", "makeRDD"];

/// Scala's collections written in place, whose `toDF` Spark plans as a local relation.
const LOCAL_COLLECTIONS: &[&str] = &["Seq", "List", "Array", "Vector"];

fn reader_format(chain: &CallChain, position: usize) -> Option<String> {
    let call = &chain.calls[position];
    if let Some(format) = file_format(&call.method) {
        return Some(format);
    }
    if !call.method.eq_ignore_ascii_case("load") {
        return None;
    }
    chain.calls[..position]
        .iter()
        .rev()
        .find(|c| c.method == "format")
        .and_then(|c| c.args.literals.first())
        .and_then(|f| file_format(f))
}

pub(super) fn is_writer_accessor(member: Option<&str>) -> bool {
    member.is_some_and(|m| {
        ["write", "writestream", "writeto"]
            .iter()
            .any(|w| w.eq_ignore_ascii_case(m))
    })
}

pub(super) fn is_null_dropping_call(method: &str, previous_method: Option<&str>) -> bool {
    method.eq_ignore_ascii_case("dropna")
        || (method.eq_ignore_ascii_case("drop")
            && previous_method.is_some_and(|m| m.eq_ignore_ascii_case("na")))
}

/// The names the projections right after an aggregating call give their columns: Spark folds
/// such projections into the Aggregate's results (`dropDuplicates().withColumnRenamed("amount",
/// "txn_amount")` plans `amount AS txn_amount` there). Filters in between are pushed below the
/// Aggregate and skipped; any other operation ends the run.
fn names_folded_into_aggregate(following: &[crate::code::SparkCall]) -> Vec<&str> {
    let mut names = Vec::new();
    for call in following {
        let families = call_families(&call.method, &[]);
        if families.contains(OperatorFamily::Project)
            && !families.contains(OperatorFamily::Aggregate)
        {
            let literals = &call.args.literals;
            let named = if call.method.eq_ignore_ascii_case("withColumnRenamed") {
                literals.last()
            } else if call.method.eq_ignore_ascii_case("withColumn") {
                literals.first()
            } else {
                None
            };
            names.extend(named.map(String::as_str));
            names.extend(call.args.aliases.iter().map(String::as_str));
        } else if !families.contains(OperatorFamily::Filter) {
            break;
        }
    }
    names
}

/// A join call naming its keys (`join(other, "k")`, `join(other, ["k"], "left")`, `Seq("k")`)
/// rather than comparing them (`a.k == b.k`, `col("a") === col("b")`, `equalTo`) or stating
/// its condition in SQL (`expr("a.k = b.k")`, `expr("array_contains(tags, id)")`).
fn joins_on_names(call: &crate::code::SparkCall) -> bool {
    let text = call.args.text.to_ascii_lowercase();
    let compares = ["==", "equalto", "eqnullsafe", "<=>", "expr("]
        .iter()
        .any(|op| text.contains(op));
    let names_a_key = !call.args.columns.is_empty()
        || call
            .args
            .literals
            .iter()
            .any(|l| !is_join_type_word(&l.to_lowercase()));
    call.method.eq_ignore_ascii_case("join") && !compares && names_a_key
}

/// What a join's condition tests besides its keys.
#[derive(Default)]
struct OneSideTests {
    /// A column compared with a value (`col("l_shipdate") >= "1995-09-01"`).
    compares_with_values: bool,
    /// A function applied to columns (`~special(col("o_comment"))`, `upper(x) == y`).
    applies_functions: bool,
    /// What the condition compares ([`predicates`]).
    facts: std::collections::BTreeSet<String>,
}

/// Functions a join's condition calls to compare, combine or pick its columns and sides: no test
/// of their own (`a.col("k").equalTo(b.col("k")).and(…)`, `broadcast(other)`).
const JOIN_CONDITION_PLUMBING: &[&str] = &[
    "broadcast",
    "equalto",
    "eqnullsafe",
    "notequal",
    "and",
    "or",
    "not",
    "gt",
    "lt",
    "geq",
    "leq",
    "col",
    "apply",
];

/// A function called in code: `special(`, `F.upper(`, `.equalTo(`.
static CALLED_FUNCTION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"([A-Za-z_]\w*)\s*\(").expect("called function pattern"));

/// The tests of a join's condition on one side alone, which the optimiser pushes below the join
/// as a Filter of that side (a Python UDF's evaluated there first, by a Python-eval node): a
/// comparison with a value, or a function the condition applies. The condition is among the
/// arguments after the frame joined (`join(other_frame(spark), "k")` applies nothing to a column).
fn tests_of_one_side(call: &crate::code::SparkCall) -> OneSideTests {
    if !["join", "joinwith"].contains(&call.method.to_lowercase().as_str()) {
        return OneSideTests::default();
    }
    let arguments = arguments(&call.args.text);
    let Some(after_frame) = arguments.get(1..).filter(|rest| !rest.is_empty()) else {
        return OneSideTests::default();
    };
    let condition = after_frame.join(", ");
    let facts = predicates::of_filter_arguments(&condition);
    // (a comparison with a name is a fact ending in its operator: `x<` for `x < limit`)
    let compares_with_values = facts
        .iter()
        .any(|f| !f.ends_with(['=', '<', '>']) && f.contains(['=', '<', '>']));
    let applies_functions = CALLED_FUNCTION.captures_iter(&condition).any(|c| {
        let f = normalise_function(&c[1]);
        !is_noise_function(&f) && !JOIN_CONDITION_PLUMBING.contains(&f.as_str())
    });
    OneSideTests {
        compares_with_values,
        applies_functions,
        facts,
    }
}

/// The name a `count()` call gives its result: the plan's `count(1) AS count`, where SQL's
/// `count(*)` and `select(count("*"))` without an alias are named `count(1)` (and after a pivot
/// the values name the results).
const GROUPED_COUNT_NAME: &str = "count";

/// … and the name a typed grouping's `count()` gives it (`groupByKey(f).count()`):
/// `KeyValueGroupedDataset.count` names it as SQL's `count(*)`.
const TYPED_GROUPED_COUNT_NAME: &str = "count(1)";

/// The name of the count a grouping's `count()` computes ([`GROUPED_COUNT_NAME`],
/// [`TYPED_GROUPED_COUNT_NAME`]).
fn grouped_count_name(grouping: Option<&crate::code::SparkCall>) -> &'static str {
    match grouping {
        Some(g) if g.method.eq_ignore_ascii_case("groupbykey") => TYPED_GROUPED_COUNT_NAME,
        _ => GROUPED_COUNT_NAME,
    }
}

fn names_its_count(aggregating: &crate::code::SparkCall) -> bool {
    aggregating.method.eq_ignore_ascii_case("count")
}

/// What the call aggregating a grouping computes and reads (`.agg(sum(x))`, `.count()`, and the
/// names `count()` and `sum("x")` give), added to the grouping call's evidence; `countDistinct(x)`
/// first de-duplicates over the keys and `x`.
fn add_aggregation(
    evidence: &mut Evidence,
    grouping: &crate::code::SparkCall,
    aggregating: &crate::code::SparkCall,
    pivoted: bool,
) {
    if names_its_count(aggregating) {
        evidence.add(TokenKind::Function, COUNT_OF_ROWS);
        if !pivoted {
            evidence.add(TokenKind::Alias, grouped_count_name(Some(grouping)));
        }
    } else if !pivoted {
        // `groupBy(k).sum("x")` names its results as an unaliased `agg(sum("x"))` would.
        let function = normalise_function(&aggregating.method);
        for column in &aggregating.args.columns {
            if let Some(name) = result_name(&function, column) {
                evidence.add(TokenKind::Alias, &name);
            }
        }
    }
    let computed = aggregating
        .args
        .functions
        .iter()
        .map(|f| normalise_function(f))
        .chain(std::iter::once(normalise_function(&aggregating.method)))
        .filter(|f| AGGREGATE_FUNCTIONS.contains(&f.as_str()))
        .collect::<Vec<_>>();
    for f in &computed {
        evidence.add(TokenKind::Function, f);
    }
    let distinct = computed.iter().any(|f| f.ends_with(DISTINCT));
    if distinct {
        evidence.add(TokenKind::Function, DISTINCT);
    }
    // What it aggregates (`agg(sum(df.salary))`): the grouping and its aggregation are one
    // Aggregate, whichever call spells what. (Not what a pivot sums: it would pass for a plain
    // grouping by the pivot's column.)
    if distinct || !pivoted {
        evidence.add_all(TokenKind::Column, &aggregating.args.columns);
    }
}

/// A grouping held in a variable and aggregated by a later statement
/// (`grouped = df.groupBy("k")`, then `grouped.agg(sum("x"))`) is one Aggregate as much as the
/// chained form, made by the aggregating call (where Spark records it): that call holds the
/// grouping's keys, what it computes (as the chained form's grouping call does) and groups by
/// the keys.
fn join_split_groupings(
    index: &RepoIndex,
    chain_sites: &[Vec<SiteId>],
    chain_feeds: &[Vec<(FlowRole, usize)>],
    sites: &mut [Site],
) {
    for (chain_idx, chain) in index.chains.iter().enumerate() {
        let Some(grouping) = receiver_feed(chain_feeds, chain_idx).filter(|fed| {
            index.chains[*fed]
                .calls
                .last()
                .is_some_and(|c| is_grouping_method(&c.method))
        }) else {
            continue;
        };
        let (Some(grouping_call), Some(aggregating_call), Some(&aggregating_site)) = (
            index.chains[grouping].calls.last(),
            chain.calls.first(),
            chain_sites[chain_idx].first(),
        ) else {
            continue;
        };
        let aggregating = &mut sites[aggregating_site];
        if !aggregating.families.contains(OperatorFamily::Aggregate) {
            continue;
        }
        let keys = &grouping_call.args;
        let evidence = &mut aggregating.evidence;
        add_aggregation(evidence, grouping_call, aggregating_call, false);
        evidence.returns_keys = returns_keys(&chain.calls[1..]);
        evidence.add_all(TokenKind::Column, &keys.columns);
        add_group_keys(evidence, grouping_call);
        evidence.add_all(TokenKind::Literal, &keys.literals);
        if names_keys(grouping_call) && evidence.grouping.is_some() {
            evidence.grouping = Some(Grouping::Keyed);
        }
    }
}

/// Whether the aggregate call `position` plans groups by keys: a grouping call naming keys, or a
/// call right after one (`groupBy(k).agg(…)`, past a `pivot`); anything else (`select(count(x))`,
/// `agg(…)`, `groupBy()` without keys) aggregates every row.
fn call_grouping(chain: &CallChain, position: usize) -> Grouping {
    let call = &chain.calls[position];
    let grouping = if is_grouping_method(&call.method) {
        Some(call)
    } else {
        chain.calls[..position]
            .iter()
            .rev()
            .find(|c| !c.method.eq_ignore_ascii_case("pivot"))
            .filter(|c| is_grouping_method(&c.method))
    };
    if grouping.is_some_and(names_keys) {
        Grouping::Keyed
    } else {
        Grouping::Global
    }
}

/// Whether a grouping or de-duplicating call names its keys (`groupBy("k")`, not `groupBy()`),
/// written out or computed (`groupBy(keys.head, keys.tail: _*)`).
fn names_keys(call: &crate::code::SparkCall) -> bool {
    !(call.args.columns.is_empty() && call.args.literals.is_empty()) || call.args.computed_columns
}

/// The evidence a value a name resolves to is, by the role the name has in its call.
fn token_kind_of(role: NameRole) -> TokenKind {
    match role {
        NameRole::Path => TokenKind::Path,
        NameRole::Table => TokenKind::Table,
        NameRole::Column => TokenKind::Column,
        NameRole::Literal => TokenKind::Literal,
    }
}

/// Column helpers by name ([`crate::code::Symbol::returned_functions`]): the functions each
/// one's returned expression calls, over every definition of the name.
fn column_helpers(index: &RepoIndex) -> HashMap<&str, BTreeSet<&str>> {
    let mut helpers: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for symbol in index
        .symbols
        .iter()
        .filter(|s| !s.returned_functions.is_empty())
    {
        helpers
            .entry(symbol.name.as_str())
            .or_default()
            .extend(symbol.returned_functions.iter().map(String::as_str));
    }
    helpers
}

/// Record classes by name — a Scala case class, a Java record or bean ([`crate::code::Symbol`]'s
/// `params` of a class): the columns a frame of their objects has.
fn record_classes(index: &RepoIndex) -> HashMap<&str, &[String]> {
    record_class_symbols(index)
        .map(|s| (s.name.as_str(), s.params.as_slice()))
        .collect()
}

/// The classes whose objects make a frame's rows: those with fields (`params`).
fn record_class_symbols(index: &RepoIndex) -> impl Iterator<Item = &crate::code::Symbol> {
    index
        .symbols
        .iter()
        .filter(|s| s.kind == SymbolKind::Class && !s.params.is_empty())
}

/// Record classes by the name a typed plan prints for them (`Select$Cust` for a case class
/// nested in `object Select`, `Person` for a top-level one), with their fields; a name two
/// classes share is left out ([`SiteTable::record_fields`]).
fn unique_record_classes(index: &RepoIndex) -> HashMap<String, Vec<String>> {
    let mut by_name: HashMap<String, Option<Vec<String>>> = HashMap::new();
    for symbol in record_class_symbols(index) {
        let outer = symbol
            .parent
            .and_then(|p| index.symbols.get(p as usize))
            .filter(|p| matches!(p.kind, SymbolKind::Class | SymbolKind::Object));
        let name = match outer {
            Some(outer) => format!("{}${}", outer.name, symbol.name),
            None => symbol.name.clone(),
        };
        by_name
            .entry(name)
            .and_modify(|seen| *seen = None)
            .or_insert_with(|| Some(symbol.params.clone()));
    }
    by_name
        .into_iter()
        .filter_map(|(name, fields)| fields.map(|f| (name, f)))
        .collect()
}

/// Whether `method` makes a frame of objects whose class may give its columns
/// (`createDataFrame(list, Person.class)`, `createDataset`, `seq.toDF()` / `toDS()`) — not the
/// `parallelize` making the RDD, which has no columns yet.
fn makes_frame_of_objects(method: &str) -> bool {
    vocab::ROWS_TO_FRAME.contains(&method) || vocab::makes_frame_of_rows(method)
}

/// A class named where objects become rows (`Person.class`, `new Person(…)`, Scala's
/// `Person(…)` or `[Person]`).
static CLASS_MENTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b([A-Z][A-Za-z0-9_]*)\s*(?:\(|\.class\b|\])").expect("class mention pattern")
});

/// The fields of the record classes a statement names ([`CLASS_MENTION`]), each class once.
fn records_named<'r>(records: &HashMap<&str, &'r [String]>, statement: &str) -> Vec<&'r [String]> {
    let mut seen = BTreeSet::new();
    CLASS_MENTION
        .captures_iter(statement)
        .filter_map(|c| c.get(1))
        .filter(|name| seen.insert(name.as_str()))
        .filter_map(|name| records.get(name.as_str()).copied())
        .collect()
}

/// The build module a source file belongs to — the folder above its `src/main/` or `src/test/`
/// (`apache-spark-4/src/main/java/…` → `apache-spark-4`), whose relative paths a JVM job run
/// from that module resolves against; `None` at the repository's root or outside such a tree.
fn build_module(path: &str) -> Option<&str> {
    ["/src/main/", "/src/test/"]
        .iter()
        .find_map(|marker| path.find(marker).map(|at| &path[..at]))
        .filter(|module| !module.is_empty())
}

/// The columns a grouping call keys on ([`Evidence::group_keys`]), and whether it also keys on
/// columns the code computes ([`Evidence::names_computed_columns`]).
fn add_group_keys(evidence: &mut Evidence, grouping: &crate::code::SparkCall) {
    evidence
        .group_keys
        .extend(grouping.args.columns.iter().map(|c| normalise_column(c)));
    evidence.names_computed_columns |= grouping.args.computed_columns;
    if is_typed_grouping_by_one_value(grouping) {
        evidence.group_keys.insert(TYPED_KEY_NAME.to_owned());
        evidence.add(TokenKind::Column, TYPED_KEY_NAME);
    }
}

/// The name Spark gives the key a typed grouping computes when it is one value
/// (`groupByKey(_.passengerId)` appends `value` to each row and aggregates by it).
const TYPED_KEY_NAME: &str = "value";

/// A typed grouping (`groupByKey`) by one value (`groupByKey(_.id)`, Java's `groupByKey(f,
/// Encoders.INT())`), not by a tuple (`groupByKey(r => (r.a, r.b))` keys on `_1` and `_2`) or an
/// object whose fields are the keys (`Encoders.bean(Key.class)`).
fn is_typed_grouping_by_one_value(grouping: &crate::code::SparkCall) -> bool {
    if !grouping.method.eq_ignore_ascii_case("groupbykey") {
        return false;
    }
    let compact: String = grouping
        .args
        .text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let of_several_values = ["=>(", "->(", "Tuple", "Encoders.bean", "Encoders.product"]
        .iter()
        .any(|marker| compact.contains(marker));
    !of_several_values
}

/// `groupBy` and its spellings: a call whose aggregate the next call computes.
pub(super) fn is_grouping_method(method: &str) -> bool {
    ["groupby", "group_by", "groupbykey", "rollup", "cube"]
        .iter()
        .any(|m| m.eq_ignore_ascii_case(method))
}

/// The join type Spark plans a de-duplicating set operation as, on whole rows and then
/// de-duplicated: `except` / `subtract` an anti join, `intersect` a semi join. (The `…All` forms
/// count copies with a union and an aggregate instead.)
fn set_operation_join(method: &str) -> Option<&'static str> {
    match method.to_ascii_lowercase().as_str() {
        "except" | "subtract" => Some("leftanti"),
        "intersect" => Some("leftsemi"),
        _ => None,
    }
}

pub(super) fn is_deduplicating_method(method: &str) -> bool {
    [
        "distinct",
        "dropduplicates",
        "drop_duplicates",
        "dropduplicateswithinwatermark",
    ]
    .iter()
    .any(|m| m.eq_ignore_ascii_case(method))
}

/// Above this many compatible sites, compatibility alone tells nothing about where a node is.
pub(super) const FAMILY_FALLBACK_CAP: usize = 2000;

/// Prior for code in files that show no sign of Spark: repositories often hold the same query in
/// pandas, Polars or Dask, with the same verbs (`filter`, `join`, `agg`).
pub(super) const NON_SPARK_PRIOR: f64 = 0.6;

/// Files that drive Spark: the index's `usesSpark` (imports or references of Spark), files
/// whose SQL was seen flowing into `spark.sql(…)`, and files whose functions Spark code hands a
/// DataFrame to ([`handed_frames`]).
pub(super) fn spark_files(index: &RepoIndex) -> std::collections::HashSet<FileId> {
    let mut files: std::collections::HashSet<FileId> = index
        .files
        .iter()
        .filter(|f| f.uses_spark)
        .map(|f| f.id)
        .collect();
    files.extend(
        index
            .sql
            .iter()
            .filter(|s| s.origin == SqlOrigin::SparkSqlCall)
            .map(|s| s.file),
    );
    // A module of helpers needs no import of Spark to transform the frames it is given
    // (`def build_star_schema(df, out): df.select(…)`): its caller is the Spark code. Followed
    // from file to file, a few hops at most.
    let frames: std::collections::HashSet<(FileId, &str)> = index
        .chains
        .iter()
        .filter_map(|c| Some((c.file, c.assigned_to.as_deref()?)))
        .collect();
    for _ in 0..4 {
        let handed = handed_frames(index, &frames, &files);
        if handed.is_subset(&files) {
            break;
        }
        files.extend(handed);
    }
    files
}

/// Files defining a function that a file of `spark` calls with a DataFrame variable (one of
/// `frames`: (file, name) a chain is assigned to) as an argument.
fn handed_frames(
    index: &RepoIndex,
    frames: &std::collections::HashSet<(FileId, &str)>,
    spark: &std::collections::HashSet<FileId>,
) -> std::collections::HashSet<FileId> {
    let called: std::collections::HashSet<&str> = index
        .passed
        .iter()
        .filter(|p| spark.contains(&p.file))
        .filter(|p| match &p.value {
            crate::code::ArgValue::Name(name) => frames.contains(&(p.file, name.as_str())),
            crate::code::ArgValue::Literal(_)
            | crate::code::ArgValue::Setting(_)
            | crate::code::ArgValue::Returned(_)
            | crate::code::ArgValue::Expression => false,
        })
        .map(|p| p.callee.as_str())
        .collect();
    index
        .symbols
        .iter()
        .filter(|s| called.contains(s.name.as_str()))
        .map(|s| s.file)
        .collect()
}

/// Whether a subquery clause sits inside a WHERE / HAVING predicate (`IN (SELECT …)`, `EXISTS`,
/// a scalar comparison): such a subquery becomes a join or filter of the outer plan. A derived
/// table in FROM does not; its own clauses are the sites.
pub(super) fn is_predicate_subquery(stmt: &SqlStatement, clause: &SqlClause) -> bool {
    clause.kind == SqlClauseKind::Subquery
        && stmt.clauses.iter().any(|c| {
            matches!(
                c.kind,
                SqlClauseKind::Where | SqlClauseKind::WherePredicate | SqlClauseKind::Having
            ) && c.depth < clause.depth
                && c.lines.contains(&clause.lines)
        })
}

/// The clause itself and, for a predicate subquery, the clauses of its body (deeper or equal depth,
/// inside its lines): such a subquery's evidence is that of its body.
pub(super) fn nested_in<'a>(
    stmt: &'a SqlStatement,
    clause: &'a SqlClause,
) -> impl Iterator<Item = &'a SqlClause> {
    let predicate_subquery = is_predicate_subquery(stmt, clause);
    stmt.clauses.iter().filter(move |c| {
        std::ptr::eq(*c, clause)
            || (predicate_subquery && c.depth >= clause.depth && clause.lines.contains(&c.lines))
    })
}

/// Whether a clause belongs to the query block `clause` is in (the `SELECT` around it, at its
/// depth); `None` when no `SELECT` holds `clause`.
fn in_query_block<'s>(
    stmt: &'s SqlStatement,
    clause: &'s SqlClause,
) -> Option<impl Fn(&&SqlClause) -> bool + 's> {
    // Clauses are in the order they are written: the block runs from the last `SELECT` at the
    // clause's depth before it to the next one (a `UNION`'s next branch, a sibling CTE's body).
    let at = stmt.clauses.iter().position(|c| std::ptr::eq(c, clause))?;
    let heads_at_depth = |i: &usize| {
        stmt.clauses[*i].kind == SqlClauseKind::Select && stmt.clauses[*i].depth == clause.depth
    };
    let head = (0..=at).rev().find(heads_at_depth)?;
    let end = (head + 1..stmt.clauses.len())
        .find(heads_at_depth)
        .unwrap_or(stmt.clauses.len());
    let block = &stmt.clauses[head..end];
    Some(move |c: &&SqlClause| c.depth == clause.depth && block.iter().any(|b| std::ptr::eq(b, *c)))
}

/// The clauses of the query block around `clause` (its `SELECT` at its depth) that `keep` keeps.
fn block_clauses<'s>(
    stmt: &'s SqlStatement,
    clause: &'s SqlClause,
    keep: impl Fn(&SqlClause) -> bool,
) -> Vec<&'s SqlClause> {
    let Some(in_block) = in_query_block(stmt, clause) else {
        return Vec::new();
    };
    stmt.clauses
        .iter()
        .filter(in_block)
        .filter(|c| keep(c))
        .collect()
}

/// The aggregates a grouped block computes: those its select list returns
/// (`SELECT k, sum(x) AS total … GROUP BY k`) and those it orders by (`GROUP BY k ORDER BY
/// sum(x) DESC`, named in no select item). One aggregate node computes them all, so they are
/// the `GROUP BY`'s evidence too: the clause explains the whole node where each select item
/// explains one of its functions.
fn block_aggregates<'s>(stmt: &'s SqlStatement, group_by: &'s SqlClause) -> Vec<&'s SqlClause> {
    block_clauses(stmt, group_by, |c| {
        matches!(c.kind, SqlClauseKind::OrderBy | SqlClauseKind::SelectItem)
            && c.functions.iter().any(|f| is_aggregate_function(f))
    })
}

/// The windows of a grouped block's select list (`RANK() OVER (ORDER BY sum(x) DESC)` beside
/// `GROUP BY k`): Spark's analyzer plans them as a window over the block's aggregate, made from
/// the aggregate — so the `GROUP BY` is where that window comes from, not the select item.
fn block_windows<'s>(stmt: &'s SqlStatement, group_by: &'s SqlClause) -> Vec<&'s SqlClause> {
    block_clauses(stmt, group_by, |c| c.kind == SqlClauseKind::Window)
}

/// Whether the query block around `clause` groups (`GROUP BY` at its depth).
fn in_grouped_block(stmt: &SqlStatement, clause: &SqlClause) -> bool {
    !block_clauses(stmt, clause, |c| c.kind == SqlClauseKind::GroupBy).is_empty()
}

/// The columns a `GROUP BY` keys on ([`Evidence::group_keys`]) — none when it groups by a name
/// its select list defines (`SELECT year(d) AS y … GROUP BY y`: the plan keys on `year(d)`).
fn grouping_columns(stmt: &SqlStatement, group_by: &SqlClause) -> BTreeSet<String> {
    let keys: BTreeSet<String> = group_by
        .columns
        .iter()
        .map(|c| normalise_column(c))
        .collect();
    let defines_a_key = block_clauses(stmt, group_by, |c| c.kind == SqlClauseKind::SelectItem)
        .into_iter()
        .flat_map(|c| &c.aliases)
        .any(|alias| keys.contains(&normalise_column(alias)));
    if defines_a_key { BTreeSet::new() } else { keys }
}

/// The items of the select list around `clause` when it names what it returns — none when it
/// returns a star (`SELECT *`, `SELECT o.*, c.name`) or the block has no select list.
fn named_select_items<'s>(stmt: &'s SqlStatement, clause: &'s SqlClause) -> Vec<&'s SqlClause> {
    let Some(in_block) = in_query_block(stmt, clause) else {
        return Vec::new();
    };
    let items: Vec<&SqlClause> = stmt
        .clauses
        .iter()
        .filter(&in_block)
        .filter(|c| c.kind == SqlClauseKind::SelectItem)
        .collect();
    if items.iter().any(|i| i.text.trim_end().ends_with('*')) {
        return Vec::new();
    }
    items
}

/// The `GROUP BY` columns the select list around `clause` does not return
/// (`SELECT origin, count(1) … GROUP BY origin, release_year`): none when it returns a star.
fn keys_left_out<'s>(stmt: &'s SqlStatement, clause: &SqlClause) -> Vec<&'s str> {
    let items = named_select_items(stmt, clause);
    if items.is_empty() {
        return Vec::new();
    }
    let Some(in_block) = in_query_block(stmt, clause) else {
        return Vec::new();
    };
    let returned: BTreeSet<String> = items
        .iter()
        .filter_map(|i| match (i.aliases.first(), i.columns.as_slice()) {
            (Some(alias), _) => Some(alias),
            (None, [column]) => Some(column),
            _ => None,
        })
        .map(|name| name.to_lowercase())
        .collect();
    stmt.clauses
        .iter()
        .filter(in_block)
        .filter(|c| c.kind == SqlClauseKind::GroupBy)
        .flat_map(|c| c.columns.iter())
        .filter(|k| !returned.contains(&k.to_lowercase()))
        .map(String::as_str)
        .collect()
}

pub(super) fn clause_evidence(stmt: &SqlStatement, clause: &SqlClause) -> Evidence {
    let mut evidence = Evidence::default();
    // (`EXCEPT` and `INTERSECT` plan joins; `UNION` a `Union`)
    if clause.kind == SqlClauseKind::Union && clause.text.eq_ignore_ascii_case("union") {
        evidence.add(TokenKind::Function, CONCATENATION);
    }
    // An aggregate in a query with `GROUP BY` is keyed; without, it aggregates every row.
    let aggregates = clause.functions.iter().any(|f| is_aggregate_function(f));
    if clause.kind == SqlClauseKind::GroupBy
        || aggregates
            && matches!(
                clause.kind,
                SqlClauseKind::Select | SqlClauseKind::SelectItem | SqlClauseKind::Having
            )
    {
        let grouped = stmt
            .clauses
            .iter()
            .any(|c| c.kind == SqlClauseKind::GroupBy && c.depth == clause.depth);
        // A subquery without `GROUP BY` may be correlated, and a correlated one is planned as
        // an aggregate keyed by its correlation (TPC-H q2's `min(ps_supplycost)`).
        evidence.grouping = if grouped {
            Some(Grouping::Keyed)
        } else if clause.depth == 0 {
            Some(Grouping::Global)
        } else {
            None
        };
    }
    if clause.kind == SqlClauseKind::GroupBy {
        evidence.group_keys = grouping_columns(stmt, clause);
    }
    if clause.kind == SqlClauseKind::GroupBy
        || aggregates
            && matches!(
                clause.kind,
                SqlClauseKind::Select | SqlClauseKind::SelectItem
            )
    {
        for key in keys_left_out(stmt, clause) {
            evidence.add(TokenKind::Literal, &format!("{KEY_LEFT_OUT}{key}"));
        }
    }
    if matches!(
        clause.kind,
        SqlClauseKind::Where | SqlClauseKind::WherePredicate | SqlClauseKind::Having
    ) {
        evidence.predicates = predicates::of_sql_condition(&clause.text);
    }
    let windows = (clause.kind == SqlClauseKind::GroupBy).then(|| block_windows(stmt, clause));
    for c in windows.into_iter().flatten() {
        evidence.add_all(TokenKind::Column, &c.columns);
        evidence.add_all(TokenKind::Function, &c.functions);
        evidence.add_all(TokenKind::Alias, &c.aliases);
    }
    let computed = (clause.kind == SqlClauseKind::GroupBy).then(|| block_aggregates(stmt, clause));
    for c in computed.into_iter().flatten() {
        evidence.add_all(TokenKind::Column, &c.columns);
        for f in &c.functions {
            if is_aggregate_function(f) {
                evidence.add(TokenKind::Function, f);
            }
        }
        // (an `ORDER BY`'s aliases are the names Spark gives its aggregates: `sum(count)`)
        evidence.add_all(TokenKind::Alias, &c.aliases);
        // (`COUNT(DISTINCT x)` plans a de-duplicating aggregate keyed by the grouping's keys and
        // `x`, as `countDistinct(x)` after a `groupBy` does)
        for f in distinct_counted(c).filter(|f| is_aggregate_function(f)) {
            evidence.add(TokenKind::Function, &f);
            evidence.add(TokenKind::Function, DISTINCT);
        }
    }
    // (in a grouped block the de-duplicating aggregate `COUNT(DISTINCT x)` plans is keyed by the
    // `GROUP BY`'s keys and `x`: the grouping's, which holds the token; the item is the count)
    let grouped_item = clause.kind == SqlClauseKind::SelectItem && in_grouped_block(stmt, clause);
    for c in nested_in(stmt, clause) {
        evidence.add_all(TokenKind::Column, &c.columns);
        evidence.add_all(TokenKind::Function, &c.functions);
        evidence.add_all(TokenKind::Literal, &c.literals);
        evidence.add_all(TokenKind::Alias, &c.aliases);
        evidence.add_all(TokenKind::Table, &c.tables);
        evidence.reads_catalog_table |= c.tables.iter().any(|t| is_catalog_table(t));
        // `SELECT DISTINCT …`, `COUNT(DISTINCT x)`: both plan a de-duplicating aggregate.
        let upper = c.text.to_ascii_uppercase();
        if upper.contains("DISTINCT") && !grouped_item {
            evidence.add(TokenKind::Function, DISTINCT);
        }
        for f in distinct_counted(c) {
            evidence.add(TokenKind::Function, &f);
        }
        // `JOIN b USING (k)`, `NATURAL JOIN b`: one `k` each, as a join on names keeps
        let on_names = upper.contains(" USING") || upper.starts_with("NATURAL ");
        if c.kind == SqlClauseKind::Join && on_names {
            evidence.add(TokenKind::Literal, JOINED_ON_NAMES);
        } else if c.kind == SqlClauseKind::Join {
            evidence.narrowed_after_join = !named_select_items(stmt, clause).is_empty();
        }
        // `ON a.x = b.x AND a.y = b.y` names the join's keys in the order Spark plans them.
        if matches!(c.kind, SqlClauseKind::Join | SqlClauseKind::JoinPredicate) {
            for column in &c.columns {
                evidence.add_key(column);
            }
        }
    }
    evidence
}

/// The functions of a clause applying one to distinct values (`COUNT(DISTINCT x)`), as the plan
/// reads them: `count(distinct x)` is `countdistinct`, as `countDistinct(x)` is written in
/// DataFrame code. None when the clause applies none that way.
fn distinct_counted(c: &SqlClause) -> impl Iterator<Item = String> + '_ {
    let counts_distinct = c.text.to_ascii_uppercase().contains("(DISTINCT ");
    c.functions
        .iter()
        .filter(move |_| counts_distinct)
        .map(|f| format!("{}{DISTINCT}", normalise_function(f)))
}

pub(super) fn clause_functions(stmt: &SqlStatement, clause: &SqlClause) -> Vec<String> {
    nested_in(stmt, clause)
        .flat_map(|c| c.functions.iter().map(|f| normalise_function(f)))
        .collect()
}
