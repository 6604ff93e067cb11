#===- python/vegasflow/_result.py - The result of a run ---------------------===#
#
# Result mirrors vf::Result with vegas's names: mean and sdev (floats for a
# scalar integrand, numpy arrays for a vector one), chi2_dof, dof, chi2, Q,
# nitn, the covariance matrix, one IterationRow per iteration (warm-up
# rows included, marked) and DeviceStats per worker; str() is the value
# with its error in gvar notation, summary() vegas's table, _repr_html_
# the report's section for Jupyter (report_html and write_report the
# whole page, as vegasc --report), to_json() vegasc's JSON document;
# histograms maps each `hist` statement's name to a Histogram of numpy
# arrays, weight_lists each `weights` statement's to a WeightList;
# channels (and each row's) a multi-channel integrand's Channel
# (ChannelRow) per channel.
#
#===------------------------------------------------------------------------===#
"""Integration results: Result, IterationRow, DeviceStats, Histogram,
WeightList, Channel."""

import json
import os
import tempfile
from dataclasses import dataclass, field

import numpy as np

from . import _format, _options, _vegasflow


@dataclass(frozen=True)
class DeviceStats:
    """One worker's share of a run or of an iteration.

    Attributes:
        name: 'cpu:0', 'gpu:0', 'sim:1', ...
        kind: 'cpu', 'gpu' or 'sim'.
        samples, chunks: samples evaluated, chunks of tiles run.
        busy_s: seconds spent running chunks.
        idle_s: seconds waiting for the others at iterations' ends.
        error: why the device failed ('' if it did not).
    """
    name: str
    kind: str
    samples: int
    chunks: int
    busy_s: float
    idle_s: float
    error: str

    @property
    def imbalance(self):
        """idle / (busy + idle): the share of time spent waiting."""
        total = self.busy_s + self.idle_s
        return self.idle_s / total if total > 0 else 0.0


def _devices(rows):
    return [DeviceStats(**d) for d in rows]


def _shaped(values, outputs):
    """A float for a scalar integrand, an array of `outputs` otherwise."""
    return float(values[0]) if outputs == 1 else np.array(values, dtype=float)


@dataclass(frozen=True)
class Derived:
    """A `derived` item of the .vf file (e.g. `derived afb = ee[1] /
    ee[0]`), evaluated on a result.

    Attributes:
        name: its name in the file.
        mean: its value at the result's mean.
        sdev: its error, propagated linearly from the covariance of the
            components it uses (gradient^T covariance gradient).
        gradient: its derivative with respect to each component.
    """
    name: str
    mean: float
    sdev: float
    gradient: tuple = field(repr=False)

    @classmethod
    def _all(cls, items):
        return {d["name"]: cls(d["name"], d["mean"], d["sdev"],
                               tuple(d["gradient"])) for d in items}


@dataclass(frozen=True)
class ChannelRow:
    """One channel's part of an iteration of a multi-channel integrand
    (docs/language.md, "Channels").

    Attributes:
        alpha: the channel's weight in this iteration: its share of the
            samples.
        samples: the samples it drew.
        integral, error: its part of the iteration's estimate of component
            0 and that part's standard deviation. The parts add up to the
            iteration's estimate; each moves with alpha, so it is never
            averaged over iterations (only the total is).
    """
    alpha: float
    samples: int
    integral: float
    error: float

    @classmethod
    def _all(cls, items):
        return [cls(c["alpha"], c["samples"], c["integral"], c["error"])
                for c in items]


@dataclass(frozen=True)
class Channel:
    """A channel of a multi-channel integrand over the run.

    Attributes:
        name: its name in the .vf file.
        alpha: its weight now, the one the next iteration uses.
        samples: the samples it drew over the run.
        integral, error: its part of the last iteration's estimate (see
            ChannelRow: it moves with alpha).
        error_share: its share of the last iteration's variance of
            component 0.
    """
    name: str
    alpha: float
    samples: int
    integral: float
    error: float
    error_share: float

    @classmethod
    def _all(cls, items):
        return [cls(c["name"], c["alpha"], c["samples"], c["integral"],
                    c["error"], c["error_share"]) for c in items]


