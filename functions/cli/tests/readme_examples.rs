//! The README's shell examples, run as written so they cannot rot: every ```` ```sh ```` block,
//! with the `plan2code` built for this test first on `PATH` (and `cargo run --release -p
//! plan2code-cli --` read as `plan2code`, the same program), from the repository root, in a
//! temporary data dir. The `<!-- output contains: … -->` lines after a block name what its
//! output must show.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A runnable block of the README and what its output must contain.
struct Example {
    line: usize,
    script: String,
    expected: Vec<String>,
}

fn examples(readme: &str) -> Vec<Example> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != "```sh" {
            i += 1;
            continue;
        }
        let line = i + 1;
        let mut script = String::new();
        i += 1;
        while i < lines.len() && lines[i].trim_end() != "```" {
            script.push_str(lines[i]);
            script.push('\n');
            i += 1;
        }
        i += 1;
        let mut expected = Vec::new();
        while let Some(text) = lines
            .get(i)
            .and_then(|l| l.strip_prefix("<!-- output contains: "))
            .and_then(|l| l.strip_suffix(" -->"))
        {
            expected.push(text.to_owned());
            i += 1;
        }
        out.push(Example {
            line,
            script,
            expected,
        });
    }
    out
}

#[test]
fn every_shell_example_of_the_readme_runs_as_written() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let examples = examples(&readme);
    assert!(
        examples.len() >= 3,
        "the README's runnable examples were found"
    );
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_plan2code")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for example in examples {
        assert!(
            !example.expected.is_empty(),
            "README line {}: no expected output",
            example.line
        );
        let scratch = tempfile::tempdir().unwrap();
        let script = example
            .script
            .replace("cargo run --release -p plan2code-cli --", "plan2code");
        let mut child = Command::new("bash")
            .args(["-euo", "pipefail", "-c", &script])
            .current_dir(root())
            .env("PATH", &path)
            .env("TMPDIR", scratch.path())
            .env("PLAN2CODE_DATA_DIR", scratch.path().join("data"))
            .env("REPO_CLONE_DIR", scratch.path().join("clones"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // read while it runs: a full pipe would block it
        let mut out_pipe = child.stdout.take().unwrap();
        let mut err_pipe = child.stderr.take().unwrap();
        let stdout = std::thread::spawn(move || {
            let mut text = String::new();
            out_pipe.read_to_string(&mut text).map(|_| text)
        });
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            err_pipe.read_to_string(&mut text).map(|_| text)
        });
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > Duration::from_secs(180) {
                let _ = child.kill();
                panic!("README line {}: still running after 180 s", example.line);
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        let stdout = stdout.join().unwrap().unwrap();
        let stderr = stderr.join().unwrap().unwrap();
        assert!(
            status.success(),
            "README line {} failed ({status}):\n{script}\nstdout:\n{stdout}\nstderr:\n{stderr}",
            example.line
        );
        for expected in &example.expected {
            assert!(
                stdout.contains(expected.as_str()),
                "README line {}: output lacks {expected:?}:\n{stdout}",
                example.line
            );
        }
    }
}
