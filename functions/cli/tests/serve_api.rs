//! End to end through `plan2code serve` on 127.0.0.1: jobs created over HTTP on a git repository
//! the test makes (file://), followed over SSE to `job_completed`, paused / resumed / cancelled
//! over HTTP, and the requests the API must refuse (missing or wrong tokens, another caller's job,
//! malformed and oversized bodies). The server's log is written into its data directory, so the
//! secret scans read it too.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ALICE: &str = "alice-token-0123456789";
const BOB: &str = "bob-token-9876543210";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A running `plan2code serve`, killed on drop.
struct Server {
    child: Child,
    base: String,
    _data: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(node_delay_ms: u64, max_body_bytes: usize) -> Server {
    // The tests' repositories are made under the temp dir: allow exactly that.
    serve_with(node_delay_ms, max_body_bytes, &std::env::temp_dir(), &[])
}

fn serve_with(
    node_delay_ms: u64,
    max_body_bytes: usize,
    roots: &Path,
    extra_env: &[(&str, &str)],
) -> Server {
    let data = tempfile::tempdir().unwrap();
    let log = std::fs::File::create(data.path().join("server.log")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_plan2code"))
        .args(["serve", "--port", "0", "--max-body-bytes"])
        .arg(max_body_bytes.to_string())
        .env("PLAN2CODE_DATA_DIR", data.path())
        .env("REPO_CLONE_DIR", data.path().join("clones"))
        .env("PLAN2CODE_API_TOKENS", format!("alice:{ALICE},bob:{BOB}"))
        .env("PLAN2CODE_NODE_DELAY_MS", node_delay_ms.to_string())
        .env("PLAN2CODE_LOCAL_ROOTS", roots)
        .env("MAX_PARALLEL_NODES", "2")
        .env("RUST_LOG", "warn")
        .envs(extra_env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(log)
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .to_owned();
    Server {
        child,
        base,
        _data: data,
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
        .unwrap();
    assert!(status.success(), "git {args:?}");
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).unwrap();
        }
    }
}

/// The example project as a git repository with one commit; returns its file:// URL.
fn example_repo(dir: &Path) -> String {
    let repo = dir.join("example-project");
    copy_tree(&root().join("events/example-project"), &repo);
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "example"]);
    format!("file://{}", repo.display())
}

fn plan_text() -> String {
    std::fs::read_to_string(root().join("events/plans/daily-revenue.formatted.txt")).unwrap()
}

