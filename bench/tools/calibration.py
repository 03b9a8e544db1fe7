#!/usr/bin/env python3
"""Reliability of plan2code's confidence, and whether a calibration map fitted elsewhere helps.

usage: calibration.py OUT [KIND]

OUT is a `scripts/bench-accuracy` output folder (DEV results under OUT/KIND, each own set under
OUT/<set>/KIND); KIND defaults to formatted. Prints the pooled reliability table (confidence bins:
count, mean confidence, share correct by evaluate.py's span@1) and, per repository, the ECE of the
raw confidence beside the ECE after an isotonic map fitted on every *other* repository
(leave-one-repository-out): a map is only worth shipping if it helps repositories it never saw.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED_TOOLS = os.path.join(HERE, "..", "..", "..", "shared", "bench", "tools")
sys.path.insert(0, SHARED_TOOLS)
from evaluate import location, overlaps  # noqa: E402  (the benchmark's own scoring)

ROOT = os.path.join(HERE, "..", "..")


def sets(out, kind):
    """(manifest folder, results folder) of DEV and of every own set that has results."""
    yield os.path.join(ROOT, "..", "shared", "bench"), os.path.join(out, kind)
    for name in sorted(os.listdir(os.path.join(ROOT, "bench"))):
        results = os.path.join(out, name, kind)
        if name != "dev" and os.path.isdir(results):
            yield os.path.join(ROOT, "bench", name), results


def points(out, kind):
    """(repository, confidence, correct) of every mapped code node."""
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
                yield case["repo"], float(m.get("confidence") or 0.0), ok


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


def isotonic(pairs):
    """Pool-adjacent-violators over (confidence, correct) sorted by confidence: [(upper, value)]."""
    blocks = []
    for conf, ok in sorted(pairs):
        blocks.append([conf, float(ok), 1])
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            upper, total, n = blocks.pop()
            blocks[-1] = [upper, blocks[-1][1] + total, blocks[-1][2] + n]
    return [(upper, total / n) for upper, total, n in blocks]


def calibrated(blocks, conf):
    return next((value for upper, value in blocks if conf <= upper), blocks[-1][1])


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out, kind = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "formatted")
    pts = list(points(out, kind))
    print(f"reliability, {kind}, {len(pts)} code nodes")
    print("| confidence | nodes | mean confidence | correct |")
    print("|---|---|---|---|")
    for i, (n, total, ok) in enumerate(bins_of((c, ok) for _, c, ok in pts)):
        if n:
            print(f"| {i / 10:.1f}–{(i + 1) / 10:.1f} | {n} | {total / n:.3f} | {ok / n:.3f} |")
    print()
    print("| repository | nodes | ECE raw | ECE, isotonic map fitted on the other repositories |")
    print("|---|---|---|---|")
    for repo in sorted({r for r, _, _ in pts}):
        blocks = isotonic([(c, ok) for r, c, ok in pts if r != repo])
        own = [(c, ok) for r, c, ok in pts if r == repo]
        mapped = [(calibrated(blocks, c), ok) for c, ok in own]
        print(f"| {repo} | {len(own)} | {ece(own):.3f} | {ece(mapped):.3f} |")


if __name__ == "__main__":
    main()
