//! Spark's vocabulary, shared by every language adapter.
//!
//! Which method names make a call chain a DataFrame chain, which names build columns rather than
//! DataFrames, and what a string argument means for a given method (a column, a path, a table, an
//! alias, a SQL expression, or a plain literal). One table for Python, Scala and Java alike: the
//! Spark API spells these the same in all three.

/// DataFrame methods whose first argument is another frame (`a.join(b, …)`, `a.union(b)`).
pub const FRAME_TAKING_METHODS: &[&str] = &[
    "join",
    "crossJoin",
    "union",
    "unionAll",
    "unionByName",
    "intersect",
    "intersectAll",
    "except",
    "exceptAll",
    "subtract",
];

/// Methods that only DataFrames, readers, writers and sessions have: one of them makes a chain a
/// Spark chain even when we do not know the receiver's type.
pub const DATAFRAME_METHODS: &[&str] = &[
    "groupBy",
    "groupby",
    "agg",
    "join",
    "crossJoin",
    "select",
    "selectExpr",
    "filter",
    "where",
    "withColumn",
    "withColumns",
    "withColumnRenamed",
    "withColumnsRenamed",
    "orderBy",
    "sort",
    "sortWithinPartitions",
    "distinct",
    "dropDuplicates",
    "drop_duplicates",
    "union",
    "unionAll",
    "unionByName",
    "intersect",
    "intersectAll",
    "exceptAll",
    "subtract",
    "read",
    "readStream",
    "write",
    "writeStream",
    "parquet",
    "csv",
    "orc",
    "load",
    "save",
    "saveAsTable",
    "insertInto",
    "table",
    "sql",
    "createDataFrame",
    "createDF",
    "repartition",
    "repartitionByRange",
    "coalesce",
    "cache",
    "persist",
    "unpersist",
    "limit",
    "show",
    "collect",
    "toPandas",
    "createOrReplaceTempView",
    "createTempView",
    "createOrReplaceGlobalTempView",
    "createGlobalTempView",
    "registerTempTable",
    "pivot",
    "rollup",
    "cube",
    "drop",
    "fillna",
    "dropna",
    "na",
    "sample",
    "format",
    "option",
    "options",
    "mode",
    "partitionBy",
    "bucketBy",
    "sortBy",
    "transform",
    "mapPartitions",
    "withWatermark",
    "foreachBatch",
    "toDF",
    // Scala's `Seq(…).toDS()` / `rdd.toDS()` (written with parentheses or without)
    "toDS",
    "explain",
    "checkpoint",
    "localCheckpoint",
    "hint",
    "groupByKey",
    "mapGroups",
    "flatMapGroups",
    "reduceGroups",
    "applyInPandas",
    "applyInArrow",
    "mapInPandas",
    "mapInArrow",
    "unpivot",
    "melt",
    "describe",
    "summary",
    "first",
    "head",
    "take",
    "foreach",
    "foreachPartition",
    "delta",
    "jdbc",
    "range",
    "as",
    "observe",
    "dropDuplicatesWithinWatermark",
    "start",
    "trigger",
    "outputMode",
    "awaitTermination",
    "toJSON",
    "rdd",
    "saveAsTextFile",
    "textFile",
    "approxQuantile",
    "crosstab",
    "freqItems",
    "sampleBy",
    "randomSplit",
    "stat",
    "isEmpty",
];

/// Whether `name` is one of [`DATAFRAME_METHODS`]. Asked for every method of every candidate
/// chain, and most names are not in the list: a hash set instead of ~220 string comparisons.
pub fn is_dataframe_method(name: &str) -> bool {
    static SET: std::sync::LazyLock<std::collections::HashSet<&'static str>> =
        std::sync::LazyLock::new(|| DATAFRAME_METHODS.iter().copied().collect());
    SET.contains(name)
}

/// DataFrame members that hold helper objects (`df.na.drop()`, `df.stat.crosstab()`).
pub const DATAFRAME_HELPERS: &[&str] = &["na", "stat"];

/// A frame's members that describe it or write it rather than hold its rows.
pub const FRAME_DESCRIPTIONS: &[&str] = &[
    "columns",
    "dtypes",
    "schema",
    "write",
    "writeStream",
    "isStreaming",
    "storageLevel",
    "sparkSession",
    "na",
    "stat",
];

