#===- tests/python/test_dask.py - python3 -m vegasflow.dask ----------------===#
#
# The Dask driver on a LocalCluster of processes: bitwise vegasc's result
# alone, also when a worker is killed (kill -9) in the middle of an
# iteration and its task is rerun elsewhere, and resumed from --state;
# the Spark driver's map on an in-process stand-in for Spark.
#
#===------------------------------------------------------------------------===#
import json
import os
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


def driver(source, tmp_path, vegasc, *extra):
    out = tmp_path / "result.json"
    p = subprocess.run([sys.executable, "-m", "vegasflow.dask", str(source),
                        "--scheduler", "local", "--workers", "2", "--parts",
                        "3", "--vegasc", str(vegasc), "--json", str(out)]
                       + list(extra) + SETTINGS, capture_output=True,
                       text=True, timeout=240)
    assert p.returncode == 0, p.stderr
    return json.loads(out.read_text())


def test_local_cluster_bitwise(source, reference, tmp_path):
    state = tmp_path / "run.state"
    doc = driver(source, tmp_path, os.environ["VF_VEGASC"], "--state",
                 str(state))
    assert fingerprint(doc) == fingerprint(reference)
    # The saved state is the finished run: a second call only reports it.
    again = driver(source, tmp_path, os.environ["VF_VEGASC"], "--state",
                   str(state))
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
    run = _tasks.Run(source, SETTINGS, os.environ["VF_VEGASC"])
    state = tmp_path / "run.state"
    calls = []

    def serial(run, st, n):
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append(n)
        return [run.compute_part(st, i, n) for i in reversed(range(n))]

    with pytest.raises(KeyboardInterrupt):
        _tasks.integrate(run, 3, serial, str(state))
    assert run.progress(state.read_bytes())[0] == 2
    # Resumed with another split: the remaining iterations in 5 parts.
    doc = _tasks.integrate(
        run, 5, lambda r, st, n: [r.compute_part(st, i, n) for i in range(n)],
        str(state))
    assert fingerprint(doc) == fingerprint(reference)
    assert len(doc["iterations"]) == 4


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
    run = _tasks.Run(source, SETTINGS, os.environ["VF_VEGASC"])
    doc = _tasks.integrate(run, 3, spark.spark_map(_StandInContext()))
    assert fingerprint(doc) == fingerprint(reference)
