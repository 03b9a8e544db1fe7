//! Caching indexes in the blob store, and the one entry point: [`load_or_build_index`].
//!
//! **Cache key** — `hex(SHA-256(scope + commit))` ([`cache_key`]): the scope is the URL for an
//! index fetched without a credential, and the URL plus a fingerprint of the credential otherwise
//! ([`access_scope`]), so a private repository's index is reused only by whoever presents the
//! same credential. For a local directory the canonical path stands in for the URL.
//!
//! **Blob layout (format version [`INDEX_FORMAT_VERSION`])** — under `index/<cacheKey>/`:
//! * `index.json` — the [`RepoIndex`] as camelCase JSON (empty argument lists omitted). Its
//!   `version` field is the format version; an index with another version is never loaded
//!   (it is rebuilt), so bump the constant on any incompatible model change.
//! * `texts.json.zst` — the text of every indexed file ([`super::texts`]), for the viewer.
//! * `record.json` — a [`RepoIndexRecord`] (`cacheKey`, `commit`, `indexKey`, `expiresAt`), the
//!   same record the job store keeps under `REPO#cacheKey`; its `expiresAt` (unix seconds) is
//!   `now + ttl` at build time and makes the cached index stale afterwards.
//!
//! **When the cache is used** — for a URL with a full 40-hex commit, a fresh record means no
//! clone at all. For a URL with only a branch, the repository is fetched (shallow) to learn the
//! commit, then the cache is consulted before indexing. A local directory's key includes a
//! fingerprint of its files' paths, sizes and modification times ([`fingerprint`]), so an
//! unchanged directory is not re-indexed and any edit is.

use super::build::{IndexOptions, build_index_and_texts};
use super::error::RepoError;
use super::index::{INDEX_FORMAT_VERSION, RepoIndex};
use super::source::{
    CloneLimits, Location, RepoSource, Secret, check_directory_ref, clone_and_materialise,
    local_head_commit, parse_location,
};
use super::texts::{FileTexts, texts_blob_key};
use super::walk::fingerprint;
use crate::ports::{BlobStore, RepoIndexRecord};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

/// Default time an index stays fresh (`REPO_CACHE_TTL`).
pub const DEFAULT_TTL_SECS: u64 = 7 * 24 * 3600;

/// What a cached index of `url` is shared under: the URL itself when it was fetched without a
/// credential (public: anyone may reuse it), else the URL scoped to a fingerprint of the
/// credential, so only a caller presenting the same credential gets the index of a private
/// repository without cloning it (see `docs/threat-model.md`).
pub fn access_scope(url: &str, token: Option<&Secret>) -> String {
    match token.filter(|t| !t.expose().is_empty()) {
        None => url.to_owned(),
        Some(token) => {
            let fingerprint = hex::encode(Sha256::digest(token.expose().as_bytes()));
            format!("{url}#credential={}", &fingerprint[..32])
        }
    }
}

/// `hex(SHA-256(url + commit))`, where `url` is the [`access_scope`] for URLs.
pub fn cache_key(url: &str, commit: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(url.as_bytes());
    hasher.update(commit.as_bytes());
    hex::encode(hasher.finalize())
}

pub fn index_blob_key(cache_key: &str) -> String {
    format!("index/{cache_key}/index.json")
}

pub fn record_blob_key(cache_key: &str) -> String {
    format!("index/{cache_key}/record.json")
}

/// How to load or build.
#[derive(Clone)]
pub struct LoadOptions<'a> {
    /// Where clones are materialised (`REPO_CLONE_DIR`).
    pub clone_dir: PathBuf,
    /// Token for private https repositories (`GITHUB_TOKEN`); never logged.
    pub token: Option<Secret>,
    pub clone: CloneLimits,
    pub index: IndexOptions<'a>,
    /// Unix seconds, for expiry.
    pub now: u64,
    pub ttl_secs: u64,
}

impl LoadOptions<'_> {
    /// Options from `REPO_CLONE_DIR`, `REPO_CACHE_TTL` and `GITHUB_TOKEN`.
    pub fn from_env(now: u64) -> Self {
        let clone_dir = std::env::var_os("REPO_CLONE_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| std::env::temp_dir().join("plan2code-clones"));
        let ttl_secs = std::env::var("REPO_CACHE_TTL")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_TTL_SECS);
        let token = std::env::var("GITHUB_TOKEN")
            .ok()
            .filter(|t| !t.is_empty())
            .map(Secret::new);
        Self {
            clone_dir,
            token,
            clone: CloneLimits::default(),
            index: IndexOptions::default(),
            now,
            ttl_secs,
        }
    }
}

/// A loaded or freshly built index.
#[derive(Debug, Clone)]
pub struct LoadedIndex {
    pub index: RepoIndex,
    pub record: RepoIndexRecord,
    /// Served from the blob store.
    pub cache_hit: bool,
    /// Directory holding the indexed files (the local directory, or the materialised clone);
    /// `None` on a cache hit without a clone.
    pub checkout: Option<PathBuf>,
}

