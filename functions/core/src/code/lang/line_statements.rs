//! Statements as a Scala or Java reader sees them on the page: a line continues the statement
//! above it when it starts inside `(…)` or `[…]` (or a `{…}` opened inside them), inside a
//! `"""` string, or with `.`, or when the line above ends with an operator, `=`, `,` or `(` (but
//! not `=>`). A `{ … }` block passed to a method outside parentheses is not a continuation, so
//!
//! ```text
//! flights.groupByKey(_.passengerId).mapGroups { case (id, it) =>   // one statement
//!   …                                                              // the block's own
//! }.orderBy($"countryCount".desc)                                  // another
//! ```
//!
//! holds three: the call before the block, the block's body and the call after it. A call of a
//! chain is reported at the part of its statement holding it ([`SparkCall::statement`]), which
//! is where a reader looks for it and how the benchmark's labels delimit JVM statements.
//!
//! A small hand-written scan, not tree-sitter: the rule is about lines and brackets, which a
//! grammar's tree hides (a block argument is just another argument there).
//!
//! [`SparkCall::statement`]: crate::code::index::SparkCall::statement

use crate::code::index::LineRange;

/// Partition `text` into statements (1-based inclusive line ranges), blank lines outside any
/// statement left out.
pub fn line_statements(text: &str) -> Vec<LineRange> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut scanner = Scanner::default();
    let scanned: Vec<ScannedLine> = lines.iter().map(|l| scanner.line(l)).collect();
    let mut statements = Vec::new();
    let mut current: Option<LineRange> = None;
    let mut previous_code: Option<&str> = None;
    for (i, line) in scanned.iter().enumerate() {
        let number = i as u32 + 1;
        let code = line.code.as_str();
        if code.is_empty() && !line.starts_in_string && line.depth_at_start == 0 {
            continue;
        }
        let continues = current.is_some()
            && (line.depth_at_start > 0
                || line.starts_in_string
                || code.starts_with('.') && !code.starts_with("..")
                || previous_code.is_some_and(ends_open));
        match (&mut current, continues) {
            (Some(statement), true) => statement.end = number,
            _ => {
                statements.extend(current.take());
                current = Some(LineRange::new(number, number));
            }
        }
        if !code.is_empty() {
            previous_code = Some(code);
        }
    }
    statements.extend(current);
    statements
}

/// Whether a line's code ends so that the next line carries on its statement.
fn ends_open(code: &str) -> bool {
    const OPEN_ENDINGS: &[&str] = &[
        "===", "=!=", "&&", "||", "->", "=", ",", "(", "+", "-", "*", "/", ".",
    ];
    !code.ends_with("=>") && OPEN_ENDINGS.iter().any(|e| code.ends_with(e))
}

/// One line as the scan saw it.
struct ScannedLine {
    /// Bracket depth when the line starts (a block outside parentheses does not count).
    depth_at_start: usize,
    /// Whether the line starts inside a `"""` string.
    starts_in_string: bool,
    /// The line's code without comments and string contents, trimmed.
    code: String,
}

/// Lexical state carried from line to line.
#[derive(Default)]
struct Scanner {
    depth: usize,
    /// Open brackets; `None` for a block opened outside parentheses.
    stack: Vec<Option<u8>>,
    in_triple_quote: bool,
    in_block_comment: bool,
}

impl Scanner {
    fn line(&mut self, line: &str) -> ScannedLine {
        let depth_at_start = self.depth;
        let starts_in_string = self.in_triple_quote;
        // Bytes throughout: only ASCII steers the scan, and an escape may skip into the middle
        // of a character.
        let bytes = line.as_bytes();
        let mut code: Vec<u8> = Vec::new();
        let mut in_string = false;
        let mut i = 0;
        while i < bytes.len() {
            let rest = &bytes[i..];
            let ch = bytes[i];
            if self.in_block_comment {
                if rest.starts_with(b"*/") {
                    self.in_block_comment = false;
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            if self.in_triple_quote {
                if rest.starts_with(b"\"\"\"") {
                    self.in_triple_quote = false;
                    code.push(b'"');
                    i += 3;
                } else {
                    i += 1;
                }
                continue;
            }
            if in_string {
                match ch {
                    b'\\' => i += 2,
                    b'"' => {
                        in_string = false;
                        code.push(b'"');
                        i += 1;
                    }
                    _ => i += 1,
                }
                continue;
            }
            if rest.starts_with(b"//") {
                break;
            }
            if rest.starts_with(b"/*") {
                self.in_block_comment = true;
                i += 2;
                continue;
            }
            if rest.starts_with(b"\"\"\"") {
                self.in_triple_quote = true;
                code.push(b'"');
                i += 3;
                continue;
            }
            match ch {
                b'"' => {
                    in_string = true;
                    code.push(b'"');
                    i += 1;
                    continue;
                }
                // a character literal: `'x'`
                b'\'' if bytes.get(i + 2) == Some(&b'\'') => {
                    code.push(b'\'');
                    i += 3;
                    continue;
                }
                b'(' | b'[' => {
                    self.stack.push(Some(ch));
                    self.depth += 1;
                }
                b'{' if self.depth > 0 => {
                    self.stack.push(Some(ch));
                    self.depth += 1;
                }
                b'{' => self.stack.push(None),
                b')' | b']' | b'}' => {
                    if let Some(Some(_)) = self.stack.pop() {
                        self.depth = self.depth.saturating_sub(1);
                    }
                }
                _ => {}
            }
            code.push(ch);
            i += 1;
        }
        ScannedLine {
            depth_at_start,
            starts_in_string,
            code: String::from_utf8_lossy(&code).trim().to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(text: &str) -> Vec<(u32, u32)> {
        line_statements(text)
            .into_iter()
            .map(|r| (r.start, r.end))
            .collect()
    }

    #[test]
    fn a_block_passed_outside_parentheses_splits_its_chain() {
        let text = "val runs = flights\n  .groupByKey(_.passengerId)\n  .mapGroups { case (id, it) =>\n    val n = it.size\n    (id, n)\n  }.orderBy($\"n\".desc)\nruns.show()\n";
        assert_eq!(ranges(text), [(1, 3), (4, 4), (5, 5), (6, 6), (7, 7)]);
    }

    #[test]
    fn brackets_strings_and_open_endings_carry_a_statement_on() {
        let text = "val q = spark.sql(\"\"\"\n  select * from t\n  where x = 1\"\"\")\nval y = a +\n  b\ndf.filter(r => {\n  r.x > 1\n}) // done\nval s = \"(\" // not a bracket\nval t = 1\n";
        assert_eq!(ranges(text), [(1, 3), (4, 5), (6, 8), (9, 9), (10, 10)]);
    }

    #[test]
    fn an_escape_before_any_character_is_scanned() {
        // the escape skips into the middle of `é`: no panic, and the string still closes
        let text = "val s = \"\\é(\" // ünï(\nval t = (1,\n  2)\n";
        assert_eq!(ranges(text), [(1, 1), (2, 3)]);
    }

    #[test]
    fn a_lambda_arrow_ends_no_statement_it_opens_a_body() {
        let text = "ds.map { x =>\n  x + 1\n}\n";
        assert_eq!(ranges(text), [(1, 1), (2, 2), (3, 3)]);
    }
}
