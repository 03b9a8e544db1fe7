//! A hostile repository built in the test: links out of the clone, a huge file, a binary file,
//! bad UTF-8, pathologically nested expressions and settings files built to expand without
//! bound. Nothing outside the root is read or echoed,
//! every skip is counted, nothing panics or overflows the stack.

use plan2code_core::code::walk::WalkLimits;
use plan2code_core::code::{IndexOptions, RepoError, SkipReason, build_index};
use plan2code_core::error::{ErrorName, Named};
use std::fs;

const SECRET: &str = "SECRET_MARKER_7f3a";

fn hostile_repo() -> (tempfile::TempDir, tempfile::TempDir) {
    let outside = tempfile::tempdir().unwrap();
    fs::write(
        outside.path().join("secret.py"),
        format!("df = spark.table(\"{SECRET}\").groupBy(\"{SECRET}\").count()\n"),
    )
    .unwrap();
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    fs::write(
        root.join("ok.py"),
        "df = spark.table(\"t\").groupBy(\"a\").count()\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.path().join("secret.py"), root.join("link.py")).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("linked_dir")).unwrap();
        fs::write(
            outside.path().join("secret.conf"),
            format!("input = \"{SECRET}\"\n"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.conf"), root.join("linked.conf"))
            .unwrap();
    }
    // Settings files that expand without bound when parsed naively: YAML aliases nine levels of
    // nine deep, HOCON substitutions doubling forty times, and nesting thousands deep.
    let mut laughs = String::from("a: &a [\"lol\", \"lol\", \"lol\", \"lol\"]\n");
    for (level, name) in "bcdefghij".chars().enumerate() {
        let previous = (b'a' + level as u8) as char;
        let items = vec![format!("*{previous}"); 9].join(", ");
        laughs.push_str(&format!("{name}: &{name} [{items}]\n"));
    }
    laughs.push_str("input: data/laughs.csv\n");
    fs::write(root.join("laughs.yaml"), laughs).unwrap();
    let mut doubling = String::from("a0 = \"lol\"\n");
    for i in 1..40 {
        doubling.push_str(&format!("a{i} = ${{a{}}}${{a{}}}\n", i - 1, i - 1));
    }
    fs::write(root.join("doubling.conf"), doubling).unwrap();
    let deep_yaml = format!("a: {}{}\n", "[".repeat(4000), "]".repeat(4000));
    fs::write(root.join("deep.yml"), deep_yaml).unwrap();
    // Huge: 3 MiB of valid Python.
    let huge = "x = spark.table('t').select('a')\n".repeat(3 * 1024 * 1024 / 32);
    fs::write(root.join("huge.py"), huge).unwrap();
    fs::write(root.join("blob.py"), b"df = 1\0\0\x01\x02binary").unwrap();
    fs::write(root.join("latin1.py"), b"df = spark.table('caf\xe9')\n").unwrap();
    // Deeply nested expressions: parentheses, nested function calls inside a chain, and SQL.
    let depth = 4000;
    let mut nested = String::from("x = ");
    nested.push_str(&"(".repeat(depth));
    nested.push('1');
    nested.push_str(&")".repeat(depth));
    nested.push('\n');
    nested.push_str("out = df.select(");
    nested.push_str(&"f(".repeat(depth));
    nested.push_str("col(\"deep\")");
    nested.push_str(&")".repeat(depth));
    nested.push_str(").groupBy(\"k\").count()\n");
    nested.push_str("q = spark.sql(\"SELECT ");
    nested.push_str(&"(".repeat(depth));
    nested.push('1');
    nested.push_str(&")".repeat(depth));
    nested.push_str(" FROM t\")\n");
    fs::write(root.join("nested.py"), nested).unwrap();
    fs::create_dir_all(root.join("node_modules/pkg")).unwrap();
    fs::write(
        root.join("node_modules/pkg/x.py"),
        "df.groupBy('nm').count()\n",
    )
    .unwrap();
    fs::create_dir_all(root.join(".git")).unwrap();
    fs::write(root.join(".git/hook.py"), "df.groupBy('git').count()\n").unwrap();
    (outside, repo)
}

#[test]
fn nothing_outside_the_root_is_read_and_skips_are_counted() {
    let (_outside, repo) = hostile_repo();
    // Run on a big stack-less thread to prove traversals are iterative: 256 KiB of stack.
    let root = repo.path().to_path_buf();
    let index = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || build_index(&root, None, "k".into(), &IndexOptions::default()).unwrap())
        .unwrap()
        .join()
        .expect("indexing a hostile repo must not panic or overflow");
    let json = serde_json::to_string(&index).unwrap();
    assert!(
        !json.contains(SECRET),
        "content from outside the clone leaked"
    );
    let skipped = &index.stats.files_skipped;
    #[cfg(unix)]
    assert_eq!(skipped.get(&SkipReason::Symlink), Some(&2));
    assert_eq!(skipped.get(&SkipReason::TooLarge), Some(&1));
    assert_eq!(skipped.get(&SkipReason::Binary), Some(&1));
    assert_eq!(skipped.get(&SkipReason::InvalidUtf8), Some(&1));
    let mut paths: Vec<_> = index.files.iter().map(|f| f.path.as_str()).collect();
    paths.sort();
    assert_eq!(paths, vec!["nested.py", "ok.py"]);
    // The deep chain is still found, with its innermost column.
    let deep = index
        .chains
        .iter()
        .find(|c| c.assigned_to.as_deref() == Some("out"))
        .expect("chain around a deep expression");
    assert_eq!(deep.calls[0].method, "select");
    assert_eq!(deep.calls[1].args.columns, vec!["k"]);
    // Deep SQL degrades to a token-level record instead of failing.
    assert!(index.sql.iter().any(|s| !s.parsed));
    // Settings files give their plain values and nothing expanded.
    assert!(
        index
            .settings
            .iter()
            .any(|s| s.file == "laughs.yaml" && s.key == "input" && s.value == "data/laughs.csv"),
        "{:?}",
        index.settings
    );
    assert!(index.settings.iter().all(|s| s.value.len() < 64));
    assert!(!index.settings.iter().any(|s| s.file == "deep.yml"));
}

#[test]
fn deep_nesting_extracts_on_a_small_stack() {
    let (_outside, repo) = hostile_repo();
    let src = fs::read_to_string(repo.path().join("nested.py")).unwrap();
    let extract = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let python =
                plan2code_core::code::lang::adapter_for(plan2code_core::code::Language::Python)
                    .unwrap();
            plan2code_core::code::lang::extract_file(python, &src, "nested", Default::default())
        })
        .unwrap()
        .join()
        .expect("extraction overflowed a 256 KiB stack");
    assert!(
        extract
            .chains
            .iter()
            .any(|c| c.assigned_to.as_deref() == Some("out"))
    );
}

