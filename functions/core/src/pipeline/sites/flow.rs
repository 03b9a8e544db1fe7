//! Flow edges: which chains feed which (DataFrame variables, hand-offs), which SQL statements run
//! inside which chains, and which chains register the views a statement reads.

use super::*;
use crate::code::{APPLIED_LAMBDA, ArgValue, INLINE_READ};

/// Which SQL statements each chain runs: a chain calling `sql(…)` on the statement's host lines
/// (`spark.sql("""…""")`), or naming the variable the SQL was assigned to (`q = """…"""` then
/// `spark.sql(q)`). Only chains that call `sql` are candidates, grouped by file, so the cost
/// follows the SQL in each file rather than every statement times every chain.
pub(super) fn sql_links(index: &RepoIndex) -> HashMap<usize, Vec<usize>> {
    // file → (chain, terms of its `sql(…)` arguments)
    let mut sql_chains: HashMap<FileId, Vec<(usize, BTreeSet<String>)>> = HashMap::new();
    for (chain_idx, chain) in index.chains.iter().enumerate() {
        let sql_calls: Vec<_> = chain
            .calls
            .iter()
            .filter(|c| c.method.eq_ignore_ascii_case("sql"))
            .collect();
        if !sql_calls.is_empty() {
            let terms = sql_calls
                .iter()
                .flat_map(|c| code_terms(&c.args.text))
                .collect();
            sql_chains
                .entry(chain.file)
                .or_default()
                .push((chain_idx, terms));
        }
    }
    let mut links: HashMap<usize, Vec<usize>> = HashMap::new();
    for (stmt_idx, stmt) in index.sql.iter().enumerate() {
        for (chain_idx, _) in sql_chains.get(&stmt.file).into_iter().flatten() {
            if index.chains[*chain_idx]
                .statement
                .overlaps(&stmt.host_statement)
            {
                links.entry(*chain_idx).or_default().push(stmt_idx);
            }
        }
    }
    for (stmt_idx, stmt) in index.sql.iter().enumerate() {
        let Some(var) = stmt.assigned_to.as_deref().map(str::to_lowercase) else {
            continue;
        };
        for (chain_idx, terms) in sql_chains.get(&stmt.file).into_iter().flatten() {
            let passes_var = index.chains[*chain_idx].statement.start >= stmt.host_statement.start
                && terms.contains(&var);
            if passes_var {
                let linked = links.entry(*chain_idx).or_default();
                if !linked.contains(&stmt_idx) {
                    linked.push(stmt_idx);
                }
            }
        }
    }
    links
}

/// For each SQL statement, the statements defining a view it reads: a `CreateView` clause naming
/// one of the tables it reads (FROM or JOIN), preferring the same file.
pub(super) fn view_edges(index: &RepoIndex) -> Vec<Vec<usize>> {
    let definitions = sql_view_definitions(index);
    index
        .sql
        .iter()
        .enumerate()
        .map(|(idx, stmt)| {
            let mut views = Vec::new();
            for clause in stmt.clauses.iter().filter(|c| reads_tables(c.kind)) {
                for table in &clause.tables {
                    let Some(defs) = definitions.get(&table.to_lowercase()) else {
                        continue;
                    };
                    let others = defs.iter().copied().filter(|d| *d != idx);
                    let file_of = |d: usize| index.sql[d].file;
                    for d in own_file_else_first(others, stmt.file, file_of) {
                        if !views.contains(&d) {
                            views.push(d);
                        }
                    }
                }
            }
            views
        })
        .collect()
}

/// The SQL statements defining each view (`CREATE OR REPLACE TEMP VIEW city_totals AS …`), by
/// its name in lower case.
pub(super) fn sql_view_definitions(index: &RepoIndex) -> HashMap<String, Vec<usize>> {
    let mut definitions: HashMap<String, Vec<usize>> = HashMap::new();
    for (idx, stmt) in index.sql.iter().enumerate() {
        for clause in stmt
            .clauses
            .iter()
            .filter(|c| c.kind == SqlClauseKind::CreateView)
        {
            for table in &clause.tables {
                definitions
                    .entry(table.to_lowercase())
                    .or_default()
                    .push(idx);
            }
        }
    }
    definitions
}

