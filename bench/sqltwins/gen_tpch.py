"""Small TPC-H-shaped data (dbgen's column names and value domains) as parquet folders
<out>/<table>/part-0.parquet. Seeded; not dbgen's exact distributions. Dates are 'YYYY-MM-DD'
strings, as in parquet converted from dbgen's .tbl text (the functional queries' year UDFs slice
them: `x[0:4]`). usage: gen_tpch.py OUT [SF]"""
import datetime as dt, os, sys
import numpy as np, pandas as pd
out = sys.argv[1]; sf = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
rng = np.random.default_rng(42)
def w(name, df):
    os.makedirs(f"{out}/{name}", exist_ok=True)
    df.to_parquet(f"{out}/{name}/part-0.parquet", index=False)
regions = ["AFRICA", "AMERICA", "ASIA", "EUROPE", "MIDDLE EAST"]
nations = [("ALGERIA",0),("ARGENTINA",1),("BRAZIL",1),("CANADA",1),("EGYPT",4),("ETHIOPIA",0),("FRANCE",3),
           ("GERMANY",3),("INDIA",2),("INDONESIA",2),("IRAN",4),("IRAQ",4),("JAPAN",2),("JORDAN",4),("KENYA",0),
           ("MOROCCO",0),("MOZAMBIQUE",0),("PERU",1),("CHINA",2),("ROMANIA",3),("SAUDI ARABIA",4),("VIETNAM",2),
           ("RUSSIA",3),("UNITED KINGDOM",3),("UNITED STATES",1)]
words = "almond antique aquamarine azure beige bisque black blanched blue blush brown burlywood chartreuse chiffon chocolate coral cornflower cornsilk cream cyan dark deep dim dodger drab firebrick floral forest frosted gainsboro ghost goldenrod green grey honeydew hot indian ivory khaki lace lavender lawn lemon light lime linen magenta maroon medium metallic midnight mint misty moccasin navajo navy olive orange orchid pale papaya peach peru pink plum powder puff purple red rose rosy royal saddle salmon sandy seashell sienna sky slate smoke snow spring steel tan thistle tomato turquoise violet wheat white yellow".split()
cw = "furiously carefully quickly blithely slyly final regular special requests pending deposits accounts packages ironic express bold even silent Customer Complaints".split()
def comment(n, k=6):
    return [" ".join(rng.choice(cw, k)) for _ in range(n)]
w("region", pd.DataFrame({"r_regionkey": np.arange(5, dtype="int64"), "r_name": regions, "r_comment": comment(5)}))
w("nation", pd.DataFrame({"n_nationkey": np.arange(25, dtype="int64"), "n_name": [a for a, _ in nations],
                          "n_regionkey": np.array([b for _, b in nations], dtype="int64"), "n_comment": comment(25)}))
def phone(nk):
    return [f"{k + 10}-{rng.integers(100, 999)}-{rng.integers(100, 999)}-{rng.integers(1000, 9999)}" for k in nk]
ns = max(int(10000 * sf), 50); nc = int(150000 * sf); np_ = int(200000 * sf); no = int(1500000 * sf)
snk = rng.integers(0, 25, ns)
w("supplier", pd.DataFrame({"s_suppkey": np.arange(1, ns + 1, dtype="int64"), "s_name": [f"Supplier#{i:09d}" for i in range(1, ns + 1)],
    "s_address": comment(ns, 3), "s_nationkey": snk.astype("int64"), "s_phone": phone(snk),
    "s_acctbal": np.round(rng.uniform(-999.99, 9999.99, ns), 2), "s_comment": comment(ns)}))
cnk = rng.integers(0, 25, nc)
w("customer", pd.DataFrame({"c_custkey": np.arange(1, nc + 1, dtype="int64"), "c_name": [f"Customer#{i:09d}" for i in range(1, nc + 1)],
    "c_address": comment(nc, 3), "c_nationkey": cnk.astype("int64"), "c_phone": phone(cnk),
    "c_acctbal": np.round(rng.uniform(-999.99, 9999.99, nc), 2),
    "c_mktsegment": rng.choice(["AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"], nc), "c_comment": comment(nc)}))
