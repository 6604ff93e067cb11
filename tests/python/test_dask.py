#===- tests/python/test_dask.py - python3 -m vegasflow.dask ----------------===#
#
# The Dask driver on a LocalCluster of processes, its tasks in the workers'
# processes through the module: bitwise vegasc's result alone, and resumed
# from --state; on the deprecated --vegasc path (a wrapper around vegasc
# lets these tests act inside a task), also when a worker is killed
# (kill -9) in the middle of an iteration and its task is rerun elsewhere;
# parts sized by each worker's throughput (Balance's arithmetic, and a
# LocalCluster whose one worker is a simulated device 25x slower than the
# other's: it gets fewer groups, the result is unchanged); --parts beyond
# the groups and settings the tasks do not take refused; the Spark driver's
# map on an in-process stand-in for Spark.
#
#===------------------------------------------------------------------------===#
import json
import os
import re
import struct
import subprocess
import sys

import pytest

from conftest import LEPAGE

SETTINGS = ["--seed", "9", "--calls", "150000", "--iterations", "3",
            "--warmup", "1"]


def fingerprint(doc):
    return ([(it["mean"], it["error"], it["cumulative_mean"],
              it["cumulative_error"]) for it in doc["iterations"]],
            doc["result"]["mean"], doc["result"]["error"],
            doc["result"]["chi2_dof"])


@pytest.fixture(scope="module")
def source():
    return LEPAGE