/// For each chain reading a view from the session that SQL defines (`spark.table("city_totals")`
/// after `CREATE TEMP VIEW city_totals AS SELECT …`), the defining statements — its own file's,
/// else the first elsewhere: Spark plans the view's query where the chain reads it.
pub(super) fn sql_view_reads(index: &RepoIndex) -> HashMap<usize, Vec<usize>> {
    let definitions = sql_view_definitions(index);
    let mut reads: HashMap<usize, Vec<usize>> = HashMap::new();
    if definitions.is_empty() {
        return reads;
    }
    for (idx, chain) in index.chains.iter().enumerate() {
        let Some(name) = reads_registered_view(chain, &definitions) else {
            continue;
        };
        let defined = definitions[&name.to_lowercase()].iter().copied();
        let chosen = own_file_else_first(defined, chain.file, |s| index.sql[s].file);
        reads.insert(idx, chosen);
    }
    reads
}

/// The chains registering each temporary view, by its name in lower case
/// (`df.createOrReplaceTempView("people")`).
pub(super) type ViewRegistrations = HashMap<String, Vec<usize>>;

pub(super) fn registered_views(index: &RepoIndex) -> ViewRegistrations {
    let mut registered: ViewRegistrations = HashMap::new();
    for (idx, chain) in index.chains.iter().enumerate() {
        for call in chain.calls.iter().filter(|c| registers_view(&c.method)) {
            for table in &call.args.tables {
                registered
                    .entry(table.to_lowercase())
                    .or_default()
                    .push(idx);
            }
        }
    }
    registered
}

/// The chains registering the view `name` that a reader in `file` reads: those of its own
/// file, else the first elsewhere.
pub(super) fn registrations_of(
    views: &ViewRegistrations,
    name: &str,
    file: FileId,
    index: &RepoIndex,
) -> Vec<usize> {
    let Some(found) = views.get(&name.to_lowercase()) else {
        return Vec::new();
    };
    own_file_else_first(found.iter().copied(), file, |c| index.chains[c].file)
}

/// Of the chains or statements `found` defining a name, those in `file` — else the first
/// elsewhere (`file_of`: where each is).
fn own_file_else_first(
    found: impl Iterator<Item = usize> + Clone,
    file: FileId,
    file_of: impl Fn(usize) -> FileId,
) -> Vec<usize> {
    let own: Vec<usize> = found.clone().filter(|f| file_of(*f) == file).collect();
    if own.is_empty() {
        found.take(1).collect()
    } else {
        own
    }
}

/// For each SQL statement, the chains registering a view it reads: a call such as
/// `createOrReplaceTempView("people")` naming one of the tables it reads (FROM or JOIN),
/// preferring the same file ([`registrations_of`]).
pub(super) fn view_chain_edges(index: &RepoIndex, views: &ViewRegistrations) -> Vec<Vec<usize>> {
    if views.is_empty() {
        return vec![Vec::new(); index.sql.len()];
    }
    index
        .sql
        .iter()
        .map(|stmt| {
            let mut chains = Vec::new();
            for clause in stmt.clauses.iter().filter(|c| reads_tables(c.kind)) {
                for table in &clause.tables {
                    for c in registrations_of(views, table, stmt.file, index) {
                        if !chains.contains(&c) {
                            chains.push(c);
                        }
                    }
                }
            }
            chains
        })
        .collect()
}

/// The temporary view a chain starts by reading from the session (`spark.table("people")`,
/// `spark.read.table("people")`), when `views` (chains registering views, or SQL statements
/// defining them, by name) holds one of that name: Spark then plans the view's own frame, so the
/// chain scans nothing itself.
pub(super) fn reads_registered_view<'c>(
    chain: &'c CallChain,
    views: &HashMap<String, Vec<usize>>,
) -> Option<&'c str> {
    if !chain
        .receiver
        .split('.')
        .any(crate::code::lang::vocab::is_session_name)
    {
        return None;
    }
    let read = chain.calls.iter().find(|c| c.method != "read")?;
    if read.method != "table" {
        return None;
    }
    let name = read.args.tables.first()?;
    views.contains_key(&name.to_lowercase()).then_some(name)
}

