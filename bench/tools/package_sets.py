"""Label captured cases and write one of the project's bench sets (bench/<set>/).

usage: BENCH_TOOLS=../shared/bench/tools WORK=<scratch dir> python package_sets.py bench/<set>/package.json

Runs the DEV benchmark's own labeler and packager ($BENCH_TOOLS/package.py, label.py: same rules,
same gold format, same dropping of trivial / unlabelled cases) on a config in package.py's format
whose paths may use $WORK (scratch folder with the captures and checkouts) and $SET (the set's
folder). Three additions: (1) an alias the optimizer adds to normalise floating-point grouping keys
is not taken for a user definition (_alias_ranges); (2) an aggregate made from `dropDuplicates`
without an origin of its own is labelled with the Deduplicate's statement (_label_primary); (3) in Databricks notebook exports the labeler reads the file with the
`# MAGIC ` prefixes (and a cell's leading `%sql`) replaced by spaces, which is exactly the text
run_capture.py hands to spark.sql — so SQL spans in `# MAGIC %sql` cells map to their own lines
and columns. Python cells are unchanged; line numbers are the file's own. (4) A Jupyter notebook
is read as its code cells placed at the lines of the .ipynb JSON file that hold them
(run_capture_text.ipynb_python_text), the numbering run_capture.py runs them in.
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("BENCH_TOOLS", os.path.join(HERE, "..", "..", "..", "shared", "bench", "tools")))
sys.path.insert(0, HERE)
import label  # noqa: E402
import package  # noqa: E402
from run_capture_text import blank_magic_text, ipynb_python_text  # noqa: E402

_orig_text = label.Source.text


def _text(self, rel):
    if rel not in self.texts:
        t = _orig_text(self, rel)
        if t.startswith("# Databricks notebook source"):
            self.texts[rel] = blank_magic_text(t)
        elif rel.endswith(".ipynb"):
            v = self.texts[rel] = ipynb_python_text(t)
            self.line_starts[rel] = [0] + [i + 1 for i, ch in enumerate(v) if ch == "\n"]
    return _orig_text(self, rel)


label.Source.text = _text

_orig_alias_ranges = label.CaseLabeler.alias_ranges


def _alias_ranges(self, exprs):
    """An alias the optimizer adds to normalise floating-point grouping keys
    (`knownfloatingpointnormalized(normalizenanandzero(x)) AS x`, NormalizeFloatingNumbers) is not
    a user definition: without this, a partial aggregate grouping on a double column took the
    gold of the statement that created the column (e.g. the read) instead of its consumer's."""
    return _orig_alias_ranges(self, [e for e in exprs if not (
        e.get("c") == "Alias" and any(ch.get("c") == "KnownFloatingPointNormalized" for ch in e.get("ch", [])))])


label.CaseLabeler.alias_ranges = _alias_ranges

_orig_label_primary = label.CaseLabeler.label_primary


def _label_primary(self, i):
    """An aggregate the optimizer made from `dropDuplicates` (ReplaceDeduplicateWithAggregate) often
    keeps no origin of its own; it then took its consumer's gold (e.g. a later groupBy's). Its
    statement is the analysed Deduplicate's whose columns it groups or carries (all of them)."""
    kind, rs, basis = _orig_label_primary(self, i)
    p = self.P[i]
    if kind == "derived" and p["cls"] in label.AGG_CLS:
        refs = set()
        for e in p["exprs"]:
            refs |= {x["id"] for x in self.expr_walk(e, lambda x: x["c"] == "AttributeReference" and "id" in x, [])}
        found = []
        for j in self.an:
            n = self.L[j]
            if n["cls"] == "Deduplicate":
                cols = {x[0] for x in n.get("output", [])}
                if cols and cols <= refs:
                    found += self.lnode_ranges(j)
        if found:
            return "code", found, "aggregate: dropDuplicates"
    return kind, rs, basis


label.CaseLabeler.label_primary = _label_primary


def main():
    cfg_path = os.path.abspath(sys.argv[1])
    env = dict(os.environ, SET=os.path.dirname(cfg_path))
    raw = open(cfg_path).read()
    for k in ("WORK", "SET"):
        raw = raw.replace("$" + k, env[k])
    cfg = json.loads(raw)
    cfg["dev_out"] = cfg.get("dev_out") or os.path.dirname(cfg_path)
    cfg["holdout_out"] = tempfile.mkdtemp(prefix="bench-unused-holdout-")
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(cfg, f)
    sys.argv = [sys.argv[0], f.name]
    package.main()


if __name__ == "__main__":
    main()
