"""Small Stack Overflow-shaped data for bench/catalog (the project's own generator, not the
repository's): the six tables the capstone's bronze step (`run_dbx(spark, year='*')`) reads from
the public Stack Overflow parquet export, laid out as it reads them — folders `posts/`,
`comments/`, `votes/` and single files `users.parquet`, `badges.parquet`, `postlinks.parquet` —
with that export's column names and the kinds of the repository's bronze DDL (`ParentId` binary,
which the job casts to string; `PostTypeId` a digit string; `Tags` as `a|b|c`). Seeded; dates in
2008. usage: gen_stackoverflow.py OUT_DIR"""
import datetime as dt
import os
import random
import sys

import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
rng = random.Random(2008)
N_USERS, N_POSTS, N_COMMENTS, N_VOTES, N_BADGES, N_LINKS = 3000, 12000, 12000, 16000, 4000, 2000
T0 = dt.datetime(2008, 1, 1, tzinfo=dt.timezone.utc)
TAGS = ["python", "java", "c#", "javascript", "sql", "php", "c++", "ruby", "html", ".net", "linux",
        "git", "regex", "android", "iphone", "css", "mysql", "perl", "django", "jquery"]
WORDS = "how to why does what is the best way get set list array string file error in with from " \
        "using not working value function class object database query loop return".split()


def ts(lo_days=0, hi_days=365):
    return T0 + dt.timedelta(seconds=rng.randint(lo_days * 86400, hi_days * 86400))


def text(k):
    return " ".join(rng.choice(WORDS) for _ in range(k))


def maybe(v, p=0.8):
    return v if rng.random() < p else None


def write(name, cols, schema):
    """`name/` -> a folder with one part file; `name.parquet` -> a single file."""
    if name.endswith(".parquet"):
        path = f"{out}/{name}"
    else:
        os.makedirs(f"{out}/{name}", exist_ok=True)
        path = f"{out}/{name}/part-0.parquet"
    os.makedirs(out, exist_ok=True)
    pq.write_table(pa.table(cols, schema=schema), path)


ms = pa.timestamp("ms", tz="UTC")  # the export's DateTime64 columns: UTC instants
# users
u_created = [ts(0, 330) for _ in range(N_USERS)]
write("users.parquet", {
    "Id": list(range(1, N_USERS + 1)),
    "Reputation": [str(rng.randint(1, 20000)) for _ in range(N_USERS)],
    "CreationDate": u_created,
    "DisplayName": [f"user{i}" for i in range(1, N_USERS + 1)],
    "LastAccessDate": [c + dt.timedelta(days=rng.randint(0, 300)) for c in u_created],
    "AboutMe": [maybe(text(8), 0.4) for _ in range(N_USERS)],
    "Views": [rng.randint(0, 5000) for _ in range(N_USERS)],
    "UpVotes": [rng.randint(0, 900) for _ in range(N_USERS)],
    "DownVotes": [rng.randint(0, 90) for _ in range(N_USERS)],
    "WebsiteUrl": [maybe(f"http://example.org/u{i}", 0.3) for i in range(N_USERS)],
    "Location": [maybe(rng.choice(["London", "Seattle", "Berlin", "Bangalore", "Sao Paulo"]), 0.6)
                 for _ in range(N_USERS)],
    "AccountId": [100000 + i for i in range(N_USERS)],
}, pa.schema([("Id", pa.int32()), ("Reputation", pa.string()), ("CreationDate", ms),
              ("DisplayName", pa.string()), ("LastAccessDate", ms), ("AboutMe", pa.string()),
              ("Views", pa.int32()), ("UpVotes", pa.int32()), ("DownVotes", pa.int32()),
              ("WebsiteUrl", pa.string()), ("Location", pa.string()), ("AccountId", pa.int32())]))

