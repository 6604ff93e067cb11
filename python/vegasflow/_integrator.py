#===- python/vegasflow/_integrator.py - Integrator --------------------------===#
#
# vegasflow.Integrator: adaptive VEGAS+ over a compiled .vf integrand (on
# every CPU thread and GPU) or over a numpy batch function (CPU threads,
# the GIL taken per batch). Options are checked in _options before the
# library sees them. run() releases the GIL; the library's iterations run
# on a thread of the extension while this thread serves progress
# callbacks and Ctrl-C (python/src/Integrator.cpp).
#
#===------------------------------------------------------------------------===#
"""vegasflow.Integrator."""

import inspect
import warnings

import numpy as np

from . import _options, _progress, _vegas, _vegasflow
from ._compile import Integrand, Module
from ._events import EventFile, Events, UnweightedEvents, shower_settings
from ._result import Result

# How often, in seconds, a run wakes the caller's thread to look at
# signals and progress.
_POLL_S = 0.05


def _python_integrand(fn, dim, domain, params, name):
    """A numpy batch function as an Integrand: probes it on two points to
    learn its number of outputs (and to report a wrong shape or dtype
    now rather than during the run)."""
    d, lo, hi = _options.domain(dim, domain)
    params = dict(params or {})
    for k, v in params.items():
        _options.real(f"params[{k!r}]", v, float("-inf"))
    probe = np.array([[(a + b) / 2 for a, b in zip(lo, hi)],
                      [a + (b - a) / 4 for a, b in zip(lo, hi)]])
    outputs = _vegasflow.check_batch(fn(probe, **params), 2, 0).shape[1]
    handle = _vegasflow.python_integrand(
        fn, name or getattr(fn, "__name__", "f"), d, outputs, lo, hi,
        list(params), [float(v) for v in params.values()])
    return Integrand(handle)


def _target(rtol, atol):
    """The accuracy target {rtol, atol}, checked: None for no target, and
    0 everywhere is refused as a target never met."""
    r = None if rtol is None else _options.option("rtol", rtol)
    a = None if atol is None else _options.option("atol", atol)
    if (r is not None or a is not None) and not (r or a):
        raise _options.option_error(
            "rtol" if r is not None else "atol",
            "an accuracy target of 0 is never met; give a positive rtol "
            "or atol, or neither")
    return dict(rtol=r, atol=a)