t1 = ["STANDARD", "SMALL", "MEDIUM", "LARGE", "ECONOMY", "PROMO"]; t2 = ["ANODIZED", "BURNISHED", "PLATED", "POLISHED", "BRUSHED"]
t3 = ["TIN", "NICKEL", "BRASS", "STEEL", "COPPER"]; c1 = ["SM", "LG", "MED", "JUMBO", "WRAP"]; c2 = ["CASE", "BOX", "BAG", "JAR", "PKG", "PACK", "CAN", "DRUM"]
m = rng.integers(1, 6, np_)
part = pd.DataFrame({"p_partkey": np.arange(1, np_ + 1, dtype="int64"),
    "p_name": [" ".join(rng.choice(words, 5, replace=False)) for _ in range(np_)],
    "p_mfgr": [f"Manufacturer#{x}" for x in m], "p_brand": [f"Brand#{x}{rng.integers(1, 6)}" for x in m],
    "p_type": [f"{rng.choice(t1)} {rng.choice(t2)} {rng.choice(t3)}" for _ in range(np_)],
    "p_size": rng.integers(1, 51, np_).astype("int32"), "p_container": [f"{rng.choice(c1)} {rng.choice(c2)}" for _ in range(np_)],
    "p_retailprice": np.round(900 + (np.arange(1, np_ + 1) % 1000) / 10.0, 2), "p_comment": comment(np_, 3)})
w("part", part)
ps_p = np.repeat(part.p_partkey.values, 4); ps_s = ((ps_p + np.tile(np.arange(4), np_) * (ns // 4 + 1)) % ns) + 1
w("partsupp", pd.DataFrame({"ps_partkey": ps_p, "ps_suppkey": ps_s.astype("int64"), "ps_availqty": rng.integers(1, 10000, len(ps_p)).astype("int32"),
    "ps_supplycost": np.round(rng.uniform(1, 1000, len(ps_p)), 2), "ps_comment": comment(len(ps_p))}))
start = dt.date(1992, 1, 1); days = (dt.date(1998, 8, 2) - start).days
odate = np.array([start + dt.timedelta(days=int(d)) for d in rng.integers(0, days - 151, no)])
okey = np.arange(1, no + 1, dtype="int64") * 4 - 3
ocust = rng.choice(np.arange(1, nc + 1)[np.arange(1, nc + 1) % 3 != 0], no)
rows = []
nl = rng.integers(1, 8, no)
for i in range(no):
    for ln in range(1, nl[i] + 1):
        rows.append((i, ln))
li_o = np.array([r[0] for r in rows]); n = len(rows)
lpart = rng.integers(1, np_ + 1, n); lsupp = ((lpart + rng.integers(0, 4, n) * (ns // 4 + 1)) % ns) + 1
qty = rng.integers(1, 51, n).astype("float64"); price = np.round(qty * part.p_retailprice.values[lpart - 1], 2)
disc = np.round(rng.integers(0, 11, n) / 100.0, 2); tax = np.round(rng.integers(0, 9, n) / 100.0, 2)
ship = np.array([odate[o] + dt.timedelta(days=int(d)) for o, d in zip(li_o, rng.integers(1, 122, n))])
commit = np.array([odate[o] + dt.timedelta(days=int(d)) for o, d in zip(li_o, rng.integers(30, 91, n))])
receipt = np.array([s + dt.timedelta(days=int(d)) for s, d in zip(ship, rng.integers(1, 31, n))])
cur = dt.date(1995, 6, 17)
rflag = np.where(receipt <= cur, rng.choice(["R", "A"], n), "N"); lstatus = np.where(ship > cur, "O", "F")
w("lineitem", pd.DataFrame({"l_orderkey": okey[li_o], "l_partkey": lpart.astype("int64"), "l_suppkey": lsupp.astype("int64"),
    "l_linenumber": np.array([r[1] for r in rows], dtype="int32"), "l_quantity": qty, "l_extendedprice": price,
    "l_discount": disc, "l_tax": tax, "l_returnflag": rflag, "l_linestatus": lstatus, "l_shipdate": ship.astype(str), "l_commitdate": commit.astype(str),
    "l_receiptdate": receipt.astype(str), "l_shipinstruct": rng.choice(["DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"], n),
    "l_shipmode": rng.choice(["REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"], n), "l_comment": comment(n, 3)}))
st = pd.Series(lstatus).groupby(li_o).agg(lambda s: "F" if (s == "F").all() else ("O" if (s == "O").all() else "P"))
tot = pd.Series(price * (1 + tax) * (1 - disc)).groupby(li_o).sum()
w("orders", pd.DataFrame({"o_orderkey": okey, "o_custkey": ocust.astype("int64"), "o_orderstatus": st.values,
    "o_totalprice": np.round(tot.values, 2), "o_orderdate": odate.astype(str),
    "o_orderpriority": rng.choice(["1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW"], no),
    "o_clerk": [f"Clerk#{x:09d}" for x in rng.integers(1, 1000, no)], "o_shippriority": np.zeros(no, dtype="int32"), "o_comment": comment(no)}))
print("lineitem rows", n)