#[test]
fn repo_level_caps_fail_or_skip() {
    let (_outside, repo) = hostile_repo();
    let strict = IndexOptions {
        limits: WalkLimits {
            max_files: 2,
            fail_on_cap: true,
            ..WalkLimits::default()
        },
        ..IndexOptions::default()
    };
    let err = build_index(repo.path(), None, "k".into(), &strict).unwrap_err();
    assert!(matches!(err, RepoError::RepoTooLarge(_)));
    assert_eq!(err.error_name(), ErrorName::RepoTooLarge);
    let lenient = IndexOptions {
        limits: WalkLimits {
            max_files: 2,
            ..WalkLimits::default()
        },
        ..IndexOptions::default()
    };
    let index = build_index(repo.path(), None, "k".into(), &lenient).unwrap();
    assert!(
        index
            .stats
            .files_skipped
            .get(&SkipReason::FileCountCap)
            .copied()
            .unwrap_or(0)
            >= 1
    );
}

/// Source that would abort the process inside tree-sitter's C code (600 nested indentation
/// levels and a string literal trip tree-sitter-python's scanner) and a FIFO named like source
/// (opening it blocks forever) sit beside a good file: the index is built, the good file is in it,
/// the hazard is skipped with a warning naming it, the FIFO is never opened.
#[test]
fn scanner_crashers_and_fifos_are_skipped_not_fatal() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path().to_path_buf();
    fs::write(
        root.join("good.py"),
        "df = spark.table(\"t\").groupBy(\"a\").count()\n",
    )
    .unwrap();
    let mut crasher = String::new();
    for depth in 0..600 {
        crasher.push_str(&" ".repeat(depth));
        crasher.push_str("if x:\n");
    }
    crasher.push_str(&" ".repeat(600));
    crasher.push_str("s = f'{x}'\n");
    fs::write(root.join("crasher.py"), crasher).unwrap();
    #[cfg(unix)]
    {
        let fifo = root.join("pipe.py");
        let status = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(status.success());
    }
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(build_index(
            &root,
            None,
            "k".into(),
            &IndexOptions::default(),
        ));
    });
    let index = receiver
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("indexing must not hang on a FIFO")
        .unwrap();
    let paths: Vec<&str> = index.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["good.py"]);
    let skipped = &index.stats.files_skipped;
    assert_eq!(skipped.get(&SkipReason::ParserHazard), Some(&1));
    #[cfg(unix)]
    assert_eq!(skipped.get(&SkipReason::NotRegularFile), Some(&1));
    assert_eq!(index.stats.warnings.len(), 1);
    assert!(
        index.stats.warnings[0].starts_with("crasher.py: not parsed"),
        "{:?}",
        index.stats.warnings
    );
}
