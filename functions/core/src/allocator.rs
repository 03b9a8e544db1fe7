//! mimalloc as the process allocator, for Rust and for tree-sitter's C core alike.
//!
//! Indexing allocates at a high rate: tree-sitter `malloc`s every subtree and parse-stack node
//! (and frees them all again when the tree is dropped), and extraction builds many short
//! strings and vectors. glibc's `malloc`/`free` were about 9% of indexing CPU time on
//! delta-io/delta (26.5 MB of Scala/Java/Python). With mimalloc behind both Rust and
//! tree-sitter the same index takes ~7% fewer instructions (callgrind), and the index_speed
//! bench (best of 4, quiet machine) went from 5.2 to 5.6 MB per CPU-second on one thread and
//! from 4.9 to 5.6 on two — glibc's per-thread arenas made the second core cost extra, mimalloc
//! does not.
//!
//! This is the one place the allocator is chosen: with the default `mimalloc` feature every
//! binary linking this crate (CLI, lambdas, benches, tests) gets it; without the feature both
//! Rust and tree-sitter keep the system allocator.

/// Rust's allocations.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Route tree-sitter's C allocations to mimalloc too. Idempotent and thread-safe.
///
/// tree-sitter requires the allocator to be set before any of its objects exists, since a tree
/// allocated by one allocator must not be freed by another. The indexer calls this before it
/// creates its first parser; any other code that creates tree-sitter parsers must call it first
/// as well.
pub fn install_tree_sitter_allocator() {
    #[cfg(feature = "mimalloc")]
    {
        static INSTALL: std::sync::Once = std::sync::Once::new();
        INSTALL.call_once(|| {
            let allocator = tree_sitter::Allocator {
                malloc: ts_malloc,
                calloc: ts_calloc,
                realloc: ts_realloc,
                free: ts_free,
            };
            // SAFETY: the four functions are one allocator family (mimalloc), return
            // malloc-aligned memory and never null for a non-zero size (they abort instead, as
            // tree-sitter's default allocator does); `Once` makes this the only call, and it
            // runs before the first parser exists (see above).
            unsafe { tree_sitter::set_allocator(Some(allocator)) };
        });
    }
}

#[cfg(feature = "mimalloc")]
mod mi {
    use libmimalloc_sys::{mi_free, mi_malloc, mi_realloc, mi_zalloc};
    use std::ffi::c_void;

    /// tree-sitter's own allocator aborts when memory runs out; so do these.
    fn non_null(ptr: *mut c_void, size: usize) -> *mut c_void {
        if ptr.is_null() && size != 0 {
            std::process::abort();
        }
        ptr
    }

    pub unsafe extern "C" fn ts_malloc(size: usize) -> *mut c_void {
        non_null(unsafe { mi_malloc(size) }, size)
    }

    pub unsafe extern "C" fn ts_calloc(count: usize, size: usize) -> *mut c_void {
        let Some(total) = count.checked_mul(size) else {
            std::process::abort();
        };
        non_null(unsafe { mi_zalloc(total) }, total)
    }

    pub unsafe extern "C" fn ts_realloc(ptr: *mut c_void, size: usize) -> *mut c_void {
        non_null(unsafe { mi_realloc(ptr, size) }, size)
    }

    pub unsafe extern "C" fn ts_free(ptr: *mut c_void) {
        unsafe { mi_free(ptr) }
    }
}

#[cfg(feature = "mimalloc")]
use mi::{ts_calloc, ts_free, ts_malloc, ts_realloc};
