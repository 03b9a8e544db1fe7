//! Node 3, `embedding_retrieval`: the top-K candidate sites for one node.
//!
//! Hybrid retrieval over the repository's sites, each channel normalised to 0–1:
//! * **structural** — operator ↔ method/clause compatibility plus rarity-weighted overlap of
//!   columns, functions, literals, aliases, tables and paths ([`super::localise::site_score`]);
//! * **lexical** — BM25 over code-aware terms (identifiers split on case and underscores);
//! * **flow** — 1 for the site the plan-level alignment chose (a hair less for the sites twin
//!   units in other files chose, see [`PlanLocalisation::twins`]), 0.5 for other sites of the
//!   query unit the plan was localised to, 0 elsewhere;
//! * **dense** — cosine similarity from an `Embedder`, when one is configured (not in the
//!   default offline build: the blend then uses the three channels above).
//!
//! Candidates are deduplicated by reported location: several calls of one statement are one
//! answer to a user.

use super::localise::{PlanLocalisation, site_score, test_copy_of};
use super::semantics::SemanticDescription;
use super::sites::{SiteId, SiteKind, SiteTable};
use crate::code::RepoIndex;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// One candidate location for a node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Candidate {
    pub site: SiteId,
    pub file: String,
    pub symbol: Option<String>,
    pub start: u32,
    pub end: u32,
    pub snippet: String,
    /// What kind of code it is (`call groupBy`, `sql GROUP BY`).
    pub construct: String,
    /// The SQL statement a SQL clause belongs to (an index into the repository's statements):
    /// two clauses of one statement are one query, of two statements two queries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sql_statement: Option<usize>,
    pub structural: f64,
    pub lexical: f64,
    pub flow: f64,
    /// The blended retrieval score (reported as `embeddingScore`).
    pub retrieval_score: f64,
    /// Share of the node's evidence found here (reported as `keywordMatch`).
    pub keyword_match: f64,
    /// Matched evidence, `kind:value`.
    pub matched: Vec<String>,
    /// Set by node 4.
    #[serde(default)]
    pub ast_score: f64,
    /// A twin unit's site in a test, standing for the aligned site's code outside tests: it
    /// explains the node as well, short only of the prior favouring the code under test
    /// ([`super::reason::twin_of`] counts it a twin whatever that prior costs its merit).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub test_copy: bool,
}

/// BM25 statistics over site terms. Hand-written rather than a crate: the scoring is a dozen lines,
/// and what matters — code-aware tokenisation and scoring only a candidate pool — is ours.
#[derive(Debug, Default)]
pub struct Bm25 {
    doc_freq: HashMap<String, u32>,
    docs: f64,
    avg_len: f64,
}

impl Bm25 {
    pub fn build(table: &SiteTable) -> Self {
        let mut doc_freq: HashMap<String, u32> = HashMap::new();
        let mut total = 0usize;
        for site in &table.sites {
            total += site.terms.len();
            let unique: HashSet<&String> = site.terms.iter().collect();
            for t in unique {
                *doc_freq.entry(t.clone()).or_default() += 1;
            }
        }
        let docs = table.sites.len().max(1) as f64;
        Self {
            doc_freq,
            docs,
            avg_len: (total as f64 / docs).max(1.0),
        }
    }

    pub fn score(&self, query: &[String], doc: &[String]) -> f64 {
        const K1: f64 = 1.2;
        const B: f64 = 0.75;
        let len = doc.len() as f64;
        let mut score = 0.0;
        // summed in a fixed order: a hash set's order changes from run to run, and with it the
        // last bits of the sum, which decides ties between candidates
        let unique: std::collections::BTreeSet<&String> = query.iter().collect();
        for term in unique {
            let tf = doc.iter().filter(|t| *t == term).count() as f64;
            if tf == 0.0 {
                continue;
            }
            let df = f64::from(self.doc_freq.get(term).copied().unwrap_or(0));
            let idf = ((self.docs - df + 0.5) / (df + 0.5) + 1.0).ln();
            score += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * len / self.avg_len));
        }
        score
    }
}

/// Flow credit of a twin unit's sites (see [`PlanLocalisation::twins`]).
const TWIN_FLOW: f64 = 0.99;

/// Flow credit of a site in the file the rest of the application runs from (at full pull),
/// below that of the plan's own query unit.
const APPLICATION_FLOW: f64 = 0.25;

/// Everything retrieval reads, built once per job.
pub struct RetrievalContext<'a> {
    pub index: &'a RepoIndex,
    pub table: &'a SiteTable,
    pub bm25: &'a Bm25,
    pub localisation: &'a PlanLocalisation,
}

fn snippet_of(index: &RepoIndex, table: &SiteTable, site: SiteId) -> (String, String) {
    match &table.sites[site].kind {
        SiteKind::Call { chain, method, .. } => {
            let text = index
                .chains
                .get(*chain)
                .map(|c| c.text.clone())
                .unwrap_or_default();
            (text, format!("call .{method}(…)"))
        }
        SiteKind::Sql {
            statement,
            clause,
            kind,
        } => {
            let text = index
                .sql
                .get(*statement)
                .and_then(|s| s.clauses.get(*clause))
                .map(|c| c.text.clone())
                .unwrap_or_default();
            (text, format!("SQL {kind:?}"))
        }
    }
}

