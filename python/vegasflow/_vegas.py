#===- python/vegasflow/_vegas.py - vegas's spellings ------------------------===#
#
# What a script written for Lepage's vegas types, read here: the domain as
# Integrator's first argument, the integrand given at call time,
# integ(f, nitn=, neval=), the batchintegrand decorators, settings(); and
# the keywords vegas has and vegasflow spells otherwise (or has not),
# answered with what the user probably meant rather than Python's bare
# "unexpected keyword argument".
#
#===------------------------------------------------------------------------===#
"""vegas compatibility: argument forms, decorators and advice."""

import difflib
import numbers

from . import _options, _vegasflow
from ._compile import Integrand, Module
from ._map import Map

# vegas's keywords that vegasflow spells otherwise or does not have, with
# what to write instead.
_ADVICE = {
    "max_nhcube": "vegasflow calls it max_hcube=",
    "nstrat": "the strata per axis follow from calls= and max_hcube= here",
    "adapt": "adapt=False is integ.freeze() here (it stops adapting for "
             "good)",
    "adapt_to_errors": "not available: the map adapts to |f|^2",
    "analyzer": "progress= takes a callable (or True for a bar)",
    "ran_array_generator": "the random stream is Philox, chosen by seed=",
    "sync_ran": "every device draws from one Philox stream; seed= sets it",
    "mpi": "run under mpirun with vegasc for several processes",
    "nhcube_batch": "batches are the library's tiles: nothing to set",
    "min_neval_batch": "batches are the library's tiles: nothing to set",
    "minimize_mem": "nothing to set: memory follows calls=",
    "uses_jac": "not available: the integrand gets points only",
    "neval_frac": "not available: beta= alone sets the stratification",
    "gpu_pad": "devices= chooses the GPUs",
}

# Integrator's settings, which a call cannot change (vegas lets
# integ(f, alpha=...) change them for the following iterations).
_CONSTRUCTOR_ONLY = ("alpha", "beta", "seed", "ninc", "max_hcube", "devices",
                     "schedule", "on_nonfinite", "precision", "rtol",
                     "atol")


def refuse_keywords(where, keywords, known):
    """A TypeError for keywords `where` does not take, naming what the user
    probably meant: vegas's spelling's equivalent, or a close name."""
    if not keywords:
        return
    name = sorted(keywords)[0]
    if name in _ADVICE:
        hint = _ADVICE[name]
    elif where != "Integrator()" and name in _CONSTRUCTOR_ONLY:
        hint = (f"set {name}= when making the Integrator: a call cannot "
                "change it")
    else:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f"did you mean {close[0]}=?" if close else (
            "the keywords are " + ", ".join(sorted(known)))
    raise TypeError(f"{where} got an unexpected keyword argument {name!r}: "
                    f"{hint}")


def is_integrand(value):
    """Whether `value` is something to integrate rather than a domain or a
    number: a callable, an Integrand or a Module."""
    return callable(value) or isinstance(value, (Integrand, Module))


def domain_first(integrand, domain):
    """vegas's Integrator(domain): a first argument that is a box, not an
    integrand, is the domain. Returns (integrand or None, domain)."""
    if integrand is None or is_integrand(integrand):
        return integrand, domain
    if domain is not None:
        raise TypeError(
            "Integrator(): the first argument is not an integrand, and "
            "domain= is given too; write Integrator(f, domain) or "
            "Integrator(domain) and pass f when calling: integ(f, nitn=, "
            "neval=)")
    if isinstance(integrand, (str, bytes)):
        raise TypeError(
            "Integrator() takes an Integrand, a Module, a callable or a "
            f"domain, got the string {integrand!r}; compile .vf source "
            "first: vf.Integrator(vf.compile(source).name)")
    return None, integrand


def call_arguments(args, iterations, calls):
    """integ(...)'s positional arguments: vegas's integ(f, ...) puts the
    integrand first; vegasflow's integ(iterations, calls, warmup) numbers.
    Returns (integrand or None, iterations, calls, warmup)."""
    fcn = None
    if args and is_integrand(args[0]):
        fcn, args = args[0], args[1:]
    if len(args) > 3:
        raise TypeError("integ() takes the integrand and up to three numbers "
                        f"(iterations, calls, warmup), got {len(args)} "
                        "numbers")
    for value in args:
        if not isinstance(value, numbers.Real) or isinstance(value, bool):
            raise TypeError(
                f"integ() got {value!r} where a number is expected: the "
                "integrand comes first, then the keywords, as in "
                "integ(f, nitn=10, neval=10_000)")
    given = list(args) + [None] * (3 - len(args))
    for i, (name, keyword) in enumerate((("iterations", iterations),
                                         ("calls", calls))):
        if keyword is not None and given[i] is not None:
            raise TypeError(f"integ() got {name} twice (as a number and as "
                            "a keyword)")
        if keyword is not None:
            given[i] = keyword
    return fcn, given[0], given[1], given[2]


