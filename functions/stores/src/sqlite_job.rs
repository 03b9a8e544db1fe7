//! [`JobStore`] in one SQLite file: the local twin of the DynamoDB table.
//!
//! One table `items(pk, sk, …)` holds the same logical items as DynamoDB (`JOB#id`/`META`,
//! `NODE#dagNodeId`, `EVENT#<seq>`, `PAUSE#dagNodeId`, `CKPT#key`, `REPO#cacheKey`/`META`), so
//! the two implementations can be read side by side. The job item keeps its JSON document in
//! `body` and the counters `put_mapping` owns in integer columns, updated in the same
//! transaction as the mapping insert. WAL mode plus a busy timeout let several processes (a
//! killed runner and the one resuming it, the server and the CLI) share the file.

use crate::job_item::{JobCounters, event_sort_key};
use plan2code_core::clock::rfc3339_now;
use plan2code_core::contracts::{Event, EventType, Job, JobStatus, MappingOutput};
use plan2code_core::ports::{JobStore, MappingTally, RepoIndexRecord, StoreError};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS items (
    pk TEXT NOT NULL,
    sk TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT,
    owner TEXT,
    expires_at INTEGER,
    mapped INTEGER NOT NULL DEFAULT 0,
    confirmed INTEGER NOT NULL DEFAULT 0,
    probable INTEGER NOT NULL DEFAULT 0,
    unmapped INTEGER NOT NULL DEFAULT 0,
    stages_mapped INTEGER NOT NULL DEFAULT 0,
    event_seq INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (pk, sk)
);";
// A rowid table: its (pk, sk) key lives in a small index of its own. WITHOUT ROWID would keep
// whole rows in the key's b-tree, and a mapping's body (a few KB) spills onto overflow pages that
// every key comparison copies back: inserting an application's 40,000 mappings spent 40 % of its
// time there.

#[derive(Debug)]
pub struct SqliteJobStore {
    conn: Mutex<Connection>,
}

fn backend(err: rusqlite::Error) -> StoreError {
    StoreError::Backend(format!("sqlite: {err}"))
}

fn corrupt(what: &str, err: serde_json::Error) -> StoreError {
    StoreError::Corrupt(format!("{what}: {err}"))
}

/// SQLite integers are signed; our counters and timestamps never come near `i64::MAX`.
fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

fn uint(r: &rusqlite::Row<'_>, idx: usize) -> rusqlite::Result<u64> {
    Ok(u64::try_from(r.get::<_, i64>(idx)?).unwrap_or(0))
}

fn job_pk(id: &str) -> String {
    format!("JOB#{id}")
}

fn status_str(status: JobStatus) -> Result<String, StoreError> {
    match serde_json::to_value(status) {
        Ok(serde_json::Value::String(s)) => Ok(s),
        _ => Err(StoreError::Corrupt(format!("status {status:?}"))),
    }
}

fn parse_status(s: &str) -> Result<JobStatus, StoreError> {
    serde_json::from_value(serde_json::Value::String(s.to_owned()))
        .map_err(|e| corrupt("job status", e))
}

