//! Tests of the parent module.

use super::*;
use crate::code::index::ArgValue;
use crate::code::sql_expr::COUNT_OF_ROWS;

/// The first chain of the statement starting on `line`.
fn first_chain_at(out: &FileExtract, line: u32) -> &CallChain {
    out.chains
        .iter()
        .find(|c| c.statement.start == line)
        .unwrap_or_else(|| panic!("no chain at line {line}: {:#?}", out.chains))
}

/// The first call of the chain whose statement starts at `line`.
fn first_call_at(out: &FileExtract, line: u32) -> &SparkCall {
    &first_chain_at(out, line).calls[0]
}

fn tokens(expr: &str) -> CallArgs {
    let mut out = CallArgs::default();
    sql_expression_tokens(expr, &mut out);
    out
}

#[test]
fn scala_statements_start_on_their_own_first_line() {
    // tree-sitter-scala may start a statement at the newline ending the previous one.
    let src = "object Job extends App {\n    val data = Seq((\"a\", 1),\n      (\"b\", 2)\n    )\n    val df = data.toDF(\"name\", \"n\")\n    df.withColumn(\"m\", col(\"n\"))\n      .show()\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let starts: Vec<(u32, u32)> = out
        .chains
        .iter()
        .map(|c| (c.statement.start, c.statement.end))
        .collect();
    assert_eq!(starts, vec![(5, 5), (6, 7)], "{:#?}", out.chains);
    // `col("x").desc` written without parentheses is the `desc` function all the same.
    let src = "object S extends App {\n  df.sort(col(\"a\").asc, col(\"b\").desc).show()\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let sort = &out.chains[0].calls[0];
    assert_eq!(sort.args.functions, vec!["asc", "desc"]);
}

#[test]
fn null_tests_read_as_spark_functions() {
    let t = tokens("state IS NOT NULL AND gender is null");
    assert_eq!(t.functions, vec!["isnotnull", "isnull"]);
    assert_eq!(t.columns, vec!["state", "gender"]);
    assert!(t.literals.is_empty(), "{:?}", t.literals);
    // `IS` before anything else keeps its operand (`x IS TRUE`).
    let t = tokens("flag IS TRUE");
    assert!(t.functions.is_empty());
    assert_eq!(t.literals, vec!["true"]);
}

#[test]
fn constant_arithmetic_adds_the_literal_spark_folds_it_into() {
    // the plan prints `l_discount >= 0.05` and `l_shipdate < 1995-01-01`
    let t = tokens("l_discount between .06 - 0.01 and .06 + 0.01");
    assert!(t.literals.iter().any(|l| l == "0.05"), "{:?}", t.literals);
    assert!(t.literals.iter().any(|l| l == "0.07"), "{:?}", t.literals);
    let t = tokens("l_shipdate < date '1994-01-01' + interval '1' year");
    assert!(
        t.literals.iter().any(|l| l == "1995-01-01"),
        "{:?}",
        t.literals
    );
}

#[test]
fn a_negated_number_is_a_negative_literal_and_a_subtraction_is_not() {
    // the plan prints `(salary * -1)` and `(salary - 1)`
    assert_eq!(tokens("salary * -1 AS flipped").literals, vec!["-1"]);
    assert_eq!(tokens("abs(-2.5), (-3)").literals, vec!["-2.5", "-3"]);
    assert_eq!(tokens("-7").literals, vec!["-7"]);
    assert_eq!(tokens("salary - 1").literals, vec!["1"]);
    assert_eq!(tokens("f(x) -1").literals, vec!["1"]);
}

#[test]
fn scala_sql_built_with_plus_is_one_statement_on_its_lines() {
    let src = "object AddTime extends App {\n  spark.sql(\"select current_timestamp, \" +\n    \"current_timestamp + INTERVAL 2 hours as added_hours\"\n  ).show(false)\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    assert_eq!(out.sql.len(), 1, "{:#?}", out.sql);
    let select = out.sql[0]
        .clauses
        .iter()
        .find(|c| c.kind == crate::code::SqlClauseKind::SelectItem && c.aliases == ["added_hours"])
        .unwrap();
    assert_eq!((select.lines.start, select.lines.end), (3, 3));
}

#[test]
fn sql_built_with_str_format_holds_the_values_the_file_binds() {
    let src = "table = \"sales_view\"\n\
               limit = 3\n\
               query = \"SELECT item, COUNT(*) AS n FROM {} WHERE qty > {} AND day = '{d}' GROUP BY item\".format(table, limit, d=\"2024-01-01\")\n\
               spark.sql(query).show()\n\
               spark.sql(\"SELECT * FROM {}\".format(unknown)).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let clause = |statement: usize, kind: crate::code::SqlClauseKind| {
        out.sql[statement]
            .clauses
            .iter()
            .find(|c| c.kind == kind)
            .unwrap_or_else(|| panic!("no {kind:?} in {:#?}", out.sql[statement]))
    };
    assert!(out.sql[0].parsed);
    let from = clause(0, crate::code::SqlClauseKind::From);
    assert_eq!(from.tables, vec!["sales_view"]);
    let filter = clause(0, crate::code::SqlClauseKind::WherePredicate);
    assert!(filter.literals.iter().any(|l| l == "3"), "{filter:?}");
    // a value the file does not hold stays a field
    assert!(!out.sql.get(1).is_some_and(|s| {
        s.clauses
            .iter()
            .any(|c| c.tables.iter().any(|t| t == "unknown"))
    }));
}

#[test]
fn sql_built_with_printf_fields_holds_the_values_the_file_binds() {
    // Java's `String.format(…)` and Scala's `"…".format(…)` fill `%s`, `%d`, `%.1f` in order
    let java = "class Report {\n  static final String VIEW = \"customer_orders\";\n  \
                void run(SparkSession spark, int top) {\n    \
                String q = String.format(\"SELECT customer_id, SUM(net) AS spend FROM %s GROUP BY customer_id \"\n        \
                + \"HAVING SUM(net) > %.1f ORDER BY spend DESC LIMIT %d\", VIEW, Config.MIN, 5);\n    \
                spark.sql(q).show();\n  }\n}\n";
    let scala = "object Report {\n  def run(spark: SparkSession): Unit = {\n    \
                 val view = \"customer_orders\"\n    \
                 spark.sql(\"SELECT customer_id FROM %s WHERE net > %d AND pct = '100%%'\".format(view, 3)).show()\n  }\n}\n";
    for (language, src) in [
        (
            &super::super::java::Java as &dyn super::super::LanguageAdapter,
            java,
        ),
        (&super::super::scala::Scala, scala),
    ] {
        let out = extract_file(language, src, "", CodeFlags::default());
        let statement = out.sql.first().unwrap_or_else(|| panic!("no SQL in {src}"));
        assert!(statement.parsed, "{statement:#?}");
        let from = statement
            .clauses
            .iter()
            .find(|c| c.kind == crate::code::SqlClauseKind::From)
            .unwrap();
        assert_eq!(from.tables, vec!["customer_orders"]);
        // (a value the file does not hold, `Config.MIN`, stands in as a parameter; `%%` is `%`)
        let literals: Vec<&String> = statement.clauses.iter().flat_map(|c| &c.literals).collect();
        assert!(
            literals.iter().any(|l| *l == "5" || *l == "3"),
            "{literals:?}"
        );
    }
}

#[test]
fn a_count_of_rows_is_told_from_a_count_of_a_columns_values() {
    // Spark plans `count(*)`, `count(1)`, `count(lit(1))` as `count(1)`; `count(x)` as itself.
    let rows = |functions: &[String]| functions.iter().any(|f| f == COUNT_OF_ROWS);
    assert!(rows(&tokens("COUNT(*) AS n").functions));
    assert!(rows(&tokens("count( 1 )").functions));
    assert!(!rows(&tokens("count(country)").functions));
    assert!(!rows(&tokens("count(10)").functions));
    let src = "df.select(count(\"*\"), count(lit(1))).show()\ndf.groupBy(\"k\").agg(count(\"country\")).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let functions =
        |chain: usize, call: usize| out.chains[chain].calls[call].args.functions.clone();
    assert!(rows(&functions(0, 0)), "{:?}", functions(0, 0));
    assert!(!rows(&functions(1, 1)), "{:?}", functions(1, 1));
    let src = "object S extends App {\n  df.agg(count(lit(1))).show()\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    assert!(rows(&out.chains[0].calls[0].args.functions));
}

#[test]
fn rows_written_out_say_which_of_their_columns_are_longs() {
    let src = "data = [(1, \"a\", 2.5, None, True), (2, \"b\", 3.0, 7, False)]\n\
               df = spark.createDataFrame(data, [\"id\", \"name\", \"score\", \"n\", \"ok\"])\n\
               mixed = spark.createDataFrame([(1, \"a\"), (\"2\", \"b\")], schema=[\"id\", \"name\"])\n\
               typed = spark.createDataFrame(data, schema)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let columns = |line: u32| -> Vec<(String, bool)> {
        let chain = out
            .chains
            .iter()
            .find(|c| c.statement.start == line)
            .unwrap();
        chain.calls[0]
            .args
            .inline_columns
            .iter()
            .map(|c| (c.name.clone(), c.long))
            .collect()
    };
    // A null fits any class: `n` holds whole numbers.
    let expected = [
        ("id", true),
        ("name", false),
        ("score", false),
        ("n", true),
        ("ok", false),
    ];
    assert_eq!(columns(2), expected.map(|(n, l)| (n.to_owned(), l)));
    // A column of two classes says nothing.
    assert_eq!(columns(3), vec![("name".to_owned(), false)]);
    // A schema this cannot read says nothing.
    assert!(columns(4).is_empty());
}

#[test]
fn spark_darias_create_df_names_its_columns_with_their_types() {
    let src = "object S {\n  val df = spark.createDF(\n    List((1L, \"a\"), (2L, null)),\n    List((\"id\", LongType, true), (\"word\", StringType, true))\n  )\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let call = &out.chains[0].calls[0];
    assert_eq!(call.method, "createDF");
    let columns: Vec<(String, bool)> = call
        .args
        .inline_columns
        .iter()
        .map(|c| (c.name.clone(), c.long))
        .collect();
    assert_eq!(
        columns,
        vec![("id".to_owned(), true), ("word".to_owned(), false)]
    );
}