@dataclass(frozen=True)
class IterationRow:
    """One iteration of a run.

    Attributes:
        index: 1-based over the integrator's lifetime.
        warmup: True for a warm-up iteration (adapts, not in the estimate).
        mean, sdev: this iteration's estimate and its standard deviation.
        cum_mean, cum_sdev: the combined estimate after it (NaN for
            warm-up rows, which precede any measured iteration).
        chi2_dof, Q: over the measured iterations so far.
        samples: samples drawn; nonfinite: those whose value was NaN/inf.
        seconds: wall time of the iteration.
        devices: each worker's DeviceStats for this iteration.
        derived: {name: Derived} at this iteration's estimate.
        channels: a ChannelRow per channel, in source order ([] for an
            integrand without channels).
    """
    index: int
    warmup: bool
    mean: object
    sdev: object
    cum_mean: object
    cum_sdev: object
    chi2_dof: float
    Q: float
    samples: int
    nonfinite: int
    seconds: float
    devices: list = field(repr=False)
    derived: dict = field(default_factory=dict, repr=False)
    channels: list = field(default_factory=list, repr=False)

    @classmethod
    def _from(cls, d, outputs):
        def shaped(key):
            v = d[key] or [float("nan")] * outputs
            return _shaped(v, outputs)
        return cls(d["index"], d["warmup"], shaped("mean"), shaped("sdev"),
                   shaped("cum_mean"), shaped("cum_sdev"), d["chi2_dof"],
                   d["Q"], d["samples"], d["nonfinite"], d["seconds"],
                   _devices(d["devices"]), Derived._all(d["derived"]),
                   ChannelRow._all(d["channels"]))


@dataclass(frozen=True)
class Histogram:
    """A histogram the integrand fills (a `hist` statement), combined over
    the measured iterations like the integral (docs/algorithm.md).

    Attributes:
        name: the statement's name.
        edges: per axis, the bin edges (an array of bins + 1).
        mean, sdev: each bin's integral of the integrand's component 0 and
            its standard deviation; shape (bins,) or (bins_x, bins_y).
        underflow, overflow: (mean, sdev) of the samples below and above
            the range (1-D; a NaN observable counts as overflow), else None.
        outside: (mean, sdev) of the samples outside the rectangle (2-D),
            else None.
    """
    name: str
    edges: list
    mean: np.ndarray = field(repr=False)
    sdev: np.ndarray = field(repr=False)
    underflow: object = None
    overflow: object = None
    outside: object = None

    @classmethod
    def _from(cls, d):
        # The library's edges, exactly those the samples were binned by.
        edges = [np.array(e, dtype=float) for _, _, _, e in d["axes"]]
        shape = tuple(bins for _, _, bins, _ in d["axes"])
        mean = np.array(d["values"], dtype=float).reshape(shape)
        sdev = np.array(d["errors"], dtype=float).reshape(shape)
        flows = list(zip(d["flow"], d["flow_errors"]))
        if len(shape) == 1:
            return cls(d["name"], edges, mean, sdev, flows[0], flows[1])
        return cls(d["name"], edges, mean, sdev, outside=flows[0])


@dataclass(frozen=True)
class WeightList:
    """A weight list of the integrand (a `weights` statement): each entry
    integrated over the run's samples, combined over the measured
    iterations as a histogram's bins are (docs/algorithm.md).

    Attributes:
        name: the statement's name.
        mean, sdev: each entry's integral and standard deviation, k rising
            (arrays of the list's length).
        envelope: (low, high), the least and largest entry.
        band: "envelope", or the ErrorType of the PDF set whose members
            the entries are ("replicas", "hessian", "symmhessian").
        band_range: (central, low, high) of that band at 68.27 %
            (docs/user-guide.md, "Hadron colliders").
        ratio, ratio_sdev: each entry over the integrand's value on the
            same samples, and its standard deviation, which counts their
            correlation (NaN where the value is 0).
    """
    name: str
    mean: np.ndarray = field(repr=False)
    sdev: np.ndarray = field(repr=False)
    envelope: tuple = (0.0, 0.0)
    band: str = "envelope"
    band_range: tuple = (0.0, 0.0, 0.0)
    ratio: np.ndarray = field(default=None, repr=False)
    ratio_sdev: np.ndarray = field(default=None, repr=False)

    @classmethod
    def _from(cls, d):
        return cls(d["name"], np.array(d["values"], dtype=float),
                   np.array(d["errors"], dtype=float), (d["low"], d["high"]),
                   d["band"],
                   (d["band_central"], d["band_low"], d["band_high"]),
                   np.array(d["ratios"], dtype=float),
                   np.array(d["ratio_errors"], dtype=float))


