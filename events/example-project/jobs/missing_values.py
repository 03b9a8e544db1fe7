"""Data-quality views of the customers: look-alike statements that only their predicates tell apart.

Each function differs from its neighbour by one call (`isNull` / `isNotNull` / `na.drop`,
`explode` / `explode_outer`), so a mapping has to read the plan's predicate, not just its columns.
"""
from pyspark.sql.functions import col, explode, explode_outer, split

from jobs.common import get_spark


def customers_without_region(customers):
    return customers.filter(col("region").isNull())


def customers_with_region(customers):
    return customers.filter(col("region").isNotNull())


def customers_with_complete_rows(customers):
    return customers.na.drop(subset=["region"])


def region_parts(customers):
    return customers.select("customer_id", explode(split("region", "t")).alias("part"))


def region_parts_keeping_empty(customers):
    return customers.select("customer_id", explode_outer(split("region", "t")).alias("part"))


if __name__ == "__main__":
    spark = get_spark("missing-values")
    customers = spark.read.parquet("data/customers.parquet")
    for view in (customers_without_region, customers_with_region, customers_with_complete_rows,
                 region_parts, region_parts_keeping_empty):
        view(customers).show()