#[test]
fn an_explicit_schema_says_which_columns_are_longs_whatever_the_rows_hold() {
    let src = "schema = StructType([StructField(\"id\", LongType(), True), StructField(\"name\", StringType(), True), StructField(\"tags\", ArrayType(StringType()))])\n\
               df = spark.createDataFrame([(1, \"a\", [])], schema)\n\
               ddl = spark.createDataFrame(rows, \"n INT, total bigint, m map<string,int>\")\n\
               ddl.select(ddl.columns[1:]).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let chain_at = |line: u32| {
        out.chains
            .iter()
            .find(|c| c.statement.start == line)
            .unwrap()
    };
    let columns = |line: u32| -> Vec<(String, bool)> {
        chain_at(line).calls[0]
            .args
            .inline_columns
            .iter()
            .map(|c| (c.name.clone(), c.long))
            .collect()
    };
    // An array's class is unknown: it is left out.
    assert_eq!(
        columns(2),
        [("id".to_owned(), true), ("name".to_owned(), false)]
    );
    assert_eq!(
        columns(3),
        [("n".to_owned(), false), ("total".to_owned(), true)]
    );
    // The DDL's names are the frame's columns.
    assert_eq!(chain_at(4).calls[0].args.columns, ["total", "m"]);
}

#[test]
fn a_frames_listed_columns_are_what_its_columns_field_selects() {
    let src = "data = [(1, \"a\", \"x\")]\n\
               df = spark.createDataFrame(data, schema=[\"id\", \"name\", \"dob\"])\n\
               df.select(df.columns[1:]).show()\n\
               df.select(df.columns[::-1]).show()\n\
               df.select(df.columns[0]).show()\n\
               df.select(df.columns).show()\n\
               other = spark.createDataFrame(data).toDF(\"k\", \"v\", \"w\")\n\
               other.select(other.columns[-1]).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let selected = |line: u32| -> Vec<String> {
        let chain = out
            .chains
            .iter()
            .find(|c| c.statement.start == line)
            .unwrap();
        chain.calls[0].args.columns.clone()
    };
    assert_eq!(selected(3), ["name", "dob"]);
    assert_eq!(selected(4), ["dob", "name", "id"]);
    assert_eq!(selected(5), ["id"]);
    assert_eq!(selected(6), ["id", "name", "dob"]);
    assert_eq!(selected(8), ["w"]);
}

#[test]
fn rows_named_by_to_df_say_which_columns_are_longs_as_their_language_infers() {
    let columns = |out: &FileExtract, line: u32| -> Vec<(String, bool)> {
        let chain = out
            .chains
            .iter()
            .find(|c| c.statement.start == line)
            .unwrap();
        let to_df = chain.calls.iter().find(|c| c.method == "toDF").unwrap();
        to_df
            .args
            .inline_columns
            .iter()
            .map(|c| (c.name.clone(), c.long))
            .collect()
    };
    let owned = |v: &[(&str, bool)]| -> Vec<(String, bool)> {
        v.iter().map(|(n, l)| (n.to_string(), *l)).collect()
    };
    let python = "data = [(\"2019-01-23\", 1), (\"2019-06-24\", 2)]\n\
                  spark.createDataFrame(data).toDF(\"date\", \"increment\").show()\n\
                  sc.parallelize(data).toDF([\"day\", \"n\"]).show()\n";
    let out = extract_file(
        &super::super::python::Python,
        python,
        "",
        CodeFlags::default(),
    );
    assert_eq!(
        columns(&out, 2),
        owned(&[("date", false), ("increment", true)])
    );
    assert_eq!(columns(&out, 3), owned(&[("day", false), ("n", true)]));
    // Scala's whole numbers are ints, longs only when written so.
    let scala = "object Job extends App {\n  val df = Seq((1, \"a\", 2L), (2, \"b\", 3L)).toDF(\"id\", \"name\", \"n\")\n  df.show()\n}\n";
    let out = extract_file(&super::super::scala::Scala, scala, "", CodeFlags::default());
    assert_eq!(
        columns(&out, 2),
        owned(&[("id", false), ("name", false), ("n", true)])
    );
}

#[test]
fn a_variable_assigned_a_session_reads_like_spark_whatever_its_name() {
    let src = "spark1 = SparkSession.builder.appName('aggs').getOrCreate()\n\
               orders = spark1.read.csv('Data/orders.csv', header=True)\n\
               ctx = SQLContext(sc)\n\
               totals = ctx.sql('SELECT 1')\n\
               spark1 = make_config()\n\
               other = spark1.read.csv('Data/other.csv')\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let starts: Vec<u32> = out.chains.iter().map(|c| c.statement.start).collect();
    assert!(starts.contains(&2), "{:#?}", out.chains);
    assert!(starts.contains(&4), "{:#?}", out.chains);
    // reassigned to something else, it no longer is a session
    assert!(!starts.contains(&6), "{:#?}", out.chains);
    let reader = out.chains.iter().find(|c| c.statement.start == 2).unwrap();
    assert_eq!(reader.calls[0].method, "csv");
    assert!(vocab::creates_session(
        "SparkSession \\\n  .builder\n  .getOrCreate()"
    ));
    assert!(vocab::creates_session("new SQLContext(sc)"));
    assert!(!vocab::creates_session("spark.read.csv(path)"));
    let huge = format!("SparkSession({})", "x".repeat(10_000));
    assert!(
        !vocab::creates_session(&huge),
        "a huge value is read no further"
    );
}

#[test]
fn a_random_split_unpacked_into_variables_makes_each_a_frame_of_the_chain() {
    let src = "data = spark.read.csv('x.csv')\n\
               (training, test) = data.randomSplit([0.8, 0.2])\n\
               train_data, test_data = data.randomSplit([0.7, 0.3])\n\
               name, count = pair\n\
               single = test.filter(test['userId'] == 11)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let chain = |line: u32| out.chains.iter().find(|c| c.statement.start == line);
    let splits = |line: u32| -> Vec<(&str, &[String])> {
        out.chains
            .iter()
            .filter(|c| c.statement.start == line)
            .map(|c| {
                let literals = c.calls.last().unwrap().args.literals.as_slice();
                (c.assigned_to.as_deref().unwrap(), literals)
            })
            .collect()
    };
    // each variable its own split, naming its own weight
    let [(train, train_weights), (test, test_weights)] = splits(2)[..] else {
        panic!("{:?}", splits(2));
    };
    assert_eq!((train, test), ("training", "test"));
    assert!(
        train_weights.contains(&"0.8".to_owned()) && !train_weights.contains(&"0.2".to_owned())
    );
    assert!(test_weights.contains(&"0.2".to_owned()) && !test_weights.contains(&"0.8".to_owned()));
    let names: Vec<&str> = splits(3).iter().map(|(v, _)| *v).collect();
    assert_eq!(names, ["train_data", "test_data"]);
    // other unpacking binds no frames
    assert!(chain(4).is_none());
    assert_eq!(chain(5).unwrap().receiver, "test");
}

#[test]
fn a_sorts_ascending_keyword_says_each_keys_direction() {
    let src = "df.orderBy(['Company', 'Sales'], ascending=[0, 1]).show()\n\
               df.sort('Sales', ascending=False).show()\n\
               df.orderBy('Sales', ascending=flag).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let functions = |line: u32| first_call_at(&out, line).args.functions.clone();
    assert_eq!(functions(1), ["desc", "asc"]);
    assert_eq!(functions(2), ["desc"]);
    assert!(functions(3).is_empty());
}

#[test]
fn a_ddl_schema_string_names_its_columns() {
    let src = "schema = 'employee_id string, salary decimal(10,2), tags array<string>'\n\
               emp = spark.createDataFrame(data=rows, schema=schema)\n\
               people = spark.createDataFrame(rows, \"id: long, name: string\")\n\
               emp.select(col('first name')).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let columns = |line: u32| first_call_at(&out, line).args.columns.clone();
    assert_eq!(columns(2), ["employee_id", "salary", "tags"]);
    assert_eq!(columns(3), ["id", "name"]);
    // a name with a space in it is a name, not a schema
    assert_eq!(columns(4), ["first name"]);
}

#[test]
fn scalas_parenless_frame_makers_are_calls_and_datasets_are_frames() {
    let src = "object Datasets {\n\
               def main(args: Array[String]): Unit = {\n\
               val carsDS = carsDF.as[Car]\n\
               carsDS.filter(_.hp > 140).count\n\
               val guitarsDS = readDF(\"guitars.json\").as[Guitar]\n\
               moviesRDD.toDF.groupBy(col(\"genre\")).avg(\"rating\").show\n\
               ratingsRDD.toDF.show\n\
               df.agg(sum(\"amount\").as(\"total\")).show()\n\
               }\n\
               }\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let methods = |line: u32| -> Vec<&str> {
        first_call_at(&out, line);
        let chain = out
            .chains
            .iter()
            .find(|c| c.statement.start == line)
            .unwrap();
        chain.calls.iter().map(|c| c.method.as_str()).collect()
    };
    // `as[Car]` makes a Dataset of a frame, and `carsDS` names one
    assert_eq!(methods(3), ["as"]);
    assert_eq!(methods(4), ["filter", "count"]);
    // a function's result made a Dataset
    assert_eq!(methods(5), ["readDF", "as"]);
    // `toDF` written without parentheses is the chain's first call, not part of its receiver
    assert_eq!(methods(6), ["toDF", "groupBy", "avg", "show"]);
    assert_eq!(methods(7), ["toDF", "show"]);
    // `sum("amount").as("total")` names a column: no chain of its own
    assert!(
        !out.chains.iter().any(|c| c.receiver.starts_with("sum")),
        "{:#?}",
        out.chains
    );
}

#[test]
fn a_sql_expression_names_its_result_and_a_cast_names_no_result() {
    let t = tokens("ifnull(Rotten_Tomatoes_Rating, IMDB_Rating * 10) as ifnull");
    assert_eq!(t.aliases, vec!["ifnull"]);
    assert_eq!(t.columns, vec!["Rotten_Tomatoes_Rating", "IMDB_Rating"]);
    let t = tokens("CAST(age AS INT) AS `age in years`");
    assert_eq!(t.aliases, vec!["age in years"]);
    assert_eq!(t.columns, vec!["age"]);
    assert!(tokens("cast(x as double) > 2").aliases.is_empty());
}

