//! Sources and the cache: a file:// clone of a git repository made in the test, cache reuse
//! without cloning, expiry, and tokens that never reach an error message.

use plan2code_core::code::cache::{index_blob_key, record_blob_key};
use plan2code_core::code::{
    LoadOptions, RepoError, RepoSource, Secret, cache_key, load_or_build_index,
};
use plan2code_core::error::{ErrorName, Named};
use plan2code_core::ports::{BlobStore, StoreError};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

#[derive(Default)]
struct Blobs(Mutex<HashMap<String, Vec<u8>>>);

impl BlobStore for Blobs {
    fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.0.lock().unwrap().insert(key.into(), bytes.to_vec());
        Ok(())
    }
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.0.lock().unwrap().get(key).cloned())
    }
    fn delete(&self, key: &str) -> Result<(), StoreError> {
        self.0.lock().unwrap().remove(key);
        Ok(())
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.com")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.com")
        .output()
        .expect("git is installed");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A two-commit repository on branch `main`; returns (dir, first commit, second commit).
fn origin() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    std::fs::create_dir_all(root.join("jobs")).unwrap();
    std::fs::write(
        root.join("jobs/etl.py"),
        "df = spark.table('a').groupBy('k').count()\n",
    )
    .unwrap();
    std::fs::write(root.join("README.md"), "not indexed\n").unwrap();
    git(root, &["add", "."]);
    git(root, &["commit", "-q", "-m", "first"]);
    let first = git(root, &["rev-parse", "HEAD"]);
    std::fs::write(
        root.join("jobs/etl.py"),
        "df = spark.table('b').groupBy('k2').count()\nq = spark.sql('SELECT 1 AS one FROM t')\n",
    )
    .unwrap();
    git(root, &["commit", "-q", "-am", "second"]);
    let second = git(root, &["rev-parse", "HEAD"]);
    (dir, first, second)
}

fn options(clone_dir: &Path, now: u64) -> LoadOptions<'static> {
    let mut options = LoadOptions::from_env(now);
    options.clone_dir = clone_dir.to_path_buf();
    options.token = None;
    options.ttl_secs = 3600;
    options
}

fn file_url(dir: &Path) -> String {
    format!("file://{}", dir.display())
}

#[test]
fn file_url_clone_records_the_commit_and_materialises_only_indexable_files() {
    let (origin, _first, second) = origin();
    let clones = tempfile::tempdir().unwrap();
    let store = Blobs::default();
    let url = file_url(origin.path());
    let loaded = load_or_build_index(
        &RepoSource::new(&url),
        &store,
        &options(clones.path(), 1000),
    )
    .unwrap();
    assert!(!loaded.cache_hit);
    assert_eq!(loaded.index.commit.as_deref(), Some(second.as_str()));
    assert_eq!(loaded.index.cache_key, cache_key(&url, &second));
    assert_eq!(loaded.record.expires_at, 1000 + 3600);
    let checkout = loaded.checkout.unwrap();
    assert!(checkout.join("jobs/etl.py").is_file());
    assert!(!checkout.join("README.md").exists());
    assert!(!checkout.join(".git").exists());
    let chain = &loaded.index.chains[0];
    assert_eq!(chain.calls[0].args.tables, vec!["b"]);
    assert_eq!(loaded.index.sql.len(), 1);
    assert!(
        store
            .get(&index_blob_key(&loaded.index.cache_key))
            .unwrap()
            .is_some()
    );
    assert!(
        store
            .get(&record_blob_key(&loaded.index.cache_key))
            .unwrap()
            .is_some()
    );
}

#[test]
fn pinned_commit_is_checked_out() {
    let (origin, first, _second) = origin();
    let clones = tempfile::tempdir().unwrap();
    let store = Blobs::default();
    let source = RepoSource {
        location: file_url(origin.path()),
        branch: Some("main".into()),
        commit: Some(first.clone()),
    };
    let loaded = load_or_build_index(&source, &store, &options(clones.path(), 1000)).unwrap();
    assert_eq!(loaded.index.commit.as_deref(), Some(first.as_str()));
    assert_eq!(loaded.index.chains[0].calls[0].args.tables, vec!["a"]);
}

#[test]
fn cached_index_is_reused_without_cloning_until_it_expires() {
    let (origin, _first, second) = origin();
    let clones = tempfile::tempdir().unwrap();
    let store = Blobs::default();
    let url = file_url(origin.path());
    let source = RepoSource {
        location: url.clone(),
        branch: None,
        commit: Some(second.clone()),
    };
    let built = load_or_build_index(&source, &store, &options(clones.path(), 1000)).unwrap();
    assert!(!built.cache_hit);
    // Remove the origin: a second load can only succeed from the cache.
    drop(origin);
    let again = load_or_build_index(&source, &store, &options(clones.path(), 2000)).unwrap();
    assert!(again.cache_hit);
    assert!(again.checkout.is_none());
    assert_eq!(again.index, built.index);
    // Past the TTL the record is stale: it would have to clone, and the origin is gone.
    let stale = load_or_build_index(&source, &store, &options(clones.path(), 1000 + 3600));
    assert!(
        matches!(stale, Err(RepoError::InvalidSource(_))),
        "{stale:?}"
    );
    assert_eq!(stale.unwrap_err().error_name(), ErrorName::InvalidInput);
}

