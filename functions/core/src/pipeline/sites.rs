//! Sites: the places in a repository a plan node can be mapped to.
//!
//! Every DataFrame method call of every indexed chain and every clause of every indexed SQL
//! statement becomes a [`Site`] with its evidence, the operator families it can produce, the range
//! we would report (the whole statement for a DataFrame call, as users read code; the clause for
//! SQL) and the precise range (the call's own lines). [`SiteTable`] also knows the data flow
//! between sites: which statements feed a given one through DataFrame variables, so alignment can
//! follow a plan's tree down the code's flow.

use super::evidence::{
    DISTINCT, Evidence, TokenKind, TokenWeights, code_terms, identifier_parts, normalise_function,
};
use super::operations::{FamilySet, call_families, clause_families};
use crate::code::{
    CallChain, CodeFlags, FileId, LineRange, RepoIndex, SqlClause, SqlClauseKind, SqlOrigin,
    SqlStatement, SymbolId,
};
use crate::plan::OperatorFamily;
use std::collections::{BTreeSet, HashMap};

pub type SiteId = usize;

#[derive(Debug, Clone, PartialEq)]
pub enum SiteKind {
    /// `calls[position]` of chain `chain`.
    Call {
        chain: usize,
        position: usize,
        method: String,
    },
    /// `clauses[clause]` of SQL statement `statement`.
    Sql {
        statement: usize,
        clause: usize,
        kind: SqlClauseKind,
    },
}

#[derive(Debug, Clone)]
pub struct Site {
    pub id: SiteId,
    pub file: FileId,
    pub symbol: Option<SymbolId>,
    pub kind: SiteKind,
    pub families: FamilySet,
    /// The range reported to users (statement or SQL clause).
    pub lines: LineRange,
    /// The call's own lines (equal to `lines` for SQL).
    pub precise: LineRange,
    pub evidence: Evidence,
    /// Code-aware tokens of the site's text, for BM25.
    pub terms: Vec<String>,
    pub flags: CodeFlags,
    /// SQL nesting depth (0 for the outer query and for DataFrame calls).
    pub depth: u32,
    /// How much to trust that this code runs as Spark: 1 for DataFrame calls and SQL seen flowing
    /// into `spark.sql(…)`, less for SQL that merely sits in a `.sql` file or a string.
    pub origin_prior: f64,
}

/// All sites of an index plus the flow between them.
#[derive(Debug)]
pub struct SiteTable {
    pub sites: Vec<Site>,
    pub weights: TokenWeights,
    /// Sites of each chain, in call order.
    chain_sites: Vec<Vec<SiteId>>,
    /// Sites of each SQL statement.
    sql_sites: Vec<Vec<SiteId>>,
    /// For each chain: the chains that define the DataFrame variables it reads
    /// (receiver first, then argument inputs).
    chain_feeds: Vec<Vec<(FlowRole, usize)>>,
    /// For each chain: whether it starts from a DataFrame no chain of its file builds (a function
    /// parameter, a variable from elsewhere) — see [`SiteTable::flow_is_open`].
    chain_open: Vec<bool>,
    /// SQL statements whose host statement is (part of) a chain.
    chain_sql: HashMap<usize, Vec<usize>>,
    /// For each SQL statement, the statements (same file first) that define the views it reads.
    sql_views: Vec<Vec<usize>>,
    /// For each SQL statement, the chains (same file first) registering the views it reads
    /// (`df.createOrReplaceTempView("people")` for `FROM people`).
    sql_view_chains: Vec<Vec<usize>>,
    /// Token value → sites holding it (any kind: a plan column may be a code literal).
    postings: HashMap<String, Vec<SiteId>>,
    /// Sites by the operator families they can produce (indexed by `OperatorFamily as usize`).
    family_sites: Vec<Vec<SiteId>>,
}

/// How a feeding chain enters a chain: as the receiver (`df` in `df.join(x)`) or as an argument
/// (`x`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlowRole {
    Receiver,
    Argument,
}