#[test]
fn a_call_of_a_udf_made_of_a_lambda_is_the_lambda_spark_names() {
    let src = "zip_ = udf(lambda x, y: list(zip(x, y)), ArrayType(StringType()))\n\
               df.withColumn('x', zip_(col('food'), col('price'))).show()\n\
               named = udf(to_upper, StringType())\n\
               df.withColumn('y', named(col('food'))).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    assert!(
        first_call_at(&out, 2)
            .args
            .functions
            .iter()
            .any(|f| f == "<lambda>")
    );
    assert!(
        !first_call_at(&out, 4)
            .args
            .functions
            .iter()
            .any(|f| f == "<lambda>")
    );
}

#[test]
fn a_udf_named_like_a_frame_is_called_as_a_udf_by_the_name_spark_prints() {
    // `convertUDF` ends like `salesDF`: it is no frame applied to a column (Scala's `df("x")`)
    let src = "convertUDF = udf(lambda z: convertCase(z))\n\
               df.select(col('Seqno'), convertUDF(col('Name')).alias('Name')).show()\n\
               upperUDF = udf(upper_case, StringType())\n\
               df.select(upperUDF(col('Name'))).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    for (line, udf, variable) in [(2, "<lambda>", "convertUDF"), (4, "upper_case", "upperUDF")] {
        let call = first_call_at(&out, line);
        for expected in [udf, crate::code::lang::vocab::PYTHON_UDF_CALL] {
            assert!(
                call.args.functions.iter().any(|f| f == expected),
                "line {line}: {expected} in {:?}",
                call.args.functions
            );
        }
        // Spark never prints the variable's name
        assert!(
            !call.args.functions.iter().any(|f| f == variable),
            "line {line}"
        );
    }
    assert!(
        out.chains.iter().all(|c| c.inputs.is_empty()),
        "{:?}",
        out.chains
    );
}

#[test]
fn a_function_handed_to_pandas_is_the_function_the_plan_names() {
    let src = "shares = sales.groupBy('store_id').applyInPandas(\n    normalise, schema=out_schema\n)\n\
               big = sales.mapInPandas(lambda it: it, schema=sales.schema)\n\
               sales.select(normalise).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let functions = |line: u32, method: &str| {
        out.chains
            .iter()
            .flat_map(|c| &c.calls)
            .find(|c| c.lines.start == line && c.method == method)
            .unwrap_or_else(|| panic!("no {method} on line {line}"))
            .args
            .functions
            .clone()
    };
    let udf = crate::code::lang::vocab::PYTHON_UDF_CALL;
    let grouped = functions(1, "applyInPandas");
    assert!(grouped.iter().any(|f| f == "normalise"), "{grouped:?}");
    assert!(grouped.iter().any(|f| f == udf));
    // (the schema passed by keyword is no function)
    assert!(!grouped.iter().any(|f| f == "out_schema"));
    let mapped = functions(4, "mapInPandas");
    assert!(mapped.iter().any(|f| f == "<lambda>"), "{mapped:?}");
    // a name elsewhere is a column's
    assert!(!functions(5, "select").iter().any(|f| f == "normalise"));
}

#[test]
fn scalas_arrow_pair_in_an_aggregation_names_the_aggregate_of_a_column() {
    let src = "object Groups {\n\
               def main(args: Array[String]): Unit = {\n\
               customerDF.groupBy(\"state\").agg(\"discount\" -> \"max\").show()\n\
               }\n\
               }\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let call = |line: u32, method: &str| {
        out.chains
            .iter()
            .find(|c| c.statement.start == line)
            .and_then(|c| c.calls.iter().find(|k| k.method == method))
            .unwrap_or_else(|| panic!("no {method} at {line}: {:#?}", out.chains))
    };
    let agg = call(3, "agg");
    assert!(
        agg.args.functions.contains(&"max".to_string()),
        "{:?}",
        agg.args
    );
    assert!(
        agg.args.columns.contains(&"discount".to_string()),
        "{:?}",
        agg.args
    );
}

#[test]
fn a_record_class_lists_the_fields_its_objects_have_as_columns() {
    let fields = |adapter: &dyn LanguageAdapter, src: &str, class: &str| -> Vec<String> {
        let out = extract_file(adapter, src, "", CodeFlags::default());
        let symbol = out.symbols.iter().find(|s| s.name == class).unwrap();
        symbol.params.clone()
    };
    let bean = "public class Person implements Serializable {\n\
                    private static final long serialVersionUID = 1L;\n\
                    private String name;\n\
                    private int age, height;\n\
                    public String getName() { return name; }\n\
                }\n";
    let java = &super::super::java::Java;
    assert_eq!(fields(java, bean, "Person"), ["name", "age", "height"]);
    let record = "public record Trade(String tradeId, double amount) {}\n";
    assert_eq!(fields(java, record, "Trade"), ["tradeId", "amount"]);
    let scala = &super::super::scala::Scala;
    let case = "final case class Cust(id: Int, name: String)\nclass Plain(x: Int)\n";
    assert_eq!(fields(scala, case, "Cust"), ["id", "name"]);
    assert!(
        fields(scala, case, "Plain").is_empty(),
        "not a record: no columns"
    );
}

#[test]
fn scalas_parenless_actions_are_calls_of_the_frame() {
    let src = "object Job {\n  def main(args: Array[String]): Unit = {\n    val df = spark.read.parquet(\"x\")\n    df.show\n    df.distinct.count\n    if (!df.isEmpty) {\n      println(\"some\")\n    }\n  }\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let chain_at = |line: u32| {
        let chain = out.chains.iter().find(|c| c.statement.start == line);
        chain
            .unwrap_or_else(|| panic!("no chain at line {line}: {:#?}", out.chains))
            .calls
            .iter()
            .map(|c| c.method.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(chain_at(4), ["show"]);
    assert_eq!(chain_at(5), ["distinct", "count"]);
    assert_eq!(chain_at(6), ["isEmpty"]);
    assert!(
        out.chains
            .iter()
            .all(|c| c.receiver == "df" || c.statement.start == 3)
    );
}

#[test]
fn a_frames_column_names_are_a_collection_not_a_frame() {
    let src = "object Job {\n  def main(args: Array[String]): Unit = {\n    val df = spark.read.parquet(\"x\")\n    val all_cols = df.columns\n    val kept = all_cols.filter(c => c != \"start\")\n    df.select(kept.head, kept.tail: _*).show()\n  }\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    // `all_cols.filter(…)` filters names, not rows
    assert!(
        out.chains.iter().all(|c| c.statement.start != 5),
        "{:#?}",
        out.chains
    );
    // `kept.head` is the first name, not a column called `head`: the call names columns the
    // code computes
    let select = first_call_at(&out, 6);
    assert!(select.args.columns.is_empty(), "{:?}", select.args);
    assert!(select.args.computed_columns, "{:?}", select.args);
}

#[test]
fn a_classs_string_fields_are_constants() {
    let src = "class SparkJob {\n  private val gold = \"data/gold/\"\n  val products_path = s\"$gold/products/\"\n  def run(): Unit = {\n    val local = \"tmp\"\n  }\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let constant = |name: &str| {
        out.constants
            .iter()
            .find(|c| c.name == name)
            .map(|c| c.value.as_str())
    };
    assert_eq!(constant("gold"), Some("data/gold/"));
    assert_eq!(constant("products_path"), Some("data/gold//products/"));
    // a method's local is no constant
    assert_eq!(constant("local"), None);
}

#[test]
fn a_frame_a_foreign_library_made_is_no_spark_frame() {
    let src = "import pandas as pd\n\ndef with_pandas(orders, products):\n    merged = pd.merge(orders, products, on='id')\n    return merged.groupby('customer_id').agg({'revenue': 'sum'})\n\ndef with_spark(spark, path):\n    merged = spark.read.parquet(path)\n    merged.groupby('customer_id').agg({'revenue': 'sum'}).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let starts: Vec<u32> = out.chains.iter().map(|c| c.statement.start).collect();
    // pandas' `groupby(…).agg(…)` is no chain; the same text over a Spark read is
    assert!(!starts.contains(&5), "{:#?}", out.chains);
    assert!(starts.contains(&9), "{:#?}", out.chains);
}

#[test]
fn a_pathlib_path_joined_onto_a_file_name_passes_the_file() {
    let src = "from pathlib import Path\n\ndef run(job):\n    orders_path = str(RAW_DIR / \"orders.parquet\")\n    job.load(orders_path)\n    job.load(Path(\"data\") / \"products.csv\")\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let passed: Vec<&ArgValue> = out.passed.iter().map(|p| &p.value).collect();
    // a folder the file does not hold stays a placeholder; the file's own name is known
    assert!(
        passed.contains(&&ArgValue::Literal(format!("{PLACEHOLDER}/orders.parquet"))),
        "{passed:?}"
    );
    assert!(
        passed.contains(&&ArgValue::Literal("data/products.csv".into())),
        "{passed:?}"
    );
}

#[test]
fn frames_in_tuples_keep_their_positions() {
    let src = "class Bench:\n    def load(self, spark):\n        orders_df = spark.read.parquet(str(ORDERS))\n        products_df = spark.read.parquet(str(PRODUCTS))\n        return orders_df, products_df, 0.5\n\ndef main(bench):\n    orders, products, seconds = bench.load(spark)\n    current, peak = tracemalloc.get_traced_memory()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let positioned = |line: u32| -> Vec<(Option<String>, String, Option<u8>, bool)> {
        out.chains
            .iter()
            .filter(|c| c.statement.start == line && c.tuple_position.is_some())
            .map(|c| {
                (
                    c.assigned_to.clone(),
                    c.receiver.clone(),
                    c.tuple_position,
                    c.returned,
                )
            })
            .collect()
    };
    // each returned frame at its position (the number is no frame)
    assert_eq!(
        positioned(5),
        [
            (None, "orders_df".to_string(), Some(0), true),
            (None, "products_df".to_string(), Some(1), true)
        ]
    );
    // each unpacked variable from the helper, at its position
    let unpacked = positioned(8);
    assert_eq!(unpacked.len(), 3, "{unpacked:?}");
    assert_eq!(unpacked[1].0.as_deref(), Some("products"));
    assert_eq!(unpacked[1].2, Some(1));
    assert!(
        out.chains
            .iter()
            .all(|c| c.statement.start != 8 || c.source_function.as_deref() == Some("load"))
    );
    // a library's tuple is no frames
    assert!(positioned(9).is_empty(), "{:?}", positioned(9));
    // `str(path)` passes the path on: the reader names what the variable holds
    let read = first_call_at(&out, 3);
    assert!(
        read.args.functions.iter().all(|f| f != "str"),
        "{:?}",
        read.args
    );
}

