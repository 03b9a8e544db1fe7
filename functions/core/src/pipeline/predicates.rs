//! Predicates: what a filter tests, as the plan prints it and as code writes it.
//!
//! Columns and literals alone do not tell `df.filter((df.Close < 200) & (df.Open > 200))` from
//! `df.filter((df.Close < 200) | (df.Open > 200))`, nor `filter("Salary<=20000")` from
//! `filter(~(df.Salary <= 20000))`, nor `na.drop()` from `na.drop(thresh=2)`: the same names, the
//! same values. The plan prints the difference (`OR`, `(Salary#4 > 20000)`,
//! `atleastnnonnulls(2, …)`), and so does the code. Each side is reduced here to a set of facts
//! spelled alike:
//!
//! * `close<200` — a column compared with a value, the column on the left, a negation folded into
//!   the operator (`~(x < 5)` is `x>=5`, as Spark's optimiser rewrites it), `==`/`===` as `=`,
//!   `!=`/`<>`/`=!=` as `!=`, values by number (`200.0` and `1.00` are `200` and `1`);
//! * `close<` — the same comparison whatever the value: code comparing with a name
//!   (`col("marks").lt(marks)`) says no more, and a site comparing the other way is told apart;
//! * `valid=false` — a boolean column tested as it is (`NOT valid#49` in the plan,
//!   `col("valid").equalTo(false)` or `df.valid == False` in code);
//! * `or` — some condition is a disjunction (`|`, `||`, SQL's `OR`);
//! * `nonnulls:any`, `nonnulls:all`, `nonnulls:N` — how many non-null values a row of a
//!   null-dropping filter needs (`na.drop()`, `how="all"`, `thresh=N`).
//!
//! The facts break ties between sites holding the same names ([`super::evidence::overlap`]);
//! they are read with regular expressions over the plan's condition text and a call's argument
//! text, so syntax they do not know adds no fact rather than a wrong one.

use super::evidence::{NULL_DROP, canonical_literal};
use regex::Regex;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// The fact that some condition is a disjunction.
const DISJUNCTION: &str = "or";
/// The prefix of a null-dropping filter's requirement.
const NON_NULLS: &str = "nonnulls:";

/// A comparison in a plan: `(Close#1516 < 200.0)`, `NOT (state#12 = OH)`, `(200 < x#3L)`,
/// `(cast(marks#4 as bigint) < 50)`.
static PLAN_COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(NOT )?\((?:(?:cast\()?([A-Za-z_][\w.]*)#\d+L?(?: as \w+\))? (<=>|<=|>=|!=|<|>|=) ([^()#]+?)|([^()#]+?) (<=>|<=|>=|!=|<|>|=) (?:cast\()?([A-Za-z_][\w.]*)#\d+L?(?: as \w+\))?)\)",
    )
    .expect("plan comparison pattern")
});

/// A boolean column as a whole condition: `valid#49`, `NOT valid#49`.
static PLAN_BOOLEAN_TEST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(NOT )?([A-Za-z_][\w.]*)#\d+$").expect("boolean test pattern"));

/// A plan's null-dropping condition, `atleastnnonnulls(2, a#1, b#2, …)`: how many non-null
/// values a row needs and the values it counts, split at the top level — a projection Spark
/// pushed the filter through leaves its expressions there (`regexp_replace(name#3, J, Z, 1)`).
pub fn null_drop_arguments(condition: &str) -> Option<(usize, Vec<&str>)> {
    let inner = condition
        .trim()
        .strip_prefix(NULL_DROP)?
        .strip_prefix('(')?
        .strip_suffix(')')?;
    let mut parts = crate::plan::expr::split_top_level(inner);
    let required = parts.first()?.parse().ok()?;
    Some((required, parts.split_off(1)))
}