fn client() -> reqwest::blocking::Client {
    reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

fn call(
    method: reqwest::Method,
    url: &str,
    token: Option<&str>,
    body: Option<Vec<u8>>,
) -> (u16, Value) {
    let mut request = client().request(method, url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body);
    }
    let response = request.send().unwrap();
    let status = response.status().as_u16();
    let text = response.text().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn create(server: &Server, token: &str, repo: &str) -> String {
    let body = json!({ "repositoryUrl": repo, "branch": "main", "planContent": plan_text() });
    let (status, job) = call(
        reqwest::Method::POST,
        &format!("{}/api/v1/agent/jobs", server.base),
        Some(token),
        Some(serde_json::to_vec(&body).unwrap()),
    );
    assert_eq!(status, 201, "{job}");
    assert_eq!(job["status"], "queued");
    job["id"].as_str().unwrap().to_owned()
}

fn job_url(server: &Server, id: &str, tail: &str) -> String {
    format!("{}/api/v1/agent/jobs/{id}{tail}", server.base)
}

fn get_job(server: &Server, id: &str) -> Value {
    let (status, job) = call(
        reqwest::Method::GET,
        &job_url(server, id, ""),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 200, "{job}");
    job
}

/// Read SSE messages until the stream ends: `(id, event, data)` triples.
fn read_stream(server: &Server, id: &str, last_event_id: Option<u64>) -> Vec<(u64, String, Value)> {
    let mut request = client()
        .get(job_url(server, id, "/stream"))
        .bearer_auth(ALICE);
    if let Some(last) = last_event_id {
        request = request.header("Last-Event-ID", last.to_string());
    }
    let response = request.send().unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let mut messages = Vec::new();
    let (mut seq, mut event) = (0, String::new());
    for line in BufReader::new(response).lines() {
        let line = line.unwrap();
        if let Some(v) = line.strip_prefix("id:") {
            seq = v.trim().parse().unwrap();
        } else if let Some(v) = line.strip_prefix("event:") {
            event = v.trim().to_owned();
        } else if let Some(v) = line.strip_prefix("data:") {
            messages.push((seq, event.clone(), serde_json::from_str(v.trim()).unwrap()));
        }
    }
    messages
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_job_is_created_streamed_to_completion_and_its_results_fetched() {
    let server = serve(0, 1 << 20);
    let dir = tempfile::tempdir().unwrap();
    let repo = example_repo(dir.path());
    let id = create(&server, ALICE, &repo);

    let messages = read_stream(&server, &id, None);
    let types: Vec<&str> = messages.iter().map(|(_, t, _)| t.as_str()).collect();
    assert_eq!(types.first(), Some(&"job_started"));
    assert_eq!(types.last(), Some(&"job_completed"));
    assert_eq!(
        types.iter().filter(|t| **t == "mapping_finalized").count(),
        42
    );
    let seqs: Vec<u64> = messages.iter().map(|(s, _, _)| *s).collect();
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");

    // Resuming from Last-Event-ID replays exactly what came after it.
    let tail = read_stream(&server, &id, Some(seqs[seqs.len() - 3]));
    assert_eq!(tail.len(), 2);
    assert_eq!(tail[1].1, "job_completed");

    let job = get_job(&server, &id);
    assert_eq!(job["status"], "completed");
    assert_eq!(job["statistics"]["totalNodes"], 42);
    assert_eq!(job["statistics"]["mappedNodes"], 42);
    assert!(
        job["repoConfig"]["commit"]
            .as_str()
            .is_some_and(|c| c.len() == 40)
    );
    let mappings = job["result"]["mappings"].as_array().unwrap();
    assert_eq!(mappings.len(), 42);
    // The results came back through the API mapped into the cloned repository.
    assert!(mappings.iter().all(|m| {
        m["mappedCode"]["file"]
            .as_str()
            .is_some_and(|f| f.starts_with("jobs/"))
    }));

    let (status, page) = call(
        reqwest::Method::GET,
        &job_url(&server, &id, "/events?after=2&limit=3"),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 200);
    let events = page["events"].as_array().unwrap();
    assert_eq!(events.len(), 3);
    assert_eq!(events[0]["seq"], 3);
    assert_eq!(page["nextAfter"], 5);
}

fn mapped(server: &Server, id: &str) -> u64 {
    get_job(server, id)["statistics"]["mappedNodes"]
        .as_u64()
        .unwrap()
}

#[test]
fn pause_holds_the_job_and_resume_finishes_it_then_cancel_stops_another() {
    let server = serve(60, 1 << 20);
    let dir = tempfile::tempdir().unwrap();
    let repo = example_repo(dir.path());
    let id = create(&server, ALICE, &repo);
    wait_for("a first mapping", || mapped(&server, &id) >= 1);

    let (status, body) = call(
        reqwest::Method::POST,
        &job_url(&server, &id, "/pause"),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "paused");
    // Nodes in flight finish; after that nothing moves while paused.
    std::thread::sleep(Duration::from_millis(400));
    let held = mapped(&server, &id);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(mapped(&server, &id), held);
    assert!(held < 42, "the job finished before it could be paused");
    assert_eq!(get_job(&server, &id)["status"], "paused");

    let (status, body) = call(
        reqwest::Method::POST,
        &job_url(&server, &id, "/resume"),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "running");
    let messages = read_stream(&server, &id, None);
    assert_eq!(messages.last().map(|m| m.1.as_str()), Some("job_completed"));
    assert_eq!(get_job(&server, &id)["statistics"]["mappedNodes"], 42);

    // Control of a finished job is a conflict.
    let (status, _) = call(
        reqwest::Method::POST,
        &job_url(&server, &id, "/pause"),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 409);

    let other = create(&server, ALICE, &repo);
    wait_for("a first mapping", || mapped(&server, &other) >= 1);
    let (status, body) = call(
        reqwest::Method::POST,
        &job_url(&server, &other, "/cancel"),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["status"], "cancelled");
    // The stream of a cancelled job ends.
    let messages = read_stream(&server, &other, None);
    assert!(messages.iter().all(|m| m.1 != "job_completed"));
    std::thread::sleep(Duration::from_millis(300));
    let job = get_job(&server, &other);
    assert_eq!(job["status"], "cancelled");
    assert!(job["statistics"]["mappedNodes"].as_u64().unwrap() < 42);
    let (status, _) = call(
        reqwest::Method::POST,
        &job_url(&server, &other, "/resume"),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 409);
}

#[test]
fn the_api_refuses_what_it_must() {
    let server = serve(0, 64 * 1024);
    let dir = tempfile::tempdir().unwrap();
    let repo = example_repo(dir.path());
    let jobs = format!("{}/api/v1/agent/jobs", server.base);
    let good = json!({ "repositoryUrl": repo, "planContent": plan_text() });
    let post =
        |token: Option<&str>, body: Vec<u8>| call(reqwest::Method::POST, &jobs, token, Some(body));

    // Missing and wrong tokens.
    let (status, body) = post(None, serde_json::to_vec(&good).unwrap());
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("UNAUTHORIZED"))
    );
    let (status, _) = post(Some("not-a-token"), serde_json::to_vec(&good).unwrap());
    assert_eq!(status, 401);

    // Malformed requests, with messages that say what is wrong.
    let (status, body) = post(Some(ALICE), b"{not json".to_vec());
    assert_eq!(status, 400);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("not a valid job request")
    );
    let (status, body) = post(
        Some(ALICE),
        serde_json::to_vec(&json!({ "repositoryUrl": repo })).unwrap(),
    );
    assert_eq!(status, 400);
    assert!(
        body["message"].as_str().unwrap().contains("planContent"),
        "{body}"
    );
    let (status, body) = post(
        Some(ALICE),
        serde_json::to_vec(
            &json!({ "repositoryUrl": "ftp://example.com/x", "planContent": plan_text() }),
        )
        .unwrap(),
    );
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("https://"));
    for not_a_plan in [
        "this is not a plan",
        "{\"nodes\": [",
        "== Physical Plan ==\n",
    ] {
        let body = json!({ "repositoryUrl": repo, "planContent": not_a_plan });
        let (status, body) = post(Some(ALICE), serde_json::to_vec(&body).unwrap());
        assert_eq!(
            (status, body["error"].as_str()),
            (422, Some("PARSE_ERROR")),
            "{not_a_plan}: {body}"
        );
    }
    let (status, body) = post(
        Some(ALICE),
        serde_json::to_vec(
            &json!({ "repositoryUrl": repo, "planContent": plan_text(), "colour": "red" }),
        )
        .unwrap(),
    );
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("colour"));

    // Oversized bodies.
    let huge = json!({ "repositoryUrl": repo, "planContent": "x".repeat(100 * 1024) });
    let (status, body) = post(Some(ALICE), serde_json::to_vec(&huge).unwrap());
    assert_eq!(
        (status, body["error"].as_str()),
        (413, Some("PAYLOAD_TOO_LARGE"))
    );

    // Another caller's job does not exist for them, under any route.
    let id = create(&server, ALICE, &repo);
    for (method, tail) in [
        (reqwest::Method::GET, ""),
        (reqwest::Method::GET, "/events"),
        (reqwest::Method::GET, "/stream"),
        (reqwest::Method::POST, "/cancel"),
        (reqwest::Method::POST, "/pause"),
    ] {
        let (status, _) = call(method, &job_url(&server, &id, tail), Some(BOB), None);
        assert_eq!(status, 404, "bob reached {tail}");
    }
    let (status, _) = call(
        reqwest::Method::GET,
        &job_url(&server, "job-unknown", ""),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 404);
    let (status, _) = call(
        reqwest::Method::GET,
        &job_url(&server, &id, "/events?after=minus"),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 400);
    // Alice's job is untouched by Bob's attempts.
    wait_for("alice's job", || {
        get_job(&server, &id)["status"] == "completed"
    });
}

