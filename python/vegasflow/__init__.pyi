# Type stubs for the vegasflow package (python/vegasflow/__init__.py and
# its modules). Every public name; docstrings live in the code.
import os
from typing import (Any, Callable, Dict, Iterator, List, NamedTuple,
                    Optional, Sequence, Tuple, TypeVar, Union)

import numpy as np
import numpy.typing as npt

__version__: str
__all__: List[str]

_Path = Union[str, os.PathLike]
_Vector = Union[float, npt.NDArray[np.float64]]

class Error(RuntimeError): ...

class Diagnostic(NamedTuple):
    file: str
    line: int
    column: int
    message: str

class CompileError(Error):
    errors: List[Diagnostic]
    file: Optional[str]
    line: Optional[int]
    column: Optional[int]
    def __init__(self, text: str) -> None: ...

class Integrand:
    @property
    def name(self) -> str: ...
    @property
    def dim(self) -> int: ...
    @property
    def outputs(self) -> int: ...
    @property
    def params(self) -> Dict[str, float]: ...
    def domain(self, **params: float) -> npt.NDArray[np.float64]: ...
    def __call__(self, x: npt.ArrayLike, **params: float) -> _Vector: ...

class Module:
    @property
    def names(self) -> List[str]: ...
    @property
    def integrands(self) -> Dict[str, Integrand]: ...
    @property
    def warnings(self) -> str: ...
    @property
    def from_cache(self) -> bool: ...
    def integrand(self, name: Optional[str] = ...) -> Integrand: ...
    def __getitem__(self, name: str) -> Integrand: ...
    def __getattr__(self, name: str) -> Integrand: ...
    def __iter__(self) -> Iterator[Integrand]: ...
    def __len__(self) -> int: ...
    def __contains__(self, name: object) -> bool: ...

def compile(source: _Path, *, name: Optional[str] = ..., cache: bool = ...,
            cache_dir: Optional[_Path] = ...,
            pdf_sets: Optional[Dict[str, _Path]] = ...) -> Module: ...

class DeviceStats:
    name: str
    kind: str
    samples: int
    chunks: int
    busy_s: float
    idle_s: float
    error: str
    @property
    def imbalance(self) -> float: ...

class Derived:
    name: str
    mean: float
    sdev: float
    gradient: Tuple[float, ...]

class ChannelRow:
    alpha: float
    samples: int
    integral: float
    error: float

class Channel:
    name: str
    alpha: float
    samples: int
    integral: float
    error: float
    error_share: float

class IterationRow:
    index: int
    warmup: bool
    mean: _Vector
    sdev: _Vector
    cum_mean: _Vector
    cum_sdev: _Vector
    chi2_dof: float
    Q: float
    samples: int
    nonfinite: int
    seconds: float
    devices: List[DeviceStats]
    derived: Dict[str, Derived]
    channels: List[ChannelRow]

class Histogram:
    name: str
    edges: List[npt.NDArray[np.float64]]
    mean: npt.NDArray[np.float64]
    sdev: npt.NDArray[np.float64]
    underflow: Optional[Tuple[float, float]]
    overflow: Optional[Tuple[float, float]]
    outside: Optional[Tuple[float, float]]

class WeightList:
    name: str
    mean: npt.NDArray[np.float64]
    sdev: npt.NDArray[np.float64]
    envelope: Tuple[float, float]
    band: str
    band_range: Tuple[float, float, float]
    ratio: npt.NDArray[np.float64]
    ratio_sdev: npt.NDArray[np.float64]

class Result:
    name: str
    outputs: int
    mean: _Vector
    sdev: _Vector
    covariance: npt.NDArray[np.float64]
    chi2_dof: float
    dof: int
    chi2: float
    Q: float
    nitn: int
    iterations: List[IterationRow]
    itn_mean: npt.NDArray[np.float64]
    itn_sdev: npt.NDArray[np.float64]
    @property
    def itn_results(self) -> List[IterationRow]: ...
    stopped_because: str
    target_met: Optional[bool]
    roundoff_floor: _Vector
    precision: str
    devices: List[DeviceStats]
    evaluations: int
    wall_s: float
    histograms: Dict[str, Histogram]
    weight_lists: Dict[str, WeightList]
    derived: Dict[str, Derived]
    channels: List[Channel]
    def uvalues(self) -> Any: ...
    def summary(self) -> str: ...
    def to_json(self, indent: Optional[int] = ...) -> str: ...
    def _repr_html_(self) -> str: ...
    def report_html(self, exact: Optional[float] = ..., *,
                    strata: bool = ...,
                    log: Union[bool, str, Sequence[str]] = ...,
                    reference: Any = ...) -> str: ...
    def write_report(self, path: Union[str, os.PathLike[str]],
                     exact: Optional[float] = ..., **options: Any) -> str: ...

class Events:
    x: npt.NDArray[np.float64]
    f: npt.NDArray[np.float64]
    jac: npt.NDArray[np.float64]
    weights: npt.NDArray[np.float64]
    channel: Optional[npt.NDArray[np.uint32]]
    weight_lists: Dict[str, npt.NDArray[np.float64]]
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[npt.NDArray[np.float64]]: ...

