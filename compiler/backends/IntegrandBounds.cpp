//===- backends/IntegrandBounds.cpp - Compiled bounds, checked ------------===//

#include "backends/IntegrandBounds.h"
#include "backends/IntegrandBinding.h"
#include "frontend/ASTDump.h"
#include "frontend/HistRanges.h"
#include "frontend/Program.h"

#include <cmath>

namespace vf {

IntegrandBounds::IntegrandBounds(const Program &P, const IntegrandDecl &I,
                                 BoundsEntry Fn,
                                 std::shared_ptr<const FaultSite> Site)
    : Integrand(I.Name), Fn(Fn), Site(std::move(Site)) {
  for (const vf::Interval &Iv : I.Domain) {
    const bool Infinite = Iv.isInfinite();
    llvm::SMLoc At = Infinite ? (Iv.Scale ? Iv.Scale->loc() : llvm::SMLoc())
                              : Iv.Range.Start;
    Intervals.push_back(
        {Iv.Count, Infinite, At.isValid() ? sourcePlace(P, At) : ""});
  }
  for (const HistStmt *H : I.Histograms)
    for (unsigned A = 0; A < H->Axes; ++A)
      Axes.push_back({H->Name, sourcePlace(P, H->Range.Start)});
  for (const Program::MemberParam &M : P.PdfMemberParams)
    Members.push_back({M.Param->Slot, M.Members, M.Param->Name, M.Set,
                       sourcePlace(P, M.Where)});
}

Status IntegrandBounds::checkMembers(std::span<const double> Params) const {
  for (const MemberParam &M : Members) {
    const double V = M.Slot < Params.size() ? Params[M.Slot] : NAN;
    if (V >= 0 && V < M.Members && V == std::floor(V))
      continue;
    return Error{M.Place + ": param '" + M.Name + "' = " + formatNumber(V) +
                 " chooses a member of PDF set '" + M.Set + "', which has " +
                 std::to_string(M.Members) +
                 " members: give an integer from "
                 "0 to " +
                 std::to_string(M.Members - 1)};
  }
  return Status::ok();
}

std::vector<double>
IntegrandBounds::values(std::span<const double> Params) const {
  std::vector<double> V(2 * (Intervals.size() + Axes.size()));
  auto Run = [&] { callCompiled(Fn, Params.data(), V.data()); };
  if (Site)
    runIntegrandCode(*Site, Run);
  else
    Run();
  return V;
}

Status IntegrandBounds::domain(std::span<const double> Params,
                               std::vector<double> &Lo,
                               std::vector<double> &Hi) const {
  if (Status S = checkMembers(Params); !S)
    return S;
  const std::vector<double> V = values(Params);
  Lo.clear();
  Hi.clear();
  for (std::size_t K = 0; K < Intervals.size(); ++K) {
    const Interval &Iv = Intervals[K];
    const double L = V[2 * K], H = V[2 * K + 1];
    if (Iv.Infinite) { // sampled as [0, 1], mapped by the integrand
      // The map divides by the scale: a parameter's 0, negative or
      // non-finite value would turn every sample into NaN or 0.
      if (!(L > 0) || !std::isfinite(L))
        return Error{Iv.Place + ": the scale " + formatNumber(L) +
                     " of an infinite interval of integrand '" + Integrand +
                     "' must be positive and finite; it is not with the "
                     "current parameter values"};
      Lo.insert(Lo.end(), Iv.Count, 0.0);
      Hi.insert(Hi.end(), Iv.Count, 1.0);
      continue;
    }
    if (!(H > L) || !std::isfinite(L) || !std::isfinite(H))
      return Error{Iv.Place + ": the interval [" + formatNumber(L) + ", " +
                   formatNumber(H) + "] of integrand '" + Integrand +
                   "' is empty or not finite with the current parameter "
                   "values; its upper bound must exceed its lower bound"};
    Lo.insert(Lo.end(), Iv.Count, L);
    Hi.insert(Hi.end(), Iv.Count, H);
  }
  return Status::ok();
}

Status IntegrandBounds::histRanges(std::span<const double> Params,
                                   std::vector<double> &Ranges) const {
  const std::vector<double> V = values(Params);
  Ranges.clear();
  for (std::size_t K = 0; K < Axes.size(); ++K) {
    const std::size_t At = 2 * (Intervals.size() + K);
    if (std::string Why =
            histRangeError(Axes[K].Place, Axes[K].Histogram, V[At], V[At + 1]);
        !Why.empty())
      return Error{Why};
    Ranges.push_back(V[At]);
    Ranges.push_back(V[At + 1]);
  }
  return Status::ok();
}

} // namespace vf
