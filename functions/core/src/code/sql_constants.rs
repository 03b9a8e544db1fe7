//! Constant expressions Spark folds before it plans: `.06 - 0.01` is the plan's `0.05`, and
//! `date '1994-01-01' + interval '1' year` its `1995-01-01`. SQL text names the operands; the
//! plan prints only the result, so a statement writing the arithmetic out would miss the very
//! literals a DataFrame rendering of the same query spells (`col("l_discount") >= 0.05`).
//!
//! Only what Spark's optimiser certainly folds is read: the sum or difference of two decimal
//! numbers, and a date literal plus or minus an interval of years, months or days (a month
//! added to the 31st lands on the month's last day, as Spark's `add_months` does).

use regex::Regex;
use std::sync::LazyLock;
use time::{Date, Duration, Month};

/// The results of the constant expressions in `expr`, as the plan prints them.
pub fn folded_constants(expr: &str) -> Vec<String> {
    // (numbers inside quotes are strings and dates: `'1994-01-01'` is no `1994 - 01`)
    let unquoted = without_quoted_text(expr);
    let mut folded: Vec<String> = DECIMAL_ARITHMETIC
        .captures_iter(&unquoted)
        .filter(|c| {
            // `x * 2 + 3` is `(x * 2) + 3`, and `2 + 3 * x` is `2 + (3 * x)`: no constant sum
            let before = unquoted[..c.get(0).map_or(0, |m| m.start())].trim_end();
            let after = unquoted[c.get(0).map_or(0, |m| m.end())..].trim_start();
            !before.ends_with(['*', '/', '%', '-', '+', '.'])
                && !after.starts_with(['*', '/', '%', '.'])
        })
        .filter_map(|c| decimal_sum(&c[2], &c[3] == "-", &c[4]))
        .collect();
    folded.extend(
        DATE_INTERVAL
            .captures_iter(expr)
            .filter_map(|c| shifted_date(&c[1], &c[2] == "-", &c[3], &c[4])),
    );
    folded
}

/// `expr` with the text between single quotes blanked out, quotes kept.
fn without_quoted_text(expr: &str) -> String {
    let mut quoted = false;
    expr.chars()
        .map(|c| {
            if c == '\'' {
                quoted = !quoted;
                c
            } else if quoted {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// Two decimal numbers added or subtracted (`.06 - 0.01`), the first not part of a longer name
/// or number.
static DECIMAL_ARITHMETIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(^|[^\w.])(\d*\.\d+|\d+)\s*([-+])\s*(\d*\.\d+|\d+)\b")
        .expect("decimal arithmetic pattern")
});

/// A date literal shifted by an interval (`date '1998-12-01' - interval '90' day`).
static DATE_INTERVAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\bdate\s*'(\d{4}-\d{2}-\d{2})'\s*([-+])\s*interval\s*'?(\d+)'?\s*(year|month|day)s?\b",
    )
    .expect("date interval pattern")
});

/// `a ± b` of two decimal numbers, exactly (no binary floating point), with trailing zeros
/// dropped: `.06 - 0.01` → `0.05`, `1 + 1` → `2`.
fn decimal_sum(a: &str, minus: bool, b: &str) -> Option<String> {
    let scale = fraction_digits(a).max(fraction_digits(b));
    let (a, b) = (scaled(a, scale)?, scaled(b, scale)?);
    let sum = if minus {
        a.checked_sub(b)?
    } else {
        a.checked_add(b)?
    };
    let (sign, magnitude) = if sum < 0 { ("-", -sum) } else { ("", sum) };
    let unit = 10i128.checked_pow(scale)?;
    let (whole, fraction) = (magnitude / unit, magnitude % unit);
    let fraction = format!("{fraction:0width$}", width = scale as usize);
    let fraction = fraction.trim_end_matches('0');
    Some(if fraction.is_empty() {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{fraction}")
    })
}

fn fraction_digits(number: &str) -> u32 {
    number
        .split_once('.')
        .map_or(0, |(_, fraction)| fraction.len() as u32)
}

/// `number` × 10^`scale`, as a whole number (`.06` at scale 2 → 6).
fn scaled(number: &str, scale: u32) -> Option<i128> {
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let digits = format!("{whole}{fraction:0<width$}", width = scale as usize);
    digits.parse().ok()
}

/// `date ± amount unit`, as `YYYY-MM-DD`.
fn shifted_date(date: &str, minus: bool, amount: &str, unit: &str) -> Option<String> {
    let mut parts = date.split('-').map(str::parse::<i32>);
    let (year, month, day) = (
        parts.next()?.ok()?,
        parts.next()?.ok()?,
        parts.next()?.ok()?,
    );
    let month = Month::try_from(u8::try_from(month).ok()?).ok()?;
    let start = Date::from_calendar_date(year, month, u8::try_from(day).ok()?).ok()?;
    let amount: i64 = amount.parse().ok()?;
    let signed = if minus { -amount } else { amount };
    let shifted = match unit.to_ascii_lowercase().as_str() {
        "day" => start.checked_add(Duration::days(signed))?,
        "month" => add_months(start, signed)?,
        "year" => add_months(start, signed.checked_mul(12)?)?,
        _ => return None,
    };
    Some(format!(
        "{:04}-{:02}-{:02}",
        shifted.year(),
        u8::from(shifted.month()),
        shifted.day()
    ))
}

/// Spark's `add_months`: the same day of the month `months` later, or that month's last day.
fn add_months(date: Date, months: i64) -> Option<Date> {
    let index = i64::from(date.year()) * 12 + i64::from(u8::from(date.month())) - 1 + months;
    let year = i32::try_from(index.div_euclid(12)).ok()?;
    let month = Month::try_from(u8::try_from(index.rem_euclid(12) + 1).ok()?).ok()?;
    let day = date.day().min(month.length(year));
    Date::from_calendar_date(year, month, day).ok()
}

#[cfg(test)]
mod tests {
    use super::folded_constants;

    #[test]
    fn sums_and_differences_of_numbers_are_folded_exactly() {
        assert_eq!(
            folded_constants("l_discount between .06 - 0.01 and .06 + 0.01"),
            ["0.05", "0.07"]
        );
        assert_eq!(folded_constants("x = 1 + 1"), ["2"]);
        assert_eq!(folded_constants("x > 0.5 - 1.25"), ["-0.75"]);
        // no constant: a column's arithmetic, or a product taking precedence
        assert!(folded_constants("a - 1").is_empty());
        assert!(folded_constants("x * 2 + 3").is_empty());
        assert!(folded_constants("2 + 3 * x").is_empty());
        assert!(folded_constants("col1 + 2").is_empty());
    }

    #[test]
    fn a_date_shifted_by_an_interval_is_folded_as_spark_adds_months() {
        assert_eq!(
            folded_constants("l_shipdate < date '1994-01-01' + interval '1' year"),
            ["1995-01-01"]
        );
        assert_eq!(
            folded_constants("l_shipdate <= date '1998-12-01' - interval '90' day"),
            ["1998-09-02"]
        );
        assert_eq!(
            folded_constants("d < DATE '1993-10-31' + INTERVAL '4' MONTHS"),
            ["1994-02-28"]
        );
        assert!(folded_constants("d < date '1994-01-01'").is_empty());
    }
}
