//===- runtime/devices/cpu/CpuDevice.cpp - A CPU thread as a device -------===//

#include "devices/cpu/CpuDevice.h"

#include "reduction/HistogramSums.h"
#include "reduction/TrainingSums.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <vector>

namespace vf {

Status CpuDevice::begin(const vf_sampler_args &A, std::size_t) {
  Args = &A;
  HistWork.assign(VF_HIST_WORK(A.hist_cells), 0);
  Values.assign(A.nweights ? VF_WEIGHT_SCRATCH(A.nweights) : 0, 0.0);
  return Status::ok();
}

std::uint64_t CpuDevice::samples(std::uint64_t Begin,
                                 std::uint64_t End) const {
  std::uint64_t N = 0;
  for (std::uint64_t Tile = Begin; Tile < End; ++Tile)
    N += tileSamples(*Args, Tile);
  return N;
}

Status CpuDevice::run(TileScheduler::Chunk &C, const TileSink &Sink) {
  const vf_sampler_args &A = *Args;
  const unsigned Stride = VF_SEGMENT_STRIDE(A.nout);
  for (; C.Begin < C.End; ++C.Begin) {
    const std::uint64_t Tile = C.Begin;
    // A frozen map has no histograms: no buffer, no ordered submit.
    std::vector<double> Hist;
    if (Sink.Training)
      Hist = Sink.Training->acquire();
    vf_tile_outputs Out{Sink.Segments,
                        Sink.Edges + Tile * 2 * Stride,
                        Sink.Training ? Hist.data() : nullptr,
                        &Sink.Results[Tile],
                        nullptr,
                        nullptr,
                        Values.empty() ? nullptr : Values.data()};
    std::vector<double> Cells;
    if (Sink.Histograms) {
      Cells = Sink.Histograms->acquire();
      Out.hist = Cells.data();
      Out.hist_work = HistWork.data();
    }
    SampleTile(&A, Tile, &Out);
    if (Sink.Training && A.single_edges)
      TrainingSums::widenFloats(Hist);
    if (Sink.Training)
      Sink.Training->submit(Tile, std::move(Hist));
    if (Sink.Histograms)
      Sink.Histograms->submit(Tile, std::move(Cells));
    if (Sink.TileDone)
      Sink.TileDone(Tile);
  }
  return Status::ok();
}

Status SimulatedDevice::run(TileScheduler::Chunk &C, const TileSink &Sink) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point T0 = Clock::now();
  const std::uint64_t First = C.Begin;
  Status S = CpuDevice::run(C, Sink);
  std::this_thread::sleep_until(
      T0 + std::chrono::duration_cast<Clock::duration>(
               std::chrono::duration<double>(double(samples(First, C.Begin)) /
                                             Rate)));
  return S;
}

} // namespace vf
