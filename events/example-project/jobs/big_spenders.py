"""Shipped orders larger than the average shipped order of the customer's region (correlated SQL).

The subquery repeats the outer query's join and status filter: only its nesting tells which
predicate feeds which part of the plan.
"""
from jobs.common import get_spark

BIG_SPENDERS_SQL = """
    SELECT c.customer_id,
           c.region,
           o.amount
    FROM orders o,
         customers c
    WHERE o.customer_id = c.customer_id
      AND o.status = 'SHIPPED'
      AND o.amount > (
          SELECT AVG(o2.amount)
          FROM orders o2,
               customers c2
          WHERE o2.customer_id = c2.customer_id
            AND o2.status = 'SHIPPED'
            AND c2.region = c.region
      )
    ORDER BY o.amount DESC
"""


def big_spenders(spark, orders_path, customers_path):
    spark.read.parquet(orders_path).createOrReplaceTempView("orders")
    spark.read.parquet(customers_path).createOrReplaceTempView("customers")
    return spark.sql(BIG_SPENDERS_SQL)


if __name__ == "__main__":
    spark = get_spark("big-spenders")
    big_spenders(spark, "data/orders.parquet", "data/customers.parquet").show()
