"""Orders with their customer's region and their product's category, joined in two orders.

Both flows read the same tables and join on the same keys; only the order of the joins — which
join feeds which — tells their plans apart.
"""
from jobs.common import get_spark


def details_by_customer(spark, orders_path, customers_path, products_path):
    orders = spark.read.parquet(orders_path)
    customers = spark.read.parquet(customers_path)
    products = spark.read.parquet(products_path)
    return orders.join(customers, "customer_id").join(products, "product_id")


def details_by_product(spark, orders_path, customers_path, products_path):
    orders = spark.read.parquet(orders_path)
    customers = spark.read.parquet(customers_path)
    products = spark.read.parquet(products_path)
    return orders.join(products, "product_id").join(customers, "customer_id")


if __name__ == "__main__":
    spark = get_spark("order-details")
    details_by_product(spark, "data/orders.parquet", "data/customers.parquet",
                       "data/products.parquet").show()
