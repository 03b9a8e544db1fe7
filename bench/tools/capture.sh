#!/usr/bin/env bash
# Re-captures the project's own bench sets from the pinned commits (the exact commands used).
#
#   bench/tools/capture.sh pipelines|notebooks|jupyter [WORK]
#
# Needs: pyspark==4.3.0 (+ pyarrow, "pandas<3", zstandard), Java 17, the DEV benchmark's tools in
# $BENCH_TOOLS (default ../shared/bench/tools) with their JVM helper compiled (its README,
# "Re-running"), and bare mirrors of the repositories under $BENCH_MIRRORS (default /work/.mirror;
# nothing here downloads). WORK (default /tmp/plan2code-capture) receives checkouts, scratch copies
# the jobs may write into, and raw captures; bench/<set>/ receives plans, gold and manifest.
# Timings are not meaningful; Spark runs local[2] under `nice`.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
set_name="${1:?usage: capture.sh pipelines|notebooks|jupyter [WORK]}"
export WORK="${2:-/tmp/plan2code-capture}"
export BENCH_TOOLS="${BENCH_TOOLS:-$here/../../../shared/bench/tools}"
MIRRORS="${BENCH_MIRRORS:-/work/.mirror}"
mkdir -p "$WORK/src" "$WORK/run" "$WORK/cap" "$WORK/logs"

checkout() {  # checkout OWNER/NAME COMMIT -> $WORK/src/OWNER+NAME (blobs a mirror lacks are skipped)
  local dest="$WORK/src/${1/\//+}"
  [ -d "$dest" ] || python3 - "$MIRRORS/${1/\//+}/repo" "$2" "$dest" <<'PY'
import sys
sys.path.insert(0, __import__("os").environ["BENCH_TOOLS"])
import evaluate
evaluate.extract(*sys.argv[1:4])
PY
}

capture() {  # capture OWNER/NAME COMMIT PREFIX CAPDIR [--notebooks] ENTRY...
  local repo="$1" commit="$2" prefix="$3" capdir="$4"; shift 4
  checkout "$repo" "$commit"
  rm -rf "$WORK/run/${repo/\//+}" "$WORK/cap/$capdir"
  cp -r "$WORK/src/${repo/\//+}" "$WORK/run/${repo/\//+}"
  mkdir -p "$(dirname "$WORK/logs/$capdir.log")"
  # cwd = the scratch copy: the JVM resolves the jobs' relative paths (data/…, output/…) there
  (cd "$WORK/run/${repo/\//+}" && nice -n 10 python3 "$here/run_capture.py" "${@:1:1}" . "$WORK/cap/$capdir" \
      "$repo" "$commit" "$prefix" "${@:2}") > "$WORK/logs/$capdir.log" 2>&1 || true
  grep '\[run_capture\]' "$WORK/logs/$capdir.log" | tail -n 3 || true
}

case "$set_name" in
pipelines)
  while read -r name commit prefix; do
    capture "MDShahedurRahman/$name" "$commit" "$prefix" "$name" "" main.py
  done <<'EOF'
banking_data_pipeline facd03d366bbe023da94bd18ca0d0059d8324c43 bank
telecom_cdr_pipeline 8b24ecd01995b9072f00a9274c022fe7014887e9 tcdr
smart_logistics_pipeline c8fd07e6b6e46f883da8aaa9090a39e7a78c63de logi
ecommerce_orders_pipeline 066b26da208b9020d0e65b38d7c6ce9487f5c81d ecom
rideshare_pipeline 2eae3bfd7c65af293975c8c049d1875ccd3145b0 ride
healthcare_data_pipeline 11b5a90a120ab9624cc4253de903a3d34a7c3f51 hlth
EOF
  ;;
notebooks)
  repo=azurelib-academy/azure-databricks-pyspark-examples
  commit=fad5ff51c28da1fd54ccb60166e2847dd2b55df1
  checkout "$repo" "$commit"
  # each notebook reads its data from /mnt/…; the files are committed beside it
  export PATH_MAP="/mnt/practice/read_write_csv={entry_dir}/Source Files,/mnt/practice/read_write_json={entry_dir}/Source Files,/mnt/practice/read_write_parquet={entry_dir}/Source Files,/mnt/formulaoneadls/practice/={entry_dir}/,/mnt/practice/={entry_dir}/"
  (cd "$WORK/src/${repo/\//+}" && ls ./*/*.py | sed 's|^\./||' | sort -V) > "$WORK/logs/nb_list.txt"
  split -n l/4 -d "$WORK/logs/nb_list.txt" "$WORK/logs/nb_batch_"
  for b in "$WORK"/logs/nb_batch_0*; do
    mapfile -t files < "$b"
    capture "$repo" "$commit" azl "azl/$(basename "$b")" --notebooks "${files[@]}"
  done
  # a second repository with `# MAGIC %sql` cells over temp views made in Python cells
  repo=spandey35/Learning
  commit=c02a9bfa55b80fdda6fcf99fb8d000963361decb
  checkout "$repo" "$commit"
  unset PATH_MAP
  mapfile -t files < <(cd "$WORK/src/${repo/\//+}" && ls PySpark/Self-Practice/001_PysparkPractice/*.py | sort -V)
  capture "$repo" "$commit" spl spl --notebooks "${files[@]}"
  ;;
jupyter)
  # Jupyter notebooks (.ipynb) of four tutorial repositories; each notebook reads the data kept
  # beside it (the driver runs it with cwd = its folder, as a Jupyter kernel starts)
  # (PATH_MAP: where a repository's notebooks expect their data — a container's mount — and
  # where the checkout keeps it; `-` for none)
  while read -r repo commit prefix path_map; do
    checkout "$repo" "$commit"
    if [ "$path_map" = - ]; then unset PATH_MAP; else export PATH_MAP="$path_map"; fi
    mapfile -t files < <(cd "$WORK/src/${repo/\//+}" && find . -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' | sed 's|^\./||' | sort -V)
    capture "$repo" "$commit" "$prefix" "$prefix" --notebooks "${files[@]}"
  done <<'EOF'
tirthajyoti/Spark-with-Python 670c35a8e3dc659d4090a3e644f4cecbbd48923f tsp -
krishnaik06/Pyspark-With-Python c0a945cc54bd55d25af7c660ccc7aeb70d02d3e4 kpy -
coder2j/pyspark-tutorial 860be30c06bbe1fb8f58aacfc118ab8757d06f88 c2j -
subhamkharwal/pyspark-zero-to-hero 90ac0be7a5ee376c213dbb468fd4e21a0d594f5b pzh /data/input/={entry_dir}/datasets/,data/input/={entry_dir}/datasets/
EOF
  ;;
*) echo "unknown set $set_name" >&2; exit 2 ;;
esac
python3 "$here/package_sets.py" "$here/../$set_name/package.json"
