#!/usr/bin/env python3
"""Distributed runs: mpirun -np N vegasc (Open MPI, loopback).

    mpi.py VEGASC MPIEXEC LIBFAKECUDA

1. -np 1, 2, 3 give bitwise the single-process result (every iteration's
   estimate and error, the final result) and the same trained map
   (--save-grid, compared to 1e-12 relative, in fact bitwise); only rank 0
   prints the result.
2. A rank slowed to a tenth of the other's speed (simulated devices, one
   per rank) does not slow the iteration down: after the first iteration
   (which measures the ranks) it takes at most 15% longer than the fast
   rank alone, and the slow rank gets the smaller share.
3. A checkpoint written by 2 ranks and killed mid-run, resumed by 3 ranks,
   ends with bitwise the uninterrupted single-process result.
4. Two ranks on one machine share its GPUs (the fake driver's) and
   threads instead of each taking all; GPUs that cannot be used are
   notes, as for one process.
5. An error all ranks meet (a NaN) ends every rank with exit 1 and one
   message; a rank whose devices all fail says why and the others stop;
   a rank that cannot even set up (its GPU is missing) says why and the
   others stop instead of waiting for it.
6. Modes that do not integrate (--check, --eval) run on rank 0 alone.
"""
import os
import re
import signal
import subprocess
import sys
import time

from checkpoint import checkpoint_done as read_checkpoint
from vftest import check, finish, vegasc, workdir, write_source

LEPAGE = ("param a = 0.1\n"
          "integrand f(x in [0, 1]^4) = prod(i in 0..4: "
          "exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))\n")
CHEAP = "integrand f(x in [0, 1]^8) = x[0] * x[1] + x[2] + x[7]\n"


def fingerprint(doc):
    res = doc["result"]
    return (res["mean"], res["error"], res["chi2_dof"], res["Q"],
            [(it["mean"], it["error"], it["samples"]) for it in doc["iterations"]])


def mpi(n, exe, args, extra=None):
    """mpirun -np n exe args (+ --json FILE); extra: a second MPMD part."""
    # Waiting ranks yield the CPU instead of spinning: this machine has
    # fewer cores than some tests have ranks.
    cmd = [MPIEXEC, "--allow-run-as-root", "--oversubscribe",
           "--mca", "mpi_yield_when_idle", "1", "-np", str(n),
           exe] + [str(a) for a in args]
    if extra:
        cmd += [":", "-np", "1", exe] + [str(a) for a in extra]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def read_json(path):
    import json
    with open(path) as f:
        return json.load(f)


def file_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def same_result(exe):
    src = write_source("lepage4_mpi", LEPAGE)
    args = [src, "--seed", 9, "--calls", 200000, "--iterations", 3,
            "--warmup", 2, "--devices", "cpu:1"]
    ref = vegasc(exe, args + ["-q", "--save-grid", workdir() + "/ref.grid"])
    if not check(ref.rc == 0 and ref.doc, "single-process reference"):
        print(ref)
        return
    refgrid = file_bytes(workdir() + "/ref.grid")
    for n in (1, 2, 3):
        js, grid = workdir() + f"/np{n}.json", workdir() + f"/np{n}.grid"
        p = mpi(n, exe, args + ["--json", js, "--save-grid", grid])
        if not check(p.returncode == 0 and os.path.exists(js),
                     f"mpirun -np {n}: runs ({p.stderr.strip()[-300:]})"):
            continue
        doc = read_json(js)
        check(fingerprint(doc) == fingerprint(ref.doc),
              f"-np {n}: every iteration and the result bitwise the "
              f"single process's")
        # Stronger than the 1e-12 asked: the grid files are equal.
        check(file_bytes(grid) == refgrid,
              f"-np {n}: the trained map is bitwise the single process's")
        check(p.stdout.count("result = ") == 1,
              f"-np {n}: one result line (rank 0 prints)")
        if n > 1:
            ranks = doc.get("mpi", {}).get("per_rank", [])
            check(len(ranks) == n and all(r["samples"] > 0 for r in ranks) and
                  sum(r["samples"] for r in ranks) == doc["result"]["evaluations"],
                  f"-np {n}: per-rank samples {[r['samples'] for r in ranks]} "
                  f"add up to the evaluations")


