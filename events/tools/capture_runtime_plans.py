"""Run the example project's daily revenue job and save the two plan forms that carry metrics.

* events/plans/daily-revenue.ui.json — the Spark UI's SQL JSON
  (`/api/v1/applications/{app}/sql/{id}?details=true&planDescription=true`);
* events/plans/daily-revenue.eventlog — the run's event log (plans with `sparkPlanInfo`, stage
  completions with the metrics' accumulators).

The viewer's heat overlay and hot lines, the table's cost column and their tests read them. The
script lives outside events/example-project so that the example repository's index does not
change.

usage: python events/tools/capture_runtime_plans.py   (needs pyspark==4.3.0 and Java 17)
"""
import json
import os
import pathlib
import sys
import tempfile
import time
import urllib.request

EVENTS = pathlib.Path(__file__).resolve().parent.parent
PROJECT = EVENTS / "example-project"
OUT = EVENTS / "plans" / "daily-revenue.ui.json"
EVENT_LOG = EVENTS / "plans" / "daily-revenue.eventlog"
sys.path.insert(0, str(PROJECT))

from pyspark.sql import SparkSession  # noqa: E402

from generate_plans import write_data  # noqa: E402
from jobs.daily_revenue import build_report  # noqa: E402

DESCRIPTION = "daily-revenue"


def rest(spark, path):
    url = f"{spark.sparkContext.uiWebUrl}/api/v1/applications/{spark.sparkContext.applicationId}/{path}"
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def final_execution(spark, timeout=60.0):
    """The completed execution tagged DESCRIPTION, once the UI shows its final AQE plan."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        ids = [e["id"] for e in rest(spark, "sql?details=false&offset=0&length=1000")
               if e.get("description") == DESCRIPTION]
        if ids:
            execution = rest(spark, f"sql/{max(ids)}?details=true&planDescription=true")
            if execution.get("status") == "COMPLETED" and "isFinalPlan=false" not in execution.get("planDescription", ""):
                return execution
        time.sleep(0.3)
    raise SystemExit(f"no completed execution named {DESCRIPTION!r} within {timeout} s")


def main():
    with tempfile.TemporaryDirectory() as root:
        os.chdir(root)  # the job reads relative data/ paths, as in generate_plans.py
        logs = pathlib.Path(root) / "event-logs"
        logs.mkdir()
        spark = (SparkSession.builder.master("local[2]").appName("plan2code-example")
                 .config("spark.ui.enabled", "true").config("spark.ui.port", "0")
                 .config("spark.eventLog.enabled", "true").config("spark.eventLog.dir", logs.as_uri())
                 .config("spark.eventLog.rolling.enabled", "false").config("spark.eventLog.compress", "false")
                 .getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        write_data(spark, root)
        spark.sparkContext.setJobDescription(DESCRIPTION)
        build_report(spark, "data/orders.parquet", "data/customers.parquet").collect()
        spark.sparkContext.setJobDescription(None)
        execution = final_execution(spark)
        OUT.write_text(json.dumps({"appId": spark.sparkContext.applicationId,
                                   "sparkVersion": spark.version, "execution": execution}, indent=1) + "\n")
        print("wrote", OUT)
        spark.stop()
        # the log of the whole run: writing the data, then the job
        (written,) = [p for p in logs.iterdir() if p.is_file()]
        EVENT_LOG.write_bytes(written.read_bytes())
        print("wrote", EVENT_LOG)


if __name__ == "__main__":
    main()