fn root_variable(receiver: &str) -> &str {
    let end = receiver
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(receiver.len());
    &receiver[..end]
}

impl SiteTable {
    pub fn build(index: &RepoIndex) -> Self {
        let spark_files = spark_files(index);
        let file_prior = |file: FileId| {
            if spark_files.contains(&file) {
                1.0
            } else {
                NON_SPARK_PRIOR
            }
        };
        let mut sites = Vec::new();
        let mut chain_sites = Vec::with_capacity(index.chains.len());
        let flags_of = |file: FileId, symbol: Option<SymbolId>| {
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
        };
        for (chain_idx, chain) in index.chains.iter().enumerate() {
            let mut ids = Vec::with_capacity(chain.calls.len());
            let mut after_join = false;
            // `df.write.parquet(path)` writes: the reader-named methods after `write` are sinks.
            let mut after_write = is_writer_accessor(chain.receiver.rsplit('.').next());
            for (position, call) in chain.calls.iter().enumerate() {
                let functions: Vec<String> = call
                    .args
                    .functions
                    .iter()
                    .map(|f| normalise_function(f))
                    .collect();
                let mut evidence = Evidence::default();
                evidence.add_all(TokenKind::Column, &call.args.columns);
                evidence.add_all(TokenKind::Function, &call.args.functions);
                evidence.add_all(TokenKind::Literal, &call.args.literals);
                evidence.add_all(TokenKind::Alias, &call.args.aliases);
                evidence.add_all(TokenKind::Table, &call.args.tables);
                evidence.add_all(TokenKind::Path, &call.args.paths);
                if call.args.paths.is_empty() && call.args.tables.is_empty() {
                    for hint in reader_path_hints(&call.method, &call.args.text) {
                        evidence.add(TokenKind::Path, &hint);
                    }
                }
                for f in statistics_computed_by(&call.method) {
                    evidence.add(TokenKind::Function, f);
                }
                if is_deduplicating_method(&call.method)
                    || functions
                        .iter()
                        .any(|f| f == "countdistinct" || f == "sumdistinct")
                {
                    evidence.add(TokenKind::Function, DISTINCT);
                }
                let mut families = call_families(&call.method, &functions);
                after_write |= is_writer_accessor(Some(&call.method));
                if after_write && families.contains(OperatorFamily::Scan) {
                    families.remove(OperatorFamily::Scan);
                    families.insert(OperatorFamily::Write);
                }
                // `dropna()` / `na.drop()` plan a Filter of `atleastnnonnulls(n, cols…)`.
                // `frame.na.drop()` with `frame` unknown keeps `na` in the receiver.
                let previous = match position.checked_sub(1) {
                    Some(p) => Some(chain.calls[p].method.as_str()),
                    None => chain.receiver.rsplit('.').next(),
                };
                if is_null_dropping_call(&call.method, previous) {
                    families.insert(OperatorFamily::Filter);
                    evidence.add(TokenKind::Function, "atleastnnonnulls");
                }
                // `a.join(b).where(a.x == b.y)`: the optimiser moves a filter over a join into
                // the join's condition, so that filter is the join's source.
                if after_join && families.contains(OperatorFamily::Filter) {
                    families.insert(OperatorFamily::Join);
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
                    lines: chain.statement,
                    precise: call.lines,
                    evidence,
                    terms: code_terms(&format!("{} {}", call.method, call.args.text)),
                    flags: flags_of(chain.file, chain.symbol),
                    depth: 0,
                    origin_prior: file_prior(chain.file),
                });
                ids.push(id);
            }
            chain_sites.push(ids);
        }
        let mut sql_sites = Vec::with_capacity(index.sql.len());
        for (stmt_idx, stmt) in index.sql.iter().enumerate() {
            let mut ids = Vec::with_capacity(stmt.clauses.len());
            for (clause_idx, clause) in stmt.clauses.iter().enumerate() {
                let evidence = clause_evidence(stmt, clause);
                let functions: Vec<String> = clause_functions(stmt, clause);
                let mut families = clause_families(clause.kind, &functions);
                if clause.kind == SqlClauseKind::Subquery && !is_predicate_subquery(stmt, clause) {
                    families = FamilySet::EMPTY;
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
                    flags: flags_of(stmt.file, stmt.symbol),
                    depth: clause.depth,
                    origin_prior: match stmt.origin {
                        SqlOrigin::SparkSqlCall | SqlOrigin::NotebookCell => 1.0,
                        SqlOrigin::SqlFile => 0.9,
                        SqlOrigin::StringLiteral => 0.85 * file_prior(stmt.file),
                    },
                });
                ids.push(id);
            }
            sql_sites.push(ids);
        }
        let helpers = super::handoffs::helper_feeds(index);
        for (chain, hints) in super::handoffs::caller_path_hints(index, &helpers) {
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
        let weights = TokenWeights::from_bags(sites.iter().map(|s| &s.evidence));
        let chain_feeds = flow_edges(&index.chains, &helpers);
        let chain_open = index
            .chains
            .iter()
            .zip(&chain_feeds)
            .zip(&chain_sites)
            .zip(&helpers)
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
            .collect();
        let chain_sql = sql_links(index);
        let sql_views = view_edges(index);
        let sql_view_chains = view_chain_edges(index);
        let mut postings: HashMap<String, Vec<SiteId>> = HashMap::new();
        for site in &sites {
            let values: BTreeSet<&String> = site.evidence.tokens.iter().map(|(_, v)| v).collect();
            for v in values {
                postings.entry(v.clone()).or_default().push(site.id);
            }
        }
        let mut family_sites: Vec<Vec<SiteId>> =
            vec![Vec::new(); OperatorFamily::Other as usize + 1];
        for site in &sites {
            for (f, list) in family_sites.iter_mut().enumerate() {
                if site.families.contains_index(f) {
                    list.push(site.id);
                }
            }
        }
        Self {
            sites,
            weights,
            family_sites,
            chain_sites,
            sql_sites,
            chain_feeds,
            chain_open,
            chain_sql,
            sql_views,
            sql_view_chains,
            postings,
        }
    }

    /// Sites sharing at least one token with `evidence` — the only sites whose evidence overlap
    /// is not zero.
    pub fn sharing(&self, evidence: &Evidence) -> BTreeSet<SiteId> {
        let values: BTreeSet<&String> = evidence.tokens.iter().map(|(_, v)| v).collect();
        values
            .into_iter()
            .filter_map(|v| self.postings.get(v))
            .flatten()
            .copied()
            .collect()
    }

    /// Candidate sites for a node: those sharing evidence with it; when none of them can produce
    /// its family (a `Sample` whose fraction the code spells differently, a bare `Range`), every
    /// site that can — as long as there are few enough for that to say something.
    pub fn candidates(&self, family: OperatorFamily, evidence: &Evidence) -> BTreeSet<SiteId> {
        let mut out = self.sharing(evidence);
        if !out.iter().any(|s| self.sites[*s].families.contains(family)) {
            let compatible = &self.family_sites[family as usize];
            if compatible.len() <= FAMILY_FALLBACK_CAP {
                out.extend(compatible.iter().copied());
            }
        }
        out
    }

    /// Sites of a SQL statement plus those of the statements defining the views it reads
    /// (`CREATE TEMP VIEW revenue AS …` for `FROM revenue`), transitively, and the DataFrame
    /// flows registering them (`df.createOrReplaceTempView("revenue")`).
    pub fn sql_unit(&self, statement: usize) -> BTreeSet<SiteId> {
        let mut out = BTreeSet::new();
        let mut stack = vec![statement];
        let mut seen = BTreeSet::new();
        while let Some(s) = stack.pop() {
            if !seen.insert(s) || seen.len() > 32 {
                continue;
            }
            out.extend(self.sql_sites(s).iter().copied());
            stack.extend(self.sql_views.get(s).into_iter().flatten().copied());
            for &chain in self.sql_view_chains.get(s).into_iter().flatten() {
                out.extend(self.flow_of_chain(chain));
            }
        }
        out
    }

    /// The nested query block (subquery or CTE body, with the blocks nested in it) holding a
    /// SQL site, or `None` for the outer query. The index lists a statement's clauses in order:
    /// a subquery's `Subquery` clause is followed by its body one level deeper, a CTE's `With`
    /// clause by its body; a block ends where a shallower clause or a sibling subquery starts.
    /// Operators inside a subquery read only what that subquery reads.
    fn sql_block(&self, statement: usize, site: SiteId) -> Option<&[SiteId]> {
        let sites = self.sql_sites(statement);
        let at = sites.iter().position(|s| *s == site)?;
        let depth = self.sites[site].depth;
        if depth == 0 {
            return None;
        }
        let opens_sibling = |i: usize| {
            let s = &self.sites[sites[i]];
            matches!(
                s.kind,
                SiteKind::Sql {
                    kind: SqlClauseKind::Subquery,
                    ..
                }
            ) && s.depth == depth
        };
        let mut start = at;
        while start > 0 && !opens_sibling(start) && self.sites[sites[start - 1]].depth >= depth {
            start -= 1;
        }
        let mut end = at + 1;
        while end < sites.len() && self.sites[sites[end]].depth >= depth && !opens_sibling(end) {
            end += 1;
        }
        Some(&sites[start..end])
    }

    pub fn chain_sites(&self, chain: usize) -> &[SiteId] {
        self.chain_sites.get(chain).map_or(&[], Vec::as_slice)
    }

    pub fn sql_sites(&self, statement: usize) -> &[SiteId] {
        self.sql_sites.get(statement).map_or(&[], Vec::as_slice)
    }

    pub fn chain_count(&self) -> usize {
        self.chain_sites.len()
    }

    pub fn sql_count(&self) -> usize {
        self.sql_sites.len()
    }

    /// Chains feeding `chain` directly, with their role.
    pub fn feeds(&self, chain: usize) -> &[(FlowRole, usize)] {
        self.chain_feeds.get(chain).map_or(&[], Vec::as_slice)
    }

    /// Every site upstream of `site` in the data flow: earlier calls of its chain, all sites of
    /// the chains that feed it (transitively) and the SQL those chains run. With `role`, only the
    /// feeds entering through that role at the first level (a join's left or right side).
    pub fn upstream(&self, site: SiteId, role: Option<FlowRole>) -> BTreeSet<SiteId> {
        let mut out = BTreeSet::new();
        match &self.sites[site].kind {
            SiteKind::Call {
                chain, position, ..
            } => {
                if role != Some(FlowRole::Argument) {
                    out.extend(self.chain_sites(*chain)[..*position].iter().copied());
                    self.extend_sql_of(*chain, &mut out);
                }
                let mut stack: Vec<usize> = self
                    .feeds(*chain)
                    .iter()
                    .filter(|(r, _)| role.is_none_or(|want| *r == want))
                    .map(|(_, c)| *c)
                    .collect();
                let mut seen = BTreeSet::new();
                while let Some(c) = stack.pop() {
                    if !seen.insert(c) || seen.len() > 64 {
                        continue;
                    }
                    out.extend(self.chain_sites(c).iter().copied());
                    self.extend_sql_of(c, &mut out);
                    stack.extend(self.feeds(c).iter().map(|(_, f)| *f));
                }
            }
            SiteKind::Sql {
                statement, kind, ..
            } => {
                match self.sql_block(*statement, site) {
                    Some(block) if *kind != SqlClauseKind::Subquery => {
                        out.extend(block.iter().copied());
                    }
                    // The outer query reads everything below it, views included; a predicate
                    // subquery's own clause is where its block meets the outer query.
                    _ => out.extend(self.sql_unit(*statement)),
                }
                out.remove(&site);
            }
        }
        out
    }

    fn extend_sql_of(&self, chain: usize, out: &mut BTreeSet<SiteId>) {
        if let Some(stmts) = self.chain_sql.get(&chain) {
            for s in stmts {
                out.extend(self.sql_unit(*s));
            }
        }
    }

    /// Whether the flow ending at `chain` starts from a DataFrame built elsewhere
    /// (`def only_shipped(orders): return orders.filter(…)`): its plan's scans then come from the
    /// caller, not from the flow.
    pub fn flow_is_open(&self, chain: usize) -> bool {
        let mut seen = BTreeSet::new();
        let mut pending = vec![chain];
        while let Some(c) = pending.pop() {
            if !seen.insert(c) {
                continue;
            }
            if self.chain_open.get(c).copied().unwrap_or(false) {
                return true;
            }
            pending.extend(self.feeds(c).iter().map(|(_, fed_by)| *fed_by));
        }
        false
    }

    /// The whole flow ending at `chain`: the chain and everything upstream of its last call.
    pub fn flow_of_chain(&self, chain: usize) -> BTreeSet<SiteId> {
        let Some(&last) = self.chain_sites(chain).last() else {
            return BTreeSet::new();
        };
        let mut out = self.upstream(last, None);
        out.insert(last);
        out
    }
}

