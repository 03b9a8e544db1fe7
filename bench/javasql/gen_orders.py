#!/usr/bin/env python3
"""Seeded synthetic input for bench/javasql (our own generator; no data of the repository).

usage: python3 gen_orders.py OUT_DIR [SEED]

Writes the files the captured jobs and tests read (their application.properties / test paths,
re-rooted at OUT_DIR/data-file):
  csv/input/customers.csv       customer_id,customer_name,tier,city
  csv/input/orders.csv          order_id,customer_name,product,quantity,price,status,order_date
  csv/input/orders_v2.csv       order_id,customer_id,product,quantity,price,status,order_date   (12 rows)
  csv/input/orders_v3.csv       order_id,product,promo_code,quantity,price,status
  csv/input/orders_dirty_v2.csv order_id,customer_id,product_category,total_amount,status,order_date,channel
                                (dd-MM-yyyy dates, one duplicated order_id, two bad rows)
  csv/input/orders_skewed.csv   order_id,customer_id,product,quantity,price,status (customer 1 is a hot key)
  csv/input/products.csv        product_id,product,category,unit_price
  json/input/transactions_v2.json  JSON lines: order_id, customer_id, event_timestamp,
                                customer{city,name,tier}, items[{price,product,quantity}],
                                payment{amount,method,status}
A few rows are fixed so that most of the repository's own test assertions hold (orders_v3 rows 1-3,
12 rows in orders_v2, order 7 = 2 x Laptop at 75000, two completed items of "Ravi Kumar").
"""
import csv
import json
import os
import random
import sys

NAMES = ["Ravi Kumar", "Anita Sharma", "John Mathew", "Priya Nair", "Arjun Mehta", "Sara Khan",
         "Vikram Rao", "Meera Iyer", "Karan Singh", "Divya Menon"]
TIERS = ["GOLD", "SILVER", "BRONZE"]
CITIES = ["Mumbai", "Pune", "Delhi", "Bengaluru", "Chennai", "Hyderabad"]
PRODUCTS = [("Laptop", "Electronics", 75000.0), ("Phone", "Electronics", 35000.0),
            ("Headphones", "Electronics", 2500.0), ("Desk", "Furniture", 12000.0),
            ("Chair", "Furniture", 6000.0), ("Monitor", "Electronics", 15000.0),
            ("Keyboard", "Electronics", 1500.0), ("Backpack", "Accessories", 1800.0)]
STATUSES = ["COMPLETED", "COMPLETED", "COMPLETED", "PENDING", "CANCELLED"]
CHANNELS = ["WEB", "MOBILE", "STORE"]
METHODS = ["UPI", "CARD", "NETBANKING", "COD"]


