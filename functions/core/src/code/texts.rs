//! The text of every indexed file, kept beside the index so a job's code can be shown later —
//! on AWS long after the Lambda that cloned the repository is gone.
//!
//! Stored once per index, as `index/<cacheKey>/texts.json.zst` (a zstd-compressed JSON object
//! `{path: text}`), by [`super::load_or_build_index`] when it builds an index; a job records
//! which index it used ([`job_texts_pointer_key`]). Only files the index holds are in it — the
//! walker already refused links, `..`, binary and oversized files and invalid UTF-8 — and a
//! reader asks for a path by exact name, so nothing outside the indexed files can be reached.

use super::error::RepoError;
use crate::ports::BlobStore;
use std::collections::BTreeMap;

/// The largest file the viewer shows (the walker indexes nothing larger anyway).
pub const MAX_SHOWN_FILE_BYTES: usize = 2 * 1024 * 1024;

/// zstd level: the archive is written once per index and read by every viewer request.
const COMPRESSION_LEVEL: i32 = 9;

/// Indexed files by repository-relative path.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FileTexts {
    files: BTreeMap<String, String>,
}

impl FileTexts {
    pub fn insert(&mut self, path: String, text: String) {
        self.files.insert(path, text);
    }

    /// The text of the indexed file `path`, exactly as the index names it.
    pub fn get(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(String::as_str)
    }

    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Keep only the files `keep` names.
    pub fn retain(&mut self, keep: impl Fn(&str) -> bool) {
        self.files.retain(|path, _| keep(path));
    }

    pub fn to_bytes(&self) -> Result<Vec<u8>, RepoError> {
        let json =
            serde_json::to_vec(&self.files).map_err(|e| RepoError::CorruptIndex(e.to_string()))?;
        zstd::encode_all(json.as_slice(), COMPRESSION_LEVEL)
            .map_err(|e| RepoError::CorruptIndex(e.to_string()))
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, RepoError> {
        let json = zstd::decode_all(bytes).map_err(|e| RepoError::CorruptIndex(e.to_string()))?;
        let files =
            serde_json::from_slice(&json).map_err(|e| RepoError::CorruptIndex(e.to_string()))?;
        Ok(Self { files })
    }
}

/// Where the texts of the index `cache_key` are kept.
pub fn texts_blob_key(cache_key: &str) -> String {
    format!("index/{cache_key}/texts.json.zst")
}

/// Where a job records the texts blob of the index it was mapped with.
pub fn job_texts_pointer_key(job_id: &str) -> String {
    format!("jobs/{job_id}/texts-ref.json")
}

/// Record that `job_id` was mapped with the index `cache_key`.
pub fn record_job_texts(
    store: &dyn BlobStore,
    job_id: &str,
    cache_key: &str,
) -> Result<(), RepoError> {
    let pointer = serde_json::json!({ "textsKey": texts_blob_key(cache_key) });
    store.put(
        &job_texts_pointer_key(job_id),
        pointer.to_string().as_bytes(),
    )?;
    Ok(())
}

/// The texts of the files `job_id` was mapped against; `None` when the job never indexed a
/// repository or its index has since been pruned from the cache.
pub fn job_texts(store: &dyn BlobStore, job_id: &str) -> Result<Option<FileTexts>, RepoError> {
    let Some(pointer) = store.get(&job_texts_pointer_key(job_id))? else {
        return Ok(None);
    };
    let pointer: serde_json::Value =
        serde_json::from_slice(&pointer).map_err(|e| RepoError::CorruptIndex(e.to_string()))?;
    let Some(key) = pointer.get("textsKey").and_then(|k| k.as_str()) else {
        return Ok(None);
    };
    match store.get(key)? {
        Some(bytes) => FileTexts::from_bytes(&bytes).map(Some),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_survive_the_round_trip_and_are_found_by_exact_path_only() {
        let mut texts = FileTexts::default();
        texts.insert("jobs/a.py".into(), "x = 1\n".into());
        let back = FileTexts::from_bytes(&texts.to_bytes().unwrap()).unwrap();
        assert_eq!(back, texts);
        assert_eq!(back.get("jobs/a.py"), Some("x = 1\n"));
        assert_eq!(back.get("./jobs/a.py"), None);
        assert_eq!(back.get("jobs/../jobs/a.py"), None);
        assert!(FileTexts::from_bytes(b"not zstd").is_err());
    }
}