/// Path words for a reader whose path is a variable the index could not resolve
/// (`spark.read.parquet(orders_path)`, `spark.table(customer_table)`): people name such variables
/// after the data set, so `orders_path` hints at `…/orders.parquet`. Naming words (`path`, `dir`,
/// `file`, …) are dropped; what is left is compared like a path's stem.
pub(super) fn reader_path_hints(method: &str, args_text: &str) -> Vec<String> {
    const READERS: &[&str] = &[
        "parquet", "csv", "json", "orc", "text", "textfile", "load", "table", "avro",
    ];
    const NAMING: &[&str] = &[
        "path",
        "paths",
        "dir",
        "directory",
        "file",
        "files",
        "uri",
        "url",
        "location",
        "loc",
        "input",
        "in",
        "src",
        "source",
        "table",
        "tbl",
        "name",
        "df",
        "data",
    ];
    if !READERS.iter().any(|r| r.eq_ignore_ascii_case(method)) {
        return Vec::new();
    }
    let inner = args_text
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')');
    let mut hints = Vec::new();
    for arg in inner.split(',').map(str::trim) {
        let is_identifier = !arg.is_empty()
            && arg
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
            && !arg.starts_with(|c: char| c.is_ascii_digit());
        if !is_identifier {
            continue;
        }
        let last = arg.rsplit('.').next().unwrap_or(arg);
        let words: Vec<String> = identifier_parts(last)
            .into_iter()
            .filter(|w| !NAMING.contains(&w.as_str()))
            .collect();
        if !words.is_empty() {
            hints.push(words.join("_"));
        }
    }
    hints
}

