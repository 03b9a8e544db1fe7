//! The parser guard: source that would crash a grammar's C code is never handed to tree-sitter.
//!
//! tree-sitter and its grammars are C. A failed C `assert` aborts the whole process — Rust cannot
//! catch it — so one hostile file in one repository would take down `plan2code index`, every job
//! of `plan2code serve` and a Lambda on every retry. We read the external scanners of the three
//! grammars we link (the only hand-written C in them) for every `assert`/`abort` and the input
//! that reaches it:
//!
//! * **tree-sitter-python 0.25** — `serialize` writes 2 header bytes, the open string delimiters
//!   (capped at 255) and 2 bytes per entry of the indentation stack, checking the 1024-byte buffer
//!   only *before* each 2-byte write. With an odd number of delimiters and a deep enough stack it
//!   writes 1025 bytes and tree-sitter's `ts_assert(length <= TREE_SITTER_SERIALIZATION_BUFFER_SIZE)`
//!   aborts (e.g. 600 nested indentation levels and a string literal). The stack holds strictly
//!   increasing indentation widths, each measured by the scanner as the whitespace after a line
//!   break (space 1, tab 8, `\r`/`\f` reset, a backslash-newline continues the run). So a file
//!   whose widest such run is under [`MAX_PYTHON_INDENT`] columns keeps the stack under that many
//!   entries and the buffer under 2 + 255 + 2 × 256 = 769 bytes: safe with room to spare. A wider
//!   run is no code anyone writes, and such a file is skipped.
//!   `set_end_character`'s `assert(false)` is reached only for a quote character the scanner
//!   itself never passes.
//! * **tree-sitter-scala 0.26** — `serialize` returns 0 when the stack would not fit (no abort);
//!   its `assert(false)` sits in a `switch` over the scanner's own string modes, all covered.
//! * **tree-sitter-java 0.23** — no external scanner.
//!
//! The check is a single pass over the bytes, linear in the file size. It is applied to exactly
//! the text the parser would get (plain files, Databricks notebook sources, Jupyter cells).

use super::index::Language;

/// Widest indentation (in the Python scanner's columns) a file may have.
pub const MAX_PYTHON_INDENT: u64 = 256;

/// Why `src` must not be parsed as `language`, or `None` when parsing it is safe.
pub fn parser_hazard(language: Language, src: &str) -> Option<String> {
    match language {
        Language::Python => {
            let widest = widest_python_indent(src.as_bytes());
            (widest >= MAX_PYTHON_INDENT).then(|| {
                format!(
                    "indentation {widest} columns wide (the Python grammar's scanner overflows \
                     past about 380; files over {MAX_PYTHON_INDENT} are skipped)"
                )
            })
        }
        Language::Scala | Language::Java | Language::Sql => None,
    }
}

/// The widest whitespace run after a line break, measured as tree-sitter-python's scanner
/// measures indentation.
fn widest_python_indent(bytes: &[u8]) -> u64 {
    let mut widest = 0u64;
    // `None` while inside a line's content; `Some(width)` while measuring indentation.
    let mut run: Option<u64> = Some(0);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match (b, run) {
            (b'\n', _) => run = Some(0),
            (b' ', Some(w)) => run = Some(w + 1),
            (b'\t', Some(w)) => run = Some(w + 8),
            (b'\r' | b'\x0c', Some(_)) => run = Some(0),
            (b'\\', Some(w)) => {
                // A backslash-newline inside indentation continues the run without a reset.
                let mut j = i + 1;
                if bytes.get(j) == Some(&b'\r') {
                    j += 1;
                }
                if bytes.get(j) == Some(&b'\n') {
                    run = Some(w);
                    i = j;
                } else {
                    run = None;
                }
            }
            (_, Some(_)) => run = None,
            (_, None) => {}
        }
        if let Some(w) = run {
            widest = widest.max(w);
        }
        i += 1;
    }
    widest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_code_is_safe() {
        let src = "def f(x):\n    if x:\n\treturn [\n        1,\n    ]\n";
        assert_eq!(parser_hazard(Language::Python, src), None);
        assert_eq!(widest_python_indent(src.as_bytes()), 8);
    }

    #[test]
    fn deep_nesting_is_a_hazard() {
        let mut src = String::new();
        for depth in 0..600 {
            src.push_str(&" ".repeat(depth));
            src.push_str("if x:\n");
        }
        src.push_str(&" ".repeat(600));
        src.push_str("s = 'x'\n");
        let reason = parser_hazard(Language::Python, &src).expect("a hazard");
        assert!(reason.contains("600 columns"), "{reason}");
    }

    #[test]
    fn backslash_continuations_add_up_like_the_scanner_counts_them() {
        let src = format!("x = 1\n{}", "        \\\n".repeat(40));
        assert_eq!(widest_python_indent(src.as_bytes()), 320);
        assert!(parser_hazard(Language::Python, &src).is_some());
    }

    #[test]
    fn wide_whitespace_inside_a_line_is_not_indentation() {
        let src = format!("x = 1{}# comment\n", " ".repeat(1000));
        assert_eq!(parser_hazard(Language::Python, &src), None);
    }

    #[test]
    fn other_languages_are_never_refused() {
        let src = format!("{}val x = 1\n", " ".repeat(2000));
        assert_eq!(parser_hazard(Language::Scala, &src), None);
        assert_eq!(parser_hazard(Language::Java, &src), None);
    }
}