#[test]
fn a_string_compared_with_a_column_is_a_value() {
    let src = "df.where(col(\"country\") != \"Croatia\").show(2)\ndf.filter(df.state == \"OH\").count()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let (croatia, ohio) = (&first_call_at(&out, 1).args, &first_call_at(&out, 2).args);
    assert_eq!(croatia.columns, vec!["country"]);
    assert_eq!(croatia.literals, vec!["Croatia"]);
    assert_eq!(ohio.columns, vec!["state"]);
    assert_eq!(ohio.literals, vec!["OH"]);
    let src = "object F extends App {\n  df.where(col(\"country\") =!= \"Croatia\").show()\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let args = &first_call_at(&out, 2).args;
    assert_eq!(
        (args.columns.clone(), args.literals.clone()),
        (vec!["country".to_string()], vec!["Croatia".to_string()])
    );
    // a string passed on its own still names a column
    let out = extract_file(
        &super::super::python::Python,
        "df.select(\"country\").show()\n",
        "",
        CodeFlags::default(),
    );
    assert_eq!(first_call_at(&out, 1).args.columns, vec!["country"]);
}

#[test]
fn an_unnamed_sql_expression_is_named_as_spark_names_it() {
    let src = "df.selectExpr(\"avg(count)\", \"max(count) AS top\", \"count + 1\").show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    // the plan prints `avg(count)#12`; a named one keeps its name; arithmetic Spark names by
    // its whole text, which this does not make up
    assert_eq!(
        first_call_at(&out, 1).args.aliases,
        vec!["avg(count)", "top"]
    );
}

#[test]
fn a_parameter_typed_as_a_frame_holds_one_whatever_its_name() {
    let python = "from pyspark.sql import DataFrame\n\ndef enrich(events: DataFrame, cat: \"DataFrame\", sep: str = \",\"):\n    names = sep.join(['a', 'b'])\n    return events.join(cat, on=\"product_id\", how=\"left\")\n";
    let out = extract_file(
        &super::super::python::Python,
        python,
        "",
        CodeFlags::default(),
    );
    let join = out
        .chains
        .iter()
        .find(|c| c.statement.start == 5)
        .expect("the typed frame's join is a chain");
    assert_eq!(join.receiver, "events");
    assert_eq!(join.calls[0].method, "join");
    // a string's join stays none
    assert!(
        out.chains
            .iter()
            .filter(|c| c.statement.start == 4)
            .all(|c| c.calls.is_empty()),
        "{:#?}",
        out.chains
    );

    let java = "class Jobs {\n  static Dataset<Row> enrich(Dataset<Row> events, Dataset<Row> cat) {\n    return events.join(cat, \"id\");\n  }\n}\n";
    let out = extract_file(&super::super::java::Java, java, "", CodeFlags::default());
    assert!(
        out.chains
            .iter()
            .any(|c| c.receiver == "events" && c.calls[0].method == "join"),
        "{:#?}",
        out.chains
    );
}

#[test]
fn a_java_variable_declared_a_frame_is_one_whatever_method_makes_it() {
    // Java constructs only with `new`, so a capitalised method is a helper like any other, and
    // `Dataset<Row>` says the variable holds a frame whatever its name.
    let src = "class Pipeline {\n  void run(SparkSession spark, Transformation trans) {\n    Dataset<Row> orders = Readers.ReadOrders(spark, \"orders\");\n    Dataset<Row> enriched = trans.DoEnrichment(orders);\n    enriched.writeTo(\"db.enriched\").append();\n    Transformation other = new Transformation(spark);\n  }\n}\n";
    let out = extract_file(&super::super::java::Java, src, "", CodeFlags::default());
    let at = |line: u32| out.chains.iter().find(|c| c.statement.start == line);
    let read = at(3).unwrap_or_else(|| panic!("{:#?}", out.chains));
    // (qualified by the class it is called on, which resolves it among same-named functions)
    assert_eq!(read.source_function.as_deref(), Some("Readers.ReadOrders"));
    assert_eq!(read.assigned_to.as_deref(), Some("orders"));
    let enriched = at(4).unwrap_or_else(|| panic!("{:#?}", out.chains));
    assert_eq!(enriched.source_function.as_deref(), Some("DoEnrichment"));
    assert_eq!(enriched.inputs, ["orders"]);
    // the declared frame's write is a chain of it
    let written = at(5).unwrap_or_else(|| panic!("{:#?}", out.chains));
    assert_eq!(written.receiver, "enriched");
    assert_eq!(written.calls[0].method, "writeTo");
    // an object made with `new` is no frame
    assert!(at(6).is_none(), "{:#?}", out.chains);
}

#[test]
fn frames_an_object_holds_are_frames_and_their_attributes_columns() {
    // `self.part` starts a chain and `self.nation` is joined: both hold frames (read in a base
    // class elsewhere), so `self.part.p_type` and `self.supplier.s_suppkey` are columns.
    let src = "class Queries(Base):\n    def q2(self):\n        europe = self.region.filter(col(\"r_name\") == \"EUROPE\") \\\n            .join(self.nation, col(\"r_regionkey\") == col(\"n_regionkey\")) \\\n            .join(self.supplier, self.supplier.s_suppkey == self.nation.n_suppkey)\n        brass = self.part.filter(self.part.p_type.endswith(\"BRASS\"))\n        self.logger.info(self.config.level)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let europe = out
        .chains
        .iter()
        .find(|c| c.statement.start == 3)
        .unwrap_or_else(|| panic!("{:#?}", out.chains));
    assert_eq!(europe.inputs, ["self.nation", "self.supplier"]);
    let joined = &europe.calls[2].args;
    assert_eq!(joined.columns, ["s_suppkey", "n_suppkey"], "{joined:?}");
    let filtered = &first_call_at(&out, 6).args;
    assert_eq!(filtered.columns, ["p_type"], "{filtered:?}");
    // an object's other attributes stay none
    assert!(
        out.chains.iter().all(|c| c.statement.start != 7),
        "{:#?}",
        out.chains
    );
}

#[test]
fn a_scala_object_called_by_its_name_with_a_frame_returns_one() {
    // `Together(filtered, n)` calls `object Together { def apply(…) }`: a hand-off, and what it
    // returns is a frame whose typed `map` is a chain; a case class made of values is neither
    let src = "object InRange {\n  def apply(flights: Dataset[Flight], n: Int): Dataset[Pair] = {\n    val filtered = flights.filter(f => f.n > 1)\n    val result = Together(filtered, n)\n    val pair = Pair(1, 2)\n    result.map(p => Pair(p.a, p.b))\n  }\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let at = |line: u32| out.chains.iter().find(|c| c.statement.start == line);
    let handed = at(4).unwrap_or_else(|| panic!("{:#?}", out.chains));
    assert_eq!(handed.source_function.as_deref(), Some("Together"));
    assert_eq!(handed.inputs, ["filtered"]);
    assert!(at(5).is_none(), "{:#?}", out.chains);
    let mapped = at(6).unwrap_or_else(|| panic!("{:#?}", out.chains));
    assert_eq!(mapped.receiver, "result");
    assert_eq!(mapped.calls[0].method, "map");
}

#[test]
fn a_column_expression_held_in_a_variable_is_read_where_it_is_used() {
    let src = "window_spec = Window.partitionBy(col(\"dept\")).orderBy(col(\"salary\").desc())\nmax_func = max(col(\"salary\")).over(window_spec)\ntotal = F.sum(\"amount\")\nname = upper_name(x)\nemp.withColumn(\"max_salary\", max_func).show()\ndf.agg(total).show()\ndf.select(name).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let windowed = &first_call_at(&out, 5).args;
    for function in ["max", "over", "partitionBy"] {
        assert!(
            windowed.functions.iter().any(|f| f == function),
            "{windowed:?}"
        );
    }
    assert!(
        windowed.columns.iter().any(|c| c == "salary"),
        "{windowed:?}"
    );
    let summed = &first_call_at(&out, 6).args;
    assert!(summed.functions.iter().any(|f| f == "sum"), "{summed:?}");
    // a call of some other function is no column expression of Spark's
    let named = &first_call_at(&out, 7).args;
    assert!(named.functions.is_empty(), "{named:?}");
}

#[test]
fn a_collection_built_item_by_item_says_what_its_items_compute() {
    let src = "def nulls(df, cols):\n    aggs = []\n    for c in cols:\n        aggs.append(F.sum(F.col(c).isNull().cast(\"long\")).alias(c))\n    row = df.agg(*aggs).first()\n    exprs = [F.max(F.length(c)) for c in cols]\n    df.select(*exprs).show()\n    rows = []\n    rows.append((1, \"a\"))\n    rows.append((2, \"b\"))\n    spark.createDataFrame(rows, [\"id\", \"name\"]).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let appended = functions_at(&out, 5);
    assert!(
        ["sum", "isNull", "cast"]
            .iter()
            .all(|f| appended.iter().any(|a| a == f)),
        "{appended:?}"
    );
    let comprehended = functions_at(&out, 7);
    assert!(
        ["max", "length"]
            .iter()
            .all(|f| comprehended.iter().any(|a| a == f)),
        "{comprehended:?}"
    );
    // rows appended one by one are the frame's inline rows
    let created = out
        .chains
        .iter()
        .find(|c| c.statement.start == 11)
        .expect("createDataFrame chain");
    let columns: Vec<(&str, bool)> = created
        .calls
        .iter()
        .flat_map(|c| {
            c.args
                .inline_columns
                .iter()
                .map(|i| (i.name.as_str(), i.long))
        })
        .collect();
    assert_eq!(columns, [("id", true), ("name", false)], "{created:#?}");
}

#[test]
fn a_negated_condition_tests_for_the_opposite_nulls() {
    let src = "def split(flat):\n    missing = F.col(\"id\").isNull() | F.col(\"ts\").isNull()\n    bad = flat.filter(missing)\n    good = flat.filter(~missing)\n    return good, bad\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    assert_eq!(functions_at(&out, 3), ["isNull"]);
    // Spark plans `NOT (a IS NULL OR b IS NULL)` as `isnotnull(a) AND isnotnull(b)`
    assert_eq!(functions_at(&out, 4), ["isNotNull"]);
}

