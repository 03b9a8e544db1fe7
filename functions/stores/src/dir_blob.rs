//! [`BlobStore`] over a local directory: key `a/b/c.json` is the file `<root>/a/b/c.json`.
//!
//! Keys come from our own code, but they embed ids that arrive over the API, so a key is
//! validated before it becomes a path: relative, `/`-separated, no empty, `.` or `..` segments.
//! Writes go to a temporary file renamed into place, so a crash never leaves a torn blob.

use plan2code_core::ports::{BlobStore, StoreError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Debug, Clone)]
pub struct DirBlobStore {
    root: PathBuf,
}

impl DirBlobStore {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path_for(&self, key: &str) -> Result<PathBuf, StoreError> {
        let valid = !key.is_empty()
            && !key.starts_with('/')
            && !key.contains('\\')
            && key
                .split('/')
                .all(|seg| !seg.is_empty() && seg != "." && seg != "..");
        if !valid {
            return Err(StoreError::Backend(format!("invalid blob key {key:?}")));
        }
        Ok(self.root.join(key))
    }
}

fn io_error(what: &str, path: &Path, err: std::io::Error) -> StoreError {
    StoreError::Backend(format!("{what} {}: {err}", path.display()))
}

impl BlobStore for DirBlobStore {
    fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        let path = self.path_for(key)?;
        let parent = path.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(parent).map_err(|e| io_error("creating", parent, e))?;
        // One temporary file per write: jobs of one server write the same key from several
        // threads (two jobs indexing one repository), and a name shared between them let one
        // rename the other's half-written file into place, or find its own gone.
        static WRITES: AtomicU64 = AtomicU64::new(0);
        let tmp = path.with_extension(format!(
            "tmp{}-{}",
            std::process::id(),
            WRITES.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::write(&tmp, bytes).map_err(|e| io_error("writing", &tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| io_error("renaming into", &path, e))
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let path = self.path_for(key)?;
        match std::fs::read(&path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error("reading", &path, e)),
        }
    }

    fn delete(&self, key: &str) -> Result<(), StoreError> {
        let path = self.path_for(key)?;
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_error("deleting", &path, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers_of_one_key_on_many_threads_each_land_whole() {
        let dir = tempfile::tempdir().unwrap();
        let store = DirBlobStore::new(dir.path());
        let values: Vec<Vec<u8>> = (0..8u8).map(|i| vec![i; 256 * 1024]).collect();
        let (store, values) = (&store, &values);
        std::thread::scope(|scope| {
            for value in values {
                scope.spawn(move || {
                    for _ in 0..20 {
                        store.put("index/k/index.json", value).unwrap();
                        let read = store.get("index/k/index.json").unwrap().unwrap();
                        assert!(values.contains(&read), "a torn blob");
                    }
                });
            }
        });
        let last = store.get("index/k/index.json").unwrap().unwrap();
        assert!(values.contains(&last));
    }

    #[test]
    fn round_trips_and_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let store = DirBlobStore::new(dir.path());
        assert_eq!(store.get("index/k/index.json").unwrap(), None);
        store.put("index/k/index.json", b"one").unwrap();
        store.put("index/k/index.json", b"two").unwrap();
        assert_eq!(
            store.get("index/k/index.json").unwrap().as_deref(),
            Some(&b"two"[..])
        );
        store.delete("index/k/index.json").unwrap();
        assert_eq!(store.get("index/k/index.json").unwrap(), None);
        store.delete("index/k/index.json").unwrap();
    }

    #[test]
    fn rejects_keys_that_escape_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let store = DirBlobStore::new(dir.path().join("blobs"));
        for key in [
            "../outside",
            "/etc/passwd",
            "a/../../b",
            "a//b",
            "",
            "a\\b",
            "./a",
        ] {
            assert!(store.put(key, b"x").is_err(), "{key:?} accepted");
            assert!(store.get(key).is_err(), "{key:?} accepted");
        }
        assert!(!dir.path().join("outside").exists());
    }
}
