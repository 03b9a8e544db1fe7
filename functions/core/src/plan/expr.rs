//! A small, forgiving reader for the expressions Spark prints in plans.
//!
//! No crate parses Spark's explain syntax (it is Catalyst's `toString`, not SQL: attribute ids
//! `a#12L`, unquoted string literals, `cast(x as decimal(19,6))`, `CASE WHEN … END`, lists
//! truncated with `...`), so this is a hand-written tokenizer on purpose. It never fails: text it
//! does not understand is kept verbatim, and only what it recognises is extracted.
//!
//! * [`tokens`] splits text into identifiers (with their `#id`), numbers, quoted strings,
//!   brackets and punctuation, tracking nesting including `CASE … END`.
//! * [`split_top_level`] splits a list on commas outside brackets; [`split_conjuncts`] splits a
//!   condition on top-level `AND`s, through the parentheses Spark adds around each `AND`.
//! * [`parse_expr`] builds an [`Expr`]: text with ids stripped, columns, functions, literals and
//!   alias. [`parse_attribute`] / [`parse_attribute_list`] read `name#id` lists.

use super::graph::{Attribute, Expr, SortKey};

/// Nesting beyond this depth is treated as flat text (bounded work and stack on any input).
const MAX_DEPTH: usize = 64;

/// A list keeps at most this many elements: the first ones and the last (a partition count, a
/// list's final field). Spark itself abbreviates lists past `spark.sql.debug.maxToStringFields`
/// (25 by default), so only a hostile or misconfigured plan is cut here — and its parse stays
/// within a bounded multiple of its size (issue 18: ≤ 20 bytes of memory per input byte).
pub(crate) const MAX_LIST_ELEMENTS: usize = 1000;

/// An expression's columns, functions and literals are read from at most this many tokens; its
/// text is kept whole. Real expressions are far shorter; the bound keeps the token buffer of a
/// hostile one-expression plan a constant, not a multiple of the input.
const MAX_EXPR_TOKENS: usize = 65_536;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokKind {
    /// An identifier; `id` is its `#123` attribute id when present.
    Ident {
        id: Option<u64>,
    },
    Number,
    Str,
    Open,
    Close,
    Comma,
    /// `...` cutting text short (Spark abbreviates long metadata: `IsNotNull(o_orde...`).
    /// Not the `... 5 more fields` element of a truncated list, which is followed by a space.
    Ellipsis,
    /// `#123` following a closing bracket (`sum(x)#12`): an id on a computed expression.
    Id,
    Punct,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Token<'a> {
    pub kind: TokKind,
    /// The token's text; for identifiers, without the `#id` suffix.
    pub text: &'a str,
    pub start: usize,
    pub end: usize,
}

pub(crate) fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

/// The tokens of `s`, one at a time (never fails; unknown bytes become `Punct`): walking a long
/// list this way holds no token vector.
pub(crate) fn tokens(s: &str) -> Tokens<'_> {
    Tokens {
        s,
        i: 0,
        prev: None,
    }
}

/// Iterator of [`tokens`].
pub(crate) struct Tokens<'a> {
    s: &'a str,
    i: usize,
    prev: Option<TokKind>,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let tok = next_token(self.s, &mut self.i, self.prev)?;
        self.prev = Some(tok.kind);
        Some(tok)
    }
}

/// The token at `*i` (after whitespace), advancing past it.
fn next_token<'a>(s: &'a str, i: &mut usize, prev: Option<TokKind>) -> Option<Token<'a>> {
    let b = s.as_bytes();
    while *i < b.len() && b[*i].is_ascii_whitespace() {
        *i += 1;
    }
    if *i >= b.len() {
        return None;
    }
    let start = *i;
    let mut end = start;
    let token = scan_token(s, &mut end, prev);
    *i = end;
    Some(token)
}