/// Whether a clause names tables the statement reads: its FROM and each JOIN.
pub(super) fn reads_tables(kind: SqlClauseKind) -> bool {
    matches!(kind, SqlClauseKind::From | SqlClauseKind::Join)
}

pub(super) fn registers_view(method: &str) -> bool {
    [
        "createorreplacetempview",
        "createtempview",
        "createorreplaceglobaltempview",
        "createglobaltempview",
        "registertemptable",
    ]
    .iter()
    .any(|m| m.eq_ignore_ascii_case(method))
}

/// The most scopes around a function searched for a class body declaring a name it reads.
const ENCLOSING_SCOPES: usize = 4;

/// The most functions up a frame is followed through parameters passing it on.
const PASSED_ON_DEPTH: usize = 3;

/// The most assignments of one variable in branches that may reach one read.
const MAY_REACH_CAP: usize = 4;

/// The most frames added to one list that reach a read of it (its elements, each an input).
const LIST_ITEMS_CAP: usize = 16;

/// For each chain, the chains defining the variables it reads: the nearest earlier assignment in
/// the same file, preferring the same enclosing symbol (then module level) — and the ones before
/// it that may have run last instead, while it sits in a branch the read is not in; and the
/// chains returned by the helper functions it starts from or applies
/// ([`crate::pipeline::handoffs`]; `functions`: the chains each function returns).
pub(super) fn flow_edges(
    index: &RepoIndex,
    helpers: &[crate::pipeline::handoffs::HelperFeeds],
    functions: &crate::pipeline::handoffs::FrameFunctions<'_>,
    passed: &super::passing::PassedValues<'_>,
) -> Vec<Vec<(FlowRole, usize)>> {
    let chains = &index.chains;
    let returned_by = &functions.returned_by;
    let mut by_var: HashMap<(FileId, &str), Vec<usize>> = HashMap::new();
    for (idx, chain) in chains.iter().enumerate() {
        if let Some(var) = chain.assigned_to.as_deref() {
            by_var.entry((chain.file, var)).or_default().push(idx);
        }
    }
    // The chains whose value of `var` may reach `chain`: the last assignment before it in its
    // function, and, while that one sits in a branch the reading statement is not in (`try:` /
    // `except:`, `if` / `else`), the ones before it too — down to one that runs whenever the
    // reading statement does. Else the module's last.
    let definitions = |chain: &CallChain, var: &str| -> Vec<usize> {
        let Some(candidates) = by_var.get(&(chain.file, var)) else {
            return Vec::new();
        };
        let before = |c: &&usize| chains[**c].statement.end < chain.statement.start;
        let mut same_scope: Vec<usize> = candidates
            .iter()
            .filter(before)
            .filter(|c| chains[**c].symbol == chain.symbol)
            .copied()
            .collect();
        same_scope.sort_by_key(|c| std::cmp::Reverse(chains[*c].statement.start));
        let mut reaching = Vec::new();
        for &c in &same_scope {
            reaching.push(c);
            if chains[c].branch_depth <= chain.branch_depth || reaching.len() >= MAY_REACH_CAP {
                break;
            }
        }
        // A list (or mapping) holds every frame added to it before, not only the last
        // (`frames = {"sales": …, "stores": …}`, `rows.append(…)` twice): each is an element.
        if reaching.first().is_some_and(|c| chains[*c].appended) {
            for &c in same_scope.iter().filter(|c| chains[**c].appended) {
                if !reaching.contains(&c) && reaching.len() < LIST_ITEMS_CAP {
                    reaching.push(c);
                }
            }
        }
        // … else the class bodies around the function: a field (Scala's `lazy val orders =
        // Readers.orders(…)` read by a method), then the module's last
        // (never for a parameter of the function or of one around it)
        let mut scope = chain.symbol;
        for _ in 0..ENCLOSING_SCOPES {
            let Some(symbol) = scope.and_then(|s| index.symbols.get(s as usize)) else {
                break;
            };
            if !reaching.is_empty() || symbol.params.iter().any(|p| p == var) {
                break;
            }
            let Some(outer) = symbol.parent else { break };
            let class_body = index.symbols.get(outer as usize).is_some_and(|s| {
                matches!(
                    s.kind,
                    crate::code::SymbolKind::Class | crate::code::SymbolKind::Object
                )
            });
            if class_body {
                reaching.extend(
                    candidates
                        .iter()
                        .filter(|c| chains[**c].symbol == Some(outer))
                        .max_by_key(|c| chains[**c].statement.start),
                );
            }
            scope = Some(outer);
        }
        if reaching.is_empty() {
            reaching.extend(
                candidates
                    .iter()
                    .filter(before)
                    .filter(|c| chains[**c].symbol.is_none())
                    .max_by_key(|c| chains[**c].statement.start),
            );
        }
        reaching
    };
    // An object's attribute (`self.orders`, `this.orders`) a view registration starts from is
    // assigned in another method (the constructor, often a base class's in another file): every
    // assignment of it in the registering file, else in the other files (as long as they are
    // few). The view's SQL then reads the attribute's reader.
    let mut by_attribute: HashMap<&str, Vec<usize>> = HashMap::new();
    for (idx, chain) in chains.iter().enumerate() {
        if let Some(var) = chain.assigned_to.as_deref().filter(|v| is_attribute(v)) {
            by_attribute.entry(var).or_default().push(idx);
        }
    }
    let attribute_definitions = |chain: &CallChain, var: &str| -> Vec<usize> {
        let Some(all) = by_attribute.get(var) else {
            return Vec::new();
        };
        let own: Vec<usize> = all
            .iter()
            .copied()
            .filter(|c| chains[*c].file == chain.file)
            .collect();
        let reaching = if own.is_empty() { all.clone() } else { own };
        if reaching.len() > MAY_REACH_CAP {
            return Vec::new();
        }
        reaching
    };
    // The chain assigning `var` last before `line` in the function `symbol` of `file` (not one
    // adding a frame to a list `var` names: passed whole, the list is no frame).
    let assigned_before = |file: FileId, symbol: Option<SymbolId>, line: u32, var: &str| {
        by_var
            .get(&(file, var))?
            .iter()
            .filter(|c| !chains[**c].appended)
            .filter(|c| chains[**c].statement.end < line && chains[**c].symbol == symbol)
            .max_by_key(|c| chains[**c].statement.start)
            .copied()
    };
    // A JVM method reading a name it neither declares nor takes reads a field of its class,
    // which other methods assign (`deduped = goodOrders…` in a test's `@BeforeEach setup()`,
    // read by each test): those assignments reach it — not other methods' local declarations.
    let field_assignments = |chain: &CallChain, var: &str| -> Vec<usize> {
        if chain.symbol.is_none() || !super::build::in_jvm_code(index, chain) {
            return Vec::new();
        }
        let Some(candidates) = by_var.get(&(chain.file, var)) else {
            return Vec::new();
        };
        let assigned: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|c| {
                let other = &chains[*c];
                other.symbol.is_some()
                    && other.symbol != chain.symbol
                    && assigns_without_declaring(&other.text, var)
            })
            .collect();
        if assigned.len() > MAY_REACH_CAP {
            return Vec::new();
        }
        assigned
    };
    // A pytest test's parameter named after a fixture (`def test_bins(spark, df)` beside
    // `@pytest.fixture def df(spark): … return df`) holds what that fixture returns — its own
    // file's, else a `conftest.py`'s: pytest passes it by name, no call to follow.
    // module-level functions returning a frame, by name
    let mut returning: HashMap<&str, Vec<&crate::code::Symbol>> = HashMap::new();
    for symbol in &index.symbols {
        if symbol.parent.is_none() && returned_by.contains_key(&symbol.id) {
            returning.entry(&symbol.name).or_default().push(symbol);
        }
    }
    // The fixture `var` names when the function `symbol` of `file` takes it as a parameter.
    let fixture_feeds = |file: FileId, symbol: Option<SymbolId>, var: &str| -> Vec<usize> {
        let takes_it = symbol
            .and_then(|s| index.symbols.get(s as usize))
            .is_some_and(|f| f.params.iter().any(|p| p == var));
        if !takes_it || index.files[file as usize].language != crate::code::Language::Python {
            return Vec::new();
        }
        let fixtures = |in_file: &dyn Fn(FileId) -> bool| -> Vec<usize> {
            returning
                .get(var)
                .into_iter()
                .flatten()
                .filter(|s| in_file(s.file))
                .flat_map(|s| returned_by.get(&s.id).into_iter().flatten().copied())
                .collect()
        };
        let own = fixtures(&|f| f == file);
        if !own.is_empty() {
            return own;
        }
        fixtures(&|f| index.files[f as usize].path.ends_with("conftest.py"))
    };
    // A chain starting from a parameter (`def build(df): df.select(…)`) is fed by what the
    // function's callers pass there (`build(fraud_df, …)`): the chains assigning it last — or,
    // when a test passes a fixture it takes (`def test_bins(df): bins(df)`), what that returns;
    // a call of another function (`self.transform(self.extract())`), what that returns; a
    // parameter of the caller's own (`def transform(self, df): return run_steps(df, STEPS)`),
    // what the caller's callers pass, up to [`PASSED_ON_DEPTH`] functions up while nothing
    // nearer is known and each function up there has one caller.
    let parameter_feeds = |chain: &CallChain, var: &str| -> Vec<usize> {
        let mut feeds = Vec::new();
        let mut asked: Vec<(Option<SymbolId>, &str)> = vec![(chain.symbol, var)];
        let mut level = asked.clone();
        for depth in 0..PASSED_ON_DEPTH {
            let mut next = Vec::new();
            for (symbol, var) in level {
                let Some(function) = symbol.and_then(|s| index.symbols.get(s as usize)) else {
                    continue;
                };
                let arguments: Vec<_> = passed.arguments(function, var).collect();
                // (up the callers only through a function called from one place: one called
                // from several passes on frames none of which is known to be the one)
                if depth > 0 && arguments.len() > 1 {
                    continue;
                }
                for a in arguments {
                    match &a.value {
                        ArgValue::Name(passed_var) => {
                            if let Some(def) = assigned_before(a.file, a.symbol, a.line, passed_var)
                            {
                                feeds.push(def);
                                continue;
                            }
                            let fixture = fixture_feeds(a.file, a.symbol, passed_var);
                            if !fixture.is_empty() {
                                feeds.extend(fixture);
                            } else if !asked.contains(&(a.symbol, passed_var.as_str())) {
                                asked.push((a.symbol, passed_var));
                                next.push((a.symbol, passed_var.as_str()));
                            }
                        }
                        ArgValue::Returned(called) => {
                            feeds.extend(functions.returned_by_call(a.file, a.symbol, called))
                        }
                        ArgValue::Literal(_) | ArgValue::Setting(_) | ArgValue::Expression => {}
                    }
                }
            }
            // (the callers' callers only while the nearer ones say nothing: a library's
            // function passing its parameter on is called from everywhere)
            if !feeds.is_empty() {
                break;
            }
            level = next;
        }
        feeds
    };
    // A name the chain's function does not define comes from outside it: a parameter's callers,
    // else the methods assigning the field it names, else the fixture of its name.
    let outside_feeds = |chain: &CallChain, var: &str| -> Vec<usize> {
        let passed = parameter_feeds(chain, var);
        if !passed.is_empty() {
            return passed;
        }
        let assigned = field_assignments(chain, var);
        if !assigned.is_empty() {
            return assigned;
        }
        fixture_feeds(chain.file, chain.symbol, var)
    };
    // `self.sales.groupBy(…)` in one method after `self.sales = spark.read…` in another (or
    // earlier in the same one): the frame an object holds is what assigned it there.
    // … and read from outside through a variable holding the object (`report.sales` after
    // `report = StoreReport(…).load()`): what its class's methods assign `self.sales`.
    let held_frame = |chain: &CallChain, expression: &str| -> Vec<usize> {
        if let Some(attribute) = attribute_variable(expression) {
            if crate::code::lang::vocab::is_session_name(attribute) {
                return Vec::new();
            }
            let assigned = definitions(chain, attribute);
            return if assigned.is_empty() {
                attribute_definitions(chain, attribute)
            } else {
                assigned
            };
        }
        let Some(field) = field_of_object(expression) else {
            return Vec::new();
        };
        ["self.", "this."]
            .iter()
            .map(|owner| attribute_definitions(chain, &format!("{owner}{field}")))
            .find(|assigned| !assigned.is_empty())
            .unwrap_or_default()
    };
    // Chains of one statement: a chain written inside another's arguments
    // (`a.join(b.withColumnRenamed("id", "key"), "key")`) comes after it in the index.
    let mut by_statement: HashMap<(FileId, LineRange), Vec<usize>> = HashMap::new();
    for (idx, chain) in chains.iter().enumerate() {
        by_statement
            .entry((chain.file, chain.statement))
            .or_default()
            .push(idx);
    }
    // The unassigned chains written inside chain `idx`'s arguments that start from `variable`.
    let inline_on = |idx: usize, chain: &CallChain, variable: &str| -> Vec<usize> {
        by_statement[&(chain.file, chain.statement)]
            .iter()
            .copied()
            .filter(|&other| other > idx)
            .filter(|&other| {
                let inner = &chains[other];
                inner.assigned_to.is_none() && root_variable(&inner.receiver) == variable
            })
            .collect()
    };
    chains
        .iter()
        .zip(helpers)
        .enumerate()
        .map(|(idx, (chain, helper))| {
            let mut feeds = Vec::new();
            let root = root_variable(&chain.receiver);
            let registered_attribute = attribute_variable(&chain.receiver)
                .filter(|_| chain.calls.iter().any(|c| registers_view(&c.method)));
            let reads_field_of_object = field_of_object(&chain.receiver).is_some();
            if let Some(attribute) = registered_attribute {
                feeds.extend(
                    attribute_definitions(chain, attribute)
                        .into_iter()
                        .filter(|def| *def != idx)
                        .map(|def| (FlowRole::Receiver, def)),
                );
            } else if let Some(held) = reads_field_of_object
                .then(|| held_frame(chain, &chain.receiver))
                .filter(|held| !held.is_empty())
            {
                // `report.sales.groupBy(…)`: the frame the object holds in that field, whatever
                // call assigned the object (`report = StoreReport(…).load()`)
                feeds.extend(
                    held.into_iter()
                        .filter(|def| *def != idx)
                        .map(|def| (FlowRole::Receiver, def)),
                );
            } else if !root.is_empty() {
                let defined = definitions(chain, root);
                if defined.is_empty() {
                    for def in outside_feeds(chain, root) {
                        if def != idx && !feeds.iter().any(|(_, d)| *d == def) {
                            feeds.push((FlowRole::Receiver, def));
                        }
                    }
                }
                feeds.extend(defined.into_iter().map(|def| (FlowRole::Receiver, def)));
            }
            // a frame an object holds ([`held_frame`] above; an object's field was asked first)
            if registered_attribute.is_none() && !reads_field_of_object && feeds.is_empty() {
                feeds.extend(
                    held_frame(chain, &chain.receiver)
                        .into_iter()
                        .filter(|def| *def != idx)
                        .map(|def| (FlowRole::Receiver, def)),
                );
            }
            for &def in helper.source.iter().chain(&helper.applied) {
                if def != idx && !feeds.iter().any(|(_, d)| *d == def) {
                    feeds.push((FlowRole::Receiver, def));
                }
            }
            for input in &chain.inputs {
                // `transform(lambda d: d.filter(…))`: the lambda's chain makes the call's frame
                if let Some(parameter) = input.strip_suffix(APPLIED_LAMBDA) {
                    for def in inline_on(idx, chain, parameter) {
                        if !feeds.iter().any(|(_, d)| *d == def) {
                            feeds.push((FlowRole::Receiver, def));
                        }
                    }
                    continue;
                }
                // `join(spark.table("stores"), …)`: the chains of the statement reading from that
                // session inline, each after the chain whose arguments hold it
                if let Some(session) = input.strip_suffix(INLINE_READ) {
                    for def in inline_on(idx, chain, root_variable(session)) {
                        if !feeds.iter().any(|(_, d)| *d == def) {
                            feeds.push((FlowRole::Argument, def));
                        }
                    }
                    continue;
                }
                let variable = root_variable(input);
                // The inline chain on that input, when the argument is one: it is what enters.
                let inline = inline_on(idx, chain, variable).first().copied();
                // … or, for a parameter (`def run(self, orders, products): orders.join(products)`),
                // what the function's callers pass.
                // (a list frames were added to, passed whole, is no frame: `union_all(rows)` may
                // take them apart as RDDs — its elements, `union(rows[1])`, are its frames)
                let mut defined = definitions(chain, variable);
                if input == variable {
                    defined.retain(|def| !chains[*def].appended);
                }
                if defined.is_empty() && inline.is_none() {
                    defined = held_frame(chain, input);
                }
                if defined.is_empty() && inline.is_none() {
                    defined = outside_feeds(chain, variable);
                }
                for def in inline.into_iter().chain(defined) {
                    if def != idx && !feeds.iter().any(|(_, d)| *d == def) {
                        feeds.push((FlowRole::Argument, def));
                    }
                }
            }
            feeds
        })
        .collect()
}