#[test]
fn a_udf_of_a_named_function_is_called_by_that_name() {
    let src = "def q(df):\n    def discount_f(x, y):\n        return x * (1 - y)\n    decrease = pandas_udf(discount_f, returnType=DoubleType())\n    twice = F.udf(lambda x: x * 2, FloatType())\n    df.agg(F.sum(decrease(col(\"p\"), col(\"d\"))), F.sum(twice(col(\"p\")))).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let functions = functions_at(&out, 6);
    // Spark prints `discount_f(p, d)` and `<lambda>(p)`
    assert!(functions.iter().any(|f| f == "discount_f"), "{functions:?}");
    assert!(
        functions.iter().any(|f| f == vocab::LAMBDA_UDF),
        "{functions:?}"
    );
    assert_eq!(vocab::udf_of_function("pandas_udf(\"double\")"), None);
    assert_eq!(
        vocab::udf_of_function("F.udf(to_upper, StringType())"),
        Some("to_upper")
    );
}

/// The functions the calls of the chains of the statement starting at `line` name.
fn functions_at(out: &FileExtract, line: u32) -> Vec<String> {
    out.chains
        .iter()
        .filter(|c| c.statement.start == line)
        .flat_map(|c| c.calls.iter().flat_map(|call| call.args.functions.clone()))
        .collect()
}

#[test]
fn a_frame_subscripted_to_columns_or_rows_is_the_frame_assigned() {
    // `result = ….mean()[[…]]` selects columns of the aggregated frame: `result` holds it and
    // the statements reading `result` follow on from it; one column (`["y"]`) is no frame.
    let src = "result = df.groupBy('y').mean()[['avg(y)', 'avg(c)']]\n\
               kept = df.filter(df.c > 1)[df.y > 2]\n\
               column = df.groupBy('y').mean()['avg(y)']\n\
               result = result.withColumnRenamed('avg(y)', 'y')\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let at = |line: u32| first_chain_at(&out, line);
    assert_eq!(at(1).assigned_to.as_deref(), Some("result"));
    assert_eq!(at(2).assigned_to.as_deref(), Some("kept"));
    assert_eq!(at(3).assigned_to, None);
    // read on the next line, the subscripted frame runs
    assert!(!at(1).unread);
}

#[test]
fn columns_read_back_or_selected_before_collecting_are_the_query_s() {
    // A test reads the query's result back by column name, or selects plain columns right
    // before collecting it; pandas' own methods after `toPandas()` make columns of their own, a
    // frame's `df["x"]` is no read, and a select computing something names other columns.
    let src = "def test_iv(result_df):\n\
               \x20   assert (\n\
               \x20       result_df.where(F.col('attribute') == 'age')\n\
               \x20       .toPandas()\n\
               \x20       .to_dict('list')['iv'][0]\n\
               \x20   ) == 1.2\n\
               \x20   top = result_df.orderBy('iv').collect()[0]['attribute']\n\
               \x20   made = result_df.toPandas().assign(x=1)['x']\n\
               \x20   column = result_df.select('iv')['iv']\n\
               \x20   kept = result_df.select(F.col('form'), 'iv').where(F.col('iv') > 1).toPandas().iloc[0, 0]\n\
               \x20   summed = result_df.select(F.col('a') + F.col('b')).first()\n\
               \x20   names = result_df.select('attribute').rdd.flatMap(lambda x: x).collect()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let reads = |line: u32| first_chain_at(&out, line).returned_columns.clone();
    assert_eq!(reads(2), ["iv"]);
    assert_eq!(reads(7), ["attribute"]);
    assert!(reads(8).is_empty());
    assert!(reads(9).is_empty());
    assert_eq!(reads(10), ["form", "iv"]);
    assert!(reads(11).is_empty());
    // a plain select right before collecting, or before the rows go to RDD code, is all the
    // query returns; a read-back column is one of its columns
    assert_eq!(reads(12), ["attribute"]);
    let exactly = |line: u32| first_chain_at(&out, line).returns_exactly;
    assert!(exactly(10) && exactly(12));
    assert!(!exactly(2) && !exactly(7));
}

/// The methods called by the chains of the statements starting on `line`, in order.
fn methods_on(out: &FileExtract, line: u32) -> Vec<String> {
    out.chains
        .iter()
        .filter(|c| c.statement.start == line)
        .flat_map(|c| c.calls.iter().map(|k| k.method.clone()))
        .collect()
}

#[test]
fn python_chains_in_asserts_and_conditions_are_statements() {
    // pytest checks a frame inside `assert`; a job tests one in `if` / `while` and walks one in
    // `for`: Spark runs each, as in a statement of its own.
    let src = "def test_iv(result_df):\n\
               \x20   assert (\n\
               \x20       result_df.where(F.col('attribute') == 'age')\n\
               \x20       .toPandas()\n\
               \x20   )\n\
               \x20   if result_df.filter(F.col('iv') > 1).count() > 0:\n\
               \x20       pass\n\
               \x20   for row in result_df.select('attribute').collect():\n\
               \x20       print(row)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    assert_eq!(
        methods_on(&out, 2),
        ["where", "toPandas"],
        "{:#?}",
        out.chains
    );
    assert_eq!(methods_on(&out, 6), ["filter", "count"]);
    assert_eq!(methods_on(&out, 8), ["select", "collect"]);
}

#[test]
fn java_chains_in_conditions_are_statements() {
    // `if (…count() > 0)` and `for (Row r : ….collectAsList())` run the frame they act on
    let java = "class A {\n  void run(Dataset<Row> df) {\n    if (df.filter(col(\"x\").gt(1)).count() > 0) {\n      System.out.println(1);\n    }\n    for (Row r : df.select(\"x\").collectAsList()) {\n      System.out.println(r);\n    }\n  }\n}\n";
    let out = extract_file(&super::super::java::Java, java, "", CodeFlags::default());
    assert_eq!(
        methods_on(&out, 3),
        ["filter", "count"],
        "{:#?}",
        out.chains
    );
    assert_eq!(methods_on(&out, 6), ["select", "collectAsList"]);
}

#[test]
fn a_join_of_two_or_more_arguments_joins_frames_whatever_its_receiver() {
    // a frame's `join` takes the other frame and keys; a string's takes one iterable
    let src = "from functools import reduce\n\
               def join_all(idfs, join_cols, join_type):\n\
               \x20   return reduce(lambda idf1, idf2: idf1.join(idf2, join_cols, join_type), idfs)\n\
               def paths(base, name, cols, sep):\n\
               \x20   where = os.path.join(base, name)\n\
               \x20   label = sep.join(cols)\n\
               \x20   return Path.join(base, label)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let joins_on = |line: u32| methods_on(&out, line).iter().any(|m| m == "join");
    assert!(joins_on(3), "{:#?}", out.chains);
    assert!(!joins_on(5));
    assert!(!joins_on(6));
    assert!(!joins_on(7));
}

#[test]
fn a_reduction_s_result_is_the_chain_it_folds_frames_with() {
    // `reduce(lambda a, b: a.join(b, …), frames)`: the lambda's chain is what the reduction
    // returns, so the variable it is assigned to (or the function returning it) holds its frame
    let src = "def join_all(idfs, keys):\n\
               \x20   odf = pairwise_reduce(lambda a, b: a.join(b, keys, 'inner'), idfs)\n\
               \x20   return odf\n\
               def union_all(dfs):\n\
               \x20   return functools.reduce(lambda a, b: a.unionByName(b), dfs)\n\
               def pairs(frames, b, keys):\n\
               \x20   joined = map(lambda a: a.join(b, keys, 'inner'), frames)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let at = |line: u32| {
        out.chains
            .iter()
            .find(|c| c.statement.start == line && !c.calls.is_empty())
            .unwrap_or_else(|| panic!("line {line}: {:#?}", out.chains))
    };
    assert_eq!(at(2).assigned_to.as_deref(), Some("odf"));
    assert!(at(5).returned);
    // (a `map` reduces nothing: its lambda's join is no value of `joined`)
    assert_eq!(at(7).assigned_to, None);
}

#[test]
fn a_python_function_named_after_an_acronym_returns_a_frame_like_any_function() {
    // `IV_calculation` joins words with `_`: a function, not a CamelCase class
    let src = "from evaluators import IV_calculation, SalesAnalytics\n\
               result_df = IV_calculation(spark, test_df, drop_cols=['ifa'])\n\
               app = SalesAnalytics(spark)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let made_by = |line: u32| {
        out.chains
            .iter()
            .find(|c| c.statement.start == line)
            .and_then(|c| c.source_function.clone())
    };
    assert_eq!(
        made_by(2).as_deref(),
        Some("IV_calculation"),
        "{:#?}",
        out.chains
    );
    assert_eq!(made_by(3), None);
}

#[test]
fn a_scala_functions_type_parameters_are_no_parameters_a_call_passes() {
    let src = "object Io {\n  def read[T, U](spark: SparkSession, path: String)(enc: Encoder[T]): Dataset[T] =\n    spark.read.csv(path).as[T](enc)\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let read = out.symbols.iter().find(|s| s.name == "read").unwrap();
    assert_eq!(read.params, ["spark", "path", "enc"]);
}