/// The server's log, as written so far.
fn server_log(server: &Server) -> String {
    std::fs::read_to_string(server._data.path().join("server.log")).unwrap()
}

/// A server logging everything it logs (secrets must not be in any of it).
fn serve_verbose(roots: &Path) -> Server {
    serve_with(0, 1 << 20, roots, &[("RUST_LOG", "debug")])
}

#[test]
fn a_request_token_reaches_no_store_or_event() {
    let server = serve_verbose(&std::env::temp_dir());
    let dir = tempfile::tempdir().unwrap();
    let repo = example_repo(dir.path());
    let secret = "test-only-token-that-must-not-leak-123";
    let body = json!({ "repositoryUrl": repo, "planContent": plan_text(), "token": secret });
    let (status, job) = call(
        reqwest::Method::POST,
        &format!("{}/api/v1/agent/jobs", server.base),
        Some(ALICE),
        Some(serde_json::to_vec(&body).unwrap()),
    );
    assert_eq!(status, 201);
    let id = job["id"].as_str().unwrap().to_owned();
    let messages = read_stream(&server, &id, None);
    assert!(!messages.is_empty());
    assert!(
        !serde_json::to_string(&messages.iter().map(|m| &m.2).collect::<Vec<_>>())
            .unwrap()
            .contains(secret)
    );
    assert!(!get_job(&server, &id).to_string().contains(secret));
    // Nothing on disk holds it either: stores, blobs, clones and the server's log.
    assert!(server_log(&server).contains(&id), "the log names the job");
    let mut leaked = Vec::new();
    scan(server._data.path(), secret, &mut leaked);
    assert!(leaked.is_empty(), "token found in {leaked:?}");
}

