//! `plan2code cache`: the indexes and clones `map` leaves for reuse are listed, and `--prune`
//! removes the old ones, then the oldest until the rest fits; a later `map` rebuilds what it needs.

use std::path::Path;
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

fn plan2code(data: &Path, args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
        .current_dir(root())
        .args(args)
        .env("PLAN2CODE_DATA_DIR", data.join("data"))
        .env("REPO_CLONE_DIR", data.join("clones"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@localhost"])
        .args(args)
        .status()
        .unwrap();
    assert!(status.success());
}

fn listing(data: &Path) -> String {
    String::from_utf8(plan2code(data, &["cache"]).stdout).unwrap()
}

#[test]
fn cached_indexes_and_clones_are_listed_and_pruned_oldest_first() {
    let data = tempfile::tempdir().unwrap();
    let data = data.path();
    // a git repository (its clone is cached) and a plain directory (its index is)
    let repo = data.join("repo");
    let copy = Command::new("cp")
        .args(["-r", "events/example-project"])
        .arg(&repo)
        .current_dir(root())
        .status()
        .unwrap();
    assert!(copy.success());
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "example"]);
    let url = format!("file://{}", repo.display());
    let plan = "events/plans/daily-revenue.formatted.txt";
    plan2code(data, &["map", "-q", "--plan", plan, "--repo", &url]);
    plan2code(
        data,
        &[
            "map",
            "-q",
            "--plan",
            plan,
            "--repo",
            "events/example-project",
        ],
    );

    let before = listing(data);
    assert_eq!(
        before.lines().filter(|l| l.starts_with("index")).count(),
        2,
        "{before}"
    );
    assert_eq!(
        before.lines().filter(|l| l.starts_with("clone")).count(),
        1,
        "{before}"
    );
    assert!(before.contains("3 entries"), "{before}");

    // nothing is 30 days old yet
    let kept = plan2code(data, &["cache", "--prune"]);
    assert!(String::from_utf8_lossy(&kept.stdout).starts_with("removed 0 entries"));

    // the clone, made 40 days old, goes; the indexes stay
    let clone = std::fs::read_dir(data.join("clones"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let aged = Command::new("find")
        .arg(clone.path())
        .args(["-exec", "touch", "-h", "-d", "40 days ago", "{}", "+"])
        .status()
        .unwrap();
    assert!(aged.success());
    let pruned = plan2code(data, &["cache", "--prune"]);
    assert!(String::from_utf8_lossy(&pruned.stdout).starts_with("removed 1 entries"));
    assert!(!clone.path().exists());
    let after = listing(data);
    assert!(
        after.contains("2 entries") && !after.contains("\nclone"),
        "{after}"
    );

    // a size bound of 0 empties the caches, and a map still works (it rebuilds)
    plan2code(data, &["cache", "--prune", "--max-mib", "0"]);
    assert!(listing(data).contains("0 entries"));
    let mapped = plan2code(
        data,
        &[
            "map", "-q", "--plan", plan, "--repo", &url, "--format", "json",
        ],
    );
    assert!(String::from_utf8_lossy(&mapped.stdout).contains("jobs/daily_revenue.py"));
}
