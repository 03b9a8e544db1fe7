//! Sites: the places in a repository a plan node can be mapped to.
//!
//! Every DataFrame method call of every indexed chain and every clause of every indexed SQL
//! statement becomes a [`Site`] with its evidence, the operator families it can produce, the range
//! we would report (the whole statement for a DataFrame call, as users read code; the clause for
//! SQL) and the precise range (the call's own lines). [`SiteTable`] also knows the data flow
//! between sites: which statements feed a given one through DataFrame variables, so alignment can
//! follow a plan's tree down the code's flow.
//!
//! This file holds the types and the table's queries; `build` makes the sites and their evidence,
//! `flow` the edges between chains, SQL statements and the views they register.

use super::evidence::{
    DISTINCT, Evidence, JOINED_ON_NAMES, TokenKind, TokenWeights, code_terms, glob_folder_key,
    identifier_parts, normalise_function,
};
use super::operations::{FamilySet, call_families, clause_families, concatenates};
use crate::code::{
    CallChain, CodeFlags, FileId, LineRange, NameRole, RepoIndex, SqlClause, SqlClauseKind,
    SqlOrigin, SqlStatement, SymbolId,
};
use crate::plan::OperatorFamily;
use std::collections::{BTreeMap, BTreeSet, HashMap};

mod build;
mod flow;
mod passing;

use build::*;
use flow::*;
use passing::PassedValues;

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
    /// Something before the call narrowed the frame's columns: an earlier `select` / `drop` of
    /// its chain, or the one the chain's frame was built by (`dim = df.select(…)`, then
    /// `dim.distinct()`). A bare de-duplication without one keeps every column of its frame.
    pub narrowed_before: bool,
    /// An aggregation made the frame the call works on: an earlier call of its chain, or of the
    /// chains its frame came from, receiver by receiver (`result = df.groupBy("y").mean()`, then
    /// `result.withColumnRenamed(…)`, then `result.select(…)`).
    pub aggregated_before: bool,
}

impl Site {
    /// Whether the site is a SQL `Subquery` clause, which opens a nested query block.
    fn opens_subquery(&self) -> bool {
        matches!(
            self.kind,
            SiteKind::Sql {
                kind: SqlClauseKind::Subquery,
                ..
            }
        )
    }

    /// Whether the site is a `describe()` / `summary()` naming no column: its statistics are of
    /// every column of its frame, each picked out of its map under the column's own name
    /// (`element_at(age, summary) AS age`), none of them written.
    pub fn describes_every_column(&self) -> bool {
        matches!(&self.kind, SiteKind::Call { method, .. }
            if !statistics_computed_by(method).0.is_empty())
            && !self.evidence.has_any(TokenKind::Column)
    }
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
    /// For each chain: whether it hands its frame on to later code ([`SiteTable::passes_frame_on`]).
    chain_passes_on: Vec<bool>,
    /// For each chain: whether it applies functions of the repository to its frame
    /// ([`SiteTable::applies_functions`]).
    chain_applies: Vec<bool>,
    /// For each chain: the statement that cached the frame it starts from, if any
    /// ([`SiteTable::cached_by`]).
    chain_cached_by: Vec<Option<usize>>,
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
    /// Per file: how many words of its name its directories name ([`placement`]).
    placement: Vec<usize>,
    /// Per file: the language it is written in.
    languages: Vec<crate::code::Language>,
    /// The names of the repository's files (`Revenue.scala`): a plan naming a source file none
    /// of them carries names code outside the repository ([`SiteTable::names_a_file`]).
    file_names: std::collections::HashSet<String>,
    /// Record classes by name (a Scala case class, a Java record or bean): their fields, the
    /// columns a frame of their objects has ([`SiteTable::record_fields`]).
    record_fields: HashMap<String, Vec<String>>,
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

/// How many words of a file's name (`WindowGroupbyFirst` → window, groupby, first) the
/// directories above it name: a file kept among its own kind (`functions/window/`) scores above
/// a copy of it left elsewhere (`functions/`). Only breaks exact ties — two copies of one file
/// explain a plan equally, and the one filed under its topic is the likelier to be the one run.
fn placement(path: &str) -> usize {
    let (dirs, name) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = name.split_once('.').map_or(name, |(stem, _)| stem);
    let dir_words: BTreeSet<String> = code_terms(dirs).into_iter().collect();
    let name_words: BTreeSet<String> = code_terms(stem).into_iter().collect();
    name_words.intersection(&dir_words).count()
}

impl SiteTable {
    /// The language a file is written in.
    pub fn language_of(&self, file: FileId) -> Option<crate::code::Language> {
        self.languages.get(file as usize).copied()
    }

    /// Whether two files are written in different languages (a query in Python and its
    /// translation in Scala or SQL).
    pub fn other_language(&self, a: FileId, b: FileId) -> bool {
        self.languages.get(a as usize) != self.languages.get(b as usize)
    }

    /// Whether some file of the repository is named `name` (`Revenue.scala`, any folder).
    pub fn names_a_file(&self, name: &str) -> bool {
        self.file_names.contains(name)
    }

    /// The fields of the record class `name` (`Cust` of `case class Cust(id: Int, …)`), if the
    /// repository defines exactly one class of that name with fields.
    pub fn record_fields(&self, name: &str) -> Option<&[String]> {
        self.record_fields.get(name).map(Vec::as_slice)
    }

    /// How well `file` sits among its own kind ([`placement`]): the tie-break between copies.
    pub fn placement(&self, file: FileId) -> usize {
        self.placement.get(file as usize).copied().unwrap_or(0)
    }

    /// Whether the plan may show nothing of `site` because the optimizer removes it: a sort right
    /// before a grouping (`df.sort(a, b).groupBy(a).agg(sum(b))`: Spark drops a Sort under an
    /// Aggregate whose functions ignore order).
    pub fn may_be_optimised_away(&self, site: SiteId) -> bool {
        let SiteKind::Call {
            chain, position, ..
        } = &self.sites[site].kind
        else {
            return false;
        };
        self.sites[site].families.contains(OperatorFamily::Sort)
            && self.chain_sites(*chain).iter().any(|s| {
                matches!(&self.sites[*s].kind, SiteKind::Call { position: p, method, .. }
                    if *p == position + 1 && is_grouping_method(method))
            })
    }

    /// Sites sharing at least one token with `evidence` — the only sites whose evidence overlap
    /// is not zero.
    pub fn sharing(&self, evidence: &Evidence) -> BTreeSet<SiteId> {
        let values: BTreeSet<&String> = evidence.tokens.iter().map(|(_, v)| v).collect();
        let folders: BTreeSet<String> = evidence
            .path_tails
            .iter()
            .filter_map(|t| glob_folder_key(t))
            .collect();
        values
            .into_iter()
            .chain(&folders)
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
        self.sql_unit_and_links(statement).0
    }

    /// [`Self::sql_unit`], and the chains registering the views the statement reads, directly or
    /// through other views (`df.createOrReplaceTempView("people")` for `FROM people`): the links
    /// between the query and its DataFrames, which produce no operator of their own.
    pub fn sql_unit_and_links(&self, statement: usize) -> (BTreeSet<SiteId>, BTreeSet<usize>) {
        let (statements, registrations) = self.sql_reach(statement);
        let mut out = BTreeSet::new();
        for s in statements {
            out.extend(self.sql_sites(s).iter().copied());
        }
        for &chain in &registrations {
            out.extend(self.flow_of_chain(chain));
        }
        (out, registrations)
    }

    /// The statements a SQL statement reaches through the views it reads (itself first), and the
    /// chains registering views on the way.
    fn sql_reach(&self, statement: usize) -> (BTreeSet<usize>, BTreeSet<usize>) {
        let mut stack = vec![statement];
        let mut seen = BTreeSet::new();
        let mut registrations = BTreeSet::new();
        while let Some(s) = stack.pop() {
            if seen.len() >= 32 || !seen.insert(s) {
                continue;
            }
            stack.extend(self.sql_views.get(s).into_iter().flatten().copied());
            registrations.extend(self.sql_view_chains.get(s).into_iter().flatten().copied());
        }
        (seen, registrations)
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
            s.opens_subquery() && s.depth == depth
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

    /// Takes out of `sites` the other branches of every set operation `site` is a branch of:
    /// an operator inside one `UNION ALL` branch reads only what that branch reads.
    fn remove_other_branches(&self, statement: usize, site: SiteId, sites: &mut BTreeSet<SiteId>) {
        let clauses = self.sql_sites(statement);
        let is_operation = |s: SiteId| {
            matches!(
                self.sites[s].kind,
                SiteKind::Sql {
                    kind: SqlClauseKind::Union,
                    ..
                }
            )
        };
        // (the nested operators of `A UNION B UNION C` follow the outermost one's clause and
        // have the same branches: each chain of them once)
        let operations = clauses.iter().enumerate().filter(|&(i, &s)| {
            is_operation(s)
                && !(i > 0
                    && is_operation(clauses[i - 1])
                    && self.sites[clauses[i - 1]].depth == self.sites[s].depth)
        });
        for (_, &operation) in operations {
            let Some(branches) = self.set_operation_branches(operation) else {
                continue;
            };
            if branches.iter().any(|b| b.contains(&site)) {
                for branch in branches.iter().filter(|b| !b.contains(&site)) {
                    for other in branch {
                        sites.remove(other);
                    }
                }
            }
        }
    }

    /// The branches of a SQL set operation (`A UNION ALL B UNION ALL C`), in the order Spark's
    /// `Union` takes its inputs: each branch's clauses, the blocks nested in it included; `None`
    /// for a site that is no set operation. The index lists the set operation's clause (one per
    /// operator, the nested ones straight after the outer) and then each branch in turn, starting
    /// with its `SELECT`'s head clause at the operation's depth.
    pub fn set_operation_branches(&self, site: SiteId) -> Option<Vec<Vec<SiteId>>> {
        let SiteKind::Sql {
            statement,
            kind: SqlClauseKind::Union,
            ..
        } = self.sites[site].kind
        else {
            return None;
        };
        let sites = self.sql_sites(statement);
        let depth = self.sites[site].depth;
        let is = |i: usize, kind: SqlClauseKind| {
            let s = &self.sites[sites[i]];
            s.depth == depth && matches!(s.kind, SiteKind::Sql { kind: k, .. } if k == kind)
        };
        let mut at = sites.iter().position(|s| *s == site)?;
        // (a nested operator's clause follows the outer one's: start from the outermost)
        while at > 0 && is(at - 1, SqlClauseKind::Union) {
            at -= 1;
        }
        let mut operators = 0;
        while at < sites.len() && is(at, SqlClauseKind::Union) {
            operators += 1;
            at += 1;
        }
        let mut branches: Vec<Vec<SiteId>> = Vec::new();
        for (i, &clause) in sites.iter().enumerate().skip(at) {
            if self.sites[clause].depth < depth {
                break;
            }
            if is(i, SqlClauseKind::Select) {
                if branches.len() == operators + 1 {
                    break;
                }
                branches.push(Vec::new());
            }
            branches.last_mut()?.push(clause);
        }
        (branches.len() == operators + 1).then_some(branches)
    }

    pub fn chain_sites(&self, chain: usize) -> &[SiteId] {
        self.chain_sites.get(chain).map_or(&[], Vec::as_slice)
    }

    /// The chain a call site is a call of; `None` for a SQL clause.
    pub fn chain_of(&self, site: SiteId) -> Option<usize> {
        match self.sites[site].kind {
            SiteKind::Call { chain, .. } => Some(chain),
            SiteKind::Sql { .. } => None,
        }
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
                let feeding = self
                    .feeds(*chain)
                    .iter()
                    .filter(|(r, _)| role.is_none_or(|want| *r == want))
                    .map(|(_, c)| *c)
                    .collect();
                self.extend_with_flows_of(feeding, &mut out);
            }
            SiteKind::Sql {
                statement, kind, ..
            } => {
                match self.sql_block(*statement, site) {
                    Some(block) if *kind != SqlClauseKind::Subquery => {
                        out.extend(block.iter().copied());
                        self.extend_with_tables_read(*statement, &mut out);
                    }
                    // The outer query reads everything below it, views included; a predicate
                    // subquery's own clause is where its block meets the outer query.
                    _ => out.extend(self.sql_unit(*statement)),
                }
                out.remove(&site);
                self.remove_other_branches(*statement, site, &mut out);
                // A predicate subquery's join reads the outer query first and the subquery
                // second (`WHERE key IN (SELECT key …)`, planned as a left semi join).
                if let Some(role) = role {
                    let bodies = self.predicate_subquery_bodies(*statement, site);
                    match role {
                        _ if bodies.is_empty() => {}
                        FlowRole::Receiver => out.retain(|s| !bodies.contains(s)),
                        FlowRole::Argument => out.retain(|s| bodies.contains(s)),
                    }
                }
            }
        }
        out
    }

    /// Adds to a nested block's clauses (`block`) what its FROM and JOIN clauses read: the body
    /// of each CTE of the statement they name, and what those bodies read in turn; and, for a
    /// name no CTE of the statement takes, the views the statement reads (their statements and
    /// the flows registering them). A CTE's body reads other CTEs and views by name, so they are
    /// upstream of it as a DataFrame's feeding chains are of a call: `ranked AS (SELECT …
    /// DENSE_RANK() OVER (…) FROM customer_spend)` reads the grouping of `customer_spend AS
    /// (SELECT … FROM orders … GROUP BY …)`, and that the rows `orders` holds.
    fn extend_with_tables_read(&self, statement: usize, block: &mut BTreeSet<SiteId>) {
        let clauses = self.sql_sites(statement);
        let ctes: Vec<(&str, &[SiteId])> = clauses
            .iter()
            .enumerate()
            .filter_map(|(at, &s)| {
                let with = &self.sites[s];
                let SiteKind::Sql {
                    kind: SqlClauseKind::With,
                    ..
                } = with.kind
                else {
                    return None;
                };
                let name = with.evidence.values(TokenKind::Alias).next()?;
                let len = clauses[at + 1..]
                    .iter()
                    .take_while(|b| self.sites[**b].depth > with.depth)
                    .count();
                Some((name, &clauses[at + 1..at + 1 + len]))
            })
            .collect();
        let mut pending: Vec<SiteId> = block.iter().copied().collect();
        let mut reads_views = false;
        while let Some(s) = pending.pop() {
            let site = &self.sites[s];
            if !matches!(site.kind, SiteKind::Sql { kind, .. } if flow::reads_tables(kind)) {
                continue;
            }
            for table in site.evidence.values(TokenKind::Table) {
                match ctes.iter().find(|(name, _)| *name == table) {
                    Some((_, body)) => {
                        pending.extend(body.iter().copied().filter(|b| block.insert(*b)));
                    }
                    None => reads_views = true,
                }
            }
        }
        if reads_views {
            let own: BTreeSet<SiteId> = clauses.iter().copied().collect();
            block.extend(self.sql_unit(statement).difference(&own).copied());
        }
    }

