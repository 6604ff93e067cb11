#===- tests/python/test_tasks.py - The task protocol in-process -------------===#
#
# vegasflow._tasks.Run on the library's task API (vf/Tasks.h) through the
# module: a run of parts cut equally and by weights, merged in shuffled
# order, is bitwise vegasc's run alone, with no process started (and so
# is a multi-channel integrand's, every channel's row included); the
# source is compiled once per process and a part releases the GIL; the
# initial state is vegasc --task-init's bytes and the parts' sums are
# vegasc --task-part's, so parts of both doors merge; a corrupt,
# truncated or foreign state or part, and a setting the protocol does not
# take, raise vegasflow.Error naming what is wrong; the deprecated
# vegasc= path still works.
#
#===------------------------------------------------------------------------===#
import json
import os
import random
import subprocess
import threading
import time

import pytest

import vegasflow as vf
from vegasflow import _tasks

from conftest import LEPAGE

SETTINGS = ["--seed", "9", "--calls", "150000", "--iterations", "3",
            "--warmup", "1", "--devices", "cpu:2"]
# A part's bytes: magic, version, state hash, pass count, then per pass
# groups, begin, end (52 for the first), busy seconds (a measurement), the
# word count, the words; the checksum.
HEADER, WORDS_AT = 52, 68


def fingerprint(doc):
    return ([(it["mean"], it["error"], it["cumulative_mean"],
              it["cumulative_error"], it["samples"])
             for it in doc["iterations"]],
            doc["result"]["mean"], doc["result"]["error"],
            doc["result"]["chi2_dof"], doc["result"]["Q"])


@pytest.fixture(scope="module")
def reference(vegasc):
    out = subprocess.run([vegasc, str(LEPAGE), "-q", "--json", "-"] +
                         SETTINGS, capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


@pytest.fixture
def no_processes(monkeypatch):
    """Any attempt to start a process fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError(f"a process was started: {args!r}")
    for name in ("run", "Popen", "call", "check_call", "check_output"):
        monkeypatch.setattr(subprocess, name, refuse)
    for name in ("system", "fork", "posix_spawn", "posix_spawnp",
                 "execv", "execve"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse)


def shuffled_parts(seed):
    """A map_parts that computes every part here, in a shuffled order,
    weighted unequally from the second iteration on."""
    rng = random.Random(seed)
    calls = []

    def map_parts(run, state, split):
        weights = [1.0, 3.0, 0.5][:split.nparts] if calls else None
        calls.append(split.nparts)
        order = list(range(split.nparts))
        rng.shuffle(order)
        return [(None, run.compute_part(state, i, split.nparts, weights))
                for i in order]
    return map_parts


def test_in_process_run_is_bitwise_vegasc(reference, no_processes, tmp_path):
    run = _tasks.Run(LEPAGE, SETTINGS)
    state = tmp_path / "run.state"
    doc = _tasks.integrate(run, 3, shuffled_parts(1), str(state))
    assert fingerprint(doc) == fingerprint(reference)
    assert run.progress(state.read_bytes()) == (4, 4)
    # A finished state only reports its result.
    again = _tasks.integrate(run, 3, shuffled_parts(2), str(state))
    assert fingerprint(again) == fingerprint(reference)


TWO_CHANNELS = """integrand split(x in [0, 1]^2) {
    channel peak {
        return exp(-50 * ((x[0] - 0.3)^2 + (x[1] - 0.6)^2))
    }
    channel smooth {
        return 1 + x[0] * x[1]
    }
}
"""


def test_multi_channel_parts_are_bitwise_vegasc(vegasc, tmp_path):
    """A part holds its groups of every channel's pass: 3 parts per
    iteration, weighted and shuffled, give vegasc's rows and channels."""
    src = tmp_path / "split.vf"
    src.write_text(TWO_CHANNELS)
    ref = json.loads(subprocess.run(
        [vegasc, str(src), "-q", "--json", "-"] + SETTINGS,
        capture_output=True, text=True, check=True).stdout)
    doc = _tasks.integrate(_tasks.Run(src, SETTINGS), 3, shuffled_parts(5))
    assert fingerprint(doc) == fingerprint(ref)
    assert [it["channels"] for it in doc["iterations"]] == \
        [it["channels"] for it in ref["iterations"]]


def test_one_compile_per_process(monkeypatch):
    """A worker compiles a run's source once, whatever it computes."""
    from vegasflow import _compile
    compiled = []

    def counting(*args, **kwargs):
        compiled.append(args)
        return real(*args, **kwargs)
    real = _compile.compile
    monkeypatch.setattr(_compile, "compile", counting)
    settings = SETTINGS + ["--iterations", "1", "-w"]  # not cached yet
    run = _tasks.Run(LEPAGE, settings)
    _tasks.integrate(run, 2, shuffled_parts(4))
    again = _tasks.Run(LEPAGE, settings)  # as a worker unpickles it
    again.compute_part(again.initial_state(), 0, 2)
    assert len(compiled) == 1


def test_gil_released_while_a_part_computes():
    """Another thread (a Dask worker's heartbeat) runs during a part."""
    run = _tasks.Run(LEPAGE, ["--calls", "2e6", "--iterations", "1",
                              "--warmup", "0", "--devices", "cpu:1"])
    s0 = run.initial_state()
    ticks, stop = [], threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)
    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        begin = time.monotonic()
        run.compute_part(s0, 0, 1)
        end = time.monotonic()
    finally:
        stop.set()
        ticker.join()
    during = [t for t in ticks if begin < t < end]
    # At least one tick per 20 ms of the part (a held GIL allows none).
    assert len(during) >= (end - begin) / 0.02, (len(during), end - begin)


