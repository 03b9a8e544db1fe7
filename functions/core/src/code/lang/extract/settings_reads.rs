//! Settings reads: the key an expression looks up in the repository's settings files.
//!
//! ```text
//! config.getString("quantexa.input.flights")          quantexa.input.flights   (Typesafe config)
//! conf.getConfig("input").getString("flights")        input.flights
//! Try(config.getString("in")).getOrElse("")           in                       (a wrapper)
//! props.getProperty("input.path")                     input.path               (Java properties)
//! AppConfig.getFilePath("csv.path.orders")            csv.path.orders          (a getter of one key)
//! cfg["paths"]["silver"], cfg.get("paths").get("raw") paths.silver, paths.raw  (a loaded dict)
//! config.get("paths", "raw")                          paths.raw                (configparser)
//! settings.paths.silver                               settings.paths.silver    (a settings object)
//! ```
//!
//! The extractor records the keys where a value goes that callers or readers use: an argument
//! in a path or table position ([`crate::code::index::CallArgs::settings`]), an argument passed
//! to a user function ([`crate::code::index::ArgValue::Setting`]) and a top-level binding
//! ([`crate::code::index::Constant::from_setting`]); a variable assigned a read carries its
//! key along. What the key holds, the settings files say (`code::settings`), and the site table
//! joins the two (`pipeline::sites::passing`). A read of a key no settings file gives stands for
//! nothing, so an expression that only looks like one (`row["name"]`) costs nothing.

use super::super::{Shape, text};
use super::{Extractor, positional_argument};
use tree_sitter::Node;

/// Methods that read one key's value (`getString`, `getProperty`), or — on a loaded dict — `get`.
const READ_METHODS: &[&str] = &[
    "getString",
    "getProperty",
    "get",
    "getOrDefault",
    "getStringList",
];

/// Methods that read a nested section (`getConfig("input")`), its keys read below it.
const SECTION_METHODS: &[&str] = &["getConfig", "getObject"];

/// Calls that wrap a read without changing the key it reads (`Try(…)`, `Option(…)`, `str(…)`),
/// and methods that unwrap or default it (`.getOrElse("")`, `.get`, `.strip()`).
const WRAPPERS: &[&str] = &["Try", "Option", "Some", "str", "String.valueOf"];
const UNWRAPPERS: &[&str] = &["getOrElse", "orElse", "get", "strip", "trim", "toString"];

/// Most nested calls and subscripts followed for one key.
const DEPTH_CAP: usize = 8;

impl<'a> Extractor<'a> {
    /// The settings key `node` reads, when it is a read (see the module's overview) or a
    /// variable assigned one.
    pub(super) fn setting_key(&self, node: Node<'a>) -> Option<String> {
        self.setting_key_within(node, DEPTH_CAP)
    }

    fn setting_key_within(&self, node: Node<'a>, depth: usize) -> Option<String> {
        let depth = depth.checked_sub(1)?;
        let node = self.unwrap_parens(node);
        match self.adapter.shape(node, self.src) {
            Shape::Ident => self.setting_vars.get(text(node, self.src)).cloned(),
            // (`os.environ.get("INPUT", "data/x.csv")` is its default, not a settings read)
            Shape::Call { .. } if self.computed_path(node).is_some() => None,
            Shape::Call { object, name, args } => {
                let method = text(name, self.src);
                match object {
                    None if WRAPPERS.contains(&method) => {
                        self.setting_key_within(positional_argument(args?, 0)?, depth)
                    }
                    None => None,
                    Some(object) => {
                        let key = args
                            .and_then(|args| positional_argument(args, 0))
                            .filter(|_| reads_one_key(method))
                            .and_then(|first| self.literal(first))
                            .map(|key| match self.configparser_option(method, args) {
                                Some(option) => format!("{key}.{option}"),
                                None => key,
                            });
                        match key {
                            Some(key) => Some(under(self.section_of(object, depth), key)),
                            None if UNWRAPPERS.contains(&method) => {
                                self.setting_key_within(object, depth)
                            }
                            None => None,
                        }
                    }
                }
            }
            Shape::Index { object, index } => {
                let key = self.literal(index)?;
                if self.is_dataframe_var(text(object, self.src)) {
                    return None;
                }
                Some(under(self.section_of(object, depth), key))
            }
            // `settings.paths.silver`: two attributes at least below a plain name
            Shape::Member { .. } => {
                let path = text(node, self.src);
                let segments: Vec<&str> = path.split('.').collect();
                let plain = segments
                    .iter()
                    .all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'));
                (plain && segments.len() >= 3 && !self.is_dataframe_var(segments[0]))
                    .then(|| path.to_string())
            }
            _ => None,
        }
    }

    /// The section a read's receiver stands for: `getConfig("input")`, `cfg["paths"]`,
    /// `cfg.get("paths")`, or a variable holding one; `None` for the loaded settings themselves.
    fn section_of(&self, receiver: Node<'a>, depth: usize) -> Option<String> {
        let receiver = self.unwrap_parens(receiver);
        match self.adapter.shape(receiver, self.src) {
            Shape::Call {
                object: Some(object),
                name,
                args,
            } if SECTION_METHODS.contains(&text(name, self.src)) => {
                let key = self.literal(positional_argument(args?, 0)?)?;
                Some(under(self.section_of(object, depth.checked_sub(1)?), key))
            }
            Shape::Call { .. } | Shape::Index { .. } => self.setting_key_within(receiver, depth),
            Shape::Ident => self.setting_vars.get(text(receiver, self.src)).cloned(),
            _ => None,
        }
    }

    /// The option of Python's `configparser` read `config.get("paths", "raw")`: a second string
    /// argument that is a name (a default value, `get("input", "data/x.csv")`, is not).
    fn configparser_option(&self, method: &str, args: Option<Node<'a>>) -> Option<String> {
        if method != "get" {
            return None;
        }
        self.literal(positional_argument(args?, 1)?).filter(|o| {
            o.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        })
    }

    /// The text of a plain string literal (no interpolation).
    fn literal(&self, node: Node<'a>) -> Option<String> {
        if !matches!(self.adapter.shape(node, self.src), Shape::Str) {
            return None;
        }
        let decoded = self.adapter.decode_string(node, self.src)?;
        let plain = !decoded.text.is_empty()
            && !decoded.text.contains(crate::code::strings::PLACEHOLDER)
            && !decoded.text.contains(char::is_whitespace);
        plain.then_some(decoded.text)
    }
}

/// Whether `method` reads one key's value: a [`READ_METHODS`] one, or a getter named for what
/// it gets (`AppConfig.getFilePath("csv.path.orders")`, `cfg.get_path("raw")`: a project's own
/// wrapper around `props.getProperty(key)`). A getter handed something no settings file gives
/// a key to (`row.getAs("name")`) reads nothing.
fn reads_one_key(method: &str) -> bool {
    let named_getter = method
        .strip_prefix("get")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase() || c == '_'));
    READ_METHODS.contains(&method) || named_getter && !UNWRAPPERS.contains(&method)
}

/// `key` inside `section` (`input` + `flights` → `input.flights`).
fn under(section: Option<String>, key: String) -> String {
    match section {
        Some(section) => format!("{section}.{key}"),
        None => key,
    }
}
