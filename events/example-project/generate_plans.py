"""Run the example jobs on tiny generated data and write their real plans to ../plans/.

usage: python generate_plans.py   (needs pyspark==4.3.0 and Java 17)
"""
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
PLANS = HERE.parent / "plans"
sys.path.insert(0, str(HERE))

from pyspark.sql import SparkSession  # noqa: E402

from jobs.big_spenders import big_spenders  # noqa: E402
from jobs.daily_revenue import build_report  # noqa: E402
from jobs import missing_values  # noqa: E402
from jobs.order_details import details_by_product  # noqa: E402
from jobs.regional_summary import build_summary  # noqa: E402
from jobs.top_products import top_products  # noqa: E402


def write_data(spark, root):
    orders = [(i, i % 7, f"2024-01-{1 + i % 28:02d}", "SHIPPED" if i % 3 else "OPEN", float(i * 3 % 50), i % 11, i % 9)
              for i in range(200)]
    spark.createDataFrame(orders, ["order_id", "customer_id", "order_date", "status", "amount", "product_id", "quantity"]) \
        .write.mode("overwrite").parquet(f"{root}/data/orders.parquet")
    spark.createDataFrame([(i, ["north", "south", "east"][i % 3]) for i in range(7)], ["customer_id", "region"]) \
        .write.mode("overwrite").parquet(f"{root}/data/customers.parquet")
    spark.createDataFrame([(i, f"product-{i}", ["tools", "toys", "samples"][i % 3]) for i in range(11)],
                          ["product_id", "product_name", "category"]) \
        .write.mode("overwrite").parquet(f"{root}/data/products.parquet")


def capture(df, name):
    df.collect()  # execute first, so the formatted plan is AQE's final plan
    text = df._jdf.queryExecution().explainString(
        df.sparkSession._jvm.org.apache.spark.sql.execution.ExplainMode.fromString("formatted"))
    (PLANS / f"{name}.formatted.txt").write_text(text)
    print("wrote", PLANS / f"{name}.formatted.txt")


def main():
    with tempfile.TemporaryDirectory() as root:
        # The jobs use relative data/ paths, as in production; the JVM resolves them against the
        # directory it starts in, so move there first.
        os.chdir(root)
        spark = SparkSession.builder.master("local[2]").appName("plan2code-example").getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
        write_data(spark, root)
        capture(build_report(spark, "data/orders.parquet", "data/customers.parquet"), "daily-revenue")
        capture(top_products(spark, "data/orders.parquet", "data/products.parquet"), "top-products")
        capture(build_summary(spark, "data/orders.parquet", "data/customers.parquet"), "regional-summary")
        capture(big_spenders(spark, "data/orders.parquet", "data/customers.parquet"), "big-spenders")
        capture(details_by_product(spark, "data/orders.parquet", "data/customers.parquet",
                                   "data/products.parquet"), "order-details")
        customers = spark.read.parquet("data/customers.parquet")
        for view in ("customers_without_region", "customers_with_region",
                     "customers_with_complete_rows", "region_parts", "region_parts_keeping_empty"):
            capture(getattr(missing_values, view)(customers), view.replace("_", "-"))
        spark.stop()


if __name__ == "__main__":
    main()
