//! Plan parsing memory: `cargo bench -p plan2code-core --bench plan_memory [-- MiB]`.
//!
//! Prints, for the worst input forms (long attribute, expression and literal lists in each
//! plan form, and a large event log of task events), the peak memory of parsing them per input
//! byte. Each form is measured in a child process of this binary: it builds the input, notes
//! its resident set (`VmRSS`), parses, and reports the growth of its peak resident set
//! (`VmHWM`) over that — what parsing cost, as the operating system sees it. The target
//! (issue 18) is at most 20 bytes per input byte; the event log line shows a streamed log is
//! read in memory that does not grow with the log. Lists past 1,000 elements keep their first
//! and last ones, as Spark's own `maxToStringFields` abbreviates them; forms of many operators
//! cost about 450 bytes per operator and are bounded by the limit of 100,000 operators a plan.

use std::io::Write;
use std::process::Command;

use plan2code_core::plan::input::read_stream;
use plan2code_core::plan::{ParseOptions, parse_plan};

/// Many-operator forms stay just under the parser's limit of 100,000 operators per plan.
const OPERATORS: usize = 99_000;

/// (name, builder of an input of about `n` bytes).
type Form = (&'static str, fn(usize) -> String);

const FORMS: &[Form] = &[
    ("simple: Project [x#1, …]", |n| {
        format!(
            "Project [{}x#1]\n+- LocalTableScan [x#1]\n",
            "x#1, ".repeat(n / 5)
        )
    }),
    ("formatted: Output [n]: [x#1, …]", |n| {
        format!(
            "== Physical Plan ==\nProject (1)\n\n\n(1) Project\nOutput [1]: [{}x#1]\nInput [1]: [x#1]\n",
            "x#1, ".repeat(n / 5)
        )
    }),
    ("formatted: Input [n]: [x#1, …]", |n| {
        format!(
            "== Physical Plan ==\nProject (1)\n\n\n(1) Project\nOutput [1]: [x#1]\nInput [1]: [{}x#1]\n",
            "x#1, ".repeat(n / 5)
        )
    }),
    (
        "simple: HashAggregate(keys=[x#1, …], functions=[sum(x#1), …])",
        |n| {
            format!(
                "HashAggregate(keys=[{}x#1], functions=[{}sum(x#1)])\n",
                "x#1, ".repeat(n / 20),
                "sum(x#1), ".repeat(n / 13)
            )
        },
    ),
    ("simple: Filter ((x#1 = 1) AND …)", |n| {
        format!("Filter {}(x#1 = 1)\n", "(x#1 = 1) AND ".repeat(n / 14))
    }),
    ("simple: Project [a, b, …] literals", |n| {
        format!("Project [{}'a' AS y#2]\n", "'a', ".repeat(n / 5))
    }),
    (
        "simple: Union of LocalTableScan [x#1] (many small nodes)",
        |n| {
            let line = ":- LocalTableScan [x#1]\n";
            format!("Union\n{}", line.repeat((n / line.len()).min(OPERATORS)))
        },
    ),
    (
        "simple: Project [concat(c0#0, c1#1, …)] (distinct columns)",
        |n| {
            let mut text = String::with_capacity(n + 64);
            text.push_str("Project [concat(");
            let mut i = 0;
            while text.len() < n {
                text.push_str(&format!("c{i}#{i}, "));
                i += 1;
            }
            text.push_str("x#1) AS y#2]\n");
            text
        },
    ),
    ("formatted: many nodes", |n| {
        let node =
            |i: usize| format!("\n({i}) Filter\nInput [1]: [x#1]\nCondition : (x#1 = {i})\n");
        let count = (n / node(100_000).len()).min(OPERATORS);
        let mut text = String::from("== Physical Plan ==\nUnion (0)\n");
        for i in 1..=count {
            text.push_str(&format!(":- Filter ({i})\n"));
        }
        text.push_str("\n\n(0) Union\n");
        for i in 1..=count {
            text.push_str(&node(i));
        }
        text
    }),
    ("ui json: desc Project [x#1, …]", |n| {
        format!(
            "{{\"id\":1,\"nodes\":[{{\"nodeId\":0,\"nodeName\":\"Project\",\"desc\":\"Project [{}x#1]\",\"metrics\":[]}}],\"edges\":[]}}",
            "x#1, ".repeat(n / 5)
        )
    }),
    ("event log: Project [x#1, …] plan", |n| {
        format!(
            "{{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}}\n{{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":0,\"description\":\"d\",\"details\":\"\",\"physicalPlanDescription\":\"== Physical Plan ==\\nProject [{}x#1]\\n\"}}\n",
            "x#1, ".repeat(n / 5)
        )
    }),
];

/// A log of `n` bytes of task events around one small SQL execution, read as a stream.
const STREAMED_LOG: &str = "event log streamed: task events + 1 plan";

fn task_events(n: usize) -> impl Iterator<Item = String> {
    let line = "{\"Event\":\"SparkListenerTaskEnd\",\"Stage ID\":1,\"Task Info\":{\"Task ID\":1,\"Host\":\"h\"},\"Task Metrics\":{\"Executor Run Time\":1}}\n";
    let start = "{\"Event\":\"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart\",\"executionId\":0,\"description\":\"d\",\"details\":\"\",\"physicalPlanDescription\":\"== Physical Plan ==\\nProject [x#1]\\n+- LocalTableScan [x#1]\\n\"}\n";
    std::iter::once(start.to_string()).chain(std::iter::repeat_n(line.to_string(), n / line.len()))
}

fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// In the child: build one form, parse it, print `bytes peak_growth_bytes`.
fn child(form: &str, n: usize) {
    if form == STREAMED_LOG {
        // written to a temporary file and read back as a stream: the log is never in memory
        let path = std::env::temp_dir().join(format!("plan_memory_{}.log", std::process::id()));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).expect("temp file"));
        let mut bytes = 0;
        for line in task_events(n) {
            bytes += line.len();
            file.write_all(line.as_bytes()).expect("write");
        }
        drop(file);
        let before = status_kib("VmRSS:");
        let file = std::fs::File::open(&path).expect("open");
        let input = read_stream(Box::new(std::io::BufReader::new(file)), "log").expect("read");
        let graph = input.parse(&ParseOptions::default()).expect("parse");
        assert_eq!(graph.nodes.len(), 2);
        let _ = std::fs::remove_file(&path);
        println!(
            "{bytes} {}",
            status_kib("VmHWM:").saturating_sub(before) * 1024
        );
        return;
    }
    let build = FORMS
        .iter()
        .find(|(name, _)| *name == form)
        .expect("form")
        .1;
    let text = build(n);
    let before = status_kib("VmRSS:");
    let graph = parse_plan(&text, &ParseOptions::default()).expect("parses");
    assert!(!graph.nodes.is_empty());
    println!(
        "{} {}",
        text.len(),
        status_kib("VmHWM:").saturating_sub(before) * 1024
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--child") {
        let n = args[at + 2].parse().expect("size");
        child(&args[at + 1], n);
        return;
    }
    let mib: usize = args
        .iter()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(4);
    let exe = std::env::current_exe().expect("own path");
    println!("plan parsing peak memory, {mib} MiB inputs (target: <= 20 bytes per input byte)");
    let names = FORMS.iter().map(|(name, _)| *name).chain([STREAMED_LOG]);
    for name in names {
        let n = if name == STREAMED_LOG { mib * 64 } else { mib } << 20;
        let out = Command::new(&exe)
            .args(["--child", name, &n.to_string()])
            .output()
            .expect("run child");
        let text = String::from_utf8_lossy(&out.stdout);
        let mut fields = text
            .split_whitespace()
            .map(|f| f.parse::<u64>().unwrap_or(0));
        let (bytes, peak) = (fields.next().unwrap_or(0), fields.next().unwrap_or(0));
        if !out.status.success() || bytes == 0 {
            println!(
                "{name:<66} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            continue;
        }
        println!(
            "{name:<66} {:>6.1} MiB in  {:>7.1} MiB peak  {:>6.1} bytes per input byte",
            bytes as f64 / 1048576.0,
            peak as f64 / 1048576.0,
            peak as f64 / bytes as f64
        );
    }
}