fn scan(dir: &Path, needle: &str, hits: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            scan(&path, needle, hits);
        } else if std::fs::read(&path)
            .map(|b| b.windows(needle.len()).any(|w| w == needle.as_bytes()))
            .unwrap_or(false)
        {
            hits.push(path);
        }
    }
}

#[test]
fn repositories_outside_the_allowed_roots_or_with_credentials_are_refused() {
    let allowed = tempfile::tempdir().unwrap();
    let server = serve_verbose(allowed.path());
    let elsewhere = tempfile::tempdir().unwrap();
    let outside = example_repo(elsewhere.path());
    let inside = example_repo(allowed.path());
    let post = |repo: &str| {
        let body = json!({ "repositoryUrl": repo, "planContent": plan_text() });
        call(
            reqwest::Method::POST,
            &format!("{}/api/v1/agent/jobs", server.base),
            Some(ALICE),
            Some(serde_json::to_vec(&body).unwrap()),
        )
    };
    let (status, body) = post(&outside);
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["error"], "FORBIDDEN");
    // The server's own checkout is no more reachable than any other directory.
    let (status, _) = post(&format!("file://{}", root().display()));
    assert_eq!(status, 403);
    let (status, _) = post(&inside);
    assert_eq!(status, 201);
    // Credentials in the URL are refused without being echoed or stored.
    for url in [
        format!("{inside}?access_token=SECRET_IN_QUERY_41"),
        inside.replacen("file://", "file://user:SECRET_IN_USERINFO_42@", 1),
        "https://github.com/acme/etl.git?access_token=SECRET_IN_QUERY_43".to_owned(),
    ] {
        let (status, body) = post(&url);
        assert_eq!(status, 400, "{url}: {body}");
        assert!(!body.to_string().contains("SECRET_IN"), "{body}");
    }
    let mut leaked = Vec::new();
    for secret in [
        "SECRET_IN_QUERY_41",
        "SECRET_IN_USERINFO_42",
        "SECRET_IN_QUERY_43",
    ] {
        scan(server._data.path(), secret, &mut leaked);
    }
    assert!(!server_log(&server).is_empty(), "the log was written");
    assert!(leaked.is_empty(), "secret found in {leaked:?}");
}

