#!/usr/bin/env bash
# Re-capture bench/pyspark-classes (the exact commands used). Run from the project root, with
# ../shared beside it and the repository's mirror fetched.
set -euo pipefail
W=${WORK:-/work/scratch-pyclasses}
REPO=deepubharani-code/genai-pyspark-pipeline1
COMMIT=49dbd2496e83b85b58193e0d9baba68561109766
MIRROR=/work/.mirror/deepubharani-code+genai-pyspark-pipeline1/repo
# DEV tools with their JVM helper compiled, and the project's own-set tools, copied to $W
cp -r ../shared/bench/tools $W/benchtools && chmod -R u+w $W/benchtools
(cd $W/benchtools && mkdir -p java/classes && javac -cp "$(python3 -c 'import pyspark,os;print(os.path.dirname(pyspark.__file__))')/jars/*" \
   -d java/classes java/benchcap/PlanDump.java && cd java/classes && jar cf ../benchcap.jar benchcap)
cp -r bench/tools $W/owntools        # includes package_pc.py (corrections 5-8, see README)
mkdir -p $W/src $W/run $W/cap $W/logs
python3 -c "import sys; sys.path.insert(0,'$W/benchtools'); import evaluate; evaluate.extract('$MIRROR','$COMMIT','$W/src/deepubharani-code+genai-pyspark-pipeline1')"
echo '{"src/spark_analytics.py": [], "run_analytics.py": [], "pandas_vs_pyspark_comparison.py": [], "PYSPARK_SNIPPETS.py": [], "spark_analytics_example.py": []}' > $W/logs/argv.json
# run A: with generated data
R=$W/run/A; rm -rf $R; cp -r $W/src/deepubharani-code+genai-pyspark-pipeline1 $R
(cd $R && nice -n 10 timeout 300 python3 generate_sample_data.py && nice -n 10 timeout 300 python3 generate_comparison_data.py --rows 100000 \
   && cp -r data/raw/orders.parquet data/raw/products.parquet data/)
sed -i '81s/\.over())/.over(__import__("pyspark.sql").sql.Window.partitionBy()))/' $R/PYSPARK_SNIPPETS.py
(cd $R && BENCH_TOOLS=$W/benchtools ENTRY_ARGV=$W/logs/argv.json SCRIPT_TIMEOUT=300 nice -n 10 timeout 1500 \
   python3 $W/owntools/run_capture.py . $W/cap/A $REPO $COMMIT pc \
   src/spark_analytics.py run_analytics.py pandas_vs_pyspark_comparison.py PYSPARK_SNIPPETS.py) > $W/logs/capA.log 2>&1
# run B: no data files -> spark_analytics_example.py runs its in-memory demo
R=$W/run/B; rm -rf $R; cp -r $W/src/deepubharani-code+genai-pyspark-pipeline1 $R
(cd $R && BENCH_TOOLS=$W/benchtools ENTRY_ARGV=$W/logs/argv.json SCRIPT_TIMEOUT=300 nice -n 10 timeout 900 \
   python3 $W/owntools/run_capture.py . $W/cap/B $REPO $COMMIT pc spark_analytics_example.py) > $W/logs/capB.log 2>&1
BENCH_TOOLS=$W/benchtools WORK=$W nice -n 10 python3 $W/owntools/package_pc.py bench/pyspark-classes/package.json
