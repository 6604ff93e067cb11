#===- python/vegasflow/_events.py - Events as numpy arrays ------------------===#
#
# What Integrator.sample and Integrator.unweight return: the points and
# weights of the events as numpy arrays (vf/Events.h has the definitions:
# jac = 1/q(x), weight = jac * f_0(x) for weighted events; +-1, or more for
# an overshooting event, for unweighted ones), and what write_events
# reports of the LHE or HepMC3 file it wrote (EventFile).
#
#===------------------------------------------------------------------------===#
"""Weighted and unweighted events."""

from dataclasses import dataclass

import numpy as np

from . import _options


class Events:
    """Weighted events drawn from a trained, frozen integrator.

    `x, weights = integ.sample(n)` unpacks the two arrays vegas users
    reach for; the mean of weights is the integral.

    Attributes:
        x: the points, shape (n, dim).
        f: the integrand there, shape (n, outputs).
        jac: the sampling weight 1/q(x), shape (n,).
        weights: jac * f[:, 0], shape (n,).
        channel: a multi-channel integrand's channel of each event (an
            index into result.channels), shape (n,); None without
            channels. Such an event's f is its channel's term and its jac
            1/(alpha_c q_c(x)).
        weight_lists: the integrand's `weights` lists by name, each an
            array of shape (n, entries): column j the event weight of the
            list's entry lo + j, in weights' scale (jac * e_k for
            weighted events, weights * e_k / f[:, 0] for unweighted
            ones); empty without lists.
    """

    def __init__(self, d):
        self.x, self.f, self.jac, self.weights = (d["x"], d["f"], d["jac"],
                                                  d["weights"])
        self.channel = d.get("channel")
        self.weight_lists = dict(d.get("weight_lists", {}))

    def __len__(self):
        return len(self.weights)

    def __iter__(self):
        """Yields x and weights, so that `x, w = events` works."""
        return iter((self.x, self.weights))

    def __repr__(self):
        return (f"<vegasflow.{type(self).__name__}: {len(self)} events in "
                f"{self.x.shape[1]} dimensions>")


@dataclass(frozen=True)
class UnweightStats:
    """How the unweighting went.

    Attributes:
        wmax: the w_max estimate (max |w| of a separate pass).
        drawn: weighted events examined; accepted: events kept.
        overshoot: kept events whose |w| exceeded wmax (kept with weight
            |w| / wmax); overshoot_fraction = overshoot / accepted.
        efficiency: accepted / drawn.
        mean, sdev: the integral the events represent and its error.
        channel_efficiency: a multi-channel integrand's efficiency per
            channel, in source order (empty without channels).
    """
    wmax: float
    drawn: int
    accepted: int
    overshoot: int
    overshoot_fraction: float
    efficiency: float
    mean: float
    sdev: float
    channel_efficiency: tuple = ()


class UnweightedEvents(Events):
    """Unweighted events: weights are sign(w) * max(1, |w| / wmax), i.e.
    +-1 except for overshooting events. stats holds UnweightStats; the
    integral is stats.wmax * weights.sum() / stats.drawn."""

    def __init__(self, d):
        super().__init__(d)
        stats = dict(d["stats"])
        stats["channel_efficiency"] = tuple(stats.get("channel_efficiency",
                                                      ()))
        self.stats = UnweightStats(**stats)

    @property
    def integral(self):
        """wmax * sum(weights) / drawn: what the events represent."""
        return self.stats.wmax * float(np.sum(self.weights)) / self.stats.drawn


@dataclass(frozen=True)
class EventFile:
    """What Integrator.write_events wrote (vf::EventFileReport).

    Attributes:
        path: the file; format: 'lhe' or 'hepmc3' (by its ending).
        written: events written; weighted: weighted rather than unweighted.
        sum_weights: the sum of the events' weights; max_weight: the
            largest |weight| (weighted) or w_max (unweighted).
        efficiency, wmax, overshoot_fraction: how the unweighting went
            (None for weighted events).
    """
    path: str
    format: str
    written: int
    weighted: bool
    sum_weights: float
    max_weight: float
    efficiency: object = None
    wmax: object = None
    overshoot_fraction: object = None


def shower_settings(layout, beams, beam_energies, pdf_id):
    """write_events' settings for a shower (vf::EventFileOptions): the
    record's layout, the beams and their energies as the library reads
    them ("a,b" from a pair, a text as it is, "" for none) and the PDF
    set's LHAPDF id (-1 for none)."""
    def pair(v):
        if v is None:
            return ""
        return v if isinstance(v, str) else ",".join(str(x) for x in v)
    return {"layout": str(layout), "beams": pair(beams),
            "beam_energies": pair(beam_energies),
            "pdf_id": -1 if pdf_id is None else
            _options.integer("pdf_id", pdf_id, 0, 2**31 - 1)}
