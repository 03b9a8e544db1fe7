//! String literals as text plus a line map back into the repository file.
//!
//! SQL lives inside string literals, and the parser reports positions *inside the SQL text*.
//! [`DecodedString`] holds the literal's value (escapes decoded, interpolations replaced by a
//! parseable placeholder) together with, for every line of that value, the repository lines it
//! came from. A `\n` escape starts a new value line on the same file line; a raw newline starts
//! a new value line on the next file line; a backslash line continuation or a multi-line
//! interpolation stretches the current value line over several file lines.

/// Identifier that stands in for an interpolated expression (`{table}`, `${t}`, `$t`).
pub const PLACEHOLDER: &str = "p2c_param";

#[derive(Debug, Clone, PartialEq, Default)]
pub struct DecodedString {
    pub text: String,
    /// For value line `i` (0-based): first and last repository line (1-based).
    pub lines: Vec<(u32, u32)>,
}

impl DecodedString {
    /// Repository lines of value lines `first..=last` (1-based, as sqlparser reports them).
    pub fn file_lines(&self, first: u64, last: u64) -> Option<(u32, u32)> {
        let start = self
            .lines
            .get(usize::try_from(first.checked_sub(1)?).ok()?)?
            .0;
        let end_idx = usize::try_from(last.max(first) - 1).ok()?;
        let end = self
            .lines
            .get(end_idx)
            .or_else(|| self.lines.last())
            .map(|l| l.1)?;
        Some((start, end.max(start)))
    }

    /// The repository lines spanned by the whole value.
    pub fn span(&self) -> Option<(u32, u32)> {
        Some((self.lines.first()?.0, self.lines.last()?.1))
    }

    /// Append another decoded piece (implicit concatenation `"a" "b"`, Java `"a" + "b"`).
    pub fn append(&mut self, other: DecodedString) {
        if self.lines.is_empty() {
            *self = other;
            return;
        }
        let last_end = self.lines.last().map(|l| l.1).unwrap_or(0);
        let other_start = other.lines.first().map(|l| l.0).unwrap_or(last_end);
        if other_start > last_end {
            // The next piece starts on a later line: keep it on its own value line so clause
            // lines stay exact (a newline is whitespace to SQL).
            self.text.push('\n');
            self.lines.extend(other.lines);
        } else {
            self.text.push(' ');
            let mut other_lines = other.lines.into_iter();
            if let (Some(last), Some(first)) = (self.lines.last_mut(), other_lines.next()) {
                last.1 = last.1.max(first.1);
            }
            self.lines.extend(other_lines);
        }
        self.text.push_str(&other.text);
    }
}

/// How a literal's body is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interpolation {
    None,
    /// Python f-strings: `{expr}`, `{{` / `}}` escapes.
    Braces,
    /// Scala `s"…"`/`f"…"`: `$name`, `${expr}`, `$$`.
    Dollar,
}

#[derive(Debug, Clone, Copy)]
pub struct LiteralBody<'a> {
    /// The text between the quotes.
    pub body: &'a str,
    /// Repository line (1-based) on which `body` starts.
    pub start_line: u32,
    /// Backslash escapes are decoded (false for raw strings and Scala triple quotes).
    pub escapes: bool,
    pub interpolation: Interpolation,
}

/// Decode a literal body into its value and line map. Never fails: unknown escapes are kept.
pub fn decode(lit: LiteralBody<'_>) -> DecodedString {
    let mut out = DecodedString {
        text: String::with_capacity(lit.body.len()),
        lines: vec![(lit.start_line, lit.start_line)],
    };
    let mut file_line = lit.start_line;
    let mut chars = lit.body.chars().peekable();
    let new_file_line = |out: &mut DecodedString, file_line: u32| {
        if let Some(last) = out.lines.last_mut() {
            last.1 = last.1.max(file_line);
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                file_line += 1;
                out.text.push('\n');
                out.lines.push((file_line, file_line));
            }
            '\\' if lit.escapes => match chars.next() {
                Some('n') => {
                    out.text.push('\n');
                    out.lines.push((file_line, file_line));
                }
                Some('\n') => {
                    // Line continuation: the value goes on, the file moves to the next line.
                    file_line += 1;
                    new_file_line(&mut out, file_line);
                }
                Some('t') => out.text.push('\t'),
                Some('r') => {}
                Some(other) => out.text.push(other),
                None => out.text.push('\\'),
            },
            '{' if lit.interpolation == Interpolation::Braces => {
                if chars.peek() == Some(&'{') {
                    chars.next();
                    out.text.push('{');
                    continue;
                }
                skip_balanced(&mut chars, '{', '}', &mut file_line);
                new_file_line(&mut out, file_line);
                out.text.push_str(PLACEHOLDER);
            }
            '}' if lit.interpolation == Interpolation::Braces => {
                if chars.peek() == Some(&'}') {
                    chars.next();
                }
                out.text.push('}');
            }
            '$' if lit.interpolation == Interpolation::Dollar => match chars.peek() {
                Some('$') => {
                    chars.next();
                    out.text.push('$');
                }
                Some('{') => {
                    chars.next();
                    skip_balanced(&mut chars, '{', '}', &mut file_line);
                    new_file_line(&mut out, file_line);
                    out.text.push_str(PLACEHOLDER);
                }
                Some(n) if n.is_alphabetic() || *n == '_' => {
                    while chars
                        .peek()
                        .is_some_and(|n| n.is_alphanumeric() || *n == '_')
                    {
                        chars.next();
                    }
                    out.text.push_str(PLACEHOLDER);
                }
                _ => out.text.push('$'),
            },
            other => out.text.push(other),
        }
    }
    out
}

