"""Capture driver for the project's own benchmark sets (bench/<set>/).

The method is the DEV benchmark's (../shared/bench/tools/run_scripts.py with sparkcap.py, which
this imports unchanged from $BENCH_TOOLS): every entry file runs in-process with cwd = the
checkout, one fresh SparkSession per entry file, and every DataFrame action call site inside the
checkout becomes one case (plans, UI JSON, event log, structural dump for the labeler).
This driver adds what the DEV capture lacks for the styles these sets cover:

* **Writes are actions.** `df.write....save/parquet/csv/json/orc/text/saveAsTable/insertInto` is
  captured like `show()`: the plan is the written DataFrame's own plan (collected once under the
  case id), the action site is the write statement. Production jobs end in writes, not shows.
* **Notebook exports** (`--notebooks`): the file runs cell by cell (`# COMMAND ----------`),
  each cell compiled against the real file name with its real line numbers; a failing cell does
  not stop the others. Databricks' notebook globals are stubbed minimally: `display(df)` shows
  the DataFrame (an action at the `display` line), `displayHTML` prints, `dbutils.widgets` returns
  the widget's default, every other `dbutils` call raises (its cell fails). Nothing in the
  notebook's own text is changed.
* **Jupyter notebooks** (`--notebooks`, entries ending `.ipynb`): code cells run in order, cwd =
  the notebook's folder (as Jupyter starts its kernel), each cell compiled against the .ipynb's
  name with the lines of the JSON file that hold its source (run_capture_text.ipynb_code_cells,
  the numbering the project reports); line magics and shell lines are blanked, cell magics skipped.
* **`# MAGIC %sql` cells** run through `spark.sql`, one statement at a time, as Databricks does:
  the SQL text handed over is the cell's text with the `# MAGIC ` prefixes (and `%sql`) replaced
  by spaces, so every offset maps to the same line and column of the file (`package_sets.py`
  labels against the file with the same prefixes blanked). A query's result is displayed, i.e.
  it is an action whose site is the statement's first line.
* **SQL notebook exports** (`--notebooks`, entries ending `.sql`): cells separated by
  `-- COMMAND ----------`, every cell SQL, run statement by statement through `spark.sql` exactly
  as `# MAGIC %sql` cells are (the text handed over is the file's own, so positions are the file's
  lines and columns; a query is displayed). Case ids get `-sql` after the stem, so a chapter's
  `.py` and `.sql` twins do not collide. With SQL_WITH_PY=1 a `.sql` entry listed right after the
  `.py` entry of the same name continues that notebook's session (the temp views its cells
  registered stay visible, as when both run in one Databricks session) instead of a fresh one;
  SQL_VIEWS=<file.json> {"x.sql": {"view": "python_variable"}} then registers further views from
  the `.py` notebook's variables before the `.sql` runs (views the chapter's other-language twin
  registers but the Python one only builds as DataFrames).

* **pytest test files** (`--pytest`, entries named `test_*.py` / `*_test.py`): each such entry is
  run by pytest itself, in-process (`pytest.main([file, -s, -p no:cacheprovider])`, cwd = the
  checkout), so its fixtures (the repository's `conftest.py`, `tmp_path`, …) are resolved exactly
  as the repository's own test run resolves them. A `spark` fixture that builds a session with
  `SparkSession.builder…getOrCreate()` receives the capture session (the entry's fresh one; its
  modifiable settings apply, `stop()` is a no-op as for scripts). Every DataFrame action inside
  the checkout — in a test, a fixture, or a function under test — becomes a case whose entry file
  is the test file. A failing test does not stop the others. Other entries of the same run are
  scripts as before.
* **Delta Lake stand-in** (DELTA_AS_PARQUET=1; only when the Delta JVM jars are not available):
  `format("delta")` on a reader or writer means `parquet`, `DeltaTable.isDeltaTable` answers
  False (so an "upsert if the table exists" takes its first-load branch: a plain overwrite), and a
  session builder's Delta-only settings (`spark.sql.extensions` / `spark.sql.catalog.spark_catalog`
  / `spark.jars.packages` naming Delta) are not applied (without the jars the catalog cannot load). The
  repository's code is unchanged; its plans then show parquet scans where Delta would show its own
  parquet file scans, at the same statements.
* **Jupyter notebooks run as on Databricks** (NOTEBOOK_SPARK=1, `.ipynb` entries): the notebook's
  globals get `spark` (the entry's capture session), `sc` and `displayHTML` (prints), as a
  Databricks notebook (or a PySpark kernel) predefines them, for notebooks that use `spark`
  without building it. A notebook at the checkout's root then has no relative path rewritten: the
  JVM's working directory is already its folder, and a name handed to `spark.read.table` stays a
  table name (without the option such a name is joined to the folder like a file path).

usage: BENCH_TOOLS=../shared/bench/tools python run_capture.py [--notebooks] [--pytest]
           REPO_ROOT OUT_DIR REPO_NAME COMMIT PREFIX entry1 [entry2 ...]
Environment as run_scripts.py: PATH_MAP="/src/=<dir>/,..." (first matching prefix wins; `{entry_dir}`
in a target is the running entry file's folder, `{repo_root}` the checkout's root), NO_STREAMING=1, SCRIPT_TIMEOUT=s.
ENTRY_ARGV=<file.json> (optional): {"entry": ["arg", ...]} — command-line arguments of script
entries (what `spark-submit entry.py ARGS` would pass): while an entry listed there runs,
sys.argv = [<its absolute path>, *ARGS], `{repo_root}` in an argument being the checkout's root.
Entries not listed (and every entry when the variable is unset) run with sys.argv unchanged.
A script entry's value may instead be a list of argument lists ({"entry": [["a1"], ["a2", "x"]]}):
the script then runs once per list, in order, all in the entry's one session (as a shell loop of
`spark-submit entry.py ARGS` would run it, the session's stop() being a no-op); case numbering and
the once-per-action-site rule continue across the runs, and a failing run does not stop the next.
With ARGV_RUNS_FRESH=1 each of those runs is instead its own application, as separate
`spark-submit` calls are (a job runner invoked once per task): every run after the first gets a
fresh session and its own once-per-action-site rule, so one action site reached by several runs
(e.g. a runner's `spark.sql(<task's .sql file>).show()`) yields one case per run; case numbering
still continues across the runs.
"""
import json
import os
import re
import runpy
import signal
import sys
import traceback