/// `distinct()`, `dropDuplicates(…)`: the plan shows them as aggregates with no functions of
/// their own (see `semantics::is_deduplication`); so does `countDistinct(…)`, whose plan first
/// de-duplicates its columns.
/// The aggregate functions `describe()` / `summary()` plan without naming them.
fn statistics_computed_by(method: &str) -> &'static [&'static str] {
    if method.eq_ignore_ascii_case("describe") || method.eq_ignore_ascii_case("summary") {
        &["count", "mean", "stddev", "min", "max"]
    } else {
        &[]
    }
}

fn is_writer_accessor(member: Option<&str>) -> bool {
    member.is_some_and(|m| {
        ["write", "writestream", "writeto"]
            .iter()
            .any(|w| w.eq_ignore_ascii_case(m))
    })
}

fn is_null_dropping_call(method: &str, previous_method: Option<&str>) -> bool {
    method.eq_ignore_ascii_case("dropna")
        || (method.eq_ignore_ascii_case("drop")
            && previous_method.is_some_and(|m| m.eq_ignore_ascii_case("na")))
}

fn is_deduplicating_method(method: &str) -> bool {
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
const FAMILY_FALLBACK_CAP: usize = 2000;

/// Prior for code in files that show no sign of Spark: repositories often hold the same query in
/// pandas, Polars or Dask, with the same verbs (`filter`, `join`, `agg`).
const NON_SPARK_PRIOR: f64 = 0.6;

/// Files that drive Spark: the index's `usesSpark` (imports or references of Spark), plus files
/// whose SQL was seen flowing into `spark.sql(…)`.
fn spark_files(index: &RepoIndex) -> std::collections::HashSet<FileId> {
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
    files
}

/// Whether a subquery clause sits inside a WHERE / HAVING predicate (`IN (SELECT …)`, `EXISTS`,
/// a scalar comparison): such a subquery becomes a join or filter of the outer plan. A derived
/// table in FROM does not; its own clauses are the sites.
fn is_predicate_subquery(stmt: &SqlStatement, clause: &SqlClause) -> bool {
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
fn nested_in<'a>(
    stmt: &'a SqlStatement,
    clause: &'a SqlClause,
) -> impl Iterator<Item = &'a SqlClause> {
    let predicate_subquery = is_predicate_subquery(stmt, clause);
    stmt.clauses.iter().filter(move |c| {
        std::ptr::eq(*c, clause)
            || (predicate_subquery && c.depth >= clause.depth && clause.lines.contains(&c.lines))
    })
}

