#!/usr/bin/env python3
"""Seeded stand-in for the Lahman baseball archive's Batting.csv (the benchmark job
BaseballBatting reads ./src/main/resources/Batting.csv; the mirror lacks that blob).
Same header as the archive's file (22 columns); values drawn from plausible ranges.
usage: gen_batting.py OUT_CSV [ROWS]"""
import csv, random, sys

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
rng = random.Random(1871)
cols = ["playerID", "yearID", "stint", "teamID", "lgID", "G", "AB", "R", "H", "2B", "3B", "HR",
        "RBI", "SB", "CS", "BB", "SO", "IBB", "HBP", "SH", "SF", "GIDP"]
teams = [("BOS", "AL"), ("NYA", "AL"), ("CHA", "AL"), ("DET", "AL"), ("CLE", "AL"), ("OAK", "AL"),
         ("CHN", "NL"), ("NYN", "NL"), ("SLN", "NL"), ("LAN", "NL"), ("SFN", "NL"), ("PIT", "NL")]
last = ["smith", "jones", "brown", "johns", "mille", "davis", "garci", "rodri", "wilso", "marti"]
with open(out, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(cols)
    for i in range(n):
        pid = "%s%s%02d" % (rng.choice(last), chr(97 + rng.randrange(26)), rng.randrange(1, 20))
        team, lg = rng.choice(teams)
        g = rng.randint(1, 162)
        ab = rng.randint(0, 4 * g)
        h = rng.randint(0, ab // 3 + 1) if ab else 0
        d2, d3, hr = rng.randint(0, h // 4 + 1), rng.randint(0, h // 20 + 1), rng.randint(0, h // 6 + 1)
        w.writerow([pid, rng.randint(1871, 2018), rng.choice([1, 1, 1, 2]), team, lg, g, ab,
                    rng.randint(0, ab // 4 + 1), h, d2, d3, hr, rng.randint(0, h // 2 + 1),
                    rng.randint(0, 30), rng.randint(0, 15), rng.randint(0, ab // 8 + 1),
                    rng.randint(0, ab // 5 + 1), rng.choice(["", 0, 1, 2]), rng.randint(0, 8),
                    rng.randint(0, 10), rng.choice(["", 0, 1, 3]), rng.choice(["", 0, 2, 9])])