/// Calls that only make a path of their argument, a string or a `pathlib` path
/// (`str(RAW_DIR / "orders.parquet")`, `Path("data")`).
pub const PATH_WRAPPERS: &[&str] = &["str", "Path", "PurePath"];

/// Conversions of a string to a number (`int(dbutils.widgets.get("min_qty"))`): the value is the
/// string's, as a plan prints it.
pub const NUMBER_CONVERSIONS: &[&str] = &["int", "float"];

/// A frame's members listing its columns rather than holding rows (`df.columns`, `df.schema`).
pub const COLUMN_LISTINGS: &[&str] = &["columns", "dtypes", "schema"];

/// A collection's methods folding its elements pairwise (`frames.reduce(_ union _)`).
pub const COLLECTION_REDUCERS: &[&str] = &["reduce", "reduceLeft", "reduceRight", "reduceOption"];

/// Methods shared with Column (`alias`, `over`, …): never enough to call a chain Spark.
pub const COLUMN_ONLY_METHODS: &[&str] = &[
    "alias",
    "cast",
    "astype",
    "over",
    "isin",
    "when",
    "otherwise",
    "like",
    "rlike",
    "asc",
    "desc",
    "asc_nulls_first",
    "asc_nulls_last",
    "desc_nulls_first",
    "desc_nulls_last",
    "isNull",
    "isNotNull",
    "between",
    "getItem",
    "getField",
    "substr",
    "startswith",
    "endswith",
    "contains",
    "name",
    "eqNullSafe",
    "bitwiseAND",
    "rowsBetween",
    "rangeBetween",
];

/// The orderings that put nulls where their direction does not by default (ascending keys put
/// nulls first, descending ones last). SQL's `ASC NULLS LAST` / `DESC NULLS FIRST` are indexed
/// under these names too, so both ways of writing one read alike.
pub const ASC_NULLS_LAST: &str = "asc_nulls_last";
pub const DESC_NULLS_FIRST: &str = "desc_nulls_first";

/// Column methods Scala calls without parentheses (`col("x").desc`, `$"y".isNull`): written as
/// members, they are functions of the expression all the same.
pub const PARENLESS_COLUMN_METHODS: &[&str] = &[
    "asc",
    "desc",
    "asc_nulls_first",
    "asc_nulls_last",
    "desc_nulls_first",
    "desc_nulls_last",
    "isNull",
    "isNotNull",
    "isNaN",
];

/// Bases that build columns or expressions (`col("x")`, `F.sum(…)`, `functions.col(…)`).
pub const COLUMN_BUILDERS: &[&str] = &[
    "col",
    "column",
    "Column",
    "lit",
    "expr",
    "when",
    "F",
    "functions",
    "fn",
    "sf",
    "psf",
    "pyspark",
    "f",
    "$",
    "typedLit",
    "struct",
    "array",
];

/// Identifiers that are (almost always) a Spark session or SQL context.
pub fn is_session_name(name: &str) -> bool {
    let base = name.rsplit('.').next().unwrap_or(name);
    matches!(
        base,
        "spark"
            | "sqlContext"
            | "sql_context"
            | "session"
            | "ss"
            | "sparkSession"
            | "spark_session"
            | "hiveContext"
            | "sc"
    )
}

/// The longest expression [`creates_session`] reads (bytes).
const SESSION_EXPRESSION_CAP: usize = 2_000;

/// Whether an expression (its source text) makes or fetches a session or SQL context:
/// `SparkSession.builder….getOrCreate()`, `SparkSession(sc)`, `SQLContext(sc)`,
/// `new SQLContext(sc)`, `spark.newSession()`, `SparkSession.active()`.
pub fn creates_session(expression: &str) -> bool {
    // A builder is a line or a few; a huge value (a hostile repository's literal) is none.
    if expression.len() > SESSION_EXPRESSION_CAP {
        return false;
    }
    let compact: String = expression.split_whitespace().collect();
    let constructor = compact.trim_start_matches("new");
    compact.ends_with(".getOrCreate()")
        || compact.ends_with(".newSession()")
        || compact.ends_with("SparkSession.active()")
        || ["SparkSession(", "SQLContext(", "HiveContext("]
            .iter()
            .any(|c| constructor.starts_with(c))
}

