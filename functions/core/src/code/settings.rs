//! Settings files: the values a repository's configuration gives its keys, for the code that
//! reads its paths from there.
//!
//! Production jobs rarely write their input's path in the code; they look it up:
//!
//! ```text
//! # src/main/resources/application.conf     quantexa { input { flights = "data/flights.csv" } }
//! val flightsPath = config.getString("quantexa.input.flights")
//! CsvUtils.read(spark, flightsPath)                 // spark.read.csv(path) in CsvUtils
//! ```
//!
//! [`settings`] flattens one file into dotted keys and their scalar values: HOCON (`.conf`),
//! Java properties (`.properties`), YAML (`.yaml`, `.yml`) and INI (`.ini`, `.cfg`, as Python's
//! `configparser` reads them: `[paths]` / `raw = data/raw` is `paths.raw`). Lists, nulls and anything else
//! that is not a scalar give nothing. Which keys the code reads, the extractor records
//! (`lang::extract`); the site table joins the two (`pipeline::sites::passing`).
//!
//! A repository is untrusted, and both parsers can be made to expand a small file without bound:
//! YAML aliases (`&a [*a, *a, …]`, nine levels of nine took 24 GiB here) and HOCON substitutions
//! (`a1 = ${a0}${a0}`, forty levels never finished). So YAML is read from the parser's events,
//! where an alias is one event that stands for nothing, and HOCON's substitutions are taken out
//! before it is parsed: a field that only overrides from the environment (`${?INPUT}`) is
//! dropped, keeping the default before it, and any other substitution stands as
//! [`PLACEHOLDER`]. Includes are never followed (`hocon` refuses them in a string).

use super::strings::PLACEHOLDER;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// Largest settings file read: configuration is small, a bigger file is data.
const MAX_SETTINGS_BYTES: usize = 256 * 1024;

/// Most keys one file gives.
const MAX_KEYS: usize = 2048;

/// Longest value kept (a path or a name; not a document).
const MAX_VALUE_CHARS: usize = 512;

/// Deepest nesting of objects and lists read; past it the file gives nothing.
const MAX_DEPTH: usize = 64;

/// The format a settings file is written in, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsFormat {
    Hocon,
    Properties,
    Yaml,
    Ini,
}

impl SettingsFormat {
    /// The format of files ending in `ext` (lowercase, no dot); `None` for any other file.
    pub fn for_extension(ext: &str) -> Option<Self> {
        Some(match ext {
            "conf" => Self::Hocon,
            "properties" => Self::Properties,
            "yaml" | "yml" => Self::Yaml,
            "ini" | "cfg" => Self::Ini,
            _ => return None,
        })
    }
}

/// Every scalar `text` gives, as `(dotted key, value)` in file order; nothing for a file that
/// does not parse, is too large or nests too deep.
pub fn settings(format: SettingsFormat, text: &str) -> Vec<(String, String)> {
    if text.len() > MAX_SETTINGS_BYTES || nesting_depth(text) > MAX_DEPTH {
        return Vec::new();
    }
    let mut out = match format {
        SettingsFormat::Hocon => hocon_settings(text),
        SettingsFormat::Properties => properties_settings(text),
        SettingsFormat::Yaml => yaml_settings(text),
        SettingsFormat::Ini => ini_settings(text),
    };
    out.retain(|(key, value)| !key.is_empty() && value.chars().count() <= MAX_VALUE_CHARS);
    out.truncate(MAX_KEYS);
    out
}

