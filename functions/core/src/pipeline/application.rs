//! Localising the executions of one application together.
//!
//! All executions of an application come from one entry point and the modules it uses, so a
//! query whose own evidence fits three look-alike files equally is most likely in the file its
//! siblings come from. Three passes:
//!
//! 1. every plan is localised on its own ([`localise_plan`]);
//! 2. each plan's *decisive* result (a winning unit that explains most of the plan and has no
//!    twin in another file) is a vote for its file; every plan is then localised again with a
//!    [`FilePrior`] favouring the files the *other* plans voted for (its own vote left out, so a
//!    plan never confirms itself), in proportion to their share of the votes;
//! 3. in execution order, a plan whose winner has near-equals in its file (within
//!    [`ORDER_TOLERANCE`]) takes the first of them after the previous execution's code.
//!
//! A favoured file multiplies a unit's score by at most `1 + APPLICATION_PULL`: a unit elsewhere
//! that fits the plan clearly better (a shared helper, another module) still wins. Files below
//! [`MIN_SHARE`] of the votes get nothing: an application spread over many files (a TPC-H run,
//! a query per file) pulls nowhere. Files the log or the user name ([`super::hints`]: the
//! submitted script, a call site, `--entry`) favour their files the same way, more strongly, and
//! a named line favours the unit that spans it.

use super::hints::CodeHint;
pub use super::localise::{FilePrior, PlanLocalisation};
use super::localise::{ORDER_TOLERANCE, localise_plan, unit_position};
use super::semantics::SemanticDescription;
use super::sites::SiteTable;
use crate::code::RepoIndex;
use crate::contracts::MappingOutput;
use crate::plan::PlanGraph;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// The most a sibling-favoured file multiplies a unit's score by.
const APPLICATION_PULL: f64 = 0.25;
/// Share of the votes under which a file is not favoured.
const MIN_SHARE: f64 = 0.3;
/// Share of a plan's user-written nodes its winning unit must explain to vote.
const DECISIVE_EXPLAINED: f64 = 0.5;
/// How much a file named by a hint (the entry file, a call site) multiplies a unit's score.
const HINT_PULL: f64 = 0.5;

/// The localisation of every plan, in plan order; `hints[i]` are the files plan `i`'s input
/// names (empty when it names none).
pub fn localise_application(
    plans: &[PlanGraph],
    semantics: &[Vec<SemanticDescription>],
    table: &SiteTable,
    hints: &[Vec<CodeHint>],
) -> Vec<PlanLocalisation> {
    let hinted: Vec<FilePrior> = (0..plans.len())
        .map(|i| hint_prior(hints.get(i).map_or(&[][..], Vec::as_slice)))
        .collect();
    let alone: Vec<PlanLocalisation> = plans
        .par_iter()
        .zip(semantics)
        .zip(&hinted)
        .map(|((graph, sems), prior)| localise_plan(graph, sems, table, prior))
        .collect();
    if plans.len() < 2 {
        return alone;
    }
    let votes: Vec<Option<u32>> = alone.iter().map(|l| decisive_file(l, table)).collect();
    let (together, priors): (Vec<PlanLocalisation>, Vec<FilePrior>) = plans
        .par_iter()
        .zip(semantics)
        .zip(hinted)
        .zip(alone)
        .enumerate()
        .map(|(i, (((graph, sems), hinted), alone))| {
            let prior = sibling_prior(&votes, i, &hinted);
            if prior == hinted {
                (alone, prior) // nothing more to weigh
            } else {
                (localise_plan(graph, sems, table, &prior), prior)
            }
        })
        .unzip();
    in_program_order(plans, semantics, table, together, priors)
}

/// Third pass, in execution order: where a plan's winner has near-equals in its file (the same
/// query written twice), the first one after the previous execution's code wins.
fn in_program_order(
    plans: &[PlanGraph],
    semantics: &[Vec<SemanticDescription>],
    table: &SiteTable,
    mut localisations: Vec<PlanLocalisation>,
    priors: Vec<FilePrior>,
) -> Vec<PlanLocalisation> {
    let mut cursor: Option<(u32, u32)> = None;
    for (i, prior) in priors.into_iter().enumerate() {
        let start = |l: &PlanLocalisation| unit_position(table, &l.units.first()?.kind);
        if let (Some(after), Some(now)) = (cursor, start(&localisations[i]))
            && now.0 == after.0
            && now.1 <= after.1
            && has_near_equal(&localisations[i])
        {
            let ordered = FilePrior {
                after: Some(after),
                ..prior
            };
            localisations[i] = localise_plan(&plans[i], &semantics[i], table, &ordered);
        }
        cursor = start(&localisations[i]).or(cursor);
    }
    localisations
}