def slow_rank(exe):
    src = write_source("cheap8_mpi", CHEAP)
    # Rates far below what one thread computes, so the CPU (2 cores, shared
    # with the MPI progress of the other rank) never sets the pace.
    args = [src, "-q", "--seed", 2, "--calls", 5e5, "--iterations", 3,
            "--warmup", 1]
    fast = vegasc(exe, args + ["--devices", "sim:0.5"])
    js = workdir() + "/slow.json"
    p = mpi(1, exe, args + ["--devices", "sim:0.5", "--json", js],
            extra=args + ["--devices", "sim:0.05"])
    if not check(fast.rc == 0 and p.returncode == 0 and os.path.exists(js),
                 f"a fast and a slow rank run ({p.stderr.strip()[-300:]})"):
        return
    doc = read_json(js)
    t_fast = sum(it["time_s"] for it in fast.doc["iterations"][1:])
    t_both = sum(it["time_s"] for it in doc["iterations"][1:])
    check(t_both <= 1.15 * t_fast,
          f"with a rank 10x slower the iterations took {t_both:.2f} s, "
          f"the fast rank alone {t_fast:.2f} s (at most 15% more)")
    last = doc["iterations"][-1]["ranks"]
    check(last[1]["samples"] < last[0]["samples"],
          f"the slow rank got the smaller share {[r['samples'] for r in last]}")
    check(fingerprint(doc) == fingerprint(fast.doc),
          "and the result is bitwise the single process's")


def resume_other_rank_count(exe):
    src = write_source("lepage4_ckpt", LEPAGE)
    ck = workdir() + "/mpi.ckpt"
    args = [src, "--seed", 3, "--calls", 300000, "--iterations", 6,
            "--warmup", 1]
    ref = vegasc(exe, args + ["-q", "--devices", "cpu:1"])
    check(ref.rc == 0 and ref.doc, "uninterrupted single-process run")
    cmd = [MPIEXEC, "--allow-run-as-root", "--oversubscribe",
           "--mca", "mpi_yield_when_idle", "1", "-np", "2", exe] + \
        [str(a) for a in args] + ["-q", "--devices", "sim:0.4",
                                  "--checkpoint", ck]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and p.poll() is None:
        if os.path.exists(ck) and time.time() - os.path.getmtime(ck) < 5 and \
                os.path.getsize(ck) > 0 and checkpoint_done(ck) >= 3:
            break
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    done = checkpoint_done(ck) if os.path.exists(ck) else 0
    check(0 < done < 7, f"2 ranks killed with {done} of 7 iterations saved")
    js = workdir() + "/resumed.json"
    r = mpi(3, exe, args + ["--devices", "cpu:1", "--resume", ck, "--json", js])
    # The whole stderr on failure: a crash's stack dump is the lead.
    if not check(r.returncode == 0 and os.path.exists(js),
                 f"resumed by 3 ranks ({r.stderr.strip()[-6000:]})"):
        return
    m = re.search(r"resuming from .*: (\d+) of 7 iterations done", r.stdout)
    check(m and done <= int(m.group(1)) < 7,
          f"the resumed run says where it starts ({m.group(0) if m else r.stdout[:300]})")
    check(fingerprint(read_json(js)) == fingerprint(ref.doc),
          "resumed with 3 ranks: bitwise the uninterrupted result")


def checkpoint_done(path):
    """Iterations done in a checkpoint (checkpoint.py reads the header)."""
    done = read_checkpoint(path)
    return done[0] if done else 0


def shared_machine(exe, fake):
    """Two ranks on one machine with two (fake) GPUs: each takes one, and
    half the CPU threads; the result is still the single process's."""
    src = write_source("lepage4_gpus", LEPAGE)
    args = [src, "-q", "--seed", 4, "--calls", 100000, "--iterations", 2]
    ref = vegasc(exe, args + ["--devices", "cpu:1"])
    js = workdir() + "/gpus.json"
    env = ["-x", f"VF_CUDA_LIBRARY={fake}", "-x", "VF_FAKE_CUDA_DEVICES=2"]
    p = subprocess.run([MPIEXEC, "--allow-run-as-root", "--oversubscribe",
                        "--mca", "mpi_yield_when_idle", "1"] + env +
                       ["-np", "2", exe] + [str(a) for a in args] +
                       ["--devices", "all", "--json", js],
                       capture_output=True, text=True, timeout=300)
    if not check(p.returncode == 0 and os.path.exists(js),
                 f"2 ranks, 2 fake GPUs, --devices all ({p.stderr.strip()[-300:]})"):
        return
    doc = read_json(js)
    check([d["name"] for d in doc["devices"]] == ["cpu:0", "gpu:0"],
          f"rank 0 runs one CPU thread and gpu:0 "
          f"({[d['name'] for d in doc['devices']]})")
    check(fingerprint(doc) == fingerprint(ref.doc),
          "and the result is bitwise the single process's")
    # GPUs too old for the kernel: with `all`, as for one process, each rank
    # notes its GPU and runs without it, rather than failing.
    p = subprocess.run([MPIEXEC, "--allow-run-as-root", "--oversubscribe",
                        "--mca", "mpi_yield_when_idle", "1"] + env +
                       ["-x", "VF_FAKE_CUDA_MAJOR=6",
                        "-np", "2", exe] + [str(a) for a in args if a != "-q"] +
                       ["--devices", "all", "--json", js],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0 and "compute capability 6.0" in p.stderr
          and "running without it" in p.stderr
          and [d["kind"] for d in read_json(js)["devices"]] == ["cpu"],
          f"2 ranks, 2 GPUs too old, --devices all: notes, CPU only "
          f"(rc {p.returncode}: {p.stderr.strip()[-300:]})")