/// Scan one token starting at `*at` (not whitespace), advancing past it.
fn scan_token<'a>(s: &'a str, at: &mut usize, prev: Option<TokKind>) -> Token<'a> {
    let b = s.as_bytes();
    let mut i = *at;
    let start = i;
    let c = b[i];
    {
        let kind = if c == b'`' {
            // back-quoted identifier; its text ends at the closing quote, before any `#id`
            i += 1;
            while i < b.len() && b[i] != b'`' {
                i += 1;
            }
            i = (i + 1).min(b.len());
            let text_end = i;
            let id = read_id(b, &mut i);
            *at = i;
            return Token {
                kind: TokKind::Ident { id },
                text: s.get(start..text_end).unwrap_or(""),
                start,
                end: i,
            };
        } else if (c == b'\'' || c == b'"')
            && matches!(b.get(i + 1), Some(b',' | b')'))
            && matches!(prev, None | Some(TokKind::Open | TokKind::Comma))
        {
            // Spark prints a string literal as it is: `concat(", word#7, ")` holds two `"`s
            i += 1;
            TokKind::Str
        } else if (c == b'\'' || c == b'"') && (i == 0 || !is_ident_char(b[i - 1])) {
            let quote = c;
            let close = b[i + 1..].iter().position(|&x| x == quote);
            match close {
                Some(off) => {
                    i += off + 2;
                    TokKind::Str
                }
                None => {
                    i += 1;
                    TokKind::Punct
                }
            }
        } else if c.is_ascii_digit()
            || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit) && prev_allows_sign(prev))
        {
            i += 1;
            // digits, dots, date dashes, exponent and type suffixes (`1995-03-15`, `0.05`, `1E+3`, `100L`)
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || (b[i] == b'.' && b.get(i + 1) != Some(&b'.'))
                    || (b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
                    || (b[i] == b':' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
                    || ((b[i] == b'+' || b[i] == b'-') && matches!(b[i - 1], b'E' | b'e'))
                    // a timestamp: `2026-11-22 03:41:34.347308`
                    || (b[i] == b' '
                        && i - start == 10
                        && b[start + 4] == b'-'
                        && b.get(i + 3) == Some(&b':')))
            {
                i += 1;
            }
            TokKind::Number
        } else if is_ident_char(c) {
            while i < b.len() && is_ident_char(b[i]) {
                i += 1;
            }
            // `Depatment-ID#1241L`, `first.name#7`: Spark prints a name as written, dashes and
            // dots included, an operator with spaces around it and a struct field after the
            // struct's id (`name#3.first`), so words joined so and ending in an id are one name.
            // Words joined by dashes alone and no id are an unquoted string literal, as Spark
            // prints them: the format of `to_date(d, 'yyyy-MM-dd')` is `yyyy-MM-dd`.
            let mut j = i;
            let mut dotted = false;
            while matches!(b.get(j), Some(b'-' | b'.'))
                && b.get(j + 1).is_some_and(|x| is_ident_char(*x))
            {
                dotted |= b[j] == b'.';
                j += 1;
                while j < b.len() && is_ident_char(b[j]) {
                    j += 1;
                }
            }
            let ends_in_id =
                b.get(j) == Some(&b'#') && b.get(j + 1).is_some_and(u8::is_ascii_digit);
            if j > i && (ends_in_id || !dotted && b.get(j) != Some(&b'#')) {
                i = j;
            }
            let text_end = i;
            let id = read_id(b, &mut i);
            *at = i;
            return Token {
                kind: TokKind::Ident { id },
                text: s.get(start..text_end).unwrap_or(""),
                start,
                end: i,
            };
        } else if b[i..].starts_with(b"...") && b.get(i + 3) != Some(&b' ') {
            i += 3;
            TokKind::Ellipsis
        } else if c == b'#' && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            read_id(b, &mut i);
            TokKind::Id
        } else {
            i += 1;
            // keep multi-byte characters whole
            while i < b.len() && (b[i] & 0xC0) == 0x80 {
                i += 1;
            }
            match c {
                b'(' | b'[' | b'{' => TokKind::Open,
                b')' | b']' | b'}' => TokKind::Close,
                b',' => TokKind::Comma,
                _ => TokKind::Punct,
            }
        };
        *at = i;
        Token {
            kind,
            text: s.get(start..i).unwrap_or(""),
            start,
            end: i,
        }
    }
}

fn prev_allows_sign(prev: Option<TokKind>) -> bool {
    match prev {
        None => true,
        Some(kind) => matches!(kind, TokKind::Open | TokKind::Comma | TokKind::Punct),
    }
}

