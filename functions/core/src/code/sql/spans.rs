//! Spans that cover what a clause is written on: sqlparser's spans stop short of closing
//! parentheses (and of `NOT EXISTS (` before a subquery); [`SqlText`] widens them.

use super::*;

/// The SQL text as characters with line starts, to read around sqlparser's spans.
pub(super) struct SqlText {
    pub(super) chars: Vec<char>,
    /// Char index where each (1-based) line starts; index 0 = line 1.
    pub(super) line_starts: Vec<usize>,
}

impl SqlText {
    pub(super) fn new(text: &str) -> Self {
        let chars: Vec<char> = text.chars().collect();
        let mut line_starts = vec![0];
        line_starts.extend(
            chars
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == '\n')
                .map(|(i, _)| i + 1),
        );
        Self { chars, line_starts }
    }

    pub(super) fn index(&self, location: sqlparser::tokenizer::Location) -> Option<usize> {
        let start = *self
            .line_starts
            .get((location.line as usize).checked_sub(1)?)?;
        Some((start + (location.column as usize).saturating_sub(1)).min(self.chars.len()))
    }

    /// Extend a span's start back over the `(` right before it and then over any of `keywords`
    /// (case-insensitive) before that.
    pub(super) fn open_parens(&self, span: Span, keywords: &[&str]) -> Span {
        let Some(start) = self.index(span.start) else {
            return span;
        };
        let skip_blank = |mut i: usize| {
            while i > 0 && self.chars[i - 1].is_whitespace() {
                i -= 1;
            }
            i
        };
        let mut i = skip_blank(start);
        if i == 0 || self.chars[i - 1] != '(' {
            return span;
        }
        i -= 1;
        let mut new_start = i;
        loop {
            let word_end = skip_blank(new_start);
            let mut word_start = word_end;
            while word_start > 0 && self.chars[word_start - 1].is_alphabetic() {
                word_start -= 1;
            }
            let word: String = self.chars[word_start..word_end].iter().collect();
            if word.is_empty() || !keywords.iter().any(|k| k.eq_ignore_ascii_case(&word)) {
                break;
            }
            new_start = word_start;
        }
        match self.location(new_start) {
            Some(location) => Span::new(location, span.end),
            None => span,
        }
    }

    /// The 1-based line/column of a char index.
    pub(super) fn location(&self, index: usize) -> Option<sqlparser::tokenizer::Location> {
        let line = self.line_starts.partition_point(|s| *s <= index);
        let start = *self.line_starts.get(line.checked_sub(1)?)?;
        Some(sqlparser::tokenizer::Location::new(
            line as u64,
            (index - start + 1) as u64,
        ))
    }

    /// sqlparser's spans can end before the last token of an expression (an `INTERVAL`'s unit)
    /// and before the `)` that close parentheses opened inside it (`x IN (SELECT … )`): extend
    /// the span until those parentheses are closed. Whatever lies before that closing belongs
    /// to the expression.
    pub(super) fn close_parens(&self, span: Span) -> Span {
        let (Some(start), Some(end)) = (self.index(span.start), self.index(span.end)) else {
            return span;
        };
        let mut depth = 0i64;
        let mut quote: Option<char> = None;
        for &c in self.chars.get(start..end).unwrap_or(&[]) {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"' | '`') => quote = Some(c),
                (None, '(') => depth += 1,
                (None, ')') => depth -= 1,
                _ => {}
            }
        }
        let mut end_location = span.end;
        quote = None;
        let mut line = span.end.line;
        let mut column = span.end.column;
        let mut i = end;
        while depth > 0 && i < self.chars.len() {
            match (quote, self.chars[i]) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), '\n') | (None, '\n') => {
                    line += 1;
                    column = 0;
                }
                (Some(_), _) => {}
                (None, c @ ('\'' | '"' | '`')) => quote = Some(c),
                (None, '(') => depth += 1,
                (None, ')') => {
                    depth -= 1;
                    end_location = sqlparser::tokenizer::Location::new(line, column + 1);
                }
                _ => {}
            }
            column += 1;
            i += 1;
        }
        Span::new(span.start, end_location)
    }
}
