#===- python/vegasflow/_tasks.py - The part/merge protocol for engines ------===#
#
# What every task-engine driver (dask.py, spark.py) shares: the protocol
# of the library's task API (vf/Tasks.h; docs/user-guide.md, "Task
# engines") with states and parts as bytes, run in the engine's own
# processes through the vegasflow module, so that a worker needs neither
# vegasc nor a shared filesystem; the loop over iterations; and the part
# sizes (Balance). An engine supplies map_parts: run compute_part for each
# part of a Split (on the worker it names, where the engine can place
# tasks) and return (worker, part bytes) pairs in any order; and, if it can
# place tasks, the list of its workers, so that parts are sized by each
# worker's throughput.
#
#===------------------------------------------------------------------------===#
import argparse
import contextlib
import json
import os
import struct
import sys
import threading
import warnings

from . import _vegasflow

# Every part holds at least one whole group of tiles, and an iteration has
# at most 64 groups (docs/user-guide.md, "Task engines": part sizes).
MAX_PARTS = 64


class TaskError(_vegasflow.Error):
    """A task refused: bad settings, a corrupt or foreign state or part
    (its message is the library's, or vegasc's on the vegasc= path)."""


# vegasc's run settings the in-process protocol takes, by the vegasflow
# .Integrator keyword each sets: the rows of the option table
# (vf/Options.def) that both doors have, and the run's own flags. Outputs,
# events and batches are not a task's (the drivers write the result).
_BOTH = [row for row in _vegasflow.options() if row["flag"] and row["python"]]
_VALUED = {row["flag"]: row["python"] for row in _BOTH}
_VALUED.update({"--param": "params", "--integrand": "integrand",
                "--cache-dir": "cache_dir"})
_WHOLE = {row["python"] for row in _BOTH if row["type"] == "whole number"}
_REAL = {row["python"] for row in _BOTH if row["type"] == "number"}
# Switches: what each sets, or None for one that changes no result
# (messages, warnings).
_SWITCHES = {"--no-cache": ("cache", False),
             "--no-adapt-strata": ("beta", 0.0),
             "-q": None, "--quiet": None, "-w": None, "--no-warnings": None}


def _number(flag, text, whole):
    """vegasc's reading of a number: 1e6 is a whole number too."""
    try:
        return int(text) if whole and text.lstrip("+").isdigit() \
            else float(text)
    except ValueError:
        raise TaskError(f"{flag} '{text}' is not a number") from None


def run_settings(settings):
    """vegasc's run-setting flags as the keywords of vegasflow.Integrator,
    plus 'integrand', 'params' and the compile cache's 'cache' and
    'cache_dir'; a flag the in-process protocol does not take is refused,
    naming it."""
    kw = {"params": {}}
    args = list(settings)
    while args:
        flag, _, value = args.pop(0).partition("=")
        if flag in _SWITCHES and not value:
            if _SWITCHES[flag]:
                kw[_SWITCHES[flag][0]] = _SWITCHES[flag][1]
            continue
        if flag not in _VALUED:
            raise TaskError(f"{flag}: not a run setting the task protocol "
                            f"takes (docs/python.md, \"Task engines\")")
        if not value:
            if not args:
                raise TaskError(f"{flag} needs a value")
            value = args.pop(0)
        name = _VALUED[flag]
        if name == "params":
            key, eq, v = value.partition("=")
            if not eq:
                raise TaskError(f"--param '{value}': give NAME=VALUE")
            kw["params"][key] = _number(flag, v, False)
        else:
            kw[name] = (_number(flag, value, name in _WHOLE)
                        if name in _WHOLE | _REAL else value)
    return kw


# The integrators a process has made, by (source, name, settings): a Dask
# or Spark worker compiles a run's .vf once, however many parts it runs.
_INTEGRATORS = {}
_INTEGRATORS_LOCK = threading.Lock()


def _integrator(text, name, settings):
    from ._compile import compile
    from ._integrator import Integrator
    key = (text, name, tuple(settings))
    with _INTEGRATORS_LOCK:
        if key not in _INTEGRATORS:
            kw = run_settings(settings)
            module = compile(text, name=name, cache=kw.pop("cache", True),
                             cache_dir=kw.pop("cache_dir", None))
            _INTEGRATORS[key] = Integrator(
                module.integrand(kw.pop("integrand", None)), **kw)
        return _INTEGRATORS[key]


class _InProcess:
    """The protocol through the vegasflow module (vf/Tasks.h): each call
    computes in this process, the GIL released."""

    def __init__(self, text, name, settings):
        self.text, self.name, self.settings = text, name, settings
        self._run()  # bad settings or source refused now, on the driver

    def _run(self):
        with _errors():
            integ = _integrator(self.text, self.name, self.settings)
        return integ._h, integ.iterations, integ.calls, integ.warmup

    def initial_state(self):
        with _errors():
            return _vegasflow.task_init(*self._run())

    def compute_part(self, state, index, nparts, weights):
        with _errors():
            return _vegasflow.task_part(*self._run(), state, index, nparts,
                                        list(weights or []))

    def merge(self, state, parts):
        with _errors():
            nxt, (doc, _, _) = _vegasflow.task_merge(*self._run(), state,
                                                     list(parts))
        return nxt, json.loads(doc)

    def progress(self, state):
        with _errors():
            return _vegasflow.task_progress(*self._run(), state)[1:]

    def result(self, state):
        with _errors():
            return json.loads(_vegasflow.task_progress(*self._run(),
                                                       state)[0])