@pytest.fixture(scope="module")
def reference(source):
    out = subprocess.run([os.environ["VF_VEGASC"], str(source), "-q",
                          "--json", "-"] + SETTINGS, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def run_driver(source, tmp_path, vegasc, *extra, parts=3, settings=SETTINGS):
    """The driver; vegasc None: in-process tasks."""
    out = tmp_path / "result.json"
    door = ["--vegasc", str(vegasc)] if vegasc else []
    env = {k: v for k, v in os.environ.items() if k != "VEGASC"}
    p = subprocess.run([sys.executable, "-m", "vegasflow.dask", str(source),
                        "--scheduler", "local", "--workers", "2", "--parts",
                        str(parts), "--json", str(out)] + door + list(extra)
                       + settings, capture_output=True, text=True,
                       timeout=240, env=env)
    return p, out


def driver(source, tmp_path, vegasc, *extra, parts=3):
    p, out = run_driver(source, tmp_path, vegasc, *extra, parts=parts)
    assert p.returncode == 0, p.stderr
    return json.loads(out.read_text())


def test_local_cluster_bitwise(source, reference, tmp_path):
    state = tmp_path / "run.state"
    doc = driver(source, tmp_path, None, "--state", str(state))
    assert fingerprint(doc) == fingerprint(reference)
    # The saved state is the finished run: a second call only reports it.
    again = driver(source, tmp_path, None, "--state", str(state))
    assert fingerprint(again) == fingerprint(reference)


def test_killed_worker_is_retried(source, reference, tmp_path):
    mark = tmp_path / "killed"
    # The first part 1 of 3 kills its worker process (vegasc's parent).
    wrapper = tmp_path / "vegasc-killer"
    wrapper.write_text(
        "#!/bin/sh\n"
        "case \" $* \" in *' --task-part 1/3 '*)\n"
        f"  if mkdir '{mark}' 2>/dev/null; then kill -9 $PPID; exit 1; fi;;\n"
        "esac\n"
        f"exec '{os.environ['VF_VEGASC']}' \"$@\"\n")
    wrapper.chmod(0o755)
    doc = driver(source, tmp_path, wrapper)
    assert mark.exists(), "no worker was killed"
    assert fingerprint(doc) == fingerprint(reference)


def test_driver_killed_resumes_from_its_state(source, reference, tmp_path):
    """The drivers' shared loop, stopped after two merges (as a killed
    driver would be), resumes from --state and ends bitwise."""
    from vegasflow import _tasks
    run = _tasks.Run(source, SETTINGS)
    state = tmp_path / "run.state"
    calls = []

    def serial(run, st, split):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(split.nparts)
        return [(None, run.compute_part(st, i, split.nparts))
                for i in reversed(range(split.nparts))]

    with pytest.raises(KeyboardInterrupt):
        _tasks.integrate(run, 3, serial, str(state))
    assert run.progress(state.read_bytes())[0] == 2
    # Resumed with another split: the remaining iterations in 5 parts.
    doc = _tasks.integrate(
        run, 5, lambda r, st, sp: [(None, r.compute_part(st, i, sp.nparts))
                                   for i in range(sp.nparts)], str(state))
    assert fingerprint(doc) == fingerprint(reference)
    assert len(doc["iterations"]) == 4


def test_balance_sizes_parts_by_throughput():
    from vegasflow import _tasks

    def part(begin, end, busy):
        return b"VFPART\0\0" + struct.pack("<IQQQQQdQ", 2, 7, 1, 64, begin,
                                           end, busy, 0) + b"\0" * 8

    b = _tasks.Balance()
    first = b.split(4, ["a", "b"])
    assert first.weights is None and first.workers == ["a", "b", "a", "b"]
    assert b.split(3, None).workers == [None] * 3
    # a: 32 groups in 1 s over two parts; b: 32 groups in 4 s.
    b.learn([("a", part(0, 16, 0.5)), ("b", part(16, 32, 2.0)),
             ("a", part(32, 48, 0.5)), ("b", part(48, 64, 2.0))])
    s = b.split(2, ["a", "b"])
    assert s.workers == ["a", "b"] and s.weights == [32.0, 8.0]
    s = b.split(4, ["a", "b"])  # two parts each share a worker's rate
    assert s.weights == [16.0, 4.0, 16.0, 4.0]
    s = b.split(3, ["a", "b", "c"])  # c not measured: the average rate
    assert s.weights == [32.0, 8.0, 20.0]
    b.learn([(None, part(0, 64, 1.0))])  # parts of unknown workers
    assert b.split(2, ["a", "b"]).weights is None


def test_slow_worker_gets_fewer_groups(source, reference, tmp_path):
    """One worker's parts run on a simulated device 25x slower than the
    other's (the first worker to run a part claims the slow one); from the
    second iteration on its parts are smaller, and the result is bitwise
    that of vegasc alone."""
    slow = tmp_path / "slow"
    wrapper = tmp_path / "vegasc-unequal"
    wrapper.write_text(
        "#!/bin/sh\n"
        "case \" $* \" in *' --task-part '*)\n"
        f"  mkdir '{slow}.d' 2>/dev/null && echo $PPID > '{slow}'\n"
        f"  while [ ! -s '{slow}' ]; do sleep 0.01; done\n"
        f"  if [ \"$(cat '{slow}')\" = $PPID ]; then rate=0.2; "
        "else rate=5; fi\n"
        f"  exec '{os.environ['VF_VEGASC']}' \"$@\" --devices sim:$rate;;\n"
        "esac\n"
        f"exec '{os.environ['VF_VEGASC']}' \"$@\"\n")
    wrapper.chmod(0o755)
    p, out = run_driver(source, tmp_path, wrapper, parts=2)
    assert p.returncode == 0, p.stderr
    assert fingerprint(json.loads(out.read_text())) == fingerprint(reference)
    sizes = [[int(g) for g in m.split()] for m in
             re.findall(r"groups per part: ([\d ]+)\)", p.stderr)]
    assert len(sizes) == 4 and abs(sizes[0][0] - sizes[0][1]) <= 1, p.stderr
    # Parts alternate over the sorted workers; which is slow is by chance.
    for later in sizes[1:]:
        assert max(later) >= 3 * min(later), p.stderr


def test_more_parts_than_groups(source, tmp_path):
    few = ["--seed", "1", "--calls", "20000", "--iterations", "2"]
    p, _ = run_driver(source, tmp_path, None, "--retries", "0", parts=40,
                      settings=few)
    assert p.returncode == 1
    assert re.search(r"40 parts, but the state's next iteration has only "
                     r"\d+ groups of tiles.*give at most \d+ parts",
                     p.stderr), p.stderr
    p, _ = run_driver(source, tmp_path, None, parts=65, settings=few)
    assert p.returncode == 2 and "--parts must be from 1 to 64" in p.stderr


def test_bad_settings_refused_before_the_cluster(source, tmp_path):
    p, _ = run_driver(source, tmp_path, None, settings=["--events", "5"])
    assert p.returncode == 1
    assert "vegasflow.dask: error: --events" in p.stderr, p.stderr


class _StandInRdd:
    """parallelize/mapPartitions/collect in-process, what vegasflow.spark
    calls, so only Spark itself is left untested (collect here returns the
    partitions last first: the merge takes parts in any order)."""

    def __init__(self, partitions):
        self.partitions = partitions

    def mapPartitions(self, f):
        return _StandInRdd([list(f(iter(p))) for p in self.partitions])

    def collect(self):
        return [x for p in reversed(self.partitions) for x in p]


class _StandInContext:
    def parallelize(self, items, slices):
        items = list(items)
        return _StandInRdd([items[k * len(items) // slices:
                                  (k + 1) * len(items) // slices]
                            for k in range(slices)])


def test_spark_map_on_a_stand_in(source, reference):
    from vegasflow import _tasks, spark
    run = _tasks.Run(source, SETTINGS)
    doc = _tasks.integrate(run, 3, spark.spark_map(_StandInContext()))
    assert fingerprint(doc) == fingerprint(reference)
