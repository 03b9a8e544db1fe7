//! [`JobStore`] on one DynamoDB table (`PK`, `SK` strings), the layout of docs/ARCHITECTURE.md:
//!
//! | PK | SK | attributes |
//! |---|---|---|
//! | `JOB#id` | `META` | `doc` (job JSON), `status`, `owner`, counters `mapped` `confirmed` `probable` `unmapped` `stagesMapped`, `eventSeq` |
//! | `JOB#id` | `NODE#dagNodeId` | `doc` (MappingOutput JSON) |
//! | `JOB#id` | `EVENT#<20-digit seq>` | `doc` (Event JSON) |
//! | `JOB#id` | `PAUSE#dagNodeId` | `token` |
//! | `JOB#id` | `CKPT#key` | `doc` (runner checkpoint) |
//! | `REPO#cacheKey` | `META` | `doc` (RepoIndexRecord JSON), `expiresAt` (the table's TTL attribute) |
//! | `OWNER#caller` | `JOB#id` | — (the caller's job list, `jobs_of`) |
//!
//! Atomicity: `put_mapping` is one transaction (conditional put of `NODE#` + counter `ADD` on
//! `META`), so a retried FinalMapping neither rewrites nor recounts. `append_event` is one
//! transaction too (bump `eventSeq` from the value just read + put `EVENT#seq`), retried on
//! contention: seqs are gapless and an event is visible only after every smaller one, so a
//! reader resuming after seq N never misses one. TTL deletion is lazy, so reads of repo records
//! also check `expiresAt`.

use super::{AwsBridge, sdk_error};
use crate::job_item::{JobCounters, event_sort_key};
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType, Put,
    ScalarAttributeType, TimeToLiveSpecification, TransactWriteItem, Update,
};
use plan2code_core::clock::rfc3339_now;
use plan2code_core::contracts::{Event, EventType, Job, JobStatus, MappingOutput};
use plan2code_core::ports::{JobStore, MappingTally, RepoIndexRecord, StoreError};
use std::collections::HashMap;
use std::sync::Arc;

type Item = HashMap<String, AttributeValue>;

const TERMINAL: [&str; 3] = ["completed", "failed", "cancelled"];
/// Attempts at an optimistic event append before giving up.
const EVENT_APPEND_ATTEMPTS: u32 = 50;

#[derive(Debug, Clone)]
pub struct DynamoJobStore {
    bridge: Arc<AwsBridge>,
    client: Client,
    table: String,
}

fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

fn n(v: u64) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

fn job_pk(id: &str) -> AttributeValue {
    s(format!("JOB#{id}"))
}

fn owner_pk(owner: &str) -> AttributeValue {
    s(format!("OWNER#{owner}"))
}

fn key(pk: AttributeValue, sk: impl Into<String>) -> Item {
    HashMap::from([("PK".to_owned(), pk), ("SK".to_owned(), s(sk))])
}

fn get_s<'a>(item: &'a Item, name: &str) -> Result<&'a str, StoreError> {
    match item.get(name) {
        Some(AttributeValue::S(v)) => Ok(v),
        _ => Err(StoreError::Corrupt(format!("item lacks string `{name}`"))),
    }
}

fn get_n(item: &Item, name: &str) -> u64 {
    match item.get(name) {
        Some(AttributeValue::N(v)) => v.parse().unwrap_or(0),
        _ => 0,
    }
}