args = sys.argv[1:]
notebooks = "--notebooks" in args
pytest_entries = "--pytest" in args
args = [a for a in args if a and a not in ("--notebooks", "--pytest")]
repo_root, out_dir, repo_name, commit, prefix = args[:5]
repo_root, out_dir = os.path.abspath(repo_root), os.path.abspath(out_dir)
entries = args[5:]
sys.path.insert(0, os.environ.get("BENCH_TOOLS", os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                                               "shared", "bench", "tools")))
import sparkcap  # noqa: E402
from run_capture_text import MAGIC, blank_magic, ipynb_code_cells  # noqa: E402

CELL_SEP = "# COMMAND ----------"
SQL_CELL_SEP = "-- COMMAND ----------"
QUERY_START = re.compile(r"^\s*(select|with|from|values|table|show|describe|explain)\b", re.I)

cap = sparkcap.Capturer(repo_root, out_dir, repo_name, commit, {},
                        event_log_dir=os.path.join(out_dir, "_eventlog"))
# PATH_MAP="/mnt/data/={entry_dir}/,..." maps absolute data paths; {entry_dir} is the folder of the
# entry file being run (notebook collections that keep each notebook's data beside it)
path_map = [item.split("=", 1) for item in filter(None, os.environ.get("PATH_MAP", "").split(","))]
if os.environ.get("NO_STREAMING"):
    from pyspark.sql.streaming.readwriter import DataStreamWriter

    def _no_stream(*a, **k):
        raise RuntimeError("streaming queries are disabled by the capture driver")
    DataStreamWriter.start = _no_stream
    DataStreamWriter.toTable = _no_stream


# ---------------------------------------------------------------------------- writes as actions
def install_writer_actions():
    from pyspark.sql.readwriter import DataFrameWriter
    for name in ("save", "parquet", "csv", "json", "orc", "text", "saveAsTable", "insertInto"):
        orig = getattr(DataFrameWriter, name)

        def make(orig, name):
            def w(self_, *a, **k):
                if not sparkcap._suspended() and not getattr(sparkcap._state, "in_tag", False):
                    site = cap._repo_frame()
                    if site is not None:
                        try:
                            cap.capture(self_._df, f"write.{name}", site)
                        except Exception:
                            traceback.print_exc()
                with sparkcap._Suspend():
                    return orig(self_, *a, **k)
            w._benchcap = True
            return w
        setattr(DataFrameWriter, name, make(orig, name))


