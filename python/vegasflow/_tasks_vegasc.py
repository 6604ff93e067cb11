#===- python/vegasflow/_tasks_vegasc.py - Tasks as vegasc processes ---------===#
#
# The deprecated path of _tasks.Run(vegasc=...) and the drivers' --vegasc:
# every task a `vegasc --task-*` process in a temporary folder, the state
# and parts written there and read back, as the drivers ran before the
# task API was public (vf/Tasks.h), kept so that callers that give
# vegasc still run; the bytes are the same on both paths.
#
#===------------------------------------------------------------------------===#
import json
import os
import re
import subprocess
import tempfile


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


class VegascDoor:
    """The protocol as vegasc commands; a failure raises error_type with
    vegasc's message."""

    def __init__(self, text, name, settings, vegasc, error_type):
        self.text, self.name, self.settings = text, name, settings
        self.vegasc, self.error_type = vegasc, error_type

    def _call(self, folder, args):
        src = os.path.join(folder, self.name)
        if not os.path.exists(src):
            with open(src, "w") as f:
                f.write(self.text)
        p = subprocess.run([self.vegasc, src] + self.settings + args,
                           capture_output=True, text=True, cwd=folder)
        if p.returncode != 0:
            raise self.error_type(p.stderr.strip() or
                                  f"vegasc exited {p.returncode}")
        return p.stdout

    def initial_state(self):
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            self._call(d, ["--task-init", "state"])
            return _read(os.path.join(d, "state"))

    def compute_part(self, state, index, nparts, weights):
        cut = ["--task-weights", ",".join(map(repr, weights))] \
            if weights else []
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            _write(os.path.join(d, "state"), state)
            self._call(d, ["--task-part", f"{index}/{nparts}", "--state",
                           "state", "--out", "part", "-q"] + cut)
            return _read(os.path.join(d, "part"))

    def merge(self, state, parts):
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
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            _write(os.path.join(d, "state"), state)
            out = self._call(d, ["--task-result", "--state", "state"])
        m = re.search(r"(\d+) of (\d+) iterations done", out)
        return int(m.group(1)), int(m.group(2))

    def result(self, state):
        with tempfile.TemporaryDirectory(prefix="vf-task-") as d:
            _write(os.path.join(d, "state"), state)
            self._call(d, ["--task-result", "--state", "state", "--json",
                           "r.json", "-q"])
            with open(os.path.join(d, "r.json")) as f:
                return json.load(f)