fn doc<T: serde::de::DeserializeOwned>(item: &Item, what: &str) -> Result<T, StoreError> {
    serde_json::from_str(get_s(item, "doc")?)
        .map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn to_json<T: serde::Serialize>(value: &T, what: &str) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn status_str(status: JobStatus) -> String {
    match serde_json::to_value(status) {
        Ok(serde_json::Value::String(s)) => s,
        _ => format!("{status:?}").to_lowercase(),
    }
}

/// The `(i)`-th cancellation reason of a failed transaction was a failed condition.
fn condition_failed<R>(
    err: &aws_sdk_dynamodb::error::SdkError<
        aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError,
        R,
    >,
    i: usize,
) -> bool {
    err.as_service_error()
        .and_then(|e| match e {
            aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError::TransactionCanceledException(c) => {
                c.cancellation_reasons().get(i).and_then(|r| r.code()).map(|code| code == "ConditionalCheckFailed")
            }
            _ => None,
        })
        .unwrap_or(false)
}

impl DynamoJobStore {
    pub fn new(
        bridge: Arc<AwsBridge>,
        config: &aws_config::SdkConfig,
        table: impl Into<String>,
    ) -> Self {
        Self {
            bridge,
            client: Client::new(config),
            table: table.into(),
        }
    }

    /// Create the table (PK/SK strings, on-demand, TTL on `expiresAt`) if it does not exist:
    /// local emulation and tests; SAM creates it on AWS.
    pub fn create_table_if_missing(&self) -> Result<(), StoreError> {
        let (client, table) = (self.client.clone(), self.table.clone());
        self.bridge.run(async move {
            if client
                .describe_table()
                .table_name(&table)
                .send()
                .await
                .is_ok()
            {
                return Ok(());
            }
            let attr = |name: &str| {
                AttributeDefinition::builder()
                    .attribute_name(name)
                    .attribute_type(ScalarAttributeType::S)
                    .build()
            };
            let key = |name: &str, kind| {
                KeySchemaElement::builder()
                    .attribute_name(name)
                    .key_type(kind)
                    .build()
            };
            let created = client
                .create_table()
                .table_name(&table)
                .billing_mode(BillingMode::PayPerRequest)
                .attribute_definitions(attr("PK").map_err(|e| sdk_error("table schema", e))?)
                .attribute_definitions(attr("SK").map_err(|e| sdk_error("table schema", e))?)
                .key_schema(key("PK", KeyType::Hash).map_err(|e| sdk_error("table schema", e))?)
                .key_schema(key("SK", KeyType::Range).map_err(|e| sdk_error("table schema", e))?)
                .send()
                .await;
            if let Err(e) = created {
                // Another process may have created it in the meantime.
                if client
                    .describe_table()
                    .table_name(&table)
                    .send()
                    .await
                    .is_ok()
                {
                    return Ok(());
                }
                return Err(sdk_error("creating table", e));
            }
            let ttl = TimeToLiveSpecification::builder()
                .attribute_name("expiresAt")
                .enabled(true)
                .build()
                .map_err(|e| sdk_error("ttl spec", e))?;
            client
                .update_time_to_live()
                .table_name(&table)
                .time_to_live_specification(ttl)
                .send()
                .await
                .map_err(|e| sdk_error("enabling TTL", e))?;
            Ok(())
        })?
    }

    fn get_item(&self, key: Item) -> Result<Option<Item>, StoreError> {
        let request = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key))
            .consistent_read(true);
        self.bridge.run(async move {
            request
                .send()
                .await
                .map(|o| o.item)
                .map_err(|e| sdk_error("GetItem", e))
        })?
    }

    fn put_item(&self, item: Item) -> Result<(), StoreError> {
        let request = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item));
        self.bridge.run(async move {
            request
                .send()
                .await
                .map(|_| ())
                .map_err(|e| sdk_error("PutItem", e))
        })?
    }

    /// Every item of `pk` whose sort key lies in `[from, to]`, in order, at most `limit`.
    fn query_range(
        &self,
        pk: AttributeValue,
        from: String,
        to: String,
        limit: usize,
    ) -> Result<Vec<Item>, StoreError> {
        let (client, table) = (self.client.clone(), self.table.clone());
        self.bridge.run(async move {
            let mut items = Vec::new();
            let mut start: Option<Item> = None;
            loop {
                let page = client
                    .query()
                    .table_name(&table)
                    .consistent_read(true)
                    .key_condition_expression("PK = :pk AND SK BETWEEN :from AND :to")
                    .expression_attribute_values(":pk", pk.clone())
                    .expression_attribute_values(":from", s(from.clone()))
                    .expression_attribute_values(":to", s(to.clone()))
                    .set_exclusive_start_key(start.take())
                    .send()
                    .await
                    .map_err(|e| sdk_error("Query", e))?;
                items.extend(page.items.unwrap_or_default());
                if items.len() >= limit {
                    items.truncate(limit);
                    return Ok(items);
                }
                match page.last_evaluated_key {
                    Some(next) if !next.is_empty() => start = Some(next),
                    _ => return Ok(items),
                }
            }
        })?
    }

    /// Items of `pk` whose sort key starts with `prefix` (`NODE#`, `CKPT#`, …).
    fn query_prefix(&self, pk: AttributeValue, prefix: &str) -> Result<Vec<Item>, StoreError> {
        // `#` + U+10FFFF sorts after any key with this prefix.
        self.query_range(
            pk,
            prefix.to_owned(),
            format!("{prefix}\u{10FFFF}"),
            usize::MAX,
        )
    }

    /// Read the live job, change it with `edit`, and write the document and its status back,
    /// guarded on the status just read so a concurrent change is never overwritten with a stale
    /// document. `Conflict` when the job is terminal.
    fn rewrite_job(&self, id: &str, edit: impl Fn(&mut Job)) -> Result<(), StoreError> {
        for _ in 0..EVENT_APPEND_ATTEMPTS {
            let item = self
                .get_item(key(job_pk(id), "META"))?
                .ok_or_else(|| StoreError::NotFound(format!("job {id}")))?;
            let current = get_s(&item, "status")?.to_owned();
            if TERMINAL.contains(&current.as_str()) {
                return Err(StoreError::Conflict(format!(
                    "job {id} is already {current}"
                )));
            }
            let mut job: Job = doc(&item, "job")?;
            edit(&mut job);
            let request = self
                .client
                .update_item()
                .table_name(&self.table)
                .set_key(Some(key(job_pk(id), "META")))
                .update_expression("SET doc = :doc, #status = :status")
                .condition_expression("#status = :current")
                .expression_attribute_names("#status", "status")
                .expression_attribute_values(":doc", s(to_json(&job, "job")?))
                .expression_attribute_values(":status", s(status_str(job.status)))
                .expression_attribute_values(":current", s(current));
            match self.bridge.run(async move { request.send().await })? {
                Ok(_) => return Ok(()),
                Err(e)
                    if e.as_service_error()
                        .is_some_and(|s| s.is_conditional_check_failed_exception()) =>
                {
                    continue;
                }
                Err(e) => return Err(sdk_error("UpdateItem", e)),
            }
        }
        Err(StoreError::Backend(format!(
            "job {id}: status kept changing under contention"
        )))
    }

    /// The job's last event seq (`NotFound` without the job).
    fn event_seq(&self, job_id: &str) -> Result<u64, StoreError> {
        let meta = self
            .get_item(key(job_pk(job_id), "META"))?
            .ok_or_else(|| StoreError::NotFound(format!("job {job_id}")))?;
        Ok(get_n(&meta, "eventSeq"))
    }

    /// The node's mapping item, written only if absent.
    fn mapping_put(&self, job_id: &str, mapping: &MappingOutput) -> Result<Put, StoreError> {
        let mut node = key(job_pk(job_id), format!("NODE#{}", mapping.node_key()));
        node.insert("doc".into(), s(to_json(mapping, "mapping")?));
        Put::builder()
            .table_name(&self.table)
            .set_item(Some(node))
            .condition_expression("attribute_not_exists(PK)")
            .build()
            .map_err(|e| sdk_error("mapping put", e))
    }

    /// The mapping's counts on META; with `event_after`, also the event seq moved past it (on
    /// the condition that nobody moved it since it was read).
    fn mapping_count(
        &self,
        job_id: &str,
        mapping: &MappingOutput,
        event_after: Option<u64>,
    ) -> aws_sdk_dynamodb::types::builders::UpdateBuilder {
        let tally = MappingTally::of(mapping);
        let counts = "ADD mapped :m, confirmed :c, probable :p, unmapped :u, stagesMapped :one";
        let update = Update::builder()
            .table_name(&self.table)
            .set_key(Some(key(job_pk(job_id), "META")))
            .expression_attribute_values(":m", n(tally.mapped))
            .expression_attribute_values(":c", n(tally.confirmed))
            .expression_attribute_values(":p", n(tally.probable))
            .expression_attribute_values(":u", n(tally.unmapped))
            .expression_attribute_values(":one", n(1));
        match event_after {
            None => update.update_expression(counts),
            Some(current) => update
                .update_expression(format!("{counts} SET eventSeq = :next"))
                .condition_expression("eventSeq = :current")
                .expression_attribute_values(":next", n(current + 1))
                .expression_attribute_values(":current", n(current)),
        }
    }

    /// The event's item, never overwriting one (even if a seq condition were ever bypassed).
    fn event_put(&self, job_id: &str, event: &Event) -> Result<Put, StoreError> {
        let mut item = key(job_pk(job_id), event_sort_key(event.seq));
        item.insert("doc".into(), s(to_json(event, "event")?));
        Put::builder()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK)")
            .build()
            .map_err(|e| sdk_error("event put", e))
    }
}