def _curve(name, ref):
    """A reference as (edges, values, errors) lists."""
    if isinstance(ref, Histogram):
        if len(ref.edges) != 1:
            raise ValueError(f"reference '{name}': a 1-D histogram is needed")
        ref = (ref.edges[0], ref.mean, ref.sdev)
    if not isinstance(ref, (tuple, list)) or len(ref) not in (2, 3):
        raise TypeError(f"reference '{name}': expected a Histogram or "
                        f"(edges, values[, errors]), got {ref!r}")
    edges, values = (np.asarray(a, dtype=float).ravel().tolist()
                     for a in ref[:2])
    errors = (np.asarray(ref[2], dtype=float).ravel().tolist()
              if len(ref) == 3 else [0.0] * len(values))
    return edges, values, errors


def _references(reference):
    """report_html's reference as {name: (edges, values, errors)}."""
    if reference is None:
        return {}
    if isinstance(reference, (str, os.PathLike)):
        with open(reference, encoding="utf-8") as f:
            return _vegasflow._read_references(f.read())
    if isinstance(reference, Result):
        reference = {n: h for n, h in reference.histograms.items()
                     if len(h.edges) == 1}
    if not isinstance(reference, dict):
        raise TypeError("reference: expected a CSV file's path, a Result or "
                        f"a dict of histograms, got {reference!r}")
    return {n: _curve(n, r) for n, r in reference.items()}