#[test]
fn an_index_built_with_a_credential_is_reused_only_with_that_credential() {
    let (origin, _first, second) = origin();
    let clones = tempfile::tempdir().unwrap();
    let store = Blobs::default();
    let source = RepoSource {
        location: file_url(origin.path()),
        branch: None,
        commit: Some(second.clone()),
    };
    let with = |token: Option<&str>| {
        let mut options = options(clones.path(), 1000);
        options.token = token.map(Secret::new);
        load_or_build_index(&source, &store, &options)
    };
    assert!(!with(Some("alice-token")).unwrap().cache_hit);
    // Without the origin only the cache can answer, and it answers only the same credential.
    drop(origin);
    assert!(with(Some("alice-token")).unwrap().cache_hit);
    assert!(with(Some("mallory-token")).is_err());
    assert!(with(None).is_err());
}

#[test]
fn an_unchanged_directory_reuses_its_index_and_an_edit_rebuilds_it() {
    let (origin, _first, _second) = origin();
    let store = Blobs::default();
    let clones = tempfile::tempdir().unwrap();
    let source = RepoSource::new(origin.path().to_string_lossy());
    let load = || load_or_build_index(&source, &store, &options(clones.path(), 5)).unwrap();
    assert!(!load().cache_hit);
    assert!(load().cache_hit);
    std::fs::write(
        origin.path().join("jobs/etl.py"),
        "df = spark.table('edited').groupBy('e').count()\n",
    )
    .unwrap();
    let edited = load();
    assert!(!edited.cache_hit);
    assert!(edited.index.chains.iter().any(|c| {
        c.calls
            .iter()
            .any(|call| call.args.tables.contains(&"edited".to_owned()))
    }));
}

#[test]
fn local_directory_is_indexed_in_place() {
    let (origin, _first, second) = origin();
    let store = Blobs::default();
    let clones = tempfile::tempdir().unwrap();
    let source = RepoSource::new(origin.path().to_string_lossy());
    let loaded = load_or_build_index(&source, &store, &options(clones.path(), 5)).unwrap();
    assert_eq!(loaded.index.commit.as_deref(), Some(second.as_str()));
    assert_eq!(
        loaded.checkout.unwrap(),
        origin.path().canonicalize().unwrap()
    );
    assert_eq!(std::fs::read_dir(clones.path()).unwrap().count(), 0);
}

#[test]
fn token_never_appears_in_errors() {
    let store = Blobs::default();
    let clones = tempfile::tempdir().unwrap();
    let mut opts = options(clones.path(), 1);
    opts.token = Some(Secret::new("ghp_TOKEN_sentinel_42"));
    opts.clone.timeout = std::time::Duration::from_secs(20);
    for location in [
        "https://127.0.0.1:9/acme/private.git",
        "https://user:ghp_TOKEN_sentinel_42@127.0.0.1:9/acme/private.git",
    ] {
        let err = load_or_build_index(&RepoSource::new(location), &store, &opts).unwrap_err();
        let shown = format!("{err} {err:?}");
        assert!(
            !shown.contains("ghp_TOKEN_sentinel_42"),
            "token leaked: {shown}"
        );
        assert!(matches!(
            err.error_name(),
            ErrorName::CloneFailed | ErrorName::AuthFailed | ErrorName::IndexTimeout
        ));
    }
}

#[test]
fn missing_repository_fails_at_once_with_invalid_input() {
    let store = Blobs::default();
    let clones = tempfile::tempdir().unwrap();
    let err = load_or_build_index(
        &RepoSource::new("file:///nonexistent/plan2code/repo"),
        &store,
        &options(clones.path(), 1),
    )
    .unwrap_err();
    // No retry can make a missing repository appear: it is not retryable.
    assert_eq!(err.error_name(), ErrorName::InvalidInput);
    assert!(!err.error_name().is_retryable());
    assert!(err.to_string().contains("is not a git repository"), "{err}");
}

#[test]
fn clone_caps_give_repo_too_large_and_leave_nothing_behind() {
    let (origin, _first, _second) = origin();
    let clones = tempfile::tempdir().unwrap();
    let store = Blobs::default();
    let mut opts = options(clones.path(), 1);
    opts.clone.max_files = 0;
    let err =
        load_or_build_index(&RepoSource::new(file_url(origin.path())), &store, &opts).unwrap_err();
    assert_eq!(err.error_name(), ErrorName::RepoTooLarge);
    assert!(!err.error_name().is_retryable());
    assert_eq!(std::fs::read_dir(clones.path()).unwrap().count(), 0);
}

#[test]
fn index_budget_gives_index_timeout() {
    let (origin, _first, _second) = origin();
    let store = Blobs::default();
    let clones = tempfile::tempdir().unwrap();
    let mut opts = options(clones.path(), 1);
    opts.index.timeout = Some(std::time::Duration::ZERO);
    let err = load_or_build_index(
        &RepoSource::new(origin.path().to_string_lossy()),
        &store,
        &opts,
    )
    .unwrap_err();
    assert_eq!(err.error_name(), ErrorName::IndexTimeout);
    assert!(err.error_name().is_retryable());
}