/// Read `#123` or `#123L` at `*i`, advancing past it.
fn read_id(b: &[u8], i: &mut usize) -> Option<u64> {
    if b.get(*i) != Some(&b'#') || !b.get(*i + 1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let mut j = *i + 1;
    let mut value: u64 = 0;
    while j < b.len() && b[j].is_ascii_digit() {
        value = value
            .saturating_mul(10)
            .saturating_add(u64::from(b[j] - b'0'));
        j += 1;
    }
    if b.get(j) == Some(&b'L') && !b.get(j + 1).is_some_and(|&c| is_ident_char(c)) {
        j += 1;
    }
    *i = j;
    Some(value)
}

fn is_word(tok: &Token<'_>, word: &str) -> bool {
    matches!(tok.kind, TokKind::Ident { .. }) && tok.text.eq_ignore_ascii_case(word)
}

/// Open brackets (and `CASE`s) while walking tokens. An [`TokKind::Ellipsis`] closes
/// everything opened since the last `[` — the cut-off text would have closed it.
#[derive(Default)]
pub(crate) struct Nesting {
    open: Vec<u8>,
}

impl Nesting {
    pub(crate) fn depth(&self) -> usize {
        self.open.len()
    }

    pub(crate) fn feed(&mut self, tok: &Token<'_>) {
        match tok.kind {
            TokKind::Open => self
                .open
                .push(tok.text.as_bytes().first().copied().unwrap_or(b'(')),
            TokKind::Close => {
                self.open.pop();
            }
            TokKind::Ellipsis => match self.open.iter().rposition(|&c| c == b'[') {
                Some(pos) => self.open.truncate(pos),
                None => self.open.clear(),
            },
            TokKind::Ident { id: None } if tok.text.eq_ignore_ascii_case("CASE") => {
                self.open.push(b'C')
            }
            TokKind::Ident { id: None }
                if tok.text.eq_ignore_ascii_case("END") && self.open.last() == Some(&b'C') =>
            {
                self.open.pop();
            }
            _ => {}
        }
    }
}

/// Split `s` on commas outside brackets, trimming each part. `[]` and empty input give no parts.
pub(crate) fn split_top_level(s: &str) -> Vec<&str> {
    split_tokens_at(s, |t| t.kind == TokKind::Comma)
}

/// Past [`MAX_LIST_ELEMENTS`] parts, the middle ones are dropped and the last one is kept.
fn split_tokens_at(s: &str, is_sep: impl Fn(&Token<'_>) -> bool) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut last = None;
    let mut nesting = Nesting::default();
    let mut from = 0;
    for tok in tokens(s) {
        if nesting.depth() == 0 && is_sep(&tok) {
            push_part(&mut parts, &mut last, s, from, tok.start);
            from = tok.end;
            continue;
        }
        nesting.feed(&tok);
    }
    push_part(&mut parts, &mut last, s, from, s.len());
    parts.extend(last);
    parts
}

fn push_part<'a>(
    parts: &mut Vec<&'a str>,
    last: &mut Option<&'a str>,
    s: &'a str,
    from: usize,
    to: usize,
) {
    if let Some(part) = s.get(from..to).map(str::trim).filter(|p| !p.is_empty()) {
        if parts.len() + 1 < MAX_LIST_ELEMENTS {
            parts.push(part);
        } else {
            *last = Some(part);
        }
    }
}

/// `[a, b]` → `a, b`; text without surrounding brackets is returned trimmed.
pub(crate) fn strip_brackets(s: &str) -> &str {
    let s = s.trim();
    if !(s.starts_with('[') || s.starts_with('(')) {
        return s;
    }
    match closing_token(s) {
        Some((TokKind::Close, end)) if end == s.len() => s[1..s.len() - 1].trim(),
        // `[a#1, isnotnull(b...` — Spark cut the list short
        Some((TokKind::Ellipsis, end)) if end == s.len() => s[1..].trim(),
        _ => s,
    }
}

/// The token that closes the bracket `s` starts with, and where it ends.
fn closing_token(s: &str) -> Option<(TokKind, usize)> {
    let mut nesting = Nesting::default();
    for tok in tokens(s) {
        nesting.feed(&tok);
        if nesting.depth() == 0 {
            return Some((tok.kind, tok.end));
        }
    }
    None
}

/// Whether the first bracket of `s` closes at its last byte.
fn wraps_whole(s: &str) -> bool {
    matches!(closing_token(s), Some((TokKind::Close, end)) if end == s.len())
}

/// Split a condition into its top-level `AND` conjuncts, looking through the parentheses Spark
/// prints around every `AND`: `((a AND b) AND c)` → `a`, `b`, `c`.
pub(crate) fn split_conjuncts(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    collect_conjuncts(s.trim(), 0, &mut out);
    out
}

fn collect_conjuncts<'a>(s: &'a str, depth: usize, out: &mut Vec<&'a str>) {
    if s.is_empty() || out.len() >= MAX_LIST_ELEMENTS {
        return;
    }
    let inner = strip_parens(s);
    let parts = split_tokens_at(inner, |t| is_word(t, "AND"));
    if parts.len() <= 1 || depth >= MAX_DEPTH {
        out.push(s);
        return;
    }
    for part in parts {
        collect_conjuncts(part, depth + 1, out);
    }
}