class Integrator(_vegas.VegasMethods):
    """Adaptive multidimensional Monte Carlo integration (VEGAS+).

    vegasflow.Integrator(integrand, ...) prepares an integration of
    `integrand` with the VEGAS+ algorithm (Lepage, J. Comput. Phys. 439
    (2021) 110386): an adaptive map that concentrates samples where
    |f| is large, and adaptive stratification that gives hypercubes
    samples in proportion to sigma_h^beta. Calling it, integ() or
    integ.run(), runs `warmup` iterations (they adapt and are then
    discarded) and `iterations` measured ones of about `calls` samples
    each, and returns a Result: mean, sdev, chi2_dof, Q, the iterations.

    As in vegas, each call integ(...) returns the statistics of its own
    iterations, while the map and the stratification go on adapting from
    call to call, and warm-up runs before the first call only: adapt with
    one call, measure with the next. run() instead adds every run to the
    statistics so far (as does integ(..., accumulate=True)).

    For a given seed the result is the same bit for bit whatever devices,
    thread counts and schedule ran it, and the same as vegasc's.

    Typical use::

        import vegasflow as vf
        m = vf.compile("examples/lepage.vf")
        integ = vf.Integrator(m.lepage, calls=1e6, seed=1)
        result = integ(iterations=10)
        print(result.summary())
        print("result =", result)        # 1.00004(11)

    A numpy batch function (the slow path, for code not yet in .vf) takes
    an (n, dim) array of points and returns (n,) values, or (n, k) for k
    components, as vegas's batch integrands do::

        integ = vf.Integrator(lambda x: np.exp(-x[:, 0] * x[:, 1]),
                              domain=[(0, 1), (0, 1)])

    vegas's own form works too: the domain first, the integrand at the
    first call, nitn and neval::

        integ = vf.Integrator([[0, 1], [0, 1]])
        integ(f, nitn=10, neval=10_000)           # adapt
        result = integ(f, nitn=10, neval=10_000)  # measure

    Args:
        integrand: an Integrand (module['name'] or module.name), a Module
            with a single integrand, or a Python callable f(x) (then dim=
            or domain= is needed); or, as vegas's Integrator(domain),
            the domain, the integrand then coming with the first call.
        calls: samples per iteration (default 10**6; ~10**5 for easy
            integrands, 10**7-10**9 for hard ones). The samples drawn can
            exceed it slightly (whole hypercubes). neval= is vegas's name.
        iterations: measured iterations of a call (default 10); nitn= is
            vegas's name.
        warmup: warm-up iterations run first (default 5): they train the
            map and the stratification and are left out of the result.
            A call runs them before the first call only; run() before
            each run.
        devices: where to run: 'all' (default: every CPU thread and GPU),
            'cpu', 'cpu:N', 'gpu', 'gpu:0,2', 'sim:R' (a simulated device of
            R million samples/s), comma-separated mixes ('cpu:4,gpu:1').
            A Python integrand runs on CPU threads only.
        seed: seed of the Philox random stream (default 1), 0 <= seed < 2**64.
        alpha: damping of the map's adaptation (default 0.5; 0 keeps the
            map uniform; classic VEGAS codes use 1.5).
        beta: stratification exponent, 0 <= beta <= 1 (default 0.75; 0 is
            classic VEGAS).
        schedule: how tiles are handed to devices: 'adaptive' (default),
            'guided', 'static', 'dynamic:c'. Never changes the result.
        ninc: most increments per axis of the map (default 1000).
        max_hcube: most hypercubes of the stratification (default 10**6).
        on_nonfinite: 'stop' (default: a NaN or inf value ends the run
            with vegasflow.Error naming the point) or 'zero' (count such
            samples as 0; compiled integrands only).
        channel_weights: for an integrand with channels (docs/language.md,
            "Channels"): 'adapt' (default: the weights adapt after every
            iteration) or one positive weight per channel in source
            order, a sequence ([1, 3]) or vegasc's text ('1,3'),
            normalised and held for the whole run.
        channel_floor: the smallest weight adaptation gives a channel,
            below 1/channels (default 0: 0.1/channels).
        precision: the arithmetic of each sample: 'f64' (default) or 'f32'
            (a compiled integrand's values in single precision, for GPUs
            whose double rate is a small fraction of their float rate;
            docs/user-guide.md, "Precision").
        params: {name: value} for the integrand's parameters (a compiled
            integrand: override its defaults; a Python one: its keyword
            arguments, f(x, **params)).
        checkpoint: save the whole state to this file after every
            iteration (see checkpoint()).
        progress: True (a tqdm bar if tqdm is installed, else a line on
            stderr), a callable receiving Progress tuples, or False
            (default). A callable that returns False cancels the run: it
            stops within the iteration under way, which is dropped, and
            run() returns the Result of the iterations completed, with
            stopped_because 'cancelled' (the same run() continues it).
        dim, domain: for a Python callable: the dimension, and the box as
            dim (lo, hi) pairs (default: the unit cube); the domain may be
            the second positional argument, Integrator(f, domain).
        name: for a Python callable: its name in results (default its
            __name__).

    Raises:
        ValueError: an option out of range; the message names it
            ("option 'beta': must be a number between 0 and 1, got 2").
        TypeError: an option of the wrong type, a callable that returns
            something other than real numbers, or a keyword vegasflow does
            not take (the message names what to write instead).
        vegasflow.Error: the library refused the integrand or the devices
            (e.g. devices='gpu' on a machine without one).
    """

    def __init__(self, integrand=None, domain=None, *, calls=1_000_000,
                 iterations=10, warmup=5, devices="all", seed=1, alpha=0.5,
                 beta=0.75, schedule="adaptive", ninc=1000,
                 max_hcube=1_000_000, on_nonfinite="stop",
                 channel_weights="adapt", channel_floor=0, precision="f64",
                 params=None,
                 checkpoint=None, progress=False, dim=None, name=None,
                 rtol=None, atol=None, nitn=None, neval=None, **other):
        _vegas.refuse_keywords("Integrator()", other, _KEYWORDS)
        integrand, domain = _vegas.domain_first(integrand, domain)
        # The table's defaults in the signature (the option doors test
        # reads them there): an alias overrides an option left at it.
        calls = _vegas.alias("calls", calls, "neval", neval, 1_000_000)
        iterations = _vegas.alias("iterations", iterations, "nitn", nitn, 10)
        self.calls = _options.option("calls", calls)
        self.iterations = _options.option("iterations", iterations)
        self.warmup = _options.option("warmup", warmup)
        self.progress = progress
        self._devices_spec = devices
        self._dev = _options.devices(devices)
        self._settings = dict(
            seed=_options.option("seed", seed),
            alpha=_options.option("alpha", alpha),
            beta=_options.option("beta", beta),
            ninc=_options.option("ninc", ninc),
            devices=devices, schedule=_options.schedule(schedule),
            on_nonfinite=on_nonfinite,
            precision=_options.precision(precision))
        weights, text = _options.channel_weights(channel_weights)
        self._settings.update(
            channel_weights=text,
            channel_floor=_options.option("channel_floor", channel_floor))
        self._settings.update(_target(rtol, atol))
        # What making the library's integrator needs besides the settings:
        # kept until the integrand is known (vegas's integ(f, ...)).
        self._setup = dict(max_hcube=_options.option("max_hcube", max_hcube),
                           channel_weights=weights,
                           params=params, checkpoint=checkpoint, dim=dim,
                           domain=domain, name=name)
        self._handle = self._integrand = self._fcn = None
        if integrand is not None:
            self._bind(integrand)
        elif domain is None and dim is None:
            raise TypeError("Integrator() needs an integrand or a domain: "
                            "vf.Integrator(m.name) for a .vf integrand, "
                            "vf.Integrator(f, domain) or vf.Integrator("
                            "domain) and then integ(f, nitn=, neval=) for a "
                            "numpy one")
        else:
            _options.domain(dim, domain)  # refused now, not at the call

    def _bind(self, integrand):
        """Makes the library's integrator for `integrand`."""
        setup = self._setup
        params = setup["params"]
        python = callable(integrand) and not isinstance(integrand, Integrand)
        if isinstance(integrand, Module):
            integrand = integrand.integrand()
        elif python:
            self._fcn = integrand
            integrand = _python_integrand(integrand, setup["dim"],
                                          setup["domain"], params,
                                          setup["name"])
            params = None
        elif not isinstance(integrand, Integrand):
            raise TypeError("Integrator() takes an Integrand, a Module or a "
                            f"callable, got {type(integrand).__name__}")
        elif setup["dim"] is not None or setup["domain"] is not None:
            raise _options.option_error(
                "dim" if setup["dim"] is not None else "domain", "dim and "
                "domain are for Python integrands; a .vf integrand declares "
                f"its own: vf.Integrator(m.{integrand.name})")
        dev = dict(self._dev)
        if python and not dev["gpus_required"]:
            dev["all_gpus"] = False  # no GPU code: 'all' is the CPU
        s = self._settings
        self._handle = _vegasflow._Integrator(
            integrand._h, s["seed"], s["alpha"], s["beta"], s["ninc"],
            setup["max_hcube"], dev["threads"], dev["no_cpu"], dev["gpus"],
            dev["all_gpus"], dev["gpus_required"], dev["simulated"],
            s["schedule"], _options.on_nonfinite(s["on_nonfinite"], python),
            setup["channel_weights"], s["channel_floor"], s["precision"])
        self._integrand = integrand
        for k, v in (params or {}).items():
            self.set_param(k, v)
        self.set_target(s["rtol"], s["atol"])
        if setup["checkpoint"] is not None:
            self.checkpoint(setup["checkpoint"])

    @property
    def _h(self):
        if self._handle is None:
            raise _options.option_error(
                "integrand", "this Integrator was made from a domain and has "
                "no integrand yet: pass it to the first call, as in vegas: "
                "integ(f, nitn=10, neval=10_000)", TypeError)
        return self._handle

    # -- running -----------------------------------------------------------

    def run(self, iterations=None, calls=None, warmup=None, *,
            progress=None):
        """Runs warmup + iterations iterations; returns the Result.

        Args:
            iterations, calls, warmup: for this run (default: the
                Integrator's). A run adds to the statistics of earlier ones
                (a call integ(...) starts its own, as vegas's); after
                load_state() of a run saved midway (or a Ctrl-C), the same
                numbers continue it and give the uninterrupted result bit
                for bit.
            progress: as the constructor's (default: the Integrator's).

        Returns:
            Result: the combined result over every measured iteration
            since the Integrator was made (or its state loaded).

        Raises:
            KeyboardInterrupt: Ctrl-C. The run is cancelled within the
                current iteration, which is dropped; the iterations
                completed stay in the Integrator's result (and the last
                checkpoint), and run() with the same numbers continues
                it bit for bit.
            vegasflow.Error: a NaN/inf value under on_nonfinite='stop' (the
                message names the point), a failed checkpoint, every device
                failing.
            Whatever a Python integrand or a progress callback raised.
        """
        n = _options.option("iterations", self.iterations
                            if iterations is None else iterations)
        c = _options.option("calls", self.calls if calls is None else calls)
        w = _options.option("warmup",
                            self.warmup if warmup is None else warmup)
        show = _progress.display(self.progress if progress is None
                                 else progress)
        plan = self._h.plan()
        # A resumed run continues where it stopped: count its iterations.
        done0 = plan[3] if (plan[3] < plan[0] + plan[2]
                            and plan[:3] == (n, c, w)) else 0
        total = n + w
        state = {"done": done0}

        # Each returns the display's answer: False cancels the run.
        def on_iteration(row):
            state["done"] += 1
            if show is not None:
                return show(_progress.Progress(row["index"], row["warmup"],
                                               state["done"], total, 0, 0))
            return None

        def on_progress(p):
            return show(_progress.Progress(p[0], p[1], state["done"], total,
                                           p[4], p[5]))
        try:
            handle = self._h.run(n, c, w, on_iteration,
                                 on_progress if show is not None else None,
                                 _POLL_S)
        finally:
            if show is not None and hasattr(show, "close"):
                show.close()
        return self._result(handle, n, c, w)

    def extend(self, iterations):
        """Continues the current (or loaded) run to `iterations` measured
        iterations with its calls and warmup: bit for bit the run that had
        asked for that many from the start."""
        n = _options.option("iterations", iterations)
        plan = self._h.plan()
        return self._result(self._h.extend(n), n, plan[1], plan[2])

    def set_target(self, rtol=None, atol=None):
        """An accuracy target, as vegas's rtol/atol: run() then stops once
        the cumulative error is at most max(atol, rtol |mean|) (every
        component; checked from the second measured iteration), and its
        iterations are the cap. None for both: no target. A target given
        as 0 everywhere is never met, so it is refused."""
        target = _target(rtol, atol)
        why = self._h.set_target(target["rtol"] or 0.0, target["atol"] or 0.0)
        self._settings.update(target)
        if why:  # an rtol below single precision's round-off floor
            warnings.warn(why, RuntimeWarning, stacklevel=2)

    def summary(self):
        """vegas's table of the result so far: every iteration with the
        cumulative estimate, chi2/dof and Q, then why the run stopped."""
        return self._h.summary()

    def __call__(self, *args, nitn=None, neval=None, iterations=None,
                 calls=None, warmup=None, progress=None, accumulate=False,
                 **other):
        """vegas's call: integ(f, nitn=10, neval=10_000) runs nitn
        iterations of about neval samples and returns the Result of those
        iterations alone; the map and the stratification go on adapting
        from one call to the next. integ(), integ(iterations, calls,
        warmup) and the keywords iterations=, calls= (vegasflow's names)
        work too.

        Args:
            f: the integrand (optional after the first call): the one the
                Integrator was made with, or, for one made from a domain,
                a numpy batch function, given at the first call.
            nitn, neval: vegas's names for iterations and calls (default:
                the Integrator's).
            warmup: warm-up iterations run first and left out of the
                result (default: the Integrator's before the first call,
                0 afterwards).
            accumulate: True adds this call's iterations to the earlier
                calls' statistics, as run() does (default False: this
                call's statistics alone).
            progress: as the constructor's.

        A call that was interrupted (Ctrl-C, a callback's False) or a run
        restored unfinished by load_state() is continued by the next call
        with the same numbers, bit for bit.
        """
        _vegas.refuse_keywords("integ()", other, _CALL_KEYWORDS)
        fcn, n, c, w = _vegas.call_arguments(args, iterations, calls)
        n = _vegas.alias("iterations", n, "nitn", nitn)
        c = _vegas.alias("calls", c, "neval", neval)
        w = _vegas.alias("warmup", w, "warmup", warmup)
        if fcn is not None:
            self._bind_at_call(fcn)
        n_plan, c_plan, w_plan, done = self._h.plan()
        unfinished = 0 < done < n_plan + w_plan
        started = c_plan != 0
        if w is None:
            w = w_plan if unfinished else 0 if started else self.warmup
        if started and not unfinished and not accumulate:
            self._h.restart_statistics()
        return self.run(n, c, w, progress=progress)

    def _bind_at_call(self, fcn):
        """The integrand of integ(f, ...): the Integrator's own, or the
        first one for an Integrator made from a domain."""
        if self._handle is None:
            self._bind(fcn)
            return
        if fcn is self._fcn or fcn is self._integrand:
            return
        if isinstance(fcn, Module) and fcn.integrand() is self._integrand:
            return
        raise TypeError(
            "integ(f, ...): this Integrator integrates "
            f"'{self._integrand.name}' and has adapted its map to it; for "
            "another integrand make another Integrator (its map can start "
            "from this one's: integ.save_grid(path), then "
            "other.load_grid(path))")

    def _result(self, handle, n=None, c=None, w=None):
        settings = dict(self._settings, calls=c or self.calls,
                        iterations=n or self.iterations,
                        warmup=self.warmup if w is None else w,
                        params=self.params)
        # The map as it is now, for the result's report.
        return Result(handle, self._integrand.name, settings,
                      grid=self._h.grid())

    @property
    def result(self):
        """The Result so far (also after a failed or interrupted run)."""
        return self._result(self._h.result())

    @property
    def plan(self):
        """The current (or last) run: {iterations, calls, warmup, done}."""
        n, c, w, done = self._h.plan()
        return dict(iterations=n, calls=c, warmup=w, done=done)

    # -- parameters and adaptation -------------------------------------------

    @property
    def integrand(self):
        """The Integrand being integrated."""
        return self._integrand

    @property
    def params(self):
        """The parameters' current values: {name: value}."""
        values = self._h.params()
        return dict(zip(self._integrand.params, values))

    def set_param(self, name, value):
        """Sets parameter `name` for the following iterations (no
        recompilation: scan a parameter from a Python loop)."""
        handle = self._h
        if name not in self._integrand.params:
            raise _options.option_error(
                "params", f"integrand '{self._integrand.name}' has no "
                f"parameter {name!r}; it has {list(self._integrand.params)}")
        handle.set_param(name, _options.real(name, value, float("-inf")))

    def freeze(self):
        """Stops adapting the map and the stratification (needed before
        sample() and unweight())."""
        self._h.freeze()

    @property
    def frozen(self):
        """True once freeze() was called."""
        return self._h.frozen()

    # -- files -------------------------------------------------------------------

    def save_grid(self, path):
        """Writes the trained map (dim, ninc, edges) to `path`."""
        self._h.save_grid(str(path))

    def load_grid(self, path):
        """Starts the following iterations from the map saved in `path`."""
        self._h.load_grid(str(path))

    def save_state(self, path):
        """Writes the whole state (map, allocation, statistics, iterations,
        random stream position, parameters, options) to `path`,
        atomically."""
        self._h.save_state(str(path))

    def load_state(self, path):
        """Restores a state saved by an integrator of the same integrand,
        seed, alpha, beta, ninc, max_hcube, on_nonfinite and parameters
        (vegasflow.Error names every difference). A run saved midway is
        continued by run() with the same iterations, calls and warmup."""
        self._h.load_state(str(path))

    def checkpoint(self, path):
        """Saves the state to `path` after every iteration from now on
        (None: stop); fails at once if the folder cannot be written.
        Resume after a crash with load_state(path) and the same run()."""
        self._h.checkpoint_to("" if path is None else str(path))

    # -- devices -----------------------------------------------------------------

    @property
    def devices(self):
        """The workers an iteration runs on: [(name, kind, description)]."""
        return self._h.devices()

    @property
    def notes(self):
        """What the setup noticed but did not refuse (e.g. why there is no
        GPU with devices='all')."""
        return self._h.notes()

    # -- events ------------------------------------------------------------------

    def sample(self, n):
        """Draws `n` weighted events from the trained, frozen integrator.

        Returns Events with x (n, dim), f (n, outputs), jac (n,) and weights
        (n,) = jac * f[:, 0], whose mean is the integral; `x, w =
        integ.sample(n)` unpacks points and weights. Successive calls
        continue the random stream.
        """
        return Events(self._h.sample(_options.integer("n", n, 0), 1 << 16))

    def unweight(self, n, *, wmax_events=100_000):
        """Draws weighted events until `n` are accepted with probability
        |w| / w_max (w_max from a separate pass of `wmax_events`).

        Returns UnweightedEvents (x, f, jac, weights = +-1 or more for an
        overshoot, stats: UnweightStats).
        """
        return UnweightedEvents(self._h.unweight(
            _options.integer("n", n, 1),
            _options.integer("wmax_events", wmax_events, 1)))

    def write_events(self, path, n, *, weighted=False, record=None,
                     wmax_events=100_000, cross_section=None,
                     cross_section_error=None, event_layout="basic",
                     beams=None, beam_energies=None, pdf_id=None):
        """Writes `n` events of the trained, frozen integrator to `path`,
        a Les Houches Event File (.lhe) or HepMC3 ASCII (.hepmc3), as
        vegasc --events does (vf::writeEventFile; docs/user-guide.md,
        "Events for generators"); the file appears whole or not at all.

        Args:
            weighted: weighted events (LHE IDWTUP 4) instead of unweighted
                ones (IDWTUP 3, w_max from `wmax_events` events).
            record: the event record: an Integrand of the same dimension
                returning [pdg, status, E, px, py, pz] per particle, or
                its name in this integrand's module; default NAME_event.
            cross_section, cross_section_error: the header's cross
                section; default the result's (component 0).
            event_layout: what the record returns: "basic" (6 numbers per
                particle) or "lhe" ([idprup, scale, aqed, aqcd], then 13
                per particle with mothers, colours, mass, lifetime, spin).
            beams, beam_energies: LHE <init>'s beams, (pdg1, pdg2) and
                (E1, E2) in GeV, or "2212,2212" and "6500,6500"; default
                the first event's incoming particles.
            pdf_id: the LHAPDF id of the beams' PDF set (LHE PDFSUP).

        Returns an EventFile (written, weights, the unweighting's
        efficiency and w_max).
        """
        rec = self._event_record(record)
        r = self.result
        xs = float(np.atleast_1d(r.mean)[0]) if cross_section is None \
            else _options.real("cross_section", cross_section, float("-inf"))
        xerr = float(np.atleast_1d(r.sdev)[0]) \
            if cross_section_error is None else \
            _options.real("cross_section_error", cross_section_error, 0.0)
        if not isinstance(path, (str, bytes)) and not hasattr(path,
                                                              "__fspath__"):
            raise _options.option_error(
                "path", f"expected a file name, got {type(path).__name__}",
                TypeError)
        shower = shower_settings(event_layout, beams, beam_energies, pdf_id)
        return EventFile(**self._h.write_events(
            rec._h, str(path), _options.integer("n", n, 1), bool(weighted),
            _options.integer("wmax_events", wmax_events, 1), xs, xerr,
            shower))

    def _event_record(self, record):
        """The record Integrand: given, or by name (default NAME_event) in
        the integrand's module."""
        if isinstance(record, Integrand):
            return record
        name = record or self._integrand.name + "_event"
        if not isinstance(name, str):
            raise _options.option_error(
                "record", "expected an Integrand or its name, got "
                f"{type(record).__name__}", TypeError)
        module = self._integrand._module
        if module is None or name not in module:
            raise _options.option_error(
                "record", f"no event record {name!r} in the module of "
                f"'{self._integrand.name}': add an integrand {name}(x in "
                "the same domain) -> [6n] returning [pdg, status, E, px, "
                "py, pz] per particle, or pass record=")
        return module[name]

    def __repr__(self):
        s = self._settings
        what = self._integrand.name if self._integrand else "(integrand " \
            "at the first call)"
        return (f"<vegasflow.Integrator {what}: calls="
                f"{self.calls}, iterations={self.iterations}, warmup="
                f"{self.warmup}, devices={s['devices']!r}, seed={s['seed']}>")


# The keywords each door takes, for the advice on those it does not.
_KEYWORDS = [k for k in inspect.signature(Integrator.__init__).parameters
             if k not in ("self", "integrand", "other")]
_CALL_KEYWORDS = [k for k in inspect.signature(Integrator.__call__).parameters
                  if k not in ("self", "args", "other")]
