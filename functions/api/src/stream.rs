//! `GET /jobs/{id}/stream`: the job's event log as Server-Sent Events.
//!
//! Each SSE message is one stored event: `id:` its sequence number, `event:` its type
//! (`mapping_finalized`, `job_completed`, …), `data:` the whole event JSON. The stream replays
//! everything after `Last-Event-ID` (or `?after=`), then follows the log by polling the job
//! store, and ends after the job's last event (`job_completed`, its failure, or a cancel). A client
//! that drops reconnects with `Last-Event-ID` and misses nothing, because the log is durable and
//! ordered.

use crate::ApiState;
use crate::caller::{Caller, authorise, blocking};
use crate::error::ApiError;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use futures_util::Stream;
use plan2code_core::contracts::{Event, EventType};
use serde::Deserialize;
use std::collections::VecDeque;
use std::convert::Infallible;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StreamQuery {
    after: Option<u64>,
}

/// Whether `event` is the last one a job emits.
fn is_final(event: &Event) -> bool {
    match event.event_type {
        EventType::JobCompleted => true,
        EventType::Error => event.data.get("status").and_then(|s| s.as_str()) == Some("failed"),
        _ => false,
    }
}

struct Follow {
    state: ApiState,
    id: String,
    after: u64,
    buffer: VecDeque<Event>,
    finished: bool,
}

fn to_sse(event: &Event) -> SseEvent {
    let data = serde_json::to_string(event).unwrap_or_else(|_| "{}".into());
    SseEvent::default()
        .id(event.seq.to_string())
        .event(
            serde_json::to_value(event.event_type)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_else(|| "event".into()),
        )
        .data(data)
}

/// The next batch of events, or `None` when the job has nothing more to say.
async fn next_batch(follow: &mut Follow) -> Option<()> {
    loop {
        if follow.finished {
            return None;
        }
        let (state, id, after) = (follow.state.clone(), follow.id.clone(), follow.after);
        let page = blocking(move || {
            // Status first, then events: a job's terminal event is stored before its status
            // turns terminal, so a terminal status read here means every event is readable now.
            let status = state.jobs.get_job(&id)?.map(|j| j.status);
            let events = state.jobs.events_after(&id, after, 100)?;
            Ok((events, status))
        })
        .await;
        let Ok((events, status)) = page else {
            return None;
        };
        if let Some(last) = events.last() {
            follow.after = last.seq;
            follow.finished = events.iter().any(is_final);
            follow.buffer.extend(events);
            return Some(());
        }
        // Cancelled jobs emit no final event; a terminal job with nothing new is done.
        if status.is_none_or(|s| s.is_terminal()) {
            return None;
        }
        tokio::time::sleep(follow.state.limits.stream_poll).await;
    }
}

pub(crate) async fn job_stream(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<StreamQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let last_event_id = match headers.get("last-event-id") {
        None => None,
        Some(value) => Some(
            value
                .to_str()
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .ok_or_else(|| {
                    ApiError::BadRequest("`Last-Event-ID` must be an event sequence number".into())
                })?,
        ),
    };
    let after = last_event_id.or(query.after).unwrap_or(0);
    {
        let (state, caller, id) = (state.clone(), caller.clone(), id.clone());
        blocking(move || authorise(&state, &caller, &id)).await?;
    }
    let follow = Follow {
        state,
        id,
        after,
        buffer: VecDeque::new(),
        finished: false,
    };
    let stream = futures_util::stream::unfold(follow, |mut follow| async move {
        if follow.buffer.is_empty() {
            next_batch(&mut follow).await?;
        }
        let event = follow.buffer.pop_front()?;
        Some((Ok(to_sse(&event)), follow))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