fn strip_parens(s: &str) -> &str {
    let s = s.trim();
    if s.starts_with('(') && s.ends_with(')') && wraps_whole(s) {
        s[1..s.len() - 1].trim()
    } else {
        s
    }
}

/// Remove attribute ids: `sum(l_quantity#12L)#40` → `sum(l_quantity)`. Keeps `[id=#3]`.
pub fn strip_ids(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        if b[i] == b'#'
            && i > 0
            && (is_ident_char(b[i - 1]) || b[i - 1] == b')' || b[i - 1] == b'`')
            && b.get(i + 1).is_some_and(u8::is_ascii_digit)
        {
            out.push_str(&s[last..i]);
            let mut j = i;
            read_id(b, &mut j);
            i = j;
            last = j;
            continue;
        }
        i += 1;
    }
    out.push_str(&s[last..]);
    out
}

/// `c_custkey#175L` → `{name: c_custkey, id: 175}`; text without an id keeps `id: None`.
pub fn parse_attribute(s: &str) -> Attribute {
    let s = s.trim();
    if let Some(hash) = s.rfind('#') {
        let digits: String = s[hash + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let rest = &s[hash + 1 + digits.len()..];
        if !digits.is_empty() && (rest.is_empty() || rest == "L") {
            let name = strip_ids(&s[..hash]);
            // (a back-quoted name, `` `Yearly Amount Spent`#7 ``, is the name inside the quotes)
            let name = match name.strip_prefix('`').and_then(|n| n.strip_suffix('`')) {
                Some(inner) if !inner.contains('`') => inner.to_string(),
                _ => name,
            };
            return Attribute {
                name: name.into(),
                id: digits.parse().ok(),
                long: rest == "L",
            };
        }
    }
    Attribute {
        name: strip_ids(s).into(),
        id: None,
        long: false,
    }
}

/// `[a#1, b#2L]` → attributes. A trailing `...` (Spark's truncation) is dropped.
pub fn parse_attribute_list(s: &str) -> Vec<Attribute> {
    let parts = split_top_level(strip_brackets(s));
    // sized once: a long list's vector never carries growth slack
    let mut out = Vec::with_capacity(parts.len());
    out.extend(
        parts
            .into_iter()
            .filter(|p| *p != "..." && !p.starts_with("... "))
            .map(parse_attribute),
    );
    out
}

/// Parse each element of a bracketed list as an expression.
pub fn parse_expr_list(s: &str) -> Vec<Expr> {
    let parts = split_top_level(strip_brackets(s));
    let mut out = Vec::with_capacity(parts.len());
    out.extend(parts.into_iter().filter(|p| *p != "...").map(parse_expr));
    out
}

/// `a#1 DESC NULLS LAST` → sort key.
pub fn parse_sort_key(s: &str) -> SortKey {
    let s = s.trim();
    let mut body = s;
    let mut ascending = true;
    let mut nulls_first = true;
    for (suffix, asc, nf) in [
        (" ASC NULLS FIRST", true, true),
        (" ASC NULLS LAST", true, false),
        (" DESC NULLS LAST", false, false),
        (" DESC NULLS FIRST", false, true),
        (" ASC", true, true),
        (" DESC", false, false),
    ] {
        if let Some(stripped) = s.strip_suffix(suffix) {
            body = stripped;
            ascending = asc;
            nulls_first = nf;
            break;
        }
    }
    SortKey {
        expr: parse_expr(body),
        ascending,
        nulls_first,
    }
}

/// `[a#1 ASC NULLS FIRST, b#2 DESC NULLS LAST]` → sort keys.
pub fn parse_sort_list(s: &str) -> Vec<SortKey> {
    split_top_level(strip_brackets(s))
        .into_iter()
        .filter(|p| *p != "...")
        .map(parse_sort_key)
        .collect()
}

const KEYWORDS: &[&str] = &[
    "AND",
    "OR",
    "NOT",
    "IN",
    "IS",
    "NULL",
    "CASE",
    "WHEN",
    "THEN",
    "ELSE",
    "END",
    "AS",
    "ASC",
    "DESC",
    "NULLS",
    "FIRST",
    "LAST",
    "LIKE",
    "RLIKE",
    "BETWEEN",
    "DISTINCT",
    "INSET",
    "FILTER",
    "WHERE",
    "INTERVAL",
    "ESCAPE",
    "Subquery",
    "ReusedSubquery",
    "RowFrame",
    "RangeFrame",
];

fn is_keyword(word: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(word))
}