/// A column reference in code followed by a comparison with a value: `df["x"] < 5`,
/// `df.x >= 5`, `col("x") == "a"`, `$"x" === 5`, `df("x") =!= lit(5)`, `'x > 5`, or with a name
/// (`df["x"] > threshold`: the value is only known at run time).
static CODE_COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?x)
        (?P<neg>(?:~|!|\bnot)\s*\(\s*)?
        (?:
            [A-Za-z_][\w.]*\s*\[\s*["'](?P<sub>[^"'\]]+)["']\s*\]     # df["x"]
          | (?:[A-Za-z_]\w*\.)*\w+\s*\(\s*["'](?P<call>[^"']+)["']\s*\) # col("x"), F.col('x'), df("x")
          | \$"(?P<dollar>[^"]+)"                                # $"x"
          | (?:[A-Za-z_]\w*\.)+(?P<attr>[A-Za-z_]\w*)            # df.x
          | '(?P<symbol>[A-Za-z_]\w*)\b                          # 'x (a Scala symbol)
        )
        \s*(?P<op>===|=!=|==|!=|<=|>=|<>|<|>)\s*
        (?:lit\s*\(\s*)?(?:(?P<value>-?\d+(?:\.\d+)?|"[^"]*"|'[^']*'|(?i:true|false)\b)|[A-Za-z_])
        "#,
    )
    .expect("code comparison pattern")
});

/// A column reference in code compared through a method: `col("age").geq(lit(20))`,
/// `df.col("x").gt(5)`, `$"x".equalTo("a")`, `col("marks").lt(marks)` (a value only known at
/// run time), `col("m").between(50, 90)` (two comparisons, the first value read).
static CODE_METHOD_COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?x)
        (?:\(\s*["'](?P<call>[^"']+)["']\s*\)|\$"(?P<dollar>[^"]+)")
        \s*\.\s*(?P<op>gt|lt|geq|leq|equalTo|notEqual|between)\s*\(\s*
        (?:lit\s*\(\s*)?(?:(?P<value>-?\d+(?:\.\d+)?|"[^"]*"|'[^']*'|(?i:true|false)\b)|[A-Za-z_])
        "#,
    )
    .expect("method comparison pattern")
});

/// A comparison inside a SQL expression string: `Close<500`, `age >= 20`, `NOT (x = 'a')`.
static SQL_COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?P<neg>\bnot\s*\(\s*)?\b(?P<column>[A-Za-z_]\w*)\s*(?P<op><=|>=|!=|<>|==|<|>|=)\s*(?P<value>-?\d+(?:\.\d+)?|'[^']*')",
    )
    .expect("sql comparison pattern")
});

/// A string literal in code.
static STRING_LITERAL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""([^"]*)"|'([^']*)'"#).expect("string pattern"));

/// The facts of a plan's filter conditions (the conjuncts the user wrote).
pub fn of_plan_conditions<'e>(conditions: impl IntoIterator<Item = &'e str>) -> BTreeSet<String> {
    let mut facts = BTreeSet::new();
    for condition in conditions {
        // (what a null test counts is values, not tests: a `CASE WHEN` among them is a projection's)
        if let Some((required, counted)) = null_drop_arguments(condition) {
            let counted = counted.len();
            if required == counted {
                facts.insert(format!("{NON_NULLS}any"));
            }
            if required == 1 {
                facts.insert(format!("{NON_NULLS}all"));
            }
            if required != counted && required != 1 {
                facts.insert(format!("{NON_NULLS}{required}"));
            }
            continue;
        }
        if condition.contains(" OR ") {
            facts.insert(DISJUNCTION.to_owned());
        }
        // a boolean column tested as it is: `x = true` is planned `x`, `x = false` `NOT x`
        if let Some(c) = PLAN_BOOLEAN_TEST.captures(condition.trim()) {
            let value = if c.get(1).is_some() { "false" } else { "true" };
            facts.extend(comparison(&c[2], "=", Some(value), false));
        }
        for c in PLAN_COMPARISON.captures_iter(condition) {
            let negated = c.get(1).is_some();
            let fact = match (c.get(2), c.get(5)) {
                (Some(column), _) => comparison(column.as_str(), &c[3], Some(&c[4]), negated),
                (None, Some(value)) => {
                    comparison(&c[7], flipped(&c[6]), Some(value.as_str()), negated)
                }
                _ => Vec::new(),
            };
            facts.extend(fact);
        }
    }
    facts
}

