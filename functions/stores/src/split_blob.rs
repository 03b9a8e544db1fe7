//! [`SplitBlobStore`]: the index cache in one store, everything else in another.
//!
//! A one-shot `plan2code map` wants to reuse cached indexes across runs (`index/…` in the data
//! dir) but keep nothing of the job itself (its plan and intermediate results under `jobs/…`):
//! with the job blobs in a [`crate::MemoryBlobStore`], a finished run leaves nothing behind.

use plan2code_core::ports::{BlobStore, StoreError};
use std::sync::Arc;

/// Keys under `index/` go to `indexes`; every other key goes to `jobs`.
pub struct SplitBlobStore {
    indexes: Arc<dyn BlobStore>,
    jobs: Arc<dyn BlobStore>,
}

impl SplitBlobStore {
    pub fn new(indexes: Arc<dyn BlobStore>, jobs: Arc<dyn BlobStore>) -> Self {
        Self { indexes, jobs }
    }

    fn store_for(&self, key: &str) -> &dyn BlobStore {
        if key.starts_with("index/") {
            &*self.indexes
        } else {
            &*self.jobs
        }
    }
}

impl BlobStore for SplitBlobStore {
    fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.store_for(key).put(key, bytes)
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.store_for(key).get(key)
    }

    fn delete(&self, key: &str) -> Result<(), StoreError> {
        self.store_for(key).delete(key)
    }

    fn delete_all(&self, keys: &[String]) -> Result<(), StoreError> {
        let (indexes, jobs): (Vec<String>, Vec<String>) =
            keys.iter().cloned().partition(|k| k.starts_with("index/"));
        self.indexes.delete_all(&indexes)?;
        self.jobs.delete_all(&jobs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MemoryBlobStore;

    #[test]
    fn index_keys_and_job_keys_land_in_their_own_stores() {
        let (indexes, jobs) = (
            Arc::new(MemoryBlobStore::new()),
            Arc::new(MemoryBlobStore::new()),
        );
        let split = SplitBlobStore::new(indexes.clone(), jobs.clone());
        split.put("index/k/index.json", b"i").unwrap();
        split.put("jobs/j/plan.json", b"p").unwrap();
        assert_eq!(
            indexes.get("index/k/index.json").unwrap(),
            Some(b"i".to_vec())
        );
        assert_eq!(indexes.get("jobs/j/plan.json").unwrap(), None);
        assert_eq!(jobs.get("jobs/j/plan.json").unwrap(), Some(b"p".to_vec()));
        assert_eq!(split.get("jobs/j/plan.json").unwrap(), Some(b"p".to_vec()));
        split.delete("index/k/index.json").unwrap();
        assert_eq!(indexes.get("index/k/index.json").unwrap(), None);
    }
}