    /// The clauses of the predicate subqueries a SQL site is or holds (`key IN (SELECT …)` in a
    /// WHERE): each `Subquery` clause and its body, the clauses after it as deep as it or deeper
    /// up to its next sibling ([`Self::sql_block`]). Empty for a site holding none.
    fn predicate_subquery_bodies(&self, statement: usize, site: SiteId) -> BTreeSet<SiteId> {
        let clauses = self.sql_sites(statement);
        let holder = &self.sites[site];
        let mut bodies = BTreeSet::new();
        for (at, &clause) in clauses.iter().enumerate() {
            let subquery = &self.sites[clause];
            let held = clause == site
                || (subquery.depth > holder.depth && holder.lines.contains(&subquery.lines));
            if !subquery.opens_subquery() || !held || subquery.families.is_empty() {
                continue;
            }
            bodies.insert(clause);
            for &inner in &clauses[at + 1..] {
                let s = &self.sites[inner];
                if s.depth < subquery.depth || (s.depth == subquery.depth && s.opens_subquery()) {
                    break;
                }
                bodies.insert(inner);
            }
        }
        bodies
    }

    /// Adds the sites of `chains`, the SQL they run and everything feeding them, transitively.
    fn extend_with_flows_of(&self, chains: Vec<usize>, out: &mut BTreeSet<SiteId>) {
        let mut stack = chains;
        let mut seen = BTreeSet::new();
        while let Some(c) = stack.pop() {
            if !seen.insert(c) || seen.len() > 64 {
                continue;
            }
            out.extend(self.chain_sites(c).iter().copied());
            self.extend_sql_of(c, out);
            stack.extend(self.feeds(c).iter().map(|(_, f)| *f));
        }
    }

    /// The inputs of the union Spark plans for the DataFrame union at `site`, in order, each as
    /// the flow it comes from. Spark combines adjacent unions into one node with an input per
    /// frame (`a.union(b).union(c)` is one `Union` of three, and so is `u.union(c)` after
    /// `u = a.union(b)`): the first input is the receiver of the first union, then each union's
    /// argument. `None` when the code does not tell which argument each union takes (another
    /// call of the chain takes a frame too, or a variable may hold several frames), or when
    /// `site` is no DataFrame union.
    pub fn union_inputs(&self, site: SiteId) -> Option<Vec<BTreeSet<SiteId>>> {
        self.union_inputs_within(site, UNION_NESTING)
    }

    fn union_inputs_within(&self, site: SiteId, depth: usize) -> Option<Vec<BTreeSet<SiteId>>> {
        let SiteKind::Call {
            chain, position, ..
        } = &self.sites[site].kind
        else {
            return None;
        };
        let calls = self.chain_sites(*chain);
        let is_union = |s: SiteId| matches!(&self.sites[s].kind, SiteKind::Call { method, .. } if concatenates(method));
        if depth == 0 || !is_union(site) {
            return None;
        }
        // Each union of the chain takes one argument frame, in call order, and no other call
        // takes one.
        let arguments: Vec<usize> = self
            .feeds(*chain)
            .iter()
            .filter(|(role, _)| *role == FlowRole::Argument)
            .map(|(_, c)| *c)
            .collect();
        let unions: Vec<usize> = (0..calls.len()).filter(|&p| is_union(calls[p])).collect();
        let other_takes_a_frame = calls
            .iter()
            .any(|&s| !is_union(s) && self.sites[s].families.contains(OperatorFamily::Join));
        if unions.len() != arguments.len() || other_takes_a_frame {
            return None;
        }
        let mut first = *position;
        while first > 0 && is_union(calls[first - 1]) {
            first -= 1;
        }
        let receiver_union = match self.feeds(*chain) {
            [(FlowRole::Receiver, fed_by), ..] if first == 0 => {
                let single = self
                    .feeds(*chain)
                    .iter()
                    .filter(|(role, _)| *role == FlowRole::Receiver)
                    .count()
                    == 1;
                self.chain_sites(*fed_by)
                    .last()
                    .filter(|_| single)
                    .and_then(|&last| self.union_inputs_within(last, depth - 1))
            }
            _ => None,
        };
        let mut inputs = receiver_union
            .unwrap_or_else(|| vec![self.upstream(calls[first], Some(FlowRole::Receiver))]);
        for p in first..=*position {
            let ordinal = unions.iter().position(|&u| u == p)?;
            let mut flow = BTreeSet::new();
            self.extend_with_flows_of(vec![arguments[ordinal]], &mut flow);
            inputs.push(flow);
        }
        Some(inputs)
    }

    fn extend_sql_of(&self, chain: usize, out: &mut BTreeSet<SiteId>) {
        if let Some(stmts) = self.chain_sql.get(&chain) {
            for s in stmts {
                out.extend(self.sql_unit(*s));
            }
        }
    }

    /// Whether `chain` hands its frame on to later code — assigned to a variable a later line
    /// reads, or returned — rather than ending a plan there: of two flows explaining a plan alike
    /// (`result = df.groupBy("k").mean()` read later, beside `df.groupBy("k").mean().show()`),
    /// the one ending where the frame is used is the plan's.
    pub fn passes_frame_on(&self, chain: usize) -> bool {
        self.chain_passes_on.get(chain).copied().unwrap_or(false)
    }

    /// Whether `chain` applies functions of the repository to its frame (`df.transform(clean)`,
    /// `.transform(Transforms.withAge())`): their code is part of its flow.
    pub fn applies_functions(&self, chain: usize) -> bool {
        self.chain_applies.get(chain).copied().unwrap_or(false)
    }

    /// Whether the frame `chain` starts from was cached before it (`df.cache()` on an earlier
    /// line of its function): its plan then reads the cached data, an in-memory scan.
    pub fn reads_cached_frame(&self, chain: usize) -> bool {
        self.cached_by(chain).is_some()
    }

    /// The statement that cached the frame `chain` starts from (`df.cache()` on an earlier line
    /// of its function): a link of its flow, producing nothing but the cache the plan reads.
    pub fn cached_by(&self, chain: usize) -> Option<usize> {
        self.chain_cached_by.get(chain).copied().flatten()
    }