def other_modes(exe):
    """Modes that do not integrate run on rank 0 alone: one output."""
    src = write_source("check_mpi", CHEAP)
    p = mpi(2, exe, [src, "--check"])
    check(p.returncode == 0 and p.stdout.count(": ok (1 integrand)") == 1,
          f"--check on 2 ranks: one line (rc {p.returncode}: {p.stdout.strip()})")
    p = mpi(2, exe, [src, "--eval", "--at", "0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5"])
    check(p.returncode == 0 and len(p.stdout.strip().splitlines()) == 1,
          f"--eval on 2 ranks: one line (rc {p.returncode}: {p.stdout.strip()})")


def errors(exe):
    src = write_source("nan_mpi", "integrand f(x in [0, 1]) = log(x[0] - 0.5)\n")
    p = mpi(2, exe, [src, "-q", "--calls", 20000, "--iterations", 2,
                     "--devices", "cpu:1"])
    check(p.returncode == 1 and p.stderr.count("error:") == 1 and
          "--on-nonfinite=zero" in p.stderr,
          f"a NaN on 2 ranks: exit 1, one message "
          f"(rc {p.returncode}: {p.stderr.strip()[-400:]})")


def failed_rank(exe, fake):
    """Every device of rank 1 fails: both ranks stop, rank 1 says why."""
    src = write_source("lepage4_rankfail", LEPAGE)
    args = [str(a) for a in [src, "-q", "--calls", 100000, "--iterations", 2]]
    p = subprocess.run(
        [MPIEXEC, "--allow-run-as-root", "--oversubscribe",
         "-np", "1", exe] + args + ["--devices", "cpu:1", ":",
         "-np", "1", "-x", f"VF_CUDA_LIBRARY={fake}",
         "-x", "VF_FAKE_CUDA_FAIL_LAUNCH=1", exe] + args + ["--devices", "gpu"],
        capture_output=True, text=True, timeout=120)
    # Its first launch fails, in the first iteration in which it claims a
    # group of tiles: on a loaded machine rank 0 may take every group of
    # the first.
    check(p.returncode == 1
          and re.search(r"rank 1: iteration [12]: every device failed",
                        p.stderr)
          and "CUDA_ERROR_LAUNCH_FAILED" in p.stderr
          and "every device of another rank failed" in p.stderr,
          f"rank 1's only GPU fails: both stop, exit 1, rank 1 says why "
          f"(rc {p.returncode}: {p.stderr.strip()[:300]})")


def setup_fails_on_one_rank(exe):
    """Rank 1 asks for a GPU its machine lacks: both stop, rank 1 says why."""
    src = write_source("lepage4_setupfail", LEPAGE)
    args = [str(a) for a in [src, "-q", "--calls", 20000, "--iterations", 2]]
    p = subprocess.run(
        [MPIEXEC, "--allow-run-as-root", "--oversubscribe",
         "-np", "1", exe] + args + ["--devices", "cpu:1", ":",
         "-np", "1", "-x", "VF_CUDA_LIBRARY=/nonexistent/libcuda.so.1",
         exe] + args + ["--devices", "gpu"],
        capture_output=True, text=True, timeout=120)
    check(p.returncode == 1 and "cannot load the NVIDIA driver" in p.stderr
          and "another rank could not set up the run" in p.stderr,
          f"rank 1 cannot set up: both stop, exit 1, rank 1 says why "
          f"(rc {p.returncode}: {p.stderr.strip()[:300]})")


def private_session_files():
    """Open MPI's session folder and shared-memory files in this test's own
    folder: a job this test kills leaves them behind, and in the shared
    /tmp and /dev/shm a later job whose mpiexec got the same pid would
    find and reuse them."""
    os.environ["OMPI_MCA_orte_tmpdir_base"] = workdir()
    os.environ["OMPI_MCA_btl_vader_backing_directory"] = workdir()


if __name__ == "__main__":
    exe, MPIEXEC, FAKE = sys.argv[1], sys.argv[2], sys.argv[3]
    private_session_files()
    same_result(exe)
    slow_rank(exe)
    resume_other_rank_count(exe)
    shared_machine(exe, os.path.abspath(FAKE))
    failed_rank(exe, os.path.abspath(FAKE))
    setup_fails_on_one_rank(exe)
    other_modes(exe)
    errors(exe)
    finish()
