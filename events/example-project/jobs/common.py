"""Small helpers shared by the jobs."""
from pyspark.sql import SparkSession


def get_spark(app_name: str) -> SparkSession:
    return SparkSession.builder.appName(app_name).getOrCreate()


def log_count(df, label: str) -> None:
    print(f"{label}: {df.count()} rows")
