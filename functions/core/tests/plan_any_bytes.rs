//! Any byte string given to the plan reader — as a file's bytes, through codec detection,
//! event-log streaming and every text reader — ends in a graph or a clean error, in bounded
//! time, and never a panic. Inputs start with each codec's magic bytes or each form's opening
//! (so the decoders and readers behind them are reached) followed by arbitrary bytes, and
//! real compressed logs with one byte changed.

use std::io::Cursor;
use std::time::{Duration, Instant};

use plan2code_core::plan::ParseOptions;
use plan2code_core::plan::input::read_stream;
use proptest::prelude::*;

const OPENINGS: &[&[u8]] = &[
    b"",
    &[0x28, 0xb5, 0x2f, 0xfd],
    &[0x1f, 0x8b, 0x08, 0x00],
    &[0x04, 0x22, 0x4d, 0x18],
    b"LZ4Block",
    b"LZ4Block\x20\x10\x00\x00\x00\x40\x00\x00\x00\x00\x00\x00\x00",
    b"\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01",
    b"\xff\x06\x00\x00sNaPpY",
    b"ZV\x01",
    b"ZV\x00\x00\x10",
    b"\xef\xbb\xbf",
    b"{\"Event\":\"SparkListenerLogStart\"}\n{\"Event\":\"SparkListenerSQLExecutionStart\",\"executionId\":1,\"physicalPlanDescription\":\"",
    b"== Physical Plan ==\n",
    b"== Physical Plan ==\n* Project (2)\n+- Scan parquet (1)\n\n\n(1) Scan parquet\nOutput [1]: [a#1]\n",
    b"{\"id\":1,\"nodes\":[{\"nodeId\":0,\"nodeName\":\"",
];

/// Whatever happens, it happens quickly and without a panic.
fn read_all(bytes: Vec<u8>) {
    let started = Instant::now();
    if let Ok(input) = read_stream(Box::new(Cursor::new(bytes)), "input") {
        match input.holds_several_executions() {
            Ok(true) => {
                let _ = input.parse_every_execution();
            }
            _ => {
                let _ = input.parse(&ParseOptions::default());
            }
        }
    }
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
}

fn real_log(name: &str) -> Vec<u8> {
    let path = format!(
        "{}/../../tests/fixtures/realplans/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(path).expect("fixture")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_after_any_opening_end_cleanly(
        opening in 0..OPENINGS.len(),
        tail in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let mut bytes = OPENINGS[opening].to_vec();
        bytes.extend(tail);
        read_all(bytes);
    }

    #[test]
    fn a_real_compressed_log_with_one_byte_changed_ends_cleanly(
        which in 0..3usize,
        at in any::<prop::sample::Index>(),
        value in any::<u8>(),
    ) {
        let name = ["spark2.eventlog.zstd", "db-sim.eventlog.gz", "aqeshuffle.eventlog.lz4"][which];
        let mut bytes = real_log(name);
        let i = at.index(bytes.len());
        bytes[i] = value;
        read_all(bytes);
    }
}

/// Found by the property above: this change to the LZ4 log yields a plan whose nodes are linked
/// so that a pre-order walk, not marking what it visited, revisits subtrees without end (the
/// event-log metrics pairing walked it until memory ran out).
#[test]
fn a_damaged_log_whose_plan_links_a_node_twice_ends_cleanly() {
    let mut bytes = real_log("aqeshuffle.eventlog.lz4");
    bytes[3220] = 50;
    read_all(bytes);
}
