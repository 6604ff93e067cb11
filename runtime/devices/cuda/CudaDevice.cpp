//===- runtime/devices/cuda/CudaDevice.cpp - One GPU running the kernel ---===//
//
// Memory: the iteration's inputs (map edges, hypercube offsets, box,
// parameters, the argument block) and the per-hypercube segments live on
// the device for the whole iteration; each slot holds a piece's per-tile
// outputs (edge segments, results, training histograms). A slot is sized
// from the device memory (a quarter of it, at most 2 GiB, for both), since
// a tile's histogram (2 x dim x ninc doubles) dominates. Each slot's host
// copies are page-locked, so its copy-back overlaps the other's kernel.
// Histograms of observables add a buffer and a workspace per tile
// (VF_HIST_TILE and VF_HIST_WORK of the cells); every tile's buffer comes
// back and is submitted like a CPU thread's.
//
// Uploads: the kernels run on non-blocking streams, which do not wait for
// the legacy NULL stream, and a pageable cuMemcpyHtoD may return before its
// copy lands (cuMemsetD8 always does). So an iteration's inputs are staged
// in page-locked memory and copied, with the segments' memset, on the
// first slot's stream; an event recorded after them makes the other slot's
// stream wait, and is waited for before the staging memory is reused.
//
//===----------------------------------------------------------------------===//

#include "devices/cuda/CudaDevice.h"

#include "IntegrandCode.h"
#include "devices/cuda/CudaDriver.h"
#include "devices/cuda/DeviceMemory.h"
#include "reduction/HistogramSums.h"
#include "reduction/Segments.h"
#include "reduction/TileSink.h"
#include "reduction/TrainingSums.h"

#include <algorithm>
#include <cstring>

namespace vf {

struct CudaDevice::Slot {
  CUstream Stream = nullptr;
  Buffer Edge, Train, Results, Out, GroupList, Partials;
  PinnedBuffer HostEdge, HostTrain, HostPartials, HostResults, HostGroups;
  Buffer Hist, HistWork; ///< histograms of observables
  PinnedBuffer HostHist;
  Buffer Values; ///< with weight lists: each tile's scratch (SamplerABI.h)
  std::uint64_t First = 0, N = 0;
  /// Whole groups of the piece, folded on the device: groups [G0, G0 + NG)
  /// covering tiles [FoldBegin, FoldEnd).
  std::uint64_t G0 = 0, NG = 0, FoldBegin = 0, FoldEnd = 0;
  bool Busy = false;
};

CudaDevice::CudaDevice(std::string Name) : Device(std::move(Name), "gpu") {}

/// An iteration's uploads: the bytes to copy, assembled on the host, then
/// staged in page-locked memory for asynchronous copies.
struct CudaDevice::Staging {
  struct Copy {
    CUdeviceptr To;
    std::size_t Offset, Bytes;
  };
  std::vector<char> Bytes;
  std::vector<Copy> Copies;
  PinnedBuffer Host;
  CUevent Done = nullptr;
  bool Recorded = false;

