#===- python/vegasflow/_tasks.py - The part/merge protocol for engines ------===#
#
# What every task-engine driver (dask.py, spark.py) shares: the protocol
# of vegasc --task-* (docs/user-guide.md, "Task engines") with states and
# parts as bytes, so that a worker needs vegasc but no shared filesystem,
# and the loop over iterations. An engine supplies only map_parts: run
# compute_part for each index and return the parts' bytes (any order).
#
#===------------------------------------------------------------------------===#
import argparse
import json
import os
import re
import subprocess
import tempfile


class TaskError(RuntimeError):
    """vegasc refused a task (its message is the error's text)."""


class Run:
    """A .vf file, its run settings and vegasc: the same for every task."""

    def __init__(self, source, settings, vegasc="vegasc"):
        with open(source) as f:
            self.source_text = f.read()
        self.source_name = os.path.basename(source)
        self.settings = [str(s) for s in settings]
        self.vegasc = vegasc

    def _call(self, folder, args):
        src = os.path.join(folder, self.source_name)
        if not os.path.exists(src):
            with open(src, "w") as f:
                f.write(self.source_text)
        p = subprocess.run([self.vegasc, src] + self.settings + args,
                           capture_output=True, text=True, cwd=folder)
        if p.returncode != 0:
            raise TaskError(p.stderr.strip() or f"vegasc exited {p.returncode}")
        return p.stdout

    def initial_state(self):
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            self._call(d, ["--task-init", "state"])
            return _read(os.path.join(d, "state"))

    def compute_part(self, state, index, nparts):
        """Part index of nparts of the state's next iteration, as bytes."""
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            _write(os.path.join(d, "state"), state)
            self._call(d, ["--task-part", f"{index}/{nparts}", "--state",
                           "state", "--out", "part", "-q"])
            return _read(os.path.join(d, "part"))

    def merge(self, state, parts):
        """The next state and the result so far (vegasc's JSON document)."""
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            _write(os.path.join(d, "state"), state)
            names = []
            for k, p in enumerate(parts):
                names.append(f"part{k}")
                _write(os.path.join(d, names[-1]), p)
            self._call(d, ["--task-merge"] + names +
                       ["--state", "state", "--out", "next", "--json",
                        "result.json", "-q"])
            with open(os.path.join(d, "result.json")) as f:
                return _read(os.path.join(d, "next")), json.load(f)

    def progress(self, state):
        """(iterations done, iterations of the run; 0 before the first)."""
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            _write(os.path.join(d, "state"), state)
            out = self._call(d, ["--task-result", "--state", "state"])
        m = re.search(r"(\d+) of (\d+) iterations done", out)
        return int(m.group(1)), int(m.group(2))


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def save_state(path, data):
    """Atomically: a driver killed at any point leaves the old or the new."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def integrate(run, nparts, map_parts, state_path=None, on_iteration=None):
    """Every iteration as nparts tasks; resumes from state_path if it
    exists, and saves each merged state there (the run's checkpoint).
    Returns vegasc's JSON document of the result."""
    if state_path and os.path.exists(state_path):
        state = _read(state_path)
    else:
        state = run.initial_state()
        if state_path:
            save_state(state_path, state)
    done, total = run.progress(state)
    doc = None
    while total == 0 or done < total:  # total: 0 before the first merge
        parts = map_parts(run, state, nparts)
        state, doc = run.merge(state, parts)
        if state_path:
            save_state(state_path, state)
        # The merge's document counts the iterations; the run's length is
        # in the state from the first merge on (one more vegasc call).
        done = len(doc["iterations"])
        total = total or run.progress(state)[1]
        if on_iteration:
            on_iteration(done, total, doc)
    if doc is None:  # the saved state was finished already
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            _write(os.path.join(d, "state"), state)
            run._call(d, ["--task-result", "--state", "state", "--json",
                          "r.json", "-q"])
            with open(os.path.join(d, "r.json")) as f:
                doc = json.load(f)
    return doc


def arguments(prog, engine_options):
    """The drivers' command line: FILE.vf, --parts, --state, --vegasc,
    --json, the engine's options; anything else goes to vegasc."""
    ap = argparse.ArgumentParser(
        prog=prog, description="VEGAS+ iterations as tasks; options not "
        "listed here are vegasc's run settings (--calls, --seed, ...)")
    ap.add_argument("file", help="the .vf file")
    ap.add_argument("--parts", type=int, required=True,
                    help="tasks per iteration")
    ap.add_argument("--state", help="save each iteration's state here and "
                    "resume from it")
    ap.add_argument("--vegasc", default=os.environ.get("VEGASC", "vegasc"),
                    help="vegasc on the workers (default: $VEGASC or PATH)")
    ap.add_argument("--json", help="write vegasc's JSON result here")
    engine_options(ap)
    args, settings = ap.parse_known_args()
    if args.parts < 1:
        ap.error("--parts must be at least 1")
    return args, settings


def report(doc, args):
    res = doc["result"]
    print(f"result = {res['mean']!r} +- {res['error']!r}   "
          f"chi2/dof = {res['chi2_dof']:.3g}   Q = {res['Q']:.3g}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=2)
