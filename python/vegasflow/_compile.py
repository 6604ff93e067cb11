#===- python/vegasflow/_compile.py - compile(), Module, Integrand -----------===#
#
# vegasflow.compile turns .vf source (text or a file) into a Module whose
# integrands are Integrand objects: name, dimension, outputs, parameters
# with defaults, the domain, and evaluation at points. A compile error is a
# CompileError: its message is the compiler's caret diagnostic and its
# `errors` list gives file, line and column of each error, read from the
# "file:line:col: error: message" lines (the library reports diagnostics
# as text only).
#
#===------------------------------------------------------------------------===#
"""Compiling .vf source: compile(), Module, Integrand, CompileError."""

import os
import re
from typing import NamedTuple

import numpy as np

from . import _vegasflow

Error = _vegasflow.Error


class Diagnostic(NamedTuple):
    """One error of a CompileError: where it is and what it says."""
    file: str
    line: int
    column: int
    message: str


_DIAGNOSTIC = re.compile(r"^(.*?):(\d+):(\d+): error: (.*)$", re.MULTILINE)


class CompileError(Error):
    """The .vf source did not compile.

    str(err) is the compiler's diagnostic, each error with its source line
    and a caret under the place. Attributes:

    Attributes:
        errors: list of Diagnostic(file, line, column, message), one per
            error, in the order reported.
        file, line, column: where the first error is (None if the
            diagnostic has no location, e.g. a file that cannot be read).
    """

    def __init__(self, text):
        super().__init__(text)
        self.errors = [Diagnostic(m[1], int(m[2]), int(m[3]), m[4])
                       for m in _DIAGNOSTIC.finditer(text)]
        first = self.errors[0] if self.errors else None
        self.file = first.file if first else None
        self.line = first.line if first else None
        self.column = first.column if first else None


class Integrand:
    """One integrand of a compiled Module.

    Attributes:
        name: its name in the source.
        dim: the number of integration variables.
        outputs: the number of components (1: a scalar integrand).
        params: dict of the run-time parameters and their defaults, in
            source order (set them with Integrator.set_param).
    """

    def __init__(self, handle, module=None):
        self._h = handle
        self._module = module  # keeps the compiled code alive

    name = property(lambda self: self._h.name, doc="Name in the source.")
    dim = property(lambda self: self._h.dim, doc="Number of variables.")
    outputs = property(lambda self: self._h.outputs,
                       doc="Number of components (1: scalar).")

    @property
    def params(self):
        """The parameters and their defaults: {name: default}."""
        return dict(zip(self._h.param_names, self._h.param_defaults))

    def _values(self, params):
        unknown = set(params) - set(self._h.param_names)
        if unknown:
            raise ValueError(f"integrand '{self.name}' has no parameter "
                             f"{sorted(unknown)[0]!r}; it has "
                             f"{list(self._h.param_names)}")
        full = self.params
        full.update(params)
        return [float(v) for v in full.values()]

    def domain(self, **params):
        """The integration box, an array of shape (dim, 2) of (lo, hi) rows,
        for the parameters' defaults or the values given by keyword."""
        lo, hi = self._h.domain(self._values(params))
        return np.column_stack([lo, hi])

    def __call__(self, x, **params):
        """The integrand at points: x of shape (n, dim) gives (n,) values
        (or (n, outputs) for a vector integrand); one point of shape (dim,)
        gives a float (or an (outputs,) array). Parameters by keyword."""
        pts = np.asarray(x, dtype=float)
        one = pts.ndim == 1
        out = self._h.evaluate(pts[None, :] if one else pts,
                               self._values(params))
        if self.outputs == 1:
            out = out[:, 0]
        return (out[0].item() if self.outputs == 1 else out[0]) if one else out

    def __repr__(self):
        return (f"<vegasflow.Integrand {self.name}: dim={self.dim}, "
                f"outputs={self.outputs}, params={self.params}>")


