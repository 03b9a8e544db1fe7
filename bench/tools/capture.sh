#!/usr/bin/env bash
# Re-captures the project's own bench sets from the pinned commits (the exact commands used).
#
#   bench/tools/capture.sh pipelines|notebooks|jupyter|scripts|guide|tested|sqltwins|catalog|sqlfiles|javaetl|scalaetl|javasql|scalatest|scalanb|dynamic [WORK]
#
# Needs: pyspark==4.3.0 (+ pyarrow, "pandas<3", zstandard), Java 17, the DEV benchmark's tools in
# $BENCH_TOOLS (default ../shared/bench/tools) with their JVM helper compiled (its README,
# "Re-running"), and bare mirrors of the repositories under $BENCH_MIRRORS (default /work/.mirror;
# nothing here downloads). WORK (default /tmp/plan2code-capture) receives checkouts, scratch copies
# the jobs may write into, and raw captures; bench/<set>/ receives plans, gold and manifest.
# Timings are not meaningful; Spark runs local[2] under `nice`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
set_name="${1:?usage: capture.sh pipelines|notebooks|jupyter|scripts|guide|tested|sqltwins|catalog|sqlfiles|javaetl|scalaetl|javasql|scalatest|scalanb|dynamic [WORK]}"
export WORK="${2:-/tmp/plan2code-capture}"
export BENCH_TOOLS="${BENCH_TOOLS:-$here/../../../shared/bench/tools}"
MIRRORS="${BENCH_MIRRORS:-/work/.mirror}"
mkdir -p "$WORK/src" "$WORK/run" "$WORK/cap" "$WORK/logs"

checkout() {  # checkout OWNER/NAME COMMIT -> $WORK/src/OWNER+NAME (blobs a mirror lacks are skipped)
  local dest="$WORK/src/${1/\//+}"
  [ -d "$dest" ] || python3 - "$MIRRORS/${1/\//+}/repo" "$2" "$dest" <<'PY'
import sys
sys.path.insert(0, __import__("os").environ["BENCH_TOOLS"])
import evaluate
evaluate.extract(*sys.argv[1:4])
PY
}

capture() {  # capture OWNER/NAME COMMIT PREFIX CAPDIR [--notebooks] ENTRY...
  local repo="$1" commit="$2" prefix="$3" capdir="$4"; shift 4
  checkout "$repo" "$commit"
  rm -rf "$WORK/run/${repo/\//+}" "$WORK/cap/$capdir"
  cp -r "$WORK/src/${repo/\//+}" "$WORK/run/${repo/\//+}"
  mkdir -p "$(dirname "$WORK/logs/$capdir.log")"
  # cwd = the scratch copy: the JVM resolves the jobs' relative paths (data/…, output/…) there
  (cd "$WORK/run/${repo/\//+}" && nice -n 10 python3 "$here/run_capture.py" "${@:1:1}" . "$WORK/cap/$capdir" \
      "$repo" "$commit" "$prefix" "${@:2}") > "$WORK/logs/$capdir.log" 2>&1 || true
  grep '\[run_capture\]' "$WORK/logs/$capdir.log" | tail -n 3 || true
}

case "$set_name" in
pipelines)
  while read -r name commit prefix; do
    capture "MDShahedurRahman/$name" "$commit" "$prefix" "$name" "" main.py
  done <<'EOF'
banking_data_pipeline facd03d366bbe023da94bd18ca0d0059d8324c43 bank
telecom_cdr_pipeline 8b24ecd01995b9072f00a9274c022fe7014887e9 tcdr
smart_logistics_pipeline c8fd07e6b6e46f883da8aaa9090a39e7a78c63de logi
ecommerce_orders_pipeline 066b26da208b9020d0e65b38d7c6ce9487f5c81d ecom
rideshare_pipeline 2eae3bfd7c65af293975c8c049d1875ccd3145b0 ride
healthcare_data_pipeline 11b5a90a120ab9624cc4253de903a3d34a7c3f51 hlth
EOF
  ;;