/// Top-`k` candidates for one node.
// Long (~115 lines): pool, scores and the user-facing candidates are one ranking; the expensive
// candidate is built only for the top K, which keeps them in one place.
pub fn embedding_retrieval(
    sem: &SemanticDescription,
    ctx: &RetrievalContext,
    k: usize,
) -> Vec<Candidate> {
    let (family, target) = sem.target();
    let aligned = ctx.localisation.aligned.get(&sem.dag_node_id).copied();
    let twins: &[SiteId] = ctx
        .localisation
        .twins
        .get(&sem.dag_node_id)
        .map_or(&[], Vec::as_slice);
    // The pool: sites sharing evidence with the node, the query unit the plan was localised to,
    // and the aligned site. Any other site could only match on compatibility alone.
    let mut pool_ids = ctx.table.candidates(family, &target);
    pool_ids.extend(ctx.localisation.unit_sites.iter().copied());
    pool_ids.extend(aligned);
    pool_ids.extend(twins.iter().copied());
    let mut pool: Vec<(SiteId, f64, super::evidence::Overlap)> = pool_ids
        .into_iter()
        .filter_map(|id| {
            let (s, ov) = site_score(family, &target, &ctx.table.sites[id], ctx.table);
            (s > 0.0).then_some((id, s, ov))
        })
        .collect();
    if pool.is_empty() {
        return Vec::new();
    }
    let lexical: Vec<f64> = pool
        .iter()
        .map(|(s, _, _)| ctx.bm25.score(&sem.query_terms, &ctx.table.sites[*s].terms))
        .collect();
    // A twin's site is credited just below the aligned one, its wording counted no closer to the
    // node than the aligned site's (a copy in a package named like the operator, `…window`, reads
    // closer by its path alone): it ties with the aligned site, it never overtakes it.
    let aligned_lexical = pool
        .iter()
        .zip(&lexical)
        .find(|((s, _, _), _)| Some(*s) == aligned)
        .map(|(_, l)| *l);
    // A translation's site (the aligned one's twin in another language) states the evidence
    // its own way: it is credited with the aligned site's evidence and wording — no more, so it
    // ties with the aligned site and never overtakes it on how its language spells the query.
    let aligned_structural = pool
        .iter()
        .find(|(s, _, _)| Some(*s) == aligned)
        .map(|(_, v, _)| *v);
    let translation = |site: SiteId| {
        twins.contains(&site)
            && aligned.is_some_and(|a| {
                ctx.table
                    .other_language(ctx.table.sites[a].file, ctx.table.sites[site].file)
            })
    };
    // Any other twin is credited its own evidence up to the aligned site's: it explains the node
    // at least as well ([`super::localise`]'s twins), and the unit the plan was aligned with
    // still leads.
    for (site, structural, _) in &mut pool {
        if let Some(a) = aligned_structural.filter(|_| translation(*site)) {
            *structural = a;
        } else if let Some(a) = aligned_structural.filter(|_| twins.contains(site)) {
            *structural = structural.min(a);
        }
    }
    let lexical: Vec<f64> = pool
        .iter()
        .zip(lexical)
        .map(|((s, _, _), l)| match aligned_lexical {
            Some(a) if translation(*s) => a,
            Some(a) if twins.contains(s) => l.min(a),
            _ => l,
        })
        .collect();
    let max_lexical = lexical.iter().copied().fold(0.0, f64::max);
    // Rank on numbers first; build the user-facing candidate only for the top K.
    let mut ranked: Vec<(SiteId, f64, f64, f64, f64, super::evidence::Overlap)> = pool
        .drain(..)
        .zip(lexical)
        .map(|((site_id, structural, ov), lex)| {
            let lexical = if max_lexical > 0.0 {
                lex / max_lexical
            } else {
                0.0
            };
            let twin_credit = twins.contains(&site_id) && aligned_lexical.is_some();
            let flow = if Some(site_id) == aligned {
                1.0
            } else if twin_credit {
                TWIN_FLOW
            } else if ctx.localisation.unit_sites.contains(&site_id) {
                0.5
            } else {
                // a file the rest of the application runs from: code there is more likely
                let file = ctx.table.sites[site_id].file;
                APPLICATION_FLOW
                    * ctx
                        .localisation
                        .application_files
                        .get(&file)
                        .copied()
                        .unwrap_or(0.0)
            };
            let retrieval_score = 0.45 * structural + 0.15 * lexical + 0.40 * flow;
            (site_id, retrieval_score, structural, lexical, flow, ov)
        })
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut seen = HashSet::new();
    ranked
        .into_iter()
        .filter(|r| {
            let site = &ctx.table.sites[r.0];
            seen.insert((site.file, site.lines))
        })
        .take(k.max(1))
        .map(
            |(site_id, retrieval_score, structural, lexical, flow, ov)| {
                let site = &ctx.table.sites[site_id];
                let (snippet, construct) = snippet_of(ctx.index, ctx.table, site_id);
                Candidate {
                    site: site_id,
                    file: ctx
                        .index
                        .files
                        .get(site.file as usize)
                        .map(|f| f.path.clone())
                        .unwrap_or_default(),
                    symbol: site
                        .symbol
                        .and_then(|s| ctx.index.symbols.get(s as usize))
                        .map(|s| s.qualified_name.clone()),
                    start: site.lines.start,
                    end: site.lines.end,
                    snippet,
                    construct,
                    sql_statement: match site.kind {
                        SiteKind::Sql { statement, .. } => Some(statement),
                        SiteKind::Call { .. } => None,
                    },
                    structural,
                    lexical,
                    flow,
                    retrieval_score,
                    keyword_match: ov.coverage,
                    matched: ov
                        .matched
                        .iter()
                        .map(|(k, v)| format!("{}:{v}", format!("{k:?}").to_lowercase()))
                        .collect(),
                    ast_score: 0.0,
                    test_copy: twins.contains(&site_id)
                        && aligned.is_some_and(|a| test_copy_of(ctx.table, site_id, a)),
                }
            },
        )
        .collect()
}