fn clause_evidence(stmt: &SqlStatement, clause: &SqlClause) -> Evidence {
    let mut evidence = Evidence::default();
    for c in nested_in(stmt, clause) {
        evidence.add_all(TokenKind::Column, &c.columns);
        evidence.add_all(TokenKind::Function, &c.functions);
        evidence.add_all(TokenKind::Literal, &c.literals);
        evidence.add_all(TokenKind::Alias, &c.aliases);
        evidence.add_all(TokenKind::Table, &c.tables);
        // `SELECT DISTINCT …`, `COUNT(DISTINCT x)`: both plan a de-duplicating aggregate.
        if c.text.to_ascii_uppercase().contains("DISTINCT") {
            evidence.add(TokenKind::Function, DISTINCT);
        }
    }
    evidence
}

fn clause_functions(stmt: &SqlStatement, clause: &SqlClause) -> Vec<String> {
    nested_in(stmt, clause)
        .flat_map(|c| c.functions.iter().map(|f| normalise_function(f)))
        .collect()
}

/// Which SQL statements each chain runs: a chain calling `sql(…)` on the statement's host lines
/// (`spark.sql("""…""")`), or naming the variable the SQL was assigned to (`q = """…"""` then
/// `spark.sql(q)`). Only chains that call `sql` are candidates, grouped by file, so the cost
/// follows the SQL in each file rather than every statement times every chain.
fn sql_links(index: &RepoIndex) -> HashMap<usize, Vec<usize>> {
    // file → (chain, terms of its `sql(…)` arguments)
    let mut sql_chains: HashMap<FileId, Vec<(usize, BTreeSet<String>)>> = HashMap::new();
    for (chain_idx, chain) in index.chains.iter().enumerate() {
        let sql_calls: Vec<_> = chain
            .calls
            .iter()
            .filter(|c| c.method.eq_ignore_ascii_case("sql"))
            .collect();
        if !sql_calls.is_empty() {
            let terms = sql_calls
                .iter()
                .flat_map(|c| code_terms(&c.args.text))
                .collect();
            sql_chains
                .entry(chain.file)
                .or_default()
                .push((chain_idx, terms));
        }
    }
    let mut links: HashMap<usize, Vec<usize>> = HashMap::new();
    for (stmt_idx, stmt) in index.sql.iter().enumerate() {
        for (chain_idx, _) in sql_chains.get(&stmt.file).into_iter().flatten() {
            if index.chains[*chain_idx]
                .statement
                .overlaps(&stmt.host_statement)
            {
                links.entry(*chain_idx).or_default().push(stmt_idx);
            }
        }
    }
    for (stmt_idx, stmt) in index.sql.iter().enumerate() {
        let Some(var) = stmt.assigned_to.as_deref().map(str::to_lowercase) else {
            continue;
        };
        for (chain_idx, terms) in sql_chains.get(&stmt.file).into_iter().flatten() {
            let passes_var = index.chains[*chain_idx].statement.start >= stmt.host_statement.start
                && terms.contains(&var);
            if passes_var {
                let linked = links.entry(*chain_idx).or_default();
                if !linked.contains(&stmt_idx) {
                    linked.push(stmt_idx);
                }
            }
        }
    }
    links
}