impl JobStore for DynamoJobStore {
    fn create_job(&self, job: &Job, owner: &str) -> Result<(), StoreError> {
        let mut item = key(job_pk(&job.id), "META");
        item.insert("doc".into(), s(to_json(job, "job")?));
        item.insert("status".into(), s(status_str(job.status)));
        item.insert("owner".into(), s(owner));
        for counter in [
            "mapped",
            "confirmed",
            "probable",
            "unmapped",
            "stagesMapped",
            "eventSeq",
        ] {
            item.insert(counter.into(), n(0));
        }
        let request = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK)");
        match self.bridge.run(async move { request.send().await })? {
            Ok(_) => {
                // The owner's list (`OWNER#<owner>`, one item a job): a job whose entry a
                // crash lost is still reachable by id, only not listed.
                let entry = key(owner_pk(owner), format!("JOB#{}", job.id));
                let request = self
                    .client
                    .put_item()
                    .table_name(&self.table)
                    .set_item(Some(entry));
                self.bridge
                    .run(async move { request.send().await })?
                    .map_err(|e| sdk_error("PutItem", e))?;
                Ok(())
            }
            Err(e)
                if e.as_service_error()
                    .is_some_and(|s| s.is_conditional_check_failed_exception()) =>
            {
                Err(StoreError::Conflict(format!("job {} exists", job.id)))
            }
            Err(e) => Err(sdk_error("PutItem", e)),
        }
    }

    fn jobs_of(&self, owner: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let mut ids: Vec<String> = self
            .query_prefix(owner_pk(owner), "JOB#")?
            .iter()
            .filter_map(|item| get_s(item, "SK").ok())
            .map(|sk| sk.trim_start_matches("JOB#").to_owned())
            .collect();
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids.truncate(limit);
        Ok(ids)
    }

    fn get_job(&self, id: &str) -> Result<Option<Job>, StoreError> {
        let Some(item) = self.get_item(key(job_pk(id), "META"))? else {
            return Ok(None);
        };
        let job: Job = doc(&item, "job")?;
        let counters = JobCounters {
            tally: MappingTally {
                mapped: get_n(&item, "mapped"),
                confirmed: get_n(&item, "confirmed"),
                probable: get_n(&item, "probable"),
                unmapped: get_n(&item, "unmapped"),
            },
            stages_mapped: get_n(&item, "stagesMapped"),
        };
        Ok(Some(counters.apply(job)))
    }

    fn job_owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .get_item(key(job_pk(id), "META"))?
            .and_then(|item| get_s(&item, "owner").ok().map(str::to_owned)))
    }

    fn unfinished_jobs(&self) -> Result<Vec<String>, StoreError> {
        // A scan: only a restarted *local* server asks this (on AWS, Step Functions keeps
        // executions alive), and the emulator-backed suite checks it agrees with SQLite.
        let mut ids = Vec::new();
        let mut start: Option<Item> = None;
        loop {
            let request = self
                .client
                .scan()
                .table_name(&self.table)
                .consistent_read(true)
                .filter_expression("SK = :meta AND #status IN (:q, :r, :p)")
                .expression_attribute_names("#status", "status")
                .expression_attribute_values(":meta", s("META"))
                .expression_attribute_values(":q", s("queued"))
                .expression_attribute_values(":r", s("running"))
                .expression_attribute_values(":p", s("paused"))
                .set_exclusive_start_key(start.take());
            let page = self
                .bridge
                .run(async move { request.send().await.map_err(|e| sdk_error("Scan", e)) })??;
            for item in page.items() {
                if let Some(id) = get_s(item, "PK")?.strip_prefix("JOB#") {
                    ids.push(id.to_owned());
                }
            }
            match page.last_evaluated_key {
                Some(key) if !key.is_empty() => start = Some(key),
                _ => break,
            }
        }
        ids.sort();
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
        let put = self.mapping_put(job_id, mapping)?;
        let count = self
            .mapping_count(job_id, mapping, None)
            .condition_expression("attribute_exists(PK)")
            .build()
            .map_err(|e| sdk_error("mapping count", e))?;
        let request = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().put(put).build())
            .transact_items(TransactWriteItem::builder().update(count).build());
        match self.bridge.run(async move { request.send().await })? {
            Ok(_) => Ok(true),
            Err(e) if condition_failed(&e, 0) => Ok(false),
            Err(e) if condition_failed(&e, 1) => Err(StoreError::NotFound(format!("job {job_id}"))),
            Err(e) => Err(sdk_error("TransactWriteItems (mapping)", e)),
        }
    }

    /// One transaction: the mapping (if new), its counts and the event's seq on META, the event.
    fn put_mapping_announced(
        &self,
        job_id: &str,
        mapping: &MappingOutput,
        event_type: EventType,
        data: serde_json::Value,
    ) -> Result<Option<Event>, StoreError> {
        for attempt in 0..EVENT_APPEND_ATTEMPTS {
            let current = self.event_seq(job_id)?;
            let event = Event {
                event_type,
                timestamp: rfc3339_now(),
                seq: current + 1,
                data: data.clone(),
            };
            let put = self.mapping_put(job_id, mapping)?;
            let count = self
                .mapping_count(job_id, mapping, Some(current))
                .build()
                .map_err(|e| sdk_error("mapping count", e))?;
            let request = self
                .client
                .transact_write_items()
                .transact_items(TransactWriteItem::builder().put(put).build())
                .transact_items(TransactWriteItem::builder().update(count).build())
                .transact_items(
                    TransactWriteItem::builder()
                        .put(self.event_put(job_id, &event)?)
                        .build(),
                );
            match self.bridge.run(async move { request.send().await })? {
                Ok(_) => return Ok(Some(event)),
                Err(e) if condition_failed(&e, 0) => return Ok(None),
                // Another writer took this seq: back off a little and read again.
                Err(e)
                    if e.as_service_error()
                        .is_some_and(|s| s.is_transaction_canceled_exception()) =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(
                        u64::from(attempt % 8) * 5,
                    ));
                }
                Err(e) => return Err(sdk_error("TransactWriteItems (mapping, event)", e)),
            }
        }
        Err(StoreError::Backend(format!(
            "job {job_id}: event append kept losing to other writers"
        )))
    }

    fn get_mapping(
        &self,
        job_id: &str,
        node_key: &str,
    ) -> Result<Option<MappingOutput>, StoreError> {
        self.get_item(key(job_pk(job_id), format!("NODE#{node_key}")))?
            .map(|item| doc(&item, "mapping"))
            .transpose()
    }

    fn mappings(&self, job_id: &str) -> Result<Vec<MappingOutput>, StoreError> {
        self.query_prefix(job_pk(job_id), "NODE#")?
            .iter()
            .map(|item| doc(item, "mapping"))
            .collect()
    }

    fn append_event(
        &self,
        job_id: &str,
        event_type: EventType,
        data: serde_json::Value,
    ) -> Result<Event, StoreError> {
        for attempt in 0..EVENT_APPEND_ATTEMPTS {
            let current = self.event_seq(job_id)?;
            let event = Event {
                event_type,
                timestamp: rfc3339_now(),
                seq: current + 1,
                data: data.clone(),
            };
            let bump = Update::builder()
                .table_name(&self.table)
                .set_key(Some(key(job_pk(job_id), "META")))
                .update_expression("SET eventSeq = :next")
                .condition_expression("eventSeq = :current")
                .expression_attribute_values(":next", n(event.seq))
                .expression_attribute_values(":current", n(current))
                .build()
                .map_err(|e| sdk_error("event seq", e))?;
            let request = self
                .client
                .transact_write_items()
                .transact_items(TransactWriteItem::builder().update(bump).build())
                .transact_items(
                    TransactWriteItem::builder()
                        .put(self.event_put(job_id, &event)?)
                        .build(),
                );
            match self.bridge.run(async move { request.send().await })? {
                Ok(_) => return Ok(event),
                // A failed `eventSeq` condition or a conflicting concurrent transaction.
                Err(e)
                    if e.as_service_error()
                        .is_some_and(|s| s.is_transaction_canceled_exception()) =>
                {
                    // Another writer took this seq: back off a little and read again.
                    std::thread::sleep(std::time::Duration::from_millis(
                        u64::from(attempt % 8) * 5,
                    ));
                }
                Err(e) => return Err(sdk_error("TransactWriteItems (event)", e)),
            }
        }
        Err(StoreError::Backend(format!(
            "job {job_id}: event append kept losing to other writers"
        )))
    }

    fn events_after(
        &self,
        job_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let from = event_sort_key(after.saturating_add(1));
        let to = event_sort_key(u64::MAX);
        self.query_range(job_pk(job_id), from, to, limit)?
            .iter()
            .map(|item| doc(item, "event"))
            .collect()
    }

    fn park_token(&self, job_id: &str, dag_node_id: &str, token: &str) -> Result<(), StoreError> {
        let mut item = key(job_pk(job_id), format!("PAUSE#{dag_node_id}"));
        item.insert("token".into(), s(token));
        self.put_item(item)
    }

    fn take_tokens(&self, job_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        let mut taken = Vec::new();
        for item in self.query_prefix(job_pk(job_id), "PAUSE#")? {
            let sk = get_s(&item, "SK")?.to_owned();
            // Delete-and-return: of two concurrent takers, only one gets each token.
            let request = self
                .client
                .delete_item()
                .table_name(&self.table)
                .set_key(Some(key(job_pk(job_id), sk.clone())))
                .return_values(aws_sdk_dynamodb::types::ReturnValue::AllOld);
            let old = self.bridge.run(async move {
                request.send().await.map_err(|e| sdk_error("DeleteItem", e))
            })??;
            if let Some(old) = old.attributes {
                let node = sk.trim_start_matches("PAUSE#").to_owned();
                taken.push((node, get_s(&old, "token")?.to_owned()));
            }
        }
        Ok(taken)
    }

    fn put_checkpoint(
        &self,
        job_id: &str,
        key_name: &str,
        value: &serde_json::Value,
    ) -> Result<(), StoreError> {
        let mut item = key(job_pk(job_id), format!("CKPT#{key_name}"));
        item.insert("doc".into(), s(to_json(value, "checkpoint")?));
        self.put_item(item)
    }

    fn checkpoints(&self, job_id: &str) -> Result<Vec<(String, serde_json::Value)>, StoreError> {
        self.query_prefix(job_pk(job_id), "CKPT#")?
            .iter()
            .map(|item| {
                Ok((
                    get_s(item, "SK")?.trim_start_matches("CKPT#").to_owned(),
                    doc(item, "checkpoint")?,
                ))
            })
            .collect()
    }

    fn put_repo_index(&self, record: &RepoIndexRecord) -> Result<(), StoreError> {
        let mut item = key(s(format!("REPO#{}", record.cache_key)), "META");
        item.insert("doc".into(), s(to_json(record, "repo index")?));
        item.insert("expiresAt".into(), n(record.expires_at));
        self.put_item(item)
    }

    fn get_repo_index(
        &self,
        cache_key: &str,
        now: u64,
    ) -> Result<Option<RepoIndexRecord>, StoreError> {
        let Some(item) = self.get_item(key(s(format!("REPO#{cache_key}")), "META"))? else {
            return Ok(None);
        };
        if get_n(&item, "expiresAt") <= now {
            return Ok(None);
        }
        doc(&item, "repo index").map(Some)
    }
}