/// Load the index of `source` from the blob store if fresh, otherwise clone / walk and build it,
/// then store it.
// Long (~105 lines): one arm per source kind (directory, URL with a full commit, URL to resolve),
// each the same cache-then-build sequence with its own cache key.
pub fn load_or_build_index(
    source: &RepoSource,
    store: &dyn BlobStore,
    options: &LoadOptions<'_>,
) -> Result<LoadedIndex, RepoError> {
    let (location, url_token) = parse_location(&source.location)?;
    let token = url_token.or_else(|| options.token.clone());
    match location {
        Location::Directory(dir) => {
            let canonical = dir
                .canonicalize()
                .map_err(|e| RepoError::InvalidSource(format!("{}: {e}", dir.display())))?;
            check_directory_ref(
                &canonical,
                source.branch.as_deref(),
                source.commit.as_deref(),
            )?;
            let commit = local_head_commit(&canonical);
            // The working tree may differ from any commit: the key is the directory's content
            // (a metadata fingerprint), so an unchanged directory reuses its index.
            let content =
                fingerprint(&canonical).map_err(|e| RepoError::InvalidSource(e.to_string()))?;
            let key = cache_key(
                &format!("{}#content={content}", canonical.to_string_lossy()),
                commit.as_deref().unwrap_or("worktree"),
            );
            if let Some((index, record)) = load_cached(store, &key, options.now)? {
                return Ok(LoadedIndex {
                    index,
                    record,
                    cache_hit: true,
                    checkout: Some(canonical),
                });
            }
            let (index, texts) = build_index_and_texts(&canonical, commit, key, &options.index)?;
            let record = store_index(store, &index, &texts, options)?;
            Ok(LoadedIndex {
                index,
                record,
                cache_hit: false,
                checkout: Some(canonical),
            })
        }
        Location::Url(url) => {
            let scope = access_scope(&url, token.as_ref());
            if let Some(commit) = source.commit.as_deref().filter(|c| is_full_commit(c)) {
                let key = cache_key(&scope, &commit.to_ascii_lowercase());
                if let Some((index, record)) = load_cached(store, &key, options.now)? {
                    return Ok(LoadedIndex {
                        index,
                        record,
                        cache_hit: true,
                        checkout: None,
                    });
                }
            }
            std::fs::create_dir_all(&options.clone_dir).map_err(|e| {
                RepoError::CloneFailed(format!("cannot create clone directory: {e}"))
            })?;
            let staging = options.clone_dir.join(format!(
                "staging-{}-{}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0)
            ));
            let checkout = clone_and_materialise(
                &url,
                source.branch.as_deref(),
                source.commit.as_deref(),
                token.as_ref(),
                &staging,
                &options.clone,
            )?;
            let key = cache_key(&scope, &checkout.commit);
            let final_dir = options.clone_dir.join(&key);
            let dir = if final_dir.exists() {
                let _ = std::fs::remove_dir_all(&staging);
                final_dir
            } else {
                match std::fs::rename(&staging, &final_dir) {
                    Ok(()) => final_dir,
                    Err(_) => staging,
                }
            };
            if let Some((index, record)) = load_cached(store, &key, options.now)? {
                return Ok(LoadedIndex {
                    index,
                    record,
                    cache_hit: true,
                    checkout: Some(dir),
                });
            }
            let (index, texts) =
                build_index_and_texts(&dir, Some(checkout.commit), key, &options.index)?;
            let record = store_index(store, &index, &texts, options)?;
            Ok(LoadedIndex {
                index,
                record,
                cache_hit: false,
                checkout: Some(dir),
            })
        }
    }
}

fn is_full_commit(commit: &str) -> bool {
    commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit())
}

/// Serialise the index, its files' texts and its record into the store — the record last, so a
/// record found means the rest is there.
pub fn store_index(
    store: &dyn BlobStore,
    index: &RepoIndex,
    texts: &FileTexts,
    options: &LoadOptions<'_>,
) -> Result<RepoIndexRecord, RepoError> {
    let bytes = serde_json::to_vec(index).map_err(|e| RepoError::CorruptIndex(e.to_string()))?;
    let index_key = index_blob_key(&index.cache_key);
    store.put(&index_key, &bytes)?;
    store.put(&texts_blob_key(&index.cache_key), &texts.to_bytes()?)?;
    let record = RepoIndexRecord {
        cache_key: index.cache_key.clone(),
        commit: index.commit.clone(),
        index_key,
        expires_at: options.now.saturating_add(options.ttl_secs),
    };
    let record_bytes =
        serde_json::to_vec(&record).map_err(|e| RepoError::CorruptIndex(e.to_string()))?;
    store.put(&record_blob_key(&index.cache_key), &record_bytes)?;
    Ok(record)
}

/// The cached index for `cache_key` if its record is fresh at `now` and its format current.
pub fn load_cached(
    store: &dyn BlobStore,
    cache_key: &str,
    now: u64,
) -> Result<Option<(RepoIndex, RepoIndexRecord)>, RepoError> {
    let Some(record_bytes) = store.get(&record_blob_key(cache_key))? else {
        return Ok(None);
    };
    let Ok(record) = serde_json::from_slice::<RepoIndexRecord>(&record_bytes) else {
        return Ok(None);
    };
    if record.expires_at <= now {
        return Ok(None);
    }
    let Some(bytes) = store.get(&record.index_key)? else {
        return Ok(None);
    };
    match load_index_bytes(&bytes) {
        Ok(index) => Ok(Some((index, record))),
        Err(_) => Ok(None),
    }
}

/// Deserialise an index blob, refusing other format versions.
pub fn load_index_bytes(bytes: &[u8]) -> Result<RepoIndex, RepoError> {
    let index: RepoIndex =
        serde_json::from_slice(bytes).map_err(|e| RepoError::CorruptIndex(e.to_string()))?;
    if index.version != INDEX_FORMAT_VERSION {
        return Err(RepoError::CorruptIndex(format!(
            "format version {} (expected {INDEX_FORMAT_VERSION})",
            index.version
        )));
    }
    Ok(index)
}