/// For each SQL statement, the statements defining a view it reads: a `CreateView` clause naming
/// one of its FROM tables, preferring the same file.
fn view_edges(index: &RepoIndex) -> Vec<Vec<usize>> {
    let mut definitions: HashMap<String, Vec<usize>> = HashMap::new();
    for (idx, stmt) in index.sql.iter().enumerate() {
        for clause in stmt
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::CreateView)
        {
            for table in &clause.tables {
                definitions
                    .entry(table.to_lowercase())
                    .or_default()
                    .push(idx);
            }
        }
    }
    index
        .sql
        .iter()
        .enumerate()
        .map(|(idx, stmt)| {
            let mut views = Vec::new();
            for clause in stmt
                .clauses
                .iter()
                .filter(|c| c.kind == SqlClauseKind::From)
            {
                for table in &clause.tables {
                    let Some(defs) = definitions.get(&table.to_lowercase()) else {
                        continue;
                    };
                    let same_file: Vec<usize> = defs
                        .iter()
                        .copied()
                        .filter(|d| *d != idx && index.sql[*d].file == stmt.file)
                        .collect();
                    let chosen = if same_file.is_empty() {
                        defs.iter().copied().filter(|d| *d != idx).take(1).collect()
                    } else {
                        same_file
                    };
                    for d in chosen {
                        if !views.contains(&d) {
                            views.push(d);
                        }
                    }
                }
            }
            views
        })
        .collect()
}

