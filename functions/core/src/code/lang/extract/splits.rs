//! `train, test = df.randomSplit([0.7, 0.3])`: one statement, one frame per variable.
//!
//! Spark plans each split as a Sample of its own bounds (`Sample 0.0, 0.7` for `train`,
//! `Sample 0.7, 1.0` for `test`), so each variable gets its own copy of the chain that carries only
//! its own split's weight: the flow of `test.describe()` then runs through the split naming 0.3,
//! and a plan of `test` is told from one of `train`.

use crate::code::index::CallChain;

/// The chain assigned to the first variable and a copy for each further one, each keeping only
/// its own weight among the split call's literals (with the share Spark computes from it, when
/// the weights do not add up to one). Weights the source does not spell out (`randomSplit(w)`)
/// leave every copy every literal.
pub(super) fn per_variable(first: CallChain, others: &[String]) -> Vec<CallChain> {
    let weights = first
        .calls
        .last()
        .and_then(|split| split_weights(&split.args.text))
        .filter(|(written, _)| written.len() == others.len() + 1);
    let mut copies = vec![first.clone()];
    copies.extend(others.iter().map(|var| CallChain {
        assigned_to: Some(var.clone()),
        ..first.clone()
    }));
    if let Some((written, shares)) = weights {
        for (k, chain) in copies.iter_mut().enumerate() {
            let Some(split) = chain.calls.last_mut() else {
                continue;
            };
            let others: Vec<&str> = written
                .iter()
                .enumerate()
                .filter(|(i, w)| *i != k && **w != written[k])
                .map(|(_, w)| w.as_str())
                .collect();
            split
                .args
                .literals
                .retain(|l| !others.contains(&l.as_str()));
            // as Spark prints the first split's upper bound, and as a later one's width is read
            for share in [shares[k].to_string(), share_spelling(shares[k])] {
                if !split.args.literals.contains(&share) {
                    split.args.literals.push(share);
                }
            }
        }
    }
    copies
}

/// A split's share of the rows as the plan's Sample is compared with code: six decimals,
/// trailing zeros dropped (`0.7`, `0.333333`) — the width between a later split's bounds reads
/// the same way (`pipeline::semantics`).
pub(crate) fn share_spelling(share: f64) -> String {
    format!("{share:.6}")
        .trim_end_matches('0')
        .trim_end_matches('.')
        .to_string()
}

/// The weights a split call spells out — `([0.7, 0.3], seed=42)`, `(Array(0.7, 0.3), 42L)`,
/// `(new double[]{0.7, 0.3})` — as written and as shares of their sum.
fn split_weights(args_text: &str) -> Option<(Vec<String>, Vec<f64>)> {
    let inner = args_text.trim().strip_prefix('(')?;
    let start = inner.find(|c: char| c.is_ascii_digit() || c == '.')?;
    let end = start + inner[start..].find([']', ')', '}'])?;
    let written: Vec<String> = inner[start..end]
        .split(',')
        .map(|w| w.trim().to_string())
        .collect();
    let values = written
        .iter()
        .map(|w| w.trim_end_matches(['d', 'D', 'f', 'F']).parse::<f64>().ok())
        .collect::<Option<Vec<f64>>>()?;
    let sum: f64 = values.iter().sum();
    (sum > 0.0 && values.iter().all(|v| *v >= 0.0))
        .then(|| (written, values.iter().map(|v| v / sum).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_weights_are_read_as_written_and_as_shares() {
        let (written, shares) = split_weights("([0.7, 0.3], seed=42)").unwrap();
        assert_eq!(written, ["0.7", "0.3"]);
        assert_eq!(shares, [0.7, 0.3]);
        let (_, shares) = split_weights("(Array(1.0, 2.0), 42L)").unwrap();
        assert!((shares[0] - 1.0 / 3.0).abs() < 1e-12);
        assert!(split_weights("(new double[]{0.8, 0.2})").is_some());
        assert!(split_weights("(weights)").is_none());
        assert!(split_weights("([ratio, 1 - ratio])").is_none());
    }
}