install_writer_actions()


# ---------------------------------------------------------------------------- Delta stand-in
def install_delta_as_parquet():
    from pyspark.sql import SparkSession
    from pyspark.sql.readwriter import DataFrameReader, DataFrameWriter
    for cls in (DataFrameReader, DataFrameWriter):
        orig = cls.format

        def make(orig):
            def fmt(self_, source, *a, **k):
                if isinstance(source, str) and source.lower() == "delta":
                    source = "parquet"
                return orig(self_, source, *a, **k)
            return fmt
        cls.format = make(orig)
    # the session settings that only make sense with the Delta jars (the Delta SQL extension, the
    # Delta catalog as spark_catalog, the Maven coordinate) are not applied: without the jars the
    # catalog plugin cannot load and every query of the session fails
    orig_config = SparkSession.Builder.config

    def config(self_, key=None, value=None, *a, **k):
        if isinstance(key, str) and key in ("spark.sql.extensions", "spark.sql.catalog.spark_catalog",
                                            "spark.jars.packages") and "delta" in str(value).lower():
            return self_
        return orig_config(self_, key, value, *a, **k)
    SparkSession.Builder.config = config
    try:
        from delta.tables import DeltaTable
        DeltaTable.isDeltaTable = classmethod(lambda cls, *a, **k: False)
    except ImportError:
        pass


if os.environ.get("DELTA_AS_PARQUET"):
    install_delta_as_parquet()


def is_pytest_file(rel):
    b = os.path.basename(rel)
    return pytest_entries and b.endswith(".py") and (b.startswith("test_") or b.endswith("_test.py"))


def run_pytest_file(path):
    """Run one test file with pytest in this process; returns pytest's exit code."""
    import pytest
    return int(pytest.main([path, "-s", "-q", "-p", "no:cacheprovider", "--rootdir", repo_root]))


# ---------------------------------------------------------------------------- notebook globals
class _Widgets:
    def __init__(self):
        self.values = {}

    def _define(self, name, default=None, *a, **k):
        self.values[name] = default

    text = dropdown = combobox = multiselect = _define

    def get(self, name):
        return self.values.get(name, "")

    getArgument = get

    def remove(self, *a, **k):
        pass

    removeAll = remove


class _DbUtils:
    """Only widgets work; anything else fails its cell (logged), as it would need Databricks."""

    def __init__(self):
        self.widgets = _Widgets()

    def __getattr__(self, name):
        raise RuntimeError(f"dbutils.{name} is not available outside Databricks")


def _display(obj=None, *a, **k):
    from pyspark.sql import DataFrame
    if isinstance(obj, DataFrame):
        obj.show()
    else:
        print(obj)


def _run_sql(text):
    df = cap.spark.sql(text)
    if QUERY_START.match(_strip_sql_comments(text)):
        df.show()
    return df


def _strip_sql_comments(s):
    return re.sub(r"--[^\n]*", "", re.sub(r"/\*.*?\*/", "", s, flags=re.S))


def split_sql(text):
    """Statement spans (start, end) of `text`, split at `;` outside quotes and comments."""
    spans, start, i, n = [], 0, 0, len(text)
    quote = None
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"`":
            quote = ch
        elif text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif ch == ";":
            spans.append((start, i))
            start = i + 1
        i += 1
    spans.append((start, n))
    out = []
    for a, b in spans:
        seg = text[a:b]
        if not _strip_sql_comments(seg).strip():
            continue
        lead = len(seg) - len(seg.lstrip())
        trail = len(seg.rstrip())
        out.append((a + lead, a + trail))
    return out


def run_notebook(path, rel):
    with open(path) as f:
        lines = f.read().split("\n")
    cells, start = [], 0
    for i, ln in enumerate(lines + [CELL_SEP]):
        if ln.strip() == CELL_SEP:
            cells.append((start, lines[start:i]))
            start = i + 1
    g = {"__name__": "__main__", "__file__": path, "spark": cap.spark, "sc": cap.spark.sparkContext,
         "display": _display, "displayHTML": print, "dbutils": _DbUtils(), "__run_sql": _run_sql}
    global _last_globals
    _last_globals = g
    nerr = 0
    for st, body in cells:
        magic = [blank_magic(ln) for ln in body]
        try:
            if all(m is not None or not ln.strip() or ln.startswith("# DBTITLE") for ln, m in zip(body, magic)) \
                    and any(m is not None for m in magic):
                if not any(ln.startswith(MAGIC) and ln[len(MAGIC):].strip().startswith("%sql") for ln in body):
                    continue  # %md, %run, %sh, %fs ... cells: not Spark
                text = "\n".join(m if m is not None else " " * len(ln) for ln, m in zip(body, magic))
                nerr += run_sql_cell(path, g, st, text)
                continue
            code = "\n" * st + "\n".join(body)
            exec(compile(code, path, "exec"), g)
        except Timeout:
            raise
        except BaseException as e:  # noqa: BLE001
            nerr += 1
            print(f"[cell@{st + 1}] {type(e).__name__}: {str(e)[:200]}", file=sys.stderr)
    return nerr