def write_csv(path, header, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for r in rows:
            w.writerow(["" if v is None else v for v in r])


def date(rnd, fmt="iso"):
    m, d = rnd.randint(1, 3), rnd.randint(1, 28)
    return f"2024-{m:02d}-{d:02d}" if fmt == "iso" else f"{d:02d}-{m:02d}-2024"


def main():
    out = os.path.join(sys.argv[1], "data-file")
    rnd = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 20240611)
    csvd, jsond = os.path.join(out, "csv", "input"), os.path.join(out, "json", "input")

    customers = [(i + 1, n, TIERS[i % 3], CITIES[i % len(CITIES)]) for i, n in enumerate(NAMES)]
    write_csv(os.path.join(csvd, "customers.csv"), ["customer_id", "customer_name", "tier", "city"], customers)

    rows = []
    for i in range(1, 41):
        p = rnd.choice(PRODUCTS)
        rows.append((i, rnd.choice(NAMES), p[0], rnd.randint(1, 4), p[2], rnd.choice(STATUSES), date(rnd)))
    write_csv(os.path.join(csvd, "orders.csv"),
              ["order_id", "customer_name", "product", "quantity", "price", "status", "order_date"], rows)

    rows = []
    for i in range(1, 13):
        p = rnd.choice(PRODUCTS)
        rows.append((i, rnd.randint(1, len(NAMES)), p[0], rnd.randint(1, 3), p[2],
                     "COMPLETED" if i % 4 else rnd.choice(["PENDING", "CANCELLED"]), date(rnd)))
    write_csv(os.path.join(csvd, "orders_v2.csv"),
              ["order_id", "customer_id", "product", "quantity", "price", "status", "order_date"], rows)

    rows = [(1, "Laptop", "SAVE10", 1, 75000, "COMPLETED"), (2, "Monitor", None, 2, 15000, "COMPLETED"),
            (3, "Phone", "FLAT500", 1, 35000, "PENDING")]
    for i in range(4, 25):
        p = rnd.choice(PRODUCTS)
        rows.append((i, p[0], rnd.choice(["SAVE10", "FLAT500", "WELCOME200", None, None]),
                     rnd.randint(1, 3), int(p[2]), rnd.choice(STATUSES)))
    write_csv(os.path.join(csvd, "orders_v3.csv"),
              ["order_id", "product", "promo_code", "quantity", "price", "status"], rows)

    rows = []
    for i in range(1, 9):
        p = rnd.choice(PRODUCTS)
        st = "CANCELLED" if i == 4 else ("PENDING" if i == 6 else "COMPLETED")
        rows.append((i, (i - 1) % len(NAMES) + 1, p[1], p[2] * rnd.randint(1, 2), st, date(rnd, "dmy"),
                     rnd.choice(CHANNELS)))
    dup = list(rows[2])
    dup[5] = "28-03-2024"
    rows.append(tuple(dup))                                   # a later copy of order 3
    rows.append((9, None, "Electronics", 1500.0, "COMPLETED", date(rnd, "dmy"), "WEB"))   # no customer
    rows.append((10, 3, "Furniture", 6000.0, "RETURNED", date(rnd, "dmy"), "STORE"))      # bad status
    write_csv(os.path.join(csvd, "orders_dirty_v2.csv"),
              ["order_id", "customer_id", "product_category", "total_amount", "status", "order_date", "channel"],
              rows)

    rows = []
    for i in range(1, 61):
        cid = 1 if rnd.random() < 0.45 else rnd.randint(2, len(NAMES))
        p = rnd.choice(PRODUCTS)
        rows.append((i, cid, p[0], rnd.randint(1, 3), p[2], rnd.choice(STATUSES)))
    write_csv(os.path.join(csvd, "orders_skewed.csv"),
              ["order_id", "customer_id", "product", "quantity", "price", "status"], rows)

    write_csv(os.path.join(csvd, "products.csv"), ["product_id", "product", "category", "unit_price"],
              [(i + 1, p[0], p[1], p[2]) for i, p in enumerate(PRODUCTS)])

    # transactions: orders 1..8, 12 line items; order 7 = 2 x Laptop at 75000
    n_items = {1: 2, 2: 1, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 3}
    os.makedirs(jsond, exist_ok=True)
    with open(os.path.join(jsond, "transactions_v2.json"), "w") as f:
        for oid in range(1, 9):
            cid = (oid - 1) % len(NAMES) + 1
            if oid in (1, 8):
                cid = 1                                          # Ravi Kumar
            items = []
            for k in range(n_items[oid]):
                p = rnd.choice(PRODUCTS)
                items.append({"price": p[2], "product": p[0], "quantity": rnd.randint(1, 3)})
            if oid == 7:
                items = [{"price": 75000.0, "product": "Laptop", "quantity": 2}]
            c = customers[cid - 1]
            amount = sum(it["price"] * it["quantity"] for it in items)
            rec = {"order_id": oid, "customer_id": cid,
                   "event_timestamp": f"2024-03-{oid:02d}T{rnd.randint(8, 20):02d}:{rnd.randint(0, 59):02d}:00",
                   "customer": {"city": c[3], "name": c[1], "tier": c[2]},
                   "items": items,
                   "payment": {"amount": amount, "method": rnd.choice(METHODS),
                               "status": "FAILED" if oid == 5 else "SUCCESS"}}
            f.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