/// Heuristic for DataFrame-ish variable names when flow is unknown (`df`, `orders_df`, `dfA`).
pub fn looks_like_dataframe_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    // `convertUDF`, `upper_udf`: a UDF, whatever its last letters
    if lower.ends_with("udf") {
        return false;
    }
    lower.starts_with("df")
        || lower.ends_with("_df")
        || lower.ends_with("df") && name.len() > 2 && name.ends_with("DF")
        || name.ends_with("Df")
        || lower.ends_with("_dataframe")
        // a typed Dataset, as Scala and Java code names one: `carsDS`, `people_ds`
        || name.len() > 2 && (name.ends_with("DS") || name.ends_with("Ds"))
        || lower.ends_with("_ds")
}

/// The name Spark gives a Python UDF made of a lambda (`udf(lambda x: …)`), in its plan.
pub const LAMBDA_UDF: &str = "<lambda>";

/// The function token of a call of a Python UDF (`decrease(col("p"))` after `decrease =
/// udf(…)`): a query calling one plans its evaluation in a Python worker, whatever the UDF is
/// named, and operators reading its result ([`PYTHON_UDF_RESULT`]).
pub const PYTHON_UDF_CALL: &str = "pythonudf";

/// How a plan names (normalised) the result of a Python UDF its evaluation computed:
/// `pythonUDF0`, `pythonUDF1`, … (`sum(pythonUDF0)`).
pub const PYTHON_UDF_RESULT: &str = "pythonudf";

/// Methods handing a Python function to Spark to run over pandas or Arrow batches
/// (`groupBy(k).applyInPandas(normalise, schema)`, `mapInPandas(keep_big, schema)`): the plan's
/// operator names the function (`normalise(store_id#3, …)`), so a function passed by name is the
/// call's function, as a UDF's is, and a lambda is `<lambda>`.
pub const PYTHON_FUNCTION_METHODS: &[&str] =
    &["applyInPandas", "applyInArrow", "mapInPandas", "mapInArrow"];

/// Whether an assigned value makes a UDF of a lambda: `udf(lambda x: …, StringType())`,
/// `F.udf(lambda …)`, `pandas_udf(lambda …)`.
pub fn makes_lambda_udf(value: &str) -> bool {
    udf_arguments(value).is_some_and(|arguments| arguments.trim_start().starts_with("lambda"))
}

/// The function a UDF is made of, when the value wraps one by name: `udf(discount_f, …)`,
/// `F.pandas_udf(discount_f, returnType=…)` → `discount_f` (Spark names the UDF after it).
pub fn udf_of_function(value: &str) -> Option<&str> {
    let first = udf_arguments(value)?
        .split([',', ')'])
        .next()
        .unwrap_or("")
        .trim();
    let is_name = !first.is_empty()
        && first != "lambda"
        && !first.starts_with("lambda ")
        && first.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !first.starts_with(|c: char| c.is_ascii_digit());
    is_name.then_some(first)
}

/// The text after `udf(` / `pandas_udf(` (also `F.udf(`) when a value makes a Python UDF.
fn udf_arguments(value: &str) -> Option<&str> {
    let (callee, arguments) = value.split_once('(')?;
    let callee = callee.rsplit('.').next().unwrap_or(callee).trim();
    matches!(callee, "udf" | "pandas_udf").then_some(arguments)
}

/// DataFrame methods that apply a function to the frame they are called on (`df.transform(f)`).
pub const APPLYING_METHODS: &[&str] = &["transform", "pipe"];

/// Calls that make a function of another with some arguments bound
/// (`partial(tx.filter_statuses, statuses=…)`): applied to a frame, they apply the function given
/// first.
pub const PARTIAL_APPLIERS: &[&str] = &["partial"];

/// Session methods making a frame of rows written in the code: Spark's own, and spark-daria's
/// `spark.createDF(List(…), List(("name", StringType, true)))`, the test-data helper of many Scala
/// suites (an implicit extension of the session, so no import of ours can tell it apart).
pub const ROWS_TO_FRAME: &[&str] = &["createDataFrame", "createDataset", "createDF"];

/// DataFrame methods Scala calls without parentheses that make a frame of something else:
/// `rdd.toDF`, `seq.toDS`, `df.as[Car]`. Written first after a name that is no DataFrame, they
/// are the chain's first call, not part of its receiver.
pub const PARENLESS_FRAME_MAKERS: &[&str] = &["toDF", "toDS", "as"];