#[test]
fn settings_reads_are_recorded_as_the_keys_they_read() {
    let scala = "object Job {\n  val input = config.getString(\"app.input\")\n  def main(args: Array[String]): Unit = {\n    val first = Try(config.getString(\"app.first\")).getOrElse(\"\")\n    load(spark, first)\n    load(spark, config.getConfig(\"app\").getString(\"second\"))\n    spark.read.csv(conf.getString(\"app.third\"))\n    load(spark, other)\n  }\n}\n";
    let out = extract_file(&super::super::scala::Scala, scala, "", CodeFlags::default());
    let passed: Vec<&ArgValue> = out.passed.iter().map(|p| &p.value).collect();
    assert!(
        passed.contains(&&ArgValue::Setting("app.first".into())),
        "{passed:?}"
    );
    assert!(
        passed.contains(&&ArgValue::Setting("app.second".into())),
        "{passed:?}"
    );
    assert!(
        passed.contains(&&ArgValue::Name("other".into())),
        "{passed:?}"
    );
    let input = out.constants.iter().find(|c| c.name == "input").unwrap();
    assert!(
        input.from_setting && input.value == "app.input",
        "{input:?}"
    );
    let csv = first_call_at(&out, 7);
    let read: Vec<&str> = csv.args.settings.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(read, ["app.third"]);

    // a project's own getter of one key (`AppConfig.getFilePath(key)` wrapping
    // `props.getProperty(key)`), bound to a class's field
    let java = "public class Job {\n    private static final String ORDERS = AppConfig.getFilePath(\"csv.path.orders\");\n    private static final String NAME = row.getOrElse(\"x\");\n}\n";
    let out = extract_file(&super::super::java::Java, java, "", CodeFlags::default());
    let orders = out.constants.iter().find(|c| c.name == "ORDERS").unwrap();
    assert!(
        orders.from_setting && orders.value == "csv.path.orders",
        "{orders:?}"
    );
    assert!(
        out.constants
            .iter()
            .all(|c| c.name != "NAME" || !c.from_setting),
        "{:?}",
        out.constants
    );

    let python = "def main(spark, cfg, settings, df):\n    paths = cfg[\"paths\"]\n    load(spark, paths[\"raw\"])\n    load(spark, cfg.get(\"paths\").get(\"gold\"))\n    load(spark, settings.paths.silver)\n    load(spark, df[\"name\"])\n    spark.read.parquet(cfg[\"paths\"][\"bronze\"])\n    load(spark, parser.get(\"paths\", \"landing\"))\n    load(spark, env.get(\"INPUT\", \"data/x.csv\"))\n";
    let out = extract_file(
        &super::super::python::Python,
        python,
        "",
        CodeFlags::default(),
    );
    let passed: Vec<&ArgValue> = out.passed.iter().map(|p| &p.value).collect();
    for key in [
        "paths.raw",
        "paths.gold",
        "settings.paths.silver",
        "paths.landing",
        "INPUT",
    ] {
        assert!(
            passed.contains(&&ArgValue::Setting(key.into())),
            "{key}: {passed:?}"
        );
    }
    // a frame's column is no settings read
    assert!(
        !passed.contains(&&ArgValue::Setting("name".into())),
        "{passed:?}"
    );
    let parquet = first_call_at(&out, 7);
    let read: Vec<&str> = parquet
        .args
        .settings
        .iter()
        .map(|n| n.name.as_str())
        .collect();
    assert_eq!(read, ["paths.bronze"]);
}

#[test]
fn a_function_returning_a_column_expression_records_what_it_calls_and_one_returning_a_frame_does_not()
 {
    let src = "def squeeze(c):\n    return F.lower(F.regexp_replace(c, \"x\", \"\"))\n\n\
               def load(spark):\n    return spark.read.csv(\"x.csv\").filter(F.col(\"a\") > 1)\n\n\
               def passed(df):\n    return enrich(df)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let returned = |name: &str| {
        out.symbols
            .iter()
            .find(|s| s.name == name)
            .unwrap()
            .returned_functions
            .clone()
    };
    assert_eq!(returned("squeeze"), ["lower", "regexp_replace"]);
    assert!(returned("load").is_empty(), "{:?}", returned("load"));
}

#[test]
fn an_os_path_join_is_the_path_it_joins() {
    let src = "import os\nBASE = \"/opt/data\"\n\
               orders = spark.read.csv(os.path.join(BASE, \"orders.csv\"), header=True)\n\
               path = os.path.join(BASE, \"customers\", \"customers.parquet\")\n\
               customers = spark.read.parquet(path)\n\
               items = spark.read.json(os.path.join(folder, \"items.json\"))\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let csv = first_call_at(&out, 3);
    assert_eq!(csv.args.paths, ["/opt/data/orders.csv"]);
    // (no path part is a column)
    assert!(csv.args.columns.is_empty(), "{:?}", csv.args);
    let parquet = first_call_at(&out, 5);
    assert_eq!(
        parquet.args.paths,
        ["/opt/data/customers/customers.parquet"]
    );
    let json = first_call_at(&out, 6);
    assert_eq!(json.args.paths, [format!("{PLACEHOLDER}/items.json")]);
}

#[test]
fn an_environment_variables_default_and_a_conditional_paths_literal_branch_are_the_path() {
    let src = "import os, sys\n\
               orders = spark.read.csv(os.getenv(\"ORDERS\", \"data/orders.csv\"))\n\
               path = os.environ.get(\"CUSTOMERS\", \"data/customers.csv\")\n\
               customers = spark.read.csv(path)\n\
               items_path = sys.argv[1] if len(sys.argv) > 1 else \"data/items.json\"\n\
               items = spark.read.json(items_path)\n\
               other = spark.read.json(os.getenv(\"OTHER\"))\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    assert_eq!(first_call_at(&out, 2).args.paths, ["data/orders.csv"]);
    assert_eq!(first_call_at(&out, 4).args.paths, ["data/customers.csv"]);
    assert_eq!(first_call_at(&out, 6).args.paths, ["data/items.json"]);
    // (no default: nothing known)
    assert!(first_call_at(&out, 7).args.paths.is_empty());
}

#[test]
fn with_columns_names_new_columns_inline_or_through_a_variable() {
    // the plan prints `(cast(salary#1 as double) * 0.2) AS tax#9, 1 AS oneNumber#10`
    let python = "columns = {\n    \"tax\": col(\"salary\") * 0.2,\n    \"oneNumber\": lit(1),\n}\nfinal = emp.withColumns(columns)\ninline = emp.withColumns({\"bonus\": col(\"salary\") * 2})\nrenamed = emp.withColumnsRenamed({\"salary\": \"pay\"})\n";
    let out = extract_file(
        &super::super::python::Python,
        python,
        "",
        CodeFlags::default(),
    );
    let folded = &first_call_at(&out, 5).args;
    assert_eq!(folded.aliases, vec!["tax", "oneNumber"]);
    assert_eq!(folded.columns, vec!["salary"]);
    let inline = &first_call_at(&out, 6).args;
    assert_eq!(inline.aliases, vec!["bonus"]);
    assert_eq!(inline.columns, vec!["salary"]);
    let renamed = &first_call_at(&out, 7).args;
    assert_eq!(renamed.columns, vec!["salary"]);
    assert_eq!(renamed.aliases, vec!["pay"]);
    // Scala's `Map` of pairs, inline or held by a `val`
    let scala = "object Job extends App {\n  val added = Map(\"tax\" -> col(\"salary\") * 0.2)\n  val a = emp.withColumns(added)\n  val b = emp.withColumns(Map(\"bonus\" -> col(\"salary\") * 2))\n}\n";
    let out = extract_file(&super::super::scala::Scala, scala, "", CodeFlags::default());
    let folded = &first_call_at(&out, 3).args;
    assert_eq!(folded.aliases, vec!["tax"]);
    assert_eq!(folded.columns, vec!["salary"]);
    let inline = &first_call_at(&out, 4).args;
    assert_eq!(inline.aliases, vec!["bonus"]);
    assert!(
        inline.functions.iter().all(|f| f != "Map"),
        "{:?}",
        inline.functions
    );
}

/// `(receiver, assigned_to, calls)` of every chain whose statement starts at `line`.
fn chains_at(out: &FileExtract, line: u32) -> Vec<(String, Option<String>, Vec<String>)> {
    out.chains
        .iter()
        .filter(|c| c.statement.start == line)
        .map(|c| {
            let calls = c.calls.iter().map(|call| call.method.clone()).collect();
            (c.receiver.clone(), c.assigned_to.clone(), calls)
        })
        .collect()
}

/// One chain as [`chains_at`] gives it: its receiver, the variable it is assigned to, its calls.
fn owned(
    receiver: &str,
    assigned: &str,
    calls: &[&str],
) -> Vec<(String, Option<String>, Vec<String>)> {
    let calls = calls.iter().map(|c| c.to_string()).collect();
    vec![(receiver.to_string(), Some(assigned.to_string()), calls)]
}

#[test]
fn a_frame_added_to_a_list_reaches_the_list_s_elements_and_loops_over_it() {
    let src = "def funnel(flagged, steps):\n    rows = []\n    for step in steps:\n        rows.append(\n            flagged.filter(F.array_contains(\"types\", step)).groupBy(\"d\").count()\n        )\n    names = []\n    names.append(step.upper())\n    union = rows[0]\n    for r in rows[1:]:\n        union = union.unionByName(r)\n    return union\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    // the appended chain is the list's; a list of other values is no frame list
    assert_eq!(
        chains_at(&out, 4),
        owned("flagged", "rows", &["filter", "groupBy", "count"])
    );
    assert!(chains_at(&out, 8).is_empty(), "{:#?}", out.chains);
    // an element, and the loop's variable over a part of the list, pass the list's frames on
    assert_eq!(chains_at(&out, 9), owned("rows", "union", &[]));
    assert_eq!(chains_at(&out, 10), owned("rows", "r", &[]));
    // …so the union reads the loop's variable as a frame
    let union = first_chain_at(&out, 11);
    assert_eq!(union.inputs, vec!["r".to_string()]);

    // a list made of frames: a comprehension's, a literal's items; its elements start chains
    let src = "per_limit = [cust.where(F.col(\"id\") > n).count() for n in [1, 3]]\norders = spark.read.parquet(\"o\")\nreturns = spark.read.parquet(\"r\")\nboth = [orders, returns]\nper_limit[0].union(per_limit[1]).show()\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    assert_eq!(
        chains_at(&out, 1),
        owned("cust", "per_limit", &["where", "count"])
    );
    assert!(out.chains[0].appended);
    assert_eq!(
        chains_at(&out, 4),
        [owned("orders", "both", &[]), owned("returns", "both", &[])].concat()
    );
    let union = first_chain_at(&out, 5);
    assert_eq!(union.receiver, "per_limit[0]");
    assert_eq!(union.inputs, vec!["per_limit[1]".to_string()]);
    // a reduction folding the list's frames with a union is a union of the list
    let src = format!(
        "{src}both = reduce(DataFrame.unionByName, per_limit)\nnames = reduce(add, per_limit)\n"
    );
    let out = extract_file(
        &super::super::python::Python,
        &src,
        "",
        CodeFlags::default(),
    );
    assert_eq!(
        chains_at(&out, 6),
        owned("per_limit", "both", &["unionByName"])
    );
    // (folding them with anything else makes no union)
    assert!(
        chains_at(&out, 7)
            .iter()
            .all(|(_, _, calls)| calls.is_empty())
    );

    let src = "class Funnel {\n  Dataset<Row> run(Dataset<Row> flagged, List<String> steps) {\n    List<Dataset<Row>> parts = new ArrayList<>();\n    for (String step : steps) {\n      parts.add(flagged.filter(col(\"type\").equalTo(step)));\n    }\n    Dataset<Row> all = parts.get(0);\n    for (Dataset<Row> part : parts.subList(1, parts.size())) {\n      all = all.union(part);\n    }\n    return all;\n  }\n}\n";
    let out = extract_file(&super::super::java::Java, src, "", CodeFlags::default());
    assert_eq!(chains_at(&out, 5), owned("flagged", "parts", &["filter"]));
    assert_eq!(chains_at(&out, 7), owned("parts", "all", &[]));
    assert_eq!(chains_at(&out, 8), owned("parts", "part", &[]));
    assert_eq!(first_chain_at(&out, 9).inputs, vec!["part".to_string()]);
}