/// For each SQL statement, the chains registering a view it reads: a call such as
/// `createOrReplaceTempView("people")` naming one of its FROM tables, preferring the same file.
fn view_chain_edges(index: &RepoIndex) -> Vec<Vec<usize>> {
    let mut registered: HashMap<String, Vec<usize>> = HashMap::new();
    for (idx, chain) in index.chains.iter().enumerate() {
        for call in chain.calls.iter().filter(|c| registers_view(&c.method)) {
            for table in &call.args.tables {
                registered
                    .entry(table.to_lowercase())
                    .or_default()
                    .push(idx);
            }
        }
    }
    if registered.is_empty() {
        return vec![Vec::new(); index.sql.len()];
    }
    index
        .sql
        .iter()
        .map(|stmt| {
            let mut chains = Vec::new();
            for clause in stmt
                .clauses
                .iter()
                .filter(|c| c.kind == SqlClauseKind::From)
            {
                for table in &clause.tables {
                    let Some(found) = registered.get(&table.to_lowercase()) else {
                        continue;
                    };
                    let same_file: Vec<usize> = found
                        .iter()
                        .copied()
                        .filter(|c| index.chains[*c].file == stmt.file)
                        .collect();
                    let chosen = if same_file.is_empty() {
                        found.iter().copied().take(1).collect()
                    } else {
                        same_file
                    };
                    for c in chosen {
                        if !chains.contains(&c) {
                            chains.push(c);
                        }
                    }
                }
            }
            chains
        })
        .collect()
}

