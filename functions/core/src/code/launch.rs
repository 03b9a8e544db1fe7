//! Launcher scripts: the `spark-submit` lines of a repository's shell scripts, which say what a
//! Python job's command-line arguments are.
//!
//! A job that reads its input from `sys.argv[1]` names no file in its own code; the shell script
//! that runs it does:
//!
//! ```text
//! export INPUT_FILE="/book/code/chap07/emps_no_header.txt"
//! export SPARK_PROG="/book/code/chap07/explicit_schema.py"
//! $SPARK_HOME/bin/spark-submit $SPARK_PROG $INPUT_FILE
//! ```
//!
//! Each `spark-submit` (or `python` / `python3`) line, backslash continuations joined and
//! `$NAME` / `${NAME}` replaced by the script's own earlier assignments, gives a job (its first
//! `.py` argument, options before it skipped) and the arguments after it; which file of the
//! repository the job is, is the site table's to tell (`pipeline::sites::passing`). A line this
//! does not understand (a variable it cannot replace, no `.py`) gives nothing.

use std::collections::HashMap;

/// One launch a script writes: the job it runs (as written) and its arguments, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchLine {
    pub job: String,
    pub args: Vec<String>,
}

/// Most launches one script contributes, and most arguments kept per launch.
const LAUNCHES_CAP: usize = 64;
const ARGS_CAP: usize = 16;

/// The launches of a shell script's text.
pub fn launches(script: &str) -> Vec<LaunchLine> {
    let mut variables: HashMap<String, String> = HashMap::new();
    let mut out = Vec::new();
    for line in logical_lines(script) {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some((name, value)) = assignment(line) {
            if let Some(value) = substitute(value, &variables) {
                variables.insert(name.to_owned(), value);
            }
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(runner) = words.iter().position(|w| is_runner(w)) else {
            continue;
        };
        let Some(words) = words[runner + 1..]
            .iter()
            .map(|w| substitute(w, &variables))
            .collect::<Option<Vec<String>>>()
        else {
            continue;
        };
        let Some(job) = words.iter().position(|w| w.ends_with(".py")) else {
            continue;
        };
        out.push(LaunchLine {
            job: words[job].clone(),
            // an argument may be a URL holding credentials: they are never kept
            args: words[job + 1..]
                .iter()
                .take(ARGS_CAP)
                .map(|a| super::source::redact_url(a))
                .collect(),
        });
        if out.len() >= LAUNCHES_CAP {
            break;
        }
    }
    out
}

/// Lines with backslash continuations joined.
fn logical_lines(script: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for line in script.lines() {
        match line.trim_end().strip_suffix('\\') {
            Some(continued) => {
                current.push_str(continued);
                current.push(' ');
            }
            None => {
                current.push_str(line);
                out.push(std::mem::take(&mut current));
            }
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// `NAME=value` or `export NAME="value"`.
fn assignment(line: &str) -> Option<(&str, &str)> {
    let line = line.strip_prefix("export ").unwrap_or(line).trim();
    let (name, value) = line.split_once('=')?;
    let is_name = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    is_name.then_some((name, value.trim()))
}

/// A word with its quotes dropped and its variables replaced; `None` when it reads a variable
/// the script never set (or a command substitution).
fn substitute(word: &str, variables: &HashMap<String, String>) -> Option<String> {
    let word = word.trim_matches(|c| c == '"' || c == '\'');
    if word.contains("$(") || word.contains('`') {
        return None;
    }
    let mut out = String::new();
    let mut rest = word;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, next) = match after.strip_prefix('{') {
            Some(braced) => {
                let end = braced.find('}')?;
                (&braced[..end], &braced[end + 1..])
            }
            None => {
                let end = after
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                (&after[..end], &after[end..])
            }
        };
        out.push_str(variables.get(name)?);
        rest = next;
    }
    out.push_str(rest);
    Some(out)
}

/// A word that runs a Python job: `spark-submit` (any path to it), `python`, `python3`.
fn is_runner(word: &str) -> bool {
    let name = word.rsplit('/').next().unwrap_or(word);
    matches!(name, "spark-submit" | "python" | "python3")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_launch_line_gives_its_job_and_arguments_with_variables_replaced() {
        let script = "#!/bin/bash\n\
                      export SPARK_HOME=\"/book/spark-2.4.3\"\n\
                      export INPUT_FILE=\"/book/code/chap07/emps.txt\"\n\
                      SPARK_PROG=\"/book/code/chap07/schema.py\"\n\
                      $SPARK_HOME/bin/spark-submit --master local[2] \\\n  \
                      $SPARK_PROG ${INPUT_FILE} /tmp/out s3a://KEY:se/cret@bucket/in.csv\n\
                      python3 tools/other.py $UNSET\n";
        assert_eq!(
            launches(script),
            [LaunchLine {
                job: "/book/code/chap07/schema.py".into(),
                args: vec![
                    "/book/code/chap07/emps.txt".into(),
                    "/tmp/out".into(),
                    // credentials in an argument are never kept
                    "s3a://***@bucket/in.csv".into()
                ],
            }]
        );
    }
}
