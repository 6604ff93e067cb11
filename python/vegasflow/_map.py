#===- python/vegasflow/_map.py - The adapted map, as vegas shows it ---------===#
#
# Integrator.map: a snapshot of the VEGAS map in vegas's AdaptiveMap
# terms (grid, inc, ninc, dim, map(y) -> x and its Jacobian), read from the
# library's edges. The library's map goes from the unit cube of y to the
# unit cube; the integrand's box is an affine map after it
# (runtime/integrator/AdaptiveMap.h), which this class applies so that
# `grid` is in the integration variables, as vegas's is. It is read-only:
# the integrator adapts its own map (freeze() stops it).
#
#===------------------------------------------------------------------------===#
"""Map: the integrator's adapted VEGAS map."""

import numpy as np


class Map:
    """The adapted VEGAS map when it was taken (Integrator.map).

    For axis d, increment i spans grid[d, i] to grid[d, i + 1] in x, and
    each increment receives the same share 1/ninc of y in [0, 1), so
    x_d(y) = grid[d, i] + inc[d, i] (y_d ninc - i) with i = floor(y_d ninc)
    and the Jacobian is prod_d ninc inc[d, i].

    Attributes:
        dim: the dimension.
        ninc: increments per axis.
        grid: (dim, ninc + 1) edges in the integration variables.
        inc: (dim, ninc) increments, grid[:, 1:] - grid[:, :-1].
    """

    def __init__(self, handle, lo, hi):
        self.dim = int(handle.dim)
        self.ninc = int(handle.ninc)
        unit = np.array(handle.edges, dtype=float).reshape(self.dim,
                                                           self.ninc + 1)
        lo = np.asarray(lo, dtype=float)[:, None]
        width = np.asarray(hi, dtype=float)[:, None] - lo
        self.grid = lo + width * unit
        self.inc = np.diff(self.grid, axis=1)

    def _increments(self, y):
        y = np.atleast_2d(np.asarray(y, dtype=float))
        if y.shape[-1] != self.dim:
            raise ValueError(f"map: expected points of {self.dim} "
                             f"coordinates in [0, 1), got shape {y.shape}")
        scaled = y * self.ninc
        i = np.clip(np.floor(scaled).astype(int), 0, self.ninc - 1)
        return y, i, scaled - i

    def __call__(self, y):
        """x(y) for points y of shape (n, dim) (or one point (dim,))."""
        one = np.ndim(y) == 1
        _, i, delta = self._increments(y)
        axes = np.arange(self.dim)
        x = self.grid[axes, i] + self.inc[axes, i] * delta
        return x[0] if one else x

    def jac(self, y):
        """The Jacobian dx/dy at points y of shape (n, dim)."""
        one = np.ndim(y) == 1
        _, i, _ = self._increments(y)
        axes = np.arange(self.dim)
        jac = np.prod(self.ninc * self.inc[axes, i], axis=-1)
        return float(jac[0]) if one else jac

    def __repr__(self):
        return f"<vegasflow.Map dim={self.dim} ninc={self.ninc}>"
