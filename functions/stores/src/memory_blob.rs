//! [`BlobStore`] in memory, for tests and one-shot runs that persist nothing.

use plan2code_core::ports::{BlobStore, StoreError};
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Debug, Default)]
pub struct MemoryBlobStore {
    blobs: Mutex<HashMap<String, Vec<u8>>>,
}

impl MemoryBlobStore {
    pub fn new() -> Self {
        Self::default()
    }

    fn blobs(&self) -> std::sync::MutexGuard<'_, HashMap<String, Vec<u8>>> {
        // A panic while holding the lock cannot leave a map half-updated, so poisoning is moot.
        self.blobs.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl BlobStore for MemoryBlobStore {
    fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.blobs().insert(key.to_owned(), bytes.to_vec());
        Ok(())
    }

    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.blobs().get(key).cloned())
    }

    fn delete(&self, key: &str) -> Result<(), StoreError> {
        self.blobs().remove(key);
        Ok(())
    }
}