@contextlib.contextmanager
def _errors():
    """The library's and the settings' errors as TaskError, which the
    drivers report (a CompileError's carets kept in its message)."""
    try:
        yield
    except TaskError:
        raise
    except (_vegasflow.Error, ValueError, TypeError, KeyError) as e:
        raise TaskError(str(e)) from None


class Run:
    """A .vf file and its run settings (vegasc's flags: --calls, --seed,
    --param, ...): the same for every task. Tasks run in the calling
    process through the vegasflow module; a worker compiles the source
    once. vegasc= (deprecated) runs each as that vegasc, in a temporary
    folder, as before the library's task API was public."""

    def __init__(self, source, settings, vegasc=None):
        with open(source) as f:
            self.source_text = f.read()
        self.source_name = os.path.basename(source)
        self.settings = [str(s) for s in settings]
        self.vegasc = vegasc
        if vegasc is None:
            self._door = _InProcess(self.source_text, self.source_name,
                                    self.settings)
        else:
            from ._tasks_vegasc import VegascDoor
            warnings.warn("vegasc= runs every task as a vegasc process; the "
                          "task protocol now runs in-process (leave vegasc "
                          "out)", DeprecationWarning, stacklevel=2)
            self._door = VegascDoor(self.source_text, self.source_name,
                                    self.settings, vegasc, TaskError)

    def initial_state(self):
        return self._door.initial_state()

    def compute_part(self, state, index, nparts, weights=None):
        """Part index of nparts of the state's next iteration, as bytes;
        the parts are cut in proportion to weights if given."""
        return self._door.compute_part(state, index, nparts, weights)

    def merge(self, state, parts):
        """The next state and the result so far (vegasc's JSON document)."""
        return self._door.merge(state, parts)

    def progress(self, state):
        """(iterations done, iterations of the run; 0 before the first)."""
        return self._door.progress(state)

    def result(self, state):
        """The result of the state (vegasc's JSON document)."""
        return self._door.result(state)


def part_header(data):
    """(groups, begin, end) of a part's first pass and the busy seconds of
    all its passes (runtime/tasks/PartFile.h: after the magic and the
    version, the state hash and the pass count, then per pass Groups,
    Begin, End, the busy seconds, the word count and the words). Every
    pass of a part is cut by the same weights, so its first pass's groups
    measure its share."""
    if len(data) < 76 or data[:8] != b"VFPART\0\0":
        raise TaskError("not a vegasflow part")
    passes, groups, begin, end = struct.unpack_from("<QQQQ", data, 20)
    busy, at = 0.0, 28
    for _ in range(passes):
        if at + 40 > len(data):
            raise TaskError("a truncated vegasflow part")
        seconds, count = struct.unpack_from("<dQ", data, at + 24)
        busy += seconds
        at += 40 + 8 * count
    return groups, begin, end, busy


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
        with open(state_path, "rb") as f:
            state = f.read()
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
        # in the state from the first merge on (one more call).
        done = len(doc["iterations"])
        total = total or run.progress(state)[1]
        if on_iteration:
            heads = sorted((part_header(data), w) for w, data in finished)
            on_iteration(done, total, doc,
                         [(w, b, e, busy) for (_, b, e, busy), w in heads])
    if doc is None:  # the saved state was finished already
        doc = run.result(state)
    return doc


def make_run(prog, args, settings):
    """The driver's Run, or None with the error printed: bad settings or
    source are said before an engine is started."""
    try:
        return Run(args.file, settings, args.vegasc)
    except TaskError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return None


def arguments(prog, engine_options):
    """The drivers' command line: FILE.vf, --parts, --state, --vegasc
    (deprecated), --json, the engine's options; anything else is a run
    setting, as vegasc spells it."""
    ap = argparse.ArgumentParser(
        prog=prog, description="VEGAS+ iterations as tasks; options not "
        "listed here are run settings as vegasc spells them (--calls, "
        "--seed, --param NAME=VALUE, ...)")
    ap.add_argument("file", help="the .vf file")
    ap.add_argument("--parts", type=int, required=True,
                    help="tasks per iteration")
    ap.add_argument("--state", help="save each iteration's state here and "
                    "resume from it")
    ap.add_argument("--vegasc", default=os.environ.get("VEGASC"),
                    help="deprecated: run every task as this vegasc on the "
                    "workers (default: $VEGASC if set, else in the workers' "
                    "Python processes, through the vegasflow module)")
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
