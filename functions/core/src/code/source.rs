//! Where a repository comes from, and getting its files onto disk safely.
//!
//! A [`RepoSource`] is an `https://` URL, a `file://` URL or a local directory, plus an optional
//! branch and commit. Local directories are indexed in place. URLs are fetched with gix into a
//! **bare** repository under the clone directory (`REPO_CLONE_DIR`) — shallow (depth 1) unless a
//! commit is pinned that the shallow fetch does not contain — and the commit's tree is then
//! *materialised* by us: only regular files with an indexable extension are written, each path
//! checked to be plain names (no `..`, no absolute paths, nothing under `.git`), symlinks and
//! submodules never written, sizes capped. The bare repository is deleted afterwards, so the
//! checkout holds no git metadata.
//!
//! **Tokens** travel out of band as a [`Secret`]: handed to gix through a credentials callback,
//! never put into the URL, never written to disk, and scrubbed from every error message
//! (`Debug` prints `***`). A token embedded in a URL — user-info (`https://user:tok@host/…`) or
//! a query parameter (`?access_token=…`) — is moved into the secret and removed from the URL
//! used for cloning, cache keys and messages; nothing after `?` or `#` is kept. Anything that
//! shows a URL to a person or a store goes through [`redact_url`] first.
//!
//! A clone that exceeds its time budget is interrupted (`INDEX_TIMEOUT`, retryable); network and
//! git failures are `CLONE_FAILED` (retryable); refused credentials are `AUTH_FAILED`.

use super::error::RepoError;
use super::walk::file_kind;
use std::fmt;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A credential that never prints.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// What to index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoSource {
    /// `https://…`, `file://…`, or a local directory path.
    pub location: String,
    pub branch: Option<String>,
    /// Full or abbreviated commit id; a full 40-hex id allows a cache hit without cloning.
    pub commit: Option<String>,
}

impl RepoSource {
    pub fn new(location: impl Into<String>) -> Self {
        Self {
            location: location.into(),
            branch: None,
            commit: None,
        }
    }
}

/// The parsed form of [`RepoSource::location`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A git URL (https or file), without credentials.
    Url(String),
    Directory(PathBuf),
}

/// Classify a location; a token found in the URL's user-info or query string is returned
/// separately and the URL comes back without user-info, query or fragment.
pub fn parse_location(location: &str) -> Result<(Location, Option<Secret>), RepoError> {
    let trimmed = location.trim();
    if let Some(rest) = trimmed.strip_prefix("https://") {
        let (rest, query) = split_query(rest);
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let (userinfo, host) = match authority.rsplit_once('@') {
            Some((userinfo, host)) => (Some(userinfo), host),
            None => (None, authority),
        };
        if host.is_empty() {
            return Err(RepoError::InvalidSource("https URL without a host".into()));
        }
        let from_userinfo = userinfo.and_then(|u| {
            let secret = u.split_once(':').map(|(_, p)| p).unwrap_or(u);
            (!secret.is_empty()).then(|| Secret::new(secret))
        });
        let token = from_userinfo.or_else(|| query_token(query));
        return Ok((Location::Url(format!("https://{host}/{path}")), token));
    }
    if let Some(rest) = trimmed.strip_prefix("file://") {
        // A file URL has no use for user-info or a query: drop them, never echo them.
        let (rest, _) = split_query(rest);
        let path = match rest.split_once('/') {
            Some((authority, path)) if authority.contains('@') => format!("/{path}"),
            _ => rest.to_owned(),
        };
        return Ok((Location::Url(format!("file://{path}")), None));
    }
    if trimmed.contains("://") || trimmed.starts_with("git@") {
        return Err(RepoError::InvalidSource(
            "only https:// and file:// URLs or local directories are supported".into(),
        ));
    }
    let path = PathBuf::from(trimmed);
    if path.is_dir() {
        Ok((Location::Directory(path), None))
    } else {
        Err(RepoError::InvalidSource(format!(
            "{trimmed} is not a directory"
        )))
    }
}