/// Consume up to the brace closing an interpolation already opened, counting newlines.
fn skip_balanced(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    open: char,
    close: char,
    file_line: &mut u32,
) {
    let mut depth = 1usize;
    for c in chars.by_ref() {
        if c == '\n' {
            *file_line += 1;
        } else if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return;
            }
        }
    }
}

/// Replace Scala `stripMargin` margins (`   |select`) by spaces, keeping lines.
pub fn strip_margin(decoded: &mut DecodedString) {
    let mut text = String::with_capacity(decoded.text.len());
    for (i, line) in decoded.text.split('\n').enumerate() {
        if i > 0 {
            text.push('\n');
        }
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix('|') {
            text.push(' ');
            text.push_str(rest);
        } else {
            text.push_str(line);
        }
    }
    decoded.text = text;
}

/// Whether a string value reads like a SQL statement (used to find SQL not passed to `sql()`).
pub fn looks_like_sql(text: &str) -> bool {
    let Some(first) = text.split_whitespace().next() else {
        return false;
    };
    let first = first.to_ascii_lowercase();
    if !["select", "with", "insert", "create", "merge"].contains(&first.as_str()) {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    words.len() >= 3
        && words
            .iter()
            .any(|w| matches!(*w, "from" | "into" | "table" | "view" | "as"))
}

/// At most `cap` bytes, cut on a char boundary.
pub fn capped(s: &str, cap: usize) -> String {
    if s.len() <= cap {
        return s.to_string();
    }
    let mut end = cap;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// Drops empty and repeated values from `list`, keeping first appearances in order.
pub fn dedup(list: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    list.retain(|item| !item.is_empty() && seen.insert(item.clone()));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(body: &str, escapes: bool, interpolation: Interpolation) -> DecodedString {
        decode(LiteralBody {
            body,
            start_line: 10,
            escapes,
            interpolation,
        })
    }

    #[test]
    fn raw_newlines_advance_file_lines() {
        let d = lit("select a\nfrom t\nwhere x", false, Interpolation::None);
        assert_eq!(d.lines, vec![(10, 10), (11, 11), (12, 12)]);
        assert_eq!(d.file_lines(2, 3), Some((11, 12)));
    }

    #[test]
    fn escaped_newline_stays_on_the_same_file_line() {
        let d = lit("select a\\nfrom t", true, Interpolation::None);
        assert_eq!(d.text, "select a\nfrom t");
        assert_eq!(d.lines, vec![(10, 10), (10, 10)]);
    }

    #[test]
    fn continuation_stretches_a_value_line() {
        let d = lit("select a \\\nfrom t", true, Interpolation::None);
        assert_eq!(d.text, "select a from t");
        assert_eq!(d.lines, vec![(10, 11)]);
    }

    #[test]
    fn fstring_placeholders() {
        let d = lit(
            "select * from {db}.{tbl} where x = '{{lit}}'",
            true,
            Interpolation::Braces,
        );
        assert_eq!(
            d.text,
            "select * from p2c_param.p2c_param where x = '{lit}'"
        );
    }

    #[test]
    fn scala_interpolation() {
        let d = lit(
            "select * from $tbl where a = ${x + 1}",
            false,
            Interpolation::Dollar,
        );
        assert_eq!(d.text, "select * from p2c_param where a = p2c_param");
    }

    #[test]
    fn sql_detection() {
        assert!(looks_like_sql("  SELECT a FROM t"));
        assert!(looks_like_sql("\nselect a\nfrom t"));
        assert!(!looks_like_sql("selected items from the list"));
        assert!(!looks_like_sql("select one"));
        assert!(!looks_like_sql("hello"));
    }
}