/// A repository built to hurt the indexer, mapped beside a good one: the hostile job ends
/// (its hazards skipped) and the good caller's job completes on the same server.
#[test]
fn a_hostile_repository_beside_a_good_one_takes_nothing_down() {
    let dir = tempfile::tempdir().unwrap();
    let server = serve(0, 1 << 20);
    let good = example_repo(dir.path());
    let hostile = dir.path().join("hostile");
    copy_tree(&root().join("events/example-project"), &hostile);
    // tree-sitter-python's scanner aborts the process on this without the guard
    let mut crasher = String::new();
    for depth in 0..600 {
        crasher.push_str(&" ".repeat(depth));
        crasher.push_str("if x:\n");
    }
    crasher.push_str(&" ".repeat(600));
    crasher.push_str("s = f'{x}'\n");
    std::fs::write(hostile.join("crasher.py"), crasher).unwrap();
    std::fs::write(hostile.join("latin1.py"), b"x = '\xe9t\xe9'\n").unwrap();
    std::fs::write(hostile.join("blob.py"), [0u8, 159, 146, 150, 0, 1, 2]).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", hostile.join("escape.py")).unwrap();
    std::os::unix::fs::symlink("../../../..", hostile.join("up")).unwrap();
    git(&hostile, &["init", "-q", "-b", "main"]);
    git(&hostile, &["add", "."]);
    git(&hostile, &["commit", "-q", "-m", "hostile"]);
    let hostile = format!("file://{}", hostile.display());

    let hostile_job = create(&server, ALICE, &hostile);
    let good_job = create(&server, BOB, &good);
    let job_of = |token: &str, id: &str| {
        let (status, job) = call(
            reqwest::Method::GET,
            &job_url(&server, id, ""),
            Some(token),
            None,
        );
        assert_eq!(status, 200, "the server answers: {job}");
        job
    };
    let finished = |job: Value| job["status"] == "completed" || job["status"] == "failed";
    wait_for("both jobs", || {
        finished(job_of(ALICE, &hostile_job)) && finished(job_of(BOB, &good_job))
    });
    let good = job_of(BOB, &good_job);
    assert_eq!(good["status"], "completed", "{good}");
    let hostile = job_of(ALICE, &hostile_job);
    assert_eq!(
        hostile["status"], "completed",
        "hazards are skipped, not fatal: {hostile}"
    );
    assert_eq!(hostile["result"]["mappings"].as_array().unwrap().len(), 42);
    // the link out of the clone was never read into a result
    assert!(!hostile.to_string().contains("root:x:0:0"), "{hostile}");
}

/// Many jobs finishing while 200 streams follow them: every stream must end with the job's
/// terminal event (a stream that read the events, then saw the status turn terminal before the
/// last event was stored, used to end without `job_completed`).
#[test]
fn two_hundred_streams_all_end_with_the_terminal_event() {
    let server = serve(0, 1 << 20);
    let dir = tempfile::tempdir().unwrap();
    let repo = example_repo(dir.path());
    let ids: Vec<String> = (0..20).map(|_| create(&server, ALICE, &repo)).collect();
    let outcomes: Vec<(String, Option<String>, usize)> = std::thread::scope(|scope| {
        let readers: Vec<_> = ids
            .iter()
            .flat_map(|id| std::iter::repeat_n(id, 10))
            .map(|id| {
                let server = &server;
                scope.spawn(move || {
                    let messages = read_stream(server, id, None);
                    let last = messages.last().map(|(_, t, _)| t.clone());
                    (id.clone(), last, messages.len())
                })
            })
            .collect();
        readers.into_iter().map(|r| r.join().unwrap()).collect()
    });
    assert_eq!(outcomes.len(), 200);
    let lost: Vec<_> = outcomes
        .iter()
        .filter(|(_, last, _)| last.as_deref() != Some("job_completed"))
        .collect();
    assert!(
        lost.is_empty(),
        "{} streams ended early: {lost:?}",
        lost.len()
    );
}

/// With room for one running job, the next ones wait visibly as `queued` and then all complete.
#[test]
fn jobs_beyond_the_admission_limit_wait_queued_then_complete() {
    let server = serve_with(
        100,
        1 << 20,
        &std::env::temp_dir(),
        &[("PLAN2CODE_MAX_RUNNING_JOBS", "1")],
    );
    let dir = tempfile::tempdir().unwrap();
    let repo = example_repo(dir.path());
    let ids: Vec<String> = (0..3).map(|_| create(&server, ALICE, &repo)).collect();
    wait_for("the first job to run", || {
        get_job(&server, &ids[0])["status"] == "running"
    });
    for id in &ids[1..] {
        assert_eq!(get_job(&server, id)["status"], "queued");
    }
    for id in &ids {
        wait_for("every job to complete", || {
            get_job(&server, id)["status"] == "completed"
        });
    }
}

