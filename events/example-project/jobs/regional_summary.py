"""Revenue summary for every region, stacked into one report (a wide plan: one branch per region)."""
from functools import reduce

from pyspark.sql import functions as F

from jobs.daily_revenue import build_report

REGIONS = ["north", "south", "east", "west", "central", "islands", "coast", "mountains"]


def region_summary(report, region):
    return (
        report.where(F.col("region") == region)
        .groupBy("region")
        .agg(F.sum("revenue").alias("total_revenue"), F.max("buyers").alias("peak_buyers"))
    )


def build_summary(spark, orders_path, customers_path):
    report = build_report(spark, orders_path, customers_path)
    parts = [region_summary(report, region) for region in REGIONS]
    return reduce(lambda a, b: a.unionByName(b), parts)
