"""Top products by quantity in large orders, written in SQL."""
from jobs.common import get_spark

TOP_PRODUCTS_SQL = """
    SELECT p.category,
           p.product_name,
           SUM(o.quantity) AS units
    FROM orders o
    JOIN products p
      ON o.product_id = p.product_id
    WHERE o.quantity > 5
      AND p.category <> 'samples'
    GROUP BY p.category, p.product_name
    ORDER BY units DESC
    LIMIT 10
"""


def top_products(spark, orders_path, products_path):
    spark.read.parquet(orders_path).createOrReplaceTempView("orders")
    spark.read.parquet(products_path).createOrReplaceTempView("products")
    return spark.sql(TOP_PRODUCTS_SQL)


if __name__ == "__main__":
    spark = get_spark("top-products")
    top_products(spark, "data/orders.parquet", "data/products.parquet").show()