fn registers_view(method: &str) -> bool {
    [
        "createorreplacetempview",
        "createtempview",
        "createorreplaceglobaltempview",
        "createglobaltempview",
        "registertemptable",
    ]
    .iter()
    .any(|m| m.eq_ignore_ascii_case(method))
}

/// For each chain, the chains defining the variables it reads: the nearest earlier assignment in
/// the same file, preferring the same enclosing symbol (then module level); and the chains
/// returned by the helper functions it starts from or applies ([`super::handoffs`]).
fn flow_edges(
    chains: &[CallChain],
    helpers: &[super::handoffs::HelperFeeds],
) -> Vec<Vec<(FlowRole, usize)>> {
    let mut by_var: HashMap<(FileId, &str), Vec<usize>> = HashMap::new();
    for (idx, chain) in chains.iter().enumerate() {
        if let Some(var) = chain.assigned_to.as_deref() {
            by_var.entry((chain.file, var)).or_default().push(idx);
        }
    }
    let definition = |chain: &CallChain, var: &str| -> Option<usize> {
        let candidates = by_var.get(&(chain.file, var))?;
        let before = |c: &&usize| chains[**c].statement.end < chain.statement.start;
        let same_scope = candidates
            .iter()
            .filter(before)
            .filter(|c| chains[**c].symbol == chain.symbol)
            .max_by_key(|c| chains[**c].statement.start);
        let module_level = || {
            candidates
                .iter()
                .filter(before)
                .filter(|c| chains[**c].symbol.is_none())
                .max_by_key(|c| chains[**c].statement.start)
        };
        same_scope.or_else(module_level).copied()
    };
    chains
        .iter()
        .zip(helpers)
        .enumerate()
        .map(|(idx, (chain, helper))| {
            let mut feeds = Vec::new();
            let root = root_variable(&chain.receiver);
            if !root.is_empty()
                && let Some(def) = definition(chain, root)
            {
                feeds.push((FlowRole::Receiver, def));
            }
            for &def in helper.source.iter().chain(&helper.applied) {
                if def != idx && !feeds.iter().any(|(_, d)| *d == def) {
                    feeds.push((FlowRole::Receiver, def));
                }
            }
            for input in &chain.inputs {
                if let Some(def) = definition(chain, root_variable(input))
                    && !feeds.iter().any(|(_, d)| *d == def)
                {
                    feeds.push((FlowRole::Argument, def));
                }
            }
            feeds
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sql_unit_holds_the_flow_registering_its_view() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("Job.scala"),
            "object Job extends App {\n  val df = spark.createDataFrame(rows, schema)\n  \
             df.createOrReplaceTempView(\"PERSON\")\n  \
             spark.sql(\"SELECT salary * 100 AS salary FROM PERSON\").show()\n}\n",
        )
        .unwrap();
        let index = crate::code::build_index(
            dir.path(),
            None,
            "test".into(),
            &crate::code::IndexOptions::default(),
        )
        .unwrap();
        let table = SiteTable::build(&index);
        let create = table
            .sites
            .iter()
            .find(
                |s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "createDataFrame"),
            )
            .unwrap()
            .id;
        assert_eq!(table.sql_count(), 1);
        assert!(table.sql_unit(0).contains(&create));
    }

    #[test]
    fn reader_variables_hint_at_their_data_set() {
        assert_eq!(
            reader_path_hints("parquet", "(orders_path)"),
            vec!["orders"]
        );
        assert_eq!(
            reader_path_hints("csv", "(self.customerFile, header=True)"),
            vec!["customer"]
        );
        assert_eq!(
            reader_path_hints("table", "(line_items_table)"),
            vec!["line_items"]
        );
        // Not a reader, a literal, or nothing but naming words: no hint.
        assert!(reader_path_hints("filter", "(orders_path)").is_empty());
        assert!(reader_path_hints("parquet", "(\"data/x.parquet\")").is_empty());
        assert!(reader_path_hints("parquet", "(input_path)").is_empty());
    }
}
