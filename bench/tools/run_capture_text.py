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