    /// Whether the chain running SQL `statement` hands its frame on
    /// (`sql_df = spark.sql("SELECT …")`, then `sql_df.show()`; see [`Self::passes_frame_on`]).
    pub fn sql_passes_frame_on(&self, statement: usize) -> bool {
        self.chain_sql
            .iter()
            .any(|(chain, stmts)| stmts.contains(&statement) && self.passes_frame_on(*chain))
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

/// How many unions, each the receiver of the next, [`SiteTable::union_inputs`] follows back.
const UNION_NESTING: usize = 16;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::evidence::{RangeBounds, rdd_made_at};

    /// The index of a repository holding `files` (path, source).
    /// The first site of the table starting on `line`.
    fn first_site_on(table: &SiteTable, line: u32) -> &Site {
        table
            .sites
            .iter()
            .find(|s| s.lines.start == line)
            .unwrap_or_else(|| panic!("no site on line {line}"))
    }

    fn repo_index(files: &[(&str, &str)]) -> RepoIndex {
        let dir = tempfile::tempdir().unwrap();
        for (path, source) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, source).unwrap();
        }
        crate::code::build_index(
            dir.path(),
            None,
            "test".into(),
            &crate::code::IndexOptions::default(),
        )
        .unwrap()
    }

    /// The site of the `method` call of the statement starting on `line`.
    fn call_site<'t>(table: &'t SiteTable, line: u32, method: &str) -> &'t Site {
        table
            .sites
            .iter()
            .find(|s| {
                s.lines.start == line
                    && matches!(&s.kind, SiteKind::Call { method: m, .. } if m == method)
            })
            .unwrap_or_else(|| panic!("no {method} call on line {line}"))
    }

    /// The site of the first `method` call of a table.
    fn first_call<'t>(table: &'t SiteTable, method: &str) -> &'t Site {
        table
            .sites
            .iter()
            .find(|s| matches!(&s.kind, SiteKind::Call { method: m, .. } if m == method))
            .unwrap_or_else(|| panic!("no {method} call"))
    }

    /// The SQL clause of `kind` starting on `line`.
    fn clause_on(table: &SiteTable, line: u32, kind: SqlClauseKind) -> &Site {
        table
            .sites
            .iter()
            .find(|s| {
                s.lines.start == line
                    && matches!(&s.kind, SiteKind::Sql { kind: k, .. } if *k == kind)
            })
            .unwrap_or_else(|| panic!("no {kind:?} on line {line}"))
    }

    fn first_clause(table: &SiteTable, kind: SqlClauseKind) -> &Site {
        table
            .sites
            .iter()
            .find(|s| matches!(&s.kind, SiteKind::Sql { kind: k, .. } if *k == kind))
            .unwrap_or_else(|| panic!("no {kind:?} clause"))
    }

    /// The evidence of the first `method` call of a repository of `files`.
    fn first_call_evidence(files: &[(&str, &str)], method: &str) -> Evidence {
        let table = SiteTable::build(&repo_index(files));
        first_call(&table, method).evidence.clone()
    }

    /// Whether the call `upstream` (its line and method) is upstream of the call `downstream`.
    fn feeds(table: &SiteTable, upstream: (u32, &str), downstream: (u32, &str)) -> bool {
        let upstream = call_site(table, upstream.0, upstream.1).id;
        let downstream = call_site(table, downstream.0, downstream.1).id;
        table.upstream(downstream, None).contains(&upstream)
    }

    /// The site table of a repository holding one file.
    fn site_table(file: &str, source: &str) -> SiteTable {
        SiteTable::build(&repo_index(&[(file, source)]))
    }

    /// The chain whose statement starts on `line`.
    fn chain_on_line(index: &RepoIndex, line: u32) -> usize {
        index
            .chains
            .iter()
            .position(|c| c.statement.start == line)
            .unwrap_or_else(|| panic!("line {line}: {:#?}", index.chains))
    }

    /// The sites of a table's SQL clauses of one kind.
    fn sql_clauses(table: &SiteTable, kind: SqlClauseKind) -> impl Iterator<Item = &Site> {
        table
            .sites
            .iter()
            .filter(move |s| matches!(&s.kind, SiteKind::Sql { kind: k, .. } if *k == kind))
    }

    #[test]
    fn a_helper_module_handed_a_frame_by_spark_code_is_spark_code() {
        let files = [
            (
                "main.py",
                "from pyspark.sql import SparkSession\n\
                 from jobs.model import dims\n\
                 from jobs.pandas_report import report\n\
                 spark = SparkSession.builder.getOrCreate()\n\
                 raw = spark.read.csv(\"data/calls.csv\")\n\
                 dims(raw, \"out\")\n\
                 report(\"calls.csv\")\n",
            ),
            // no import of Spark: handed `raw`, a frame
            (
                "jobs/model.py",
                "def dims(df, out):\n    df.select(\"kind\").distinct().write.parquet(out)\n",
            ),
            // no import of Spark and handed only a string: stays a look-alike
            (
                "jobs/pandas_report.py",
                "def report(path):\n    df = load(path)\n    df.groupby(\"kind\").count()\n",
            ),
        ];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let prior_of = |path: &str| {
            let file = index.files.iter().find(|f| f.path == path).unwrap().id;
            table
                .sites
                .iter()
                .find(|s| s.file == file)
                .unwrap()
                .origin_prior
        };
        assert_eq!(prior_of("jobs/model.py"), 1.0);
        assert!(prior_of("jobs/pandas_report.py") < 1.0);
    }

    #[test]
    fn jvm_code_says_whether_an_rdd_or_a_local_collection_holds_its_rows() {
        let scala = "object A {\n\
                     \x20 def main(a: Array[String]): Unit = {\n\
                     \x20   val local = Seq((\"a\", 1)).toDF(\"x\", \"n\")\n\
                     \x20   val rdd = spark.sparkContext.parallelize(Seq(1, 2)).toDF(\"n\")\n\
                     \x20   val listed = spark.createDataFrame(Seq((1, 2)))\n\
                     \x20   val held = spark.createDataFrame(rows, schema)\n\
                     \x20 }\n\
                     }\n";
        let python = "df = spark.createDataFrame([(1, 2)], [\"a\", \"b\"])\n";
        let index = repo_index(&[("A.scala", scala), ("job.py", python)]);
        let table = SiteTable::build(&index);
        let holder = |path: &str, line: u32| {
            let file = index.files.iter().find(|f| f.path == path).unwrap().id;
            table
                .sites
                .iter()
                .filter(|s| s.file == file && s.lines.start == line)
                .find(|s| s.families.contains(OperatorFamily::Scan))
                .unwrap_or_else(|| panic!("no scan on {path}:{line}"))
                .evidence
                .rows_from_rdd
        };
        assert_eq!(holder("A.scala", 3), Some(false));
        assert_eq!(holder("A.scala", 4), Some(true));
        assert_eq!(holder("A.scala", 5), Some(false));
        // a variable's rows, and Python's (PySpark plans either), are not known
        assert_eq!(holder("A.scala", 6), None);
        assert_eq!(holder("job.py", 1), None);
    }

    #[test]
    fn a_parameter_holds_what_its_callers_pass_and_a_name_its_constant() {
        let files = [
            (
                "config.py",
                "RAW_FILE = \"data/transactions.csv\"\nREF_TABLE = \"dim_branch\"\n",
            ),
            (
                "main.py",
                "from config import RAW_FILE\n\
                 from jobs.ingest import ingest, enrich\n\
                 def main():\n    \
                 bronze = ingest(spark, RAW_FILE, \"out/bronze\")\n    \
                 extra = ingest(input_file=\"data/extra.csv\", spark=spark, out=\"out/x\")\n    \
                 enriched = enrich(spark, bronze, target=\"out/gold\")\n",
            ),
            (
                "jobs/ingest.py",
                "import config\n\
                 def ingest(spark, input_file, out):\n    \
                 df = spark.read.csv(input_file, header=True)\n    \
                 df.write.parquet(out)\n    \
                 return df\n\
                 def enrich(spark, df, target):\n    \
                 ref = spark.read.table(config.REF_TABLE)\n    \
                 out = df.join(ref, \"branch_id\")\n    \
                 out.write.parquet(target)\n    \
                 return out\n",
            ),
        ];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let call = |method: &str| first_call(&table, method);
        // a positional parameter, given a constant imported by its caller, and by keyword alone
        assert!(call("csv").evidence.has(TokenKind::Path, "transactions"));
        assert!(call("csv").evidence.has(TokenKind::Path, "extra"));
        // a module's constant named through the module
        assert!(call("table").evidence.has(TokenKind::Table, "dim_branch"));
        let writes: Vec<&Site> = table
            .sites
            .iter()
            .filter(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "parquet"))
            .collect();
        // a literal passed by position, and one passed by keyword
        assert!(writes[0].evidence.has(TokenKind::Path, "bronze"));
        assert!(writes[1].evidence.has(TokenKind::Path, "gold"));
        // `enrich(spark, bronze, …)`: the parameter `df` is the caller's `bronze`
        let chain =
            |found: &dyn Fn(&CallChain) -> bool| index.chains.iter().position(found).unwrap();
        let join =
            chain(&|c| c.receiver == "df" && c.calls.first().is_some_and(|k| k.method == "join"));
        let bronze = chain(&|c| c.assigned_to.as_deref() == Some("bronze"));
        assert!(table.feeds(join).contains(&(FlowRole::Receiver, bronze)));
    }

    #[test]
    fn a_constant_list_of_names_is_the_columns_a_join_uses() {
        let config = "public final class Config {\n  public static final List<String> KEYS = Arrays.asList(\"customer_id\");\n}\n";
        let steps = "class Steps {\n  static Dataset<Row> enrich(Dataset<Row> orders, Dataset<Row> customers) {\n    return orders.join(customers, JavaConverters.asScalaBuffer(Config.KEYS).toSeq(), \"left\");\n  }\n}\n";
        let join = first_call_evidence(
            &[("src/Config.java", config), ("src/Steps.java", steps)],
            "join",
        );
        assert!(join.has(TokenKind::Column, "customer_id"), "{join:?}");
        // a list is one alternative, however many names it holds (`isin(*VALID_TYPES)`)
        let schemas = "VALID_TYPES = (\"view\", \"cart\", \"remove\", \"purchase\", \"search\")\n";
        let quality = "from schemas import VALID_TYPES\n\
                       def check(df):\n    return df.filter(~F.col(\"event_type\").isin(*VALID_TYPES)).count()\n";
        let filter = first_call_evidence(
            &[("schemas.py", schemas), ("quality.py", quality)],
            "filter",
        );
        for value in ["view", "search"] {
            assert!(filter.has(TokenKind::Literal, value), "{filter:?}");
        }
    }

    #[test]
    fn a_limit_taking_a_sorted_frame_is_a_top_n_with_the_sorts_keys() {
        let src = "top = orders.orderBy(F.desc(\"amount\"))\n\
                   top.limit(5).show()\n\
                   orders.orderBy(\"day\").limit(3).show()\n\
                   spark.sql(\"SELECT day FROM t ORDER BY day DESC LIMIT 7\").show()\n";
        let index = repo_index(&[("job.py", src)]);
        let table = SiteTable::build(&index);
        let call_at = |line: u32, method: &str| {
            table.sites.iter().find(|s| {
                s.lines.start == line
                    && matches!(&s.kind, SiteKind::Call { method: m, .. } if m == method)
            })
        };
        // written apart: the limit produces the sort, on its keys and with its number
        let limit = call_at(2, "limit").unwrap();
        assert!(limit.families.contains(OperatorFamily::Sort));
        assert!(limit.evidence.has(TokenKind::Column, "amount"));
        assert!(limit.evidence.has(TokenKind::Literal, "5"));
        // written together: the sort carries the number
        let sort = call_at(3, "orderBy").unwrap();
        assert!(sort.evidence.has(TokenKind::Literal, "3"));
        assert!(
            !call_at(3, "limit")
                .unwrap()
                .families
                .contains(OperatorFamily::Sort)
        );
        // … and in SQL, the ORDER BY the LIMIT's
        let order_by = first_clause(&table, SqlClauseKind::OrderBy);
        assert!(order_by.evidence.has(TokenKind::Literal, "7"));
    }

    #[test]
    fn a_path_passed_on_through_a_wrapper_reaches_the_generic_reader() {
        // `_csv(spark, path, schema)` called by `read_orders(spark, path)` and
        // `read_lines(spark, path)`, which their callers give paths
        let io = "def _csv(spark, path, schema):\n    return spark.read.schema(schema).csv(path)\n\n\
                  def read_orders(spark, path):\n    return _csv(spark, path, ORDERS)\n\n\
                  def read_lines(spark, path):\n    return _csv(spark, path, LINES)\n";
        let main = "from lib.io import read_orders, read_lines\n\
                    def main(spark):\n    \
                    orders = read_orders(spark, \"data/orders.csv\")\n    \
                    lines = read_lines(spark, \"data/order_lines.csv\")\n    \
                    orders.join(lines, \"order_id\").show()\n";
        let csv = first_call_evidence(&[("lib/io.py", io), ("main.py", main)], "csv");
        assert!(csv.has(TokenKind::Path, "orders"), "{csv:?}");
        assert!(csv.has(TokenKind::Path, "order_lines"), "{csv:?}");
    }

    #[test]
    fn a_config_property_is_the_path_it_returns() {
        // `cfg.orders_path`, a property of a config class, handed to a reader helper
        let files = [
            (
                "retail/config.py",
                "class JobConfig:\n    data_dir: Path = Path(\"data\")\n\n    \
                 @property\n    def orders_path(self) -> str:\n        \
                 return str(self.data_dir / \"orders.csv\")\n\n    \
                 def path_of(self, name):\n        return str(self.data_dir / name)\n",
            ),
            (
                "retail/io.py",
                "def read_orders(spark, path):\n    return spark.read.csv(path, header=True)\n",
            ),
            (
                "jobs/daily.py",
                "from retail import io\n\
                 def main(spark, cfg):\n    \
                 orders = io.read_orders(spark, cfg.orders_path)\n    \
                 orders.show()\n",
            ),
        ];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        assert!(
            first_call(&table, "csv")
                .evidence
                .has(TokenKind::Path, "orders"),
            "{:?}",
            index.constants
        );
        // a method taking an argument is no constant
        assert!(index.constants.iter().all(|c| c.name != "path_of"));
    }

    #[test]
    fn a_parameter_left_out_holds_its_default() {
        // `read_sales(spark)` reads what `path` defaults to, a constant of the helper's module
        // (Python) or of an object (Scala); a value passed instead is read too.
        let files = [
            (
                "lib/io.py",
                "SALES_PATH = \"data/sales.csv\"\n\
                 def read_sales(spark, path=SALES_PATH, header: bool = True):\n    \
                 return spark.read.option(\"header\", header).csv(path)\n",
            ),
            (
                "jobs/report.py",
                "from lib.io import read_sales\n\
                 sales = read_sales(spark)\n\
                 older = read_sales(spark, \"data/sales_2023.csv\")\n",
            ),
            (
                "Readers.scala",
                "object Paths { val Stores = \"data/stores.json\" }\n\
                 object Readers {\n  \
                 def stores(spark: SparkSession, path: String = Paths.Stores): DataFrame = spark.read.json(path)\n}\n",
            ),
        ];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let call = |method: &str| first_call(&table, method);
        assert!(call("csv").evidence.has(TokenKind::Path, "sales"));
        assert!(call("csv").evidence.has(TokenKind::Path, "sales_2023"));
        assert!(call("json").evidence.has(TokenKind::Path, "stores"));
    }

    #[test]
    fn a_frame_an_object_holds_is_what_assigned_it_in_any_of_its_methods() {
        let table = site_table(
            "report.py",
            "class StoreReport:\n    \
             def load(self):\n        \
             self.sales = self.spark.read.csv(self.path)\n        \
             return self\n    \
             def daily(self):\n        \
             return self.sales.groupBy(\"day\").count()\n    \
             def top(self):\n        \
             self.sales = self.sales.filter(\"qty > 1\")\n        \
             return self.sales.select(\"day\")\n    \
             def stores(self):\n        \
             self.shops = self.spark.read.json(\"shops\")\n    \
             def joined(self):\n        \
             return self.sales.join(self.shops, \"store_id\")\n\
             report = StoreReport().load()\n\
             report.sales.groupBy(\"store_id\").count().show()\n",
        );
        let read = call_site(&table, 3, "csv").id;
        // … read from outside through a variable holding the object
        let outside = call_site(&table, 15, "count").id;
        assert!(table.upstream(outside, None).contains(&read));
        let count = call_site(&table, 6, "count").id;
        assert!(table.upstream(count, None).contains(&read));
        // within one method the nearest assignment before it is the frame
        let select = call_site(&table, 9, "select").id;
        let filter = call_site(&table, 8, "filter").id;
        assert!(table.upstream(select, None).contains(&filter));
        assert!(table.upstream(filter, None).contains(&read));
        // … as a join's argument too
        let join = call_site(&table, 13, "join").id;
        let shops = call_site(&table, 11, "json").id;
        assert!(
            table
                .upstream(join, Some(FlowRole::Argument))
                .contains(&shops)
        );
        assert!(
            !table
                .upstream(join, Some(FlowRole::Argument))
                .contains(&read)
        );
    }

    #[test]
    fn a_method_called_on_an_object_and_a_comprehension_of_readers_feed_their_callers() {
        let table = site_table(
            "pipeline.py",
            "class Cleaner:\n    \
             def clean(self, df):\n        \
             return df.filter(df.qty > 0)\n\
             def read_day(spark, path):\n    \
             return spark.read.csv(path).withColumn(\"day\", F.lit(path))\n\
             def main(spark, paths):\n    \
             orders = spark.read.parquet(\"orders\")\n    \
             cleaner = Cleaner()\n    \
             cleaner.clean(orders).groupBy(\"k\").count().show()\n    \
             frames = [read_day(spark, p) for p in paths]\n    \
             events = reduce(lambda a, b: a.unionByName(b), frames)\n    \
             events.groupBy(\"day\").count().show()\n",
        );
        // `cleaner.clean(orders)` is `clean`'s frame, made of `orders`…
        assert!(feeds(&table, (3, "filter"), (9, "count")));
        assert!(feeds(&table, (7, "parquet"), (9, "count")));
        // …and the union folds the frames `read_day` returns for each path
        assert!(feeds(&table, (5, "csv"), (11, "unionByName")));
        assert!(feeds(&table, (5, "withColumn"), (12, "count")));
    }

    #[test]
    fn a_frame_passed_on_through_methods_and_parameters_reaches_the_new_object_s_caller() {
        let table = site_table(
            "pipeline.py",
            "def run_steps(df, steps):\n    \
             for s in steps:\n        \
             df = s(df)\n    \
             return df\n\
             class Job:\n    \
             def extract(self):\n        \
             return self.spark.read.csv(self.path)\n    \
             def transform(self, df):\n        \
             return run_steps(df, STEPS)\n    \
             def run(self):\n        \
             df = self.transform(self.extract())\n        \
             return df\n\
             result = Job(spark, paths).run()\n\
             result.groupBy(\"k\").count().show()\n",
        );
        // `Job(…).run()` is `Job`'s `run`; `self.extract()` passes what `extract` returns to
        // `transform`, whose parameter `run_steps` takes on
        assert!(feeds(&table, (7, "csv"), (14, "count")));
    }

    #[test]
    fn a_class_field_and_an_applied_lambda_carry_frames_on() {
        // a method reading a name its class body declares (Scala's `lazy val orders = …`), and
        // `transform(lambda d: d.filter(…))`, whose lambda's chain makes the call's frame
        let cases = [
            (
                "Report.scala",
                "class OrderReport(spark: SparkSession) {\n  \
                 lazy val orders: DataFrame = spark.read.csv(\"data/orders.csv\")\n  \
                 def daily(): DataFrame =\n    \
                 orders.groupBy(\"day\").count()\n}\n",
                (2, "csv"),
                (4, "count"),
            ),
            (
                "ranked.py",
                "sales = spark.read.csv(\"sales.csv\")\n\
                 top = sales.transform(lambda d: d.filter(\"rk <= 3\")).groupBy(\"k\").count()\n",
                (2, "filter"),
                (2, "count"),
            ),
        ];
        for (file, source, upstream, downstream) in cases {
            let table = site_table(file, source);
            assert!(feeds(&table, upstream, downstream), "{file}");
        }
    }

    #[test]
    fn a_value_bound_at_the_top_or_a_widget_s_default_is_the_literal_compared_with() {
        let table = site_table(
            "report.py",
            "dbutils.widgets.text(\"min_qty\", \"2\")\n\
             min_qty = int(dbutils.widgets.get(\"min_qty\"))\n\
             MAX_PRICE = 9.5\n\
             df = spark.read.csv(\"sales.csv\")\n\
             df.filter(F.col(\"qty\") >= min_qty).show()\n\
             df.where(F.col(\"price\") < MAX_PRICE).show()\n",
        );
        let filter = &call_site(&table, 5, "filter").evidence;
        assert!(filter.has(TokenKind::Literal, "2"));
        let filter = &call_site(&table, 6, "where").evidence;
        assert!(filter.has(TokenKind::Literal, "9.5"));
    }

    #[test]
    fn a_set_operation_keeping_copies_names_what_its_rewrite_plans() {
        let table = site_table(
            "sets.py",
            "a.exceptAll(b).show()\na.intersectAll(b).show()\na.subtract(b).show()\n",
        );
        let names = |line: u32, method: &str, kind: TokenKind, token: &str| {
            call_site(&table, line, method).evidence.has(kind, token)
        };
        let concatenation = crate::pipeline::operations::CONCATENATION;
        for (line, method) in [(1, "exceptAll"), (2, "intersectAll")] {
            assert!(names(line, method, TokenKind::Function, concatenation));
            assert!(names(line, method, TokenKind::Function, "replicaterows"));
            let families = call_site(&table, line, method).families;
            assert!(families.contains(OperatorFamily::Generate));
            assert!(families.contains(OperatorFamily::Filter));
        }
        assert!(names(1, "exceptAll", TokenKind::Column, "vcol"));
        assert!(names(2, "intersectAll", TokenKind::Alias, "vcol1_count"));
        assert!(!names(3, "subtract", TokenKind::Function, "replicaterows"));
    }

    #[test]
    fn a_frame_list_s_elements_are_its_frames_and_the_list_passed_whole_is_none() {
        let source = "def union_all(dfs):\n    \
                      first, *_ = dfs\n    \
                      return first.sql_ctx.createDataFrame(first.sql_ctx._sc.union([df.rdd for df in dfs]), first.schema)\n\
                      def modes(idf, cols):\n    \
                      list_df = []\n    \
                      for c in cols:\n        \
                      out_df = idf.select(c).groupby(c).count()\n        \
                      list_df.append(out_df)\n    \
                      head = list_df[0]\n    \
                      odf = union_all(list_df)\n    \
                      more = odf.union(list_df[1])\n    \
                      return more.union(head)\n";
        let index = repo_index(&[("modes.py", source)]);
        let table = SiteTable::build(&index);
        let appended = index.chains.iter().position(|c| c.appended).unwrap();
        assert_eq!(index.chains[appended].statement.start, 8);
        assert_eq!(index.chains[appended].receiver, "out_df");
        let head = chain_on_line(&index, 9);
        assert_eq!(table.feeds(head), &[(FlowRole::Receiver, appended)]);
        // …and so is one passed on its own
        let more = chain_on_line(&index, 11);
        assert!(table.feeds(more).contains(&(FlowRole::Argument, appended)));
        // `union_all(list_df)` may take the frames apart (here as RDDs): neither its call nor its
        // own code reads them as frames
        let elements_read = [head, more];
        for (chain, _) in index.chains.iter().enumerate() {
            if elements_read.contains(&chain) {
                continue;
            }
            assert!(
                table.feeds(chain).iter().all(|(_, fed)| *fed != appended),
                "{:#?}",
                index.chains[chain]
            );
        }
    }

    #[test]
    fn a_path_interpolating_its_file_name_is_what_the_callers_pass() {
        let files = [
            (
                "Datasets.scala",
                "object Datasets {\n\
                 \x20 def main(args: Array[String]): Unit = {\n\
                 \x20   def readDF(filename: String) = spark.read\n\
                 \x20     .option(\"inferSchema\", \"true\")\n\
                 \x20     .json(s\"src/main/resources/data/$filename\")\n\
                 \x20   val carsDF = readDF(\"cars.json\")\n\
                 \x20   carsDF.show()\n\
                 \x20 }\n\
                 }\n",
            ),
            (
                "jobs/load.py",
                "def load(spark, name, folder):\n    \
                 return spark.read.csv(f\"{folder}/{name}.csv\", header=True)\n\
                 def main(spark):\n    \
                 load(spark, \"orders\", \"raw\").show()\n",
            ),
        ];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let reader = |method: &str| {
            table
                .sites
                .iter()
                .find(|s| matches!(&s.kind, SiteKind::Call { method: m, .. } if m == method))
                .unwrap()
        };
        // Scala's `s"…/$filename"` inside a nested def, Python's f-string: the file passed
        assert!(reader("json").evidence.has(TokenKind::Path, "cars"));
        assert!(reader("csv").evidence.has(TokenKind::Path, "orders"));
        // a folder interpolated before a written file name names no file
        assert!(!reader("csv").evidence.has(TokenKind::Path, "raw"));
        // closures of Scala code are compiled in the top-level object around them; Python's
        // print no class
        assert_eq!(
            reader("json").evidence.compiled_in.as_deref(),
            Some("Datasets")
        );
        assert_eq!(reader("csv").evidence.compiled_in, None);
    }

    #[test]
    fn a_frame_made_of_an_rdd_names_the_statement_that_made_the_rdd() {
        let files = [(
            "src/Job.scala",
            "object Job {\n\
             \x20 def main(args: Array[String]): Unit = {\n\
             \x20   val rdd1 = sc.parallelize(1 to 1000)\n\
             \x20   val counts = rdd1.map(x => (x % 10, x))\n\
             \x20     .reduceByKey(_ + _)\n\
             \x20   rdd1.toDF.show\n\
             \x20   counts.toDF(\"k\", \"n\").show()\n\
             \x20 }\n\
             }\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let to_df = |line: u32| call_site(&table, line, "toDF");
        let made_at = |line: u32| rdd_made_at("Job.scala", line);
        assert!(to_df(6).evidence.has(TokenKind::Literal, &made_at(3)));
        // every line of the statement that made it, and none other
        assert!(to_df(7).evidence.has(TokenKind::Literal, &made_at(4)));
        assert!(to_df(7).evidence.has(TokenKind::Literal, &made_at(5)));
        assert!(!to_df(7).evidence.has(TokenKind::Literal, &made_at(3)));
    }

    #[test]
    fn a_frame_made_of_an_rdd_in_its_own_statement_names_the_calls_that_made_it() {
        let files = [(
            "src/dataframe/Basic.scala",
            "object Basic {\n\
             \x20 def main(args: Array[String]): Unit = {\n\
             \x20   val customerDF = spark.sparkContext.parallelize(custs, 4).toDF()\n\
             \x20   val wordsDF = spark.sparkContext.textFile(\"words.txt\")\n\
             \x20     .map(_.split(\" \")).toDF(\"w\")\n\
             \x20 }\n\
             }\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let to_df = |line: u32| call_site(&table, line, "toDF");
        let made_at = |line: u32| rdd_made_at("Basic.scala", line);
        assert!(to_df(3).evidence.has(TokenKind::Literal, &made_at(3)));
        // the lines of the calls before `toDF`, the last one's (`map`) included
        assert!(to_df(4).evidence.has(TokenKind::Literal, &made_at(4)));
        assert!(to_df(4).evidence.has(TokenKind::Literal, &made_at(5)));
        assert!(!to_df(4).evidence.has(TokenKind::Literal, &made_at(3)));
    }

    #[test]
    fn a_job_reads_the_arguments_its_launcher_passes_and_a_csv_reader_says_if_it_names_columns() {
        let files = [
            (
                "code/chap07/schema.py",
                "import sys\n\
                 if __name__ == '__main__':\n    \
                 input_path = sys.argv[1]\n    \
                 emps = spark.read.csv(input_path, schema=emps_schema)\n    \
                 emps.show()\n",
            ),
            (
                "code/chap07/no_header.py",
                "import sys\n\
                 input_path = sys.argv[1]\n\
                 df = spark.read.csv(input_path)\n\
                 df.show()\n",
            ),
            (
                "code/chap07/schema.sh",
                "export INPUT_FILE=\"/book/code/chap07/emps_no_header.txt\"\n\
                 export PROG=\"/book/code/chap07/schema.py\"\n\
                 $SPARK_HOME/bin/spark-submit $PROG $INPUT_FILE\n",
            ),
            // two jobs of one name: the launcher runs the one beside it
            ("jobs/a/load.py", JOB_READING_ITS_ARGUMENT),
            ("jobs/b/load.py", JOB_READING_ITS_ARGUMENT),
            (
                "jobs/b/run.sh",
                "spark-submit --master yarn load.py /in/b_orders.csv\n",
            ),
        ];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let reader = |line: u32| {
            table
                .sites
                .iter()
                .find(|s| {
                    s.lines.start == line
                        && matches!(&s.kind, SiteKind::Call { method, .. } if method == "csv")
                })
                .unwrap()
        };
        // `sys.argv[1]` is what the launcher passes
        assert!(reader(4).evidence.has(TokenKind::Path, "emps_no_header"));
        // a job no launcher runs reads nothing known
        assert!(!reader(3).evidence.has(TokenKind::Path, "emps_no_header"));
        // a schema names the columns; a bare read leaves them `_c0`, `_c1`, …
        assert_eq!(reader(4).evidence.headerless_csv, Some(false));
        assert_eq!(reader(3).evidence.headerless_csv, Some(true));
        let in_job = |folder: &str| {
            let file = index
                .files
                .iter()
                .find(|f| f.path == format!("jobs/{folder}/load.py"))
                .unwrap()
                .id;
            table
                .sites
                .iter()
                .find(|s| {
                    s.file == file
                        && matches!(&s.kind, SiteKind::Call { method, .. } if method == "parquet")
                })
                .unwrap()
        };
        assert!(in_job("b").evidence.has(TokenKind::Path, "b_orders"));
        assert!(!in_job("a").evidence.has(TokenKind::Path, "b_orders"));
    }

    const JOB_READING_ITS_ARGUMENT: &str = "import sys\n\
                                            path = sys.argv[1]\n\
                                            spark.read.parquet(path).show()\n";

    #[test]
    fn a_sql_unit_holds_the_flow_registering_its_view() {
        let table = site_table(
            "Job.scala",
            "object Job extends App {\n  val df = spark.createDataFrame(rows, schema)\n  \
             df.createOrReplaceTempView(\"PERSON\")\n  \
             spark.sql(\"SELECT salary * 100 AS salary FROM PERSON\").show()\n}\n",
        );
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
    fn a_cte_body_reads_the_ctes_and_views_it_names() {
        let table = site_table(
            "job.py",
            "orders = spark.read.csv(\"orders.csv\", header=True)\n\
             orders.createOrReplaceTempView(\"orders\")\n\
             spark.sql(\"\"\"\n\
             WITH spend AS (\n\
               SELECT tier, SUM(price) AS total\n\
               FROM orders\n\
               GROUP BY tier\n\
             ),\n\
             ranked AS (\n\
               SELECT tier, DENSE_RANK() OVER (ORDER BY total DESC) AS r\n\
               FROM spend\n\
             ),\n\
             other AS (\n\
               SELECT tier FROM orders WHERE price > 10\n\
             )\n\
             SELECT * FROM ranked WHERE r = 1\n\
             \"\"\")\n",
        );
        let on_line = |line: u32, kind: SqlClauseKind| clause_on(&table, line, kind).id;
        let window = on_line(10, SqlClauseKind::SelectItem);
        let upstream = table.upstream(window, None);
        assert!(
            upstream.contains(&on_line(7, SqlClauseKind::GroupBy)),
            "{upstream:?}"
        );
        assert!(
            upstream.contains(&first_call(&table, "csv").id),
            "the view's reader"
        );
        assert!(!upstream.contains(&on_line(14, SqlClauseKind::WherePredicate)));
        // a block reading only a CTE reads no view the statement reads elsewhere
        let grouping = on_line(7, SqlClauseKind::GroupBy);
        assert!(!table.upstream(grouping, None).contains(&window));
    }

    #[test]
    fn a_sql_join_reads_the_views_of_both_sides_and_names_its_keys_in_order() {
        let table = site_table(
            "job.py",
            "std = spark.createDataFrame(students, [\"id\", \"dept_id\", \"section\"])\n\
             dept = spark.read.parquet(\"data/departments.parquet\")\n\
             std.createOrReplaceTempView(\"student\")\n\
             dept.createOrReplaceTempView(\"department\")\n\
             spark.sql(\"SELECT * FROM student AS s JOIN department AS d \
             ON s.section = d.section AND s.dept_id = d.dept_id\").show()\n",
        );
        let call = |name: &str| {
            table
                .sites
                .iter()
                .find(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == name))
                .unwrap()
                .id
        };
        let unit = table.sql_unit(0);
        assert!(unit.contains(&call("createDataFrame")), "the FROM side");
        assert!(unit.contains(&call("parquet")), "the JOIN side");
        assert_eq!(table.sql_unit_and_links(0).1.len(), 2);
        let join = first_clause(&table, SqlClauseKind::Join);
        assert_eq!(join.evidence.key_order, ["section", "dept_id"]);
    }

    #[test]
    fn a_sql_reference_to_a_view_scans_only_a_frame_the_code_just_read() {
        // `FROM events` of a view the code unioned before registering reads the union's scans:
        // the readers' code, not the clause's; `FROM shipments` of a read and a projection may
        // be the scan
        let table = site_table(
            "kpis.py",
            "days = [spark.read.csv(p).withColumn(\"day\", F.lit(p)) for p in paths]\n\
             events = reduce(lambda a, b: a.unionByName(b), days)\n\
             shipments = spark.read.csv(\"data/shipments.csv\").select(\"id\", \"carrier\")\n\
             events.createOrReplaceTempView(\"events\")\n\
             shipments.createOrReplaceTempView(\"shipments\")\n\
             spark.sql(\"SELECT day, COUNT(*) FROM events GROUP BY day\").show()\n\
             spark.sql(\"SELECT carrier, COUNT(*) FROM shipments GROUP BY carrier\").show()\n",
        );
        let froms: Vec<&Site> = table
            .sites
            .iter()
            .filter(
                |s| matches!(&s.kind, SiteKind::Sql { kind, .. } if *kind == SqlClauseKind::From),
            )
            .collect();
        let [events, shipments] = froms[..] else {
            panic!("{froms:#?}")
        };
        assert!(
            !events.families.contains(OperatorFamily::Scan),
            "{events:#?}"
        );
        assert!(
            shipments.families.contains(OperatorFamily::Scan),
            "{shipments:#?}"
        );
    }

    #[test]
    fn a_pivot_given_its_values_names_them_and_one_without_does_not() {
        let table = site_table(
            "job.py",
            "df.groupBy(\"Department\").pivot(\"Gender\").count().show()\n\
             df.groupBy(\"Department\").pivot(\"Gender\", [\"Male\"]).count().show()\n",
        );
        let groupings: Vec<&Site> = table
            .sites
            .iter()
            .filter(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "groupBy"))
            .collect();
        assert_eq!(groupings.len(), 2);
        for site in &groupings {
            assert!(site.evidence.has(TokenKind::Function, "pivotfirst"));
        }
        assert!(!groupings[0].evidence.has(TokenKind::Literal, "pivot:male"));
        assert!(groupings[1].evidence.has(TokenKind::Literal, "pivot:male"));
    }

    #[test]
    fn a_sample_with_replacement_says_so() {
        let table = site_table(
            "job.py",
            "a = df.sample(True, 0.3, 123)\nb = df.sample(0.3, 123)\n\
             c = df.sample(withReplacement=True, fraction=0.3)\n",
        );
        let marked: Vec<bool> = table
            .sites
            .iter()
            .filter(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "sample"))
            .map(|s| {
                s.evidence
                    .has(TokenKind::Literal, super::super::evidence::WITH_REPLACEMENT)
            })
            .collect();
        assert_eq!(marked, [true, false, true]);
    }

    #[test]
    fn sample_by_is_a_filter_of_a_udf_over_rand() {
        let table = site_table(
            "job.py",
            "df2 = df.select((df.id % 3).alias(\"key\"))\n\
             print(df2.sampleBy(\"key\", {0: 0.1, 1: 0.2}, 0).collect())\n",
        );
        let site = table
            .sites
            .iter()
            .find(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "sampleBy"))
            .unwrap();
        assert!(site.families.contains(OperatorFamily::Filter));
        assert!(site.evidence.has(TokenKind::Function, "rand"));
        assert!(site.evidence.has(TokenKind::Function, "udf"));
    }

    #[test]
    fn a_grouping_carries_what_it_computes_and_a_bare_distinct_its_columns() {
        let table = site_table(
            "job.py",
            "from pyspark.sql.functions import sum\n\
             totals = df.groupBy(\"state\").pivot(\"country\", [\"USA\"]).agg(sum(\"amount\"))\n\
             counts = df.groupBy(\"state\").count()\n\
             cities = df.groupBy(\"state\").agg(count_distinct(\"city\"))\n\
             pairs = df.select(\"state\", \"city\").distinct()\n\
             rows = df.distinct()\n\
             keys = df.select(explode(map_keys(\"props\"))).distinct()\n\
             clean = df.dropDuplicates().dropna().withColumnRenamed(\"amount\", \"paid\").join(x, \"id\")\n",
        );
        let calls = |name: &str| -> Vec<&Site> {
            table
                .sites
                .iter()
                .filter(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == name))
                .collect()
        };
        let groupings = calls("groupBy");
        assert_eq!(groupings.len(), 3);
        // A distinct aggregate first de-duplicates over the keys and its columns.
        let distinct_count = &groupings[2].evidence;
        assert!(distinct_count.has(TokenKind::Function, DISTINCT));
        assert!(distinct_count.has(TokenKind::Column, "city"));
        assert!(!groupings[1].evidence.has(TokenKind::Function, DISTINCT));
        let pivoted = &groupings[0].evidence;
        assert!(pivoted.has(TokenKind::Function, "sum"));
        assert!(pivoted.has(TokenKind::Column, "country"));
        assert!(pivoted.has(TokenKind::Literal, "usa"));
        assert!(groupings[1].evidence.has(TokenKind::Function, "count"));
        assert!(!groupings[1].evidence.has(TokenKind::Function, "sum"));
        // `count()` names its result `count`; SQL's unaliased `count(*)` is `count(1)`.
        assert!(groupings[1].evidence.has(TokenKind::Alias, "count"));
        assert!(!groupings[2].evidence.has(TokenKind::Alias, "count"));
        let distincts = calls("distinct");
        assert_eq!(distincts.len(), 3);
        // A computed selection names its inputs, not the columns it yields.
        assert!(!distincts[2].evidence.has(TokenKind::Column, "props"));
        assert!(distincts[0].evidence.has(TokenKind::Column, "city"));
        // Whole rows of an unknown frame: no columns to claim.
        assert!(!distincts[1].evidence.has(TokenKind::Column, "city"));
        // Spark folds the rename after an aggregate into its results; the join ends the run.
        let dedup = &calls("dropDuplicates")[0].evidence;
        assert!(dedup.has(TokenKind::Alias, "paid"));
        assert!(!dedup.has(TokenKind::Alias, "id"));
    }

    #[test]
    fn a_fill_carries_the_columns_it_fills_and_its_value() {
        let table = site_table(
            "Nulls.scala",
            "object Nulls extends App {\n  \
             df.na.fill(0).show(false)\n  \
             df.na.fill(0, Array(\"population\")).show(false)\n  \
             df.na.fill(\"unknown\", Array(\"city\")).na.fill(\"\", Array(\"type\")).show(false)\n  \
             df.na.drop(Seq(\"population\")).show(false)\n\
             }\n",
        );
        let fills: Vec<&Site> = table
            .sites
            .iter()
            .filter(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "fill"))
            .collect();
        assert_eq!(fills.len(), 4);
        let literal = |s: &Site, v: &str| s.evidence.has(TokenKind::Literal, v);
        assert!(literal(fills[0], "fill:*") && literal(fills[0], "fillvalue:0"));
        assert!(literal(fills[1], "fill:population") && !literal(fills[1], "fill:*"));
        // one run of fills is one Project: each of its calls names both columns
        for run in &fills[2..] {
            assert!(literal(run, "fill:city") && literal(run, "fill:type"));
        }
        assert!(literal(fills[2], "fillvalue:unknown"));
        assert!(
            fills
                .iter()
                .all(|s| s.evidence.has(TokenKind::Function, "coalesce"))
        );
        let drop = table
            .sites
            .iter()
            .find(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "drop"))
            .unwrap();
        assert!(drop.families.contains(OperatorFamily::Filter));
        assert!(
            !drop.families.contains(OperatorFamily::Project),
            "na.drop drops rows"
        );
    }

    #[test]
    fn a_fill_of_a_mapping_fills_its_keys_with_its_values() {
        let table = site_table(
            "nulls.py",
            "df.fillna({\"city\": \"unknown\", \"type\": \"\"}).show()\n\
             defaults = {\"population\": 0}\n\
             df.na.fill(defaults).show()\n",
        );
        let literal = |line: u32, method: &str, v: &str| {
            call_site(&table, line, method)
                .evidence
                .has(TokenKind::Literal, v)
        };
        // the keys are the columns filled, the values what fills them
        assert!(literal(1, "fillna", "fill:city") && literal(3, "fill", "fill:population"));
        assert!(!literal(1, "fillna", "fill:*") && !literal(3, "fill", "fill:*"));
        assert!(literal(1, "fillna", "fillvalue:unknown"));
        assert!(!literal(1, "fillna", "fillvalue:city"));
        assert!(literal(3, "fill", "fillvalue:0"));
    }

    #[test]
    fn an_unnamed_aggregate_carries_the_name_spark_makes_up_for_it() {
        let table = site_table(
            "job.py",
            "df = spark.read.parquet(\"emp\")\n\
             df.select(count(lit(1))).show()\n\
             df.groupBy(\"dept\").agg(max(\"Salary\")).show()\n\
             df.agg(max(\"salary\").alias(\"top\")).show()\n\
             df.select(count(\"id\"), count(\"name\")).show()\n\
             df.agg(countDistinct(\"dept\")).show()\n\
             df.agg(stddev(\"salary\")).show()\n\
             df.groupBy(\"dept\").mean(\"salary\", \"age\").show()\n\
             df.select(count(\"*\")).show()\n",
        );
        let aliases_on = |line: u32, method: &str| -> Vec<String> {
            let site = table
                .sites
                .iter()
                .find(|s| {
                    s.precise.start == line
                        && matches!(&s.kind, SiteKind::Call { method: m, .. } if m == method)
                })
                .unwrap();
            site.evidence
                .tokens
                .iter()
                .filter(|(k, _)| *k == TokenKind::Alias)
                .map(|(_, v)| v.clone())
                .collect()
        };
        assert_eq!(aliases_on(2, "select"), ["count(1)"]);
        // `count("*")` is planned `count(1)` as well
        assert_eq!(aliases_on(9, "select"), ["count(1)"]);
        assert_eq!(aliases_on(3, "agg"), ["max(salary)"]);
        assert_eq!(aliases_on(4, "agg"), ["top"]);
        // which of two counts is which is not kept: no name is guessed
        assert!(aliases_on(5, "select").is_empty());
        assert_eq!(aliases_on(6, "agg"), ["count(distinct dept)"]);
        // nor a name not known to be Spark's own
        assert!(aliases_on(7, "agg").is_empty());
        // a grouped method names a result per column (`mean` is Spark's `avg`)
        assert_eq!(aliases_on(8, "groupBy"), ["avg(age)", "avg(salary)"]);
    }

    #[test]
    fn a_grouping_held_in_a_variable_is_aggregated_by_the_next_statement() {
        use crate::pipeline::evidence::Grouping;
        let table = site_table(
            "job.py",
            "df = spark.read.parquet(\"emp\")\n\
             grouped = df.groupBy(\"dept\")\n\
             grouped.count().show()\n\
             df.count()\n",
        );
        let count_on = |line: u32| {
            table
                .sites
                .iter()
                .find(|s| {
                    s.precise.start == line
                        && matches!(&s.kind, SiteKind::Call { method, .. } if method == "count")
                })
                .unwrap()
        };
        let grouped = count_on(3);
        assert!(grouped.evidence.has(TokenKind::Column, "dept"));
        assert!(grouped.evidence.has(TokenKind::Function, "count"));
        assert_eq!(grouped.evidence.grouping, Some(Grouping::Keyed));
        assert!(grouped.evidence.has(TokenKind::Alias, "count"));
        // a count of a frame, not of a grouping, stays one over every row
        assert_eq!(count_on(4).evidence.grouping, Some(Grouping::Global));
    }

    #[test]
    fn closures_name_the_typed_operators_they_plan() {
        let table = site_table(
            "Job.java",
            "public class Job {\n  static void run(SparkSession spark) {\n    \
             spark.read().json(\"people\").as(Encoders.bean(Response.class)).filter((FilterFunction<Response>) r -> r.getAge() > 30).show();\n    \
             spark.read().json(\"people\").filter(col(\"age\").gt(30)).show();\n    \
             spark.read().json(\"people\").as(Encoders.bean(Response.class)).map((MapFunction<Response, String>) r -> r.getName(), Encoders.STRING()).show();\n  \
             }\n}\n",
        );
        let on_line = |line: u32, method: &str| {
            table
                .sites
                .iter()
                .find(|s| {
                    s.precise.start == line
                        && matches!(&s.kind, SiteKind::Call { method: m, .. } if m == method)
                })
                .unwrap()
        };
        assert!(
            on_line(3, "filter")
                .evidence
                .has(TokenKind::Function, "typedfilter")
        );
        assert!(
            !on_line(4, "filter")
                .evidence
                .has(TokenKind::Function, "typedfilter")
        );
        assert!(
            on_line(5, "map")
                .evidence
                .has(TokenKind::Function, "mapelements")
        );
    }

    #[test]
    fn aggregates_know_whether_they_group_by_keys() {
        use crate::pipeline::evidence::Grouping;
        let table = site_table(
            "job.py",
            "from pyspark.sql.functions import count\n\
             df.groupBy(\"country\").agg(count(\"id\")).show()\n\
             df.select(count(\"id\")).show()\n\
             df.groupBy().agg(count(\"id\")).show()\n\
             spark.sql(\"SELECT country, COUNT(id) FROM t GROUP BY country\").show()\n\
             spark.sql(\"SELECT COUNT(id) FROM t\").show()\n\
             spark.sql(\"SELECT a FROM t WHERE b > (SELECT max(c) FROM u WHERE u.k = t.k)\").show()\n",
        );
        let grouping_at = |line: u32| -> Vec<Option<Grouping>> {
            let found: Vec<_> = table
                .sites
                .iter()
                .filter(|s| s.lines.start == line && s.families.contains(OperatorFamily::Aggregate))
                .map(|s| s.evidence.grouping)
                .collect();
            assert!(!found.is_empty(), "no aggregate site on line {line}");
            found
        };
        assert!(grouping_at(2).iter().all(|g| *g == Some(Grouping::Keyed)));
        assert!(grouping_at(3).iter().all(|g| *g == Some(Grouping::Global)));
        assert!(grouping_at(4).iter().all(|g| *g == Some(Grouping::Global)));
        assert!(grouping_at(5).contains(&Some(Grouping::Keyed)));
        assert!(grouping_at(6).contains(&Some(Grouping::Global)));
        // a subquery's aggregate may be correlated (planned keyed): it says nothing
        assert!(
            grouping_at(7).iter().all(Option::is_none),
            "{:?}",
            grouping_at(7)
        );
    }

    #[test]
    fn a_grouping_and_its_aggregating_call_hold_each_others_columns_and_the_names_after_them() {
        let table = site_table(
            "job.py",
            "df.groupBy(df.state).agg(sum(df.salary)).withColumnRenamed(\"sum(salary)\", \"total\")\n\
             df.groupBy(\"card\").pivot(\"month\").sum(\"spent\")\n",
        );
        let grouping = |line: u32| {
            &table
                .sites
                .iter()
                .find(|s| {
                    s.lines.start == line
                        && matches!(&s.kind, SiteKind::Call { method, .. } if method == "groupBy")
                })
                .expect("a groupBy site")
                .evidence
        };
        assert!(grouping(1).has(TokenKind::Column, "state"));
        assert!(grouping(1).has(TokenKind::Column, "salary"));
        assert!(grouping(1).has(TokenKind::Alias, "total"));
        // … and the aggregating call holds the grouping's keys: one Aggregate, whichever call
        // a look-alike spells what with (`groupBy("state").sum("salary")`).
        let aggregating = &table
            .sites
            .iter()
            .find(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "agg"))
            .expect("an agg site")
            .evidence;
        assert!(aggregating.has(TokenKind::Column, "state"));
        assert!(aggregating.returns_keys);
        // A pivot's grouping keeps only the pivot's own evidence: naming what it sums would let
        // it pass for a plain grouping by the pivot's column (`GROUP BY card, month`).
        assert!(!grouping(2).has(TokenKind::Column, "spent"));
    }

    #[test]
    fn a_sort_right_before_a_grouping_may_be_optimised_away() {
        let table = site_table(
            "job.py",
            "df.sort(\"state\", \"salary\").groupBy(\"state\").agg(sum(\"salary\")).show()\n\
             df.sort(\"state\").show()\n\
             df.groupBy(\"state\").count().orderBy(\"state\").show()\n",
        );
        let sort_on = |line: u32| {
            table
                .sites
                .iter()
                .find(|s| {
                    s.lines.start == line
                        && matches!(&s.kind, SiteKind::Call { method, .. }
                            if method == "sort" || method == "orderBy")
                })
                .expect("a sort site")
                .id
        };
        assert!(table.may_be_optimised_away(sort_on(1)));
        assert!(!table.may_be_optimised_away(sort_on(2)));
        assert!(!table.may_be_optimised_away(sort_on(3)));
    }

    #[test]
    fn a_sql_distinct_aggregate_reads_as_the_plan_names_it() {
        let table = site_table(
            "job.py",
            "spark.sql(\"\"\"\n  SELECT company, COUNT(DISTINCT state) AS n, SUM(pay) AS total\n  \
             FROM t GROUP BY company\n\"\"\")\n",
        );
        let item = |alias: &str| {
            table
                .sites
                .iter()
                .find(|s| {
                    matches!(
                        &s.kind,
                        SiteKind::Sql {
                            kind: SqlClauseKind::SelectItem,
                            ..
                        }
                    ) && s.evidence.has(TokenKind::Alias, alias)
                })
                .unwrap_or_else(|| panic!("no select item {alias}"))
        };
        // the plan's `count(distinct state)`, as `countDistinct("state")` is written
        assert!(item("n").evidence.has(TokenKind::Function, "countdistinct"));
        assert!(
            !item("total")
                .evidence
                .has(TokenKind::Function, "sumdistinct")
        );
    }

    #[test]
    fn a_grouping_keys_on_the_columns_it_names_unless_the_select_list_defines_them() {
        let table = site_table(
            "job.py",
            "spark.sql(\"SELECT Card_type, month, sum(x) FROM t GROUP BY c.Card_type, month, month_num\").show()\n\
             spark.sql(\"SELECT year(d) AS y, count(*) FROM t GROUP BY y\").show()\n",
        );
        let keys = |line: u32| {
            sql_clauses(&table, SqlClauseKind::GroupBy)
                .find(|s| s.lines.start == line)
                .map(|s| s.evidence.group_keys.iter().cloned().collect::<Vec<_>>())
                .unwrap_or_else(|| panic!("no GROUP BY on line {line}"))
        };
        // an aggregate keyed by (card_type, month) alone is not this grouping's
        assert_eq!(keys(1), ["card_type", "month", "month_num"]);
        // `y` is `year(d)`: the plan keys on the expression, not on a column named `y`
        assert!(keys(2).is_empty(), "{:?}", keys(2));
    }

    #[test]
    fn a_frame_is_cached_by_a_cache_of_itself_not_of_a_frame_made_from_it() {
        let index = repo_index(&[(
            "job.py",
            "df = spark.read.csv(\"sales.csv\")\n\
             big = df.where(\"amount > 100\").cache()\n\
             df.groupBy(\"city\").count().show()\n\
             df.cache()\n\
             df.groupBy(\"shop\").count().show()\n\
             big.groupBy(\"city\").count().show()\n",
        )]);
        let table = SiteTable::build(&index);
        let chain_at = |line: u32| chain_on_line(&index, line);
        // `df.where(…).cache()` caches `big`, not `df`
        assert_eq!(table.cached_by(chain_at(3)), None);
        assert_eq!(table.cached_by(chain_at(5)), Some(chain_at(4)));
        assert_eq!(table.cached_by(chain_at(6)), Some(chain_at(2)));
        // … and the statement caching a frame is part of every later query's flow of it
        let caching = table.chain_sites(chain_at(4))[0];
        assert!(table.flow_of_chain(chain_at(5)).contains(&caching));
        assert!(!table.flow_of_chain(chain_at(3)).contains(&caching));
    }

    #[test]
    fn a_grouped_blocks_window_comes_from_its_grouping() {
        let table = site_table(
            "job.py",
            "spark.sql(\"SELECT tier, RANK() OVER (ORDER BY SUM(v) DESC) AS r FROM t GROUP BY tier\").show()\n\
             spark.sql(\"SELECT k, RANK() OVER (PARTITION BY k ORDER BY v DESC) AS r FROM t\").show()\n",
        );
        let makes_window = |line: u32, kind: SqlClauseKind| {
            sql_clauses(&table, kind)
                .filter(|s| s.lines.start == line)
                .any(|s| s.families.contains(OperatorFamily::Window))
        };
        // Spark plans the window of a grouped block from its aggregate: the GROUP BY's window
        assert!(makes_window(1, SqlClauseKind::GroupBy));
        assert!(!makes_window(1, SqlClauseKind::Window));
        assert!(!makes_window(1, SqlClauseKind::SelectItem));
        let grouping = sql_clauses(&table, SqlClauseKind::GroupBy)
            .next()
            .expect("a GROUP BY site");
        assert!(grouping.evidence.has(TokenKind::Function, "rank"));
        assert!(grouping.evidence.has(TokenKind::Alias, "r"));
        // without a grouping, the window is its select item's
        assert!(makes_window(2, SqlClauseKind::Window));
    }

    #[test]
    fn code_concatenating_frames_says_so_and_other_set_operations_do_not() {
        let table = site_table(
            "sets.py",
            "a.union(b).show()\n\
             a.unionByName(b, allowMissingColumns=True).show()\n\
             a.subtract(b).show()\n\
             spark.sql(\"SELECT id FROM x UNION ALL SELECT id FROM y\").show()\n\
             spark.sql(\"SELECT id FROM x EXCEPT SELECT id FROM y\").show()\n",
        );
        let concatenates = |site: &Site| {
            site.evidence.has(
                TokenKind::Function,
                crate::pipeline::operations::CONCATENATION,
            )
        };
        assert!(concatenates(call_site(&table, 1, "union")));
        assert!(concatenates(call_site(&table, 2, "unionByName")));
        assert!(!concatenates(call_site(&table, 3, "subtract")));
        let set_operations: Vec<&Site> = sql_clauses(&table, SqlClauseKind::Union).collect();
        assert_eq!(set_operations.len(), 2);
        assert!(concatenates(set_operations[0]) && !concatenates(set_operations[1]));
    }

    #[test]
    fn a_typed_grouping_by_one_value_keys_on_value_and_counts_as_count_of_one() {
        let table = site_table(
            "Flyers.scala",
            "object Flyers {\n\
             \x20 def top(flights: Dataset[Flight]) = flights.groupByKey(_.passengerId).count()\n\
             \x20 def pairs(flights: Dataset[Flight]) = flights.groupByKey(f => (f.from, f.to)).count()\n\
             \x20 def byCity(df: DataFrame) = df.groupBy(\"city\").count()\n\
             }\n",
        );
        // `KeyValueGroupedDataset.count` over a key of one value: `count(1)` keyed by `value`
        for method in ["groupByKey", "count"] {
            let typed = &call_site(&table, 2, method).evidence;
            assert!(typed.has(TokenKind::Column, "value"), "{method}");
            assert!(typed.group_keys.contains("value"), "{method}");
            assert!(typed.has(TokenKind::Alias, "count(1)"), "{method}");
            assert!(!typed.has(TokenKind::Alias, "count"), "{method}");
        }
        // a tuple key is `_1`, `_2`; a DataFrame grouping's count is `count`
        let pairs = &call_site(&table, 3, "groupByKey").evidence;
        assert!(!pairs.has(TokenKind::Column, "value"));
        let by_city = &call_site(&table, 4, "groupBy").evidence;
        assert!(by_city.has(TokenKind::Alias, "count"));
        assert!(!by_city.has(TokenKind::Column, "value"));
        // Java names the key's encoder: a value's, or a bean's whose fields are the keys
        let java = site_table(
            "Flyers.java",
            "class Flyers {\n\
             \x20 void top(Dataset<Flight> flights) {\n\
             \x20   flights.groupByKey((MapFunction<Flight, Integer>) f -> f.getPassengerId(), Encoders.INT()).count().show();\n\
             \x20   flights.groupByKey((MapFunction<Flight, Route>) f -> f.route(), Encoders.bean(Route.class)).count().show();\n\
             \x20 }\n\
             }\n",
        );
        let by_value = &call_site(&java, 3, "groupByKey").evidence;
        assert!(by_value.group_keys.contains("value"));
        assert!(by_value.has(TokenKind::Alias, "count(1)"));
        let by_bean = &call_site(&java, 4, "groupByKey").evidence;
        assert!(!by_bean.group_keys.contains("value"));
    }

    #[test]
    fn a_grouping_holds_every_aggregate_its_select_list_returns() {
        let table = site_table(
            "Job.java",
            "class Job { void run() { spark.sql(\"\"\"\n\
             SELECT tier,\n\
             COUNT(DISTINCT order_id) AS order_count,\n\
             ROUND(AVG(line_value), 2) AS avg_value\n\
             FROM orders\n\
             GROUP BY tier\n\
             \"\"\").show(); } }\n",
        );
        let grouping = sql_clauses(&table, SqlClauseKind::GroupBy)
            .next()
            .expect("a GROUP BY site");
        assert_eq!(grouping.lines.start, 6);
        // one aggregate computes both select items' functions: the grouping explains all of it
        // (the distinct count's de-duplicating step, keyed by `tier` and `order_id`, too)
        for function in ["count", "countdistinct", "avg", DISTINCT] {
            assert!(
                grouping.evidence.has(TokenKind::Function, function),
                "{function}"
            );
        }
        for alias in ["order_count", "avg_value"] {
            assert!(grouping.evidence.has(TokenKind::Alias, alias), "{alias}");
        }
        assert!(grouping.evidence.has(TokenKind::Column, "line_value"));
        // the rounding is the projection above the aggregate, not the aggregate's
        assert!(!grouping.evidence.has(TokenKind::Function, "round"));
    }

    #[test]
    fn a_grouping_holds_the_aggregates_its_block_orders_by_under_spark_s_names() {
        let table = site_table(
            "job.py",
            "spark.sql(\"\"\"\nSELECT dest FROM flights\nGROUP BY dest ORDER BY sum(count) DESC LIMIT 5\n\"\"\").show()\n\
             spark.sql(\"SELECT k, 0.2 * avg(q), count(*), COUNT(DISTINCT c) FROM t GROUP BY k\").show()\n\
             spark.sql(\"SELECT k, DENSE_RANK() OVER (PARTITION BY k ORDER BY v DESC) AS r FROM t\").show()\n",
        );
        let clause = |line: u32, kind: SqlClauseKind| clause_on(&table, line, kind);
        let grouping = &clause(3, SqlClauseKind::GroupBy).evidence;
        // `ORDER BY sum(count)`: the aggregate computes it, under the name Spark gives it
        assert!(grouping.has(TokenKind::Function, "sum"));
        assert!(grouping.has(TokenKind::Alias, "sum(count)"));
        let items: Vec<&Site> = table
            .sites
            .iter()
            .filter(|s| {
                s.lines.start == 5
                    && matches!(
                        &s.kind,
                        SiteKind::Sql {
                            kind: SqlClauseKind::SelectItem,
                            ..
                        }
                    )
            })
            .collect();
        // `count(*)` is Spark's `count(1)`; `0.2 * avg(q)` is named after the whole expression
        assert!(
            items
                .iter()
                .any(|s| s.evidence.has(TokenKind::Alias, "count(1)"))
        );
        assert!(
            !items
                .iter()
                .any(|s| s.evidence.has(TokenKind::Alias, "avg(q)"))
        );
        assert!(
            items
                .iter()
                .any(|s| s.evidence.has(TokenKind::Alias, "count(distinct c)"))
        );
        assert!(
            !items
                .iter()
                .any(|s| s.evidence.has(TokenKind::Alias, "count(c)"))
        );
        // a window's ordering reads as `col("v").desc()` does
        let window = &clause(6, SqlClauseKind::Window).evidence;
        assert!(window.has(TokenKind::Function, "desc"));
        assert!(window.has(TokenKind::Function, "denserank"));
    }

    #[test]
    fn a_join_on_a_condition_written_in_sql_names_no_keys() {
        let table = site_table(
            "job.py",
            "a = spark.createDataFrame(rows, [\"id\", \"tags\"])\n\
             b = spark.createDataFrame(more, [\"id\", \"name\"])\n\
             a.join(b, expr(\"array_contains(tags, id)\")).show()\n\
             a.join(b, expr(\"a.id = b.id\")).show()\n\
             a.join(broadcast(b), \"id\").show()\n\
             spark.sql(\"SELECT * FROM a NATURAL JOIN b\").show()\n\
             spark.sql(\"SELECT * FROM a JOIN b ON a.id = b.id\").show()\n",
        );
        let on_names = |line: u32| {
            table.sites.iter().any(|s| {
                s.lines.start == line && s.evidence.has(TokenKind::Literal, JOINED_ON_NAMES)
            })
        };
        assert!(!on_names(3), "a condition in SQL");
        assert!(!on_names(4), "a comparison written in SQL");
        assert!(on_names(5), "a broadcast hint names no condition");
        assert!(
            on_names(6),
            "a natural join keeps one of each column both sides hold"
        );
        assert!(!on_names(7));
    }

    #[test]
    fn a_join_on_a_condition_narrowed_right_after_may_keep_one_key() {
        let table = site_table(
            "job.py",
            "a = spark.createDataFrame(rows, [\"id\", \"tags\"])\n\
             b = spark.createDataFrame(more, [\"id\", \"name\"])\n\
             a.join(b, a.id == b.id).select(a.id, \"name\").show()\n\
             a.join(b, a.id == b.id).filter(b.name.isNotNull()).drop(b.id).show()\n\
             a.join(b, a.id == b.id).show()\n\
             a.join(b, a.id == b.id).groupBy(a.id).count().show()\n\
             spark.sql(\"SELECT a.id, b.name FROM a JOIN b ON a.id = b.id\").show()\n\
             spark.sql(\"SELECT * FROM a JOIN b ON a.id = b.id\").show()\n",
        );
        let narrowed = |line: u32| {
            let join = table
                .sites
                .iter()
                .find(|s| {
                    s.lines.start == line
                        && (matches!(&s.kind, SiteKind::Call { method, .. } if method == "join")
                            || matches!(&s.kind, SiteKind::Sql { kind, .. } if *kind == SqlClauseKind::Join))
                })
                .unwrap_or_else(|| panic!("no join on line {line}"));
            join.evidence.narrowed_after_join
        };
        assert!(narrowed(3), "a select right after");
        assert!(narrowed(4), "a drop past a filter");
        assert!(!narrowed(5));
        assert!(
            !narrowed(6),
            "an aggregate is no projection of the join's columns"
        );
        assert!(narrowed(7), "a select list naming columns");
        assert!(!narrowed(8), "a star keeps both keys");
    }

    #[test]
    fn a_chain_written_inside_a_join_feeds_the_join_as_its_argument() {
        let table = site_table(
            "job.py",
            "a = spark.createDataFrame(rows, [\"id\", \"dept_id\"])\n\
             b = spark.createDataFrame(depts, [\"id\", \"name\"])\n\
             a.join(b.withColumnRenamed(\"id\", \"dept_id\"), \"dept_id\", \"right\").show()\n\
             a.join(b, a[\"dept_id\"] == b[\"id\"], \"right\").show()\n",
        );
        let site = |name: &str, line: u32| {
            table
                .sites
                .iter()
                .find(|s| {
                    s.lines.start == line
                        && matches!(&s.kind, SiteKind::Call { method, .. } if method == name)
                })
                .unwrap()
                .id
        };
        let join = site("join", 3);
        // It names its key: a join on names; the next one compares keys.
        let on_names = |s: SiteId| {
            table.sites[s]
                .evidence
                .has(TokenKind::Literal, JOINED_ON_NAMES)
        };
        assert!(on_names(join));
        assert!(!on_names(site("join", 4)));
        let argument = table.upstream(join, Some(FlowRole::Argument));
        assert!(argument.contains(&site("withColumnRenamed", 3)));
        assert!(argument.contains(&site("createDataFrame", 2)));
        let receiver = table.upstream(join, Some(FlowRole::Receiver));
        assert!(receiver.contains(&site("createDataFrame", 1)));
        assert!(!receiver.contains(&site("withColumnRenamed", 3)));
    }

    #[test]
    fn a_frame_read_inline_from_the_session_enters_the_join_as_its_argument() {
        // Both reads of one statement are chains of their own; the one inside `join(…)` is the
        // join's right side, as a frame variable there would be, so the statement's flow holds
        // the scans of both tables.
        let table = site_table(
            "anti.py",
            "anti = spark.table(\"sales\").join(spark.table(\"stores\"), \"store_id\", \"left_anti\")\n\
             anti.show()\n",
        );
        let join = call_site(&table, 1, "join").id;
        let tables: Vec<SiteId> = table
            .sites
            .iter()
            .filter(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "table"))
            .map(|s| s.id)
            .collect();
        assert_eq!(tables.len(), 2);
        let read_of = |s: SiteId| match table.sites[s].kind {
            SiteKind::Call { chain, .. } => chain,
            _ => unreachable!(),
        };
        let (outer, inline) = (read_of(tables[0]), read_of(tables[1]));
        assert_ne!(outer, inline);
        let argument = table.upstream(join, Some(FlowRole::Argument));
        let receiver = table.upstream(join, Some(FlowRole::Receiver));
        assert!(argument.contains(&tables[1]) && !argument.contains(&tables[0]));
        assert!(receiver.contains(&tables[0]) && !receiver.contains(&tables[1]));
        assert!(table.flow_of_chain(outer).contains(&tables[1]));
    }

    #[test]
    fn a_registered_view_read_from_the_session_is_the_registered_frame() {
        // `spark.table("sales")` of a temporary view plans the registered frame: its scan is the
        // reader's, the `table` call scans nothing — while a table nothing registers is a scan.
        let table = site_table(
            "views.py",
            "sales = spark.read.csv(\"data/sales.csv\")\n\
             sales.createOrReplaceTempView(\"sales\")\n\
             top = spark.table(\"sales\").groupBy(\"item\").count()\n\
             dims = spark.read.table(\"warehouse.stores\").select(\"name\")\n",
        );
        let read = call_site(&table, 1, "csv").id;
        let view = call_site(&table, 3, "table");
        assert!(!view.families.contains(OperatorFamily::Scan));
        let count = call_site(&table, 3, "count").id;
        assert!(table.upstream(count, None).contains(&read));
        assert!(
            call_site(&table, 4, "table")
                .families
                .contains(OperatorFamily::Scan)
        );
    }

    #[test]
    fn a_view_sql_defines_read_from_the_session_is_the_view_s_query() {
        // `CREATE TEMP VIEW` in SQL (a notebook's `%sql` cell, `spark.sql(…)`) then
        // `spark.table("city_totals")`: the chain runs the view's query, and scans nothing itself
        let table = site_table(
            "report.py",
            "spark.sql(\"CREATE OR REPLACE TEMP VIEW city_totals AS SELECT city, count(*) AS n FROM sales GROUP BY city\")\n\
             top = spark.table(\"city_totals\").orderBy(\"n\").limit(2)\n",
        );
        let view = call_site(&table, 2, "table");
        assert!(!view.families.contains(OperatorFamily::Scan));
        let grouping = sql_clauses(&table, SqlClauseKind::GroupBy)
            .next()
            .expect("the view's GROUP BY")
            .id;
        let limit = call_site(&table, 2, "limit").id;
        let chain = table.chain_of(limit).unwrap();
        assert!(table.flow_of_chain(chain).contains(&grouping));
    }

    #[test]
    fn frames_kept_in_a_mapping_are_its_values() {
        // A dict of frames read back by key is what its values made, as a list's elements are;
        // so is a dict comprehension's value.
        let table = site_table(
            "frames.py",
            "frames = {\n    \
             \"sales\": spark.read.csv(\"data/sales.csv\"),\n    \
             \"stores\": spark.read.json(\"data/stores.json\"),\n\
             }\n\
             frames[\"sales\"].join(frames[\"stores\"], \"store_id\").groupBy(\"name\").count().show()\n\
             tables = {name: spark.read.parquet(name) for name in names}\n\
             tables[\"orders\"].select(\"id\").show()\n",
        );
        let only = |method: &str| {
            let mut found = table
                .sites
                .iter()
                .filter(|s| matches!(&s.kind, SiteKind::Call { method: m, .. } if m == method));
            let site = found.next().unwrap_or_else(|| panic!("no {method} call"));
            assert!(found.next().is_none(), "one {method} call");
            site.id
        };
        let upstream = table.upstream(only("count"), None);
        assert!(upstream.contains(&only("csv")) && upstream.contains(&only("json")));
        let (parquet, select) = (only("parquet"), only("select"));
        assert!(table.upstream(select, None).contains(&parquet));
    }

    #[test]
    fn a_de_duplication_naming_columns_keys_on_them() {
        // `dropDuplicates(["item"])` plans an aggregate keyed on `item` alone: one naming more
        // columns keys on them too, so it is another de-duplication ([`conflicts`]).
        let table = site_table(
            "dedup.py",
            "df.dropDuplicates([\"item\"]).show()\n\
             df.dropDuplicates([\"store_id\", \"day\", \"item\"]).show()\n\
             df.dropDuplicates().show()\n",
        );
        let keys = |line: u32| {
            call_site(&table, line, "dropDuplicates")
                .evidence
                .group_keys
                .iter()
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(keys(1), ["item"]);
        assert_eq!(keys(2), ["day", "item", "store_id"]);
        assert!(keys(3).is_empty());
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

    #[test]
    fn a_chain_that_runs_nothing_is_trusted_less_than_its_look_alike_that_runs() {
        let files = [(
            "course/frames/aggregates.py",
            "df = spark.read.csv('sales.csv', header=True)\n\
             df.groupby('Company').mean()\n\
             df.groupby('Company').mean().show()\n\
             means = df.groupby('Company').mean()\n\
             df.groupby('Company').count()\n\
             df.count()\n\
             df.describe()\n\
             unused = df.groupby('Company').mean()\n\
             means.show()\n\
             df.groupby('Company').mean().explain()\n\
             way = df.groupby('Company').mean()\n\
             way.explain()\n\
             way.printSchema()\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let prior = |line: u32| first_site_on(&table, line).origin_prior;
        // a statement of its own ending in a lazy transformation never runs a job
        assert!(prior(2) < prior(3), "{} {}", prior(2), prior(3));
        assert!(prior(5) < prior(3));
        // assigned to a variable read later, it may run then; `count()` on a frame is an action
        assert_eq!(prior(4), prior(3));
        assert_eq!(prior(6), prior(3));
        // `describe()` alone returns a frame of statistics it has not computed yet
        assert!(prior(7) < prior(3));
        // assigned to a variable nothing reads, it never runs either
        assert!(prior(8) < prior(3));
        // printing its plan runs nothing
        assert!(prior(10) < prior(3));
        // nor does a variable read only to print its plan or schema
        assert!(prior(11) < prior(3));
    }

    #[test]
    fn a_relative_path_is_read_from_the_folder_of_its_notebook_as_well() {
        let files = [(
            "course/frames/aggregates.py",
            "df = spark.read.csv('sales.csv', header=True)\n\
             raw = spark.read.csv('/mnt/raw/sales.csv')\n\
             daily = spark.read.csv('../data/daily/sales.csv')\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let tails = |line: u32| &first_site_on(&table, line).evidence.path_tails;
        assert!(
            tails(1).contains("course/frames/sales.csv"),
            "{:?}",
            tails(1)
        );
        // an absolute path is read from where it says only
        assert_eq!(tails(2).iter().collect::<Vec<_>>(), ["mnt/raw/sales.csv"]);
        // whatever the working folder, a path relative to it ends the path read; a file name
        // alone or an absolute path says nothing of it
        let ending = |line: u32| &first_site_on(&table, line).evidence.working_folder_tails;
        assert_eq!(
            ending(3).iter().collect::<Vec<_>>(),
            ["data/daily/sales.csv"]
        );
        assert!(ending(1).is_empty() && ending(2).is_empty());
    }

    #[test]
    fn frames_returned_in_a_tuple_reach_the_variables_at_their_positions() {
        let files = [(
            "bench.py",
            "class Bench:\n\
             \x20   def load(self, spark):\n\
             \x20       orders_df = spark.read.parquet('o.parquet')\n\
             \x20       products_df = spark.read.parquet('p.parquet')\n\
             \x20       return orders_df, products_df, 0.5\n\
             \x20   def run(self, orders_df, products_df):\n\
             \x20       return orders_df.join(products_df, 'id')\n\
             def main(bench, spark):\n\
             \x20   orders, products, seconds = bench.load(spark)\n\
             \x20   bench.run(orders, products).show()\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let chain = |line: u32, what: &dyn Fn(&crate::code::CallChain) -> bool| {
            index
                .chains
                .iter()
                .position(|c| c.statement.start == line && what(c))
                .unwrap_or_else(|| panic!("line {line}: {:#?}", index.chains))
        };
        let fed = |c: usize| -> Vec<usize> { table.feeds(c).iter().map(|(_, f)| *f).collect() };
        let products = chain(9, &|c| c.assigned_to.as_deref() == Some("products"));
        let returned_products = chain(5, &|c| c.receiver == "products_df");
        let returned_orders = chain(5, &|c| c.receiver == "orders_df");
        assert!(
            fed(products).contains(&returned_products),
            "{:?}",
            fed(products)
        );
        assert!(
            !fed(products).contains(&returned_orders),
            "{:?}",
            fed(products)
        );
        // the join's argument, a parameter, is what the callers pass there
        let join = chain(7, &|c| c.calls.iter().any(|k| k.method == "join"));
        assert!(fed(join).contains(&products), "{:?}", fed(join));
    }

    #[test]
    fn a_grouping_by_computed_keys_is_keyed() {
        let files = [(
            "Orders.scala",
            "object Orders {\n\
             \x20 def run(): Unit = {\n\
             \x20   val orders = spark.read.parquet(\"orders\")\n\
             \x20   val keys = orders.columns.filter(c => c != \"quantity\")\n\
             \x20   orders.groupBy(keys.head, keys.tail: _*).agg(sum(\"quantity\")).show()\n\
             \x20 }\n\
             }\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let grouping = table
            .sites
            .iter()
            .find(|s| matches!(&s.kind, SiteKind::Call { method, .. } if method == "agg"))
            .unwrap();
        assert_eq!(
            grouping.evidence.grouping,
            Some(crate::pipeline::evidence::Grouping::Keyed)
        );
        assert!(grouping.evidence.names_computed_columns);
        assert!(
            grouping.evidence.group_keys.is_empty(),
            "{:?}",
            grouping.evidence.group_keys
        );
    }

    #[test]
    fn a_java_field_set_in_one_method_feeds_the_methods_reading_it() {
        let files = [(
            "PipelineTest.java",
            "class PipelineTest {\n\
             \x20 private Dataset<Row> deduped;\n\
             \x20 void setup() {\n\
             \x20   Dataset<Row> raw = spark.read().csv(\"orders.csv\");\n\
             \x20   deduped = raw.dropDuplicates(\"order_id\");\n\
             \x20 }\n\
             \x20 void countsRows() {\n\
             \x20   long n = deduped.select(\"order_id\").distinct().count();\n\
             \x20 }\n\
             \x20 void other() {\n\
             \x20   Dataset<Row> raw = spark.read().json(\"events.json\");\n\
             \x20   raw.show();\n\
             \x20 }\n\
             \x20 void readsLocal() {\n\
             \x20   raw.count();\n\
             \x20 }\n\
             }\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let chain_at = |line: u32| chain_on_line(&index, line);
        let fed = |line: u32| -> Vec<usize> {
            table
                .feeds(chain_at(line))
                .iter()
                .map(|(_, c)| *c)
                .collect()
        };
        // the test reads the field `setup` assigned
        assert!(fed(8).contains(&chain_at(5)), "{:?}", fed(8));
        // … but another method's local declaration is no field (nor is any of them reached)
        assert!(fed(15).is_empty(), "{:?}", fed(15));
    }

    #[test]
    fn every_assignment_in_a_branch_may_reach_a_later_read() {
        // (the assignment before the `try` is taken to reach the read too: only how deep the
        // branches nest is known, not which assignment a branch's runs always follow)
        let files = [
            (
                "load.py",
                "def load(spark, path):\n\
                 \x20   df = spark.read.json('fallback.json')\n\
                 \x20   try:\n\
                 \x20       df = spark.read.parquet(path)\n\
                 \x20   except Exception:\n\
                 \x20       df = spark.read.csv(path)\n\
                 \x20   return df.filter('id > 3')\n",
            ),
            (
                "Load.scala",
                "object Load {\n\
                 \x20 def run(): Unit = {\n\
                 \x20   var df = spark.read.json(\"fallback.json\")\n\
                 \x20   try {\n\
                 \x20     df = spark.read.parquet(\"gold\")\n\
                 \x20   } catch {\n\
                 \x20     case e: Exception =>\n\
                 \x20       println(e)\n\
                 \x20       df = spark.read.csv(\"silver\")\n\
                 \x20   }\n\
                 \x20   df.filter(\"id > 3\").show()\n\
                 \x20 }\n\
                 }\n",
            ),
        ];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        for (file, read_line, branches) in [("load.py", 7, [4, 6]), ("Load.scala", 11, [5, 9])] {
            let chain_at = |line: u32| {
                index
                    .chains
                    .iter()
                    .position(|c| {
                        index.files[c.file as usize].path == file && c.statement.start == line
                    })
                    .unwrap_or_else(|| panic!("{file}:{line}: {:#?}", index.chains))
            };
            let fed: Vec<usize> = table
                .feeds(chain_at(read_line))
                .iter()
                .map(|(_, c)| *c)
                .collect();
            // the `try` body's and the handler's assignment may each have run last
            for line in branches {
                assert!(fed.contains(&chain_at(line)), "{file}:{line}: {fed:?}");
            }
        }
    }

    #[test]
    fn except_and_intersect_hold_the_join_and_deduplication_they_plan() {
        let files = [(
            "sets.py",
            "new = a.select('id', 'name')\n\
             fresh = new.exceptAll(b)\n\
             changed = new.subtract(b)\n\
             both = new.intersect(b)\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let evidence_on_line = |line: u32| &first_site_on(&table, line).evidence;
        let anti = evidence_on_line(3);
        assert!(
            anti.has(TokenKind::Literal, "leftanti"),
            "{:?}",
            anti.tokens
        );
        assert!(anti.has(TokenKind::Function, DISTINCT), "{:?}", anti.tokens);
        let semi = evidence_on_line(4);
        assert!(
            semi.has(TokenKind::Literal, "leftsemi"),
            "{:?}",
            semi.tokens
        );
        // `exceptAll` keeps copies: no anti join of distinct rows
        let all = evidence_on_line(2);
        assert!(!all.has(TokenKind::Literal, "leftanti"), "{:?}", all.tokens);
        assert!(!all.has(TokenKind::Function, DISTINCT), "{:?}", all.tokens);
    }

    #[test]
    fn actions_hold_the_number_of_rows_they_take_unwritten() {
        let files = [(
            "rows.py",
            "df = spark.read.parquet('x')\n\
             df.first()\n\
             df.show()\n\
             df.show(5)\n\
             df.isEmpty()\n\
             df.head(3)\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let kept_on_line = |line: u32| {
            let last_call = table.sites.iter().rfind(|s| s.lines.start == line);
            last_call.unwrap().evidence.kept_rows
        };
        assert_eq!(kept_on_line(2), Some(1));
        // `show` takes one row more than it prints, to tell whether there are more
        assert_eq!(kept_on_line(3), Some(21));
        assert_eq!(kept_on_line(4), Some(6));
        assert_eq!(kept_on_line(5), Some(1));
        assert_eq!(kept_on_line(6), Some(3));
    }

    #[test]
    fn a_filter_on_a_computed_column_reads_the_columns_it_was_computed_from() {
        let files = [(
            "trades.py",
            "flagged = trades.withColumn('valid', when(col('trade_id') == col('valid_id'), True).otherwise(False))\n\
             flagged.filter(col('valid') == True).count()\n\
             flagged.filter(col('price') > 3).count()\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let filter_on_line = |line: u32| {
            &table
                .sites
                .iter()
                .find(|s| {
                    s.lines.start == line
                        && matches!(&s.kind, SiteKind::Call { method, .. } if method == "filter")
                })
                .unwrap()
                .evidence
        };
        // the optimiser inlines `valid`: the plan's Filter reads `trade_id` and `valid_id`
        let on_flag = filter_on_line(2);
        for column in ["valid", "trade_id", "valid_id"] {
            assert!(
                on_flag.has(TokenKind::Column, column),
                "{column}: {:?}",
                on_flag.tokens
            );
        }
        // a filter on a column the frame did not compute reads only that column
        let on_price = filter_on_line(3);
        assert!(
            !on_price.has(TokenKind::Column, "trade_id"),
            "{:?}",
            on_price.tokens
        );
    }

    #[test]
    fn a_sessions_range_holds_its_bounds_and_its_column() {
        let files = [(
            "ranges.py",
            "a = spark.range(10).toDF(\"n\")\n\
             b = spark.range(5, 50, 5)\n\
             c = spark.range(start=1, end=4, numPartitions=2)\n\
             d = spark.range(size)\n\
             e = spark.createDataFrame([(1,)], [\"id\"])\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let bounds =
            |line: u32, method: &str| call_site(&table, line, method).evidence.range_bounds;
        let range = |start, end, step| Some(RangeBounds { start, end, step });
        // a range's bounds hold for the calls after it in its chain
        assert_eq!(bounds(1, "range"), range(0, 10, 1));
        assert_eq!(bounds(1, "toDF"), range(0, 10, 1));
        assert_eq!(bounds(2, "range"), range(5, 50, 5));
        assert_eq!(bounds(3, "range"), range(1, 4, 1));
        assert_eq!(bounds(4, "range"), None);
        assert_eq!(bounds(5, "createDataFrame"), None);
        // Spark names the numbers `id`
        assert!(
            call_site(&table, 2, "range")
                .evidence
                .has(TokenKind::Column, "id")
        );
    }

    #[test]
    fn a_crosstab_holds_what_it_plans_and_the_key_it_names() {
        let table = site_table(
            "types.py",
            "df = spark.read.csv('x.csv', header=True)\ndf.stat.crosstab('StockCode', 'Quantity').show()\n",
        );
        let crosstab = call_site(&table, 2, "crosstab");
        for (kind, value) in [
            (TokenKind::Alias, "stockcode_quantity"),
            (TokenKind::Function, "pivotfirst"),
            (TokenKind::Function, "regexpreplace"),
            (TokenKind::Function, "coalesce"),
        ] {
            assert!(
                crosstab.evidence.has(kind, value),
                "{value}: {:?}",
                crosstab.evidence.tokens
            );
        }
        // it cleans its columns and fills its counts in projections of its own
        assert!(crosstab.families.contains(OperatorFamily::Project));
    }

    #[test]
    fn describe_and_summary_hold_the_statistics_and_rows_they_plan() {
        let files = [(
            "stats.py",
            "df = spark.read.csv('x.csv', header=True)\n\
             df.describe().show()\n\
             df.summary().show()\n\
             df.describe('age').show()\n\
             df.summary('count', 'min').show()\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let site = |method: &str| {
            table
                .sites
                .iter()
                .find(|s| matches!(&s.kind, SiteKind::Call { method: m, .. } if m == method))
                .unwrap()
        };
        // `explode([count,mean,stddev,min,max])`, then `element_at(col, summary)` per column
        let describe = &site("describe").evidence;
        for (kind, value) in [
            (TokenKind::Function, "explode"),
            (TokenKind::Function, "elementat"),
            (TokenKind::Function, "stddevsamp"),
            (TokenKind::Literal, "stddev"),
            (TokenKind::Literal, "count"),
        ] {
            assert!(describe.has(kind, value), "{value}: {:?}", describe.tokens);
        }
        assert!(!describe.has(TokenKind::Function, "percentileapprox"));
        // a bare one names none of the columns whose statistics it computes
        assert!(site("describe").describes_every_column());
        assert!(!site("csv").describes_every_column());
        let named = table.sites.iter().find(|s| {
            matches!(&s.kind, SiteKind::Call { method, .. } if method == "describe")
                && s.lines.start == 4
        });
        assert!(!named.expect("describe('age')").describes_every_column());
        // `summary()` adds the quartiles
        let summary = &site("summary").evidence;
        assert!(summary.has(TokenKind::Function, "percentileapprox"));
        assert!(
            summary.has(TokenKind::Literal, "25%"),
            "{:?}",
            summary.tokens
        );
        // `summary("count", "min")` names statistics: it still lays out every column's
        let chosen = table.sites.iter().find(|s| {
            matches!(&s.kind, SiteKind::Call { method, .. } if method == "summary")
                && s.lines.start == 5
        });
        let chosen = chosen.expect("summary('count', 'min')");
        assert!(!chosen.evidence.has(TokenKind::Column, "count"));
        assert!(chosen.describes_every_column(), "{:?}", chosen.evidence);
    }

    #[test]
    fn each_frame_of_a_random_split_flows_from_the_split() {
        let files = [(
            "ml.py",
            "data = spark.read.csv('ratings.csv')\n\
             (training, test) = data.randomSplit([0.8, 0.2])\n\
             single = test.filter(test['userId'] == 11)\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let chain = |line: u32, var: Option<&str>| {
            index
                .chains
                .iter()
                .position(|c| {
                    c.statement.start == line && (var.is_none() || c.assigned_to.as_deref() == var)
                })
                .unwrap()
        };
        // `test` is the split's second frame: its own copy of the chain
        let feeds = table.feeds(chain(3, None));
        assert!(feeds.contains(&(FlowRole::Receiver, chain(2, Some("test")))));
        assert!(!feeds.contains(&(FlowRole::Receiver, chain(2, Some("training")))));
        // the split sorts each partition before it samples
        let split = table.sites.iter().find(|s| s.lines.start == 2).unwrap();
        assert!(split.families.contains(OperatorFamily::Sort));
        assert!(split.families.contains(OperatorFamily::Sample));
    }

    #[test]
    fn a_fill_value_computed_at_run_time_is_no_literal_value() {
        let files = [(
            "fill.py",
            "df = spark.read.csv('sales.csv')\n\
             df.na.fill(0).show()\n\
             df.na.fill(df.select(mean(df['Sales'])).collect()[0][0], ['Sales']).show()\n\
             df.na.fill(value='none', subset=['Name']).show()\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let fill_values = |line: u32| -> Vec<String> {
            let site = table
                .sites
                .iter()
                .find(|s| s.lines.start == line && s.evidence.has(TokenKind::Function, "coalesce"))
                .unwrap();
            site.evidence
                .tokens
                .iter()
                .filter_map(|(_, v)| {
                    v.strip_prefix(crate::pipeline::evidence::FILL_VALUE)
                        .map(str::to_owned)
                })
                .collect()
        };
        assert_eq!(fill_values(2), ["0"]);
        // `[0][0]` picks the mean out of the collected rows: no zero is filled in
        assert!(fill_values(3).is_empty(), "{:?}", fill_values(3));
        assert_eq!(fill_values(4), ["none"]);
        assert_eq!(build::first_argument("(a(b, c), [d])"), Some("a(b, c)"));
        assert_eq!(
            build::first_argument("(value = 'x,y', subset=['a'])"),
            Some("'x,y'")
        );
        assert_eq!(build::first_argument("()"), None);
        assert_eq!(
            build::arguments("(o, (a == b) & f(\"x, y\"), \"left\")"),
            ["o", "(a == b) & f(\"x, y\")", "\"left\""]
        );
        assert!(build::arguments("x").is_empty());
    }

    #[test]
    fn a_reader_of_another_file_format_does_not_produce_the_scan() {
        let files = [(
            "read.py",
            "orders = spark.read.format('json').load('data/orders.json')\n\
             raw = spark.read.format('text').load('data/orders.json')\n\
             people = spark.read.option('header', True).csv('data/people.csv')\n\
             lines = spark.read.textFile('data/notes.txt')\n",
        )];
        let index = repo_index(&files);
        let table = SiteTable::build(&index);
        let format_at = |line: u32| {
            table
                .sites
                .iter()
                .filter(|s| s.lines.start == line)
                .find_map(|s| s.evidence.file_format.clone())
        };
        assert_eq!(format_at(1).as_deref(), Some("json"));
        assert_eq!(format_at(2).as_deref(), Some("text"));
        assert_eq!(format_at(3).as_deref(), Some("csv"));
        assert_eq!(format_at(4).as_deref(), Some("text"));
        let scan_of = |format: &str| Evidence {
            file_format: crate::pipeline::evidence::file_format(format),
            ..Evidence::default()
        };
        let reader = |line: u32| {
            table
                .sites
                .iter()
                .find(|s| s.lines.start == line && s.evidence.file_format.is_some())
                .unwrap()
        };
        let conflicts = |node: &Evidence, line: u32| {
            crate::pipeline::conflicts::conflicts(
                OperatorFamily::Scan,
                node,
                &reader(line).evidence,
            )
        };
        // `Scan text` of a JSON file is the text reader's, not the JSON reader's
        assert!(conflicts(&scan_of("text"), 1));
        assert!(!conflicts(&scan_of("text"), 2));
        assert!(!conflicts(&scan_of("csv"), 3));
        // a scan of a table names no file format: nothing to contradict
        assert!(!conflicts(&Evidence::default(), 1));
        // … but a database's table is never what a reader of paths scans
        let catalog_table = Evidence {
            file_format: crate::pipeline::evidence::file_format("json"),
            scans_catalog_table: true,
            ..Evidence::default()
        };
        assert!(conflicts(&catalog_table, 1));
        assert!(!conflicts(&scan_of("json"), 1));
    }

    #[test]
    fn a_function_applied_to_a_frame_runs_on_what_the_functions_applied_before_made() {
        // `named` joins the frame `at_least` filtered: its join is fed by that filter, and by
        // the read the chain starts from, though no caller passes its `df`
        let table = site_table(
            "job.py",
            "def at_least(df, minimum):\n    return df.filter(df.o_amount >= minimum)\n\n\n\
             def named(df, names):\n    return df.join(names, \"o_cust\", \"left\")\n\n\n\
             pq = spark.read.parquet(\"orders.parquet\")\n\
             names = spark.read.parquet(\"customers.parquet\")\n\
             out = pq.transform(partial(at_least, minimum=50.0)).transform(lambda df: named(df, names))\n",
        );
        assert!(feeds(&table, (2, "filter"), (6, "join")));
        assert!(feeds(&table, (9, "parquet"), (6, "join")));
        assert!(feeds(&table, (9, "parquet"), (2, "filter")));
        // the frame it is handed is the join's receiver, not what the join takes
        let join = call_site(&table, 6, "join").id;
        let filter = call_site(&table, 2, "filter").id;
        assert!(
            !table
                .upstream(join, Some(FlowRole::Argument))
                .contains(&filter)
        );
    }
}
