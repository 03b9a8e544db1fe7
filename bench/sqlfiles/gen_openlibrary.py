"""Seeded stand-in for the Open Library editions dump (`ol_cdump.json`) that
Ananth395/adidas downloads from S3 into raw/ (bench/sqlfiles).

usage: python gen_openlibrary.py OUT_DIR [N_EDITIONS]

Writes OUT_DIR/ol_cdump.json: one JSON object per line with the dump's field names and
shapes (key, title, subtitle, number_of_pages, publish_date as free text, authors as
[{"key": "/authors/OL…A"}], genres, subjects, languages, publishers, created/last_modified
{"type", "value"}, type {"key"}, revision). Some titles, page counts, genres and dates are
missing; dates come in the dump's mixed formats; many editions have several authors.
"""
import json
import os
import random
import sys

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
GENRES = ["Fiction.", "Biography.", "History.", "Juvenile literature.", "Poetry.", "Drama.",
          "Bibliography.", "Catalogs.", "Periodicals.", "Juvenile fiction.", "Congresses.",
          "Statistics.", "Textbooks.", "Criticism and interpretation.", "Handbooks, manuals, etc.",
          "Maps.", "Dictionaries.", "Exhibitions.", "Guidebooks.", "Sources.", "Pictorial works.",
          "Essays.", "Humor.", "Science fiction.", "Short stories."]
WORDS = ["river", "history", "garden", "night", "letters", "city", "science", "war", "house",
         "journey", "machine", "music", "silver", "winter", "island", "children", "law", "field",
         "stone", "light", "empire", "memory", "sea", "mountain", "theory", "practice", "voices"]
SUBJECTS = ["Education", "Agriculture", "Economics", "Medicine", "Travel", "Art", "Religion",
            "Engineering", "Chemistry", "Politics and government", "Social life and customs"]
LANGS = ["/languages/eng", "/languages/ger", "/languages/fre", "/languages/spa"]


def pub_date(rng, year):
    r = rng.random()
    if r < 0.40:
        return str(year)
    if r < 0.55:
        return f"{rng.choice(MONTHS)} {rng.randint(1, 28)}, {year}"
    if r < 0.65:
        return f"{rng.choice(MONTHS)} {year}"
    if r < 0.72:
        return f"{rng.randint(1, 12):02d} {year}"
    if r < 0.80:
        return f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if r < 0.86:
        return f"c{year}"
    if r < 0.91:
        return f"[{year}]"
    if r < 0.96:
        return f"{rng.choice(MONTHS)[:3]} {year}"
    return rng.choice(["n.d.", "19--", "unknown"])


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
    rng = random.Random(20211128)
    os.makedirs(out, exist_ok=True)
    authors = [f"/authors/OL{1000000 + i * 7}A" for i in range(700)]
    with open(os.path.join(out, "ol_cdump.json"), "w") as f:
        for i in range(n):
            year = int(min(2015, max(1890, rng.gauss(1962, 22))))
            rec = {"key": f"/books/OL{20000000 + i * 3}M",
                   "type": {"key": "/type/edition"},
                   "revision": rng.randint(1, 6),
                   "latest_revision": rng.randint(1, 6),
                   "created": {"type": "/type/datetime",
                               "value": f"2008-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T07:38:13.854568"},
                   "last_modified": {"type": "/type/datetime",
                                     "value": f"2010-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T08:04:07.512219"},
                   "languages": [{"key": rng.choice(LANGS)}],
                   "publishers": [f"{rng.choice(WORDS).title()} Press"]}
            if rng.random() > 0.04:
                rec["title"] = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 4))).capitalize()
            if rng.random() < 0.3:
                rec["subtitle"] = "a study of " + rng.choice(WORDS)
            if rng.random() > 0.08:
                rec["number_of_pages"] = rng.choice([rng.randint(4, 40), rng.randint(40, 600), rng.randint(100, 1200)])
            if rng.random() > 0.03:
                rec["publish_date"] = pub_date(rng, year)
            if rng.random() > 0.05:
                k = rng.choices([1, 2, 3, 4], weights=[60, 25, 10, 5])[0]
                # a skewed pool: some authors write (and co-write) far more than others
                rec["authors"] = [{"key": authors[min(699, int(rng.paretovariate(1.2) * 3) - 3)]}
                                  for _ in range(k)]
            if rng.random() < 0.45:
                rec["genres"] = rng.sample(GENRES, rng.randint(1, 3))
            if rng.random() < 0.6:
                rec["subjects"] = rng.sample(SUBJECTS, rng.randint(1, 3))
            f.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