_last_globals = None


def run_sql_notebook(path, g=None):
    """A `.sql` notebook export: `-- COMMAND ----------` cells, each run statement by statement
    through spark.sql with the file's own text (positions = the file's lines and columns)."""
    with open(path) as f:
        lines = f.read().split("\n")
    if g is None:
        g = {"__name__": "__main__", "__file__": path, "spark": cap.spark, "sc": cap.spark.sparkContext,
             "display": _display, "displayHTML": print, "dbutils": _DbUtils()}
    g["__run_sql"] = _run_sql
    cells, start = [], 0
    for i, ln in enumerate(lines + [SQL_CELL_SEP]):
        if ln.strip() == SQL_CELL_SEP:
            cells.append((start, lines[start:i]))
            start = i + 1
    return sum(run_sql_cell(path, g, st, "\n".join(body)) for st, body in cells)


def run_sql_cell(path, g, st, text):
    """Run a SQL cell starting after line `st` of `path`, statement by statement through
    `__run_sql` compiled at each statement's own line; the number of statements that failed."""
    offs = [0]
    for ln in text.split("\n"):
        offs.append(offs[-1] + len(ln) + 1)
    nerr = 0
    for a, b in split_sql(text):
        line = st + sum(1 for o in offs[1:] if o <= a) + 1
        g["__sql_text"] = text[a:b]
        code = "\n" * (line - 1) + "__run_sql(__sql_text)"
        try:
            exec(compile(code, path, "exec"), g)
        except Timeout:
            raise
        except BaseException as e:  # noqa: BLE001
            nerr += 1
            print(f"[sql@{line}] {type(e).__name__}: {str(e)[:200]}", file=sys.stderr)
    return nerr


def run_ipynb(path):
    with open(path) as f:
        cells = ipynb_code_cells(f.read())
    g = {"__name__": "__main__", "__file__": path, "display": _display}
    nb_spark = bool(os.environ.get("NOTEBOOK_SPARK"))
    if nb_spark:  # as a Databricks notebook predefines them
        g.update({"spark": cap.spark, "sc": cap.spark.sparkContext, "displayHTML": print})
    nerr = 0
    entry_dir = os.path.dirname(path)
    # the JVM's working directory is the checkout's: a relative data path is made the notebook
    # folder's here, as a kernel started in that folder would read it
    orig_rw, orig_map = cap._rw, cap.path_map

    def rw(v):
        v = orig_rw(v)
        if isinstance(v, str) and v and not os.path.isabs(v) and ":" not in v:
            return os.path.join(entry_dir, v)
        return v
    if nb_spark and os.path.realpath(entry_dir) == os.path.realpath(repo_root):
        pass  # relative paths already resolve in the notebook's folder; table names stay names
    else:
        cap._rw, cap.path_map = rw, dict(orig_map) or {"\0": "\0"}
    os.chdir(entry_dir)
    try:
        for first, lines in cells:
            try:
                exec(compile("\n" * (first - 1) + "\n".join(lines), path, "exec"), g)
            except Timeout:
                raise
            except BaseException as e:  # noqa: BLE001
                nerr += 1
                print(f"[cell@{first}] {type(e).__name__}: {str(e)[:200]}", file=sys.stderr)
    finally:
        os.chdir(repo_root)
        cap._rw, cap.path_map = orig_rw, orig_map
    return nerr


class Timeout(Exception):
    pass


def _alarm(*a):
    raise Timeout()


os.chdir(repo_root)
sys.path.insert(0, repo_root)
signal.signal(signal.SIGALRM, _alarm)
status = {}
entry_argv = {}
if os.environ.get("ENTRY_ARGV"):
    with open(os.environ["ENTRY_ARGV"]) as f:
        entry_argv = json.load(f)
