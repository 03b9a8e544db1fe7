//! Notebooks as plain source plus SQL cells, with lines a user can open.
//!
//! * **Databricks notebook sources** (`# Databricks notebook source`, cells separated by
//!   `# COMMAND ----------`; `//` for Scala, `--` for SQL) are ordinary files: code cells are
//!   already code. `# MAGIC %sql` cells become SQL (the `# MAGIC ` prefix removed, lines kept) and
//!   `# MAGIC %python` / `%scala` cells are un-commented so their chains are indexed. The virtual
//!   source keeps every line where it was, so lines are the file's own lines.
//! * **Jupyter `.ipynb`**: code cells are concatenated into a virtual source; each virtual line
//!   maps to **the line of the `.ipynb` JSON file that holds that source line** (nbformat writes
//!   one source line per JSON line), so an editor opened at that line shows the code. `%%sql`
//!   cells become SQL; other magics and shell lines (`%pip`, `!ls`) are blanked.

use crate::code::index::Language;
use crate::code::strings::DecodedString;

#[derive(Debug, Clone, Default)]
pub struct NotebookSource {
    /// Code to hand to the language adapter.
    pub code: String,
    /// Virtual line (index `i` = line `i + 1`) → repository line; `None` = identity.
    pub line_map: Option<Vec<u32>>,
    /// SQL cells with repository lines.
    pub sql_cells: Vec<DecodedString>,
}

/// The line comments of Databricks exports: Python, Scala, SQL.
const NOTEBOOK_COMMENTS: [&str; 3] = ["#", "//", "--"];

/// The line comment a Databricks notebook export is written with: the one of its
/// `Databricks notebook source` header, or — an export copied without its header (a book's
/// code folder) — of its first `COMMAND ----------` cell separator. None for other text.
fn notebook_comment(text: &str) -> Option<&'static str> {
    let first = text.lines().next().unwrap_or("").trim();
    let header = NOTEBOOK_COMMENTS.into_iter().find(|c| {
        first
            .strip_prefix(c)
            .is_some_and(|rest| rest.trim() == "Databricks notebook source")
    });
    header.or_else(|| {
        text.lines().find_map(|line| {
            let line = line.trim();
            NOTEBOOK_COMMENTS.into_iter().find(|c| {
                line.strip_prefix(c)
                    .is_some_and(|rest| rest.trim() == "COMMAND ----------")
            })
        })
    })
}

/// Split a Databricks notebook export into code (same lines) and SQL cells; `None` when the text
/// is no such export. In a SQL notebook (`--`) the code cells are SQL: each is one of the SQL
/// cells, and the code is left blank.
pub fn databricks_source(text: &str) -> Option<NotebookSource> {
    let comment = notebook_comment(text)?;
    let magic = format!("{comment} MAGIC");
    let separator = format!("{comment} COMMAND ----------");
    let mut out = NotebookSource::default();
    let lines: Vec<&str> = text.split('\n').collect();
    let mut code_lines: Vec<String> = Vec::with_capacity(lines.len());
    let mut cell_start = 0usize;
    let flush_cell =
        |start: usize, end: usize, code_lines: &mut Vec<String>, out: &mut NotebookSource| {
            let cell = &lines[start..end];
            let magic_body = |l: &str| -> Option<String> {
                let rest = l.trim_start().strip_prefix(magic.as_str())?;
                Some(rest.strip_prefix(' ').unwrap_or(rest).to_string())
            };
            let first_magic = cell.iter().find_map(|l| magic_body(l));
            let kind = first_magic
                .as_deref()
                .map(|m| m.split_whitespace().next().unwrap_or("").to_string());
            match kind.as_deref() {
                Some("%sql") => {
                    let body = |line: &str| {
                        let body = magic_body(line).unwrap_or_default();
                        if body.trim() == "%sql" {
                            String::new()
                        } else {
                            body
                        }
                    };
                    out.sql_cells.push(sql_cell(cell, start, body));
                    code_lines.extend(cell.iter().map(|_| String::new()));
                }
                Some("%python") | Some("%scala") => {
                    for line in cell {
                        let body = magic_body(line).unwrap_or_default();
                        let body = if body.trim().starts_with('%') {
                            String::new()
                        } else {
                            body
                        };
                        code_lines.push(body);
                    }
                }
                None if comment == "--" => {
                    out.sql_cells
                        .push(sql_cell(cell, start, |line: &str| line.to_string()));
                    code_lines.extend(cell.iter().map(|_| String::new()));
                }
                // (`-- MAGIC %md`: a SQL notebook's other cells are no SQL)
                Some(_) if comment == "--" => code_lines.extend(cell.iter().map(|_| String::new())),
                _ => code_lines.extend(cell.iter().map(|l| l.to_string())),
            }
        };
    for (i, line) in lines.iter().enumerate() {
        if line.trim() == separator {
            flush_cell(cell_start, i, &mut code_lines, &mut out);
            code_lines.push(String::new());
            cell_start = i + 1;
        }
    }
    flush_cell(cell_start, lines.len(), &mut code_lines, &mut out);
    out.code = code_lines.join("\n");
    Some(out)
}