/// `(before '?' or '#', the query string without its fragment)`.
fn split_query(rest: &str) -> (&str, &str) {
    let (before_fragment, _) = rest.split_once('#').unwrap_or((rest, ""));
    before_fragment
        .split_once('?')
        .unwrap_or((before_fragment, ""))
}

/// A token passed as a query parameter (`access_token`, `private_token`, `token`, …).
fn query_token(query: &str) -> Option<Secret> {
    query.split('&').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        let key = key.to_ascii_lowercase();
        (key.contains("token") || key.contains("key") || key.contains("secret") || key == "auth")
            .then(|| value.trim())
            .filter(|v| !v.is_empty())
            .map(Secret::new)
    })
}

/// A URL fit to show or store: user-info becomes `***@`, every query value `***`, and the
/// fragment is dropped. Text that is not a URL comes back unchanged.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (before_fragment, _) = rest.split_once('#').unwrap_or((rest, ""));
    let (body, query) = match before_fragment.split_once('?') {
        Some((body, query)) => (body, Some(query)),
        None => (before_fragment, None),
    };
    // User-info ends at the last `@`: a secret written raw may hold a `/` (`s3a://KEY:se/cret@b`).
    let (user_info, body) = match body.rsplit_once('@') {
        Some((user_info, host_on)) => (Some(user_info), host_on),
        None => (None, body),
    };
    let (authority, path) = match body.split_once('/') {
        Some((authority, path)) => (authority, Some(path)),
        None => (body, None),
    };
    let mut out = format!("{scheme}://");
    if user_info.is_some() {
        out.push_str("***@");
    }
    out.push_str(authority);
    if let Some(path) = path {
        out.push('/');
        out.push_str(path);
    }
    if let Some(query) = query {
        let redacted: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) => format!("{key}=***"),
                None => "***".to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&redacted.join("&"));
    }
    out
}

/// The commit a local directory's HEAD points at, if it is a git checkout.
pub fn local_head_commit(dir: &Path) -> Option<String> {
    let repo = gix::open(dir).ok()?;
    repo.head_id().ok().map(|id| id.to_string())
}

/// The branch and commit checked out in the git work tree that holds `dir` (`None` when it is
/// in none, or for a detached HEAD's branch).
fn enclosing_head(dir: &Path) -> (Option<String>, Option<String>) {
    let Ok(repo) = gix::discover(dir) else {
        return (None, None);
    };
    let branch = repo
        .head_name()
        .ok()
        .flatten()
        .map(|name| name.shorten().to_string());
    let commit = repo.head_id().ok().map(|id| id.to_string());
    (branch, commit)
}

/// A local directory is indexed as it is on disk, so a `branch` or `commit` asked of it must be
/// what it has checked out; anything else is refused (never silently ignored).
pub fn check_directory_ref(
    dir: &Path,
    branch: Option<&str>,
    commit: Option<&str>,
) -> Result<(), RepoError> {
    let shown = dir.display();
    let elsewhere = |what: String| {
        RepoError::InvalidSource(format!(
            "{what}; a directory is read as it is on disk (use file://{shown} to read another \
             branch or commit of a git repository)"
        ))
    };
    let (head_branch, head_commit) = enclosing_head(dir);
    if let Some(branch) = branch {
        match head_branch {
            Some(head) if head == branch => {}
            Some(head) => {
                return Err(elsewhere(format!(
                    "{shown} has {head} checked out, not {branch}"
                )));
            }
            None => {
                return Err(elsewhere(format!(
                    "{shown} is not a git checkout on a branch, so --branch {branch} cannot apply"
                )));
            }
        }
    }
    if let Some(commit) = commit {
        let wanted = commit.to_ascii_lowercase();
        match head_commit {
            Some(head) if head.starts_with(&wanted) => {}
            Some(head) => {
                return Err(elsewhere(format!(
                    "{shown} is at commit {head}, not {commit}"
                )));
            }
            None => {
                return Err(elsewhere(format!(
                    "{shown} is not a git checkout, so --commit {commit} cannot apply"
                )));
            }
        }
    }
    Ok(())
}