/// A word called like a function (`word(`) names one unless it is a keyword of the expression
/// syntax (`x IN (…)`, `FILTER (WHERE …)`); `first(x)` and `last(x)` are the aggregates, not the
/// `NULLS FIRST` keywords.
fn names_function(word: &str) -> bool {
    !is_keyword(word)
        || ["first", "last"]
            .iter()
            .any(|f| f.eq_ignore_ascii_case(word))
}

/// Parse one expression. Never fails.
pub fn parse_expr(raw: &str) -> Expr {
    let written = raw.trim();
    let readable = unwrap_evaluators(written);
    let raw: &str = &readable;
    let toks: Vec<Token<'_>> = tokens(raw).take(MAX_EXPR_TOKENS).collect();
    let mut expr = Expr {
        text: strip_ids(raw),
        raw: written.to_string(),
        ..Expr::default()
    };
    // `… AS name#5` / `… AS avg(salary)#7`: the alias is everything after a top-level `AS`
    let alias_at = top_level_alias(&toks);
    let body = &toks[..alias_at.unwrap_or(toks.len())];
    if let Some(at) = alias_at {
        let alias = raw.get(toks[at].end..).map(strip_ids).unwrap_or_default();
        let alias = alias.trim().trim_matches('`');
        if !alias.is_empty() {
            expr.alias = Some(alias.to_string());
        }
    }
    let in_attribute_name = attribute_name_regions(body);
    let (mut columns, mut functions, mut literals) = (Unique::new(), Unique::new(), Unique::new());
    let mut nesting = Nesting::default();
    let mut skip_type = false;
    for (i, tok) in body.iter().enumerate() {
        let next = body.get(i + 1);
        match tok.kind {
            TokKind::Ident { id } => {
                let word = tok.text;
                let is_call = next.is_some_and(|n| n.kind == TokKind::Open && n.text == "(");
                if next.is_some_and(|n| n.kind == TokKind::Ellipsis) {
                    // a word Spark cut short
                } else if skip_type {
                    // `cast(x as decimal(19,6))`: the type is neither a function nor a literal
                    skip_type = false;
                } else if word.eq_ignore_ascii_case("as") && id.is_none() {
                    skip_type = true;
                } else if is_call && names_function(word) {
                    functions.push(spark_function_name(word));
                } else if id.is_some() || in_attribute_name[i] && !is_keyword(word) {
                    // `sum((l_extendedprice * l_discount))#44` names columns without ids
                    columns.push(word.trim_matches('`'));
                } else if i > 1 && body[i - 1].text == "." && is_tuple_field(body[i - 2].text) {
                    // a field of a tuple a typed join made (`joinWith`: `_1#252.guitars`) is
                    // the joined frame's column
                    columns.push(word.trim_matches('`'));
                } else if i > 1 && body[i - 1].text == "." && body[i - 2].text == ")" {
                    // a field of a struct an expression makes (`from_json(…, raw#40, …).event_id`):
                    // Spark pushed a condition on the flattened column down to the expression
                    // computing it, so the field is the column the code named
                    columns.push(word.trim_matches('`'));
                } else if next.is_some_and(|n| n.kind == TokKind::Punct && n.text == ".")
                    || i > 0 && body[i - 1].text == "."
                    || body.get(i + 2).is_some_and(|t| t.kind == TokKind::Id)
                {
                    // struct field access on a column: `a#1.field`; plan-internal `[id=#6]`
                } else if word == "true"
                    || word == "false"
                    || !is_keyword(word)
                        && word != "null"
                        && (nesting.depth() > 0 || alias_at.is_some())
                    || is_comparand(body, i)
                {
                    // booleans; bare words inside calls, compared with something or computing
                    // a named result (`USA AS country`, `CASE … THEN high …`: a column would
                    // carry its id) are Spark's unquoted string literals
                    literals.push(word);
                }
            }
            TokKind::Number => literals.push(tok.text),
            TokKind::Str => {
                let inner = tok
                    .text
                    .get(1..tok.text.len().saturating_sub(1))
                    .unwrap_or("");
                literals.push(inner);
            }
            _ => {}
        }
        nesting.feed(tok);
    }
    for literal in spelled_out_arguments(body, raw) {
        literals.push(literal);
    }
    expr.columns = columns.into_vec();
    expr.functions = functions.into_vec();
    expr.literals = literals.into_vec();
    expr
}

