//! Column helpers: functions that return a column expression rather than a frame.
//!
//! ```text
//! def best_lower(c):                       # Scala: def bestLower()(c: Column): Column =
//!     return lower(regexp_replace(c, …))   #          lower(regexp_replace(c, "\\s+", ""))
//! df.select(best_lower(col("cry")))        # plans lower(regexp_replace(cry, …)) AS …
//! ```
//!
//! The call in the frame's arguments names only `best_lower`; the plan names what its body
//! calls. A function whose returned value makes no chain records the calls that value makes
//! ([`crate::code::index::Symbol::returned_functions`]); the site table adds them to the
//! evidence of every call applying the function (`pipeline::sites::build`).

use super::super::{Shape, named_children, text};
use super::Extractor;
use crate::code::index::SymbolKind;
use tree_sitter::Node;

/// Most nodes of a returned expression searched for calls.
const NODE_BUDGET: usize = 128;

/// Most functions recorded for one helper.
const FUNCTIONS_CAP: usize = 16;

impl<'a> Extractor<'a> {
    /// Record the calls `value`, returned by the enclosing function, makes.
    pub(super) fn record_returned_functions(&mut self, value: Node<'a>) {
        let Some(&id) = self.symbol_stack.last() else {
            return;
        };
        let is_function = self
            .out
            .symbols
            .get(id as usize)
            .is_some_and(|s| matches!(s.kind, SymbolKind::Function | SymbolKind::Method));
        if !is_function {
            return;
        }
        let called = self.calls_in(value);
        if let Some(symbol) = self.out.symbols.get_mut(id as usize) {
            for name in called {
                if symbol.returned_functions.len() >= FUNCTIONS_CAP {
                    break;
                }
                if !symbol.returned_functions.contains(&name) {
                    symbol.returned_functions.push(name);
                }
            }
        }
    }

    /// The names of the calls in `value`, outermost first; none inside a lambda.
    fn calls_in(&self, value: Node<'a>) -> Vec<String> {
        let mut names = Vec::new();
        let mut stack = vec![value];
        let mut budget = NODE_BUDGET;
        while let Some(node) = stack.pop() {
            budget = match budget.checked_sub(1) {
                Some(left) => left,
                None => break,
            };
            match self.adapter.shape(node, self.src) {
                Shape::Call { name, .. } => names.push(text(name, self.src).to_string()),
                Shape::Lambda => continue,
                _ => {}
            }
            stack.extend(named_children(node).into_iter().rev());
        }
        names
    }
}
