#===- tests/python/test_signals.py - Ctrl-C during a run -------------------===#
#
# A child process runs a long integration with a checkpoint and is sent
# SIGINT once its first measured iteration is done. It must raise KeyboardInterrupt
# promptly (the run is cancelled within the current iteration, which is
# dropped), keep the completed iterations in memory and in a checkpoint
# that loads, and (compiled) let the same run() continue to the
# uninterrupted result, bit for bit.
#
#===------------------------------------------------------------------------===#
import json
import os
import signal
import subprocess
import sys
import time

CHILD = r"""
import json, sys, time
import numpy as np
import vegasflow as vf
from conftest import GAUSS4
kind, ck = sys.argv[1], sys.argv[2]
opts = dict(calls=200000, iterations=40, warmup=1, devices="cpu:2", seed=3)
if kind == "vf":
    f = vf.compile(GAUSS4).gauss
else:
    def f(x):
        time.sleep(0.002)
        return np.cos(x).prod(axis=1)
    opts.update(calls=20000, dim=3, warmup=0)
integ = vf.Integrator(f, checkpoint=ck, **opts)
told = []
def progress(p):
    # After a measured iteration: the result has a mean to compare.
    if p.done >= 2 and not told:
        told.append(1)
        print("running", flush=True)
out = {}
try:
    integ(progress=progress)
    out["finished"] = True
except KeyboardInterrupt:
    out["interrupted_at"] = time.time()
    out["done"] = integ.plan["done"]
    fresh = vf.Integrator(f, **opts)
    fresh.load_state(ck)
    out["checkpoint_done"] = fresh.plan["done"]
    out["checkpoint_mean"] = fresh.result.mean
    out["memory_mean"] = integ.result.mean
    if kind == "vf":
        # The same run() continues in memory, and from the checkpoint, to
        # the uninterrupted result.
        full = vf.Integrator(f, **opts)().mean
        out["resumed_equal"] = integ().mean == full
        out["checkpoint_resumed_equal"] = fresh().mean == full
print(json.dumps(out), flush=True)
"""


def interrupt(kind, tmp_path):
    ck = tmp_path / "run.ckpt"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(__file__), os.environ.get("PYTHONPATH", "")]))
    child = subprocess.Popen([sys.executable, "-c", CHILD, kind, str(ck)],
                             stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert child.stdout.readline().strip() == "running"
        sent = time.time()
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 0, out
    return json.loads(out), sent


def test_ctrl_c_compiled_cancels_the_iteration(tmp_path):
    out, sent = interrupt("vf", tmp_path)
    assert "finished" not in out
    # One iteration of 200000 calls takes well under a second.
    assert out["interrupted_at"] - sent < 5
    assert 2 <= out["done"] < 41
    assert out["checkpoint_done"] == out["done"]
    assert out["checkpoint_mean"] == out["memory_mean"]
    assert out["resumed_equal"] and out["checkpoint_resumed_equal"]


def test_ctrl_c_numpy_stops_at_once(tmp_path):
    out, sent = interrupt("numpy", tmp_path)
    assert "finished" not in out
    assert out["interrupted_at"] - sent < 5
    # The interrupted iteration is dropped; the checkpoint has the last
    # finished one, as the integrator's statistics do.
    assert out["checkpoint_done"] >= 1
    assert out["checkpoint_done"] == out["done"]
    assert out["checkpoint_mean"] == out["memory_mean"]