sql_views = {}
if os.environ.get("SQL_VIEWS"):
    with open(os.environ["SQL_VIEWS"]) as f:
        sql_views = json.load(f)
prev_rel = None
for s in entries:
    rel = os.path.relpath(os.path.realpath(os.path.join(repo_root, s)), os.path.realpath(repo_root))
    stem = re.sub(r"[^A-Za-z0-9]+", "-", os.path.splitext(os.path.basename(rel))[0]).strip("-").lower()
    is_sql = notebooks and rel.endswith(".sql")
    sql_g = None
    if is_sql:
        stem += "-sql"
        if os.environ.get("SQL_WITH_PY") and prev_rel == os.path.splitext(rel)[0] + ".py" \
                and _last_globals is not None:
            sql_g = _last_globals
    prev_rel = rel
    if sql_g is None:
        cap.fresh_session()
    cap.entry_file = rel
    entry_dir = os.path.dirname(os.path.join(repo_root, rel))
    cap.path_map = {src_p: dst_p.replace("{entry_dir}", entry_dir).replace("{repo_root}", repo_root)
                    for src_p, dst_p in path_map}
    cap.case_prefix = f"{prefix}-{stem}"
    cap.case_counter = 0
    cap.seen_sites = set()
    n0 = len(cap.cases)
    saved_argv = sys.argv
    argv_runs = None
    if s in entry_argv or rel in entry_argv:
        argv_val = entry_argv.get(s, entry_argv.get(rel))
        several = bool(argv_val) and all(isinstance(a, list) for a in argv_val)
        argvs = [[os.path.join(repo_root, rel)] + [str(x).replace("{repo_root}", repo_root) for x in a]
                 for a in (argv_val if several else [argv_val])]
        if several:
            argv_runs = argvs  # several runs of the script, one session
        else:
            sys.argv = argvs[0]
    signal.alarm(int(os.environ.get("SCRIPT_TIMEOUT", "300")))
    try:
        if is_sql:
            for view, var in sql_views.get(rel, {}).items():
                if sql_g is not None and var in sql_g:
                    sql_g[var].createOrReplaceTempView(view)
            st = f"ok ({run_sql_notebook(os.path.join(repo_root, rel), sql_g)} failing cells)"
        elif is_pytest_file(rel):
            st = f"ok (pytest exit {run_pytest_file(os.path.join(repo_root, rel))})"
        elif notebooks and rel.endswith(".ipynb"):
            st = f"ok ({run_ipynb(os.path.join(repo_root, rel))} failing cells)"
        elif notebooks:
            st = f"ok ({run_notebook(os.path.join(repo_root, rel), rel)} failing cells)"
        elif argv_runs is not None:
            nfail = 0
            for run_i, argv in enumerate(argv_runs):
                if run_i and os.environ.get("ARGV_RUNS_FRESH"):
                    cap.fresh_session()
                    cap.seen_sites = set()
                sys.argv = argv
                try:
                    runpy.run_path(os.path.join(repo_root, rel), run_name="__main__")
                except SystemExit:
                    pass
                except Timeout:
                    raise
                except BaseException as e:  # noqa: BLE001
                    nfail += 1
                    print(f"[run {argv[1:]}] {type(e).__name__}: {str(e)[:200]}", file=sys.stderr)
            st = f"ok ({len(argv_runs)} runs, {nfail} failed)"
        else:
            runpy.run_path(os.path.join(repo_root, rel), run_name="__main__")
            st = "ok"
    except SystemExit:
        st = "ok(exit)"
    except Timeout:
        st = "timeout"
    except BaseException as e:  # noqa: BLE001
        st = "error: " + repr(e)[:300]
        traceback.print_exc()
    finally:
        signal.alarm(0)
        sys.argv = saved_argv
    status[rel] = {"status": st, "cases": len(cap.cases) - n0}
    print(f"[run_capture] {rel}: {st}, {len(cap.cases) - n0} cases", file=sys.stderr, flush=True)
cap.save_index()
with open(os.path.join(out_dir, "scripts_status.json"), "w") as f:
    json.dump(status, f, indent=1)
cap.spark.sparkContext._jsc.sc().listenerBus().waitUntilEmpty(10000)
cap.sc._jsc.stop()
sparkcap.split_event_log(os.path.join(out_dir, "_eventlog"), out_dir, cap.cases)