#[test]
fn an_event_log_in_plan_content_maps_every_execution_as_one_job() {
    let server = serve(0, 4 << 20);
    let dir = tempfile::tempdir().unwrap();
    let repo = example_repo(dir.path());
    let event = |id: u64, plan: &str| {
        json!({
            "Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart",
            "executionId": id, "description": format!("query {id}"), "details": "",
            "physicalPlanDescription": plan, "time": 1000 + id,
        })
        .to_string()
    };
    let top =
        std::fs::read_to_string(root().join("events/plans/top-products.formatted.txt")).unwrap();
    let log = format!("{}\n{}\n", event(4, &plan_text()), event(9, &top));
    let post = |body: Value| {
        call(
            reqwest::Method::POST,
            &format!("{}/api/v1/agent/jobs", server.base),
            Some(ALICE),
            Some(serde_json::to_vec(&body).unwrap()),
        )
    };
    let (status, job) = post(json!({ "repositoryUrl": repo, "planContent": log }));
    assert_eq!(status, 201, "{job}");
    let id = job["id"].as_str().unwrap().to_owned();
    wait_for("the application job", || {
        get_job(&server, &id)["status"] == "completed"
    });
    let job = get_job(&server, &id);
    let mappings = job["result"]["mappings"].as_array().unwrap();
    let of = |execution: u64| {
        mappings
            .iter()
            .filter(|m| m["executionId"] == execution)
            .count() as u64
    };
    assert_eq!(of(4), 42, "every node of the daily revenue plan");
    assert!(of(9) > 0);
    assert_eq!(job["statistics"]["totalNodes"], of(4) + of(9));
    let executions = job["executions"].as_array().unwrap();
    let ids: Vec<&Value> = executions.iter().map(|e| &e["executionId"]).collect();
    assert_eq!(ids, [4, 9]);
    assert_eq!(executions[0]["nodeCount"], 42);

    // one picked by `executionId`; one that is not there is the caller's mistake
    let (status, job) =
        post(json!({ "repositoryUrl": repo, "planContent": log, "executionId": 9 }));
    assert_eq!(status, 201, "{job}");
    let (status, refused) =
        post(json!({ "repositoryUrl": repo, "planContent": log, "executionId": 5 }));
    assert_eq!(status, 400, "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains('5'),
        "{refused}"
    );
    let picked = job["id"].as_str().unwrap().to_owned();

    // the plan as parsed, for a viewer: each execution's nodes; the owner's only
    let (status, plan) = call(
        reqwest::Method::GET,
        &job_url(&server, &id, "/plan"),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 200, "{plan}");
    let plans = plan["executions"].as_array().unwrap();
    assert_eq!(plans.len(), 2);
    assert_eq!(plans[0]["executionId"], 4);
    assert_eq!(plans[0]["nodes"].as_array().unwrap().len(), 42);
    assert!(plans[0]["nodes"][0]["operator"].is_string());
    let (status, _) = call(
        reqwest::Method::GET,
        &job_url(&server, &id, "/plan"),
        Some(BOB),
        None,
    );
    assert_eq!(status, 404);

    // the caller's jobs, newest first; another caller sees none of them
    let list = |token: &str, query: &str| {
        call(
            reqwest::Method::GET,
            &format!("{}/api/v1/agent/jobs{query}", server.base),
            Some(token),
            None,
        )
    };
    let (status, mine) = list(ALICE, "");
    assert_eq!(status, 200, "{mine}");
    let ids: Vec<&str> = mine["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [picked.as_str(), id.as_str()]);
    assert_eq!(
        list(ALICE, "?limit=1").1["jobs"].as_array().unwrap().len(),
        1
    );
    assert_eq!(list(ALICE, "?limit=0").0, 400);
    assert!(list(BOB, "").1["jobs"].as_array().unwrap().is_empty());
}

fn get_text(url: &str) -> (u16, String, reqwest::header::HeaderMap) {
    let response = client().get(url).send().unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, response.text().unwrap(), headers)
}

