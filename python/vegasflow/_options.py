#===- python/vegasflow/_options.py - Checking Integrator's options ----------===#
#
# Every option is checked here before the library sees it, so that a bad
# value raises ValueError (or TypeError for a wrong type) whose message
# starts with the option's name, as vegasc names its flag. The keywords'
# types and ranges are the library's option table (vf/Options.def). The
# device list (all, cpu, cpu:N, gpu, gpu:0,2, sim:R, comma-separated) is
# read by the library's parser (vf::parseDevices), the one vegasc's
# --devices uses; so are the channel weights' text ('adapt', '1,3':
# vf/ChannelWeightsSpec.h).
#
#===------------------------------------------------------------------------===#
"""Validation of vegasflow.Integrator's options."""

import math
import numbers

from . import _vegasflow


def option_error(name, message, kind=ValueError):
    """The error for option `name`: "option 'name': message"."""
    return kind(f"option '{name}': {message}")


def integer(name, value, lo, hi=None):
    """`value` as an int in [lo, hi]; bools and floats with a fraction are
    refused (1e6 is accepted as 1000000)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise option_error(name, f"expected an integer, got {value!r}",
                           TypeError)
    if isinstance(value, numbers.Integral):
        v = int(value)
    elif math.isfinite(value) and float(value).is_integer():
        v = int(value)
    else:
        raise option_error(name, f"expected an integer, got {value!r}")
    if v < lo or (hi is not None and v > hi):
        bound = f">= {lo}" if hi is None else f"between {lo} and {hi}"
        raise option_error(name, f"must be {bound}, got {v}")
    return v


def real(name, value, lo, hi=None):
    """`value` as a finite float in [lo, hi]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise option_error(name, f"expected a number, got {value!r}",
                           TypeError)
    v = float(value)
    if not math.isfinite(v) or v < lo or (hi is not None and v > hi):
        bound = (f"between {lo} and {hi}" if hi is not None else
                 f">= {lo}" if math.isfinite(lo) else "that is finite")
        raise option_error(name, f"must be a number {bound}, got {value!r}")
    return v


# Integrator's keywords, each with its row of the library's option table.
_TABLE = {row["python"]: row for row in _vegasflow.options() if row["python"]}


def option(keyword, value):
    """`value` of Integrator's `keyword`, checked for the type and range
    the option table gives it."""
    row = _TABLE[keyword]
    lo, hi = row["lo"], row["hi"]
    if row["type"] == "whole number":
        return integer(keyword, value, int(lo),
                       2**64 - 1 if math.isinf(hi) else int(hi))
    return real(keyword, value, lo, None if math.isinf(hi) else hi)


def devices(spec):
    """The device list (all, cpu, cpu:N, gpu, gpu:N[,M...], sim:R) as the
    library's device options, read by the library's own parser."""
    if not isinstance(spec, str):
        raise option_error("devices", f"expected a string such as 'all' or "
                           f"'cpu:4', got {spec!r}", TypeError)
    return _vegasflow.parse_devices(spec)


def schedule(value):
    """The scheduling policy, checked by the library."""
    if not isinstance(value, str):
        raise option_error("schedule", f"expected a string, got {value!r}",
                           TypeError)
    why = _vegasflow.check_schedule(value)
    if why:
        raise option_error("schedule", why)
    return value


def channel_weights(value):
    """A multi-channel integrand's weights as (list, text): [] and 'adapt'
    for 'adapt' (the default: they adapt), otherwise one positive number
    per channel, given as a sequence of numbers or as vegasc's text
    '1,3', read by the library's parser."""
    if isinstance(value, str):
        weights, why = _vegasflow.parse_channel_weights(value)
        if why:
            raise option_error("channel_weights", why)
        return weights, _vegasflow.channel_weights_text(weights)
    want = ("expected 'adapt', a string such as '1,3' or a sequence of "
            f"numbers, got {value!r}")
    try:
        items = list(value)
    except TypeError:
        raise option_error("channel_weights", want, TypeError) from None
    if any(isinstance(w, bool) or not isinstance(w, numbers.Real)
           for w in items):
        raise option_error("channel_weights", want, TypeError)
    weights = [float(w) for w in items]
    if not weights:
        raise option_error("channel_weights", "is empty: give one weight "
                           "per channel, or 'adapt'")
    for k, w in enumerate(weights):
        if not (math.isfinite(w) and w > 0):
            raise option_error("channel_weights", f"weight {k + 1} must be "
                               f"positive and finite, got {items[k]!r}")
    return weights, _vegasflow.channel_weights_text(weights)


def on_nonfinite(value, python_integrand):
    """True for 'zero', False for 'stop'."""
    if value not in ("stop", "zero"):
        raise option_error("on_nonfinite",
                           f"expected 'stop' or 'zero', got {value!r}")
    if value == "zero" and python_integrand:
        raise option_error(
            "on_nonfinite", "'zero' is not available for a Python integrand "
            "(an exception in it must stop the run, not count as 0); "
            "return 0 there yourself, e.g. np.nan_to_num(values, nan=0.0)")
    return value == "zero"


def precision(value):
    """The arithmetic of each sample: 'f64' or 'f32'."""
    if value not in ("f64", "f32"):
        raise option_error("precision",
                           f"expected 'f64' or 'f32', got {value!r}")
    return value


def domain(dim, value):
    """The box of a Python integrand as (lo, hi) lists: `value` is a
    sequence of dim (lo, hi) pairs, or None for the unit cube."""
    import numpy as np
    if value is None:
        if dim is None:
            raise option_error("dim", "a Python integrand needs dim= or "
                               "domain=")
        d = integer("dim", dim, 1)
        return d, [0.0] * d, [1.0] * d
    box = np.asarray(value, dtype=float)
    if box.ndim != 2 or box.shape[1] != 2 or box.shape[0] == 0:
        raise option_error("domain", "expected a sequence of (lo, hi) pairs, "
                           f"one per dimension; got shape {box.shape}")
    if dim is not None and integer("dim", dim, 1) != box.shape[0]:
        raise option_error("domain", f"has {box.shape[0]} intervals but dim "
                           f"is {dim}")
    for d, (lo, hi) in enumerate(box):
        if not (np.isfinite(lo) and np.isfinite(hi) and hi > lo):
            raise option_error("domain", f"interval {d} [{lo}, {hi}] is empty "
                               "or not finite")
    return box.shape[0], list(box[:, 0]), list(box[:, 1])
