#!/usr/bin/env python3
"""Seeded, small stand-in for the Olist e-commerce CSVs the javaetl repository reads
(olist_{customers,orders,order_items,order_payments,products,sellers}_dataset.csv; the real files
are not in the mirror). Columns follow the public Olist headers (including its
`product_name_lenght` spelling). usage: gen_olist.py OUT_DIR [N_ORDERS]"""
import csv, os, random, sys
from datetime import datetime, timedelta

out = sys.argv[1]; n_orders = int(sys.argv[2]) if len(sys.argv) > 2 else 400
rng = random.Random(20240611)
os.makedirs(out, exist_ok=True)
hexid = lambda: "%032x" % rng.getrandbits(128)
ts = lambda d: d.strftime("%Y-%m-%d %H:%M:%S")
cities = [("sao paulo", "SP"), ("rio de janeiro", "RJ"), ("belo horizonte", "MG"), ("curitiba", "PR"),
          ("porto alegre", "RS"), ("salvador", "BA"), ("campinas", "SP"), ("recife", "PE")]
cats = ["beleza_saude", "informatica_acessorios", "moveis_decoracao", "esporte_lazer",
        "cama_mesa_banho", "utilidades_domesticas", "relogios_presentes", "telefonia", "NULL"]
statuses = ["delivered"] * 12 + ["shipped", "canceled", "unavailable", "invoiced", "processing", "approved", "created"]
ptypes = ["credit_card"] * 5 + ["boleto", "boleto", "voucher", "debit_card", "not_defined"]

def w(name, header, rows):
    with open(os.path.join(out, name), "w", newline="") as f:
        cw = csv.writer(f); cw.writerow(header); cw.writerows(rows)

customers = []
for _ in range(n_orders * 3 // 4):
    c, s = rng.choice(cities)
    customers.append([hexid(), hexid(), rng.randint(1000, 99999), c, s])
sellers = []
for _ in range(40):
    c, s = rng.choice(cities)
    sellers.append([hexid(), rng.randint(1000, 99999), c, s])
products = []
for _ in range(120):
    miss = rng.random() < 0.08
    products.append([hexid(), rng.choice(cats), rng.randint(20, 60), rng.randint(100, 3000), rng.randint(1, 6),
                     "" if miss else rng.randint(50, 20000), "" if miss or rng.random() < 0.05 else rng.randint(10, 100),
                     rng.randint(2, 80), rng.randint(8, 90)])
orders, items, pays = [], [], []
base = datetime(2018, 1, 1)
for _ in range(n_orders):
    oid, cust = hexid(), rng.choice(customers)[0]
    st = rng.choice(statuses)
    p = base + timedelta(minutes=rng.randint(0, 60 * 24 * 20))
    appr = p + timedelta(minutes=rng.randint(5, 600))
    carr = appr + timedelta(hours=rng.randint(12, 96))
    deliv = carr + timedelta(days=rng.randint(1, 25))
    est = p + timedelta(days=rng.randint(10, 30))
    delivered = st == "delivered"
    orders.append([oid, cust, st, ts(p), ts(appr), ts(carr) if delivered or st == "shipped" else "",
                   ts(deliv) if delivered else "", ts(est)])
    total = 0.0
    for k in range(1, rng.choice([1, 1, 1, 2, 2, 3]) + 1):
        price = round(rng.uniform(5, 900), 2); fr = round(rng.uniform(5, 60), 2); total += price + fr
        items.append([oid, k, rng.choice(products)[0], rng.choice(sellers)[0], ts(p + timedelta(days=3)), price, fr])
    nseq = rng.choice([1, 1, 1, 1, 2])
    for s in range(1, nseq + 1):
        pays.append([oid, s, rng.choice(ptypes), rng.randint(1, 10), round(total / nseq, 2)])
        if rng.random() < 0.05:  # duplicated payment rows (the dedup rule's target)
            pays.append(pays[-1][:])
w("olist_customers_dataset.csv", ["customer_id", "customer_unique_id", "customer_zip_code_prefix", "customer_city", "customer_state"], customers)
w("olist_sellers_dataset.csv", ["seller_id", "seller_zip_code_prefix", "seller_city", "seller_state"], sellers)
w("olist_products_dataset.csv", ["product_id", "product_category_name", "product_name_lenght", "product_description_lenght",
  "product_photos_qty", "product_weight_g", "product_length_cm", "product_height_cm", "product_width_cm"], products)
w("olist_orders_dataset.csv", ["order_id", "customer_id", "order_status", "order_purchase_timestamp", "order_approved_at",
  "order_delivered_carrier_date", "order_delivered_customer_date", "order_estimated_delivery_date"], orders)
w("olist_order_items_dataset.csv", ["order_id", "order_item_id", "product_id", "seller_id", "shipping_limit_date", "price", "freight_value"], items)
w("olist_order_payments_dataset.csv", ["order_id", "payment_sequential", "payment_type", "payment_installments", "payment_value"], pays)
print(len(customers), len(orders), len(items), len(pays), len(products), len(sellers))
