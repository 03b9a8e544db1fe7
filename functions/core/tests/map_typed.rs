//! A typed Dataset operation (`ds.map(closure)`) mapped end to end, from a real Java program's
//! plans (`tests/fixtures/plans/generate_jvm.sh`). The closure leaves no column or function in the
//! plan — only `MapElements typed.Lengths$$Lambda$…`, which names the class it was written in — so
//! two classes doing the same thing are told apart by that name alone, the `MapElements` is the
//! `map` call's, and the row/object conversions around it are the planner's, for that call.

mod support;

use std::path::Path;

const STATEMENT: &str = "14-15";
const SOURCE: &str = "1-1";

fn fixture(path: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures")
            .join(path),
    )
    .unwrap()
}

/// Both classes (identical but for their names) and the plan of `class`'s run: the fixture
/// was printed by `Lengths`; `Sizes` prints the same plan with its own name in the closure.
fn map_plan_of(class: &str, form: &str) -> Vec<plan2code_core::contracts::MappingOutput> {
    let files: Vec<(String, String)> = ["Lengths", "Sizes"]
        .iter()
        .map(|c| {
            let path = format!("src/main/java/typed/{c}.java");
            (path.clone(), fixture(&format!("repos/typed/{path}")))
        })
        .collect();
    let plan = fixture(&format!("plans/typed-map-java/{form}.txt"))
        .replace("typed.Lengths$$Lambda", &format!("typed.{class}$$Lambda"));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, s)| (p.as_str(), s.as_str()))
        .collect();
    support::map_against(&files, &plan)
}

#[test]
fn the_closure_names_the_class_and_the_typed_nodes_map_to_its_map_call() {
    for class in ["Lengths", "Sizes"] {
        for form in ["formatted", "simple"] {
            let mappings = map_plan_of(class, form);
            let at = |name: &str| {
                let m = mappings.iter().find(|m| m.node_name == name).unwrap();
                let code = m.mapped_code.as_ref().unwrap();
                (code.file.clone(), code.lines.clone(), m.explanation.clone())
            };
            let file = format!("src/main/java/typed/{class}.java");
            let (scan_file, scan_lines, _) = at("LocalTableScan");
            assert_eq!(scan_file, file, "{class} {form}");
            assert_ne!(scan_lines, SOURCE);
            for name in ["DeserializeToObject", "MapElements", "SerializeFromObject"] {
                let (f, lines, explanation) = at(name);
                assert_eq!(
                    (f.as_str(), lines.as_str()),
                    (file.as_str(), STATEMENT),
                    "{class} {form} {name}"
                );
                if name != "MapElements" {
                    assert!(
                        explanation.contains("planner inserted it"),
                        "{name}: {explanation}"
                    );
                }
            }
        }
    }
}