class UnweightStats:
    wmax: float
    drawn: int
    accepted: int
    overshoot: int
    overshoot_fraction: float
    efficiency: float
    mean: float
    sdev: float
    channel_efficiency: Tuple[float, ...]

class UnweightedEvents(Events):
    stats: UnweightStats
    @property
    def integral(self) -> float: ...

class EventFile:
    path: str
    format: str
    written: int
    weighted: bool
    sum_weights: float
    max_weight: float
    efficiency: Optional[float]
    wmax: Optional[float]
    overshoot_fraction: Optional[float]

class Progress(NamedTuple):
    iteration: int
    warmup: bool
    done: int
    total: int
    samples_done: int
    samples: int
    @property
    def fraction(self) -> float: ...

_ProgressArg = Union[bool, Callable[[Progress], Any], None]

class Map:
    dim: int
    ninc: int
    grid: npt.NDArray[np.float64]
    inc: npt.NDArray[np.float64]
    def __call__(self, y: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
    def jac(self, y: npt.ArrayLike
            ) -> Union[float, npt.NDArray[np.float64]]: ...

_F = TypeVar("_F", bound=Callable[..., Any])

def batchintegrand(f: _F) -> _F: ...
def lbatchintegrand(f: _F) -> _F: ...
def rbatchintegrand(f: Callable[..., npt.ArrayLike]
                    ) -> Callable[..., npt.NDArray[np.float64]]: ...

class Integrator:
    calls: int
    iterations: int
    warmup: int
    progress: _ProgressArg
    def __init__(
        self, integrand: Union[Integrand, Module,
                               Callable[..., npt.ArrayLike],
                               Sequence[Tuple[float, float]], None] = ...,
        domain: Optional[Sequence[Tuple[float, float]]] = ..., *,
        calls: int = ..., iterations: int = ...,
        warmup: int = ...,
        devices: str = ..., seed: int = ..., alpha: float = ...,
        beta: float = ..., schedule: str = ..., ninc: int = ...,
        max_hcube: int = ..., on_nonfinite: str = ...,
        channel_weights: Union[str, Sequence[float]] = ...,
        channel_floor: float = ..., precision: str = ...,
        params: Optional[Dict[str, float]] = ...,
        checkpoint: Optional[_Path] = ..., progress: _ProgressArg = ...,
        dim: Optional[int] = ...,
        name: Optional[str] = ..., rtol: Optional[float] = ...,
        atol: Optional[float] = ..., nitn: Optional[int] = ...,
        neval: Optional[int] = ...) -> None: ...
    def run(self, iterations: Optional[int] = ..., calls: Optional[int] = ...,
            warmup: Optional[int] = ..., *,
            progress: _ProgressArg = ...) -> Result: ...
    def extend(self, iterations: int) -> Result: ...
    def set_target(self, rtol: Optional[float] = ...,
                   atol: Optional[float] = ...) -> None: ...
    def summary(self) -> str: ...
    def __call__(self, *args: Any, nitn: Optional[int] = ...,
                 neval: Optional[int] = ...,
                 iterations: Optional[int] = ...,
                 calls: Optional[int] = ..., warmup: Optional[int] = ...,
                 progress: _ProgressArg = ...,
                 accumulate: bool = ...) -> Result: ...
    @property
    def result(self) -> Result: ...
    @property
    def plan(self) -> Dict[str, int]: ...
    @property
    def integrand(self) -> Optional[Integrand]: ...
    @property
    def params(self) -> Dict[str, float]: ...
    def set_param(self, name: str, value: float) -> None: ...
    def freeze(self) -> None: ...
    @property
    def frozen(self) -> bool: ...
    @property
    def map(self) -> Optional[Map]: ...
    def random_batch(self, neval: Optional[int] = ..., *, batch: int = ...
                     ) -> Iterator[Tuple[npt.NDArray[np.float64],
                                         npt.NDArray[np.float64]]]: ...
    def settings(self) -> str: ...
    def save_grid(self, path: _Path) -> None: ...
    def load_grid(self, path: _Path) -> None: ...
    def save_state(self, path: _Path) -> None: ...
    def load_state(self, path: _Path) -> None: ...
    def checkpoint(self, path: Optional[_Path]) -> None: ...
    @property
    def devices(self) -> List[Tuple[str, str, str]]: ...
    @property
    def notes(self) -> List[str]: ...
    def sample(self, n: int) -> Events: ...
    def unweight(self, n: int, *, wmax_events: int = ...) -> UnweightedEvents: ...
    def write_events(self, path: Union[str, os.PathLike[str]], n: int, *,
                     weighted: bool = ...,
                     record: Union[Integrand, str, None] = ...,
                     wmax_events: int = ...,
                     cross_section: Optional[float] = ...,
                     cross_section_error: Optional[float] = ...,
                     event_layout: str = ...,
                     beams: Union[str, Sequence[int], None] = ...,
                     beam_energies: Union[str, Sequence[float], None] = ...,
                     pdf_id: Optional[int] = ...) -> EventFile: ...

def devices() -> Dict[str, Any]: ...