notebooks)
  repo=azurelib-academy/azure-databricks-pyspark-examples
  commit=fad5ff51c28da1fd54ccb60166e2847dd2b55df1
  checkout "$repo" "$commit"
  # each notebook reads its data from /mnt/…; the files are committed beside it
  export PATH_MAP="/mnt/practice/read_write_csv={entry_dir}/Source Files,/mnt/practice/read_write_json={entry_dir}/Source Files,/mnt/practice/read_write_parquet={entry_dir}/Source Files,/mnt/formulaoneadls/practice/={entry_dir}/,/mnt/practice/={entry_dir}/"
  (cd "$WORK/src/${repo/\//+}" && ls ./*/*.py | sed 's|^\./||' | sort -V) > "$WORK/logs/nb_list.txt"
  split -n l/4 -d "$WORK/logs/nb_list.txt" "$WORK/logs/nb_batch_"
  for b in "$WORK"/logs/nb_batch_0*; do
    mapfile -t files < "$b"
    capture "$repo" "$commit" azl "azl/$(basename "$b")" --notebooks "${files[@]}"
  done
  # a second repository with `# MAGIC %sql` cells over temp views made in Python cells
  repo=spandey35/Learning
  commit=c02a9bfa55b80fdda6fcf99fb8d000963361decb
  checkout "$repo" "$commit"
  unset PATH_MAP
  mapfile -t files < <(cd "$WORK/src/${repo/\//+}" && ls PySpark/Self-Practice/001_PysparkPractice/*.py | sort -V)
  capture "$repo" "$commit" spl spl --notebooks "${files[@]}"
  ;;
jupyter)
  # Jupyter notebooks (.ipynb) of four tutorial repositories; each notebook reads the data kept
  # beside it (the driver runs it with cwd = its folder, as a Jupyter kernel starts)
  # (PATH_MAP: where a repository's notebooks expect their data — a container's mount — and
  # where the checkout keeps it; `-` for none)
  while read -r repo commit prefix path_map; do
    checkout "$repo" "$commit"
    if [ "$path_map" = - ]; then unset PATH_MAP; else export PATH_MAP="$path_map"; fi
    mapfile -t files < <(cd "$WORK/src/${repo/\//+}" && find . -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' | sed 's|^\./||' | sort -V)
    capture "$repo" "$commit" "$prefix" "$prefix" --notebooks "${files[@]}"
  done <<'EOF'
tirthajyoti/Spark-with-Python 670c35a8e3dc659d4090a3e644f4cecbbd48923f tsp -
krishnaik06/Pyspark-With-Python c0a945cc54bd55d25af7c660ccc7aeb70d02d3e4 kpy -
coder2j/pyspark-tutorial 860be30c06bbe1fb8f58aacfc118ab8757d06f88 c2j -
subhamkharwal/pyspark-zero-to-hero 90ac0be7a5ee376c213dbb468fd4e21a0d594f5b pzh /data/input/={entry_dir}/datasets/,data/input/={entry_dir}/datasets/
EOF
  ;;
scripts)
  # A book's companion spark-submit scripts (mahmoudparsian/pyspark-algorithms, code/chapNN/*.py):
  # the ones that use the DataFrame API or Spark SQL, each run as its sibling .sh runs it —
  # `spark-submit chapNN/x.py ARGS` becomes sys.argv = [x.py, ARGS...] (run_capture.py's
  # ENTRY_ARGV). The .sh files use absolute paths under /pyspark_book/ (the repository's root):
  # that prefix is written {repo_root} (the scratch copy); their /tmp/ outputs go to
  # {repo_root}/_out/. (dataframe_creation_from_directory.sh passes an unset $INPUT_FILE; the
  # $INPUT_DIR it exports is passed instead.)
  repo=mahmoudparsian/pyspark-algorithms
  commit=26f4090ac8d41fd7fff00c66d8e74a1a8ef5f806
  # this mirror is a non-bare clone (git directory repo/.git); checkout() is then a no-op
  [ -d "$WORK/src/${repo/\//+}" ] || python3 - "$MIRRORS/${repo/\//+}/repo/.git" "$commit" "$WORK/src/${repo/\//+}" <<'PY'
import sys
sys.path.insert(0, __import__("os").environ["BENCH_TOOLS"])
import evaluate
evaluate.extract(*sys.argv[1:4])
PY
  unset PATH_MAP
  argv_list='
code/chap01/basic_dataframe_example.py {repo_root}/code/chap01/sample_people.json
code/chap01/dataframe_creation_from_csv.py {repo_root}/code/chap01/name_city_age.csv
code/chap03/dataframe_creation_from_collection.py
code/chap03/dataframe_creation_from_csv_no_header.py {repo_root}/code/chap03/kv_no_header.txt
code/chap03/dataframe_creation_from_csv_with_header.py {repo_root}/code/chap03/kv_with_header.txt
code/chap03/dataframe_creation_from_dictionary.py
code/chap03/dataframe_creation_from_directory.py {repo_root}/code/chap03/sample_dir2
code/chap03/dataframe_creation_from_rdd.py
code/chap03/rdd_creation_from_dataframe.py
code/chap05/dataframe_action_describe.py
code/chap05/dataframe_drop.py
code/chap05/dataframe_filter.py
code/chap05/dataframe_join_cross.py
code/chap05/dataframe_join_inner.py
code/chap05/dataframe_join_left.py
code/chap05/dataframe_join_right.py
code/chap05/dataframe_sql.py
code/chap05/dataframe_withcolumn.py
code/chap07/dataframe_creation_add_columns.py
code/chap07/dataframe_creation_aggregate_multiple_columns.py
code/chap07/dataframe_creation_aggregate_single_column.py
code/chap07/dataframe_creation_call_udf.py
code/chap07/dataframe_creation_cvs_no_header.py {repo_root}/code/chap07/emps_no_header.txt
code/chap07/dataframe_creation_cvs_with_header.py {repo_root}/code/chap07/emps_with_header.txt
code/chap07/dataframe_creation_from_collections.py
code/chap07/dataframe_creation_from_pandas.py
code/chap07/dataframe_creation_from_rows.py
code/chap07/dataframe_creation_order_by.py
code/chap07/dataframe_creation_with_explicit_schema.py {repo_root}/code/chap07/emps_no_header.txt
code/chap07/dataframe_crosstab.py
code/chap07/dataframe_drop_column.py
code/chap07/dataframe_drop_duplicates.py
code/chap07/dataframe_multi_dim_agg_groupby.py
code/chap07/dataframe_multi_dim_agg_rollup.py
code/chap07/dataframe_tutorial_with_worldcup.py {repo_root}/code/chap07/WorldCupPlayers.csv
code/chap07/dataframe_with_statistical_data.py {repo_root}/code/chap07/life_expentancy.txt
code/chap07/partition_data_by_customer_and_year.py {repo_root}/code/chap07/customers.txt {repo_root}/_out/partition_demo
code/chap08/datasource_csv_reader_no_header.py {repo_root}/code/chap08/sample_no_header.csv
code/chap08/datasource_csv_reader_with_header.py {repo_root}/code/chap08/sample_with_header.csv
code/chap08/datasource_csv_writer.py {repo_root}/_out/output.csv
code/chap08/datasource_json_reader_multi_line.py {repo_root}/code/chap08/sample_multi_line.json
code/chap08/datasource_json_reader_single_line.py {repo_root}/code/chap08/sample_single_line.json
'
  export ENTRY_ARGV="$WORK/logs/pal_argv.json"
  printf '%s' "$argv_list" | python3 -c 'import json,sys; json.dump({l.split()[0]: l.split()[1:] for l in sys.stdin if l.strip()}, sys.stdout, indent=1)' > "$ENTRY_ARGV"
  mapfile -t files < <(printf '%s' "$argv_list" | awk 'NF {print $1}')
  capture "$repo" "$commit" pal pal "" "${files[@]}"
  unset ENTRY_ARGV
  ;;
guide)
  # databricks/Spark-The-Definitive-Guide: the book's chapter notebooks exported without the
  # Databricks header (`# COMMAND ----------` cells, `display`-free), read from absolute /data/…
  # (the repository's data/ folder, hence `{repo_root}/data/`); their /tmp/ outputs go to
  # {repo_root}/_out/. Each chapter's .sql twin runs right after its .py in the same session
  # (SQL_WITH_PY; the views the .py cells register), the Joins chapter registering the three
  # DataFrames its .sql reads (its Scala twin registers them; the Python one does not).
  repo=databricks/Spark-The-Definitive-Guide
  commit=4ba5601eb9b9aed1d01ab79775e3af228216ff6f
  checkout "$repo" "$commit"
  # the mirror lacks data/retail-data/all/online-retail-dataset.csv (a large blob); the by-day/
  # files are the same rows split by day (305 files, 541,909 rows = the full dataset), so a
  # stand-in is their concatenation (one header) outside the checkout, at a path ending as the
  # repository's does (plans show …/data/retail-data/all/online-retail-dataset.csv)
  standin="$WORK/standin/data/retail-data/all"
  if [ ! -s "$standin/online-retail-dataset.csv" ]; then
    mkdir -p "$standin"
    (cd "$WORK/src/${repo/\//+}/data/retail-data/by-day" && ls ./*.csv | sort | xargs awk 'FNR > 1 || NR == 1') \
      > "$standin/online-retail-dataset.csv"
  fi
  export PATH_MAP="/data/retail-data/all/=$standin/,/data/={repo_root}/data/,/tmp/={repo_root}/_out/"
  export NO_STREAMING=1 SQL_WITH_PY=1
  export SCRIPT_TIMEOUT="${SCRIPT_TIMEOUT:-240}"
  export SQL_VIEWS="$WORK/logs/stdg_sql_views.json"
  echo '{"code/Structured_APIs-Chapter_8_Joins.sql": {"person": "person", "graduateProgram": "graduateProgram", "sparkStatus": "sparkStatus"}}' > "$SQL_VIEWS"
  c=code
  files=(
    $c/A_Gentle_Introduction_to_Spark-Chapter_2_A_Gentle_Introduction_to_Spark.py
    $c/A_Gentle_Introduction_to_Spark-Chapter_3_A_Tour_of_Sparks_Toolset.py
    $c/Structured_APIs-Chapter_4_Structured_API_Overview.py
    $c/Structured_APIs-Chapter_5_Basic_Structured_Operations.py
    $c/Structured_APIs-Chapter_5_Basic_Structured_Operations.sql
    $c/Structured_APIs-Chapter_6_Working_with_Different_Types_of_Data.py
    $c/Structured_APIs-Chapter_6_Working_with_Different_Types_of_Data.sql
    $c/Structured_APIs-Chapter_7_Aggregations.py
    $c/Structured_APIs-Chapter_7_Aggregations.sql
    $c/Structured_APIs-Chapter_8_Joins.py
    $c/Structured_APIs-Chapter_8_Joins.sql
    $c/Structured_APIs-Chapter_9_Data_Sources.py
    $c/Structured_APIs-Chapter_10_Spark_SQL.py
    $c/Structured_APIs-Chapter_10_Spark_SQL.sql
    $c/Low_Level_APIs-Chapter_12_RDD_Basics.py
    $c/Low_Level_APIs-Chapter_13_Advanced_RDDs.py
    $c/Low_Level_APIs-Chapter_14_Distributed_Variables.py
    $c/Production_Applications-Chapter_15_How_Spark_Runs_on_a_Cluster.py
    $c/Production_Applications-Chapter_16_Spark_Applications.py
    $c/Production_Applications-Chapter_18_Monitoring_and_Debugging.py
    $c/Production_Applications-Chapter_19_Performance_Tuning.py
    $c/Ecosystem-Chapter_32_Language_Specifics.py
  )
  capture "$repo" "$commit" stdg stdg --notebooks "${files[@]}"
  # the machine-learning chapters (pyspark.ml on the repository's small data sets) in a second JVM;
  # Graph Analysis (graphframes) and Deep Learning (sparkdl) need packages that are not installed
  files=()
  for n in 24_Advanced_Analytics_and_Machine_Learning 25_Preprocessing_and_Feature_Engineering \
           26_Classification 27_Regression 28_Recommendation 29_Unsupervised_Learning; do
    files+=("$c/Advanced_Analytics_and_Machine_Learning-Chapter_$n.py")
  done
  capture "$repo" "$commit" stdg stdg-ml --notebooks "${files[@]}"
  unset PATH_MAP NO_STREAMING SQL_WITH_PY SQL_VIEWS
  ;;
tested)
  # martinbacaia/pyspark-etl-pipeline: a production-style package (src/pipeline/: bronze → silver →
  # gold modules whose functions take and return DataFrames, quality gates, a click CLI) with a
  # pytest suite (tests/conftest.py's session `spark` fixture, inline createDataFrame data).
  # Job entries first (same JVM, one fresh session each): the data generator, reduced to 20,000
  # events, writes data/raw and data/catalog_products in the scratch copy; then the pipeline run
  # (`--no-zorder`: OPTIMIZE … ZORDER is Delta SQL). Then every test file through pytest
  # (run_capture.py --pytest). The Delta JVM jars (spark.jars.packages, from Maven) are not
  # available here: DELTA_AS_PARQUET=1 reads/writes format("delta") as parquet and answers
  # isDeltaTable False, so the MERGE branches are never taken (first-load overwrite instead).
  # Needs the Python packages the repository imports: click pydantic pydantic-settings pyyaml
  # faker chispa, and delta-spark (its Python module only; `pip install --no-deps delta-spark`).
  repo=martinbacaia/pyspark-etl-pipeline
  commit=da1a17e15ab79d937c5a47fa3894cfc71f4366b4
  checkout "$repo" "$commit"
  unset PATH_MAP
  # PYTHONPATH: the package as `make install` (pip install -e .) makes it importable, also in the
  # Python workers (the generator's flatMap lambdas live in pipeline.generator)
  export DELTA_AS_PARQUET=1 PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$WORK/run/${repo/\//+}/src"
  export SCRIPT_TIMEOUT="${SCRIPT_TIMEOUT:-600}"
  export ENTRY_ARGV="$WORK/logs/etl_argv.json"
  echo '{"scripts/generate_data.py": ["--num-events", "20000"], "scripts/run_pipeline.py": ["--no-zorder"]}' > "$ENTRY_ARGV"
  capture "$repo" "$commit" etl etl --pytest scripts/generate_data.py scripts/run_pipeline.py \
    tests/test_silver.py tests/test_gold.py tests/test_quality.py tests/test_pipeline_e2e.py \
    tests/test_generator.py tests/test_settings.py
  unset DELTA_AS_PARQUET ENTRY_ARGV PYTHONPATH
  ;;
sqltwins)
  # dotnet/spark's Python TPC-H benchmark (benchmark/python/, MIT): tpch.py runs one query of
  # TpchSqlQueries (the 22 queries as SQL strings over the temp views its constructor registers,
  # `self.spark.sql(query).show()`) or of TpchFunctionalQueries (the same 22 written with the
  # DataFrame API, plus the pandas-UDF variants 1a and 8a), as `tpch.py <data_root/> <q> 1 <true|false>`.
  # It is run 46 times in one session (run_capture.py's ENTRY_ARGV with a list of argument lists):
  # SQL 1..22, then functional 1..22, 1a, 8a. The repository has no data (dbgen's output is
  # expected); bench/sqltwins/gen_tpch.py writes small seeded TPC-H-shaped parquet (dbgen's columns
  # and value domains, ~60k lineitems) to $WORK/data/tpch/, outside the checkout.
  repo=dotnet/spark
  commit=4cabf12e751766af67c3e5988ce70faf9a408205
  checkout "$repo" "$commit"
  unset PATH_MAP
  [ -d "$WORK/data/tpch/lineitem" ] || python3 "$here/../sqltwins/gen_tpch.py" "$WORK/data/tpch" 0.01
  # the entry imports its sibling modules (`from tpch_sql_queries import *`), as spark-submit run
  # from benchmark/python/ would find them
  export PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$WORK/run/${repo/\//+}/benchmark/python"
  export SCRIPT_TIMEOUT="${SCRIPT_TIMEOUT:-3600}"
  export ENTRY_ARGV="$WORK/logs/tpch_argv.json"
  python3 -c 'import json, sys
d = sys.argv[1] + "/"
runs = [[d, str(q), "1", "true"] for q in range(1, 23)] + [[d, q, "1", "false"] for q in [str(i) for i in range(1, 23)] + ["1a", "8a"]]
json.dump({"benchmark/python/tpch.py": runs}, sys.stdout, indent=1)' "$WORK/data/tpch" > "$ENTRY_ARGV"
  capture "$repo" "$commit" dnt tpch "" benchmark/python/tpch.py
  unset ENTRY_ARGV PYTHONPATH
  ;;
catalog)
  # josephmachado/spark_for_data_engineers_capstone: a medallion pipeline that works through the
  # catalog. The entry is the repository's runner, run_pipeline.ipynb (README: `databricks notebook
  # run run_pipeline.ipynb`), whose cells call etl/bronze/setup_bronze_tables.run_dbx(spark,
  # year='*') (CREATE DATABASE, two enum tables from inline rows, then each Stack Overflow table
  # read with spark.read.parquet(f"{url}/…"), binary columns cast, saveAsTable("stackoverflow.x")),
  # then etl/silver/{fact_posts,dim_users}.py and etl/gold/{activation_rate,engagement_velocity}.py
  # (get_upstream_data → spark.read.table("stackoverflow.x"), transform_upstream_data → spark.sql
  # over `{df}` parameters or db.table names, load_table_data → DROP TABLE + saveAsTable), then
  # visualization/*.py (spark.sql(...).toPandas() over the gold tables, unqualified or qualified).
  # NOTEBOOK_SPARK=1 predefines spark / displayHTML as Databricks does. The job reads the public
  # export from S3 (s3a://datasets-documentation/stackoverflow/parquet/): PATH_MAP points it at a
  # small seeded stand-in written by bench/catalog/gen_stackoverflow.py to $WORK/data/stackoverflow/
  # (outside the checkout). The `%%bash pip install polars plotly kaleido` cell is skipped: plotly
  # must be installed beside pyspark (`pip install plotly`; IPython too).
  repo=josephmachado/spark_for_data_engineers_capstone
  commit=9ce5bb7cc367a27b4c2bc1985810110bcf5fda90
  checkout "$repo" "$commit"
  [ -d "$WORK/data/stackoverflow/posts" ] || python3 "$here/../catalog/gen_stackoverflow.py" "$WORK/data/stackoverflow"
  export PATH_MAP="s3a://datasets-documentation/stackoverflow/parquet/=$WORK/data/stackoverflow/"
  export NOTEBOOK_SPARK=1 PYTHONDONTWRITEBYTECODE=1 PLOTLY_RENDERER=json
  export SCRIPT_TIMEOUT="${SCRIPT_TIMEOUT:-900}"
  capture "$repo" "$commit" sfde sfde --notebooks run_pipeline.ipynb
  unset NOTEBOOK_SPARK PATH_MAP PLOTLY_RENDERER
  ;;
sqlfiles)
  # Ananth395/adidas: a PySpark package whose analytics are .sql files the runner reads from disk.
  # main.py (click: --task_type etl|sql --task_name X [--write_to_file]) runs one task per call:
  # etl raw_to_parse (RawToParse(ETLBase): spark.read.json(raw/) → cache → where/UDF/withColumn
  # helpers → partitionBy(load_date).orc(parse/)), or sql <task> (RunSql: the task's
  # adidas/etl/sql/<task>.sql read with pkg_resources.resource_string(...).strip()
  # .format(parsed_table_name=...), spark.read.orc(parse/) registered as that temp view,
  # spark.sql(sql) → repartition(1).write.csv(cil/<task>) and .show(20, False)). It is run as the
  # Airflow DAG / Makefile run it, one spark-submit per task: the etl task, then the five sql tasks
  # with --write_to_file=True — ENTRY_ARGV runs, each its own application (ARGV_RUNS_FRESH=1:
  # fresh session, own once-per-action-site rule; the sql tasks share RunSql's action sites).
  # Then the unittest files through pytest. raw/ol_cdump.json is downloaded from S3 (the committed
  # file is a 1-byte stub): bench/sqlfiles/gen_openlibrary.py writes a seeded Open Library-shaped
  # stand-in outside the checkout; PATH_MAP points raw/ at it and parse/, cil/ (the jobs' outputs;
  # cil/ holds committed outputs a plain write would refuse to overwrite) at $WORK/out/adidas/.
  # Labelled by bench/sqlfiles/package_sqlfiles.py (SQL spans located in the .sql templates).
  repo=Ananth395/adidas
  commit=5f73aee22bdad4a12766d45bee90acc4490e0a14
  checkout "$repo" "$commit"
  rm -rf "$WORK/out/adidas"
  [ -s "$WORK/data/openlibrary/raw/ol_cdump.json" ] || python3 "$here/../sqlfiles/gen_openlibrary.py" "$WORK/data/openlibrary/raw" 4000
  export PATH_MAP="raw/=$WORK/data/openlibrary/raw/,parse/=$WORK/out/adidas/parse/,cil/=$WORK/out/adidas/cil/"
  # PYTHONPATH: the package importable in the Python workers (the parse_datetime UDF)
  export ARGV_RUNS_FRESH=1 PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$WORK/run/${repo/\//+}"
  export SCRIPT_TIMEOUT="${SCRIPT_TIMEOUT:-900}"
  export ENTRY_ARGV="$WORK/logs/adi_argv.json"
  python3 -c 'import json, sys
tasks = ["get_top_5_genres", "get_book_with_most_pages", "get_no_of_published_books_and_authors",
         "get_no_of_authors_with_one_book_per_yr", "get_top_5_coauthors"]
runs = [["--task_type=etl", "--task_name=raw_to_parse"]] + \
       [["--task_type=sql", "--task_name=" + t, "--write_to_file=True"] for t in tasks]
json.dump({"main.py": runs}, sys.stdout, indent=1)' > "$ENTRY_ARGV"
  capture "$repo" "$commit" adi adi --pytest main.py tests/etl/raw_to_parse_test.py \
    tests/etl/run_sql_test.py tests/utils/utils_test.py
  unset ARGV_RUNS_FRESH ENTRY_ARGV PATH_MAP PYTHONPATH
  python3 "$here/../sqlfiles/package_sqlfiles.py" "$here/../sqlfiles/package.json"
  exit 0
  ;;
javaetl)
  # abuthahir-19/Retail-Analytics-App: a production-style Java Spark ETL (Maven; Main driver,
  # Constants / DataSchemaDefinition classes, Transformation methods on Dataset<Row>, a Pipeline
  # writing every result). JVM capture (../javaetl/README.md): scratch copies of the Java-capable
  # JVM tools with two changes (CapDriver captures file writes as the query written; package_jvm.py
  # accepts parquet/save commands), a compile copy with same-line patches (Kafka -> text files,
  # ClickHouse writeTo -> parquet, args from -Djavaetl.props, spark.close() blanked), seeded
  # Olist-shaped CSVs from ../javaetl/gen_olist.py. One JVM under nice.
  repo=abuthahir-19/Retail-Analytics-App
  commit=ac6eafa2b7e53eb0beb5f7ff4abde5fd9b743d78
  checkout "$repo" "$commit"
  W="$WORK/javaetl"; JT="$BENCH_TOOLS/jvm/java"; src="$WORK/src/${repo/\//+}"
  JARS="$(python3 -c 'import pyspark,os;print(os.path.dirname(pyspark.__file__))')/jars"
  rm -rf "$W" && mkdir -p "$W"/{tools,toolclasses,classes,cap/main} && cp "$JT"/* "$W/tools/"
  python3 - "$W/tools" <<'PY'
import sys
t = sys.argv[1]
p = t + "/CapDriver.scala"; s = open(p).read()
s = s.replace('"take", "first")', '"take", "first", "command")', 1)
s = s.replace('    } else if (func == "tail") {',
              '    } else if (func == "command") {\n'
              '      c = c match { case w: org.apache.spark.sql.execution.command.DataWritingCommand => w.query; case o => o }\n'
              '    } else if (func == "tail") {', 1)
open(p, "w").write(s)
p = t + "/package_jvm.py"; s = open(p).read()
s = s.replace('            if r["action"] not in USER_ACTIONS:',
              '            if r["action"] not in USER_ACTIONS and not (r.get("func") == "command" and r["action"] in ("parquet", "save")):', 1)
open(p, "w").write(s)
PY
  python3 "$here/../javaetl/gen_olist.py" "$W/gen/olist" 400
  cp -r "$src" "$W/patched"
  python3 - "$W/patched/src/main/java/com/learnJava" <<'PY'
import re, sys, os
os.chdir(sys.argv[1])
def sub(p, old, new):
    s = open(p).read(); assert s.count(old) == 1, (p, old); open(p, "w").write(s.replace(old, new))
sub("Main.java", "if (args.length != 1) {", 'if (args.length == 0) args = new String[]{System.getProperty("javaetl.props")}; if (args.length != 1) {')
sub("Main.java", "spark.close();", "")
sub("driver/ConsumeDataFromKafka.java", '.format("kafka")', '.format("text")')
sub("driver/ConsumeDataFromKafka.java", '.load();', '.load(System.getProperty("javaetl.topics") + "/" + topicName);')
sub("driver/StreamDataToKafka.java", '.format ("kafka")', '.format ("text")')
sub("driver/StreamDataToKafka.java", '.save();', '.mode("overwrite").save(System.getProperty("javaetl.topics") + "/" + topicName);')
p = "driver/Pipeline.java"; s = open(p).read()
s = re.sub(r'\.writeTo\s*\("clickhouse\.retail_analytics\.(\w+)"\)\n(\s*)\.append\(\);',
           lambda m: '.write().mode("overwrite")\n%s.parquet(System.getProperty("javaetl.out") + "/%s");' % (m.group(2), m.group(1)), s)
open(p, "w").write(s)
PY
  S="$W/patched/src/main/java/com/learnJava"
  javac -nowarn -g -encoding UTF-8 -cp "$JARS/*" -d "$W/classes" "$S/Main.java" "$S"/datasource/*.java \
    "$S"/datasource/impl/*.java "$S"/driver/*.java "$S"/lib/*.java "$S"/model/*.java "$S/util/HadoopConfigUtil.java"
  javac -nowarn -cp "$JARS/*" -d "$W/toolclasses" "$W/tools/PlanDumpJvm.java"
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*:$W/toolclasses" -d "$W/toolclasses" \
    "$W/tools/CapDriver.scala" "$W/tools/SiteTagger.scala"
  for k in customers order_items order_payments orders products sellers; do
    echo "${k}_file_path=$W/gen/olist/olist_${k}_dataset.csv"; done > "$W/run.props"
  opens=""; for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util \
    java.util.concurrent java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    opens="$opens --add-opens=java.base/$p=ALL-UNNAMED"; done
  (cd "$W/patched" && nice -n 10 timeout 300 java $opens -Djava.net.preferIPv6Addresses=false \
    -Djavaetl.props="$W/run.props" -Djavaetl.topics="$W/topics" -Djavaetl.out="$W/out" \
    -cp "$W/toolclasses:$W/classes:$JARS/*" org.apache.spark.sql.benchjvm.CapDriver \
    "$W/cap/main" "$W/cap/main/_eventlog" jetl com.learnJava. com.learnJava.Main) > "$WORK/logs/javaetl.log" 2>&1 || true
  grep '\[capjvm\]' "$WORK/logs/javaetl.log" | tail -n 3 || true
  python3 - "$W" "$here/../javaetl" "$src" "$repo" "$commit" > "$W/pkg.json" <<'PY'
import json, sys
w, out, src, repo, commit = sys.argv[1:6]
print(json.dumps({"out": out, "repo_root": src, "repo": repo, "commit": commit, "language": "java",
  "pkg": "com.learnJava.", "captures": [w + "/cap/main"],
  "scrub": [[w + "/gen/olist", "/data/olist"], [w + "/topics", "/data/topics"], [w + "/out", "/data/out"],
            [w + "/patched", "/work/app"], [w, "/work"]], "report": w + "/pkg_report.json"}))
PY
  python3 "$W/tools/package_jvm.py" "$W/pkg.json"
  exit 0
  ;;
scalaetl)
  # ismailhijazi/QuantexaAssignment: a production-style Scala Spark application (sbt; Scala 2.12 /
  # Spark 2.4 at the pinned commit) — `object Main` reads application.conf (Typesafe Config), loads
  # the committed data/flightData.csv and data/passengers.csv as Dataset[Flight] / Dataset[Passenger]
  # through util/CsvUtils.safeReadCsv, runs the analytics object named by its first argument
  # (analytics/*.scala: apply(Dataset[Flight], ...) returning typed Datasets: groupByKey/count →
  # joinWith → map, groupByKey/mapGroups, a self-join, a typed filter, countDistinct after a
  # repartition) inside runWithMetrics (count), `--show` shows it, then CsvUtils.saveAsCsv writes it
  # (coalesce(1).write.csv). JVM capture (../scalaetl/README.md): scratch copies of the Java-capable
  # JVM tools with the changes below, a compile copy with two same-line patches, stand-ins for
  # Typesafe Config and the part of ScalaTest the repository's suites use (neither is among
  # pyspark's jars), one JVM per run under nice. Run 1: the README's five commands (MostFrequentFlyers
  # aside) and the test suites; run 2: MostFrequentFlyers and its suite with
  # spark.sql.legacy.dataset.nameNonStructGroupingKeyAsValue=true (the code selects $"value", the
  # name Spark 2.4 gave a groupByKey key; Spark 3+ names it `key`).
  repo=ismailhijazi/QuantexaAssignment
  commit=fc761c105b68b85b1290a647ce9273fe1f58f728
  checkout "$repo" "$commit"
  W="$WORK/scalaetl"; JT="$BENCH_TOOLS/jvm/java"; src="$WORK/src/${repo/\//+}"
  JARS="$(python3 -c 'import pyspark,os;print(os.path.dirname(pyspark.__file__))')/jars"
  rm -rf "$W" && mkdir -p "$W"/{tools,toolclasses,classes,stubclasses,stubs,cap} && cp "$JT"/* "$W/tools/" && chmod u+w "$W"/tools/*
  python3 - "$W/tools" <<'PY'
import sys
t = sys.argv[1]
def sub(p, old, new):
    s = open(p).read(); assert s.count(old) == 1, (p, old); open(p, "w").write(s.replace(old, new))
p = t + "/CapDriver.scala"
# (1) file writes are actions: a DataWritingCommand is captured as the query it writes (as javaetl)
sub(p, '"take", "first")', '"take", "first", "command")')
sub(p, '    } else if (func == "tail") {',
    '    } else if (func == "command") {\n'
    '      c = c match { case w: org.apache.spark.sql.execution.command.DataWritingCommand => w.query; case o => o }\n'
    '    } else if (func == "tail") {')
# (2) "pkg.Object@a,b,c": main(Array(a, b, c)) (a command line); the stem names the first argument
sub(p, '      val stem = obj.split(\'.\').last.replace("#", "-")',
    '      val (entry, argv) = if (obj.contains("@")) (obj.split("@", 2)(0), obj.split("@", 2)(1).split(",")) else (obj, Array[String]())\n'
    '      val stem = (if (argv.nonEmpty) argv(0) else entry.split(\'.\').last).replace("#", "-")')
sub(p, '        val jcls = Class.forName(obj)', '        val jcls = Class.forName(entry)')
sub(p, '          case Some(m) => m.invoke(null, Array[String]())',
    '          case Some(m) => m.invoke(null, argv)')
# (3) a class that is neither a Java main nor a Scala object (a test suite class): instantiated, then
#     its execute() runs every registered test (ScalaTest's Suite.execute)
sub(p, '''            val cls = Class.forName(obj + "$")
            val mod = cls.getField("MODULE$").get(null)
            cls.getMethod("main", classOf[Array[String]]).invoke(mod, Array[String]())''',
    '''            val mcls = try Some(Class.forName(entry + "$")) catch { case _: ClassNotFoundException => None }
            mcls match {
              case Some(cls) =>
                val mod = cls.getField("MODULE$").get(null)
                cls.getMethod("main", classOf[Array[String]]).invoke(mod, argv)
              case None =>
                val inst = jcls.getDeclaredConstructor().newInstance().asInstanceOf[Object]
                jcls.getMethod("execute").invoke(inst)
            }''')
p = t + "/package_jvm.py"
# (4) csv/parquet/save commands are user actions (the write statement is the action site)
sub(p, '            if r["action"] not in USER_ACTIONS:',
    '            if r["action"] not in USER_ACTIONS and not (r.get("func") == "command" and r["action"] in ("csv", "parquet", "save")):')
# (5) the entry object of "pkg.Main@args"
sub(p, '            obj_name = r["object"].split("#")[0]', '            obj_name = r["object"].split("#")[0].split("@")[0]')
# (6) a class's file when the folders do not spell the whole package (src/main/scala/analytics/ for
#     package QuantexaAssignment.analytics; analytics/ and model/ both hold a FlownTogetherInDateRange.scala):
#     the longest trailing part of the package path that a candidate's folder ends with
sub(p, '            best = [c for c in cands if os.path.dirname(c).endswith(pkgdir)] or cands',
    '            parts = pkgdir.split("/")\n'
    '            best = []\n'
    '            for k in range(len(parts)):\n'
    '                suf = "/".join(parts[k:])\n'
    '                best = [c for c in cands if suf and (os.path.dirname(c) == suf or os.path.dirname(c).endswith("/" + suf))]\n'
    '                if best:\n'
    '                    break\n'
    '            best = best or cands')
# (7) a capture run with its own SQL conf (spark_conf: [{capture_prefix, conf}]) records it in gold.json
sub(p, '        g["spark_conf"] = {}',
    '        g["spark_conf"] = {}\n'
    '        for sc_ in cfg.get("spark_conf", []):\n'
    '            if os.path.realpath(d).startswith(os.path.realpath(sc_["capture_prefix"])):\n'
    '                g["spark_conf"] = dict(sc_["conf"])')
# (8) an exchange whose consumer AQE removed from the final plan (EliminateSorts drops a Sort over a
#     stage that returned at most one row; the executed Exchange stays under the ResultQueryStage):
#     it takes the gold of the same exchange in the initial plan (same text but for plan_id), whose
#     consumer still exists
sub(p, '''    def _an_leaves(self, i):''', '''    def label(self):
        final = super().label()
        def key(i):
            return re.sub(r"\\[plan_id=\\d+\\]", "", self.P[i].get("desc", ""))
        for i, v in list(final.items()):
            if v[0] == "code" and not v[1] and v[2].endswith("UNRESOLVED") and self.P[i]["cls"].endswith("ExchangeExec"):
                for j, w in final.items():
                    if j != i and w[0] == "code" and w[1] and self.P[j]["cls"] == self.P[i]["cls"] and key(j) == key(i):
                        final[i] = ("code", w[1], v[2].replace("UNRESOLVED", "same exchange in the initial plan: ") + w[2], True)
                        break
        return final

    def _an_leaves(self, i):''')
# (9) identical plans: a lambda instance's identity hash (…$$Lambda$N/0x…@1a2b3c) is not part of the plan
sub(p, '    t = re.sub(r"RDD\\[\\d+\\]", "RDD[N]", t)',
    '    t = re.sub(r"RDD\\[\\d+\\]", "RDD[N]", t)\n'
    '    t = re.sub(r"\\$\\$Lambda\\$?[\\w/]*@[0-9a-f]+", "$$Lambda@N", t)')
# (10) a typed filter (Dataset.filter(f => ...): TypedFilter, optimised into a Filter whose condition
#      invokes the lambda; the condition has no origin) is its filter call's, not an inferred filter
sub(p, '''            if lid is not None and self.L[lid]["cls"] == "Filter":
                rs = self.lnode_ranges(lid)''', '''            if lid is not None and self.L[lid]["cls"] in ("Filter", "TypedFilter"):
                rs = self.lnode_ranges(lid)''')
# (11) OPT-IN, NOT used for bench/scalaetl (SCALAETL_BLOCK_ARG_STATEMENTS=1 applies it): a Scala block
#      argument of a method call (`.mapGroups { ... }.orderBy(...)`, `.map { case ... }`, and — as a side
#      effect — `scala.util.Try { ... }`) would belong to the chain's statement as a parenthesised argument
#      does. The shared tools' (official) Scala splitter opens a block at such a brace, so the chain is cut
#      there (`x.groupByKey(..).mapGroups { ... =>` and `}.orderBy(..)` are two statements); the set keeps
#      that official rule (../scalaetl/README.md, "Statement rule").
import os
if os.environ.get("SCALAETL_BLOCK_ARG_STATEMENTS") == "1":
    sub(p, '''            elif ch == "{":
                if depth > 0:''', '''            elif ch == "{":
                if depth > 0 or (not java and re.search(r"\\.\\s*[A-Za-z_]\\w*\\s*(\\([^()]*\\)\\s*)*$", "".join(code))):''')
PY
  cat > "$W/stubs/typesafe_config.scala" <<'EOF'
// Stand-in for Typesafe Config (com.typesafe:config is not among pyspark's jars; no Maven here),
// written for this capture: ConfigFactory.load() reads application.conf from the classpath, as the
// library does, with the subset of HOCON the repository's file uses (nested `key { ... }` blocks,
// `key = value` with dotted keys, quoted or bare values, `#` / `//` comments).
package com.typesafe.config

class ConfigException(msg: String) extends RuntimeException(msg)

class Config(values: Map[String, String]) {
  private def get(path: String): String = values.getOrElse(path, throw new ConfigException(s"No configuration setting found for key '$path'"))
  def getString(path: String): String = get(path)
  def getBoolean(path: String): Boolean = get(path).toBoolean
  def getInt(path: String): Int = get(path).toInt
  def hasPath(path: String): Boolean = values.contains(path)
}

object ConfigFactory {
  private def stripComment(l: String): String = {
    var inQ = false
    var i = 0
    while (i < l.length) {
      val c = l.charAt(i)
      if (c == '"') inQ = !inQ
      else if (!inQ && (c == '#' || l.startsWith("//", i))) return l.substring(0, i)
      i += 1
    }
    l
  }
  def parse(text: String): Config = {
    val vals = scala.collection.mutable.LinkedHashMap[String, String]()
    val stack = scala.collection.mutable.ArrayBuffer[String]()
    for (raw <- text.split("\n")) {
      val l = stripComment(raw).trim
      if (l == "}") { if (stack.nonEmpty) stack.remove(stack.length - 1) }
      else if (l.endsWith("{")) stack += l.dropRight(1).trim.stripSuffix("=").trim
      else if (l.nonEmpty) {
        val i = l.indexWhere(c => c == '=' || c == ':')
        if (i > 0) {
          val k = l.substring(0, i).trim
          var v = l.substring(i + 1).trim
          if (v.length >= 2 && v.startsWith("\"") && v.endsWith("\"")) v = v.substring(1, v.length - 1)
          vals((stack :+ k).mkString(".")) = v
        }
      }
    }
    new Config(vals.toMap)
  }
  def load(): Config = {
    val in = Thread.currentThread.getContextClassLoader.getResourceAsStream("application.conf")
    if (in == null) new Config(Map.empty)
    else try parse(scala.io.Source.fromInputStream(in, "UTF-8").mkString) finally in.close()
  }
}
EOF
  cat > "$W/stubs/scalatest.scala" <<'EOF'
// Stand-in for the part of ScalaTest the repository's suites use (org.scalatest is not among
// pyspark's jars; no Maven here), written for this capture: AnyFlatSpec registers
// `"subject" should "behaviour" in { ... }` / `it should ... in` tests, execute() runs them in
// order (a failing test is reported and does not stop the others), Matchers gives `shouldBe`,
// `should be` and `should contain`.
package org.scalatest {
  trait Suite {
    private val tests = scala.collection.mutable.ArrayBuffer[(String, () => Unit)]()
    protected def registerTest(name: String, body: => Unit): Unit = tests += ((name, () => body))
    def execute(): Unit = for ((name, body) <- tests) {
      try { body(); System.err.println(s"[scalatest-standin] PASS $name") }
      catch { case t: Throwable => System.err.println(s"[scalatest-standin] FAIL $name: $t") }
    }
  }
  trait BeforeAndAfterAll extends Suite
}

package org.scalatest.flatspec {
  class AnyFlatSpec extends org.scalatest.Suite {
    private var lastSubject = ""
    final class InWord(name: String) { def in(body: => Unit): Unit = registerTest(name, body) }
    final class Subject(subject: String) {
      def should(behaviour: String): InWord = { lastSubject = subject; new InWord(s"$subject should $behaviour") }
      def must(behaviour: String): InWord = should(behaviour)
    }
    implicit def toSubject(s: String): Subject = new Subject(s)
    object it {
      def should(behaviour: String): InWord = new InWord(s"$lastSubject should $behaviour")
    }
  }
}

package org.scalatest.matchers.should {
  trait Matchers {
    final class Expectation(val check: Any => Unit)
    def be(expected: Any): Expectation = new Expectation(v => if (v != expected) throw new AssertionError(s"$v was not $expected"))
    def contain(expected: Any): Expectation = new Expectation({
      case a: Array[_] => if (!a.toSeq.exists(_ == expected)) throw new AssertionError(s"${a.mkString(",")} did not contain $expected")
      case i: Iterable[_] => if (!i.exists(_ == expected)) throw new AssertionError(s"$i did not contain $expected")
      case o => throw new AssertionError(s"$o is not a collection")
    })
    implicit class AnyShouldWrapper[T](v: T) {
      def shouldBe(expected: Any): Unit = if (v != expected) throw new AssertionError(s"$v was not $expected")
      def should(e: Expectation): Unit = e.check(v)
    }
  }
  object Matchers extends Matchers
}
EOF
  cp -r "$src" "$W/patched" && rm -rf "$W/patched/target" "$W/patched/project/target"
  python3 - "$W/patched" <<'PY'
import sys, os
os.chdir(sys.argv[1])
def sub_line(p, n, old, new):
    L = open(p).read().split("\n"); assert old in L[n - 1], (p, n, L[n - 1])
    L[n - 1] = L[n - 1].replace(old, new); open(p, "w").write("\n".join(L))
# the driver captures after main() returns: the session must stay open
sub_line("src/main/scala/Main.scala", 153, "spark.stop()", "")
# Scala 2.13: a pattern-matching anonymous function cannot pick between mapGroups' Scala and Java
# overloads (2.12 could); the same parameters, typed, on the same line
sub_line("src/main/scala/analytics/LongestRunWithoutUK.scala", 28, "mapGroups { case (passengerId, flightsIter) =>",
         "mapGroups { (passengerId: Int, flightsIter: Iterator[Flight]) =>")
PY
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*" -d "$W/stubclasses" "$W/stubs/typesafe_config.scala" "$W/stubs/scalatest.scala"
  # main and test sources (the suites are run as the repository's `sbt test` would run them)
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*:$W/stubclasses" -d "$W/classes" $(find "$W/patched/src" -name '*.scala' | sort)
  javac -nowarn -cp "$JARS/*" -d "$W/toolclasses" "$W/tools/PlanDumpJvm.java"
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*:$W/toolclasses" -d "$W/toolclasses" \
    "$W/tools/CapDriver.scala" "$W/tools/SiteTagger.scala"
  opens=""; for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util \
    java.util.concurrent java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    opens="$opens --add-opens=java.base/$p=ALL-UNNAMED"; done
  M=QuantexaAssignment.Main; A=QuantexaAssignment.analytics
  capjvm() {  # capjvm RUN [-Dconf...] -- ENTRY...   (cwd = compile copy: data/, results/ are relative)
    local run="$1"; shift; local props=(); while [ "$1" != "--" ]; do props+=("$1"); shift; done; shift
    mkdir -p "$W/cap/$run"
    (cd "$W/patched" && nice -n 10 timeout 900 java $opens -Djava.net.preferIPv6Addresses=false "${props[@]}" \
      -cp "$W/toolclasses:$W/classes:$W/stubclasses:$W/patched/src/main/resources:$JARS/*" \
      org.apache.spark.sql.benchjvm.CapDriver "$W/cap/$run" "$W/cap/$run/_eventlog" setl QuantexaAssignment.,analytics. \
      "$@") > "$WORK/logs/scalaetl-$run.log" 2>&1 || true
    grep '\[capjvm\]' "$WORK/logs/scalaetl-$run.log" | grep -v captured || true
  }
  capjvm run1 -- "$M@TotalFlightsPerMonth,--show" "$M@LongestRunWithoutUK,--show" \
    "$M@PassengersFlownTogether,--show" "$M@FlownTogetherInDateRange,5,2017-01-01,2017-03-01,--show" \
    $A.TotalFlightsPerMonthSpec analytics.LongestRunWithoutUKSpec $A.PassengersFlownTogetherSpec \
    $A.FlownTogetherInDateRangeSpec QuantexaAssignment.util.CsvUtilsSpec QuantexaAssignment.util.DataValidationUtilsSpec
  capjvm run2 -Dspark.sql.legacy.dataset.nameNonStructGroupingKeyAsValue=true -- "$M@MostFrequentFlyers,--show" \
    $A.MostFrequentFlyersSpec
  python3 - "$W" "$here/../scalaetl" "$src" "$repo" "$commit" > "$W/pkg.json" <<'PY'
import json, sys
w, out, src, repo, commit = sys.argv[1:6]
print(json.dumps({"out": out, "repo_root": src, "repo": repo, "commit": commit, "language": "scala",
  "pkg": "QuantexaAssignment.,analytics.", "captures": [w + "/cap/run1", w + "/cap/run2"],
  "spark_conf": [{"capture_prefix": w + "/cap/run2",
                  "conf": {"spark.sql.legacy.dataset.nameNonStructGroupingKeyAsValue": "true"}}],
  "scrub": [[w + "/patched", "/work/app"], [w, "/work"]], "report": w + "/pkg_report.json"}))
PY
  python3 "$W/tools/package_jvm.py" "$W/pkg.json"
  exit 0
  ;;
javasql)
  # sagar-choudhari/spark-data-engineering-java: a Java 17 / Maven Spark project whose jobs run
  # Spark SQL written as Java text blocks (spark.sql("""...""")) over temp views registered with
  # createOrReplaceTempView, next to Dataset<Row> chains (explode_outer/select/withColumn,
  # row_number dedup window, joins, partitioned parquet writes); paths are static final constants
  # read through a properties helper (AppConfig), the session comes from a SparkSessionFactory,
  # and JUnit 5 suites (SparkTestBase) re-run the same SQL over their own temp views.
  # JVM capture (../javasql/README.md): scratch copies of the Java-capable JVM tools with the
  # changes below, a compile copy with same-line patches (data paths, the two session stops
  # blanked), stand-ins for the part of JUnit 5 the suites use and for Delta's session catalog
  # class (both name it; neither is among pyspark's jars), seeded generated data from
  # ../javasql/gen_orders.py. One JVM under nice.
  repo=sagar-choudhari/spark-data-engineering-java
  commit=7fb555ed8debe1e27e336fc99478da3b409b9644
  checkout "$repo" "$commit"
  W="$WORK/javasql"; JT="$BENCH_TOOLS/jvm/java"; src="$WORK/src/${repo/\//+}"
  JARS="$(python3 -c 'import pyspark,os;print(os.path.dirname(pyspark.__file__))')/jars"
  rm -rf "$W" && mkdir -p "$W"/{tools,toolclasses,classes,stubclasses,stubs,cap/main} && cp "$JT"/* "$W/tools/" && chmod u+w "$W"/tools/*
  python3 - "$W/tools" <<'PY'
import sys
t = sys.argv[1]
def sub(p, old, new):
    s = open(p).read(); assert s.count(old) == 1, (p, old); open(p, "w").write(s.replace(old, new))
p = t + "/CapDriver.scala"
# (1) file writes are actions: a DataWritingCommand is captured as the query it writes (as javaetl)
sub(p, '"take", "first")', '"take", "first", "command")')
sub(p, '    } else if (func == "tail") {',
    '    } else if (func == "command") {\n'
    '      c = c match { case w: org.apache.spark.sql.execution.command.DataWritingCommand => w.query; case o => o }\n'
    '    } else if (func == "tail") {')
# (2) a class with neither a static main nor a Scala object (a JUnit 5 test class) is run by the
#     JUnit stand-in: @BeforeAll, then per @Test a new instance, @BeforeEach, the test, @AfterEach
sub(p, '''            val cls = Class.forName(obj + "$")
            val mod = cls.getField("MODULE$").get(null)
            cls.getMethod("main", classOf[Array[String]]).invoke(mod, Array[String]())''',
    '''            val mcls = try Some(Class.forName(obj + "$")) catch { case _: ClassNotFoundException => None }
            mcls match {
              case Some(cls) =>
                val mod = cls.getField("MODULE$").get(null)
                cls.getMethod("main", classOf[Array[String]]).invoke(mod, Array[String]())
              case None =>
                Class.forName("benchstandin.JUnitStandin").getMethod("run", classOf[Class[_]]).invoke(null, jcls)
            }''')
p = t + "/package_jvm.py"
# (3) parquet/save/csv write commands are user actions (the write statement is the action site)
sub(p, '            if r["action"] not in USER_ACTIONS:',
    '            if r["action"] not in USER_ACTIONS and not (r.get("func") == "command" and r["action"] in ("csv", "parquet", "save")):')
p = t + "/SiteTagger.scala"
# (4) the creation site is also recorded by a post-hoc resolution rule: Spark 4 runs the check
#     rules on a CTE-inlined copy of a plan with a WITH clause, so the nodes of the analyzed plan
#     (WithCTE, CTERelationDef, their children) kept no site and every SQL origin of such a query
#     was unplaceable (a Java text block's SQL is not a verbatim substring of the file); the rule
#     tags the real plan (first tag kept, so plans without a CTE are tagged as before)
sub(p, '  override def apply(e: SparkSessionExtensions): Unit = e.injectCheckRule(_ => SiteTagger)',
    '  override def apply(e: SparkSessionExtensions): Unit = {\n'
    '    e.injectCheckRule(_ => SiteTagger)\n'
    '    e.injectPostHocResolutionRule(_ => new org.apache.spark.sql.catalyst.rules.Rule[LogicalPlan] {\n'
    '      override def apply(plan: LogicalPlan): LogicalPlan = { SiteTagger(plan); plan }\n'
    '    })\n'
    '  }')
p = t + "/label.py"
# (5) a piece of SQL text that is not a verbatim substring of the file (a Java text block loses its
#     incidental indentation, so only one-line pieces are found) is looked for nearest to the
#     spark.sql call; the occurrences inside that call's own statement are now preferred: sibling
#     queries repeat lines (`JOIN customers c ON o.customer_id = c.customer_id`, `ORDER BY tier`),
#     and the nearest one was often the previous query's
sub(p, '''            if occ:
                best = min(occ, key=lambda o: abs(self.src.line_of(hint[0], o) - hint[1]))
                l1 = self.src.line_of(hint[0], best)''', '''            if occ:
                inside = [o for o in occ if tag_r and tag_r[1] <= self.src.line_of(hint[0], o) <= tag_r[2]]
                best = min(inside or occ, key=lambda o: abs(self.src.line_of(hint[0], o) - hint[1]))
                l1 = self.src.line_of(hint[0], best)''')
PY
  cat > "$W/stubs/junit_standin.java" <<'EOF'
// Stand-in for the part of JUnit 5 (Jupiter) the repository's suites use (org.junit is not among
// pyspark's jars; no Maven here), written for this capture. Each file below is split out by
// capture.sh. JUnitStandin.run(cls): @BeforeAll (superclasses first), then for every @Test method
// (sorted by name) a new instance, @BeforeEach (superclasses first), the test, @AfterEach, and
// @AfterAll last; a failing test is reported and does not stop the others.
//@@ org/junit/jupiter/api/Test.java
package org.junit.jupiter.api;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD) public @interface Test {}
//@@ org/junit/jupiter/api/BeforeEach.java
package org.junit.jupiter.api;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD) public @interface BeforeEach {}
//@@ org/junit/jupiter/api/AfterEach.java
package org.junit.jupiter.api;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD) public @interface AfterEach {}
//@@ org/junit/jupiter/api/BeforeAll.java
package org.junit.jupiter.api;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD) public @interface BeforeAll {}
//@@ org/junit/jupiter/api/AfterAll.java
package org.junit.jupiter.api;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target(ElementType.METHOD) public @interface AfterAll {}
//@@ org/junit/jupiter/api/DisplayName.java
package org.junit.jupiter.api;
import java.lang.annotation.*;
@Retention(RetentionPolicy.RUNTIME) @Target({ElementType.METHOD, ElementType.TYPE}) public @interface DisplayName { String value(); }
//@@ org/junit/jupiter/api/function/Executable.java
package org.junit.jupiter.api.function;
@FunctionalInterface public interface Executable { void execute() throws Throwable; }
//@@ org/junit/jupiter/api/Assertions.java
package org.junit.jupiter.api;
import org.junit.jupiter.api.function.Executable;
public final class Assertions {
  private Assertions() {}
  private static void fail(String msg, Object e, Object a) {
    throw new AssertionError((msg == null ? "" : msg + " ==> ") + "expected: <" + e + "> but was: <" + a + ">");
  }
  public static void assertEquals(long e, long a) { assertEquals(e, a, (String) null); }
  public static void assertEquals(long e, long a, String m) { if (e != a) fail(m, e, a); }
  public static void assertEquals(double e, double a) { assertEquals(e, a, (String) null); }
  public static void assertEquals(double e, double a, String m) { if (Double.doubleToLongBits(e) != Double.doubleToLongBits(a)) fail(m, e, a); }
  public static void assertEquals(double e, double a, double d) { assertEquals(e, a, d, null); }
  public static void assertEquals(double e, double a, double d, String m) { if (Math.abs(e - a) > d) fail(m, e, a); }
  public static void assertEquals(Object e, Object a) { assertEquals(e, a, (String) null); }
  public static void assertEquals(Object e, Object a, String m) { if (e == null ? a != null : !e.equals(a)) fail(m, e, a); }
  public static void assertTrue(boolean c) { assertTrue(c, null); }
  public static void assertTrue(boolean c, String m) { if (!c) fail(m, true, false); }
  public static void assertFalse(boolean c) { assertFalse(c, null); }
  public static void assertFalse(boolean c, String m) { if (c) fail(m, false, true); }
  public static void assertNotNull(Object o) { assertNotNull(o, null); }
  public static void assertNotNull(Object o, String m) { if (o == null) fail(m, "not null", null); }
  public static void assertAll(Executable... es) {
    AssertionError first = null;
    for (Executable e : es) {
      try { e.execute(); } catch (Throwable t) { if (first == null) first = new AssertionError("assertAll: " + t.getMessage()); }
    }
    if (first != null) throw first;
  }
  public static <T extends Throwable> T assertThrows(Class<T> type, Executable e) { return assertThrows(type, e, null); }
  public static <T extends Throwable> T assertThrows(Class<T> type, Executable e, String m) {
    try { e.execute(); } catch (Throwable t) {
      if (type.isInstance(t)) return type.cast(t);
      fail(m, type.getName(), t.getClass().getName());
    }
    throw new AssertionError((m == null ? "" : m + " ==> ") + "expected " + type.getName() + " to be thrown, but nothing was thrown");
  }
}
//@@ org/apache/spark/sql/delta/catalog/DeltaCatalog.java
// Stand-in for Delta Lake's session catalog (delta-spark is not among pyspark's jars): the
// factory and the test base set spark.sql.catalog.spark_catalog to it; like Delta's for
// non-Delta tables and temp views, it delegates everything to the built-in session catalog.
package org.apache.spark.sql.delta.catalog;
public class DeltaCatalog extends org.apache.spark.sql.connector.catalog.DelegatingCatalogExtension {}
//@@ benchstandin/JUnitStandin.java
package benchstandin;
import java.lang.annotation.Annotation;
import java.lang.reflect.*;
import java.util.*;
public final class JUnitStandin {
  private static List<Class<?>> chain(Class<?> c) {
    List<Class<?>> out = new ArrayList<>();
    for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) out.add(0, k);
    return out;
  }
  private static List<Method> annotated(Class<?> c, Class<? extends Annotation> a, boolean superFirst) {
    List<Method> out = new ArrayList<>();
    List<Class<?>> ks = chain(c);
    if (!superFirst) Collections.reverse(ks);
    for (Class<?> k : ks) {
      Method[] ms = k.getDeclaredMethods();
      Arrays.sort(ms, Comparator.comparing(Method::getName));
      for (Method m : ms) if (m.isAnnotationPresent(a)) { m.setAccessible(true); out.add(m); }
    }
    return out;
  }
  private static Throwable cause(Throwable t) { return t instanceof InvocationTargetException && t.getCause() != null ? t.getCause() : t; }
  public static void run(Class<?> cls) throws Exception {
    for (Method m : annotated(cls, org.junit.jupiter.api.BeforeAll.class, true)) m.invoke(null);
    Constructor<?> ctor = cls.getDeclaredConstructor();
    ctor.setAccessible(true);
    int pass = 0, fail = 0;
    for (Method t : annotated(cls, org.junit.jupiter.api.Test.class, true)) {
      Object inst = ctor.newInstance();
      try {
        for (Method m : annotated(cls, org.junit.jupiter.api.BeforeEach.class, true)) m.invoke(inst);
        try { t.invoke(inst); }
        finally { for (Method m : annotated(cls, org.junit.jupiter.api.AfterEach.class, false)) m.invoke(inst); }
        pass++;
        System.err.println("[junit-standin] PASS " + cls.getSimpleName() + "." + t.getName());
      } catch (Throwable e) {
        fail++;
        System.err.println("[junit-standin] FAIL " + cls.getSimpleName() + "." + t.getName() + ": " + cause(e));
      }
    }
    for (Method m : annotated(cls, org.junit.jupiter.api.AfterAll.class, false)) m.invoke(null);
    System.err.println("[junit-standin] " + cls.getSimpleName() + ": " + pass + " passed, " + fail + " failed");
  }
}
EOF
  python3 - "$W/stubs" <<'PY'
import os, sys
d = sys.argv[1]
cur = None
for ln in open(os.path.join(d, "junit_standin.java")):
    if ln.startswith("//@@ "):
        cur = os.path.join(d, "src", ln[5:].strip()); os.makedirs(os.path.dirname(cur), exist_ok=True); open(cur, "w").close()
    elif cur:
        open(cur, "a").write(ln)
PY
  python3 "$here/../javasql/gen_orders.py" "$W/gen"
  cp -r "$src" "$W/patched"
  python3 - "$W/patched" "$W/gen/data-file" <<'PY'
import sys, os
os.chdir(sys.argv[1]); data = sys.argv[2]
def sub_line(p, n, old, new):
    L = open(p).read().split("\n"); assert old in L[n - 1], (p, n, L[n - 1])
    L[n - 1] = L[n - 1].replace(old, new); open(p, "w").write("\n".join(L))
# the data the properties file and the suites name (a Windows user folder) -> the generated files
prefix = "C:/Users/sgrch/Desktop/central-learning/data-engineering/data-file"
p = "src/main/resources/application.properties"
s = open(p).read(); assert s.count(prefix) >= 20; open(p, "w").write(s.replace(prefix, data))
T = "src/test/java/com/sagar/spark/jobs/"
for f, n in (("SparkSQLJobTest.java", 20), ("SparkSQLJobTest.java", 26), ("TempViewJobTest.java", 19),
             ("TempViewJobTest.java", 25), ("UDFJobTest.java", 51), ("EndToEndPipelineJobTest.java", 43),
             ("EndToEndPipelineJobTest.java", 47), ("AdvancedJoinJobTest.java", 27),
             ("AdvancedJoinJobTest.java", 32), ("AdvancedJoinJobTest.java", 37)):
    sub_line(T + f, n, prefix, data)
# the driver captures after main() / the suite returns: the session must stay open
sub_line("src/main/java/com/sagar/spark/utils/SparkSessionFactory.java", 36, "instance.stop();", "")
sub_line("src/test/java/com/sagar/spark/SparkTestBase.java", 29, "spark.stop();", "")
PY
  S="$W/patched/src/main/java/com/sagar/spark"; TS="$W/patched/src/test/java/com/sagar/spark"
  javac -nowarn -encoding UTF-8 -cp "$JARS/*" -d "$W/stubclasses" $(find "$W/stubs/src" -name '*.java' | sort)
  # the jobs and suites run (those with Spark SQL text), their utils and test base
  javac -nowarn -g -encoding UTF-8 -cp "$JARS/*:$W/stubclasses" -d "$W/classes" "$S"/utils/*.java \
    "$S"/jobs/{ParquetWriteJob,ParquetReadJob,SparkSQLJob,TempViewJob,UDFJob,EndToEndPipelineJob}.java \
    "$TS"/SparkTestBase.java "$TS"/jobs/{SparkSQLJobTest,TempViewJobTest,UDFJobTest,EndToEndPipelineJobTest,AdvancedJoinJobTest}.java
  javac -nowarn -cp "$JARS/*" -d "$W/toolclasses" "$W/tools/PlanDumpJvm.java"
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*:$W/toolclasses" -d "$W/toolclasses" \
    "$W/tools/CapDriver.scala" "$W/tools/SiteTagger.scala"
  opens=""; for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util \
    java.util.concurrent java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    opens="$opens --add-opens=java.base/$p=ALL-UNNAMED"; done
  J=com.sagar.spark.jobs
  # cwd = the compile copy (spark-warehouse/ of the bucketing test lands there). TempViewJob is the
  # last main: it never calls SparkSessionFactory.stop(), so the factory would hand its session
  # (whose listener the driver has removed) to the next main (each main is its own JVM normally).
  (cd "$W/patched" && nice -n 10 timeout 300 java $opens -Djava.net.preferIPv6Addresses=false \
    -cp "$W/toolclasses:$W/classes:$W/stubclasses:$W/patched/src/main/resources:$JARS/*" \
    org.apache.spark.sql.benchjvm.CapDriver "$W/cap/main" "$W/cap/main/_eventlog" jsql com.sagar. \
    $J.ParquetWriteJob $J.ParquetReadJob $J.SparkSQLJob $J.UDFJob $J.EndToEndPipelineJob $J.TempViewJob \
    $J.SparkSQLJobTest $J.TempViewJobTest $J.UDFJobTest $J.EndToEndPipelineJobTest $J.AdvancedJoinJobTest \
    ) > "$WORK/logs/javasql.log" 2>&1 || true
  grep '\[capjvm\]\|\[junit-standin\]' "$WORK/logs/javasql.log" | grep -v captured || true
  python3 - "$W" "$here/../javasql" "$src" "$repo" "$commit" > "$W/pkg.json" <<'PY'
import json, sys
w, out, src, repo, commit = sys.argv[1:6]
print(json.dumps({"out": out, "repo_root": src, "repo": repo, "commit": commit, "language": "java",
  "pkg": "com.sagar.", "captures": [w + "/cap/main"],
  "scrub": [[w + "/gen/data-file", "/data/data-file"], [w + "/patched", "/work/app"], [w, "/work"]],
  "report": w + "/pkg_report.json"}))
PY
  python3 "$W/tools/package_jvm.py" "$W/pkg.json"
  exit 0
  ;;
scalatest)
  # MrPowers/spark-examples (MIT): an sbt Scala project whose src/main objects hold DataFrame
  # transformations in the `def withX()(df: DataFrame): DataFrame` style chained with
  # `.transform(...)` (basic/, chaining/ — implicit classes, curried transforms —, PeopleProcessor,
  # OrderDependentTransforms with spark-daria CustomTransforms, a Celebrities object joining a data
  # file, UDF objects, a functions package object, a BaseballBatting benchmark job) and whose
  # ScalaTest FunSpec suites (src/test: DataFrameSuiteBase from spark-testing-base or the
  # project's SparkSessionWrapper, inline `Seq(...).toDF(...)` / spark-daria `spark.createDF(...)`
  # data) call them and assert on the results. JVM capture (../scalatest/README.md): scratch copies
  # of the Java-capable JVM tools with the changes below, a compile copy with same-line patches,
  # stand-ins (heredocs below) for the parts of ScalaTest 2, spark-testing-base, spark-daria and
  # spark-stringmetric the code uses (none is among pyspark's jars), a seeded stand-in for the
  # Lahman Batting.csv the mirror lacks (../scalatest/gen_batting.py). One JVM under nice.
  repo=MrPowers/spark-examples
  commit=b050800ae403a52c4e382fa3cdca778dc7d62821
  checkout "$repo" "$commit"
  W="$WORK/scalatest"; JT="$BENCH_TOOLS/jvm/java"; src="$WORK/src/${repo/\//+}"
  JARS="$(python3 -c 'import pyspark,os;print(os.path.dirname(pyspark.__file__))')/jars"
  rm -rf "$W" && mkdir -p "$W"/{tools,toolclasses,classes,stubclasses,stubs,cap/main} && cp "$JT"/* "$W/tools/" && chmod u+w "$W"/tools/*
  python3 - "$W/tools" <<'PY'
import sys
t = sys.argv[1]
def sub(p, old, new):
    s = open(p).read(); assert s.count(old) == 1, (p, old); open(p, "w").write(s.replace(old, new))
p = t + "/CapDriver.scala"
# (1) file writes are actions: a DataWritingCommand is captured as the query it writes (as javaetl)
sub(p, '"take", "first")', '"take", "first", "command")')
sub(p, '    } else if (func == "tail") {',
    '    } else if (func == "command") {\n'
    '      c = c match { case w: org.apache.spark.sql.execution.command.DataWritingCommand => w.query; case o => o }\n'
    '    } else if (func == "tail") {')
# (2) "pkg.Object#method" with a no-argument method (a Scala object's static forwarder, e.g. the
#     benchmark job's run()): called without the session argument
sub(p, '          m.invoke(null, s.asInstanceOf[Object])',
    '          if (m.getParameterCount == 0) m.invoke(null) else m.invoke(null, s.asInstanceOf[Object])')
# (3) a class that is neither a Java main nor a Scala object (a test suite class): instantiated (its
#     constructor registers the tests, as ScalaTest's FunSpec does), then execute() runs them
sub(p, '''            val cls = Class.forName(obj + "$")
            val mod = cls.getField("MODULE$").get(null)
            cls.getMethod("main", classOf[Array[String]]).invoke(mod, Array[String]())''',
    '''            val mcls = try Some(Class.forName(obj + "$")) catch { case _: ClassNotFoundException => None }
            mcls match {
              case Some(cls) =>
                val mod = cls.getField("MODULE$").get(null)
                cls.getMethod("main", classOf[Array[String]]).invoke(mod, Array[String]())
              case None =>
                val inst = jcls.getDeclaredConstructor().newInstance().asInstanceOf[Object]
                jcls.getMethod("execute").invoke(inst)
            }''')
# (4) the user frame of an action is not a Scala 2.12+ trait forwarder: a suite mixing in a library
#     trait (spark-testing-base's DataFrameSuiteBase) gets a synthetic method
#     `assertDataFrameEquals` that calls the trait's static `assertDataFrameEquals$`, and its frame
#     carries the line of the class declaration; the frame below it (the test's call) is the site
sub(p, '          if (pkg.split(",").exists(p => p.nonEmpty && cls.startsWith(p))) return Some((cls, file, line.toInt, prevMethod))',
    '          if (pkg.split(",").exists(p => p.nonEmpty && cls.startsWith(p)) && prevMethod != m + "$") return Some((cls, file, line.toInt, prevMethod))')
p = t + "/package_jvm.py"
# (5) csv/parquet/save write commands are user actions (the write statement is the action site)
sub(p, '            if r["action"] not in USER_ACTIONS:',
    '            if r["action"] not in USER_ACTIONS and not (r.get("func") == "command" and r["action"] in ("csv", "parquet", "save")):')
# (6) a test library's DataFrame assertion or helper that collects the DataFrame the test hands it
#     (DataFrameSuiteBase.assertDataFrameEquals / …ApproximateEquals, spark-daria's
#     DataFrameHelpers.columnToArray) is the test's action; the assertion call is its site
sub(p, '            if r["action"] not in USER_ACTIONS and not (',
    '            if r["action"] not in USER_ACTIONS and not (r.get("func") == "collect" and r["action"] in ("assertDataFrameEquals", "assertDataFrameApproximateEquals", "columnToArray")) and not (')
# (7) identical plans: a lambda instance's identity hash (…$$Lambda$N/0x…@1a2b3c) is not part of the plan
sub(p, '    t = re.sub(r"RDD\\[\\d+\\]", "RDD[N]", t)',
    '    t = re.sub(r"RDD\\[\\d+\\]", "RDD[N]", t)\n'
    '    t = re.sub(r"\\$\\$Lambda\\$?[\\w/]*@[0-9a-f]+", "$$Lambda@N", t)')
PY
  cat > "$W/stubs/standins.scala" <<'EOF'
// Stand-ins written for this capture for the libraries the repository's build names that are not
// among pyspark's jars (no Maven/Ivy here): the part of ScalaTest 2 (FunSpec) the suites use, of
// spark-testing-base (DataFrameSuiteBase), of spark-daria (createDF, column functions, ColumnExt,
// DataFrameExt, CustomTransform, DataFrameHelpers, DataFrameValidator) and of spark-stringmetric.
// Each follows the library's documented behaviour; none is user code (the capture's user-package
// filter is com.github.mrpowers.spark.examples.).
package org.scalatest {
  trait Assertions {
    implicit class StandinEq(l: Any) { def ===(r: Any): Boolean = l == r }
  }
  trait Suite extends Assertions {
    private val tests = scala.collection.mutable.ArrayBuffer[(String, () => Unit)]()
    protected def registerTest(name: String, body: => Unit): Unit = tests += ((name, () => body))
    def execute(): Unit = for ((name, body) <- tests) {
      try { body(); System.err.println(s"[scalatest-standin] PASS $name") }
      catch { case t: Throwable => System.err.println(s"[scalatest-standin] FAIL $name: $t") }
    }
  }
  // FunSpec (ScalaTest 2.x): describe("x") { it("y") { ... } } registers "x y"; the constructor
  // runs the describe bodies, execute() runs the tests in registration order
  class FunSpec extends Suite {
    private var scope = List[String]()
    protected def describe(description: String)(body: => Unit): Unit = {
      scope = description :: scope
      try body finally scope = scope.tail
    }
    protected object it {
      def apply(name: String)(body: => Unit): Unit = registerTest((name :: scope).reverse.mkString(" "), body)
    }
    protected def ignore(name: String)(body: => Unit): Unit = ()
    protected def pending: Unit = ()
  }
}

package com.holdenkarau.spark.testing {
  import org.apache.spark.sql.{DataFrame, SparkSession}
  // DataFrameSuiteBase: the shared session (here the active one) and the DataFrame assertions
  // (the rows of result and expected — collected first here —, schema equality, rows in order; the library compares them
  // row by row, approximately for assertDataFrameApproximateEquals)
  trait DataFrameSuiteBase {
    lazy val spark: SparkSession = SparkSession.builder().getOrCreate()
    lazy val sc = spark.sparkContext
    lazy val sqlContext = spark.sqlContext
    private def rowsEq(e: Array[org.apache.spark.sql.Row], r: Array[org.apache.spark.sql.Row], tol: Double): Boolean =
      e.length == r.length && e.zip(r).forall { case (a, b) =>
        a.length == b.length && (0 until a.length).forall { i =>
          (a.get(i), b.get(i)) match {
            case (x: Double, y: Double) => math.abs(x - y) <= tol
            case (x, y) => x == y
          }
        }
      }
    def assertDataFrameEquals(expected: DataFrame, result: DataFrame): Unit =
      assertDataFrameApproximateEquals(expected, result, 0.0)
    def assertDataFrameApproximateEquals(expected: DataFrame, result: DataFrame, tol: Double): Unit = {
      val r = result.collect()
      val e = expected.collect()
      if (expected.schema != result.schema)
        throw new AssertionError(s"Schemas differ: ${expected.schema} vs ${result.schema}")
      if (!rowsEq(e, r, tol)) throw new AssertionError(s"${e.mkString(",")} did not equal ${r.mkString(",")}")
    }
  }
}

package com.github.mrpowers.spark.daria.sql {
  import org.apache.spark.sql.{Column, DataFrame, Row, SparkSession}
  import org.apache.spark.sql.functions._
  import org.apache.spark.sql.types.{DataType, StructField, StructType}

  object SparkSessionExt {
    implicit class SparkSessionMethods(spark: SparkSession) {
      private def asRows[U](rowData: List[U]): List[Row] = rowData.map {
        case r: Row => r
        case p: Product => Row(p.productIterator.toList: _*)
        case v => Row(v)
      }
      private def asSchema[T](fields: List[T]): List[StructField] = fields.map {
        case f: StructField => f
        case (name: String, dt: DataType, nullable: Boolean) => StructField(name, dt, nullable)
      }
      // as spark-daria: createDataFrame over a parallelized RDD of Rows with the given schema
      def createDF[U, T](rowData: List[U], fields: List[T]): DataFrame =
        spark.createDataFrame(spark.sparkContext.parallelize(asRows(rowData)), StructType(asSchema(fields)))
    }
  }

  object functions {
    def removeAllWhitespace(col: Column): Column = regexp_replace(col, "\\s+", "")
    def removeAllWhitespace(colName: String): Column = regexp_replace(col(colName), "\\s+", "")
    def singleSpace(col: Column): Column = trim(regexp_replace(col, " +", " "))
    def antiTrim(col: Column): Column = regexp_replace(col, "\\b\\s+\\b", "")
    def arrayExNull(cols: Column*): Column = split(concat_ws(",,,", cols: _*), ",,,")
  }

  object ColumnExt {
    implicit class ColumnMethods(col: Column) {
      def chain(colMethod: Column => Column): Column = colMethod(col)
      def isNotIn(list: Any*): Column = not(col.isin(list: _*))
      def isTrue: Column = col === lit(true)
      def isFalse: Column = col === lit(false)
      def isFalsy: Column = col.isNull || col === lit(false)
      def isTruthy: Column = !(col.isNull || col === lit(false))
      def isNullOrBlank: Column = col.isNull || trim(col) === ""
    }
  }

  class CustomTransform(val transform: DataFrame => DataFrame, val requiredColumns: Seq[String] = Seq.empty[String],
                        val addedColumns: Seq[String] = Seq.empty[String], val removedColumns: Seq[String] = Seq.empty[String])

  object DataFrameExt {
    implicit class DataFrameMethods(df: DataFrame) {
      def containsColumn(colName: String): Boolean = df.schema.fieldNames.contains(colName)
      // as spark-daria: checks the required columns, applies the transform, checks the added ones
      def trans(customTransform: CustomTransform): DataFrame = {
        val missing = customTransform.requiredColumns.filterNot(containsColumn)
        if (missing.nonEmpty) throw new IllegalArgumentException(s"missing columns: ${missing.mkString(", ")}")
        val out = df.transform(customTransform.transform)
        val notAdded = customTransform.addedColumns.filterNot(out.schema.fieldNames.contains)
        if (notAdded.nonEmpty) throw new IllegalArgumentException(s"columns not added: ${notAdded.mkString(", ")}")
        out
      }
    }
  }

  object DataFrameHelpers {
    def columnToArray[T: scala.reflect.ClassTag](df: DataFrame, colName: String): Array[T] =
      df.select(colName).collect().map(r => r(0).asInstanceOf[T])
  }

  case class MissingDataFrameColumnsException(smth: String) extends Exception(smth)
  case class InvalidDataFrameSchemaException(smth: String) extends Exception(smth)

  trait DataFrameValidator {
    def validatePresenceOfColumns(df: DataFrame, requiredColNames: Seq[String]): Unit = {
      val missing = requiredColNames.diff(df.columns.toSeq)
      if (missing.nonEmpty) throw MissingDataFrameColumnsException(s"The [${missing.mkString(", ")}] columns are not included in the DataFrame with the following columns [${df.columns.mkString(", ")}]")
    }
    def validateSchema(df: DataFrame, requiredSchema: StructType): Unit = {
      val missing = requiredSchema.toSet.diff(df.schema.toSet)
      if (missing.nonEmpty) throw InvalidDataFrameSchemaException(s"The [${missing.mkString(", ")}] StructFields are not included in the DataFrame")
    }
    def validateAbsenceOfColumns(df: DataFrame, prohibitedColNames: Seq[String]): Unit = {
      val extra = df.columns.toSeq.intersect(prohibitedColNames)
      if (extra.nonEmpty) throw new IllegalArgumentException(s"The [${extra.mkString(", ")}] columns are not allowed")
    }
  }
}

package com.github.mrpowers.spark.stringmetric {
  import org.apache.spark.sql.Column
  import org.apache.spark.sql.functions.udf
  // spark-stringmetric wraps the stringmetric library's algorithms as UDFs
  object SimilarityFunctions {
    private def bigrams(s: String): Set[String] = if (s == null) Set() else s.sliding(2).toSet
    private val jaccard = udf((a: String, b: String) =>
      if (a == null || b == null) None
      else { val x = bigrams(a); val y = bigrams(b); val u = (x | y).size; Some(if (u == 0) 0.0 else (x & y).size.toDouble / u) })
    def jaccard_similarity(s1: Column, s2: Column): Column = jaccard(s1, s2)
  }
  object PhoneticAlgorithms {
    private val codes = Map('b' -> '1', 'p' -> '1', 'f' -> '2', 'v' -> '2', 'c' -> '3', 'k' -> '3', 's' -> '3',
      'g' -> '4', 'j' -> '4', 'q' -> '5', 'x' -> '5', 'z' -> '5', 'd' -> '6', 't' -> '6', 'l' -> '7',
      'm' -> '8', 'n' -> '8', 'r' -> '9')
    private val rs = udf((s: String) =>
      if (s == null || s.isEmpty || !s.head.isLetter) None
      else {
        val l = s.toLowerCase.filter(_.isLetter)
        val digits = l.map(c => codes.getOrElse(c, '0'))
        Some(l.head.toUpper.toString + digits.foldLeft("")((acc, d) => if (acc.nonEmpty && acc.last == d) acc else acc + d))
      })
    def refined_soundex(c: Column): Column = rs(c)
  }
}
EOF
  cp -r "$src" "$W/patched"
  mkdir -p "$W/patched/src/main/resources"
  python3 "$here/../scalatest/gen_batting.py" "$W/patched/src/main/resources/Batting.csv" 20000
  python3 - "$W/patched" <<'PY'
import sys, os
os.chdir(sys.argv[1])
def sub_line(p, n, old, new):
    L = open(p).read().split("\n"); assert old in L[n - 1], (p, n, L[n - 1])
    L[n - 1] = L[n - 1].replace(old, new); open(p, "w").write("\n".join(L))
# Spark 4 accepts only canonical charset names in CSVOptions ("UTF8" fails the read): "UTF-8"
for p, n in (("src/main/scala/com/github/mrpowers/spark/examples/data_files/Celebrities.scala", 15),
             ("src/test/scala/com/github/mrpowers/spark/examples/data_files/CelebritiesSpec.scala", 28),
             ("src/test/scala/com/github/mrpowers/spark/examples/data_files/CelebritiesSpec.scala", 46),
             ("src/test/scala/com/github/mrpowers/spark/examples/RlikeSpec.scala", 219)):
    sub_line(p, n, '.option("charset", "UTF8")', '.option("charset", "UTF-8")')
PY
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*" -d "$W/stubclasses" "$W/stubs/standins.scala"
  # main and test sources (SparkSummit left out: its object body runs Delta SQL on a fake bucket)
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*:$W/stubclasses" -d "$W/classes" \
    $(find "$W/patched/src" -name '*.scala' ! -name SparkSummit.scala | sort)
  javac -nowarn -cp "$JARS/*" -d "$W/toolclasses" "$W/tools/PlanDumpJvm.java"
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*:$W/toolclasses" -d "$W/toolclasses" \
    "$W/tools/CapDriver.scala" "$W/tools/SiteTagger.scala"
  opens=""; for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util \
    java.util.concurrent java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    opens="$opens --add-opens=java.base/$p=ALL-UNNAMED"; done
  E=com.github.mrpowers.spark.examples
  # cwd = the compile copy (Config's ./src/test/resources/… paths, the job's ./src/main/resources/
  # Batting.csv and ./tmp/ output are relative); PROJECT_ENV=test as build.sbt's `envVars in Test`.
  # The job first (BaseballBatting.run(); fluidRun() repeats its sort + write and would reuse the
  # object's lazy session, left from the previous entry), then every suite in file order.
  (cd "$W/patched" && PROJECT_ENV=test nice -n 10 timeout 900 java $opens -Djava.net.preferIPv6Addresses=false \
    -cp "$W/toolclasses:$W/classes:$W/stubclasses:$JARS/*" \
    org.apache.spark.sql.benchjvm.CapDriver "$W/cap/main" "$W/cap/main/_eventlog" sxt $E. \
    "$E.benchmarking.BaseballBatting#run" \
    $E.AddArrayColumn $E.BroadcastVariablesSpec $E.ColumnChainSpec $E.ColumnPredicatesSpec $E.DatesSpec \
    $E.DependencyInjectionSpec $E.DifferentTypesSpec $E.FunctionTypesSpec $E.FunctionsSpec $E.FuzzySpec \
    $E.JoinRdds $E.OrderDependentTransformsSpec $E.PeopleProcessorSpec $E.RlikeSpec \
    $E.SchemaIndependentTransformationsSpec $E.StringmetricsSpec $E.StructTypeColumns $E.UdfsSpec \
    $E.WhitespaceSpec $E.basic.ConverterSpec $E.basic.HelloWorldSpec $E.basic.NumberFunSpec \
    $E.benchmarking.BaseballBattingSpec $E.chaining.BadImplicitSpec $E.chaining.TransformArgsSpec \
    $E.chaining.TransformMethodSpec $E.common_design.PatternsSpec $E.data_files.CelebritiesSpec \
    $E.fold.CoolioSpec $E.testable.Surfing \
    ) > "$WORK/logs/scalatest.log" 2>&1 || true
  grep '\[capjvm\]\|\[scalatest-standin\] FAIL' "$WORK/logs/scalatest.log" | grep -v captured || true
  python3 - "$W" "$here/../scalatest" "$src" "$repo" "$commit" > "$W/pkg.json" <<'PY'
import json, sys
w, out, src, repo, commit = sys.argv[1:6]
print(json.dumps({"out": out, "repo_root": src, "repo": repo, "commit": commit, "language": "scala",
  "pkg": "com.github.mrpowers.spark.examples.", "captures": [w + "/cap/main"],
  "scrub": [[w + "/patched", "/work/app"], [w, "/work"]], "report": w + "/pkg_report.json"}))
PY
  python3 "$W/tools/package_jvm.py" "$W/pkg.json"
  exit 0
  ;;
scalanb)
  # MontufarEric/DatabricksRepo: Databricks notebook exports written in Scala (`// Databricks notebook
  # source`, `// COMMAND ----------` cells, `// MAGIC %md`), a learner's notes on the Rock the JVM
  # "Spark Essentials" course: DataFrame basics/aggregations/joins, column types, Spark SQL over a
  # temp view, typed Datasets of case classes, RDDs, a broadcast join. JVM capture (../scalanb/README.md):
  # each notebook is wrapped into a class without moving any line (wrap_nb.py below: line 1 carries
  # the class header, a `// COMMAND ----------` line opens a nested class where a cell defines a name
  # again, closers and a companion `main` are appended after the last line), compiled with the Scala
  # 2.13 compiler of pyspark's jars beside a Databricks stand-in (dbstub), run by scratch copies of the
  # Java-capable JVM tools (changes below), one JVM per run under nice. The notebooks read
  # s3a://filestoragedatabricks/Spark-essentials-data/<file> (the course's data): those files are taken
  # from rockthejvm/spark-essentials at the commit bench/scala uses (src/main/resources/data/) and the
  # prefix is rewritten to that relative path on the same lines (cwd = the compile copy).
  # Run 1: six notebooks (default conf); run 2: Spark_Types with spark.sql.ansi.enabled=false (its
  # to_date with a pattern the data does not match returns null on the Spark 3 runtime the notebook
  # was written on; ANSI raises and would stop the notebook at its first such cell).
  repo=MontufarEric/DatabricksRepo
  commit=929f6096bba70c7e35fd43a99e7341b98dbc3a86
  checkout "$repo" "$commit"
  checkout rockthejvm/spark-essentials cbeb2f35332a792907f900628c9735037b36c238
  W="$WORK/scalanb"; JT="$BENCH_TOOLS/jvm/java"; src="$WORK/src/${repo/\//+}"
  JARS="$(python3 -c 'import pyspark,os;print(os.path.dirname(pyspark.__file__))')/jars"
  NB=notebooks/Users/eric.montufar@gmail.com
  rm -rf "$W" && mkdir -p "$W"/{tools,toolclasses,classes,stubclasses,gen,cap,patched/src/main/resources/data} \
    && cp "$JT"/* "$W/tools/" && chmod u+w "$W"/tools/*
  for f in bands.json cars.json guitarPlayers.json guitars.json more_cars.json movies.json numbers.csv stocks.csv; do
    cp "$WORK/src/rockthejvm+spark-essentials/src/main/resources/data/$f" "$W/patched/src/main/resources/data/"; done
  cat > "$W/gen/tools_patch.py" <<'PY'
# Changes to scratch copies of ../shared/bench/tools/jvm/java (the scalaetl set's (1), (4), (8), (9), (10))
import sys, re
t = sys.argv[1]
def sub(p, old, new):
    s = open(p).read(); assert s.count(old) == 1, (p, old); open(p, "w").write(s.replace(old, new))
p = t + "/CapDriver.scala"
# (1) file writes are actions: a DataWritingCommand is captured as the query it writes
sub(p, '"take", "first")', '"take", "first", "command")')
sub(p, '    } else if (func == "tail") {',
    '    } else if (func == "command") {\n'
    '      c = c match { case w: org.apache.spark.sql.execution.command.DataWritingCommand => w.query; case o => o }\n'
    '    } else if (func == "tail") {')
p = t + "/package_jvm.py"
# (4) csv/parquet/json/save write commands are user actions (the write statement is the action site)
sub(p, '            if r["action"] not in USER_ACTIONS:',
    '            if r["action"] not in USER_ACTIONS and not (r.get("func") == "command" and r["action"] in ("csv", "parquet", "json", "save")):')
# (8) an exchange whose consumer AQE removed from the final plan takes the gold of the same exchange
#     in the initial plan
sub(p, '''    def _an_leaves(self, i):''', '''    def label(self):
        final = super().label()
        def key(i):
            return re.sub(r"\\[plan_id=\\d+\\]", "", self.P[i].get("desc", ""))
        for i, v in list(final.items()):
            if v[0] == "code" and not v[1] and v[2].endswith("UNRESOLVED") and self.P[i]["cls"].endswith("ExchangeExec"):
                for j, w in final.items():
                    if j != i and w[0] == "code" and w[1] and self.P[j]["cls"] == self.P[i]["cls"] and key(j) == key(i):
                        final[i] = ("code", w[1], v[2].replace("UNRESOLVED", "same exchange in the initial plan: ") + w[2], True)
                        break
        return final

    def _an_leaves(self, i):''')
# (9) identical plans: a lambda instance's identity hash is not part of the plan
sub(p, '    t = re.sub(r"RDD\\[\\d+\\]", "RDD[N]", t)',
    '    t = re.sub(r"RDD\\[\\d+\\]", "RDD[N]", t)\n'
    '    t = re.sub(r"\\$\\$Lambda\\$?[\\w/]*@[0-9a-f]+", "$$Lambda@N", t)')
# (10) a typed filter (TypedFilter) is its filter call's, not an inferred filter
sub(p, '''            if lid is not None and self.L[lid]["cls"] == "Filter":
                rs = self.lnode_ranges(lid)''', '''            if lid is not None and self.L[lid]["cls"] in ("Filter", "TypedFilter"):
                rs = self.lnode_ranges(lid)''')
# (7) a capture run with its own SQL conf (spark_conf: [{capture_prefix, conf}]) records it in gold.json
sub(p, '        g["spark_conf"] = {}',
    '        g["spark_conf"] = {}\n'
    '        for sc_ in cfg.get("spark_conf", []):\n'
    '            if os.path.realpath(d).startswith(os.path.realpath(sc_["capture_prefix"])):\n'
    '                g["spark_conf"] = dict(sc_["conf"])')
PY
  python3 "$W/gen/tools_patch.py" "$W/tools"
  cat > "$W/gen/wrap_nb.py" <<'PY'
"""Wrap Scala Databricks notebook exports into compilable classes without moving any line.

Line 1 (`// Databricks notebook source`) becomes `package nb; class <Name> extends dbstub.Notebook {`
plus the imports a Databricks Scala notebook has implicitly; a `// COMMAND ----------` line before a
cell that defines again a name its scope already defines becomes `class N<k> extends Serializable {`
(a nested scope: the cell's definitions shadow the earlier ones, as in the notebook REPL, and see
every earlier one); the closing braces, the `new N<k>()` that run each nested scope in order and a
companion object with `main` are appended after the last line.  Cells listed in blank_cells (by any of
their lines) are blanked (every character but newlines), as are `// MAGIC` lines (already comments).
"""
import re, sys, os

DEF = re.compile(r"^\s*(?:(?:implicit|lazy|private|final|override|case)\s+)*(val|var|def|class|object|trait|type)\s+([A-Za-z_]\w*)")

def wrap(text, name, blank_cells=(), line_subs=(), global_subs=()):
    for old, new in global_subs:
        text = text.replace(old, new)
    lines = text.split("\n")
    assert lines[0].startswith("// Databricks notebook source"), lines[0]
    for (n, old, new) in line_subs:
        assert old in lines[n - 1], (name, n, old, lines[n - 1])
        lines[n - 1] = lines[n - 1].replace(old, new)
    # cells: start line indexes (0-based) of each cell's first line after a COMMAND separator
    seps = [i for i, l in enumerate(lines) if l.strip() == "// COMMAND ----------"]
    starts = [1] + [s + 1 for s in seps]
    ends = [s for s in seps] + [len(lines)]
    for st, en in zip(starts, ends):
        if any(st + 1 <= b <= en for b in blank_cells):
            for i in range(st, en):
                lines[i] = " " * len(lines[i])
    scope = set(); depth = 0
    for k, (st, en) in enumerate(zip(starts, ends)):
        names = set()
        for i in range(st, en):
            m = DEF.match(lines[i])
            if m:
                names.add(m.group(2))
        if names & scope and k > 0:
            depth += 1
            lines[st - 1] = f"class N{depth} extends Serializable {{ org.apache.spark.sql.catalyst.encoders.OuterScopes.addOuterScope(this)"
            scope = set()
        scope |= names
    lines[0] = (f"package nb; class {name} extends dbstub.Notebook {{ import dbstub.Notebook._; import spark.implicits._; "
                f"import org.apache.spark.sql._; import org.apache.spark.sql.functions._; "
                f"org.apache.spark.sql.catalyst.encoders.OuterScopes.addOuterScope(this)")
    tail = []
    for d in range(depth, 0, -1):
        tail.append("}")
        tail.append(f"new N{d}()")
    tail.append("}")
    tail.append(f"object {name} {{ def main(args: Array[String]): Unit = {{ new {name}() }} }}")
    return "\n".join(lines) + "\n" + "\n".join(tail) + "\n", depth

if __name__ == "__main__":
    import json
    cfg = json.load(open(sys.argv[1]))
    for nbk in cfg["notebooks"]:
        src = os.path.join(cfg["src"], nbk["path"])
        out = os.path.join(cfg["out"], nbk["path"])
        os.makedirs(os.path.dirname(out), exist_ok=True)
        name = os.path.splitext(os.path.basename(src))[0]
        text, depth = wrap(open(src, encoding="utf-8").read(), name, set(nbk.get("blank_cells", [])),
                           [tuple(x) for x in nbk.get("line_subs", [])], cfg.get("global_subs", []))
        open(out, "w", encoding="utf-8").write(text)
        print(f"{nbk['path']}: {depth} nested scopes", file=sys.stderr)
PY
  cat > "$W/gen/stub.scala" <<'EOF'
// Stand-in for the Databricks Scala notebook environment (written for this capture): `spark` (the
// notebook class's member: the session the driver made active for this notebook), `sc` and
// `sqlContext` (imported into each notebook class, so a notebook's own `val sc = ...` shadows them),
// `display(df)` -> df.show() (an action at the display line), displayHTML prints.
package dbstub

import org.apache.spark.sql.{Dataset, SparkSession}

class Notebook extends Serializable {
  @transient val spark: SparkSession = SparkSession.active
}

object Notebook {
  def sc = SparkSession.active.sparkContext
  def sqlContext = SparkSession.active.sqlContext
  def display(ds: Dataset[_]): Unit = ds.show()
  def display(x: Any): Unit = println(x)
  def displayHTML(x: Any): Unit = println(x)
}
EOF
  # per notebook: cells blanked (by any of their lines) and same-line patches, all in the compile copy:
  #  Dataframes1: 223 (JDBC read of a placeholder PostgreSQL URL), 413/419/425 (broken code:
  #    `select("","")`, `moviesDF2 = ... + )`, `moviesDF3 = ... == ...`; they fail on Databricks too);
  #  Dataframe_Operations: 27 (`moviesDF.select(count("*"))show()` does not compile); 260
  #    `import spark.sqlContext.implicits._` -> `import spark.implicits._` (Spark 4's sqlContext is a def,
  #    not a stable path);
  #  Spark_SQL: 90 (transferTables over JDBC), 100 (reads the table that call would have registered);
  #  Spark_Datasets: 19 `{MutableList}` -> `{ListBuffer => MutableList}` and 29 `.toDS()` ->
  #    `.toSeq.toDS()` (Scala 2.13 has no MutableList; 2.13's Seq is immutable), 33 `DataSet` -> `Dataset`
  #    (a typo: the cell's numbersDF is used below), 53 `.as[Int]` -> `.as[Int](intEncoder)` (the cell's
  #    implicit val and spark.implicits' encoder are ambiguous);
  #  Spark_RDDs: 36 `Source.fromFile` -> `scala.io.Source.fromFile` (never imported), 25 `val sc` ->
  #    `@transient val sc` (the notebook class is serialized with closures, as Spark's class-based REPL
  #    wrappers are; a SparkContext field cannot be).
  python3 - "$W/gen/cfg.json" "$src" "$W/patched" "$NB" <<'PY'
import json, sys
cfg, src, out, nb = sys.argv[1:5]
E = nb + "/Spark_Essentials/"
json.dump({"src": src, "out": out,
  "global_subs": [["s3a://filestoragedatabricks/Spark-essentials-data/", "src/main/resources/data/"]],
  "notebooks": [
    {"path": E + "Dataframes1.scala", "blank_cells": [223, 413, 419, 425]},
    {"path": E + "Dataframe_Operations.scala", "blank_cells": [27],
     "line_subs": [[260, "import spark.sqlContext.implicits._", "import spark.implicits._"]]},
    {"path": E + "Spark_Types.scala"},
    {"path": E + "Spark_SQL.scala", "blank_cells": [90, 100]},
    {"path": E + "Spark_Datasets.scala",
     "line_subs": [[19, "{MutableList}", "{ListBuffer => MutableList}"], [29, "PersonList.toDS()", "PersonList.toSeq.toDS()"],
                   [33, "DataSet", "Dataset"], [53, "numbersDF.as[Int]", "numbersDF.as[Int](intEncoder)"]]},
    {"path": E + "Spark_RDDs.scala",
     "line_subs": [[25, "val sc = spark.sparkContext", "@transient val sc = spark.sparkContext"],
                   [36, "Source.fromFile", "scala.io.Source.fromFile"]]},
    {"path": nb + "/Spark_Tunning/spark_joins.scala"}]}, open(cfg, "w"), indent=1)
PY
  python3 "$W/gen/wrap_nb.py" "$W/gen/cfg.json"
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*" -d "$W/stubclasses" "$W/gen/stub.scala"
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*:$W/stubclasses" -d "$W/classes" \
    "$W/patched/$NB"/Spark_Essentials/*.scala "$W/patched/$NB/Spark_Tunning/spark_joins.scala"
  javac -nowarn -cp "$JARS/*" -d "$W/toolclasses" "$W/tools/PlanDumpJvm.java"
  java -cp "$JARS/*" scala.tools.nsc.Main -nowarn -classpath "$JARS/*:$W/toolclasses" -d "$W/toolclasses" \
    "$W/tools/CapDriver.scala" "$W/tools/SiteTagger.scala"
  opens=""; for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util \
    java.util.concurrent java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    opens="$opens --add-opens=java.base/$p=ALL-UNNAMED"; done
  capjvm() {  # capjvm RUN [-Dconf...] -- ENTRY...   (cwd = compile copy: src/main/resources/data/ is relative)
    local run="$1"; shift; local props=(); while [ "$1" != "--" ]; do props+=("$1"); shift; done; shift
    mkdir -p "$W/cap/$run"
    (cd "$W/patched" && rm -rf spark-warehouse metastore_db && nice -n 10 timeout 900 java $opens \
      -Djava.net.preferIPv6Addresses=false "${props[@]}" -cp "$W/toolclasses:$W/classes:$W/stubclasses:$JARS/*" \
      org.apache.spark.sql.benchjvm.CapDriver "$W/cap/$run" "$W/cap/$run/_eventlog" snb nb. "$@") \
      > "$WORK/logs/scalanb-$run.log" 2>&1 || true
    grep '\[capjvm\]' "$WORK/logs/scalanb-$run.log" | grep -v captured || true
  }
  capjvm run1 -- nb.Dataframes1 nb.Dataframe_Operations nb.Spark_SQL nb.Spark_Datasets nb.Spark_RDDs nb.spark_joins
  capjvm run2 -Dspark.sql.ansi.enabled=false -- nb.Spark_Types
  python3 - "$W" "$here/../scalanb" "$src" "$repo" "$commit" > "$W/pkg.json" <<'PY'
import json, sys
w, out, src, repo, commit = sys.argv[1:6]
print(json.dumps({"out": out, "repo_root": src, "repo": repo, "commit": commit, "language": "scala",
  "pkg": "nb.", "captures": [w + "/cap/run1", w + "/cap/run2"],
  "spark_conf": [{"capture_prefix": w + "/cap/run2", "conf": {"spark.sql.ansi.enabled": "false"}}],
  "scrub": [[w + "/patched", "/work/app"], [w, "/work"]], "report": w + "/pkg_report.json"}))
PY
  python3 "$W/tools/package_jvm.py" "$W/pkg.json"
  exit 0
  ;;
dynamic)
  # anovos/anovos: a production PySpark library (Apache-2.0) whose transformations are generated from
  # lists of columns and config: a YAML-driven workflow (src/main/anovos/workflow.py) calls module
  # functions — data_analyzer (stats_generator: `agg(*(F.countDistinct(F.col(i)) for i in cols))`, loops of
  # `withColumn` per attribute, `functools.reduce` joins/unions; quality_checker; association_evaluator),
  # data_transformer/transformers (binning, imputation, encoding, scaling built per column),
  # data_ingest (read/write/rename/recast/join/concatenate from arguments), drift_stability — each a
  # function taking a SparkSession + DataFrame + column lists and returning a DataFrame. Captured through
  # the repository's own pytest suite (src/test/, run_capture.py --pytest): src/test/conftest.py's
  # `spark_session` fixture calls anovos.shared.spark.init_spark(...).getOrCreate(), which returns the
  # capture session (its spark.jars.packages — histogrammar/avro from Maven — are not fetched: static
  # settings of an existing session; avro reads fail). The tests read the committed
  # data/test_dataset/ files (income data, 32k rows) by paths relative to the repository root (cwd =
  # the scratch copy) and write to data/tmp/ there. Not run: the workflow entry (imports report
  # generation, datapane, sentence_transformers/torch, mlflow), the time-series, geospatial and
  # feature-recommender/feature-store tests (statsmodels/mlflow/geojson/sentence_transformers/feast).
  # Needs beside pyspark: loguru findspark scipy scikit-learn factor_analyzer (pip).
  repo=anovos/anovos
  commit=138d8010d6b9154e8a45a45150b2fc994408d7e4
  checkout "$repo" "$commit"
  unset PATH_MAP
  # PYTHONPATH: the package as `pip install .` makes it importable (src/main/anovos), also in the
  # Python workers (UDFs defined in the modules)
  # ../dynamic/tools/stubs: a stand-in `tensorflow` (transformers.py imports it at module level for its
  # autoencoder functions only; TensorFlow is not installed — those functions would raise)
  export PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$WORK/run/${repo/\//+}/src/main:$here/../dynamic/tools/stubs"
  export SCRIPT_TIMEOUT="${SCRIPT_TIMEOUT:-1200}"
  # -Xss64m: imputation_matrixFactorization's ALS (test_transformers.py) overflows the default thread
  # stack while deserialising its long lineage (StackOverflowError in a local executor thread, which
  # ends the JVM); a larger default stack lets it finish. Two JVMs, one after the other: the
  # ingest/analyzer tests, then the transformer/drift tests.
  export PYSPARK_SUBMIT_ARGS="--driver-java-options -Xss64m pyspark-shell"
  t=src/test/anovos
  capture "$repo" "$commit" ano ano --pytest \
    $t/data_ingest/test_data_ingest_unit.py $t/data_ingest/test_data_ingest_integration.py \
    $t/data_ingest/test_data_sampling.py $t/data_analyzer/test_stats_generator.py \
    $t/data_analyzer/test_quality_checker.py $t/data_analyzer/test_association_evaluator.py
  capture "$repo" "$commit" ano ano2 --pytest \
    $t/data_transformer/test_transformers.py $t/drift_stability/test_drift_detector.py \
    $t/drift_stability/test_stability.py $t/drift_stability/test_validations.py
  unset PYTHONPATH PYSPARK_SUBMIT_ARGS
  ;;
*) echo "unknown set $set_name" >&2; exit 2 ;;
esac
python3 "$here/package_sets.py" "$here/../$set_name/package.json"
if [ "$set_name" = dynamic ]; then
  # the event logs over 1 MB (the ALS imputation's, 12 MB each) are left out (bench/dynamic/README.md)
  python3 - "$here/../dynamic" <<'PY'
import json, os, sys
os.chdir(sys.argv[1])
manifest = json.load(open("manifest.json"))
for case in manifest["cases"]:
    log = case["plan_files"].get("eventlog")
    if log and os.path.getsize(log) > 1_000_000:
        os.remove(log)
        del case["plan_files"]["eventlog"]
json.dump(manifest, open("manifest.json", "w"), indent=1)
PY
fi