#[derive(Debug, Clone)]
pub struct CloneLimits {
    pub timeout: Duration,
    /// Largest file materialised (bigger ones are left out; the walk would skip them anyway).
    pub max_file_bytes: u64,
    /// Total bytes materialised before failing with `REPO_TOO_LARGE`.
    pub max_total_bytes: u64,
    /// Indexable files materialised before failing with `REPO_TOO_LARGE`.
    pub max_files: usize,
}

impl Default for CloneLimits {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(300),
            max_file_bytes: 2 * 1024 * 1024,
            max_total_bytes: 2 * 1024 * 1024 * 1024,
            max_files: 200_000,
        }
    }
}

/// A materialised checkout.
#[derive(Debug, Clone)]
pub struct Checkout {
    pub dir: PathBuf,
    /// Full commit id that was materialised.
    pub commit: String,
}

/// Fetch `url` at `branch`/`commit` and write its indexable files under `dest` (which must not
/// exist). The bare repository lives in a sibling directory and is removed afterwards.
pub fn clone_and_materialise(
    url: &str,
    branch: Option<&str>,
    commit: Option<&str>,
    token: Option<&Secret>,
    dest: &Path,
    limits: &CloneLimits,
) -> Result<Checkout, RepoError> {
    let git_dir = dest.with_extension("git-tmp");
    let _ = std::fs::remove_dir_all(&git_dir);
    let result = (|| {
        let mut repo = fetch(url, branch, token, &git_dir, limits, true)?;
        let wanted = match commit {
            Some(c) => match resolve_commit(&repo, c) {
                Some(id) => id,
                None => {
                    // Not in the shallow history: fetch everything and look again.
                    drop(repo);
                    let _ = std::fs::remove_dir_all(&git_dir);
                    repo = fetch(url, branch, token, &git_dir, limits, false)?;
                    resolve_commit(&repo, c).ok_or_else(|| {
                        RepoError::InvalidSource(format!("commit {c} not found in {url}"))
                    })?
                }
            },
            None => repo
                .head_id()
                .map_err(|e| RepoError::CloneFailed(scrub(&e.to_string(), token)))?
                .detach(),
        };
        materialise(&repo, wanted, dest, limits)?;
        Ok(Checkout {
            dir: dest.to_path_buf(),
            commit: wanted.to_string(),
        })
    })();
    let _ = std::fs::remove_dir_all(&git_dir);
    if result.is_err() {
        let _ = std::fs::remove_dir_all(dest);
    }
    result
}

fn resolve_commit(repo: &gix::Repository, commit: &str) -> Option<gix::ObjectId> {
    let wanted = commit.trim().to_ascii_lowercase();
    if let Ok(id) = gix::ObjectId::from_hex(wanted.as_bytes()) {
        return repo.find_commit(id).ok().map(|c| c.id);
    }
    // An abbreviated id is accepted when it names the fetched HEAD.
    let head = repo.head_id().ok()?.detach();
    (wanted.len() >= 7 && head.to_string().starts_with(&wanted)).then_some(head)
}

