#===- python/vegasflow/__init__.py - import vegasflow -----------------------===#
#
# The public API: compile() a .vf integrand (or bring a numpy batch
# function), integrate it with Integrator (VEGAS+ on every CPU thread and
# GPU, bitwise reproducible for a seed), read the Result, draw Events.
# docs/python.md is the guide; __init__.pyi the typed signatures.
#
#===------------------------------------------------------------------------===#
"""vegasflow: adaptive VEGAS+ integration of JIT-compiled integrands.

    import vegasflow as vf
    m = vf.compile('''
        param a = 0.1
        integrand gauss(x in [0, 1]^4) =
            prod(i in 0..4: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
    ''')
    integ = vf.Integrator(m.gauss, calls=100_000, seed=1)
    result = integ(iterations=10)
    print(result.summary())
    print(result)                 # e.g. 1.00002(21)

compile() turns .vf source into a Module of Integrands; Integrator runs
VEGAS+ on one (or on a Python function of an (n, dim) array); Result
holds mean, sdev, chi2_dof, Q, the iterations and device statistics;
Integrator.sample() and unweight() draw events. See docs/python.md.
"""

import sys as _sys

from . import _build


def _other_interpreter(cause):
    """The ImportError of an interpreter this build is not for (another
    Python, or one without numpy): which one it is, and which to run."""
    here = (f"Python {_sys.version_info.major}.{_sys.version_info.minor} "
            f"at {_sys.executable}")
    built = f"Python {_build.VERSION[0]}.{_build.VERSION[1]} at {_build.PYTHON}"
    return ImportError(
        f"vegasflow cannot be imported by {here} ({cause}): it was built "
        f"for {built}, with numpy (Debian's python3-numpy). Run that one, "
        f"e.g. {_build.PYTHON} -c 'import vegasflow', or rebuild for this "
        f"one with cmake -DVF_PYTHON={_sys.executable}")


try:
    import numpy as _numpy  # noqa: F401  (every part below needs it)
    from ._vegasflow import Error
except ImportError as _cause:
    raise _other_interpreter(_cause) from _cause

from ._compile import CompileError, Diagnostic, Integrand, Module, compile
from ._events import EventFile, Events, UnweightedEvents, UnweightStats
from ._integrator import Integrator
from ._map import Map
from ._progress import Progress
from ._result import (Channel, ChannelRow, Derived, DeviceStats, Histogram,
                      IterationRow, Result, WeightList)
from ._vegas import batchintegrand, lbatchintegrand, rbatchintegrand
from . import _vegasflow

__version__ = _vegasflow.version()


def devices():
    """The devices of this machine: {'cpu_threads': N, 'gpus': [{index,
    name, major, minor, multiprocessors, memory_bytes}], 'no_gpu_reason':
    why there is none ('' if there are GPUs)}."""
    return _vegasflow.list_devices()


__all__ = [
    "Channel", "ChannelRow", "CompileError", "Derived", "DeviceStats",
    "Diagnostic", "Error",
    "EventFile", "Events",
    "Histogram", "Integrand", "Integrator", "IterationRow", "Map", "Module",
    "Progress", "Result", "UnweightStats", "UnweightedEvents", "WeightList",
    "batchintegrand", "compile", "devices", "lbatchintegrand",
    "rbatchintegrand",
]