class Result:
    """The combined result of the measured iterations so far.

    Attributes:
        mean, sdev: the weighted average and its standard deviation (floats
            for a scalar integrand; arrays of shape (outputs,) otherwise).
        covariance: (outputs, outputs) covariance matrix of mean.
        chi2_dof, dof, chi2, Q: the consistency of the measured iterations
            (dof = outputs * (nitn - 1); Q < 0.05 means they disagree more
            than their errors allow).
        nitn: measured iterations; iterations: every IterationRow, warm-up
            rows included; itn_results (vegas's name): the measured rows.
        itn_mean, itn_sdev: the measured iterations' estimates, arrays of
            shape (nitn,) or (nitn, outputs).
        devices: DeviceStats per worker over the run.
        evaluations: integrand evaluations (warm-up included).
        wall_s: seconds spent in the iterations.
        stopped_because: why the last run ended: 'iterations', 'target'
            (rtol/atol met), 'max_iterations' (not met), 'error'.
        target_met: whether the rtol/atol target was met (None: none set).
        roundoff_floor: the part of sdev that rounding alone accounts for.
        precision: the samples' arithmetic, 'f64' or 'f32'.
        name: the integrand's name; outputs: its number of components.
        histograms: {name: Histogram} for the integrand's `hist`
            statements, in source order ({} without any).
        weight_lists: {name: WeightList} for the integrand's `weights`
            statements, in source order ({} without any).
        derived: {name: Derived} for the file's `derived` items that use
            this integrand, in source order ({} without any).
        channels: a Channel per channel of a multi-channel integrand, in
            source order ([] without channels).
    """

    def __init__(self, handle, name, settings, grid=None):
        d = handle.to_dict()
        self._h = handle
        self._grid = grid  # the map when the result was taken (report)
        self._settings = settings
        self.name = name
        self.outputs = k = d["outputs"]
        self.mean = _shaped(d["mean"] or [float("nan")] * k, k)
        self.sdev = _shaped(d["sdev"] or [float("nan")] * k, k)
        cov = d["covariance"] or [float("nan")] * (k * k)
        self.covariance = np.array(cov, dtype=float).reshape(k, k)
        self.chi2_dof = d["chi2_dof"]
        self.Q = d["Q"]
        self.iterations = [IterationRow._from(r, k) for r in d["iterations"]]
        measured = [r for r in self.iterations if not r.warmup]
        self.nitn = len(measured)
        self.dof = k * max(self.nitn - 1, 0)
        self.chi2 = self.chi2_dof * self.dof
        shape = (self.nitn,) if k == 1 else (self.nitn, k)
        self.itn_mean = np.array([r.mean for r in measured],
                                 dtype=float).reshape(shape)
        self.itn_sdev = np.array([r.sdev for r in measured],
                                 dtype=float).reshape(shape)
        self.devices = _devices(d["devices"])
        self.evaluations = d["evaluations"]
        self.wall_s = d["wall_s"]
        self.histograms = {h["name"]: Histogram._from(h)
                           for h in d["histograms"]}
        self.weight_lists = {w["name"]: WeightList._from(w)
                             for w in d["weight_lists"]}
        self.stopped_because = d["stopped_because"]
        self.target_met = d["target_met"]
        self.roundoff_floor = _shaped(d["roundoff_floor"] or [0.0] * k, k)
        self.precision = d["precision"]
        self.derived = Derived._all(d["derived"])
        self.channels = Channel._all(d["channels"])

    def uvalues(self):
        """The components as correlated values of the `uncertainties`
        package (a ufloat for a scalar integrand, a list otherwise), so that
        arithmetic on them carries the covariance: with `r = integ(...)`,
        `a, b = r.uvalues()` then `b / a` has the error a `derived b / a`
        item would have. gvar plays this part for vegas."""
        try:
            import uncertainties
        except ImportError:
            raise ImportError(
                "Result.uvalues() needs the Python package 'uncertainties' "
                "(Debian: apt install python3-uncertainties; or pip install "
                "uncertainties)") from None
        mean = np.atleast_1d(self.mean).tolist()
        values = uncertainties.correlated_values(mean, self.covariance.tolist())
        return values[0] if self.outputs == 1 else list(values)

    @property
    def itn_results(self):
        """vegas's itn_results: the measured iterations, each an
        IterationRow with its own mean and sdev."""
        return [r for r in self.iterations if not r.warmup]

    def _vectors(self):
        return np.atleast_1d(self.mean), np.atleast_1d(self.sdev)

    def __str__(self):
        """The value with its error, e.g. '1.0012(34)'."""
        return _format.fmt_values(*self._vectors())

    def __repr__(self):
        return (f"<vegasflow.Result {self.name} = {self}: chi2/dof = "
                f"{self.chi2_dof:.2f}, Q = {self.Q:.2f}, nitn = {self.nitn}>")

    def summary(self):
        """vegas's table: one line per iteration (and component) with its
        estimate, the weighted average so far, chi2/dof and Q."""
        return _format.summary_text(self)

    def _repr_html_(self):
        """In Jupyter: the report's section for this run (vegasc --report's
        plots and tables, no script), or the summary table without a map."""
        if self._grid is None:
            return _format.summary_html(self)
        return self._report(None, True)

    def _report(self, exact, fragment, strata=False, log=(), reference=None):
        if self._grid is None:
            raise ValueError("this Result has no map to report (it did not "
                             "come from an Integrator)")
        rows = [(k, v if isinstance(v, str) else json.dumps(v))
                for k, v in self._settings.items()]
        if exact is not None:
            exact = _options.real("exact", exact, float("-inf"))
        log = ["all"] if log is True else [log] if isinstance(log, str) \
            else list(log or ())
        return _vegasflow._report(self._h, self._grid, self.name, rows,
                                  exact, fragment, bool(strata), log,
                                  _references(reference))

    def report_html(self, exact=None, *, strata=False, log=(),
                    reference=None):
        """The self-contained HTML page vegasc --report writes (settings,
        iterations and convergence of every component, the map, histograms,
        devices).

        Args:
            exact: drawn on the convergence plot of component 0.
            strata: also draw the map of samples per hypercube (off: the
                page stays small).
            log: the 1-D histograms drawn on a log y axis, by name (True:
                every one).
            reference: drawn over the 1-D histograms of the same name, with
                a ratio panel: a CSV file's path (as vegasc --hist-csv
                writes), another Result, or {name: Histogram or (edges,
                values[, errors])} with values per bin (integrals, as a
                Histogram's mean).
        """
        return self._report(exact, False, strata, log, reference)

    def write_report(self, path, exact=None, **options):
        """Writes report_html(exact, **options) to `path` (whole or not at
        all: a temporary file beside it, renamed); returns the path."""
        path = os.fspath(path)
        text = self.report_html(exact, **options)
        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(prefix=".vf-report-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        return path

    def to_json(self, indent=2):
        """vegasc's JSON document for this result (schema: docs/json.md):
        {vegasflow, integrand, settings, result, iterations, devices}.
        indent=None writes one line."""
        return self._h.to_json(self.name, json.dumps(self._settings),
                               -1 if indent is None else int(indent))
