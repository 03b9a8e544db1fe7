"""package_sets.py + four labeller corrections found by the bench/pyspark-classes spot check.

usage: BENCH_TOOLS=... WORK=... python package_pc.py bench/pyspark-classes/package.json

(5) An Aggregate the optimizer rebuilt while transforming its consumer keeps the consumer's
    origin (a case-class copy() takes CurrentOrigin, i.e. the origin of the node being
    transformed): `monthly_revenue = ...groupBy("month").agg(...)` followed by
    `trends_df = monthly_revenue.withColumn("prev_revenue", F.lag(...).over(w))...` gave the
    partial aggregate only the withColumn statement. When the analysed plan holds an Aggregate
    with the same result aliases (same expression ids) whose statement is not among the node's
    ranges, that statement is the gold, and the ranges that came only from the rebuilt node are
    dropped.
(6) InMemoryTableScan / InMemoryRelation: the DEV labeller takes the latest cache()/persist()
    call before the action; with two cached DataFrames (`orders.cache()` then `products.cache()`)
    the orders scan got `products.cache()`. Among the cache calls made before the action, the one
    whose receiver is the variable the scan's source statement assigns (`orders = spark.read...`
    -> `orders.cache()`) is taken when there is one; otherwise DEV's choice stands.
(7) A Filter of inferred `isnotnull(join key)` conjuncts only, on a join's input, whose origin came
    from a rebuilt node (the join was copied while pushing a later `filter(...)` through it, so
    the inferred conjunct carried the filter statement's origin): labelled with the join's
    statement, as every other inferred join filter is.
(8) Correction (2) (an origin-less aggregate takes the analysed Deduplicate's statement) also
    fired where the optimizer had *removed* the `distinct()` (RemoveRedundantAggregates: a distinct
    over another aggregate's grouping keys) and kept the lower `groupBy().agg(sum...)`: a partial
    aggregate computing sum/count/avg is not a deduplication. It takes the gold of the final
    aggregate it feeds (same keys) instead.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import package_sets  # noqa: E402  (applies corrections 1-4 to label.CaseLabeler)
from package_sets import label  # noqa: E402

_prev_label_primary = label.CaseLabeler.label_primary


def _key(r):
    return (r["file"], r["start"], r["end"])


def _label_primary(self, i):
    kind, rs, basis = _prev_label_primary(self, i)
    p = self.P[i]
    if kind == "code" and rs and p["cls"] in label.AGG_CLS and basis == "aggregate":
        lid = p.get("logical")
        lnode = self.L[lid] if lid is not None else None
        if lnode is not None and lnode["cls"] == "LogicalQueryStage" and lnode.get("stageLogical") is not None:
            lid = lnode["stageLogical"]
            lnode = self.L[lid]
        if lnode is not None and lnode["cls"] == "Aggregate":
            own = {e.get("id") for e in lnode.get("exprs", []) if e.get("c") == "Alias"}
            rebuilt = {_key(r) for r in self.lnode_ranges(lid)}
            found = []
            for j in self.an:
                n = self.L[j]
                if n["cls"] != "Aggregate":
                    continue
                ids = {e.get("id") for e in n.get("exprs", []) if e.get("c") == "Alias"}
                if own and ids == own:
                    found += self.lnode_ranges(j)
            if found and not ({_key(r) for r in found} & rebuilt):
                keep = [r for r in rs if _key(r) not in rebuilt]
                seen = {_key(r) for r in keep}
                keep += [r for r in found if _key(r) not in seen and not seen.add(_key(r))]
                return "code", keep, "aggregate: analysed Aggregate (rebuilt by optimizer)"
    if kind == "code" and rs and p["cls"] == "InMemoryTableScanExec":
        latest = self.cache_call_ranges()
        if latest:
            calls_p = os.path.join(os.path.dirname(self.dir), "calls.json")
            calls = json.load(open(calls_p))
            site = self.case.get("action_site", {})
            lk = {_key(r) for r in latest}
            src_rs = [r for r in rs if _key(r) not in lk]
            names = set()
            for r in src_rs:
                first = self.src.text(r["file"]).split("\n")[r["start"] - 1]
                m = re.match(r"\s*([A-Za-z_]\w*)\s*=", first)
                if m:
                    names.add(m.group(1))
            cands = []
            for c in calls:
                if c["entry"] != self.case["entry_file"] or c["method"] not in ("DataFrame.cache", "DataFrame.persist"):
                    continue
                if c["file"] == site.get("file") and c["line"] > site.get("line", 0):
                    continue
                text = self.src.text(c["file"]).split("\n")[c["line"] - 1]
                m = re.match(r"\s*([A-Za-z_]\w*)\.(cache|persist)\(", text)
                if m and m.group(1) in names:
                    cands.append(self.tag_range(f"{c['method']}|{c['file']}:{c['line']}"))
            if cands and not ({_key(r) for r in cands} & lk):
                return "code", src_rs + cands[-1:], basis
    if kind == "code" and rs and p["cls"] == "FilterExec" and self._all_isnotnull(p):
        j = self._up(i, _PASS_FILTER)
        if j is not None and self.P[j]["cls"] in label.JOIN_CLS:
            k2, jrs, _ = _prev_label_primary(self, j)
            if k2 == "code" and jrs and not ({_key(r) for r in rs} & {_key(r) for r in jrs}):
                return "code", jrs, "filter: inferred isnotnull of the join (rebuilt origin)"
    if kind == "code" and rs and p["cls"] in label.AGG_CLS and basis == "aggregate: dropDuplicates":
        m = re.search(r"functions=\[(.*)\]\)?$", p.get("desc", ""))
        funcs = re.findall(r"(\w+)\(", m.group(1)) if m else []
        if any(f not in ("first", "last", "partial_first", "partial_last") for f in funcs):
            j = self._up(i, _PASS_AGG)
            if j is not None and self.P[j]["cls"] in label.AGG_CLS:
                k2, ars, b2 = _label_primary(self, j)
                if k2 == "code" and ars and b2 != "aggregate: dropDuplicates":
                    return "code", ars, "aggregate: final aggregate's (distinct removed by optimizer)"
    return kind, rs, basis


_PASS_FILTER = {"ProjectExec", "ColumnarToRowExec", "InputAdapter", "WholeStageCodegenExec",
                "BroadcastExchangeExec", "BroadcastQueryStageExec", "ShuffleExchangeExec",
                "ShuffleQueryStageExec", "AQEShuffleReadExec", "SortExec"}
_PASS_AGG = {"InputAdapter", "WholeStageCodegenExec", "ShuffleExchangeExec", "ShuffleQueryStageExec",
             "AQEShuffleReadExec"}


def _up(self, i, passthrough):
    if not hasattr(self, "_parent"):
        self._parent = {}
        for k, q in enumerate(self.P):
            for c in q.get("children", []):
                self._parent.setdefault(c, k)
    j = self._parent.get(i)
    while j is not None and self.P[j]["cls"] in passthrough:
        j = self._parent.get(j)
    return j


def _all_isnotnull(self, p):
    cs = list(self.conjuncts(p["exprs"][0])) if p.get("exprs") else []
    return bool(cs) and all(c["c"] == "IsNotNull" for c in cs)


label.CaseLabeler._up = _up
label.CaseLabeler._all_isnotnull = _all_isnotnull
label.CaseLabeler.label_primary = _label_primary

if __name__ == "__main__":
    package_sets.main()
