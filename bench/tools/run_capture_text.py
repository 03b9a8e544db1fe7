"""The one text transformation shared by the capture driver and the labeler: a Databricks
notebook export's `# MAGIC ` prefixes (and a cell's leading `%sql`) replaced by spaces of the
same length, so offsets in the SQL handed to spark.sql are offsets in the file."""

MAGIC = "# MAGIC"


def blank_magic(line):
    """`# MAGIC <text>` -> the same line with the prefix (and a leading %sql) blanked; None for
    any other line."""
    if not line.startswith(MAGIC):
        return None
    pre = len(MAGIC) + (1 if line[len(MAGIC):].startswith(" ") else 0)
    rest = line[pre:]
    if rest.startswith("%sql"):
        rest = " " * 4 + rest[4:]
    return " " * pre + rest


def blank_magic_text(text):
    out = []
    for ln in text.split("\n"):
        b = blank_magic(ln)
        out.append(ln if b is None else b)
    return "\n".join(out)


def ipynb_code_cells(raw):
    """[(first_line, lines)] of a Jupyter notebook's runnable code cells, `first_line` being the
    1-based line of the .ipynb JSON file that holds the cell's first source line (nbformat writes
    one source line per JSON line; the project reports lines in that numbering). Line magics and
    shell lines (`%matplotlib`, `!pip`) become blank lines; cells run by a cell magic (`%%time`,
    `%%sql`) are left out, as are cells that are not Python on their own."""
    import json
    import re
    cells = json.loads(raw)["cells"]
    starts = [i + 2 for i, ln in enumerate(raw.split("\n")) if re.match(r'^\s*"source": \[\s*$', ln)]
    listed = [c for c in cells if isinstance(c.get("source"), list) and c["source"]]
    if len(starts) != len(listed):
        raise ValueError(f"{len(listed)} cells with source, {len(starts)} source lists in the JSON text")
    out = []
    for first, cell in zip(starts, listed):
        if cell.get("cell_type") != "code":
            continue
        lines = "".join(cell["source"]).split("\n")
        if lines and lines[0].lstrip().startswith("%%"):
            continue
        lines = ["" if ln.lstrip().startswith(("%", "!")) else ln for ln in lines]
        try:
            compile("\n".join(lines), "<cell>", "exec")
        except SyntaxError:
            continue
        out.append((first, lines))
    return out


def ipynb_python_text(raw):
    """The notebook's code cells as one Python text whose line N is the JSON file's line N."""
    n = raw.count("\n") + 1
    text = [""] * n
    for first, lines in ipynb_code_cells(raw):
        for k, ln in enumerate(lines):
            text[first - 1 + k] = ln
    return "\n".join(text)