/// The facts of a filtering call's argument text (`where`, `filter`, a SQL expression string).
pub fn of_filter_arguments(args_text: &str) -> BTreeSet<String> {
    let mut facts = BTreeSet::new();
    for c in CODE_COMPARISON.captures_iter(args_text) {
        let column = ["sub", "call", "dollar", "attr", "symbol"]
            .iter()
            .find_map(|g| c.name(g))
            .map(|m| m.as_str());
        if let Some(column) = column {
            let value = c.name("value").map(|v| v.as_str());
            facts.extend(comparison(column, &c["op"], value, c.name("neg").is_some()));
        }
    }
    for c in CODE_METHOD_COMPARISON.captures_iter(args_text) {
        let Some(column) = c.name("call").or_else(|| c.name("dollar")) else {
            continue;
        };
        let value = c.name("value").map(|v| v.as_str());
        let ops: &[&str] = match &c["op"] {
            "gt" => &[">"],
            "lt" => &["<"],
            "geq" => &[">="],
            "leq" => &["<="],
            "equalTo" => &["="],
            // `between(lo, hi)` is planned `x >= lo AND x <= hi`
            "between" => &[">=", "<="],
            _ => &["!="],
        };
        for (i, op) in ops.iter().enumerate() {
            let value = value.filter(|_| i == 0);
            facts.extend(comparison(column.as_str(), op, value, false));
        }
    }
    let outside_strings = STRING_LITERAL.replace_all(args_text, "\"\"");
    if outside_strings.contains('|') {
        facts.insert(DISJUNCTION.to_owned());
    }
    for literal in STRING_LITERAL.captures_iter(args_text) {
        let sql = literal
            .get(1)
            .or_else(|| literal.get(2))
            .map_or("", |m| m.as_str());
        facts.extend(of_sql_condition(sql));
    }
    facts
}

/// The facts of a SQL condition (a `WHERE` clause, an expression string).
pub fn of_sql_condition(sql: &str) -> BTreeSet<String> {
    let mut facts = BTreeSet::new();
    if sql
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("or"))
    {
        facts.insert(DISJUNCTION.to_owned());
    }
    for c in SQL_COMPARISON.captures_iter(sql) {
        facts.extend(comparison(
            &c["column"],
            &c["op"],
            Some(&c["value"]),
            c.name("neg").is_some(),
        ));
    }
    facts
}

/// The facts of a null-dropping call (`na.drop(…)`, `dropna(…)`) from its argument text.
pub fn of_null_drop_arguments(args_text: &str) -> BTreeSet<String> {
    static THRESHOLD: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"(?:thresh\s*=\s*|^\s*)(\d+)"#).expect("threshold pattern"));
    static HOW: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?:how\s*=\s*|^\s*)["'](any|all)["']"#).expect("how pattern")
    });
    let requirement = match (THRESHOLD.captures(args_text), HOW.captures(args_text)) {
        (Some(t), _) => t[1].to_owned(),
        (None, Some(h)) => h[1].to_owned(),
        (None, None) => "any".to_owned(),
    };
    BTreeSet::from([format!("{NON_NULLS}{requirement}")])
}

/// The share of the facts of both sides that both hold (0 when either has none).
pub fn agreement(node: &BTreeSet<String>, site: &BTreeSet<String>) -> f64 {
    if node.is_empty() || site.is_empty() {
        return 0.0;
    }
    let shared = node.intersection(site).count();
    shared as f64 / (node.len() + site.len() - shared) as f64
}

/// `x < 5` read from the value's side: `5 > x`.
fn flipped(op: &str) -> &str {
    match op {
        "<" => ">",
        ">" => "<",
        "<=" => ">=",
        ">=" => "<=",
        other => other,
    }
}

