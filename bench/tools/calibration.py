#!/usr/bin/env python3
"""Fit plan2code's confidence calibration map and show, per repository, what it does where it was
not fitted.

usage: calibration.py OUT [--rust]

OUT is a `scripts/bench-accuracy` output folder produced with the map switched off
(`CONFIDENCE_CALIBRATION=off scripts/bench-accuracy`), so that every confidence is the raw formula of DESIGN's
node 6. DEV results are read from OUT/KIND, each own set's from OUT/<set>/KIND, for both plan kinds
(formatted, ui) that are present.

What is fitted: a monotone (isotonic, pool-adjacent-violators) map from the raw confidence to the
share of answers that were right (evaluate.py's span@1) at that confidence, over every code node of
every repository, both plan kinds, except coin tosses — nodes whose chosen site has a twin in
other code (another file, or another frame of the same file) explaining the node equally
well, which the gate caps at 0.5 after the map instead (0.7 when that code is in another
language, a translation: the "ties" table shows how often those were right).
The map is piecewise linear through each block's (mean raw confidence, share right).

What is printed:
* the pooled reliability table of the raw confidence (bins of 0.1: nodes, mean, share right);
* per repository and plan kind, ECE and confirmed precision of the raw
  confidence beside the same after a map fitted on every *other* repository
  (leave-one-repository-out): the honest estimate of what the map does on code it never saw
  (confirmed: raw >= 0.75, DESIGN's band on the formula; mapped >= 0.90, the shipped band);
* with --rust, the map fitted on everything, as the Rust table in
  functions/core/src/pipeline/calibration.rs.
"""
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED_TOOLS = os.path.join(HERE, "..", "..", "..", "shared", "bench", "tools")
sys.path.insert(0, SHARED_TOOLS)
from evaluate import location, overlaps  # noqa: E402  (the benchmark's own scoring)

ROOT = os.path.join(HERE, "..", "..")
KINDS = ("formatted", "ui")
# The confirmed band: DESIGN's 0.75 on the raw formula, 0.90 on the calibrated confidence.
CONFIRMED_RAW = 0.75
CONFIRMED = 0.90
TWIN_CAP = 0.5
# … when the other code is in another language: a translation of the query (calibration.rs's
# TRANSLATION_TOSS, the share of such ties the mapper broke right, each repository's estimate
# taken from the others: the "ties" table below).
TRANSLATION_CAP = 0.7
LANGUAGES = {".py": "python", ".ipynb": "python", ".scala": "scala", ".java": "java", ".sql": "sql"}
# The reasoner's words when a site in another file explains the node equally well (reason.rs).
TWIN_WORDS = "explains it equally well"
# finalize.rs's words when rows of scanned objects may have been pruned for a later statement:
# the gate caps those at the coin toss too.
PRUNED_OBJECTS_WORDS = "unless Spark pruned it to the columns a later statement reads"


def sets(out, kind):
    """(manifest folder, results folder) of DEV and of every own set that has results."""
    yield os.path.join(ROOT, "..", "shared", "bench"), os.path.join(out, kind)
    for name in sorted(os.listdir(os.path.join(ROOT, "bench"))):
        results = os.path.join(out, name, kind)
        if name != "dev" and os.path.isdir(results):
            yield os.path.join(ROOT, "bench", name), results


def points(out, kind):
    """(repository, confidence, correct, coin toss) of every mapped code node."""
    id_field = "uiNodeId" if kind == "ui" else "formattedId"
    for bench, results in sets(out, kind):
        for case in json.load(open(os.path.join(bench, "manifest.json")))["cases"]:
            path = os.path.join(results, case["id"] + ".json")
            if not os.path.exists(path):
                continue
            job = json.load(open(path))
            by_id = {}
            for m in (job.get("result") or {}).get("mappings") or []:
                try:
                    by_id[int(str(m.get("dagNodeId")))] = m
                except ValueError:
                    pass
            gold = json.load(open(os.path.join(bench, case["gold_file"])))
            for node in gold["nodes"]:
                m = by_id.get(node.get(id_field))
                if node.get(id_field) is None or node["kind"] == "engine" or m is None:
                    continue
                p = location(m.get("mappedCode"))
                ok = p is not None and any(overlaps(p, g) for g in node["gold"])
                yield case["repo"], float(m.get("confidence") or 0.0), ok, twin_kind(m)


def twin_kind(mapping):
    """None, or the kind of code explaining the node as well: "translation" (another
    language) or "copy"."""
    explanation = mapping.get("explanation") or ""
    found = re.search(r"but (.+?):\d+-\d+ " + TWIN_WORDS, explanation)
    if not found:
        return "copy" if PRUNED_OBJECTS_WORDS in explanation else None
    language = lambda path: LANGUAGES.get(os.path.splitext(path)[1].lower())
    chosen = (mapping.get("mappedCode") or {}).get("file") or ""
    return "translation" if language(found.group(1)) != language(chosen) else "copy"