fn fetch(
    url: &str,
    branch: Option<&str>,
    token: Option<&Secret>,
    git_dir: &Path,
    limits: &CloneLimits,
    shallow: bool,
) -> Result<gix::Repository, RepoError> {
    let fail = |e: &dyn fmt::Display| classify_git_error(&e.to_string(), token, url);
    std::fs::create_dir_all(git_dir)
        .map_err(|e| RepoError::CloneFailed(format!("cannot create clone directory: {e}")))?;
    let mut prepare = gix::prepare_clone_bare(url, git_dir).map_err(|e| fail(&e))?;
    if shallow && let Some(depth) = NonZeroU32::new(1) {
        prepare = prepare.with_shallow(gix::remote::fetch::Shallow::DepthAtRemote(depth));
    }
    if let Some(branch) = branch {
        prepare = prepare
            .with_ref_name(Some(branch))
            .map_err(|e| RepoError::InvalidSource(format!("bad branch name: {e}")))?;
    }
    if let Some(token) = token.cloned() {
        prepare = prepare.configure_connection(move |connection| {
            let token = token.clone();
            connection.set_credentials(move |action| match action {
                gix::credentials::helper::Action::Get(context) => {
                    Ok(Some(gix::credentials::protocol::Outcome {
                        identity: gix::sec::identity::Account {
                            username: "x-access-token".into(),
                            password: token.expose().to_string(),
                            oauth_refresh_token: None,
                        },
                        next: context.into(),
                    }))
                }
                _ => Ok(None),
            });
            Ok(())
        });
    }
    let interrupt = Arc::new(AtomicBool::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let timer = {
        let interrupt = Arc::clone(&interrupt);
        let done = Arc::clone(&done);
        let timeout = limits.timeout;
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            while !done.load(Ordering::Relaxed) {
                if started.elapsed() >= timeout {
                    interrupt.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    let outcome = prepare.fetch_only(gix::progress::Discard, &interrupt);
    done.store(true, Ordering::Relaxed);
    let _ = timer.join();
    if interrupt.load(Ordering::Relaxed) {
        return Err(RepoError::IndexTimeout(limits.timeout.as_secs()));
    }
    let (repo, _) = outcome.map_err(|e| fail(&e))?;
    Ok(repo)
}

/// Write the indexable regular files of `commit`'s tree under `dest`.
fn materialise(
    repo: &gix::Repository,
    commit: gix::ObjectId,
    dest: &Path,
    limits: &CloneLimits,
) -> Result<(), RepoError> {
    let io = |e: std::io::Error| RepoError::CloneFailed(format!("cannot write checkout: {e}"));
    let git = |e: &dyn fmt::Display| RepoError::CloneFailed(format!("cannot read commit: {e}"));
    let tree = repo
        .find_commit(commit)
        .map_err(|e| git(&e))?
        .tree()
        .map_err(|e| git(&e))?;
    let mut recorder = gix::traverse::tree::Recorder::default();
    tree.traverse()
        .breadthfirst(&mut recorder)
        .map_err(|e| git(&e))?;
    std::fs::create_dir_all(dest).map_err(io)?;
    let mut files = 0usize;
    let mut total = 0u64;
    for entry in recorder.records {
        if !entry.mode.is_blob() {
            continue; // trees, symlinks, submodules
        }
        let Ok(path) = std::str::from_utf8(&entry.filepath) else {
            continue;
        };
        let Some(relative) = safe_relative_path(path) else {
            continue;
        };
        if file_kind(&relative).is_none() {
            continue;
        }
        let size = repo.find_header(entry.oid).map_err(|e| git(&e))?.size();
        if size > limits.max_file_bytes {
            continue;
        }
        files += 1;
        total += size;
        if files > limits.max_files || total > limits.max_total_bytes {
            return Err(RepoError::RepoTooLarge(format!(
                "more than {} indexable files or {} bytes",
                limits.max_files, limits.max_total_bytes
            )));
        }
        let blob = repo.find_blob(entry.oid).map_err(|e| git(&e))?;
        let target = dest.join(&relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        std::fs::write(&target, &blob.data).map_err(io)?;
    }
    Ok(())
}

/// A tree path as a relative filesystem path made only of plain names, or `None`.
pub fn safe_relative_path(path: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.split('/') {
        if part.is_empty()
            || part == "."
            || part == ".."
            || part.eq_ignore_ascii_case(".git")
            || part.contains('\\')
            || part.contains(':')
            || part.contains('\0')
        {
            return None;
        }
        out.push(part);
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

/// Remove a token from a message (and its URL-encoded form).
pub fn scrub(message: &str, token: Option<&Secret>) -> String {
    match token {
        Some(token) if !token.expose().is_empty() => message.replace(token.expose(), "***"),
        _ => message.to_string(),
    }
}

/// Map a git error message to what it means, scrubbing the token: a source that is not a
/// repository or lacks the asked ref is `INVALID_INPUT` (no retry can fix it), refused
/// credentials `AUTH_FAILED`, anything else `CLONE_FAILED` (network: retried).
fn classify_git_error(message: &str, token: Option<&Secret>, url: &str) -> RepoError {
    let message = scrub(message, token);
    let lower = message.to_ascii_lowercase();
    let url = redact_url(url);
    if lower.contains("is a valid git directory") {
        let hint = if url.starts_with("file://") {
            " (file:// URLs need one; pass the directory itself to read it as it is)"
        } else {
            ""
        };
        return RepoError::InvalidSource(format!("{url} is not a git repository{hint}"));
    }
    if let Some((_, rest)) = message.split_once("didn't have any ref that matched") {
        let name = rest.trim().trim_matches(|c| c == '\'' || c == '"');
        return RepoError::InvalidSource(format!("branch {name} not found in {url}"));
    }
    if lower.contains("401")
        || lower.contains("403")
        || lower.contains("authenticat")
        || lower.contains("credential")
        || lower.contains("permission denied")
    {
        RepoError::AuthFailed(message)
    } else {
        RepoError::CloneFailed(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_in_url_is_moved_out() {
        let (location, token) =
            parse_location("https://bob:ghp_SECRET123@github.com/acme/etl.git").unwrap();
        assert_eq!(
            location,
            Location::Url("https://github.com/acme/etl.git".into())
        );
        assert_eq!(token.unwrap().expose(), "ghp_SECRET123");
    }

    #[test]
    fn credentials_anywhere_in_a_url_are_moved_out_and_redacted() {
        let (location, token) =
            parse_location("https://github.com/acme/etl.git?access_token=ghp_Q1#frag").unwrap();
        assert_eq!(
            location,
            Location::Url("https://github.com/acme/etl.git".into())
        );
        assert_eq!(token.unwrap().expose(), "ghp_Q1");
        let (location, token) = parse_location("file://user:s3cret@/srv/repos/etl").unwrap();
        assert_eq!(location, Location::Url("file:///srv/repos/etl".into()));
        assert!(token.is_none());
        assert_eq!(
            redact_url("https://u:pw@h.io/r.git?access_token=T&x=1#f"),
            "https://***@h.io/r.git?access_token=***&x=***"
        );
        assert_eq!(redact_url("file://user:secret@/srv/r"), "file://***@/srv/r");
        // a secret written raw with a `/` in it is user-info all the same
        assert_eq!(
            redact_url("s3a://AKIA1:se/cret@bucket/raw/x.csv"),
            "s3a://***@bucket/raw/x.csv"
        );
        assert_eq!(redact_url("/plain/dir"), "/plain/dir");
    }

    #[test]
    fn secrets_never_print() {
        let secret = Secret::new("ghp_SECRET123");
        assert_eq!(format!("{secret:?}"), "***");
        let err = classify_git_error(
            "HTTP 401 for https://x:ghp_SECRET123@h/r",
            Some(&secret),
            "https://h/r",
        );
        assert!(matches!(err, RepoError::AuthFailed(_)));
        assert!(!err.to_string().contains("ghp_SECRET123"));
    }

    #[test]
    fn unsafe_tree_paths_are_rejected() {
        assert!(safe_relative_path("a/../b.py").is_none());
        assert!(safe_relative_path("/etc/passwd").is_none());
        assert!(safe_relative_path(".git/config").is_none());
        assert!(safe_relative_path("a\\..\\b.py").is_none());
        assert_eq!(
            safe_relative_path("jobs/etl.py"),
            Some(PathBuf::from("jobs/etl.py"))
        );
    }

    #[test]
    fn other_schemes_are_refused() {
        assert!(parse_location("ssh://git@github.com/a/b").is_err());
        assert!(parse_location("git@github.com:a/b.git").is_err());
    }
}