def test_same_bytes_as_vegasc(vegasc, tmp_path):
    run = _tasks.Run(LEPAGE, SETTINGS)
    s0 = run.initial_state()
    subprocess.run([vegasc, str(LEPAGE)] + SETTINGS +
                   ["--task-init", str(tmp_path / "s0")], check=True)
    assert s0 == (tmp_path / "s0").read_bytes()
    mine = run.compute_part(s0, 1, 3)
    subprocess.run([vegasc, str(LEPAGE)] + SETTINGS +
                   ["--task-part", "1/3", "--state", str(tmp_path / "s0"),
                    "--out", str(tmp_path / "p1"), "-q"], check=True)
    theirs = (tmp_path / "p1").read_bytes()
    assert mine[:HEADER] == theirs[:HEADER]
    assert mine[WORDS_AT:-8] == theirs[WORDS_AT:-8]
    # Parts of both doors merge into one iteration.
    parts = [run.compute_part(s0, 0, 3), theirs, run.compute_part(s0, 2, 3)]
    nxt, doc = run.merge(s0, parts)
    assert run.progress(nxt) == (1, 4) and len(doc["iterations"]) == 1


def test_corrupt_input_raises_error():
    run = _tasks.Run(LEPAGE, SETTINGS)
    s0 = run.initial_state()
    part = run.compute_part(s0, 0, 1)

    def refused(fn, *args):
        with pytest.raises(vf.Error) as e:
            fn(*args)
        return str(e.value)

    assert "is not a vegasflow checkpoint" in refused(
        run.compute_part, b"hello", 0, 2)
    assert "damaged or truncated" in refused(run.compute_part, s0[:-3], 0, 2)
    flipped = bytearray(s0)
    flipped[40] ^= 1
    assert "damaged or truncated" in refused(run.progress, bytes(flipped))
    assert "not a vegasflow part" in refused(run.merge, s0, [b"x" * 80])
    assert "truncated" in refused(run.merge, s0, [part[:-1]])
    bad = bytearray(part)
    bad[WORDS_AT + 9] ^= 1
    assert "checksum" in refused(run.merge, s0, [bytes(bad)])
    assert "groups" in refused(run.merge, s0,
                               [run.compute_part(s0, 0, 2)])  # one missing
    assert "parts, but the state's next iteration has only" in refused(
        run.compute_part, s0, 0, 65)
    other = _tasks.Run(LEPAGE, ["--seed", "10"] + SETTINGS[2:])
    assert "seed" in refused(other.compute_part, s0, 0, 2)
    assert "another state" in refused(other.merge, other.initial_state(),
                                      [part])


def test_settings_the_protocol_does_not_take():
    with pytest.raises(vf.Error, match="--events"):
        _tasks.Run(LEPAGE, SETTINGS + ["--events", "10"])
    with pytest.raises(vf.Error, match="calls"):
        _tasks.Run(LEPAGE, ["--calls", "1"])
    with pytest.raises(vf.Error, match="no parameter|'b'"):
        _tasks.Run(LEPAGE, ["--param", "b=2"])
    run = _tasks.Run(LEPAGE, ["--calls=1e5", "--param", "a=0.2", "-q"])
    assert run.progress(run.initial_state()) == (0, 0)


def test_deprecated_vegasc_path(vegasc, reference):
    with pytest.warns(DeprecationWarning):
        run = _tasks.Run(LEPAGE, SETTINGS, vegasc)
    doc = _tasks.integrate(run, 2, shuffled_parts(3))
    assert fingerprint(doc) == fingerprint(reference)