/// Whether a unit other than the winner fits within [`ORDER_TOLERANCE`] of it.
fn has_near_equal(localisation: &PlanLocalisation) -> bool {
    let mut scores = localisation.units.iter().map(|u| u.score);
    let Some(top) = scores.next() else {
        return false;
    };
    scores.any(|s| s >= top * (1.0 - ORDER_TOLERANCE))
}

/// The prior the input's own hints give: their files, and their lines.
fn hint_prior(hints: &[CodeHint]) -> FilePrior {
    let mut prior = FilePrior::default();
    for hint in hints {
        prior.factor.insert(hint.file, 1.0 + HINT_PULL);
        if let Some(line) = hint.line {
            prior.lines.entry(hint.file).or_default().push(line);
        }
    }
    prior
}

/// The file a plan's localisation decides on, if it decides: its winning unit explains most of
/// the plan and no unit in another file fits as well.
fn decisive_file(localisation: &PlanLocalisation, table: &SiteTable) -> Option<u32> {
    let winner = localisation.units.first()?;
    if winner.explained < DECISIVE_EXPLAINED || !localisation.twins.is_empty() {
        return None;
    }
    unit_position(table, &winner.kind).map(|(file, _)| file)
}

/// The prior of plan `own`: the hinted files, and the files the other plans decided on in
/// proportion to their share of those decisions.
fn sibling_prior(votes: &[Option<u32>], own: usize, hinted: &FilePrior) -> FilePrior {
    let mut counts: BTreeMap<u32, usize> = BTreeMap::new();
    for (i, vote) in votes.iter().enumerate() {
        if let (true, Some(file)) = (i != own, vote) {
            *counts.entry(*file).or_default() += 1;
        }
    }
    let total: usize = counts.values().sum();
    let mut prior = hinted.clone();
    for (file, n) in counts {
        let share = n as f64 / total as f64;
        if share >= MIN_SHARE {
            let factor = prior.factor.entry(file).or_insert(1.0);
            *factor = factor.max(1.0 + APPLICATION_PULL * share);
        }
    }
    prior
}

/// For a user-written node mapped outside every file the rest of its application runs from:
/// a sentence saying so (its own evidence fits there better).
pub fn outside_note(
    mapping: &MappingOutput,
    localisation: &PlanLocalisation,
    index: &RepoIndex,
    user_written: bool,
) -> Option<String> {
    let mapped = mapping.mapped_code.as_ref()?;
    let (main, _) = localisation
        .application_files
        .iter()
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    let main_path = &index.files.get(*main as usize)?.path;
    let outside = localisation
        .application_files
        .keys()
        .filter_map(|f| index.files.get(*f as usize))
        .all(|f| f.path != mapped.file);
    (user_written && outside).then(|| {
        format!(
            "The rest of this application runs from {main_path}; this query's own evidence fits \
             {} better.",
            mapped.file
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn siblings_pull_in_proportion_and_a_plan_never_votes_for_itself() {
        let votes = [Some(1), Some(1), Some(1), Some(2), None];
        let prior = sibling_prior(&votes, 3, &FilePrior::default());
        assert_eq!(prior.factor.get(&1), Some(&(1.0 + APPLICATION_PULL)));
        assert_eq!(prior.factor.get(&2), None, "its own vote is left out");
        let prior = sibling_prior(&votes, 0, &FilePrior::default());
        // files 1 (2 of 3 other votes) and 2 (1 of 3)
        let pull_1 = prior.factor[&1];
        assert!((pull_1 - (1.0 + APPLICATION_PULL * 2.0 / 3.0)).abs() < 1e-12);
        assert!((prior.factor[&2] - (1.0 + APPLICATION_PULL / 3.0)).abs() < 1e-12);
    }

    #[test]
    fn an_application_spread_over_many_files_pulls_nowhere() {
        let votes: Vec<Option<u32>> = (0..22).map(Some).collect();
        assert!(
            sibling_prior(&votes, 5, &FilePrior::default())
                .factor
                .is_empty()
        );
    }

    #[test]
    fn hinted_files_are_favoured_more_than_siblings_can() {
        let hinted = hint_prior(&[CodeHint {
            file: 7,
            line: Some(3),
        }]);
        assert_eq!(hinted.lines[&7], [3]);
        let prior = sibling_prior(&[Some(7), Some(7)], 0, &hinted);
        assert_eq!(prior.factor[&7], 1.0 + HINT_PULL);
    }
}