#[test]
fn a_collection_mapped_to_frames_is_a_frame_list_a_union_reduction_folds() {
    // Scala: `map` over a collection makes a list of frames; `reduce(_ union _)` unions them
    let src = "object Counts {\n  def run(cust: DataFrame, ds: Dataset[Car]): Unit = {\n    val perLimit = Seq(1, 3).map(n => cust.where(col(\"id\") > n).count())\n    val byBlock = limits.map { n =>\n      cust.where(col(\"id\") < n)\n    }\n    val both = perLimit.reduce(_ union _)\n    val dotted = byBlock.reduceLeft(_.unionByName(_))\n    val summed = perLimit.reduce(_ + _)\n    val names = ds.map(car => car.name)\n    val typed = names.filter(n => n.nonEmpty)\n    val folded = perLimit.reduce((a, b) => a.union(b))\n    val first = perLimit.head\n    val second = perLimit(1)\n  }\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    assert_eq!(
        chains_at(&out, 3),
        owned("cust", "perLimit", &["where", "count"])
    );
    assert!(first_chain_at(&out, 3).appended);
    assert_eq!(chains_at(&out, 4), owned("cust", "byBlock", &["where"]));
    assert!(first_chain_at(&out, 4).appended);
    assert_eq!(chains_at(&out, 7), owned("perLimit", "both", &["union"]));
    assert_eq!(
        chains_at(&out, 8),
        owned("byBlock", "dotted", &["unionByName"])
    );
    // (folding the frames with anything else makes no union)
    assert!(
        chains_at(&out, 9)
            .iter()
            .all(|(_, _, calls)| calls.is_empty())
    );
    // a typed Dataset's own `map` makes rows of a frame, not a list of frames
    assert_eq!(chains_at(&out, 10), owned("ds", "names", &["map"]));
    assert!(!first_chain_at(&out, 10).appended);
    assert_eq!(first_chain_at(&out, 11).receiver, "names");
    // an element of the list is one of its frames
    assert_eq!(chains_at(&out, 13), owned("perLimit", "first", &[]));
    assert_eq!(chains_at(&out, 14), owned("perLimit", "second", &[]));
    // a lambda folding them with a union is that union too
    assert_eq!(chains_at(&out, 12), owned("perLimit", "folded", &["union"]));

    // Java: a stream mapped to frames and collected; `reduce(Dataset::union)` unions them
    let src = "class Counts {\n  Dataset<Row> run(Dataset<Row> cust) {\n    var perLimit = Stream.of(1, 3).map(n -> cust.where(col(\"id\").gt(n))).collect(Collectors.toList());\n    Dataset<Row> both = perLimit.stream().reduce(Dataset::union).get();\n    return both;\n  }\n}\n";
    let out = extract_file(&super::super::java::Java, src, "", CodeFlags::default());
    assert_eq!(chains_at(&out, 3), owned("cust", "perLimit", &["where"]));
    assert!(first_chain_at(&out, 3).appended);
    assert_eq!(
        chains_at(&out, 4),
        owned("perLimit", "both", &["union", "get"])
    );
}

#[test]
fn a_union_reduction_over_frames_listed_in_place_unions_them() {
    let union_of = |receiver: &str, inputs: &[&str], method: &str, chain: &CallChain| {
        assert_eq!(chain.receiver, receiver, "{chain:#?}");
        assert_eq!(chain.calls[0].method, method, "{chain:#?}");
        let inputs: Vec<String> = inputs.iter().map(|i| i.to_string()).collect();
        assert_eq!(chain.inputs, inputs, "{chain:#?}");
    };
    let src = "object Ids {\n  def run(orders: DataFrame, returns: DataFrame, late: DataFrame): Unit = {\n    val all = Seq(orders, returns, late).reduce(_ union _)\n    val sums = Seq(1, 2).reduce(_ + _)\n  }\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    union_of(
        "orders",
        &["returns", "late"],
        "union",
        first_chain_at(&out, 3),
    );
    assert!(
        out.chains.iter().all(|c| c.statement.start != 4),
        "{:#?}",
        out.chains
    );

    let src = "import functools\nfrom functools import reduce\norders = spark.read.parquet(\"o\")\nreturns = spark.read.parquet(\"r\")\nlate = spark.read.parquet(\"l\")\na = reduce(DataFrame.union, [orders, returns])\nb = functools.reduce(DataFrame.unionByName, (orders, returns))\nframes = [orders, returns]\nc = reduce(DataFrame.union, frames)\nd = reduce(lambda x, y: x.unionByName(y), [orders, returns])\nf = reduce(lambda a, b: a.union(b), frames[1:], frames[0])\nframes.append(late)\ne = reduce(DataFrame.union, frames)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    union_of("orders", &["returns"], "union", first_chain_at(&out, 6));
    union_of(
        "orders",
        &["returns"],
        "unionByName",
        first_chain_at(&out, 7),
    );
    // a list of frame variables folds them as written; a lambda folding them is that union
    // alone (its own `x.unionByName(y)` is no second one)
    union_of("orders", &["returns"], "union", first_chain_at(&out, 9));
    union_of(
        "orders",
        &["returns"],
        "unionByName",
        first_chain_at(&out, 10),
    );
    assert_eq!(chains_at(&out, 10).len(), 1, "{:#?}", chains_at(&out, 10));
    // (a start value from the list, the rest folded onto it: the same union)
    let started = first_chain_at(&out, 11);
    assert_eq!(
        (started.receiver.as_str(), started.calls[0].method.as_str()),
        ("orders", "union")
    );
    assert!(started.inputs.contains(&"returns".to_string()));
    // …until the list holds more than them
    assert_eq!(first_chain_at(&out, 13).receiver, "frames");

    // (a generated union of thousands of frames takes a bounded number of them)
    let many: Vec<String> = (0..5000).map(|i| format!("f{i}")).collect();
    let src = format!(
        "object Many {{\n  def run(f0: DataFrame): Unit = {{\n    val all = Seq({}).reduce(_ union _)\n  }}\n}}\n",
        many.join(", ")
    );
    let out = extract_file(&super::super::scala::Scala, &src, "", CodeFlags::default());
    let all = first_chain_at(&out, 3);
    assert_eq!((all.receiver.as_str(), all.inputs.len()), ("f0", 64));

    let src = "class Ids {\n  Dataset<Row> run(Dataset<Row> orders, Dataset<Row> returns) {\n    Dataset<Row> a = Stream.of(orders, returns).reduce(Dataset::union).get();\n    Dataset<Row> b = Arrays.asList(orders, returns).stream().reduce(Dataset::unionAll).get();\n    return a;\n  }\n}\n";
    let out = extract_file(&super::super::java::Java, src, "", CodeFlags::default());
    union_of("orders", &["returns"], "union", first_chain_at(&out, 3));
    union_of("orders", &["returns"], "unionAll", first_chain_at(&out, 4));
}

#[test]
fn an_element_of_a_list_of_frame_variables_is_that_variable() {
    let src = "orders = spark.read.parquet(\"o\")\nreturns = spark.read.parquet(\"r\")\nframes = [orders, returns]\nfirst = frames[0]\nboth = frames[0].union(frames[-1])\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    assert_eq!(chains_at(&out, 4), owned("orders", "first", &[]));
    let both = first_chain_at(&out, 5);
    assert_eq!(
        (both.receiver.as_str(), both.inputs.as_slice()),
        ("orders", ["returns".to_string()].as_slice())
    );
}

#[test]
fn a_frame_read_inline_from_the_session_is_an_input_of_the_call_taking_it() {
    // `join(spark.table("stores"), …)` takes the frame the inline read makes, whose own chain
    // is indexed after the joining one: the input names the session, marked as no variable.
    let python = "anti = spark.table(\"sales\").join(spark.table(\"stores\"), \"store_id\", \"left_anti\")\nboth = self.spark.read.parquet(p).union(self.spark.read.parquet(q))\n";
    let out = extract_file(
        &super::super::python::Python,
        python,
        "",
        CodeFlags::default(),
    );
    assert_eq!(first_chain_at(&out, 1).inputs, ["spark(…)"]);
    assert_eq!(first_chain_at(&out, 2).inputs, ["self.spark(…)"]);
    // Scala and Java read and join alike; a frame variable stays a variable
    let scala = "object Report {\n  def run(spark: SparkSession, sales: DataFrame): Unit = {\n    sales.join(spark.table(\"stores\"), Seq(\"store_id\")).show()\n  }\n}\n";
    let out = extract_file(&super::super::scala::Scala, scala, "", CodeFlags::default());
    assert_eq!(first_chain_at(&out, 3).inputs, ["spark(…)"]);
    let java = "class Report {\n  void run(SparkSession spark, Dataset<Row> sales, Dataset<Row> stores) {\n    sales.join(spark.read().parquet(\"stores\"), \"store_id\").join(stores, \"store_id\").show();\n  }\n}\n";
    let out = extract_file(&super::super::java::Java, java, "", CodeFlags::default());
    assert_eq!(first_chain_at(&out, 3).inputs, ["spark(…)", "stores"]);
    // a session's read outside a frame-taking call is no input (`sql(spark.conf.get(…))`)
    let python = "df.filter(col(\"x\") > spark.conf.get(\"limit\")).show()\n";
    let out = extract_file(
        &super::super::python::Python,
        python,
        "",
        CodeFlags::default(),
    );
    assert!(first_chain_at(&out, 1).inputs.is_empty());
}

