#===- python/vegasflow/spark.py - VEGAS+ iterations as Spark tasks ---------===#
#
#   spark-submit .../vegasflow/spark.py FILE.vf --parts N [settings] (with
#   the vegasflow module installed on every node; docs/user-guide.md,
#   "Task engines"), or
#   python3 -m vegasflow.spark FILE.vf --parts N [--master URL] [settings]
#
# The Dask driver's loop (_tasks.py) with Spark's map: one partition per
# part, mapPartitions runs compute_part (in the executor's Python, through
# the vegasflow module), collect brings the bytes back.
# Spark cannot place a task on a chosen executor, so parts stay equal
# (_tasks.Balance needs placement): give 2-4 parts per executor.
# NOT RUN in this project's CI: Spark is not packaged by Debian; only the
# calls below are untested, the protocol under them is the Dask driver's.
#
#===------------------------------------------------------------------------===#
import sys

try:
    from . import _tasks
except ImportError:  # run as a file by spark-submit
    from vegasflow import _tasks


def spark_map(sc):
    def map_parts(run, state, split):
        n, weights = split.nparts, split.weights

        def compute(indices):
            return [(None, run.compute_part(state, i, n, weights))
                    for i in indices]
        return sc.parallelize(range(n), n).mapPartitions(compute).collect()
    return map_parts


def main():
    def options(ap):
        ap.add_argument("--master", default=None,
                        help="Spark master URL (default: spark-submit's)")
    args, settings = _tasks.arguments("python3 -m vegasflow.spark", options)
    run = _tasks.make_run("vegasflow.spark", args, settings)
    if run is None:
        return 1
    from pyspark import SparkConf, SparkContext
    conf = SparkConf().setAppName("vegasflow")
    if args.master:
        conf = conf.setMaster(args.master)
    sc = SparkContext(conf=conf)
    try:
        doc = _tasks.integrate(run, args.parts, spark_map(sc), args.state)
    except _tasks.TaskError as e:
        print(f"vegasflow.spark: error: {e}", file=sys.stderr)
        return 1
    finally:
        sc.stop()
    _tasks.report(doc, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