/// A SQL cell of a notebook whose lines start after line `start` of the file: each line's
/// `body` (the SQL on it), on its own file line.
fn sql_cell(cell: &[&str], start: usize, body: impl Fn(&str) -> String) -> DecodedString {
    let mut sql = DecodedString::default();
    for (offset, line) in cell.iter().enumerate() {
        let file_line = (start + offset + 1) as u32;
        if !sql.lines.is_empty() {
            sql.text.push('\n');
        }
        sql.text.push_str(&body(line));
        sql.lines.push((file_line, file_line));
    }
    sql
}

/// Parse a Jupyter notebook; `None` when it is not valid notebook JSON.
pub fn jupyter(text: &str) -> Option<(NotebookSource, Language)> {
    let json: serde_json::Value = serde_json::from_str(text).ok()?;
    let language = json
        .pointer("/metadata/kernelspec/language")
        .or_else(|| json.pointer("/metadata/language_info/name"))
        .and_then(|v| v.as_str())
        .map(|l| super::lang::adapter_named(l).map_or(Language::Python, |a| a.language()))
        .unwrap_or(Language::Python);
    let cells = json.get("cells")?.as_array()?;
    let mut locator = JsonLineLocator::new(text);
    let mut out = NotebookSource::default();
    let mut code = String::new();
    let mut map = Vec::new();
    for cell in cells {
        if cell.get("cell_type").and_then(|t| t.as_str()) != Some("code") {
            continue;
        }
        let source: Vec<String> = match cell.get("source") {
            Some(serde_json::Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.as_str().map(str::to_string))
                .collect(),
            Some(serde_json::Value::String(s)) => {
                s.split_inclusive('\n').map(str::to_string).collect()
            }
            _ => continue,
        };
        let file_lines: Vec<u32> = source.iter().map(|s| locator.locate(s)).collect();
        let is_sql = source
            .first()
            .is_some_and(|first| first.trim_start().starts_with("%%sql"));
        if is_sql {
            let mut sql = DecodedString::default();
            for (line, file_line) in source.iter().zip(&file_lines).skip(1) {
                if !sql.lines.is_empty() {
                    sql.text.push('\n');
                }
                sql.text.push_str(line.trim_end_matches('\n'));
                sql.lines.push((*file_line, *file_line));
            }
            out.sql_cells.push(sql);
            continue;
        }
        for (line, file_line) in source.iter().zip(&file_lines) {
            let line = line.trim_end_matches('\n');
            let trimmed = line.trim_start();
            if trimmed.starts_with('%') || trimmed.starts_with('!') {
                code.push('\n');
            } else {
                code.push_str(line);
                code.push('\n');
            }
            map.push(*file_line);
        }
        // A blank line between cells keeps one cell's statement from running into the next.
        code.push('\n');
        map.push(file_lines.last().copied().unwrap_or(1));
    }
    out.code = code;
    out.line_map = Some(map);
    Some((out, language))
}

/// Finds, front to back, the JSON file line holding each source string.
struct JsonLineLocator<'a> {
    text: &'a str,
    cursor: usize,
    line_at_cursor: u32,
}

impl<'a> JsonLineLocator<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            cursor: 0,
            line_at_cursor: 1,
        }
    }

    fn locate(&mut self, source_line: &str) -> u32 {
        let Ok(needle) = serde_json::to_string(source_line) else {
            return self.line_at_cursor;
        };
        let Some(found) = self
            .text
            .get(self.cursor..)
            .and_then(|rest| rest.find(&needle))
        else {
            return self.line_at_cursor;
        };
        let position = self.cursor + found;
        let skipped = self.text.get(self.cursor..position).unwrap_or("");
        self.line_at_cursor += skipped.matches('\n').count() as u32;
        self.cursor = position + needle.len();
        self.line_at_cursor
    }
}
