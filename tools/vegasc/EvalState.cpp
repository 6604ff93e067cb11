//===- tools/vegasc/EvalState.cpp - --eval from a run's state -------------===//
//
// A multi-channel integrand's value at a point depends on the channels'
// weights (alpha()) and maps (density()): --eval takes alpha = 1/m and
// identity maps, unless --load-grid or --resume names a state, whose
// weights and maps it then takes, through an integrator restored to it
// (Integrator::evaluate). A checkpoint must belong to the options given,
// as for --resume.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Driver.h"

#include "vf/Module.h"

namespace vf {

namespace {

Expected<std::vector<double>> stateValues(const DriverOptions &O,
                                          const std::string &Name,
                                          const std::vector<double> &Params,
                                          const std::vector<double> &X) {
  Expected<IntegratorOptions> IO = integratorOptions(O.Run);
  if (!IO)
    return Error{flagMessage(IO.error())};
  IO->Threads = 1;
  CompileSettings CS;
  CS.UseCache = !O.NoCache;
  CS.CacheDir = O.CacheDir;
  CS.PdfSets = pdfSetChoices(O.PdfSets);
  CS.Warnings = false;
  auto M = Module::compileFile(O.File, CS);
  if (!M)
    return Error{M.message()};
  Expected<IntegrandInfo> Info = (*M)->integrand(Name);
  if (!Info)
    return Info.error();
  Expected<std::unique_ptr<Integrator>> Int =
      Integrator::create(*Info, std::move(*IO));
  if (!Int)
    return Error{flagMessage(Int.error())};
  for (std::size_t K = 0; K < Params.size(); ++K)
    if (Status S = (*Int)->setParam(Info->ParamNames[K], Params[K]); !S)
      return S.error();
  const bool Grid = !O.LoadGrid.empty();
  if (Status S =
          Grid ? (*Int)->loadGrid(O.LoadGrid) : (*Int)->loadState(O.Resume);
      !S)
    return Error{(Grid ? "--load-grid: " : "--resume: ") + S.message()};
  return (*Int)->evaluate(X);
}

} // namespace

void armStateValues(DriverOptions &O) {
  if (!O.Eval || (O.LoadGrid.empty() && O.Resume.empty()))
    return;
  O.StateValues = [Copy = O](const std::string &Name,
                             const std::vector<double> &Params,
                             const std::vector<double> &X) {
    return stateValues(Copy, Name, Params, X);
  };
}

} // namespace vf
