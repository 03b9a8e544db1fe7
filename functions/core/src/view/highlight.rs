//! Syntax highlighting of a repository file for the viewer: one HTML fragment per line.
//!
//! `tree-sitter-highlight` with each language adapter's own grammar and its grammar crate's
//! `highlights.scm` ([`LanguageAdapter::highlights_query`]), so the viewer colours exactly the
//! languages the index reads and needs no second parser. Captures become
//! `<span class="hl-keyword">`-style classes (the page's stylesheet colours them); a file without
//! an adapter (SQL, a notebook's JSON), or one the highlighter refuses, is escaped plain text.
//! Either way every line is safe to put into a page as HTML.
//!
//! [`LanguageAdapter::highlights_query`]: crate::code::lang::LanguageAdapter::highlights_query

use crate::code::lang::{LanguageAdapter, adapter_for_extension};
use std::sync::OnceLock;
use tree_sitter_highlight::{HighlightConfiguration, Highlighter, HtmlRenderer};

/// The capture names the page styles (`hl-<name>`); a capture such as `function.method` takes
/// the longest of these that prefixes it.
pub const HIGHLIGHT_NAMES: &[&str] = &[
    "attribute",
    "comment",
    "constant",
    "constant.builtin",
    "constructor",
    "function",
    "function.builtin",
    "keyword",
    "number",
    "operator",
    "property",
    "punctuation",
    "string",
    "string.special",
    "type",
    "type.builtin",
    "variable",
    "variable.builtin",
    "variable.parameter",
];

/// The class attribute of each name, built once.
fn class_attributes() -> &'static [String] {
    static CLASSES: OnceLock<Vec<String>> = OnceLock::new();
    CLASSES.get_or_init(|| {
        HIGHLIGHT_NAMES
            .iter()
            .map(|name| format!("class=\"hl-{}\"", name.replace('.', "-")))
            .collect()
    })
}

fn configuration(adapter: &dyn LanguageAdapter) -> Option<HighlightConfiguration> {
    let mut config = HighlightConfiguration::new(
        adapter.grammar(),
        adapter.name(),
        adapter.highlights_query(),
        "",
        "",
    )
    .ok()?;
    config.configure(HIGHLIGHT_NAMES);
    Some(config)
}

/// `path`'s `text` as one HTML fragment per line (without line breaks).
pub fn highlight_lines(path: &str, text: &str) -> Vec<String> {
    let extension = path.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    adapter_for_extension(extension)
        .and_then(configuration)
        .and_then(|config| highlighted(&config, text))
        .unwrap_or_else(|| text.lines().map(escape_html).collect())
}

fn highlighted(config: &HighlightConfiguration, text: &str) -> Option<Vec<String>> {
    let mut highlighter = Highlighter::new();
    let events = highlighter
        .highlight(config, text.as_bytes(), None, None, |_| None)
        .ok()?;
    let classes = class_attributes();
    let mut renderer = HtmlRenderer::new();
    renderer
        .render(events, text.as_bytes(), &|highlight, out: &mut Vec<u8>| {
            out.extend_from_slice(classes[highlight.0].as_bytes())
        })
        .ok()?;
    let lines: Vec<String> = renderer
        .lines()
        .map(|line| line.trim_end_matches(['\n', '\r']).to_owned())
        .collect();
    // The renderer and `str::lines` agree on the count except for a final unterminated line.
    (lines.len().abs_diff(text.lines().count()) <= 1).then_some(lines)
}

/// Text as HTML: `&`, `<`, `>`, `"` and `'` escaped.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_is_coloured_line_by_line_and_markup_in_code_is_escaped() {
        let python = highlight_lines(
            "jobs/a.py",
            "def f(df):\n    return df.filter(\"a < 3\")  # <b>\n",
        );
        assert_eq!(python.len(), 2);
        assert!(python[0].contains("<span class=\"hl-keyword\">def</span>"));
        assert!(python[1].contains("&quot;a &lt; 3&quot;"));
        assert!(python[1].contains("hl-comment"));
        assert!(!python[1].contains("<b>"));

        let scala = highlight_lines("A.scala", "object A {\n  val n = 1\n}\n");
        assert!(scala[1].contains("<span class=\"hl-keyword\">val</span>"));
        let java = highlight_lines("A.java", "class A {\n  int n = 1;\n}");
        assert_eq!(java.len(), 3);
        assert!(java[0].contains("hl-keyword"));
    }

    #[test]
    fn files_without_a_grammar_are_escaped_plain_text() {
        let sql = highlight_lines("q/one.sql", "select a\nfrom t where a <> '<x>'\n");
        assert_eq!(
            sql,
            vec!["select a", "from t where a &lt;&gt; &#39;&lt;x&gt;&#39;"]
        );
    }
}