def bins_of(pairs):
    bins = [[0, 0.0, 0] for _ in range(10)]
    for conf, ok in pairs:
        b = bins[min(int(conf * 10), 9)]
        b[0] += 1
        b[1] += conf
        b[2] += ok
    return bins


def ece(pairs):
    bins = bins_of(pairs)
    n = sum(b[0] for b in bins)
    return sum(abs(b[2] - b[1]) for b in bins if b[0]) / max(n, 1)


def confirmed_precision(pairs, threshold):
    right = [ok for conf, ok in pairs if conf >= threshold]
    return (sum(right) / len(right) if right else float("nan")), len(right)


def fit(pairs):
    """Pool-adjacent-violators over (confidence, correct): knots [(mean confidence, share right)]."""
    blocks = []  # [sum of confidence, sum of correct, count]
    for conf, ok in sorted(pairs):
        blocks.append([conf, float(ok), 1])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            conf_sum, ok_sum, n = blocks.pop()
            blocks[-1] = [blocks[-1][0] + conf_sum, blocks[-1][1] + ok_sum, blocks[-1][2] + n]
    return [(conf_sum / n, ok_sum / n) for conf_sum, ok_sum, n in blocks]


def apply(knots, conf, twin):
    """The map as the gate applies it: linear between knots, flat beyond, a coin toss capped."""
    if conf <= knots[0][0]:
        value = knots[0][1]
    elif conf >= knots[-1][0]:
        value = knots[-1][1]
    else:
        for (x0, y0), (x1, y1) in zip(knots, knots[1:]):
            if x0 <= conf <= x1:
                value = y0 if x1 == x0 else y0 + (y1 - y0) * (conf - x0) / (x1 - x0)
                break
    if not twin:
        return value
    return min(value, TRANSLATION_CAP if twin == "translation" else TWIN_CAP)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit(__doc__)
    out = args[0]
    pts = {kind: list(points(out, kind)) for kind in KINDS if os.path.isdir(os.path.join(out, kind))}
    everything = [(r, c, ok, t) for kind_pts in pts.values() for r, c, ok, t in kind_pts]
    for kind, kind_pts in pts.items():
        print(f"raw reliability, {kind}, {len(kind_pts)} code nodes")
        print("| confidence | nodes | mean confidence | correct |")
        print("|---|---|---|---|")
        for i, (n, total, ok) in enumerate(bins_of((c, ok) for _, c, ok, _ in kind_pts)):
            if n:
                print(f"| {i / 10:.1f}–{(i + 1) / 10:.1f} | {n} | {total / n:.3f} | {ok / n:.3f} |")
        print()
        print(f"leave-one-repository-out, {kind}")
        print("| repository | nodes | ECE raw | ECE mapped | confirmed raw | confirmed mapped |")
        print("|---|---|---|---|---|---|")
        for repo in sorted({r for r, _, _, _ in kind_pts}):
            knots = fit([(c, ok) for r, c, ok, t in everything if r != repo and not t])
            own = [(c, ok, t) for r, c, ok, t in kind_pts if r == repo]
            raw = [(c, ok) for c, ok, _ in own]
            mapped = [(apply(knots, c, t), ok) for c, ok, t in own]
            (cr, nr) = confirmed_precision(raw, CONFIRMED_RAW)
            (cm, nm) = confirmed_precision(mapped, CONFIRMED)
            print(f"| {repo} | {len(own)} | {ece(raw):.3f} | {ece(mapped):.3f} "
                  f"| {cr:.3f} ({nr}) | {cm:.3f} ({nm}) |")
        print()
    print("ties (other code explaining the node as well), both plan kinds")
    print("| repository | copies | right | translations | right | translations right elsewhere |")
    print("|---|---|---|---|---|---|")
    for repo in sorted({r for r, _, _, t in everything if t}):
        def share(rows):
            return (sum(ok for ok in rows) / len(rows)) if rows else float("nan")
        copies = [ok for r, _, ok, t in everything if r == repo and t == "copy"]
        translations = [ok for r, _, ok, t in everything if r == repo and t == "translation"]
        elsewhere = [ok for r, _, ok, t in everything if r != repo and t == "translation"]
        print(f"| {repo} | {len(copies)} | {share(copies):.2f} | {len(translations)} "
              f"| {share(translations):.2f} | {share(elsewhere):.2f} |")
    print()
    if "--rust" in sys.argv:
        knots = fit([(c, ok) for _, c, ok, t in everything if not t])
        print(f"/// Fitted by `bench/tools/calibration.py OUT --rust` on {len(everything)} code nodes.")
        print("const KNOTS: &[(f64, f64)] = &[")
        for x, y in knots:
            print(f"    ({x:.4f}, {y:.4f}),")
        print("];")


if __name__ == "__main__":
    main()
