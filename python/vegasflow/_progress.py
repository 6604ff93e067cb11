#===- python/vegasflow/_progress.py - Progress reports during a run -------===#
#
# Integrator.run(progress=...) takes a callable, which receives a Progress
# tuple on the caller's thread a few times a second and after each
# iteration, or True: a tqdm bar when tqdm is installed, otherwise one line
# on stderr rewritten in place. tqdm is never required.
#
#===------------------------------------------------------------------------===#
"""Progress reporting: Progress and the built-in displays."""

import sys
from typing import NamedTuple


class Progress(NamedTuple):
    """Where a run stands.

    Attributes:
        iteration: the current iteration's index (as IterationRow.index).
        warmup: True during a warm-up iteration.
        done: iterations of this run finished; total: of the run.
        samples_done, samples: within the current iteration.
    """
    iteration: int
    warmup: bool
    done: int
    total: int
    samples_done: int
    samples: int

    @property
    def fraction(self):
        """The share of the run done, 0 to 1."""
        within = self.samples_done / self.samples if self.samples else 0.0
        return min(1.0, (self.done + within) / self.total) if self.total else 1.0


class _Text:
    """'itn 3/15 [#####-----] 35%' on stderr, rewritten in place."""

    def __call__(self, p):
        bar = int(20 * p.fraction)
        sys.stderr.write(f"\ritn {p.iteration}{'w' if p.warmup else ''} "
                         f"({p.done}/{p.total}) [{'#' * bar}{'-' * (20 - bar)}]"
                         f" {100 * p.fraction:3.0f}%")
        sys.stderr.flush()

    def close(self):
        sys.stderr.write("\n")


class _Tqdm:
    """A tqdm bar over the run's iterations."""

    def __init__(self, tqdm):
        self._tqdm, self._bar = tqdm, None

    def __call__(self, p):
        if self._bar is None:
            self._bar = self._tqdm(total=p.total, unit="itn")
        self._bar.n = p.done + (p.samples_done / p.samples if p.samples else 0)
        self._bar.set_postfix_str(f"itn {p.iteration}"
                                  f"{'w' if p.warmup else ''}", refresh=False)
        self._bar.refresh()

    def close(self):
        if self._bar is not None:
            self._bar.close()


def display(progress):
    """The callable and its close() for run(progress=...), or None."""
    if progress is None or progress is False:
        return None
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            return _Text()
        return _Tqdm(tqdm)
    if callable(progress):
        return progress
    raise TypeError(f"progress must be True, False or a callable, got "
                    f"{progress!r}")