class Module:
    """A compiled .vf file: its integrands by name (module['f'] or
    module.f), in source order when iterated."""

    def __init__(self, handle):
        self._h = handle
        self._integrands = {n: Integrand(handle.integrand(n), self)
                            for n in handle.names()}

    @property
    def names(self):
        """The integrands' names, in source order."""
        return list(self._integrands)

    @property
    def integrands(self):
        """{name: Integrand}, in source order."""
        return dict(self._integrands)

    @property
    def warnings(self):
        """The compiler's warnings ('' if none)."""
        return self._h.warnings

    @property
    def from_cache(self):
        """True when the compiled code came from the on-disk cache."""
        return self._h.from_cache

    def integrand(self, name=None):
        """The integrand `name`; None picks the module's only one."""
        if name is None:
            if len(self._integrands) != 1:
                raise ValueError(f"the module has {len(self._integrands)} "
                                 f"integrands {self.names}; name one")
            return next(iter(self._integrands.values()))
        return self[name]

    def __getitem__(self, name):
        try:
            return self._integrands[name]
        except KeyError:
            raise KeyError(f"no integrand {name!r}; the module has "
                           f"{self.names}") from None

    def __getattr__(self, name):
        integrands = self.__dict__.get("_integrands", {})
        if name in integrands:
            return integrands[name]
        raise AttributeError(name)

    def __iter__(self):
        return iter(self._integrands.values())

    def __len__(self):
        return len(self._integrands)

    def __contains__(self, name):
        return name in self._integrands

    def __dir__(self):
        return list(super().__dir__()) + self.names

    def __repr__(self):
        return f"<vegasflow.Module: {', '.join(self.names)}>"


def _is_path(source):
    if isinstance(source, os.PathLike):
        return True
    return "\n" not in source and (source.endswith(".vf")
                                   or os.path.isfile(source))


def _pdf_sets(pdf_sets):
    """compile()'s pdf_sets as {str: str}, or TypeError naming the entry."""
    if pdf_sets is None:
        return {}
    if not isinstance(pdf_sets, dict):
        raise TypeError(f"pdf_sets: expected a dict {{pdf item: set}}, got "
                        f"{type(pdf_sets).__name__}")
    out = {}
    for item, chosen in pdf_sets.items():
        if not isinstance(item, str) or \
                not isinstance(chosen, (str, os.PathLike)):
            raise TypeError(f"pdf_sets: {item!r}: {chosen!r}: expected a pdf "
                            f"item's name and a set name or folder")
        out[item] = os.fspath(chosen)
    return out


def compile(source, *, name=None, cache=True, cache_dir=None, pdf_sets=None):
    """Compiles .vf source into a Module (JIT for this CPU, cached on disk).

    Args:
        source: the .vf text, or the path of a .vf file (a str without a
            newline that ends in '.vf' or names a file, or a PathLike).
        name: the name diagnostics give text source (default '<string>').
        cache: reuse compiled code from the on-disk cache and store new
            code there (default True).
        cache_dir: the cache folder (default $VF_CACHE_DIR, else
            $XDG_CACHE_HOME/vegasflow, else ~/.cache/vegasflow).
        pdf_sets: {pdf item: set} replacing the sets the source names, a
            set name (searched as LHAPDF searches) or a set's folder (a str
            with '/', or a PathLike), e.g. {"p": "CT18LO"}.

    Returns:
        Module: the compiled integrands by name.

    Raises:
        CompileError: the source has errors (message: the diagnostics with
            carets; attributes errors, file, line, column).
        FileNotFoundError: a path that does not exist.
    """
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"compile() takes .vf text or a path, got "
                        f"{type(source).__name__}")
    is_file = _is_path(source)
    if is_file:
        source = os.fspath(source)
        if not os.path.isfile(source):
            raise FileNotFoundError(f"no .vf file {source!r}")
    sets = _pdf_sets(pdf_sets)
    try:
        handle = _vegasflow.compile(source, is_file, name or "<string>",
                                    bool(cache), os.fspath(cache_dir or ""),
                                    sets)
    except _vegasflow._CompileFailure as e:
        raise CompileError(str(e)) from None
    return Module(handle)