  void add(CUdeviceptr To, const void *From, std::size_t N) {
    if (!N)
      return;
    const std::size_t At = (Bytes.size() + 15) / 16 * 16;
    Bytes.resize(At + N);
    std::memcpy(Bytes.data() + At, From, N);
    Copies.push_back({To, At, N});
  }
};

Expected<std::unique_ptr<CudaDevice>>
CudaDevice::create(const CudaGpu &Gpu, const IntegrandInfo &I,
                   const std::string &PTX) {
  const CudaDriver &D = CudaDriver::get();
  const std::string &Name = Gpu.Name;
  std::unique_ptr<CudaDevice> G(new CudaDevice(Name));
  auto Fail = [&](const Status &S) -> Error {
    return Error{Name + ": " + S.message()};
  };
  G->Dev = Gpu.Dev;
  G->Arch = Gpu.Arch;
  G->Description = Gpu.Description;
  G->Multiprocessors = Gpu.Multiprocessors;
  G->MemoryBytes = Gpu.MemoryBytes;
  if (Status S = D.primaryCtxRetain(&G->Ctx, G->Dev); !S)
    return Fail(S);
  if (Status S = D.ctxSetCurrent(G->Ctx); !S)
    return Fail(S);
  char ErrorLog[8192] = {0};
  int Options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {ErrorLog, reinterpret_cast<void *>(sizeof(ErrorLog))};
  if (Status S = D.moduleLoadDataEx(&G->Mod, PTX.c_str(), 2u, Options, Values);
      !S)
    return Error{Name + ": loading the kernel's PTX (" + G->Arch +
                 ") failed: " + S.message() +
                 (*ErrorLog ? std::string("; JIT log: ") + ErrorLog : "")};
  if (I.Code->PdfTable)
    if (Status S = G->uploadPdfTable(*I.Code); !S)
      return Error{Name + ": copying the parton densities (" +
                   std::to_string(I.Code->PdfTableBytes) +
                   " bytes) to the device failed: " + S.message()};
  if (Status S =
          D.moduleGetFunction(&G->Kernel, G->Mod, I.Code->GpuKernel.c_str());
      !S)
    return Fail(S);
  int MinGrid = 0, Block = 0;
  if (Status S = D.occupancyMaxPotentialBlockSize(&MinGrid, &Block, G->Kernel,
                                                  nullptr, 0, 0);
      !S)
    return Fail(S);
  // Whole warps (a warp is a tile); the occupancy calculator's block size
  // maximises resident warps given the kernel's registers.
  G->BlockThreads = std::max(32, Block / 32 * 32);
  G->SaturatingBlocks = std::max(1, MinGrid);
  // The fold kernel is in every module compiled with the sampler.
  if (Status S = D.moduleGetFunction(&G->Fold, G->Mod, VF_GPU_FOLD_KERNEL);
      !S)
    return Fail(S);
  return G;
}

CudaDevice::~CudaDevice() {
  const CudaDriver &D = CudaDriver::get();
  if (!Ctx)
    return;
  // Teardown is best effort: a device that failed may refuse these.
  (void)D.ctxSetCurrent(Ctx);
  for (std::unique_ptr<Slot> &S : Slots) {
    if (S->Stream)
      (void)D.streamSynchronize(S->Stream);
    for (Buffer *B : {&S->Edge, &S->Train, &S->Results, &S->Out, &S->GroupList,
                      &S->Partials, &S->Hist, &S->HistWork, &S->Values})
      if (B->Ptr)
        (void)D.memFree(B->Ptr);
    for (PinnedBuffer *B : {&S->HostEdge, &S->HostTrain, &S->HostPartials,
                            &S->HostResults, &S->HostGroups, &S->HostHist})
      if (B->Ptr)
        (void)D.memFreeHost(B->Ptr);
    if (S->Stream)
      (void)D.streamDestroy(S->Stream);
  }
  for (Buffer *B : {&Edges, &Offsets, &BoxLo, &BoxWidth, &Params, &Args,
                    &Segments, &PdfTable})
    if (B->Ptr)
      (void)D.memFree(B->Ptr);
  if (Upload) {
    if (Upload->Done)
      (void)D.eventDestroy(Upload->Done);
    if (Upload->Host.Ptr)
      (void)D.memFreeHost(Upload->Host.Ptr);
  }
  if (Mod)
    (void)D.moduleUnload(Mod);
  (void)D.primaryCtxRelease(Dev);
}

WorkerLimits CudaDevice::limits(std::uint64_t TileSamples,
                                std::uint64_t Ntiles) const {
  std::uint64_t Saturating =
      std::uint64_t(SaturatingBlocks) * std::uint64_t(BlockThreads / 32);
  std::uint64_t Tiles =
      std::min(Saturating, std::max<std::uint64_t>(1, Ntiles / 4));
  return {Tiles * TileSamples, ~0ull};
}

Status CudaDevice::grow(Buffer &B, std::size_t Bytes) {
  const CudaDriver &D = CudaDriver::get();
  return regrow(
      B, Bytes,
      [&](CUdeviceptr *P, std::size_t N) { return D.memAlloc(P, N); },
      [&](CUdeviceptr P) { return D.memFree(P); });
}

/// Before any stream exists: the block, then its device address into the
/// module's global, pageable copies whose completion the context's
/// synchronisation guarantees before the first kernel.
Status CudaDevice::uploadPdfTable(const IntegrandCode &C) {
  const CudaDriver &D = CudaDriver::get();
  if (Status S = grow(PdfTable, C.PdfTableBytes); !S)
    return S;
  if (Status S = D.memcpyHtoD(PdfTable.Ptr, C.PdfTable.get(), C.PdfTableBytes);
      !S)
    return S;
  CUdeviceptr Global = 0;
  std::size_t Bytes = 0;
  if (Status S =
          D.moduleGetGlobal(&Global, &Bytes, Mod, C.PdfTableSymbol.c_str());
      !S)
    return S;
  if (Bytes != sizeof PdfTable.Ptr)
    return Error{"the module's " + C.PdfTableSymbol + " has " +
                 std::to_string(Bytes) + " bytes, not a pointer's 8"};
  if (Status S = D.memcpyHtoD(Global, &PdfTable.Ptr, sizeof PdfTable.Ptr); !S)
    return S;
  return D.ctxSynchronize();
}

Status CudaDevice::reserveInputs(const vf_sampler_args &A,
                                 std::size_t Nparams) {
  const std::size_t EdgeBytes = sizeof(double) * A.dim * (A.ninc + 1);
  const std::size_t OffsetBytes = sizeof(vf_u64) * (A.nhcube + 1);
  const std::size_t BoxBytes = sizeof(double) * A.dim;
  const std::size_t ParamBytes = sizeof(double) * Nparams;
  struct Input {
    Buffer &B;
    const void *Host;
    std::size_t Bytes;
  };
  std::vector<Input> Inputs = {Input{Edges, A.edges, EdgeBytes},
                               Input{Offsets, A.hcube_offsets, OffsetBytes},
                               Input{BoxLo, A.box_lo, BoxBytes},
                               Input{BoxWidth, A.box_width, BoxBytes},
                               Input{Params, A.params, ParamBytes}};
  // The single-precision kernels' float copies (SampleReal.h).
  const bool Single = A.single_edges;
  if (Single) {
    const std::size_t Floats = sizeof(float) * A.dim;
    Inputs.push_back({SingleEdges, A.single_edges, Floats * (A.ninc + 1)});
    Inputs.push_back({SingleLo, A.single_lo, Floats});
    Inputs.push_back({SingleWidth, A.single_width, Floats});
  }
  for (const Input &U : Inputs) {
    if (Status S = grow(U.B, U.Bytes); !S)
      return S;
    Upload->add(U.B.Ptr, U.Host, U.Bytes);
  }
  if (Status S = grow(Segments, sizeof(double) * A.nhcube * Stride); !S)
    return S;
  HostArgs = A;
  HostArgs.edges = reinterpret_cast<const double *>(Edges.Ptr);
  HostArgs.hcube_offsets = reinterpret_cast<const vf_u64 *>(Offsets.Ptr);
  HostArgs.box_lo = reinterpret_cast<const double *>(BoxLo.Ptr);
  HostArgs.box_width = reinterpret_cast<const double *>(BoxWidth.Ptr);
  HostArgs.params = reinterpret_cast<const double *>(Params.Ptr);
  if (Single) {
    HostArgs.single_edges = reinterpret_cast<const float *>(SingleEdges.Ptr);
    HostArgs.single_lo = reinterpret_cast<const float *>(SingleLo.Ptr);
    HostArgs.single_width = reinterpret_cast<const float *>(SingleWidth.Ptr);
  }
  if (Status S = grow(Args, sizeof(HostArgs)); !S)
    return S;
  Upload->add(Args.Ptr, &HostArgs, sizeof(HostArgs));
  return Status::ok();
}

/// Issues the staged copies and the segments' memset on the first slot's
/// stream, and orders the other slots' streams after them.
Status CudaDevice::upload() {
  const CudaDriver &D = CudaDriver::get();
  Staging &U = *Upload;
  if (Status S = growPinned(U.Host, U.Bytes.size()); !S)
    return S;
  std::memcpy(U.Host.Ptr, U.Bytes.data(), U.Bytes.size());
  CUstream First = Slots[0]->Stream;
  for (const Staging::Copy &C : U.Copies)
    if (Status S = D.memcpyHtoDAsync(C.To, U.Host.as<char>() + C.Offset,
                                     C.Bytes, First);
        !S)
      return S;
  if (Segments.Bytes)
    if (Status S = D.memsetD8Async(Segments.Ptr, 0, Segments.Bytes, First); !S)
      return S;
  if (!U.Done)
    if (Status S = D.eventCreate(&U.Done, CU_EVENT_DISABLE_TIMING); !S)
      return S;
  if (Status S = D.eventRecord(U.Done, First); !S)
    return S;
  U.Recorded = true;
  for (std::size_t I = 1; I < Slots.size(); ++I)
    if (Status S = D.streamWaitEvent(Slots[I]->Stream, U.Done, 0u); !S)
      return S;
  return Status::ok();
}

/// A tile's device memory in a slot, on the device and pinned.
std::uint64_t CudaDevice::tileBytes() const {
  return sizeof(double) * (2 * Stride + 2 * Bins) + sizeof(vf_tile_result) +
         2 * sizeof(double) * VF_HIST_TILE(Cells) +
         sizeof(vf_u32) * VF_HIST_WORK(Cells) +
         (Weights ? sizeof(double) * VF_WEIGHT_SCRATCH(Weights) : 0);
}

/// Sized on first use (the training histogram's size is fixed for a run,
/// except that a frozen map has none); the output blocks are rewritten
/// every iteration, as the segments buffer may have grown.
Status CudaDevice::reserveSlots(std::uint64_t Ntiles) {
  const CudaDriver &D = CudaDriver::get();
  if (Slots.empty() || SlotBins < Bins || SlotCells < Cells ||
      SlotWeights < Weights) {
    const std::uint64_t Budget =
        std::min<std::uint64_t>(MemoryBytes / 4, std::uint64_t(2) << 30) / 2;
    // 2048 tiles per slot: two slots hold the largest iteration (4096).
    SlotTiles = std::clamp<std::uint64_t>(Budget / tileBytes(), 1, 2048);
    SlotBins = Bins;
    SlotCells = Cells;
    SlotWeights = Weights;
  }
  // Whole groups a piece can fold: TrainingSums' most for these bins.
  const std::uint64_t MaxGroups =
      TrainingSums::groupCount(SlotBins, UINT64_MAX);
  Slots.resize(2);
  for (std::unique_ptr<Slot> &S : Slots) {
    if (!S)
      S = std::make_unique<Slot>();
    if (!S->Stream)
      if (Status St = D.streamCreate(&S->Stream, CU_STREAM_NON_BLOCKING); !St)
        return St;
    if (Status St = grow(S->Edge, sizeof(double) * 2 * Stride * SlotTiles); !St)
      return St;
    if (Status St = grow(S->Train, sizeof(double) * 2 * SlotBins * SlotTiles);
        !St)
      return St;
    if (Status St = grow(S->Results, sizeof(vf_tile_result) * SlotTiles); !St)
      return St;
    if (Status St = grow(S->Out, sizeof(vf_chunk_outputs)); !St)
      return St;
    if (Status St = grow(S->GroupList, sizeof(std::uint64_t) * 2 * MaxGroups);
        !St)
      return St;
    if (Status St = grow(S->Partials, sizeof(double) * 2 * SlotBins * MaxGroups);
        !St)
      return St;
    if (Status St = growPinned(S->HostPartials,
                               sizeof(double) * 2 * SlotBins * MaxGroups);
        !St)
      return St;
    if (Status St =
            growPinned(S->HostGroups, sizeof(std::uint64_t) * 2 * MaxGroups);
        !St)
      return St;
    if (Status St = reserveHistograms(*S); !St)
      return St;
    vf_chunk_outputs O{
        reinterpret_cast<double *>(Segments.Ptr),
        reinterpret_cast<double *>(S->Edge.Ptr),
        Bins ? reinterpret_cast<double *>(S->Train.Ptr) : nullptr,
        reinterpret_cast<vf_tile_result *>(S->Results.Ptr),
        Cells ? reinterpret_cast<double *>(S->Hist.Ptr) : nullptr,
        Cells ? reinterpret_cast<vf_u32 *>(S->HistWork.Ptr) : nullptr,
        Weights ? reinterpret_cast<double *>(S->Values.Ptr) : nullptr};
    Upload->add(S->Out.Ptr, &O, sizeof(O));
    if (Status St =
            growPinned(S->HostEdge, sizeof(double) * 2 * Stride * SlotTiles);
        !St)
      return St;
    // Only histograms outside a piece's whole groups come back: at most a
    // group's worth (less one tile) on either side of them.
    const std::uint64_t Groups = TrainingSums::groupCount(Bins, Ntiles);
    const std::uint64_t Unfolded =
        std::min(SlotTiles, 2 * ((Ntiles + Groups - 1) / Groups));
    if (Status St = growPinned(S->HostTrain,
                               sizeof(double) * 2 * Bins * Unfolded);
        !St)
      return St;
    if (Status St =
            growPinned(S->HostResults, sizeof(vf_tile_result) * SlotTiles);
        !St)
      return St;
  }
  return Status::ok();
}

/// A slot's histogram buffers, its workspace and their host copy, and
/// the weight lists' scratch.
Status CudaDevice::reserveHistograms(Slot &S) {
  if (SlotWeights)
    if (Status St =
            grow(S.Values,
                 sizeof(double) * VF_WEIGHT_SCRATCH(SlotWeights) * SlotTiles);
        !St)
      return St;
  if (!SlotCells)
    return Status::ok();
  if (Status St =
          grow(S.Hist, sizeof(double) * VF_HIST_TILE(SlotCells) * SlotTiles);
      !St)
    return St;
  if (Status St = grow(S.HistWork,
                       sizeof(vf_u32) * VF_HIST_WORK(SlotCells) * SlotTiles);
      !St)
    return St;
  return growPinned(S.HostHist,
                    sizeof(double) * VF_HIST_TILE(SlotCells) * SlotTiles);
}

Status CudaDevice::begin(const vf_sampler_args &A, std::size_t Nparams) {
  const CudaDriver &D = CudaDriver::get();
  if (Status S = D.ctxSetCurrent(Ctx); !S)
    return S;
  Stride = VF_SEGMENT_STRIDE(A.nout);
  Bins = A.train ? std::uint64_t(A.dim) * A.ninc : 0;
  if (!Upload)
    Upload = std::make_unique<Staging>();
  // The last iteration's copies may still read the staging memory.
  if (Upload->Recorded)
    if (Status S = D.eventSynchronize(Upload->Done); !S)
      return S;
  Upload->Bytes.clear();
  Upload->Copies.clear();
  Cells = A.hist_cells;
  Weights = A.nweights;
  if (Status S = reserveInputs(A, Nparams); !S)
    return S;
  if (Status S = reserveSlots((A.nsamples + A.tile_size - 1) / A.tile_size);
      !S)
    return S;
  return upload();
}

Status CudaDevice::launch(Slot &S, std::uint64_t First, std::uint64_t N,
                          const TrainingSums *Training) {
  const CudaDriver &D = CudaDriver::get();
  S.First = First;
  S.N = N;
  CUdeviceptr ArgsPtr = Args.Ptr, OutPtr = S.Out.Ptr;
  std::uint64_t F = First, Count = N;
  void *KernelParams[] = {&ArgsPtr, &F, &Count, &OutPtr};
  const std::uint64_t Warps = std::uint64_t(BlockThreads / 32);
  const unsigned Grid = unsigned((N + Warps - 1) / Warps);
  if (Status St = D.launchKernel(Kernel, Grid, 1u, 1u, unsigned(BlockThreads),
                                 1u, 1u, 0u, S.Stream, KernelParams, nullptr);
      !St)
    return St;
  S.Busy = true;
  if (Status St = D.memcpyDtoHAsync(S.HostEdge.as<double>(), S.Edge.Ptr,
                                    sizeof(double) * 2 * Stride * N, S.Stream);
      !St)
    return St;
  if (Status St = D.memcpyDtoHAsync(S.HostResults.as<vf_tile_result>(),
                                    S.Results.Ptr,
                                    sizeof(vf_tile_result) * N, S.Stream);
      !St)
    return St;
  if (Cells)
    if (Status St = D.memcpyDtoHAsync(
            S.HostHist.as<double>(), S.Hist.Ptr,
            sizeof(double) * VF_HIST_TILE(Cells) * N, S.Stream);
        !St)
      return St;
  if (!Training)
    return Status::ok();
  if (Status St = foldGroups(S, *Training); !St)
    return St;
  // Only the histograms of tiles outside the folded groups come back,
  // packed: those before the groups, then those after them.
  const std::uint64_t Entries = 2 * Bins;
  for (auto [Lo, Hi] : {std::pair{First, S.FoldBegin},
                        std::pair{S.FoldEnd, First + N}})
    if (Hi > Lo)
      if (Status St = D.memcpyDtoHAsync(
              S.HostTrain.as<double>() + unfoldedIndex(S, Lo) * Entries,
              S.Train.Ptr + sizeof(double) * (Lo - First) * Entries,
              sizeof(double) * (Hi - Lo) * Entries, S.Stream);
          !St)
        return St;
  return Status::ok();
}

/// Where tile \p Tile (outside the piece's folded groups) lies in the
/// slot's packed host histograms.
std::uint64_t CudaDevice::unfoldedIndex(const Slot &S, std::uint64_t Tile) {
  return Tile < S.FoldBegin ? Tile - S.First
                            : (S.FoldBegin - S.First) + (Tile - S.FoldEnd);
}

/// Folds the piece's whole groups of tiles (TrainingSums' groups) into
/// their partials on the device, so that 2 x bins doubles per group, not
/// per tile, cross the bus and the host adds nothing for them.
Status CudaDevice::foldGroups(Slot &S, const TrainingSums &T) {
  const CudaDriver &D = CudaDriver::get();
  auto Begin = [&](std::uint64_t G) { return T.groupBegin(G); };
  const std::uint64_t Groups = T.groups();
  S.G0 = S.NG = 0;
  S.FoldBegin = S.FoldEnd = S.First;
  std::uint64_t G = 0;
  while (G < Groups && Begin(G) < S.First)
    ++G;
  S.G0 = G;
  std::uint64_t *Pairs = S.HostGroups.as<std::uint64_t>(), NPairs = 0;
  for (; G < Groups && Begin(G + 1) <= S.First + S.N; ++G) {
    Pairs[NPairs++] = Begin(G) - S.First;
    Pairs[NPairs++] = Begin(G + 1) - Begin(G);
  }
  S.NG = G - S.G0;
  if (S.NG == 0)
    return Status::ok();
  S.FoldBegin = Begin(S.G0);
  S.FoldEnd = Begin(G);
  if (Status St = D.memcpyHtoDAsync(S.GroupList.Ptr, Pairs,
                                    sizeof(std::uint64_t) * 2 * S.NG,
                                    S.Stream);
      !St)
    return St;
  CUdeviceptr Train = S.Train.Ptr, List = S.GroupList.Ptr,
              Out = S.Partials.Ptr;
  std::uint64_t Entries = 2 * Bins, NG = S.NG;
  void *Params[] = {&Train, &Entries, &List, &NG, &Out};
  if (Status St = D.launchKernel(Fold, unsigned((Entries + 255) / 256),
                                 unsigned(NG), 1u, 256u, 1u, 1u, 0u, S.Stream,
                                 Params, nullptr);
      !St)
    return St;
  return D.memcpyDtoHAsync(S.HostPartials.as<double>(), S.Partials.Ptr,
                           sizeof(double) * Entries * NG, S.Stream);
}

Status CudaDevice::commit(Slot &S, const TileSink &Sink,
                          TileScheduler::Chunk &C) {
  const CudaDriver &D = CudaDriver::get();
  S.Busy = false;
  if (Status St = D.streamSynchronize(S.Stream); !St)
    return St;
  // The piece's inner hypercubes are its alone.
  const vf_tile_result *Res = S.HostResults.as<vf_tile_result>();
  const HcubeRange In =
      innerHypercubes(Res[0].first_hcube, Res[S.N - 1].last_hcube);
  if (In.Count)
    if (Status St = D.memcpyDtoH(
            Sink.Segments + In.First * Stride,
            Segments.Ptr + sizeof(double) * In.First * Stride,
            sizeof(double) * In.Count * Stride);
        !St)
      return St;
  for (std::uint64_t T = 0; T < S.N; ++T) {
    const std::uint64_t Tile = S.First + T;
    Sink.Results[Tile] = Res[T];
    std::memcpy(Sink.Edges + Tile * 2 * Stride,
                S.HostEdge.as<double>() + T * 2 * Stride,
                sizeof(double) * 2 * Stride);
    if (Sink.Training && (Tile < S.FoldBegin || Tile >= S.FoldEnd)) {
      std::vector<double> H = Sink.Training->acquire();
      std::memcpy(H.data(),
                  S.HostTrain.as<double>() + unfoldedIndex(S, Tile) * 2 * Bins,
                  sizeof(double) * 2 * Bins);
      if (HostArgs.single_edges)
        TrainingSums::widenFloats(H);
      Sink.Training->submit(Tile, std::move(H));
    }
    if (Sink.Histograms) {
      std::vector<double> H = Sink.Histograms->acquire();
      std::memcpy(H.data(), S.HostHist.as<double>() + T * VF_HIST_TILE(Cells),
                  sizeof(double) * VF_HIST_TILE(Cells));
      Sink.Histograms->submit(Tile, std::move(H));
    }
    if (Sink.Training && Tile + 1 == S.FoldEnd)
      for (std::uint64_t G = 0; G < S.NG; ++G)
        Sink.Training->submitGroup(S.G0 + G,
                                   S.HostPartials.as<double>() + G * 2 * Bins);
    C.Begin = Tile + 1;
    if (Sink.TileDone)
      Sink.TileDone(Tile);
  }
  return Status::ok();
}

Status CudaDevice::run(TileScheduler::Chunk &C, const TileSink &Sink) {
  const CudaDriver &D = CudaDriver::get();
  if (Status S = D.ctxSetCurrent(Ctx); !S)
    return S;
  // Pieces alternate between the slots and are committed in order, so
  // C.Begin only ever moves past finished tiles.
  std::uint64_t Next = C.Begin;
  unsigned Cur = 0;
  Status St = Status::ok();
  while (St && (Next < C.End || Slots[0]->Busy || Slots[1]->Busy)) {
    Slot &S = *Slots[Cur];
    if (S.Busy)
      St = commit(S, Sink, C);
    if (St && Next < C.End) {
      std::uint64_t N = std::min(SlotTiles, C.End - Next);
      St = launch(S, Next, N, Sink.Training);
      Next += N;
    }
    Cur ^= 1;
  }
  if (!St)
    for (std::unique_ptr<Slot> &S : Slots)
      S->Busy = false;
  return St;
}

} // namespace vf