/// A function applied to a frame (`df.transform(clean)`, `.transform(partial(at_least, …))`,
/// `.transform(lambda df: named(df, names))`) runs on that frame, which its parameter names
/// without any caller passing it: the chains it returns are fed by what the applying chain starts
/// from and by the functions it applies before (`.transform(f).transform(g)`: `f`'s operators
/// are below `g`'s in the plan).
pub(super) fn feed_applied_functions(
    helpers: &[crate::pipeline::handoffs::HelperFeeds],
    chain_feeds: &mut [Vec<(FlowRole, usize)>],
) {
    for (chain, helper) in helpers.iter().enumerate() {
        if helper.applied.is_empty() {
            continue;
        }
        let mut before: Vec<usize> = chain_feeds[chain]
            .iter()
            .filter(|(role, fed_by)| {
                *role == FlowRole::Receiver && !helper.applied.contains(fed_by)
            })
            .map(|(_, fed_by)| *fed_by)
            .collect();
        for &applied in &helper.applied {
            for &fed_by in &before {
                if fed_by != applied && !chain_feeds[applied].iter().any(|(_, d)| *d == fed_by) {
                    chain_feeds[applied].push((FlowRole::Receiver, fed_by));
                }
            }
            before.push(applied);
        }
    }
}

/// For each chain, the statement that cached the frame it starts from (`df.cache()`,
/// `df.persist(…)` or `cached = df.cache()` earlier in the same function, with no `unpersist()`
/// since): Spark then plans it over the cached data, so its plan shows an in-memory scan — and
/// the in-memory relation is that statement's.
pub(super) fn frames_cached_by(index: &RepoIndex) -> Vec<Option<usize>> {
    let chains = &index.chains;
    // (file, function, variable) → the statements caching (or releasing) its frame
    type Marks<'i> = HashMap<(FileId, Option<SymbolId>, &'i str), Vec<usize>>;
    let marks = |methods: &[&str]| -> Marks<'_> {
        let mut marks: Marks<'_> = HashMap::new();
        let marks_frame =
            |k: &crate::code::SparkCall| methods.iter().any(|m| k.method.eq_ignore_ascii_case(m));
        let marking = chains
            .iter()
            .enumerate()
            .filter(|(_, c)| c.calls.iter().any(marks_frame));
        for (i, c) in marking {
            // `df.cache()` caches `df`; `df.where(…).cache()` caches another frame, the one
            // it is assigned to.
            let receiver = Some(root_variable(&c.receiver))
                .filter(|v| !v.is_empty() && c.calls.first().is_some_and(marks_frame));
            for var in receiver.into_iter().chain(c.assigned_to.as_deref()) {
                marks.entry((c.file, c.symbol, var)).or_default().push(i);
            }
        }
        marks
    };
    let cached = marks(&["cache", "persist"]);
    if cached.is_empty() {
        return vec![None; chains.len()];
    }
    let released = marks(&["unpersist"]);
    chains
        .iter()
        .map(|chain| {
            let key = (chain.file, chain.symbol, root_variable(&chain.receiver));
            let last_before = |marks: &Marks<'_>| {
                marks
                    .get(&key)?
                    .iter()
                    .copied()
                    .filter(|c| chains[*c].statement.start < chain.statement.start)
                    .max_by_key(|c| chains[*c].statement.start)
            };
            let line = |c: usize| chains[c].statement.start;
            match (last_before(&cached), last_before(&released)) {
                (Some(cache), Some(release)) => (line(cache) > line(release)).then_some(cache),
                (cache, _) => cache,
            }
        })
        .collect()
}

