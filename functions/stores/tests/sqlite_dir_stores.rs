//! The shared store suite against the local pair: SQLite file + blob directory.

mod suite;

use plan2code_stores::{DirBlobStore, SqliteJobStore};

fn jobs() -> Option<Box<SqliteJobStore>> {
    // Leak the temp dir for the test's lifetime: the store holds the file open.
    let dir = tempfile::tempdir().ok()?.keep();
    Some(Box::new(
        SqliteJobStore::open(dir.join("jobs.sqlite")).ok()?,
    ))
}

fn blobs() -> Option<Box<DirBlobStore>> {
    Some(Box::new(DirBlobStore::new(
        tempfile::tempdir().ok()?.keep(),
    )))
}

store_suite!(jobs(), blobs());

#[test]
fn a_second_process_handle_sees_the_same_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("jobs.sqlite");
    let first = SqliteJobStore::open(&path).unwrap();
    let id = suite::fresh_id("shared");
    plan2code_core::ports::JobStore::create_job(&first, &suite::job(&id, 2), "alice").unwrap();
    let second = SqliteJobStore::open(&path).unwrap();
    let got = plan2code_core::ports::JobStore::get_job(&second, &id).unwrap();
    assert_eq!(got.map(|j| j.progress.total_stages), Some(2));
}
