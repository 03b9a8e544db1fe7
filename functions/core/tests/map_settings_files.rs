//! A job that reads its paths from a settings file (`application.conf`, `config.yaml`) names
//! no file in its code: the settings file does. A scan of the file one key names is the reader
//! its value is passed to, not a look-alike reader of another key's file. Likewise a path the
//! code builds with `os.path.join` names its file.

mod support;

/// A one-node plan scanning `file` (a path under the capture's working folder).
fn scan_of(file: &str) -> String {
    format!(
        "\
== Physical Plan ==
Scan csv  (1)


(1) Scan csv 
Output [2]: [id#1, name#2]
Batched: false
Location: InMemoryFileIndex [file:/tmp/run/app/{file}]
ReadSchema: struct<id:string,name:string>
"
    )
}

/// The file and lines the scan maps to, and the confidence it has.
fn scan_mapping(files: &[(&str, &str)], scanned: &str) -> (String, String, f64) {
    let mappings = support::map_against(files, &scan_of(scanned));
    let scan = mappings.iter().find(|m| m.dag_node_id == "1").expect("1");
    let code = scan.mapped_code.as_ref().expect("mapped");
    (code.file.clone(), code.lines.clone(), scan.confidence)
}

/// Each scanned file maps to `file` at the lines given.
fn assert_scans_map_to(files: &[(&str, &str)], file: &str, expected: &[(&str, &str)]) {
    for (scanned, lines) in expected {
        let (mapped_file, mapped_lines, _) = scan_mapping(files, scanned);
        assert_eq!(
            (mapped_file.as_str(), mapped_lines.as_str()),
            (file, *lines),
            "{scanned}"
        );
    }
}

const READERS_SCALA: &str = "\
package shop

import org.apache.spark.sql.{DataFrame, SparkSession}

object Readers {
  def readLeft[T](spark: SparkSession, path: String): DataFrame =
    spark.read.option(\"header\", \"true\").csv(path)

  def readRight(spark: SparkSession, path: String): DataFrame =
    spark.read.option(\"header\", \"true\").csv(path)
}
";

const MAIN_SCALA: &str = "\
package shop

import com.typesafe.config.ConfigFactory
import org.apache.spark.sql.SparkSession
import scala.util.Try

object Main {
  def main(args: Array[String]): Unit = {
    val spark = SparkSession.builder().getOrCreate()
    val config = ConfigFactory.load()
    val firstPath = Try(config.getString(\"shop.input.first\")).getOrElse(\"\")
    val first = Readers.readLeft[String](spark, firstPath)
    val second = Readers.readRight(spark, config.getConfig(\"shop.input\").getString(\"second\"))
    first.show()
    second.show()
  }
}
";

const APPLICATION_CONF: &str = "\
shop {
  input {
    first = \"data/orders.csv\"
    first = ${?FIRST_INPUT}
    second = \"data/customers.csv\"
  }
}
";

#[test]
fn a_scan_of_a_file_a_typesafe_config_names_is_the_reader_its_key_is_passed_to() {
    let files = [
        ("src/main/scala/shop/Readers.scala", READERS_SCALA),
        ("src/main/scala/shop/Main.scala", MAIN_SCALA),
        ("src/main/resources/application.conf", APPLICATION_CONF),
    ];
    assert_scans_map_to(
        &files,
        "src/main/scala/shop/Readers.scala",
        &[("data/orders.csv", "7-7"), ("data/customers.csv", "10-10")],
    );
}

const JOBS_PY: &str = "\
from pyspark.sql import SparkSession


def read_left(spark, path):
    return spark.read.option(\"header\", \"true\").csv(path)


def read_right(spark, path):
    return spark.read.option(\"header\", \"true\").csv(path)
";

const MAIN_PY: &str = "\
import yaml
from pyspark.sql import SparkSession
from jobs import read_left, read_right
from settings import load_settings


def main():
    spark = SparkSession.builder.getOrCreate()
    with open(\"conf/config.yaml\") as f:
        cfg = yaml.safe_load(f)
    settings = load_settings()
    first = read_left(spark, cfg[\"paths\"][\"first\"])
    second = read_right(spark, settings.paths.second)
    first.show()
    second.show()
";

const CONFIG_YAML: &str = "\
app_name: shop
paths:
  first: data/orders.csv
  second: data/customers.csv
";

#[test]
fn a_scan_of_a_file_a_yaml_config_names_is_the_reader_its_key_is_passed_to() {
    let files = [
        ("src/jobs.py", JOBS_PY),
        ("src/main.py", MAIN_PY),
        ("conf/config.yaml", CONFIG_YAML),
    ];
    assert_scans_map_to(
        &files,
        "src/jobs.py",
        &[("data/orders.csv", "5-5"), ("data/customers.csv", "9-9")],
    );
}

const MAIN_CONFIGPARSER_PY: &str = "\
import configparser
from pyspark.sql import SparkSession
from jobs import read_left, read_right


def main():
    spark = SparkSession.builder.getOrCreate()
    config = configparser.ConfigParser()
    config.read(\"config.ini\")
    first = read_left(spark, config.get(\"paths\", \"first\"))
    second = read_right(spark, config[\"paths\"][\"second\"])
    first.show()
    second.show()
";

const CONFIG_INI: &str = "\
[paths]
first = data/orders.csv
second = data/customers.csv
";

#[test]
fn a_scan_of_a_file_an_ini_file_names_is_the_reader_its_option_is_passed_to() {
    let files = [
        ("src/jobs.py", JOBS_PY),
        ("src/main.py", MAIN_CONFIGPARSER_PY),
        ("config.ini", CONFIG_INI),
    ];
    assert_scans_map_to(
        &files,
        "src/jobs.py",
        &[("data/orders.csv", "5-5"), ("data/customers.csv", "9-9")],
    );
}

const JOINED_PATHS_PY: &str = "\
import os
from pyspark.sql import SparkSession

DATA_DIR = \"/srv/shop\"
spark = SparkSession.builder.getOrCreate()
orders = spark.read.option(\"header\", \"true\").csv(os.path.join(DATA_DIR, \"raw\", \"orders.csv\"))
customers_path = os.path.join(DATA_DIR, \"raw\", \"customers.csv\")
customers = spark.read.option(\"header\", \"true\").csv(customers_path)
orders.show()
customers.show()
";

#[test]
fn a_path_os_path_join_builds_is_the_file_it_names() {
    // (without the path, each reader could have read either file: a coin toss at about 0.5)
    let files = [("jobs/load.py", JOINED_PATHS_PY)];
    for (scanned, lines) in [("raw/orders.csv", "6-6"), ("raw/customers.csv", "8-8")] {
        let (file, mapped, confidence) = scan_mapping(&files, scanned);
        assert_eq!((file.as_str(), mapped.as_str()), ("jobs/load.py", lines));
        assert!(confidence > 0.9, "{scanned}: {confidence}");
    }
}
