//===- runtime/integrator/State.cpp - Saving and restoring the state ------===//
//
// The files behind saveState/loadState, checkpointTo and saveGrid/loadGrid
// (formats in integrator/Checkpoint.h): the integrator's identity and
// options around its RunState's save and load.
//
//===----------------------------------------------------------------------===//

#include "integrator/IntegratorImpl.h"

#include "files/SafeFiles.h"
#include "vf/OutputGuard.h"

namespace vf {

namespace {
/// The integrator's outputs never replace its integrand's source files.
Status notASource(const IntegrandInfo &I, const std::string &Path,
                  const std::string &What) {
  return checkNotAnInput(Path, What, I.SourceFiles,
                         "a source file of integrand '" + I.Name + "'");
}
} // namespace

CheckpointState Integrator::Impl::snapshot(bool WithState) const {
  CheckpointState S;
  S.Name = I.Name;
  S.Dim = I.Dim;
  S.Outputs = I.Outputs;
  S.ModuleHash = I.ModuleHash;
  S.Options = O;
  S.ParamNames = I.ParamNames;
  S.Params = Params;
  if (WithState)
    State.save(S);
  return S;
}

/// A checkpoint \p Name, read whole, as the state, if it is of this
/// integrator's integrand, options and parameters.
Status Integrator::Impl::restoreChecked(CheckpointState S,
                                        const std::string &Name) {
  if (Status C = checkCompatible(S, snapshot(false), Name); !C)
    return C;
  if (Status R = State.load(std::move(S), O); !R)
    return Error{"checkpoint '" + Name + "': " + R.message()};
  Restored = true;
  return Status::ok();
}

Status Integrator::saveState(const std::string &Path) const {
  BusyClaim Claim(P->Busy, /*Reentrant=*/true);
  if (!Claim)
    return busyError("saveState");
  if (Status S = notASource(P->I, Path, "the state file"); !S)
    return S;
  return guarded("saveState",
                 [&] { return writeCheckpoint(Path, P->snapshot(true)); });
}

Expected<std::string> Integrator::stateBytes() const {
  BusyClaim Claim(P->Busy, /*Reentrant=*/true);
  if (!Claim)
    return busyError("stateBytes");
  return guarded("stateBytes", [&]() -> Expected<std::string> {
    return encodeCheckpoint(P->snapshot(true));
  });
}

Status Integrator::loadState(const std::string &Path) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("loadState");
  Expected<CheckpointState> S = guarded("loadState", [&] {
    return readCheckpoint(Path);
  });
  if (!S)
    return S.error();
  return P->restoreChecked(std::move(*S), Path);
}

Status Integrator::loadStateBytes(std::string Bytes, const std::string &Name) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("loadStateBytes");
  Expected<CheckpointState> S = guarded("loadStateBytes", [&] {
    return decodeCheckpoint(std::move(Bytes), Name);
  });
  if (!S)
    return S.error();
  return P->restoreChecked(std::move(*S), Name);
}

Status Integrator::checkpointTo(std::string Path) {
  BusyClaim Claim(P->Busy, /*Reentrant=*/true);
  if (!Claim)
    return busyError("checkpointTo");
  // Checked before the first, possibly long, iteration: a typo in the
  // folder, or a device or FIFO named as the checkpoint, is refused now,
  // not when the first iteration's state is written over it.
  if (!Path.empty()) {
    if (Status S = checkWritable(Path, "the checkpoint"); !S)
      return S;
    if (Status S = notASource(P->I, Path, "the checkpoint"); !S)
      return S;
    removeStaleTemporaries(Path);
  }
  P->CheckpointPath = std::move(Path);
  return Status::ok();
}

Status Integrator::saveGrid(const std::string &Path) const {
  BusyClaim Claim(P->Busy, /*Reentrant=*/true);
  if (!Claim)
    return busyError("saveGrid");
  if (!P->State.Map)
    return Error{"no grid to save: the map is trained by run(), and no "
                 "iteration has run"};
  if (Status S = notASource(P->I, Path, "the grid file"); !S)
    return S;
  return guarded("saveGrid", [&] {
    GridFile G{P->I.Name, P->I.Dim, 0, {}, {}, {}};
    P->State.saveGrid(G);
    return writeGrid(Path, G);
  });
}

Status Integrator::loadGrid(const std::string &Path) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("loadGrid");
  Expected<GridFile> G = guarded("loadGrid", [&] { return readGrid(Path); });
  if (!G)
    return G.error();
  if (G->Dim != P->I.Dim)
    return Error{"grid '" + Path + "' has " + std::to_string(G->Dim) +
                 " dimensions (trained on '" + G->Integrand +
                 "'); integrand '" + P->I.Name + "' has " +
                 std::to_string(P->I.Dim)};
  if (Status S = P->State.loadGrid(std::move(*G), P->I, Path); !S)
    return S;
  P->Step.fitLoadedMap();
  return Status::ok();
}

} // namespace vf
