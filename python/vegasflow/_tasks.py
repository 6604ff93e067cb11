#===- python/vegasflow/_tasks.py - The part/merge protocol for engines ------===#
#
# What every task-engine driver (dask.py, spark.py) shares: the protocol
# of vegasc --task-* (docs/user-guide.md, "Task engines") with states and
# parts as bytes, so that a worker needs vegasc but no shared filesystem,
# the loop over iterations, and the part sizes (Balance). An engine
# supplies map_parts: run compute_part for each part of a Split (on the
# worker it names, where the engine can place tasks) and return (worker,
# part bytes) pairs in any order; and, if it can place tasks, the list of
# its workers, so that parts are sized by each worker's throughput.
#
#===------------------------------------------------------------------------===#
import argparse
import json
import os
import re
import struct
import subprocess
import tempfile

# Every part holds at least one whole group of tiles, and an iteration has
# at most 64 groups (docs/user-guide.md, "Task engines": part sizes).
MAX_PARTS = 64


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

    def compute_part(self, state, index, nparts, weights=None):
        """Part index of nparts of the state's next iteration, as bytes;
        the parts are cut in proportion to weights if given."""
        cut = ["--task-weights", ",".join(map(repr, weights))] \
            if weights else []
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            _write(os.path.join(d, "state"), state)
            self._call(d, ["--task-part", f"{index}/{nparts}", "--state",
                           "state", "--out", "part", "-q"] + cut)
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


def part_header(data):
    """(groups of the iteration, begin, end, busy seconds) of a part's
    bytes (runtime/tasks/PartFile.h: after the magic and the version, the
    state hash, Groups, Begin, End and the busy seconds)."""
    if len(data) < 52 or data[:8] != b"VFPART\0\0":
        raise TaskError("not a vegasflow part")
    return struct.unpack_from("<QQQd", data, 20)


class Split:
    """One iteration's parts: nparts ranges of groups, equal or in
    proportion to weights, part i meant for workers[i] (None: anywhere)."""

    def __init__(self, nparts, weights=None, workers=None):
        self.nparts = nparts
        self.weights = weights
        self.workers = workers or [None] * nparts


class Balance:
    """Part sizes from each worker's throughput in the previous iteration
    (groups per busy second, as its parts measured it), so that slow and
    fast workers finish together. Which cut is used never changes the
    result: a group's sums are the same whoever computes them."""

    def __init__(self):
        self.rates = {}

    def learn(self, done):
        """done: the (worker, part bytes) pairs of one iteration."""
        totals = {}
        for worker, data in done:
            _, begin, end, busy = part_header(data)
            if worker is None or not busy > 0:
                continue
            groups, seconds = totals.get(worker, (0, 0.0))
            totals[worker] = (groups + end - begin, seconds + busy)
        self.rates = {w: g / t for w, (g, t) in totals.items()}

    def split(self, nparts, workers):
        """nparts parts over workers (in turn), each worker's parts
        sharing its rate; equal parts until a rate is known. A worker not
        measured yet counts as the average of those that were."""
        if not workers:
            return Split(nparts)
        placed = [workers[i % len(workers)] for i in range(nparts)]
        known = [self.rates[w] for w in workers if w in self.rates]
        if not known:
            return Split(nparts, None, placed)
        mean = sum(known) / len(known)
        share = {w: placed.count(w) for w in workers}
        weights = [self.rates.get(w, mean) / share[w] for w in placed]
        return Split(nparts, weights, placed)


def save_state(path, data):
    """Atomically: a driver killed at any point leaves the old or the new."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def integrate(run, nparts, map_parts, state_path=None, on_iteration=None,
              workers=None):
    """Every iteration as nparts tasks; resumes from state_path if it
    exists, and saves each merged state there (the run's checkpoint).
    workers() lists where the engine can place tasks (None: it cannot;
    parts are then equal). on_iteration(done, total, doc, parts) gets each
    merge's document and (worker, begin, end, busy) per part.
    Returns vegasc's JSON document of the result."""
    if state_path and os.path.exists(state_path):
        state = _read(state_path)
    else:
        state = run.initial_state()
        if state_path:
            save_state(state_path, state)
    done, total = run.progress(state)
    doc = None
    balance = Balance()
    while total == 0 or done < total:  # total: 0 before the first merge
        split = balance.split(nparts, workers() if workers else None)
        finished = map_parts(run, state, split)
        balance.learn(finished)
        state, doc = run.merge(state, [data for _, data in finished])
        if state_path:
            save_state(state_path, state)
        # The merge's document counts the iterations; the run's length is
        # in the state from the first merge on (one more vegasc call).
        done = len(doc["iterations"])
        total = total or run.progress(state)[1]
        if on_iteration:
            heads = sorted((part_header(data), w) for w, data in finished)
            on_iteration(done, total, doc,
                         [(w, b, e, busy) for (_, b, e, busy), w in heads])
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
    if not 1 <= args.parts <= MAX_PARTS:
        ap.error(f"--parts must be from 1 to {MAX_PARTS}: a part holds at "
                 f"least one group of tiles, and an iteration has at most "
                 f"{MAX_PARTS} (fewer with few tiles or large histograms)")
    return args, settings


def report(doc, args):
    res = doc["result"]
    print(f"result = {res['mean']!r} +- {res['error']!r}   "
          f"chi2/dof = {res['chi2_dof']:.3g}   Q = {res['Q']:.3g}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=2)