/// The deepest run of open brackets in `text`, counted without regard to quoting: an upper
/// bound that keeps recursive parsers away from deep input. (Not the event log's `json_depth`,
/// which skips `"` strings: in YAML or HOCON an unbalanced quote, `it's "`, would hide the rest.)
fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    for byte in text.bytes() {
        match byte {
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn hocon_settings(text: &str) -> Vec<(String, String)> {
    let text = without_substitutions(text);
    let Ok(document) = hocon::HoconLoader::new()
        .no_system()
        .load_str(&text)
        .and_then(|loader| loader.hocon())
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    flatten_hocon(String::new(), &document, &mut out);
    out
}

fn flatten_hocon(key: String, value: &hocon::Hocon, out: &mut Vec<(String, String)>) {
    use hocon::Hocon;
    let scalar = match value {
        Hocon::Hash(fields) => {
            for (name, value) in fields {
                if out.len() >= MAX_KEYS {
                    return;
                }
                flatten_hocon(joined(&key, name), value, out);
            }
            return;
        }
        Hocon::String(s) => s.clone(),
        Hocon::Integer(i) => i.to_string(),
        Hocon::Real(r) => r.to_string(),
        Hocon::Boolean(b) => b.to_string(),
        _ => return,
    };
    out.push((key, scalar));
}

/// HOCON `text` with its substitutions taken out (see the module's overview): a line that only
/// sets a field from an optional substitution (`path = ${?INPUT_PATH}`) is dropped, and every
/// other `${…}` becomes [`PLACEHOLDER`].
fn without_substitutions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        if is_optional_override(line) {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find("${") {
            out.push_str(&rest[..start]);
            match rest[start..].find('}') {
                Some(end) => {
                    out.push_str(PLACEHOLDER);
                    rest = &rest[start + end + 1..];
                }
                None => {
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out.push('\n');
    }
    out
}

/// `key = ${?NAME}` (or `key: ${?NAME}`), nothing else on the line but a comment.
fn is_optional_override(line: &str) -> bool {
    let Some((_, value)) = line.split_once(['=', ':']) else {
        return false;
    };
    let value = value.trim_start();
    value.starts_with("${?")
        && value.find('}').is_some_and(|end| {
            let after = value[end + 1..].trim();
            after.is_empty() || after.starts_with('#') || after.starts_with("//")
        })
}

fn properties_settings(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let _ = java_properties::PropertiesIter::new(text.as_bytes()).read_into(|key, value| {
        if out.len() < MAX_KEYS {
            out.push((key, value));
        }
    });
    out
}

fn ini_settings(text: &str) -> Vec<(String, String)> {
    let Ok(document) = ini::Ini::load_from_str(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (section, properties) in document.iter() {
        for (key, value) in properties.iter() {
            if out.len() >= MAX_KEYS {
                return out;
            }
            out.push((joined(section.unwrap_or(""), key), value.to_string()));
        }
    }
    out
}

fn yaml_settings(text: &str) -> Vec<(String, String)> {
    let mut reader = YamlFlattener::default();
    let mut parser = Parser::new_from_str(text);
    if parser.load(&mut reader, true).is_err() {
        return Vec::new();
    }
    reader.out
}

/// Flattens YAML mappings from the parser's events into dotted keys. A mapping inside a list
/// and an alias stand for nothing (the list's whole subtree is skipped), so no value is ever
/// copied.
#[derive(Default)]
struct YamlFlattener {
    /// One entry per open collection: for a mapping, its dotted key and the key awaiting its
    /// value; `None` for a list (or anything inside one).
    open: Vec<Option<OpenMapping>>,
    out: Vec<(String, String)>,
}

struct OpenMapping {
    key: String,
    pending: Option<String>,
}

impl YamlFlattener {
    /// The dotted key a value at the current position takes, consuming the mapping's pending
    /// key; `None` inside a list, or when the value is a key itself (then it is recorded).
    fn place(&mut self, scalar: Option<&str>) -> Option<String> {
        match self.open.last_mut() {
            None => None,
            Some(None) => None,
            Some(Some(mapping)) => match mapping.pending.take() {
                Some(name) => Some(joined(&mapping.key, &name)),
                None => {
                    mapping.pending = Some(scalar.unwrap_or_default().to_string());
                    None
                }
            },
        }
    }
}

impl MarkedEventReceiver for YamlFlattener {
    fn on_event(&mut self, event: Event, _mark: Marker) {
        match event {
            Event::Scalar(value, ..) => {
                if let Some(key) = self.place(Some(&value))
                    && self.out.len() < MAX_KEYS
                {
                    self.out.push((key, value));
                }
            }
            Event::MappingStart(..) => {
                let inside_list = matches!(self.open.last(), Some(None));
                let opened = match self.place(None) {
                    Some(key) => Some(OpenMapping { key, pending: None }),
                    None if self.open.is_empty() => Some(OpenMapping {
                        key: String::new(),
                        pending: None,
                    }),
                    // (a mapping used as a key, or one inside a list)
                    None => None,
                };
                self.open.push(opened.filter(|_| !inside_list));
            }
            Event::SequenceStart(..) => {
                self.place(None);
                self.open.push(None);
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.open.pop();
            }
            Event::Alias(_) => {
                self.place(None);
            }
            _ => {}
        }
    }
}

fn joined(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value<'a>(settings: &'a [(String, String)], key: &str) -> Option<&'a str> {
        settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn hocon_nested_objects_and_dotted_keys_flatten_to_dotted_keys() {
        let text = "app {\n  input { flights = \"data/flights.csv\" }\n  \
                    output.dir = results  # a comment\n  cores = 3\n}\n";
        let settings = settings(SettingsFormat::Hocon, text);
        assert_eq!(
            value(&settings, "app.input.flights"),
            Some("data/flights.csv")
        );
        assert_eq!(value(&settings, "app.output.dir"), Some("results"));
        assert_eq!(value(&settings, "app.cores"), Some("3"));
    }

    #[test]
    fn hocon_optional_overrides_keep_the_default_and_substitutions_expand_nothing() {
        let text = "input = \"data/in.csv\"\ninput = ${?INPUT_PATH}\n\
                    home = ${HOME}\"/x\"\n";
        let settings = settings(SettingsFormat::Hocon, text);
        assert_eq!(value(&settings, "input"), Some("data/in.csv"));
        // the environment is never read
        assert_eq!(value(&settings, "home"), Some("p2c_param/x"));
        // forty doublings: with substitutions taken out, nothing grows
        let mut doubling = String::from("a0 = \"lol\"\n");
        for i in 1..40 {
            doubling.push_str(&format!("a{i} = ${{a{}}}${{a{}}}\n", i - 1, i - 1));
        }
        let grown = super::settings(SettingsFormat::Hocon, &doubling);
        assert!(grown.iter().all(|(_, v)| v.len() < 64), "{grown:?}");
    }

    #[test]
    fn hocon_includes_are_not_followed() {
        let text = "include file(\"/etc/passwd\")\na = 1\n";
        let settings = settings(SettingsFormat::Hocon, text);
        assert_eq!(settings, vec![("a".to_string(), "1".to_string())]);
    }

    #[test]
    fn properties_give_their_keys_as_written() {
        let text = "# input\ninput.path=data/orders.csv\noutput.path : out/\n";
        let settings = settings(SettingsFormat::Properties, text);
        assert_eq!(value(&settings, "input.path"), Some("data/orders.csv"));
        assert_eq!(value(&settings, "output.path"), Some("out/"));
    }

    #[test]
    fn ini_sections_prefix_their_keys() {
        let text = "top = 1\n[paths]\nraw = data/raw\n; a comment\nsilver: data/silver\n";
        let settings = settings(SettingsFormat::Ini, text);
        assert_eq!(value(&settings, "top"), Some("1"));
        assert_eq!(value(&settings, "paths.raw"), Some("data/raw"));
        assert_eq!(value(&settings, "paths.silver"), Some("data/silver"));
    }

    #[test]
    fn yaml_mappings_flatten_and_lists_give_nothing() {
        let text = "paths:\n  raw: data/raw\n  silver: data/silver\nzorder: [a, b]\n\
                    jobs:\n  - name: x\n    path: y\nspark:\n  shuffle: 200\n";
        let settings = settings(SettingsFormat::Yaml, text);
        assert_eq!(value(&settings, "paths.raw"), Some("data/raw"));
        assert_eq!(value(&settings, "paths.silver"), Some("data/silver"));
        assert_eq!(value(&settings, "spark.shuffle"), Some("200"));
        assert!(settings.iter().all(|(k, _)| !k.starts_with("zorder")));
        assert!(settings.iter().all(|(k, _)| !k.starts_with("jobs")));
    }

    #[test]
    fn yaml_aliases_stand_for_nothing_so_nothing_is_copied() {
        let mut text = String::from("a: &a [\"lol\", \"lol\", \"lol\"]\n");
        let mut previous = 'a';
        for name in "bcdefghi".chars() {
            text.push_str(&format!(
                "{name}: &{name} [{}]\n",
                vec![format!("*{previous}"); 9].join(", ")
            ));
            previous = name;
        }
        text.push_str("p: &p data/x\nq: *p\nr: kept\n");
        let settings = settings(SettingsFormat::Yaml, &text);
        assert_eq!(value(&settings, "p"), Some("data/x"));
        assert_eq!(value(&settings, "q"), None);
        assert_eq!(value(&settings, "r"), Some("kept"));
    }

    #[test]
    fn malformed_deep_or_large_files_give_nothing() {
        assert!(settings(SettingsFormat::Yaml, "a: [unclosed\n  b: {").is_empty());
        assert!(settings(SettingsFormat::Hocon, "a = \"unterminated\nb { c =").is_empty());
        let deep = format!("a = {}{}", "{".repeat(100), "}".repeat(100));
        assert!(settings(SettingsFormat::Hocon, &deep).is_empty());
        let large = "k = v\n".repeat(MAX_SETTINGS_BYTES / 6 + 1);
        assert!(settings(SettingsFormat::Properties, &large).is_empty());
    }
}
