//! An application: the plans one job maps together.
//!
//! Plan text is one plan. An event log (or the Spark UI's `/sql` list) holds every SQL execution
//! one Spark application ran, and a job maps all of them at once — one repository index, the
//! executions localised together (`pipeline::application`) — or the ones the caller picks.
//! Executions that cannot be mapped (no plan in the log, a plan that does not parse) are kept as
//! skipped [`ExecutionReport`]s and reported with the job, never dropped silently.

use super::{ParsedExecution, PlanError, PlanGraph};
use crate::contracts::ExecutionReport;
use serde::{Deserialize, Serialize};

/// The plans of one job and the executions it could not map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Application {
    /// One per mapped execution, in execution order.
    pub plans: Vec<PlanGraph>,
    /// Executions read but not mapped, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<ExecutionReport>,
    /// Files the user says the application runs from (`--entry`), as given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entry: Vec<String>,
}

impl Application {
    /// A job of one plan.
    pub fn single(graph: PlanGraph) -> Self {
        Self {
            plans: vec![graph],
            skipped: Vec::new(),
            entry: Vec::new(),
        }
    }

    /// The executions of a multi-execution input, all of them or those `wanted` names. An
    /// execution that does not parse is skipped with its error; only an input of which nothing
    /// parses is an error (the first execution's).
    pub fn from_executions(
        executions: Vec<ParsedExecution>,
        wanted: Option<&[u64]>,
    ) -> Result<Self, PlanError> {
        if let Some(wanted) = wanted {
            let available: Vec<u64> = executions.iter().filter_map(|(id, _)| *id).collect();
            if let Some(missing) = wanted.iter().find(|id| !available.contains(id)) {
                return Err(PlanError::ExecutionNotFound {
                    requested: *missing,
                    available,
                });
            }
        }
        let mut app = Self {
            plans: Vec::new(),
            skipped: Vec::new(),
            entry: Vec::new(),
        };
        let mut first_error = None;
        for (id, parsed) in executions {
            if wanted.is_some_and(|w| !id.is_some_and(|id| w.contains(&id))) {
                continue;
            }
            match parsed {
                Ok(graph) => app.plans.push(graph),
                Err(err) => {
                    app.skipped.push(ExecutionReport {
                        execution_id: id,
                        skipped: Some(err.to_string()),
                        ..ExecutionReport::default()
                    });
                    first_error.get_or_insert(err);
                }
            }
        }
        match first_error {
            Some(err) if app.plans.is_empty() => Err(err),
            _ => Ok(app),
        }
    }

    /// Operators over all plans.
    pub fn node_count(&self) -> usize {
        self.plans.iter().map(|p| p.nodes.len()).sum()
    }

    /// Whether the job maps several executions.
    pub fn is_multi(&self) -> bool {
        self.plans.len() > 1
    }

    /// What the readers tolerated, each warning once (an event log's warnings travel with every
    /// execution read from it).
    pub fn warnings(&self) -> Vec<String> {
        let mut seen = std::collections::HashSet::new();
        self.plans
            .iter()
            .flat_map(|p| &p.warnings)
            .filter(|w| seen.insert(w.as_str()))
            .cloned()
            .collect()
    }

    /// One report per execution, mapped or skipped, in execution order; empty when the input
    /// named no execution (plan text).
    pub fn reports(&self) -> Vec<ExecutionReport> {
        let mut reports: Vec<ExecutionReport> = self
            .plans
            .iter()
            .filter(|p| p.execution.execution_id.is_some())
            .map(|p| ExecutionReport {
                execution_id: p.execution.execution_id,
                root_execution_id: p.execution.root_execution_id,
                description: p.execution.description.clone(),
                duration_ms: p.execution.duration_ms,
                node_count: p.nodes.len() as u64,
                skipped: None,
            })
            .chain(self.skipped.iter().cloned())
            .collect();
        reports.sort_by_key(|r| r.execution_id);
        reports
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{ParseOptions, parse_every_execution};

    fn log(executions: &[(u64, Option<&str>)]) -> String {
        executions
            .iter()
            .map(|(id, plan)| {
                let mut event = serde_json::json!({
                    "Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart",
                    "executionId": id, "description": format!("query {id}"), "details": "",
                    "time": 1000 * id,
                });
                if let Some(plan) = plan {
                    event["physicalPlanDescription"] = (*plan).into();
                }
                let end = serde_json::json!({
                    "Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd",
                    "executionId": id, "time": 1000 * id + 250,
                });
                format!("{event}\n{end}\n")
            })
            .collect()
    }

    const PLAN: &str = "== Physical Plan ==\nLocalTableScan [a#1]\n";

    #[test]
    fn every_execution_or_the_chosen_ones_and_the_unmappable_reported() {
        let text = log(&[(0, Some(PLAN)), (1, None), (2, Some(PLAN))]);
        let app =
            Application::from_executions(parse_every_execution(&text).unwrap(), None).unwrap();
        assert_eq!(app.plans.len(), 2);
        let reports = app.reports();
        let ids: Vec<_> = reports.iter().map(|r| r.execution_id).collect();
        assert_eq!(ids, [Some(0), Some(1), Some(2)]);
        assert_eq!(reports[0].duration_ms, Some(250));
        assert_eq!(reports[0].description.as_deref(), Some("query 0"));
        assert!(
            reports[1]
                .skipped
                .as_deref()
                .is_some_and(|why| why.contains("physicalPlanDescription")),
            "{reports:?}"
        );

        let chosen =
            Application::from_executions(parse_every_execution(&text).unwrap(), Some(&[2]))
                .unwrap();
        assert_eq!(chosen.plans.len(), 1);
        assert_eq!(chosen.plans[0].execution.execution_id, Some(2));
        let missing =
            Application::from_executions(parse_every_execution(&text).unwrap(), Some(&[2, 7]));
        assert!(matches!(
            missing,
            Err(PlanError::ExecutionNotFound { requested: 7, .. })
        ));
    }

    #[test]
    fn nothing_mappable_is_the_first_error() {
        let text = log(&[(4, None)]);
        let err =
            Application::from_executions(parse_every_execution(&text).unwrap(), None).unwrap_err();
        assert!(err.to_string().contains("execution 4"), "{err}");
        // one plan text is one plan
        let graph = crate::plan::parse_plan(PLAN, &ParseOptions::default()).unwrap();
        assert!(Application::single(graph).reports().is_empty());
    }
}