def alias(name, value, vegas_name, vegas_value, default=None):
    """One of an option and its vegas alias (nitn for iterations, neval
    for calls), not both; `value` at its `default` counts as not
    given."""
    if vegas_value is None:
        return value
    if value is not None and value != default:
        raise _options.option_error(
            name, f"given twice: as {name}= and as vegas's {vegas_name}=; "
            "keep one", TypeError)
    return vegas_value


def batchintegrand(f):
    """vegas's @batchintegrand: vegasflow calls every Python integrand with
    a batch of points (n, dim), so the decorator leaves f as it is."""
    return f


def lbatchintegrand(f):
    """vegas's @lbatchintegrand (the batch index first): the same as
    batchintegrand."""
    return f


def rbatchintegrand(f):
    """vegas's @rbatchintegrand (the batch index last): f receives points
    of shape (dim, n) and returns (n,) or (k, n) values."""
    import numpy as np

    def by_rows(x, **params):
        return np.asarray(f(x.T, **params)).T
    by_rows.__name__ = getattr(f, "__name__", "f")
    by_rows.__doc__ = f.__doc__
    return by_rows


class VegasMethods:
    """Integrator's methods under vegas's names: map, random_batch(),
    settings()."""

    @property
    def map(self):
        """The adapted VEGAS map as it is now (a Map: grid, inc, ninc,
        dim, map(y) and jac(y), in the integration variables, as vegas's
        AdaptiveMap); None before the first iteration. A snapshot: it
        does not change with later iterations."""
        grid = self._h.grid()
        if not grid.edges:
            return None
        box = self._integrand.domain(**self.params)
        return Map(grid, box[:, 0], box[:, 1])

    def random_batch(self, neval=None, *, batch=1 << 16):
        """vegas's random_batch(): yields (x, wgt) batches of points from
        the frozen map, about `neval` points in all (default: calls), with
        weights such that sum(wgt * f(x)) over every batch estimates the
        integral. vegasflow evaluates the integrand while it draws, so
        this is integ.sample(neval) (Events: x, f, jac) in slices; draw
        from that directly to have f too.

        Raises vegasflow.Error naming freeze() when the map is not frozen:
        vegasflow draws points only from a map that no longer adapts."""
        n = _options.integer("neval", self.calls if neval is None
                             else neval, 1)
        size = _options.integer("batch", batch, 1)
        if not self.frozen:
            raise _vegasflow.Error(
                "random_batch() draws from the trained map, which must stop "
                "adapting first: call integ.freeze() after training "
                "(vegas's adapt=False)")
        return _slices(self.sample(n), n, size)

    def settings(self):
        """vegas's settings(): the integrator's settings as a table."""
        return _settings_text(self)


def _slices(events, n, size):
    """(x, wgt) of `events` in slices of `size`, wgt = jac / n."""
    for start in range(0, n, size):
        part = slice(start, min(start + size, n))
        yield events.x[part], events.jac[part] / n


def _settings_text(integ):
    """The settings table of Integrator.settings()."""
    s = integ._settings
    rows = [("integrand", integ._integrand.name if integ._integrand
             else "(given at the first call)"),
            ("calls (neval)", integ.calls),
            ("iterations (nitn)", integ.iterations),
            ("warmup", f"{integ.warmup} (before the first call)"),
            ("alpha", s["alpha"]), ("beta", s["beta"]), ("ninc", s["ninc"]),
            ("max_hcube", integ._setup["max_hcube"]), ("seed", s["seed"]),
            ("devices", s["devices"]), ("schedule", s["schedule"]),
            ("on_nonfinite", s["on_nonfinite"]),
            ("precision", s["precision"]),
            ("rtol, atol", f"{s['rtol']}, {s['atol']}")]
    if integ._handle is not None:
        rows.append(("frozen", integ.frozen))
    width = max(len(k) for k, _ in rows)
    return "Integrator settings:\n" + "".join(
        f"    {k:<{width}}  {v}\n" for k, v in rows)