# posts: about a third questions (PostTypeId "1"), the rest answers ("2") and a few wikis
p_type = [rng.choices(["1", "2", "4", "5"], [35, 60, 3, 2])[0] for _ in range(N_POSTS)]
p_created = [ts(0, 365) for _ in range(N_POSTS)]
questions = [i + 1 for i, t in enumerate(p_type) if t == "1"]
write("posts", {
    "Id": list(range(1, N_POSTS + 1)),
    "PostTypeId": p_type,
    "AcceptedAnswerId": [maybe(rng.randint(1, N_POSTS), 0.4) if t == "1" else None for t in p_type],
    "CreationDate": p_created,
    "Score": [rng.randint(-3, 120) for _ in range(N_POSTS)],
    "ViewCount": [rng.randint(5, 90000) if t == "1" else None for t in p_type],
    "Body": [text(20) for _ in range(N_POSTS)],
    "OwnerUserId": [maybe(rng.randint(1, N_USERS), 0.95) for _ in range(N_POSTS)],
    "OwnerDisplayName": [maybe(f"user{rng.randint(1, N_USERS)}", 0.1) for _ in range(N_POSTS)],
    "LastEditorUserId": [maybe(rng.randint(1, N_USERS), 0.3) for _ in range(N_POSTS)],
    "LastEditorDisplayName": [None] * N_POSTS,
    "LastEditDate": [maybe(c + dt.timedelta(days=rng.randint(0, 60)), 0.3) for c in p_created],
    "LastActivityDate": [c + dt.timedelta(days=rng.randint(0, 90)) for c in p_created],
    "Title": [text(7) if t == "1" else None for t in p_type],
    "Tags": ["|".join(rng.sample(TAGS, rng.randint(1, 5))) if t == "1" else None for t in p_type],
    "AnswerCount": [rng.randint(0, 12) if t == "1" else None for t in p_type],
    "CommentCount": [rng.randint(0, 9) for _ in range(N_POSTS)],
    "FavoriteCount": [maybe(rng.randint(0, 50), 0.3) for _ in range(N_POSTS)],
    "ContentLicense": ["CC BY-SA 2.5"] * N_POSTS,
    "ParentId": [str(rng.choice(questions)).encode() if t == "2" else b"" for t in p_type],
    "CommunityOwnedDate": [None] * N_POSTS,
    "ClosedDate": [maybe(c + dt.timedelta(days=rng.randint(1, 30)), 0.05) for c in p_created],
}, pa.schema([("Id", pa.int32()), ("PostTypeId", pa.string()), ("AcceptedAnswerId", pa.int32()),
              ("CreationDate", ms), ("Score", pa.int32()), ("ViewCount", pa.int32()),
              ("Body", pa.string()), ("OwnerUserId", pa.int32()), ("OwnerDisplayName", pa.string()),
              ("LastEditorUserId", pa.int32()), ("LastEditorDisplayName", pa.string()),
              ("LastEditDate", ms), ("LastActivityDate", ms), ("Title", pa.string()),
              ("Tags", pa.string()), ("AnswerCount", pa.int16()), ("CommentCount", pa.int16()),
              ("FavoriteCount", pa.int16()), ("ContentLicense", pa.string()),
              ("ParentId", pa.binary()), ("CommunityOwnedDate", ms), ("ClosedDate", ms)]))

write("comments", {
    "Id": list(range(1, N_COMMENTS + 1)),
    "PostId": [rng.randint(1, N_POSTS) for _ in range(N_COMMENTS)],
    "Score": [rng.randint(0, 20) for _ in range(N_COMMENTS)],
    "Text": [text(12) for _ in range(N_COMMENTS)],
    "CreationDate": [ts(0, 365) for _ in range(N_COMMENTS)],
    "UserId": [maybe(rng.randint(1, N_USERS), 0.97) for _ in range(N_COMMENTS)],
    "UserDisplayName": [None] * N_COMMENTS,
}, pa.schema([("Id", pa.int32()), ("PostId", pa.int32()), ("Score", pa.int16()), ("Text", pa.string()),
              ("CreationDate", ms), ("UserId", pa.int32()), ("UserDisplayName", pa.string())]))

write("votes", {
    "Id": list(range(1, N_VOTES + 1)),
    "PostId": [rng.randint(1, N_POSTS) for _ in range(N_VOTES)],
    "VoteTypeId": [rng.choice([1, 2, 2, 2, 3, 5]) for _ in range(N_VOTES)],
    "CreationDate": [ts(0, 365) for _ in range(N_VOTES)],
    "UserId": [maybe(rng.randint(1, N_USERS), 0.5) for _ in range(N_VOTES)],
    "BountyAmount": [maybe(rng.choice([50, 100, 200]), 0.02) for _ in range(N_VOTES)],
}, pa.schema([("Id", pa.int32()), ("PostId", pa.int32()), ("VoteTypeId", pa.int16()),
              ("CreationDate", ms), ("UserId", pa.int32()), ("BountyAmount", pa.int32())]))

write("badges.parquet", {
    "Id": list(range(1, N_BADGES + 1)),
    "UserId": [rng.randint(1, N_USERS) for _ in range(N_BADGES)],
    "Name": [rng.choice(["Teacher", "Student", "Editor", "Supporter", "Scholar", "Nice Answer"])
             for _ in range(N_BADGES)],
    "Date": [ts(0, 365) for _ in range(N_BADGES)],
    "Class": [rng.choice([1, 2, 3]) for _ in range(N_BADGES)],
    "TagBased": [0] * N_BADGES,
}, pa.schema([("Id", pa.int32()), ("UserId", pa.int32()), ("Name", pa.string()), ("Date", ms),
              ("Class", pa.int8()), ("TagBased", pa.int64())]))

write("postlinks.parquet", {
    "Id": list(range(1, N_LINKS + 1)),
    "CreationDate": [ts(0, 365) for _ in range(N_LINKS)],
    "PostId": [rng.choice(questions) for _ in range(N_LINKS)],
    "RelatedPostId": [rng.choice(questions) for _ in range(N_LINKS)],
    "LinkTypeId": [rng.choice([1, 3]) for _ in range(N_LINKS)],
}, pa.schema([("Id", pa.int64()), ("CreationDate", ms), ("PostId", pa.int32()),
              ("RelatedPostId", pa.int32()), ("LinkTypeId", pa.int8())]))
print(f"wrote {out}")
