//! The calibration map: from the formula's raw score to how often an answer with that score was
//! right.
//!
//! DESIGN's node-6 formula weighs four factors by hand; on the benchmark its 0.75 meant "right
//! nine times in ten" and its 0.55 "three times in four", and repositories differed in sign. The
//! map below turns the raw score into that observed share, so a confidence of 0.9 means right
//! nine times in ten. It is monotone (a higher raw score never maps lower), piecewise linear
//! through its knots and flat beyond the first and last.
//!
//! The knots are fitted by `bench/tools/calibration.py OUT --rust` (pool-adjacent-violators over
//! every code node of the benchmark's and the project's own repositories, formatted and UI plans,
//! scored span@1 by the benchmark's `evaluate.py`) on results produced with the map switched off
//! (`CONFIDENCE_CALIBRATION=off`). The same script shows what a map fitted on every *other*
//! repository does to each one (leave-one-repository-out); `BENCHMARKS.md` holds that table.
//! A coin toss — other code (another file, or another frame in the same file) explaining the
//! node equally well — is fitted out and capped at [`COIN_TOSS`] instead: as likely wrong as
//! right, whatever the raw score; at [`TRANSLATION_TOSS`] when that code is in another language.

/// Fitted by `bench/tools/calibration.py OUT --rust` on 8,437 code nodes (main at 31bcd2f):
/// (mean raw score of a block, share of its answers that were right).
const KNOTS: &[(f64, f64)] = &[
    (0.0685, 0.0000),
    (0.2968, 0.6364),
    (0.5596, 0.7079),
    (0.6465, 0.7421),
    (0.6844, 0.8984),
    (0.7120, 0.9355),
    (0.7871, 0.9595),
    (0.9672, 0.9616),
    (1.0000, 1.0000),
];

/// The confidence of a choice between sites that explain a node equally well.
pub const COIN_TOSS: f64 = 0.5;

/// … when the other site is in another language — a translation of the query, not a copy: the
/// rendering whose evidence fits the plan a little better ran about three times in four
/// (0.71 and 0.85 in the two benchmark repositories holding translations, each the estimate for
/// the other: `bench/tools/calibration.py` prints it), so a translation tie says 0.7.
pub const TRANSLATION_TOSS: f64 = 0.7;

/// The share of answers right at `raw` on the benchmark (0–1).
pub fn calibrated(raw: f64) -> f64 {
    let raw = raw.clamp(0.0, 1.0);
    let (first, last) = (KNOTS[0], KNOTS[KNOTS.len() - 1]);
    if raw <= first.0 {
        return first.1;
    }
    if raw >= last.0 {
        return last.1;
    }
    KNOTS
        .windows(2)
        .find(|pair| raw <= pair[1].0)
        .map(|pair| {
            let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
            y0 + (y1 - y0) * (raw - x0) / (x1 - x0)
        })
        .unwrap_or(last.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knots_rise_in_both_coordinates() {
        for pair in KNOTS.windows(2) {
            assert!(pair[0].0 < pair[1].0, "raw scores strictly rise: {pair:?}");
            assert!(pair[0].1 <= pair[1].1, "shares never fall: {pair:?}");
        }
        assert!(
            KNOTS
                .iter()
                .all(|(x, y)| (0.0..=1.0).contains(x) && (0.0..=1.0).contains(y))
        );
    }

    #[test]
    fn the_map_is_monotone_continuous_and_passes_through_its_knots() {
        let mut previous = calibrated(0.0);
        for step in 1..=1000 {
            let value = calibrated(f64::from(step) / 1000.0);
            assert!(value >= previous, "falls at {step}: {previous} -> {value}");
            assert!(
                value - previous < 0.2,
                "jumps at {step}: {previous} -> {value}"
            );
            previous = value;
        }
        for (x, y) in KNOTS {
            assert!((calibrated(*x) - y).abs() < 1e-9, "misses knot ({x}, {y})");
        }
        assert_eq!(calibrated(-3.0), calibrated(0.0));
        assert_eq!(calibrated(7.0), calibrated(1.0));
    }

    #[test]
    fn the_formulas_middle_was_right_more_often_than_it_said() {
        // What the fit found: a raw 0.75 was right more than nine times in ten, a raw 0.6 about
        // seven in ten; the map must say so rather than echo the raw score.
        assert!(calibrated(0.75) > 0.9, "{}", calibrated(0.75));
        assert!(
            (0.68..0.76).contains(&calibrated(0.6)),
            "{}",
            calibrated(0.6)
        );
        assert_eq!(calibrated(1.0), 1.0);
    }
}
