//! A `plan2code serve` killed with SIGKILL mid-job, then started again on the same data dir, takes
//! the job up from its checkpoints: a running job completes, a paused job stays paused until it
//! is resumed and then completes — and in both every node is accounted for exactly once (one
//! mapping per node, statistics that add up, one `mapping_finalized` event per mapped node).

use serde_json::{Value, json};
use std::collections::HashSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const TOKEN: &str = "recovery-token-0123456789";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A running `plan2code serve` over `data`; SIGKILLed on drop if still running.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(data: &Path, node_delay_ms: u64) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_plan2code"))
            .args(["serve", "--port", "0"])
            .env("PLAN2CODE_DATA_DIR", data)
            .env("REPO_CLONE_DIR", data.join("clones"))
            .env("PLAN2CODE_LOCAL_ROOTS", data)
            .env("PLAN2CODE_API_TOKENS", format!("alice:{TOKEN}"))
            .env("PLAN2CODE_NODE_DELAY_MS", node_delay_ms.to_string())
            .env("MAX_PARALLEL_NODES", "2")
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start plan2code serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("first line");
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        Server { child, base }
    }

    /// SIGKILL, as a crash or an OOM kill would.
    fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("wait");
    }

    fn call(&self, method: reqwest::Method, tail: &str, body: Option<Value>) -> (u16, Value) {
        let client = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client");
        let mut request = client
            .request(method, format!("{}/api/v1/agent/jobs{tail}", self.base))
            .bearer_auth(TOKEN);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().expect("request");
        let status = response.status().as_u16();
        (status, response.json().unwrap_or(Value::Null))
    }

    fn job(&self, id: &str) -> Value {
        let (status, job) = self.call(reqwest::Method::GET, &format!("/{id}"), None);
        assert_eq!(status, 200, "{job}");
        job
    }

    fn events(&self, id: &str) -> Vec<Value> {
        let mut events = Vec::new();
        let mut after = 0;
        loop {
            let (status, page) = self.call(
                reqwest::Method::GET,
                &format!("/{id}/events?after={after}&limit=500"),
                None,
            );
            assert_eq!(status, 200, "{page}");
            let batch = page["events"].as_array().cloned().unwrap_or_default();
            if batch.is_empty() {
                return events;
            }
            after = page["nextAfter"].as_u64().expect("nextAfter");
            events.extend(batch);
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("git");
    assert!(status.success(), "git {args:?}");
}

/// The example project as a one-commit git repository under `dir`; its file:// URL.
fn example_repo(dir: &Path) -> String {
    let repo = dir.join("example-project");
    let status = Command::new("cp")
        .arg("-r")
        .arg(root().join("events/example-project"))
        .arg(&repo)
        .status()
        .expect("cp");
    assert!(status.success());
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "example"]);
    format!("file://{}", repo.display())
}

fn create_job(server: &Server, repo: &str) -> String {
    let plan = std::fs::read_to_string(root().join("events/plans/daily-revenue.formatted.txt"))
        .expect("example plan");
    let body = json!({ "repositoryUrl": repo, "branch": "main", "planContent": plan });
    let (status, job) = server.call(reqwest::Method::POST, "", Some(body));
    assert_eq!(status, 201, "{job}");
    job["id"].as_str().expect("id").to_owned()
}

fn accounted(job: &Value) -> u64 {
    let stats = &job["statistics"];
    stats["mappedNodes"].as_u64().unwrap_or(0) + stats["unmappedNodes"].as_u64().unwrap_or(0)
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Every node has exactly one mapping, the statistics add up, and no node was announced twice.
fn assert_every_node_once(server: &Server, id: &str) {
    let job = server.job(id);
    assert_eq!(job["status"], "completed", "{job}");
    let total = job["statistics"]["totalNodes"]
        .as_u64()
        .expect("totalNodes");
    assert!(total > 0);
    assert_eq!(accounted(&job), total, "{}", job["statistics"]);
    let mappings = job["result"]["mappings"].as_array().expect("mappings");
    let ids: HashSet<&str> = mappings
        .iter()
        .filter_map(|m| m["dagNodeId"].as_str())
        .collect();
    assert_eq!(ids.len() as u64, total);
    assert_eq!(mappings.len() as u64, total);
    let finalized: Vec<String> = server
        .events(id)
        .iter()
        .filter(|e| e["type"] == "mapping_finalized")
        .map(|e| e["data"]["dagNodeId"].to_string())
        .collect();
    let distinct: HashSet<&String> = finalized.iter().collect();
    assert_eq!(
        distinct.len(),
        finalized.len(),
        "a node was announced twice"
    );
    assert_eq!(
        finalized.len() as u64,
        job["statistics"]["mappedNodes"].as_u64().unwrap_or(0)
            + job["statistics"]["unmappedNodes"].as_u64().unwrap_or(0)
            - errors_recorded(server, id),
    );
}

/// Nodes recorded unmapped with an `error` event instead of `mapping_finalized`.
fn errors_recorded(server: &Server, id: &str) -> u64 {
    server
        .events(id)
        .iter()
        .filter(|e| e["type"] == "error" && e["data"]["dagNodeId"].is_string())
        .count() as u64
}

#[test]
fn a_job_killed_while_running_completes_after_a_restart() {
    let data = tempfile::tempdir().expect("data dir");
    let repo = example_repo(data.path());
    let server = Server::start(data.path(), 150);
    let id = create_job(&server, &repo);
    wait_for("a few nodes mapped", || accounted(&server.job(&id)) >= 4);
    server.kill();

    let server = Server::start(data.path(), 0);
    wait_for("completion after the restart", || {
        server.job(&id)["status"] == "completed"
    });
    assert_every_node_once(&server, &id);
}

#[test]
fn a_job_killed_while_paused_stays_paused_then_resumes_to_completion() {
    let data = tempfile::tempdir().expect("data dir");
    let repo = example_repo(data.path());
    let server = Server::start(data.path(), 150);
    let id = create_job(&server, &repo);
    wait_for("a few nodes mapped", || accounted(&server.job(&id)) >= 4);
    let (status, body) = server.call(reqwest::Method::POST, &format!("/{id}/pause"), None);
    assert_eq!(status, 200, "{body}");
    // In-flight nodes finish; then nothing moves.
    std::thread::sleep(Duration::from_millis(800));
    let before = accounted(&server.job(&id));
    server.kill();

    let server = Server::start(data.path(), 0);
    std::thread::sleep(Duration::from_millis(1500));
    let job = server.job(&id);
    assert_eq!(job["status"], "paused", "{job}");
    assert_eq!(
        accounted(&job),
        before,
        "a paused job moved after the restart"
    );

    let (status, body) = server.call(reqwest::Method::POST, &format!("/{id}/resume"), None);
    assert_eq!(status, 200, "{body}");
    wait_for("completion after resume", || {
        server.job(&id)["status"] == "completed"
    });
    assert_every_node_once(&server, &id);
}