/// The arguments of calls that Spark prints as unquoted strings of several tokens, each whole:
/// `date_format(d#1, dd/MMM/yyyy, …)` formats with `dd/MMM/yyyy`, `regexp_replace(a#2, \s+, _)`
/// replaces `\s+`, `lpad(x#3, 5, -1)` pads with `-1`. Their words are literals one by one as
/// well; code writes the whole (`"dd/MMM/yyyy"`), so only the whole tells two formats of the
/// same words apart. An argument holding a column, a call, a quoted string or a keyword is no
/// such literal.
fn spelled_out_arguments<'a>(toks: &[Token<'a>], raw: &'a str) -> Vec<&'a str> {
    let mut out = Vec::new();
    // per open bracket: whether it opens a call's arguments, and where its current one starts
    let mut frames: Vec<(bool, usize)> = Vec::new();
    let mut spelled = |from: usize, to: usize| {
        let span = &toks[from.min(to)..to];
        let plain = span.iter().all(|t| match t.kind {
            TokKind::Ident { id: None } => !is_keyword(t.text),
            TokKind::Number | TokKind::Punct => true,
            _ => false,
        });
        if span.len() >= 2 && plain {
            out.extend(raw.get(span[0].start..span[span.len() - 1].end));
        }
    };
    for (i, tok) in toks.iter().enumerate() {
        match tok.kind {
            TokKind::Open => {
                // (`Some(Etc/UTC)`: a time zone the plan adds, no argument of the user's)
                let call = tok.text == "("
                    && i > 0
                    && matches!(toks[i - 1].kind, TokKind::Ident { id: None })
                    && toks[i - 1].text != "Some";
                frames.push((call, i + 1));
            }
            TokKind::Comma => {
                if let Some((true, start)) = frames.last().copied() {
                    spelled(start, i);
                }
                if let Some(frame) = frames.last_mut() {
                    frame.1 = i + 1;
                }
            }
            TokKind::Close => {
                if let Some((true, start)) = frames.pop() {
                    spelled(start, i);
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether a name (`_1`, or an attribute token `_1#252`) is a tuple's field, `_1`, `_2`, …: what
/// a typed join (`joinWith`) and Scala tuples name their parts.
pub fn is_tuple_field(token: &str) -> bool {
    let name = token.split('#').next().unwrap_or(token);
    name.strip_prefix('_')
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// Index of the last `AS` outside brackets, when something follows it.
fn top_level_alias(toks: &[Token<'_>]) -> Option<usize> {
    let mut nesting = Nesting::default();
    let mut found = None;
    for (i, tok) in toks.iter().enumerate() {
        if nesting.depth() == 0 && is_word(tok, "AS") && i + 1 < toks.len() {
            found = Some(i);
        }
        nesting.feed(tok);
    }
    found
}

/// Marks the tokens of bracketed groups followed by an id (`avg(salary)#7`): together they
/// are an attribute's name, so the words inside are column names, not literals.
fn attribute_name_regions(toks: &[Token<'_>]) -> Vec<bool> {
    let mut marked = vec![false; toks.len()];
    let mut opens: Vec<usize> = Vec::new();
    for (j, tok) in toks.iter().enumerate() {
        match tok.kind {
            TokKind::Open => opens.push(j),
            TokKind::Close => {
                if let Some(open) = opens.pop()
                    && toks.get(j + 1).is_some_and(|n| n.kind == TokKind::Id)
                {
                    marked[open..=j].iter_mut().for_each(|m| *m = true);
                }
            }
            _ => {}
        }
    }
    marked
}

/// A bare identifier compared with something (`x = BUILDING`) is an unquoted string literal.
fn is_comparand(toks: &[Token<'_>], i: usize) -> bool {
    let is_cmp = |t: &Token<'_>| {
        t.kind == TokKind::Punct && matches!(t.text, "=" | "<" | ">" | "!")
            || is_word(t, "LIKE")
            || is_word(t, "RLIKE")
    };
    let word = toks[i].text;
    !is_keyword(word)
        && word != "null"
        && (i > 0 && is_cmp(&toks[i - 1]) || toks.get(i + 1).is_some_and(is_cmp))
}

/// Functions Spark 4 prints as a call of their evaluator object (`invoke(StructsToJsonEvaluator(
/// <options>).evaluate(x))`), by evaluator class, with the name the user wrote. Checked against
/// Spark 4.3's explain output of every JSON, CSV and XML function: only `to_json` is printed so.
const EVALUATOR_FUNCTIONS: &[(&str, &str)] = &[("StructsToJsonEvaluator", "to_json")];

/// The expression with each evaluator call written as the function it evaluates:
/// `invoke(StructsToJsonEvaluator(Map(),…).evaluate(name#5))` → `to_json(name#5)` — the
/// evaluator's options are no evidence of the user's code, its name is.
fn unwrap_evaluators(expr: &str) -> std::borrow::Cow<'_, str> {
    if !expr.contains("Evaluator(") {
        return std::borrow::Cow::Borrowed(expr);
    }
    let mut out = String::with_capacity(expr.len());
    let mut rest = expr;
    while let Some(at) = rest.find("invoke(") {
        let after = &rest[at + "invoke(".len()..];
        let rewritten = EVALUATOR_FUNCTIONS.iter().find_map(|(class, function)| {
            let options = after.strip_prefix(class)?; // `(<options>).evaluate(<args>))…`
            let call = options[matching_close(options)?..].strip_prefix(".evaluate")?;
            let args_end = matching_close(call)?;
            let tail = call[args_end..].strip_prefix(')')?;
            Some((format!("{function}{}", &call[..args_end]), tail))
        });
        match rewritten {
            Some((call, tail)) => {
                out.push_str(&rest[..at]);
                out.push_str(&call);
                rest = tail;
            }
            None => {
                out.push_str(&rest[..at + "invoke(".len()]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Byte offset just past the bracket that closes the one `s` starts with.
pub(crate) fn matching_close(s: &str) -> Option<usize> {
    let mut nesting = Nesting::default();
    for tok in tokens(s) {
        nesting.feed(&tok);
        if nesting.depth() == 0 && matches!(tok.kind, TokKind::Close | TokKind::Ellipsis) {
            return Some(tok.end);
        }
    }
    None
}

/// A called function's name, lower-case, as Spark names it: spark-rapids prints Spark's
/// functions with a `gpu` prefix (`gpuisnotnull`, `partial_gpucount`), which is dropped.
fn spark_function_name(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    for stage in ["", "partial_", "merge_", "final_"] {
        if let Some(rest) = lower
            .strip_prefix(stage)
            .and_then(|r| r.strip_prefix("gpu"))
            && rest.starts_with(|c: char| c.is_ascii_alphabetic())
        {
            return format!("{stage}{rest}");
        }
    }
    lower
}

/// Values in order of first appearance, each once, kept without empty ones: a hash set makes
/// a long expression linear, and the result vector is sized to what it holds.
pub(crate) struct Unique<S> {
    seen: std::collections::HashSet<S>,
    order: Vec<S>,
}

impl<S: AsRef<str> + Clone + Eq + std::hash::Hash> Unique<S> {
    pub(crate) fn new() -> Self {
        Unique {
            seen: std::collections::HashSet::new(),
            order: Vec::new(),
        }
    }

    pub(crate) fn push(&mut self, value: S) {
        if !value.as_ref().is_empty() && self.seen.insert(value.clone()) {
            self.order.push(value);
        }
    }

    pub(crate) fn into_vec(self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.order.len());
        out.extend(self.order.iter().map(|v| v.as_ref().to_string()));
        out
    }
}

#[cfg(test)]
mod tests;