/// DataFrame methods Scala calls without parentheses that run or transform the frame they are
/// called on: `df.show`, `df.distinct.count`, `if (!df.isEmpty)`.
pub const PARENLESS_CALLS: &[&str] = &[
    "show",
    "count",
    "collect",
    "collectAsList",
    "isEmpty",
    "first",
    "head",
    "distinct",
    "dropDuplicates",
    "cache",
    "persist",
    "printSchema",
    "explain",
];

/// Whether `method` only describes a frame — prints its plan or its schema (`explain`,
/// `printSchema`, any case): Spark plans the frame and runs nothing.
pub fn only_describes_frame(method: &str) -> bool {
    method.eq_ignore_ascii_case("explain") || method.eq_ignore_ascii_case("printSchema")
}

/// Actions returning a query's rows to the program (`collect()`, PySpark's `toPandas()`,
/// `first()`), whose columns the code may then read by name.
pub const COLLECTS_ROWS: &[&str] = &[
    "collect",
    "collectAsList",
    "toPandas",
    "first",
    "head",
    "take",
    "takeAsList",
    "tail",
];

/// A frame's member handing its rows to RDD code (`df.rdd.flatMap(…)`): the frame's query
/// is what Spark plans, whatever the RDD code does with its rows.
pub const RDD_OF_FRAME: &str = "rdd";

/// Calls reading collected rows as they are (pandas' `to_dict`, a Row's `asDict` and
/// `getAs`): the columns read after them are still the query's. Any other call after
/// [`COLLECTS_ROWS`] (pandas' `assign`, `rename`, `merge`) may make columns of its own.
pub const READS_COLLECTED_ROWS: &[&str] = &["to_dict", "asDict", "getAs"];

/// Frame methods keeping every column of their input, in order and by name.
pub const KEEPS_COLUMNS: &[&str] = &[
    "where",
    "filter",
    "orderBy",
    "sort",
    "sortWithinPartitions",
    "limit",
    "distinct",
    "dropDuplicates",
    "drop_duplicates",
    "cache",
    "persist",
    "repartition",
    "coalesce",
];

/// Whether `method` makes a frame of an RDD or a collection (`rdd.toDF`, `seq.toDS`); `as[T]`
/// makes a Dataset of a frame.
pub fn makes_frame_of_rows(method: &str) -> bool {
    method != "as" && PARENLESS_FRAME_MAKERS.contains(&method)
}

/// What a string argument of a call stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgRole {
    Column,
    Literal,
    Path,
    Table,
    Alias,
    /// A SQL expression string (`filter("x > 1")`, `expr("…")`, `selectExpr`).
    SqlExpr,
    /// A function name (`agg({"x": "sum"})` values).
    Function,
}

