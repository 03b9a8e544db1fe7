//! Chains: a statement's outermost `a.b(..).c(..)` flattened receiver-first into calls, kept
//! when it is a DataFrame chain; `spark.sql(…)` calls and the SQL text they run.

use super::*;

impl<'a> Extractor<'a> {
    /// Flatten the chain whose outermost node is `top`; `None` if it holds no call.
    pub(super) fn flatten(&self, top: Node<'a>) -> Option<Flat<'a>> {
        let mut links = Vec::new();
        let mut current = top;
        let mut base_is_call = false;
        let mut steps = 0usize;
        loop {
            steps += 1;
            if steps > 100_000 {
                break;
            }
            match self.adapter.shape(current, self.src) {
                Shape::Call { object, name, args } => {
                    links.push(Link::Call {
                        node: current,
                        name,
                        args,
                    });
                    match object {
                        Some(object) => current = object,
                        None => {
                            base_is_call = true;
                            break;
                        }
                    }
                }
                Shape::Member { object, name } => {
                    links.push(Link::Member { name });
                    current = object;
                }
                Shape::Paren(inner) => current = inner,
                _ => break,
            }
        }
        // `rdd.toDF.show`, `df.as[Car]`, `df.distinct.count`: Scala's parenless calls make a
        // chain of members alone.
        if !links.iter().any(|l| {
            matches!(l, Link::Call { .. }) || self.makes_frame(l) || self.parenless_call(l)
        }) {
            return None;
        }
        links.reverse();
        Some(Flat {
            links,
            base: current,
            base_is_call,
        })
    }

    /// The part of the chain's statement (`host`) holding a call named on `line`, when the
    /// file's line statements split it ([`line_statements`]); `None` when that part is the whole.
    ///
    /// [`line_statements`]: super::super::line_statements
    fn call_statement(&self, line: u32, host: LineRange) -> Option<LineRange> {
        let at = self.line_statements.partition_point(|s| s.end < line);
        let part = self.line_statements.get(at).filter(|s| s.start <= line)?;
        let (start, end) = (part.start.max(host.start), part.end.min(host.end));
        (start <= end && (start > host.start || end < host.end)).then(|| LineRange::new(start, end))
    }

    // Long (~140 lines): one pass over a flattened chain's links that must see each link's
    // predecessor (receivers, helpers, `write`, SQL handed to `spark.sql`).
    pub(super) fn chain(
        &mut self,
        flat: &Flat<'a>,
        top: Node<'a>,
        statement: Node<'a>,
        host: LineRange,
        assigned_to: Option<String>,
    ) {
        let src = self.src;
        let mut links = flat.links.as_slice();
        let mut receiver;
        let mut via_dataframe_helper = false;
        let base_ident = match self.adapter.shape(flat.base, src) {
            Shape::Ident if !flat.base_is_call => Some(text(flat.base, src)),
            _ => None,
        };
        // `cols.filter(…)` over a frame's column names, `df.columns.contains("x")`: a
        // collection's methods, not a frame's; a pandas frame's `groupby(…).agg(…)` is pandas'.
        if base_ident.is_some_and(|b| self.column_lists.contains(b) || self.is_foreign_frame(b))
            || links
                .iter()
                .any(|l| self.member_named(l, vocab::COLUMN_LISTINGS))
        {
            return;
        }
        // `rows[0].union(rows[1])`: a frame a list holds
        let list_element = self.frame_list_element(flat.base);
        // `reduce(DataFrame.union, frames)`, `frames.reduce(_ union _)`, `Seq(a, b).reduce(…)`:
        // a union of the frames, from the reducing call on (`frames.stream()` is the list)
        let reduced_list = self.folded_union(flat);
        if let Some(folded) = &reduced_list {
            links = &links[folded.at..];
        }
        // `gold.scorecard(silver).show()`, `cleaner.clean(df).cache()`,
        // `Transformations.clean(df).filter(…)`: a function of ours called on a module, a class
        // or an object starts the chain as a lone call of it does (`load(spark).filter(…)`).
        let helper_call = match links.first() {
            Some(Link::Call { node, name, .. })
                if !flat.base_is_call
                    && reduced_list.is_none()
                    && base_ident.is_some_and(|b| !self.is_dataframe_var(b))
                    && !vocab::is_dataframe_method(text(*name, src))
                    && self.collection_items(*node).is_none()
                    && self.helper_callee(*node).is_some() =>
            {
                Some(*node)
            }
            _ => None,
        };
        let starting_call = if flat.base_is_call {
            Some(flat.base)
        } else {
            helper_call
        };
        if flat.base_is_call || helper_call.is_some() {
            let Some(Link::Call { name, .. }) = links.first() else {
                return;
            };
            let name = text(*name, src);
            // A lone call `f(x)` is no chain; `broadcast(df).join(…)` is.
            if reduced_list.is_none() && (vocab::COLUMN_BUILDERS.contains(&name) || links.len() < 2)
            {
                return;
            }
            receiver = String::new();
        } else {
            match self.adapter.shape(flat.base, src) {
                Shape::Ident | Shape::Member { .. } | Shape::Call { .. } | Shape::Apply { .. } => {}
                Shape::Index { .. } if list_element.is_some() => {}
                // `"sep".join(…)`, `$"x".desc`, numbers: never DataFrames.
                _ => return,
            }
            receiver = capped(text(flat.base, src), 80);
            // (`Arrays.asList(a, b).stream().reduce(Dataset::union)` folds frames all the same)
            if reduced_list.is_none()
                && base_ident.is_some_and(|b| {
                    vocab::COLUMN_BUILDERS.contains(&b) || self.is_foreign_module(b)
                })
            {
                return;
            }
            let base_is_df = base_ident.is_some_and(|b| self.is_dataframe_var(b));
            if !base_is_df {
                while let Some(Link::Member { name }) = links.first() {
                    let member = text(*name, src);
                    if vocab::PARENLESS_FRAME_MAKERS.contains(&member)
                        || vocab::PARENLESS_CALLS.contains(&member)
                    {
                        break;
                    }
                    // `frame.na.drop(…)`: the null and statistics helpers exist on DataFrames.
                    via_dataframe_helper |= vocab::DATAFRAME_HELPERS.contains(&member);
                    receiver.push('.');
                    receiver.push_str(member);
                    links = &links[1..];
                }
            }
        }
        let methods: Vec<&str> = links
            .iter()
            .map(|l| match l {
                Link::Call { name, .. } | Link::Member { name } => text(*name, src),
            })
            .collect();
        let root = receiver.split('.').next().unwrap_or("");
        // `readDF("cars.json").as[Car]`: a function's result made a typed Dataset
        let converts_a_result =
            flat.base_is_call && links.len() >= 2 && links[1..].iter().all(|l| self.makes_frame(l));
        // (`gold.scorecard(silver).show()`: what a function of ours returns is a frame when the
        // chain goes on with a frame's method)
        let from_helper = helper_call.is_some()
            && methods
                .iter()
                .skip(1)
                .any(|m| vocab::is_dataframe_method(m));
        let known_start = base_ident.is_some_and(|b| self.is_dataframe_var(b))
            || from_helper
            || list_element.is_some()
            || reduced_list.is_some()
            || via_dataframe_helper
            || converts_a_result
            || self.is_session(root)
            || receiver.split('.').any(vocab::is_session_name);
        // `a.join(b, keys, how)`: a string's `join` takes one argument, a frame's two or three —
        // also where nothing says `a` is a frame (`reduce(lambda a, b: a.join(b, keys), frames)`);
        // not a class's static helper (`String.join(",", names)`, `StringUtils.join(…)`).
        let joins_frames = !receiver.starts_with(|c: char| c.is_ascii_uppercase())
            && links.iter().any(|l| {
                matches!(l, Link::Call { name, args: Some(args), .. }
                if text(*name, src) == "join" && named_children(*args).len() >= 2)
            });
        let strong = joins_frames
            || methods
                .iter()
                .any(|m| vocab::is_dataframe_method(m) && !WEAK_METHODS.contains(m));
        let weak_pair = methods.len() >= 2
            && methods
                .iter()
                .filter(|m| vocab::is_dataframe_method(m))
                .count()
                >= 2;
        if !(known_start || strong || weak_pair) {
            return;
        }
        if methods
            .iter()
            .all(|m| vocab::COLUMN_ONLY_METHODS.contains(m))
            && !known_start
        {
            return;
        }
        // `self.part.filter(…)`: an object's attribute a chain starts from holds a frame, so its
        // `self.part.p_type` is a column wherever it is written.
        if receiver.contains('.')
            && base_ident.is_some()
            && !via_dataframe_helper
            && !self.is_session(root)
            && !receiver.split('.').any(vocab::is_session_name)
        {
            self.df_vars.insert(receiver.clone());
        }
        // `.join(self.nation, …)`: so is one another frame takes — and a name it takes, a
        // parameter of a function no type tells (`def named(df, names): df.join(names, …)`)
        for link in links {
            if let Link::Call {
                name,
                args: Some(args),
                ..
            } = link
                && vocab::FRAME_TAKING_METHODS.contains(&text(*name, src))
                && let Some(first) = named_children(*args).first()
            {
                // the name the frame is reached from: the object of `self.nation`, or `names`
                let root = match self.adapter.shape(*first, src) {
                    Shape::Member { object, .. }
                        if matches!(self.adapter.shape(object, src), Shape::Ident) =>
                    {
                        text(object, src)
                    }
                    Shape::Ident if !self.column_lists.contains(text(*first, src)) => {
                        text(*first, src)
                    }
                    _ => continue,
                };
                if !self.is_session(root) {
                    self.df_vars.insert(text(*first, src).to_string());
                }
            }
        }
        let mut inputs: Vec<String> = Vec::new();
        let mut calls = Vec::with_capacity(links.len());
        let mut columns_named = None;
        for (position, link) in links.iter().enumerate() {
            columns_named = None;
            match *link {
                Link::Call { node, name, args } => {
                    let method = match &reduced_list {
                        Some(folded) if position == 0 => folded.method.clone(),
                        _ => text(name, src).to_string(),
                    };
                    columns_named = args.and_then(|a| self.frame_column_names(&method, a));
                    let previous = position.checked_sub(1).and_then(|p| match links[p] {
                        Link::Call { node, name, args } => Some((text(name, src), node, args)),
                        Link::Member { .. } => None,
                    });
                    let start = if flat.base_is_call && node == flat.base {
                        start_line(node)
                    } else {
                        start_line(name)
                    };
                    let args = match args {
                        Some(args) => CallArgs {
                            inline_columns: self.inline_columns(
                                &method,
                                args,
                                previous,
                                (!flat.base_is_call).then_some(flat.base),
                            ),
                            ..self.break_down_args(args, &method, &receiver, &mut inputs)
                        },
                        None => CallArgs::default(),
                    };
                    if method == "sql" {
                        self.sql_call(node, args_node(link), host, assigned_to.clone());
                    }
                    calls.push(SparkCall {
                        method,
                        lines: LineRange::new(start, end_line(node)),
                        args,
                        statement: self.call_statement(start_line(name), host),
                    });
                }
                Link::Member { name } => calls.push(SparkCall {
                    method: text(name, src).to_string(),
                    lines: LineRange::new(start_line(name), end_line(name)),
                    args: CallArgs::default(),
                    statement: self.call_statement(start_line(name), host),
                }),
            }
        }
        if let Some(folded) = reduced_list {
            receiver = folded.receiver;
            inputs.extend(folded.inputs);
        } else if let Some(variable) = list_element
            .is_some()
            .then(|| self.listed_variable(flat.base))
            .flatten()
        {
            // `frames[0].union(…)`: the frame variable the list holds there
            receiver = variable;
        } else if starting_call.is_some()
            && let Some(first) = calls.first()
        {
            receiver = format!("{}(…)", first.method);
        }
        dedup(&mut inputs);
        inputs.retain(|i| *i != receiver);
        if let Some(var) = &assigned_to {
            // Window specs are chains too, but the variable holds no DataFrame.
            if receiver != "Window" {
                self.df_vars.insert(var.clone());
            }
            // The columns of the frame the chain's last call builds (none after any other call).
            match columns_named {
                Some(columns) => self.frame_columns.insert(var.clone(), columns),
                None => self.frame_columns.remove(var),
            };
        }
        // `rdd.toDF`: the plan's scan names where the RDD was made
        let receiver_made_at = base_ident
            .filter(|_| {
                calls
                    .first()
                    .is_some_and(|c| vocab::makes_frame_of_rows(&c.method))
            })
            .and_then(|b| self.assigned_at.get(b).copied());
        let (source_function, applied_functions) = self.helpers_of(starting_call, links);
        let id = self.out.chains.len() as u32;
        let (returned_columns, returns_exactly) = self.returned_columns(top, links, &calls);
        self.out.chains.push(CallChain {
            id,
            file: 0,
            symbol: self.symbol_stack.last().copied(),
            statement: host,
            receiver,
            inputs,
            assigned_to,
            calls,
            text: capped(self.own_statement_text(statement), STATEMENT_TEXT_CAP),
            source_function,
            applied_functions,
            returned: false,
            unread: false,
            receiver_made_at,
            branch_depth: self.branch_depth(statement),
            tuple_position: None,
            appended: false,
            returned_columns,
            returns_exactly,
        });
        self.settle_pending_fold();
    }

    /// The columns the code says a chain's query returns ([`CallChain::returned_columns`]),
    /// and whether it returns exactly those: a plain `select` right before the rows are
    /// collected or the frame becomes an RDD (exactly), string subscripts of the chain's value
    /// (`….toPandas()["iv"]`, `….collect()[0]["iv"]`) and `getAs("iv")` after the collecting
    /// action — only when nothing but [`vocab::READS_COLLECTED_ROWS`] follows that action.
    fn returned_columns(
        &self,
        top: Node<'a>,
        links: &[Link<'a>],
        calls: &[SparkCall],
    ) -> (Vec<String>, bool) {
        // (`.rdd` hands the frame's rows to RDD code: the query ends there)
        let Some(ending) = calls.iter().position(|c| {
            vocab::COLLECTS_ROWS.contains(&c.method.as_str()) || c.method == vocab::RDD_OF_FRAME
        }) else {
            return (Vec::new(), false);
        };
        let mut columns = self.selected_before(&links[..ending], &calls[..ending]);
        let returns_exactly = !columns.is_empty();
        let after = &calls[ending + 1..];
        if calls[ending].method == vocab::RDD_OF_FRAME
            || !after
                .iter()
                .all(|c| vocab::READS_COLLECTED_ROWS.contains(&c.method.as_str()))
        {
            return (columns, returns_exactly);
        }
        columns.extend(
            after
                .iter()
                .filter(|c| c.method == "getAs")
                .flat_map(|c| c.args.columns.iter().chain(&c.args.literals))
                .filter(|name| !name.is_empty() && name.parse::<f64>().is_err())
                .cloned(),
        );
        // `(….collect())[0]["iv"]`: through parentheses and positional indexes, each string
        // index is a column of the collected rows.
        let mut value = top;
        while let Some(parent) = value.parent() {
            match self.adapter.shape(parent, self.src) {
                Shape::Paren(_) => {}
                Shape::Index { object, index } if object == value => {
                    let index = self.unwrap_parens(index);
                    if let Shape::Str = self.adapter.shape(index, self.src)
                        && let Some(decoded) = self.adapter.decode_string(index, self.src)
                    {
                        columns.push(decoded.text);
                    }
                }
                _ => break,
            }
            value = parent;
        }
        dedup(&mut columns);
        (columns, returns_exactly)
    }

    /// The columns the last `select` of a chain keeps, when it names plain columns only — one
    /// per argument, no function, alias or `*` (`select("a", F.col("b"))`) — and only calls
    /// keeping every column follow it (`where`, `orderBy`, `distinct`, …).
    fn selected_before(&self, links: &[Link<'a>], calls: &[SparkCall]) -> Vec<String> {
        let Some(at) = calls
            .iter()
            .rposition(|c| !vocab::KEEPS_COLUMNS.contains(&c.method.as_str()))
        else {
            return Vec::new();
        };
        let (
            call,
            Some(Link::Call {
                args: Some(args), ..
            }),
        ) = (&calls[at], links.get(at))
        else {
            return Vec::new();
        };
        let a = &call.args;
        let plain = call.method == "select"
            && !a.columns.is_empty()
            && named_children(*args).len() == a.columns.len()
            && a.functions.is_empty()
            && a.aliases.is_empty()
            && a.literals.is_empty()
            && !a.computed_columns
            && !a.columns.iter().any(|c| c.contains('*'));
        if plain { a.columns.clone() } else { Vec::new() }
    }

    /// Whether a link is a parenless call making a frame ([`vocab::PARENLESS_FRAME_MAKERS`]).
    fn makes_frame(&self, link: &Link<'a>) -> bool {
        self.member_named(link, vocab::PARENLESS_FRAME_MAKERS)
    }

    /// Whether a link is a parenless call of a frame's method ([`vocab::PARENLESS_CALLS`]).
    fn parenless_call(&self, link: &Link<'a>) -> bool {
        self.member_named(link, vocab::PARENLESS_CALLS)
    }

    /// Whether a link is a member (no parentheses) with one of `names`.
    pub(super) fn member_named(&self, link: &Link<'a>, names: &[&str]) -> bool {
        matches!(link, Link::Member { name } if names.contains(&text(*name, self.src)))
    }

    /// `spark.sql(<literal | variable>)`.
    pub(super) fn sql_call(
        &mut self,
        call: Node<'a>,
        args: Option<Node<'a>>,
        host: LineRange,
        assigned_to: Option<String>,
    ) {
        let Some(args) = args else { return };
        let Some(first) = named_children(args).into_iter().next() else {
            return;
        };
        let first = match self.adapter.shape(first, self.src) {
            Shape::Keyword { value, .. } => value,
            _ => first,
        };
        let first = self.unwrap_parens(first);
        let Some((value, host_statement, literal_start)) = self.sql_text(first, host) else {
            return;
        };
        let _ = call;
        self.consumed_literals.insert(literal_start);
        for analysed in analyse_sql(&value) {
            let id = self.out.sql.len() as u32;
            self.out.sql.push(SqlStatement {
                id,
                file: 0,
                symbol: self.symbol_stack.last().copied(),
                origin: SqlOrigin::SparkSqlCall,
                lines: analysed.lines,
                host_statement,
                parsed: analysed.parsed,
                clauses: analysed.clauses,
                assigned_to: assigned_to.clone(),
            });
        }
    }

    /// The SQL passed to `sql(…)`: a literal, a variable holding one, or either formatted
    /// (`q.format(t=…)`, `q.stripMargin`). Returns the text, its host statement and the
    /// literal's start byte.
    pub(super) fn sql_text(
        &self,
        node: Node<'a>,
        host: LineRange,
    ) -> Option<(DecodedString, LineRange, usize)> {
        if let Some((decoded, literal)) = self.string_value(node) {
            return Some((decoded, host, literal.start_byte()));
        }
        let mut current = self.unwrap_parens(node);
        for _ in 0..8 {
            match self.adapter.shape(current, self.src) {
                Shape::Ident => {
                    let var = self.string_vars.get(text(current, self.src))?;
                    return Some((var.value.clone(), var.host, var.literal_start));
                }
                Shape::Call {
                    object: Some(object),
                    name,
                    ..
                } if matches!(
                    text(name, self.src),
                    "format" | "strip" | "trim" | "stripMargin"
                ) =>
                {
                    current = self.unwrap_parens(object)
                }
                Shape::Member { object, name } if text(name, self.src) == "stripMargin" => {
                    current = self.unwrap_parens(object)
                }
                _ => return None,
            }
        }
        None
    }
}