#[test]
fn a_frame_variable_assigned_to_another_carries_its_frame_on() {
    // `upper = sales` before a loop reassigning `upper`: the loop's chain and the read after it
    // start from `sales`' frame, through a pass-through of the alias.
    let python = "sales = read_sales(spark)\nupper = sales\nfor c in cols:\n    upper = upper.withColumn(c, F.upper(F.col(c)))\nupper.dropDuplicates([\"item\"]).show()\ncount = n\n";
    let out = extract_file(
        &super::super::python::Python,
        python,
        "",
        CodeFlags::default(),
    );
    let alias = first_chain_at(&out, 2);
    assert_eq!(
        (alias.receiver.as_str(), alias.assigned_to.as_deref()),
        ("sales", Some("upper"))
    );
    assert!(alias.calls.is_empty());
    // a name holding no frame is no alias of one
    assert!(
        out.chains.iter().all(|c| c.statement.start != 6),
        "{:#?}",
        out.chains
    );
}

#[test]
fn a_module_imported_from_the_projects_own_package_is_no_library() {
    let call = "\ndef main(spark, cfg):\n    orders = io.read_orders(spark, cfg.orders_path)\n    orders.show()\n";
    let python = &super::super::python::Python;
    let passed_to_read_orders = |imports: &str| {
        let out = extract_file(
            python,
            &format!("{imports}{call}"),
            "",
            CodeFlags::default(),
        );
        out.passed.iter().any(|p| p.callee == "read_orders")
    };
    // `from retail import io`: the project's `retail/io.py`
    assert!(passed_to_read_orders("from retail import io, config\n"));
    // `import io`: Python's own
    assert!(!passed_to_read_orders("import io\n"));
}

#[test]
fn a_scala_for_comprehension_yielding_frames_makes_a_list_of_them() {
    let src = "object Job {\n  def run(prepared: DataFrame, cities: Seq[String]): Unit = {\n    val totals = for {\n      c <- cities\n    } yield prepared.where($\"city\" === c).agg(sum($\"revenue\"))\n    totals.reduce(_ unionByName _).show()\n  }\n}\n";
    let out = extract_file(&super::super::scala::Scala, src, "", CodeFlags::default());
    let union = first_chain_at(&out, 6);
    assert_eq!(union.receiver, "totals", "{:#?}", out.chains);
    assert_eq!(union.calls[0].method, "unionByName", "{:#?}", out.chains);
}

#[test]
fn python_applies_the_function_partial_binds_and_the_one_a_lambda_calls() {
    let src = "from functools import partial\nimport transforms as tx\n\nout = pq.transform(partial(tx.at_least, minimum=50.0)).transform(lambda df: tx.named(df, names))\nkept = pq.transform(lambda d: d.where(d.o_id > 1))\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let applying = first_chain_at(&out, 4);
    assert_eq!(applying.applied_functions, ["at_least", "named"]);
    // `partial` passes its keyword on to the function it binds
    let bound = out
        .passed
        .iter()
        .find(|p| p.callee == "at_least")
        .unwrap_or_else(|| panic!("{:#?}", out.passed));
    assert_eq!(bound.keyword.as_deref(), Some("minimum"));
    assert_eq!(bound.value, ArgValue::Literal("50.0".into()));
    // a lambda writing its own chain on the frame applies no function of ours
    assert!(first_chain_at(&out, 5).applied_functions.is_empty());
}

#[test]
fn the_name_a_join_takes_is_a_frame_whatever_it_is_called() {
    // `names` looks like no frame, but a join's first argument is one: the chain reads it
    let src = "def named(df, names):\n    return df.join(names, \"o_cust\", \"left\")\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    assert_eq!(first_chain_at(&out, 2).inputs, ["names"]);
}

#[test]
fn a_function_called_on_a_module_or_an_object_starts_the_chain_it_heads() {
    // `gold.scorecard(silver).show()`, `cleaner.clean(df).cache()`: the chain goes on from what
    // the function returns, as from a lone call of it (`load(spark).filter(…)`)
    let src = "from fleet import gold\n\
               def main(spark):\n    \
               shipments = spark.read.csv(\"s.csv\")\n    \
               cleaner = Cleaner(spark)\n    \
               silver = cleaner.clean(shipments).cache()\n    \
               gold.scorecard(silver).show()\n    \
               df.filter(F.col(\"a\") > 1).show()\n    \
               started = datetime.now().strftime(\"%H\")\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let cached = first_chain_at(&out, 5);
    assert_eq!(cached.source_function.as_deref(), Some("clean"));
    assert_eq!(cached.receiver, "clean(…)");
    assert_eq!(cached.inputs, vec!["shipments".to_string()]);
    let shown = first_chain_at(&out, 6);
    assert_eq!(shown.source_function.as_deref(), Some("scorecard"));
    assert_eq!(shown.inputs, vec!["silver".to_string()]);
    // (a frame's own method is none of ours; a library's result going on with no frame's
    // method is no chain)
    assert_eq!(first_chain_at(&out, 7).source_function, None);
    assert!(out.chains.iter().all(|c| c.statement.start != 8));

    // Java: a class's static function, qualified by its class
    let src = "class Job {\n  void run(Dataset<Row> cleaned, Dataset<Row> customers) {\n    \
               Transformations.enrich(cleaned, customers).filter(col(\"x\").gt(1)).show();\n  }\n}\n";
    let out = extract_file(&super::super::java::Java, src, "", CodeFlags::default());
    let enriched = first_chain_at(&out, 3);
    assert_eq!(
        enriched.source_function.as_deref(),
        Some("Transformations.enrich")
    );
    assert_eq!(enriched.receiver, "enrich(…)");
}

#[test]
fn a_comprehension_calling_a_function_returning_frames_makes_a_list_of_them() {
    let src = "def read_day(spark, path):\n    \
               return spark.read.csv(path)\n\
               frames = [read_day(spark, p) for p in paths]\n\
               events = reduce(lambda a, b: a.unionByName(b), frames)\n\
               names = [describe(p) for p in paths]\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let listed = first_chain_at(&out, 3);
    assert_eq!(listed.source_function.as_deref(), Some("read_day"));
    assert_eq!(listed.assigned_to.as_deref(), Some("frames"));
    assert!(listed.appended);
    assert_eq!(
        chains_at(&out, 4),
        owned("frames", "events", &["unionByName"])
    );
    // (a function not seen returning frames makes a list of something else)
    assert!(out.chains.iter().all(|c| c.statement.start != 5));
}

#[test]
fn a_reduction_folding_columns_into_a_frame_is_its_lambdas_chain_on_the_start() {
    let src = "from functools import reduce\n\
               def fill_numeric(df, columns, value=0.0):\n    \
               return reduce(lambda acc, c: acc.withColumn(c, F.coalesce(F.col(c), F.lit(value))), columns, df)\n\
               def upper_all(frame, columns):\n    \
               out = reduce(lambda acc, c: acc.withColumn(c, F.upper(c)), columns, frame)\n    \
               return out\n\
               total = reduce(lambda a, b: a + b, [1, 2, 3], 0)\n";
    let out = extract_file(&super::super::python::Python, src, "", CodeFlags::default());
    let filled = first_chain_at(&out, 3);
    assert_eq!(filled.receiver, "df");
    assert!(filled.returned);
    assert_eq!(chains_at(&out, 5), owned("frame", "out", &["withColumn"]));
    // Scala: `foldLeft` from the frame, the function in parentheses or a block
    let scala = "object Clean {\n  def trimAll(df: DataFrame, cols: Seq[String]): DataFrame =\n    \
                 cols.foldLeft(df)((acc, c) => acc.withColumn(c, trim(col(c))))\n  \
                 def upperAll(frame: DataFrame, cols: Seq[String]): DataFrame = {\n    \
                 val out = cols.foldLeft(frame) { (acc, c) => acc.withColumn(c, upper(col(c))) }\n    \
                 out\n  }\n}\n";
    let folded = extract_file(&super::super::scala::Scala, scala, "", CodeFlags::default());
    let trimmed = first_chain_at(&folded, 3);
    assert_eq!((trimmed.receiver.as_str(), trimmed.returned), ("df", true));
    assert_eq!(
        chains_at(&folded, 5),
        owned("frame", "out", &["withColumn"])
    );
    // (a reduction of numbers folds no frame: its lambda makes no chain to start from `0`)
    assert!(
        out.chains
            .iter()
            .filter(|c| c.statement.start == 7)
            .all(|c| c.calls.is_empty() && c.receiver != "0")
    );
}

#[test]
fn a_list_a_factory_makes_of_frames_is_a_frame_list() {
    // `Arrays` is no Spark code, but the list it makes holds the frames listed in it
    let src = "class Weekly {\n  void run(Dataset<Row> orders) {\n    List<Dataset<Row>> parts = Arrays.asList(\n        orders.filter(col(\"item\").equalTo(\"apple\")),\n        orders.filter(col(\"qty\").geq(5)));\n    Dataset<Row> picked = parts.stream().reduce(Dataset::union).get();\n    picked.groupBy(\"item\").count().show();\n  }\n}\n";
    let out = extract_file(&super::super::java::Java, src, "", CodeFlags::default());
    assert!(first_chain_at(&out, 3).appended);
    assert_eq!(
        chains_at(&out, 6),
        owned("parts", "picked", &["union", "get"])
    );
    assert_eq!(first_chain_at(&out, 7).receiver, "picked");
}

#[test]
fn a_fluent_objects_last_method_is_the_function_its_frame_comes_from() {
    let job = "orders = (\n    OrdersPipeline(spark, \"data/orders.csv\")\n    .drop_cancelled()\n    .result()\n)\n";
    let out = extract_file(&super::super::python::Python, job, "", CodeFlags::default());
    assert_eq!(
        first_chain_at(&out, 1).source_function.as_deref(),
        Some("OrdersPipeline.result")
    );
    // the method returning the frame an attribute holds returns a frame
    let class = "class OrdersPipeline:\n    def __init__(self, spark, path):\n        self.df = spark.read.csv(path)\n\n    def result(self):\n        return self.df\n";
    let out = extract_file(
        &super::super::python::Python,
        class,
        "",
        CodeFlags::default(),
    );
    let returned = first_chain_at(&out, 6);
    assert!(
        returned.returned && returned.receiver == "self.df",
        "{returned:#?}"
    );
}