/// The role of positional argument `index` (or keyword `keyword`) of `method`.
// Long (~110 lines): a table of Spark's methods and what each positional or keyword argument
// means.
pub fn arg_role(method: &str, index: usize, keyword: Option<&str>) -> ArgRole {
    if let Some(k) = keyword {
        return match k {
            "path" | "paths" => ArgRole::Path,
            "name" | "tableName" | "table" if is_table_method(method) => ArgRole::Table,
            "on" | "subset" | "cols" | "col" | "colName" | "partitionBy" | "schema" => {
                ArgRole::Column
            }
            "alias" => ArgRole::Alias,
            _ => ArgRole::Literal,
        };
    }
    match method {
        m if is_path_method(m) => {
            if index == 0 {
                ArgRole::Path
            } else {
                ArgRole::Literal
            }
        }
        m if is_table_method(m) => {
            if index == 0 {
                ArgRole::Table
            } else {
                ArgRole::Literal
            }
        }
        "alias" | "as" | "name" | "toDF" => ArgRole::Alias,
        "withColumn" => {
            if index == 0 {
                ArgRole::Alias
            } else {
                ArgRole::Column
            }
        }
        "withColumnRenamed" => {
            if index == 0 {
                ArgRole::Column
            } else {
                ArgRole::Alias
            }
        }
        // `withColumns({"tax": col("salary") * 0.2})`, Scala's `withColumns(Seq("a"), Seq(e))`:
        // the new columns' names, then their expressions (a mapping's pairs: `pair_roles`)
        "withColumns" => {
            if index == 0 {
                ArgRole::Alias
            } else {
                ArgRole::Column
            }
        }
        "join" => {
            if index >= 2 {
                ArgRole::Literal
            } else {
                ArgRole::Column
            }
        }
        "pivot" => {
            if index == 0 {
                ArgRole::Column
            } else {
                ArgRole::Literal
            }
        }
        // `fillna(0, ["population"])`: the value, then the columns to fill.
        "fillna" | "fill" if index >= 1 => ArgRole::Column,
        "filter" | "where" | "expr" | "selectExpr" => ArgRole::SqlExpr,
        // `summary("count", "min")` names the statistics it computes, not columns
        "summary" => ArgRole::Literal,
        "sql" | "option" | "options" | "format" | "mode" | "config" | "appName" | "master"
        | "limit" | "sample" | "fillna" | "fill" | "replace" | "show" | "hint" | "lit"
        | "typedLit" | "cast" | "astype" | "outputMode" | "trigger" | "queryName" | "isin"
        | "like" | "rlike" | "startswith" | "endswith" | "contains" | "otherwise"
        | "date_format" | "to_date" | "to_timestamp" | "regexp_replace" | "regexp_extract"
        | "format_string" | "lpad" | "rpad" | "split" | "getItem" | "getField"
        | "from_unixtime" | "unix_timestamp" | "date_trunc" | "trunc" | "get_json_object"
        | "equalTo" | "notEqual" | "gt" | "lt" | "geq" | "leq" | "eqNullSafe" | "plus"
        | "minus" | "multiply" | "divide" | "contains_key" => {
            if method == "regexp_replace"
                || method == "regexp_extract"
                || method == "split"
                || method == "date_format"
                || method == "to_date"
                || method == "to_timestamp"
                || method == "from_unixtime"
                || method == "get_json_object"
                || method == "lpad"
                || method == "rpad"
            {
                if index == 0 {
                    ArgRole::Column
                } else {
                    ArgRole::Literal
                }
            } else if method == "date_trunc" {
                if index == 1 {
                    ArgRole::Column
                } else {
                    ArgRole::Literal
                }
            } else {
                ArgRole::Literal
            }
        }
        "when" => {
            if index == 0 {
                ArgRole::SqlExpr
            } else {
                ArgRole::Literal
            }
        }
        "concat_ws" => {
            if index == 0 {
                ArgRole::Literal
            } else {
                ArgRole::Column
            }
        }
        _ => ArgRole::Column,
    }
}

/// The roles of a `key: value` pair (`key -> value` in Scala) passed in an argument of `method`
/// whose role is `role`.
pub fn pair_roles(method: &str, role: ArgRole) -> (ArgRole, ArgRole) {
    match role {
        // `withColumnsRenamed({"old": "new"})`: a column, then its new name
        ArgRole::Column if method == "withColumnsRenamed" => (ArgRole::Column, ArgRole::Alias),
        // `agg({"x": "sum"})`, `agg("x" -> "sum")`: a column and its aggregate
        ArgRole::Column => (ArgRole::Column, ArgRole::Function),
        // `withColumns({"tax": col("salary") * 0.2})`: a new column's name and its expression
        ArgRole::Alias => (ArgRole::Alias, ArgRole::Column),
        // `fillna({"city": "unknown"})`, `na.fill(Map("city" -> "unknown"))`: a column filled
        // and what fills it
        ArgRole::Literal if matches!(method, "fillna" | "fill") => {
            (ArgRole::Column, ArgRole::Literal)
        }
        // a pair among values (`option("k" -> "v")`) is values as they are
        other => (other, other),
    }
}

pub fn is_path_method(m: &str) -> bool {
    matches!(
        m,
        "parquet"
            | "csv"
            | "json"
            | "orc"
            | "text"
            | "load"
            | "save"
            | "avro"
            | "delta"
            | "textFile"
            | "saveAsTextFile"
            | "jdbc"
            | "wholeTextFiles"
            | "binaryFiles"
    )
}

pub fn is_table_method(m: &str) -> bool {
    matches!(
        m,
        "table"
            | "saveAsTable"
            | "insertInto"
            | "createOrReplaceTempView"
            | "createTempView"
            | "createOrReplaceGlobalTempView"
            | "createGlobalTempView"
            | "registerTempTable"
            | "tableExists"
            | "toTable"
            | "uncacheTable"
            | "cacheTable"
    )
}

/// Functions that wrap a column name: `col("x")` is the column `x`, not a function call.
pub fn is_column_reference_function(name: &str) -> bool {
    matches!(name, "col" | "column" | "Column")
}