impl SqliteJobStore {
    /// Open (creating if needed) the store at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let conn = Connection::open(path.as_ref()).map_err(backend)?;
        Self::init(conn)
    }

    /// A private in-memory store (tests, one-shot CLI runs).
    pub fn in_memory() -> Result<Self, StoreError> {
        Self::init(Connection::open_in_memory().map_err(backend)?)
    }

    fn init(conn: Connection) -> Result<Self, StoreError> {
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(backend)?;
        // `journal_mode` answers with a row, so it is queried rather than executed.
        conn.query_row("PRAGMA journal_mode=WAL", [], |_| Ok(()))
            .map_err(backend)?;
        conn.execute_batch(SCHEMA).map_err(backend)?;
        Ok(Self {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // Every write is one transaction, so a panic elsewhere cannot leave it half-applied.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Checks the stored job may change: it exists and is not terminal.
    fn ensure_mutable(conn: &Connection, id: &str) -> Result<(), StoreError> {
        let status: Option<String> = conn
            .query_row(
                "SELECT status FROM items WHERE pk = ?1 AND sk = 'META'",
                [job_pk(id)],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)?;
        match status {
            None => Err(StoreError::NotFound(format!("job {id}"))),
            Some(s) if parse_status(&s)?.is_terminal() => {
                Err(StoreError::Conflict(format!("job {id} is already {s}")))
            }
            Some(_) => Ok(()),
        }
    }

    /// Read the live job, change it with `edit` and write it back in one transaction.
    /// `NotFound` for an unknown id, `Conflict` when the job is terminal.
    fn rewrite_job(&self, id: &str, edit: impl FnOnce(&mut Job)) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        Self::ensure_mutable(&tx, id)?;
        let body: String = tx
            .query_row(
                "SELECT body FROM items WHERE pk = ?1 AND sk = 'META'",
                [job_pk(id)],
                |r| r.get(0),
            )
            .map_err(backend)?;
        let mut job: Job = serde_json::from_str(&body).map_err(|e| corrupt("job", e))?;
        edit(&mut job);
        let body = serde_json::to_string(&job).map_err(|e| corrupt("job", e))?;
        tx.execute(
            "UPDATE items SET body = ?2, status = ?3 WHERE pk = ?1 AND sk = 'META'",
            params![job_pk(id), body, status_str(job.status)?],
        )
        .map_err(backend)?;
        tx.commit().map_err(backend)
    }
}

/// Inside `tx`: the node's mapping, once, counted in the job's statistics. `false`: it existed.
fn insert_mapping(
    tx: &rusqlite::Transaction<'_>,
    job_id: &str,
    mapping: &MappingOutput,
) -> Result<bool, StoreError> {
    let body = serde_json::to_string(mapping).map_err(|e| corrupt("mapping", e))?;
    let tally = MappingTally::of(mapping);
    let inserted = tx
        .execute(
            "INSERT OR IGNORE INTO items (pk, sk, body) VALUES (?1, ?2, ?3)",
            params![job_pk(job_id), format!("NODE#{}", mapping.node_key()), body],
        )
        .map_err(backend)?;
    if inserted == 0 {
        return Ok(false);
    }
    let counted = tx
        .execute(
            "UPDATE items SET mapped = mapped + ?2, confirmed = confirmed + ?3, probable = probable + ?4,
             unmapped = unmapped + ?5, stages_mapped = stages_mapped + 1 WHERE pk = ?1 AND sk = 'META'",
            params![
                job_pk(job_id),
                int(tally.mapped),
                int(tally.confirmed),
                int(tally.probable),
                int(tally.unmapped)
            ],
        )
        .map_err(backend)?;
    if counted == 0 {
        return Err(StoreError::NotFound(format!("job {job_id}")));
    }
    Ok(true)
}

/// Inside `tx`: the job's next event.
fn insert_event(
    tx: &rusqlite::Transaction<'_>,
    job_id: &str,
    event_type: EventType,
    data: serde_json::Value,
) -> Result<Event, StoreError> {
    let seq: Option<u64> = tx
        .query_row(
            "UPDATE items SET event_seq = event_seq + 1 WHERE pk = ?1 AND sk = 'META' RETURNING event_seq",
            [job_pk(job_id)],
            |r| uint(r, 0),
        )
        .optional()
        .map_err(backend)?;
    let Some(seq) = seq else {
        return Err(StoreError::NotFound(format!("job {job_id}")));
    };
    let event = Event {
        event_type,
        timestamp: rfc3339_now(),
        seq,
        data,
    };
    let body = serde_json::to_string(&event).map_err(|e| corrupt("event", e))?;
    tx.execute(
        "INSERT INTO items (pk, sk, body) VALUES (?1, ?2, ?3)",
        params![job_pk(job_id), event_sort_key(seq), body],
    )
    .map_err(backend)?;
    Ok(event)
}

impl JobStore for SqliteJobStore {
    fn create_job(&self, job: &Job, owner: &str) -> Result<(), StoreError> {
        let body = serde_json::to_string(job).map_err(|e| corrupt("job", e))?;
        let inserted = self
            .conn()
            .execute(
                "INSERT OR IGNORE INTO items (pk, sk, body, status, owner) VALUES (?1, 'META', ?2, ?3, ?4)",
                params![job_pk(&job.id), body, status_str(job.status)?, owner],
            )
            .map_err(backend)?;
        if inserted == 0 {
            return Err(StoreError::Conflict(format!("job {} exists", job.id)));
        }
        Ok(())
    }

    fn jobs_of(&self, owner: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut statement = conn
            .prepare(
                "SELECT pk FROM items WHERE sk = 'META' AND owner = ?1 ORDER BY pk DESC LIMIT ?2",
            )
            .map_err(backend)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        statement
            .query_map(params![owner, limit], |r| r.get::<_, String>(0))
            .map_err(backend)?
            .map(|pk| {
                pk.map_err(backend)
                    .map(|pk| pk.trim_start_matches("JOB#").to_owned())
            })
            .collect()
    }

    fn get_job(&self, id: &str) -> Result<Option<Job>, StoreError> {
        let row = self
            .conn()
            .query_row(
                "SELECT body, mapped, confirmed, probable, unmapped, stages_mapped FROM items WHERE pk = ?1 AND sk = 'META'",
                [job_pk(id)],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        JobCounters {
                            tally: MappingTally {
                                mapped: uint(r, 1)?,
                                confirmed: uint(r, 2)?,
                                probable: uint(r, 3)?,
                                unmapped: uint(r, 4)?,
                            },
                            stages_mapped: uint(r, 5)?,
                        },
                    ))
                },
            )
            .optional()
            .map_err(backend)?;
        let Some((body, counters)) = row else {
            return Ok(None);
        };
        let job: Job = serde_json::from_str(&body).map_err(|e| corrupt("job", e))?;
        Ok(Some(counters.apply(job)))
    }

    fn job_owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        self.conn()
            .query_row(
                "SELECT owner FROM items WHERE pk = ?1 AND sk = 'META'",
                [job_pk(id)],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)
    }

    fn unfinished_jobs(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut statement = conn
            .prepare(
                "SELECT pk FROM items WHERE sk = 'META' AND pk LIKE 'JOB#%' \
                 AND status IN ('queued', 'running', 'paused') ORDER BY pk",
            )
            .map_err(backend)?;
        let ids = statement
            .query_map([], |row| row.get::<_, String>(0))
            .map_err(backend)?
            .map(|pk| pk.map(|pk| pk.trim_start_matches("JOB#").to_owned()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)?;
        Ok(ids)
    }

    fn put_job(&self, job: &Job) -> Result<(), StoreError> {
        // The status belongs to the flags (set_job_status): a pause that lands while a task holds
        // an older copy of the job must survive the task's write.
        self.rewrite_job(&job.id, |stored| {
            let status = stored.status;
            *stored = job.clone();
            stored.status = status;
        })
    }

    fn set_job_status(
        &self,
        id: &str,
        status: JobStatus,
        error: Option<&str>,
    ) -> Result<(), StoreError> {
        self.rewrite_job(id, |job| {
            job.status = status;
            if let Some(error) = error {
                job.error = Some(error.to_owned());
            }
        })
    }

    fn put_mapping(&self, job_id: &str, mapping: &MappingOutput) -> Result<bool, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let written = insert_mapping(&tx, job_id, mapping)?;
        tx.commit().map_err(backend)?;
        Ok(written)
    }

    fn put_mapping_announced(
        &self,
        job_id: &str,
        mapping: &MappingOutput,
        event_type: EventType,
        data: serde_json::Value,
    ) -> Result<Option<Event>, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        if !insert_mapping(&tx, job_id, mapping)? {
            return Ok(None);
        }
        let event = insert_event(&tx, job_id, event_type, data)?;
        tx.commit().map_err(backend)?;
        Ok(Some(event))
    }

    fn get_mapping(
        &self,
        job_id: &str,
        node_key: &str,
    ) -> Result<Option<MappingOutput>, StoreError> {
        let body: Option<String> = self
            .conn()
            .query_row(
                "SELECT body FROM items WHERE pk = ?1 AND sk = ?2",
                params![job_pk(job_id), format!("NODE#{node_key}")],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)?;
        body.map(|b| serde_json::from_str(&b).map_err(|e| corrupt("mapping", e)))
            .transpose()
    }

    fn mappings(&self, job_id: &str) -> Result<Vec<MappingOutput>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT body FROM items WHERE pk = ?1 AND sk LIKE 'NODE#%' ORDER BY sk")
            .map_err(backend)?;
        let bodies = stmt
            .query_map([job_pk(job_id)], |r| r.get::<_, String>(0))
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)?;
        bodies
            .iter()
            .map(|b| serde_json::from_str(b).map_err(|e| corrupt("mapping", e)))
            .collect()
    }

    fn append_event(
        &self,
        job_id: &str,
        event_type: EventType,
        data: serde_json::Value,
    ) -> Result<Event, StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(backend)?;
        let event = insert_event(&tx, job_id, event_type, data)?;
        tx.commit().map_err(backend)?;
        Ok(event)
    }

    fn events_after(
        &self,
        job_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT body FROM items WHERE pk = ?1 AND sk > ?2 AND sk LIKE 'EVENT#%' ORDER BY sk LIMIT ?3",
            )
            .map_err(backend)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let bodies = stmt
            .query_map(params![job_pk(job_id), event_sort_key(after), limit], |r| {
                r.get::<_, String>(0)
            })
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)?;
        bodies
            .iter()
            .map(|b| serde_json::from_str(b).map_err(|e| corrupt("event", e)))
            .collect()
    }

    fn park_token(&self, job_id: &str, dag_node_id: &str, token: &str) -> Result<(), StoreError> {
        self.conn()
            .execute(
                "INSERT OR REPLACE INTO items (pk, sk, body) VALUES (?1, ?2, ?3)",
                params![job_pk(job_id), format!("PAUSE#{dag_node_id}"), token],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn take_tokens(&self, job_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("DELETE FROM items WHERE pk = ?1 AND sk LIKE 'PAUSE#%' RETURNING sk, body")
            .map_err(backend)?;
        let mut taken = stmt
            .query_map([job_pk(job_id)], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)?;
        taken.sort();
        Ok(taken
            .into_iter()
            .map(|(sk, token)| (sk.trim_start_matches("PAUSE#").to_owned(), token))
            .collect())
    }

    fn put_checkpoint(
        &self,
        job_id: &str,
        key: &str,
        value: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let body = serde_json::to_string(value).map_err(|e| corrupt("checkpoint", e))?;
        self.conn()
            .execute(
                "INSERT OR REPLACE INTO items (pk, sk, body) VALUES (?1, ?2, ?3)",
                params![job_pk(job_id), format!("CKPT#{key}"), body],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn checkpoints(&self, job_id: &str) -> Result<Vec<(String, serde_json::Value)>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT sk, body FROM items WHERE pk = ?1 AND sk LIKE 'CKPT#%' ORDER BY sk")
            .map_err(backend)?;
        let rows = stmt
            .query_map([job_pk(job_id)], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(backend)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(backend)?;
        rows.into_iter()
            .map(|(sk, body)| {
                let value = serde_json::from_str(&body).map_err(|e| corrupt("checkpoint", e))?;
                Ok((sk.trim_start_matches("CKPT#").to_owned(), value))
            })
            .collect()
    }

    fn put_repo_index(&self, record: &RepoIndexRecord) -> Result<(), StoreError> {
        let body = serde_json::to_string(record).map_err(|e| corrupt("repo index", e))?;
        self.conn()
            .execute(
                "INSERT OR REPLACE INTO items (pk, sk, body, expires_at) VALUES (?1, 'META', ?2, ?3)",
                params![format!("REPO#{}", record.cache_key), body, int(record.expires_at)],
            )
            .map_err(backend)?;
        Ok(())
    }

    fn get_repo_index(
        &self,
        cache_key: &str,
        now: u64,
    ) -> Result<Option<RepoIndexRecord>, StoreError> {
        let body: Option<String> = self
            .conn()
            .query_row(
                "SELECT body FROM items WHERE pk = ?1 AND sk = 'META' AND expires_at > ?2",
                params![format!("REPO#{cache_key}"), int(now)],
                |r| r.get(0),
            )
            .optional()
            .map_err(backend)?;
        body.map(|b| serde_json::from_str(&b).map_err(|e| corrupt("repo index", e)))
            .transpose()
    }
}