/// A frame cached on a line of its own (`df.cache()`) reaches every later query of it through
/// that statement ([`frames_cached_by`]): it feeds them, so the plan's in-memory relation is
/// its.
pub(super) fn add_cache_feeds(
    cached_by: &[Option<usize>],
    chain_feeds: &mut [Vec<(FlowRole, usize)>],
) {
    for (chain, cache) in cached_by.iter().enumerate() {
        if let Some(cache) = *cache
            && cache != chain
            && !chain_feeds[chain]
                .iter()
                .any(|(_, fed_by)| *fed_by == cache)
        {
            chain_feeds[chain].push((FlowRole::Receiver, cache));
        }
    }
}

/// Whether a statement assigns `var` without declaring it (`deduped = …`, `this.deduped = …`,
/// not `Dataset<Row> deduped = …` or `val deduped = …`): it sets a field.
fn assigns_without_declaring(statement: &str, var: &str) -> bool {
    let text = statement.trim_start();
    let text = text.strip_prefix("this.").unwrap_or(text);
    text.strip_prefix(var)
        .map(str::trim_start)
        .is_some_and(|rest| rest.starts_with('=') && !rest.starts_with("=="))
}

/// The field a receiver reads of an object a variable holds: `sales` of `report.sales` or
/// `report.sales.groupBy(…)`; `None` for a session's or an object's own (`self.x`) or a bare name.
fn field_of_object(receiver: &str) -> Option<&str> {
    let (owner, rest) = receiver.split_once('.')?;
    let is_name = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    let field = rest.split('.').next()?;
    (is_name(owner)
        && is_name(field)
        && !matches!(owner, "self" | "this" | "cls")
        && !crate::code::lang::vocab::is_session_name(owner))
    .then_some(field)
}

/// Whether a variable is an object's attribute (`self.orders`, `this.orders`).
fn is_attribute(variable: &str) -> bool {
    attribute_variable(variable) == Some(variable)
}

/// The object attribute a receiver starts from: `self.orders` of
/// `self.orders.createOrReplaceTempView(…)` (Python's `self`, Java's and Scala's `this`); `None`
/// for anything else.
fn attribute_variable(receiver: &str) -> Option<&str> {
    let rest = receiver
        .strip_prefix("self.")
        .or_else(|| receiver.strip_prefix("this."))?;
    let name = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (name > 0).then(|| &receiver[..receiver.len() - rest.len() + name])
}
