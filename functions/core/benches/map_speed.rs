//! Mapping speed: a plan of 200+ nodes against a large index, no LLM.
//!
//! ```text
//! cargo bench -p plan2code-core --bench map_speed                 # synthetic large repository
//! MAP_BENCH_REPO=/path/to/checkout cargo bench -p plan2code-core --bench map_speed
//! ```
//!
//! The plan is `events/plans/regional-summary.formatted.txt` (243 nodes, produced by Spark from
//! the example project). Without `MAP_BENCH_REPO` the repository is the example project copied
//! `MAP_BENCH_COPIES` times (default 400) into a temporary directory, each copy a package of its
//! own, so the index holds hundreds of look-alike flows the plan must be localised among.
//! Indexing is timed separately; the mapping time covers sites, semantics, localisation and all
//! nodes (retrieval, AST filter, reasoner, confidence, assembly).

use plan2code_core::code::{IndexOptions, build_index};
use plan2code_core::pipeline::{self, PipelineConfig, reason::EvidenceReasoner};
use plan2code_core::plan::{ParseOptions, parse_plan};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let plan_text =
        std::fs::read_to_string(root.join("events/plans/regional-summary.formatted.txt"))
            .expect("bench plan");
    let graph = parse_plan(&plan_text, &ParseOptions::default()).expect("plan parses");

    let scratch = tempfile::tempdir().expect("temp dir");
    let repo = match std::env::var_os("MAP_BENCH_REPO") {
        Some(path) => PathBuf::from(path),
        None => {
            let copies: usize = std::env::var("MAP_BENCH_COPIES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(400);
            let example = root.join("events/example-project");
            for i in 0..copies {
                copy_dir(&example, &scratch.path().join(format!("team{i:04}")))
                    .expect("copy example");
            }
            scratch.path().to_path_buf()
        }
    };

    let t = Instant::now();
    let index = build_index(&repo, None, "bench".into(), &IndexOptions::default()).expect("index");
    let index_ms = t.elapsed().as_secs_f64() * 1000.0;
    let index = Arc::new(index);
    println!(
        "index: {} files, {} chains, {} SQL statements, {} symbols in {index_ms:.0} ms",
        index.files.len(),
        index.chains.len(),
        index.sql.len(),
        index.symbols.len()
    );

    let mut runs = Vec::new();
    let mut mapped = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let (mappings, timings) = pipeline::map_plan(
            &graph,
            index.clone(),
            &EvidenceReasoner,
            &PipelineConfig::default(),
        )
        .expect("map");
        runs.push((t.elapsed().as_secs_f64() * 1000.0, timings));
        mapped = mappings.len();
    }
    runs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (median_ms, timings) = &runs[runs.len() / 2];
    println!(
        "map: {} nodes in {median_ms:.0} ms median (min {:.0}, max {:.0}) — sites {:.0} ms, semantics {:.1} ms, localise {:.0} ms, nodes {:.0} ms",
        mapped,
        runs[0].0,
        runs[runs.len() - 1].0,
        timings.sites_ms,
        timings.semantics_ms,
        timings.localise_ms,
        timings.nodes_ms
    );
}
