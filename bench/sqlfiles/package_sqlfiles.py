"""Package bench/sqlfiles: bench/tools/package_sets.py plus one labeller addition for SQL that a
runner reads from a `.sql` file and renders with `str.format` before `spark.sql(...)`.

usage: BENCH_TOOLS=... WORK=... python package_sqlfiles.py bench/sqlfiles/package.json

The DEV labeller looks for a query's SQL text as a literal in the repository's `.py` files; text
read from disk and rendered (`{parsed_table_name}` -> `p_books_data`) is in none of them, so every
SQL-derived node would fall back to the Python line that called `spark.sql`. Here, when the SQL
text is not found in a `.py` file, it is matched against every `.sql` file of the checkout as a
`str.format` template (literal pieces exact, each `{field}` any text, the file's text `.strip()`ped
as the runner does); a parser position inside the rendered text then maps to the same place in
the file (inside a substituted field: the field's own position). Gold is the `.sql` file's lines
of the clause, exactly as a literal in a `.py` file would give; `gold_lenient` adds the whole
`.sql` file's statement and the `spark.sql(...)` call statement. Everything else is
package_sets.py unchanged.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))
import package_sets  # noqa: E402  (applies its own label patches on import)

label = package_sets.label
FIELD = re.compile(r"(?<!\{)\{(\w*)\}(?!\})")
_templates = {}


def _sql_files(src):
    if src.root not in _templates:
        out = []
        for dp, dns, fns in os.walk(src.root):
            dns[:] = sorted(d for d in dns if not d.startswith("."))
            for fn in sorted(fns):
                if fn.endswith(".sql"):
                    rel = os.path.relpath(os.path.join(dp, fn), src.root)
                    t = src.text(rel)
                    lead = len(t) - len(t.lstrip())
                    body = t.strip()
                    pieces, fields, pos = [], [], 0
                    for m in FIELD.finditer(body):
                        pieces.append((pos, body[pos:m.start()]))
                        fields.append(m.start())
                        pos = m.end()
                    pieces.append((pos, body[pos:]))
                    pat = "(.*?)".join("(" + re.escape(p.replace("{{", "{").replace("}}", "}")) + ")"
                                       for _, p in pieces)
                    out.append((rel, lead, len(body), pieces, fields, re.compile(pat, re.S)))
        _templates[src.root] = out
    return _templates[src.root]


def locate_template(src, sql):
    """(rel, map offset in sql -> offset in file, file offsets of the SQL's first/last char)."""
    for rel, lead, blen, pieces, fields, pat in _sql_files(src):
        m = pat.fullmatch(sql.strip())
        if not m:
            continue
        shift = len(sql) - len(sql.lstrip())
        spans = []  # (rendered start, rendered end, file start) of literal pieces / fields
        for k, (fpos, _) in enumerate(pieces):
            g = 2 * k + 1
            spans.append((m.start(g), m.end(g), fpos))
            if k < len(fields):
                spans.append((m.start(g + 1), m.end(g + 1), fields[k], True))

        def fmap(x, spans=spans, lead=lead, shift=shift):
            x -= shift
            for sp in spans:
                if sp[0] <= x < sp[1] or (sp[0] == sp[1] == x):
                    return lead + sp[2] + (0 if len(sp) > 3 else x - sp[0])
            return lead + (spans[-1][2] + (x - spans[-1][0]) if x >= spans[-1][0] else 0)
        return rel, fmap, lead, lead + blen - 1
    return None


_orig_sql_span = label.CaseLabeler.sql_span


def _sql_span(self, tid, a, b, tag=None):
    sql = self.sqlTexts[tid]
    hint, tag_r = None, None
    if tag:
        m = re.match(r"^([^|]*)\|(.*):(\d+)$", tag)
        if m:
            hint = (m.group(2), int(m.group(3)))
            ts, te = self.src.stmt_range(hint[0], hint[1])
            tag_r = (hint[0], ts, te)
    if self.src.find_sql(sql, self.prefer_files, hint) is not None:
        return _orig_sql_span(self, tid, a, b, tag)
    loc = locate_template(self.src, sql)
    if loc is None:
        return _orig_sql_span(self, tid, a, b, tag)
    rel, fmap, f0, f1 = loc
    l1, l2 = self.src.line_of(rel, fmap(a)), self.src.line_of(rel, fmap(b))
    whole = (rel, self.src.line_of(rel, f0), self.src.line_of(rel, f1))
    len_ = [(rel, l1, l2), whole] + ([tag_r] if tag_r else [])
    return label.rng(rel, l1, l2, l1, l2, len_)


label.CaseLabeler.sql_span = _sql_span

if __name__ == "__main__":
    package_sets.main()
