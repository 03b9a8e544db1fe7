"""Daily revenue per region for shipped orders of known customers."""
from pyspark.sql import functions as F

from jobs.common import get_spark


def load_orders(spark, path):
    return spark.read.parquet(path)


def build_report(spark, orders_path, customers_path):
    orders = load_orders(spark, orders_path)
    customers = spark.read.parquet(customers_path)

    recent = orders.filter(F.col("order_date") >= "2024-01-01") \
        .where(F.col("status") == "SHIPPED")

    enriched = recent.join(customers, on="customer_id", how="inner")

    report = (
        enriched.groupBy("region", "order_date")
        .agg(
            F.sum("amount").alias("revenue"),
            F.countDistinct("customer_id").alias("buyers"),
        )
        .orderBy(F.desc("revenue"))
    )
    return report


if __name__ == "__main__":
    spark = get_spark("daily-revenue")
    build_report(spark, "data/orders.parquet", "data/customers.parquet").show()
