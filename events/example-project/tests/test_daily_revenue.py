"""Unit test with code that looks like the job's: a mapper must not pick it."""
from pyspark.sql import functions as F


def test_filter_keeps_shipped(spark):
    df = spark.createDataFrame([("SHIPPED", 1), ("OPEN", 2)], ["status", "amount"])
    shipped = df.where(F.col("status") == "SHIPPED")
    assert shipped.groupBy("status").agg(F.sum("amount").alias("revenue")).count() == 1