#[test]
fn the_viewer_and_its_api_show_a_job_to_its_owner_only() {
    let server = serve(0, 1 << 20);
    let dir = tempfile::tempdir().unwrap();
    let repo = example_repo(dir.path());
    // A link out of the clone: the index never holds it, so the viewer can never show it.
    let checkout = dir.path().join("example-project");
    std::os::unix::fs::symlink("/etc/passwd", checkout.join("jobs/passwd.py")).unwrap();
    git(&checkout, &["add", "."]);
    git(&checkout, &["commit", "-q", "-m", "a link out"]);
    let id = create(&server, ALICE, &repo);
    let messages = read_stream(&server, &id, None);
    assert_eq!(messages.last().unwrap().1, "job_completed");

    // The page and its assets need no token and keep to the server.
    for path in ["/".to_owned(), format!("/jobs/{id}")] {
        let (status, html, headers) = get_text(&format!("{}{path}", server.base));
        assert_eq!(status, 200, "{path}");
        assert!(
            html.contains(r#"<script src="/assets/viewer.js">"#),
            "{html}"
        );
        let policy = headers["content-security-policy"].to_str().unwrap();
        assert!(policy.contains("default-src 'none'") && policy.contains("script-src 'self'"));
    }
    let (status, script, headers) = get_text(&format!("{}/assets/viewer.js", server.base));
    assert_eq!(status, 200);
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/javascript")
    );
    assert!(script.contains("/api/v1/agent"));

    // The overview: every node laid out once, edges between them, mapped locations on the nodes.
    let (status, view) = call(
        reqwest::Method::GET,
        &job_url(&server, &id, "/view"),
        Some(ALICE),
        None,
    );
    assert_eq!(status, 200, "{view}");
    let graph = &view["graphs"][0];
    let nodes = graph["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 42);
    assert!(!graph["edges"].as_array().unwrap().is_empty());
    let mut corners: Vec<(i64, i64)> = nodes
        .iter()
        .map(|n| {
            (
                n["x"].as_f64().unwrap() as i64,
                n["y"].as_f64().unwrap() as i64,
            )
        })
        .collect();
    corners.sort();
    corners.dedup();
    assert_eq!(corners.len(), 42, "two nodes drawn on the same spot");
    assert!(nodes.iter().any(|n| {
        n["location"]
            .as_str()
            .is_some_and(|l| l.starts_with("jobs/daily_revenue.py:"))
    }));
    assert_eq!(
        graph["hasMetrics"], false,
        "a formatted plan carries no metrics"
    );

    // A file of the job's repository, highlighted line by line.
    let source = |token: &str, path: &str| {
        call(
            reqwest::Method::GET,
            &job_url(&server, &id, &format!("/source?path={}", urlencode(path))),
            Some(token),
            None,
        )
    };
    let (status, file) = source(ALICE, "jobs/daily_revenue.py");
    assert_eq!(status, 200, "{file}");
    let on_disk = std::fs::read_to_string(checkout.join("jobs/daily_revenue.py")).unwrap();
    let lines = file["lines"].as_array().unwrap();
    assert_eq!(lines.len(), on_disk.lines().count());
    assert!(
        lines
            .iter()
            .any(|l| l.as_str().unwrap().contains("build_report"))
    );

    // Another caller sees nothing of it; paths outside what the index holds are not found.
    assert_eq!(source(BOB, "jobs/daily_revenue.py").0, 404);
    assert_eq!(
        call(
            reqwest::Method::GET,
            &job_url(&server, &id, "/view"),
            Some(BOB),
            None
        )
        .0,
        404
    );
    for path in [
        "jobs/passwd.py",
        "../../../../etc/passwd",
        "jobs/../jobs/daily_revenue.py",
        "/etc/passwd",
        "jobs/nope.py",
    ] {
        let (status, body) = source(ALICE, path);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(!body.to_string().contains("root:"), "{path}: {body}");
    }
}

/// Percent-encodes a query value (the few characters these tests use).
fn urlencode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