/// The facts of one comparison — with its value when known, and without — or none when the
/// operator is not a comparison this module knows.
fn comparison(column: &str, op: &str, value: Option<&str>, negated: bool) -> Vec<String> {
    let op = match op {
        "=" | "==" | "===" | "<=>" => "=",
        "!=" | "<>" | "=!=" => "!=",
        "<" | "<=" | ">" | ">=" => op,
        _ => return Vec::new(),
    };
    let op = if negated {
        match op {
            "<" => ">=",
            ">=" => "<",
            ">" => "<=",
            "<=" => ">",
            "=" => "!=",
            _ => "=",
        }
    } else {
        op
    };
    let column = column.rsplit('.').next().unwrap_or(column).to_lowercase();
    let compared = format!("{column}{op}");
    match value {
        Some(value) => vec![format!("{compared}{}", value_spelling(value)), compared],
        None => vec![compared],
    }
}

/// A compared value in one spelling: a number by its value (a decimal prints with its scale,
/// `1.00`, beside code's `1`), anything else as a literal is spelled ([`canonical_literal`]).
fn value_spelling(value: &str) -> String {
    let literal = canonical_literal(value);
    match literal.parse::<f64>() {
        Ok(n) if n.is_finite() && n.fract() == 0.0 && n.abs() < 1e15 => format!("{}", n as i64),
        Ok(n) if n.is_finite() => format!("{n}"),
        _ => literal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The facts given, each comparison with a value also without it (`close<200`, `close<`).
    fn set(facts: &[&str]) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for fact in facts {
            out.insert(fact.to_string());
            if let Some(at) = fact.find(['<', '>', '=', '!']) {
                let op_end = at + fact[at..].find(|c| !"<>=!".contains(c)).unwrap_or(0);
                if op_end > at {
                    out.insert(fact[..op_end].to_string());
                }
            }
        }
        out
    }

    #[test]
    fn a_boolean_column_tested_as_it_is_compares_with_true_or_false() {
        assert_eq!(
            of_plan_conditions(["NOT valid_trade#49"]),
            set(&["valid_trade=false"])
        );
        assert_eq!(
            of_plan_conditions(["valid_trade#49"]),
            set(&["valid_trade=true"])
        );
        let written = of_filter_arguments(r#"col("valid_trade").equalTo(false)"#);
        assert_eq!(written, set(&["valid_trade=false"]));
        assert_eq!(
            of_filter_arguments("df.valid_trade == True"),
            set(&["valid_trade=true"])
        );
    }

    #[test]
    fn a_comparison_with_a_value_known_only_at_run_time_keeps_its_operator() {
        // Java's `col("marks").lt(marks)` against a plan's `cast(marks#4 as bigint) < 50`
        let plan = of_plan_conditions(["(cast(marks#4 as bigint) < 50)"]);
        assert_eq!(plan, set(&["marks<50"]));
        let lower = of_filter_arguments(r#"col("marks").lt(marks)"#);
        let greater = of_filter_arguments(r#"col("marks").gt(marks)"#);
        assert_eq!(lower, set(&["marks<"]));
        assert!(agreement(&plan, &lower) > agreement(&plan, &greater));
        // `between(lo, hi)` is planned as two comparisons
        assert_eq!(
            of_filter_arguments(r#"col("marks").between(50, 90)"#),
            set(&["marks>=50", "marks<="])
        );
        assert_eq!(
            of_filter_arguments(r#"df["Close"] > threshold"#),
            set(&["close>"])
        );
    }

    #[test]
    fn a_plans_comparisons_read_column_first_with_negations_folded() {
        assert_eq!(
            of_plan_conditions(["(Close#1516 < 200.0)", "(Open#1513 > 200.0)"]),
            set(&["close<200", "open>200"])
        );
        assert_eq!(
            of_plan_conditions(["((Close#1516 < 200.0) OR (Open#1513 > 200.0))"]),
            set(&["close<200", "open>200", "or"])
        );
        assert_eq!(
            of_plan_conditions(["NOT (state#12 = OH)", "(200 < salary#3L)"]),
            set(&["state!=oh", "salary>200"])
        );
    }

    #[test]
    fn code_comparisons_read_alike_in_every_syntax() {
        assert_eq!(
            of_filter_arguments(r#"(df["Close"] < 200) & (df['Open'] > 200)"#),
            set(&["close<200", "open>200"])
        );
        assert_eq!(
            of_filter_arguments(r#"(df["Close"] < 200) | (df['Open'] > 200)"#),
            set(&["close<200", "open>200", "or"])
        );
        assert_eq!(
            of_filter_arguments(r#"(df["Close"] < 200) & ~(df['Open'] < 200)"#),
            set(&["close<200", "open>=200"])
        );
        assert_eq!(
            of_filter_arguments(r#""Salary<=20000""#),
            set(&["salary<=20000"])
        );
        assert_eq!(
            of_filter_arguments(r#"~(df_pyspark['Salary']<=20000)"#),
            set(&["salary>20000"])
        );
        assert_eq!(
            of_filter_arguments(r#"col("age").geq(lit(20))"#),
            set(&["age>=20"])
        );
        assert_eq!(
            of_filter_arguments(r#"$"state" === "OH" || df.age =!= 3"#),
            set(&["state=oh", "age!=3", "or"])
        );
        assert_eq!(
            of_filter_arguments(r#""state = 'OH' or gender = 'M'""#),
            set(&["state=oh", "gender=m", "or"])
        );
        // a `|` inside a string is a regular expression's, not a disjunction
        assert_eq!(of_filter_arguments(r#"col("name").rlike("a|b")"#), set(&[]));
    }

    #[test]
    fn the_plan_and_the_code_of_one_filter_agree() {
        let plan = of_plan_conditions(["(Close#1516 < 200.0)", "(Open#1513 >= 200.0)"]);
        let written = of_filter_arguments(r#"(df["Close"] < 200) & ~(df['Open'] < 200)"#);
        assert_eq!(agreement(&plan, &written), 1.0);
        let other = of_filter_arguments(r#"(df["Close"] < 200) & (df['Open'] > 200)"#);
        assert!(agreement(&plan, &other) < 0.5);
    }

    #[test]
    fn a_null_dropping_filter_names_how_many_values_a_row_needs() {
        let every = "atleastnnonnulls(3, Id#0, Name#1, Sales#2)";
        assert_eq!(of_plan_conditions([every]), set(&["nonnulls:any"]));
        assert_eq!(of_null_drop_arguments(""), set(&["nonnulls:any"]));
        assert_eq!(of_null_drop_arguments("how='any'"), set(&["nonnulls:any"]));
        let two = "atleastnnonnulls(2, Id#0, Name#1, Sales#2)";
        assert_eq!(of_plan_conditions([two]), set(&["nonnulls:2"]));
        assert_eq!(of_null_drop_arguments("thresh=2"), set(&["nonnulls:2"]));
        assert_eq!(of_null_drop_arguments("2"), set(&["nonnulls:2"]));
        let one = "atleastnnonnulls(1, Id#0, Name#1, Sales#2)";
        assert_eq!(of_plan_conditions([one]), set(&["nonnulls:all"]));
        assert_eq!(
            of_null_drop_arguments("how=\"all\""),
            set(&["nonnulls:all"])
        );
        assert_eq!(of_null_drop_arguments("\"all\""), set(&["nonnulls:all"]));
        // a projection the filter was pushed through leaves its expressions among the values
        let pushed = "atleastnnonnulls(3, name#1, regexp_replace(name#1, J, Z, 1), \
                      CASE WHEN (g#2 = Male) THEN M END)";
        assert_eq!(of_plan_conditions([pushed]), set(&["nonnulls:any"]));
        let (required, counted) = null_drop_arguments(pushed).unwrap();
        assert_eq!(required, 3);
        assert_eq!(counted[1], "regexp_replace(name#1, J, Z, 1)");
    }
}
