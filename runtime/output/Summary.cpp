//===- runtime/output/Summary.cpp - The vegas-style summary table ---------===//
//
// vf::summary(Result) and Integrator::summary(), which is the same table of
// the integrator's result so far.
//
//===----------------------------------------------------------------------===//

#include "vf/Summary.h"

#include "vf/Integrator.h"

#include <algorithm>
#include <cstdio>

namespace vf {

namespace {

std::string format(const char *Fmt, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Fmt, V);
  return Buf;
}

std::string padLeft(const std::string &S, std::size_t Width) {
  return std::string(S.size() < Width ? Width - S.size() : 0, ' ') + S;
}

void addRows(std::string &Out, const IterationRow &Row, unsigned Outputs) {
  for (unsigned C = 0; C < Outputs; ++C) {
    std::string Itn = std::to_string(Row.Index) + (Row.Warmup ? "w" : "");
    if (Outputs > 1)
      Itn += "[" + std::to_string(C) + "]";
    Out += padLeft(Itn, 8) + "  " + format("%-22.15g", Row.Mean[C]) +
           format("%-10.3g", Row.Error[C]) + "  ";
    Out += Row.Warmup ? std::string(32, ' ')
                      : format("%-22.15g", Row.CumMean[C]) +
                            format("%-10.3g", Row.CumError[C]);
    // chi2/dof and Q are the components' joint ones: on the iteration's
    // first row only.
    if (C == 0)
      Out += Row.Warmup ? padLeft("-", 9) + padLeft("-", 8)
                        : format("%9.3g", Row.Chi2Dof) + format("%8.3g", Row.Q);
    Out.erase(Out.find_last_not_of(' ') + 1);
    Out += "\n";
  }
}

} // namespace

std::string summary(const Result &R) {
  std::string Out = "     itn  integral              error       cumulative"
                    "            error        chi2/dof       Q\n";
  for (const IterationRow &Row : R.Iterations)
    addRows(Out, Row, R.Outputs);
  const std::string Joint = "chi2/dof = " + format("%.3g", R.Chi2Dof) +
                            "   Q = " + format("%.3g", R.Q);
  for (unsigned C = 0; C < R.Mean.size(); ++C) {
    Out += "result";
    if (R.Outputs > 1)
      Out += "[" + std::to_string(C) + "]";
    Out += " = " + format("%.15g", R.Mean[C]) + " +- " +
           format("%.3g", R.Error[C]);
    if (R.Outputs == 1)
      Out += "   " + Joint;
    // Worth saying only where rounding is a visible part of the error.
    if (C < R.RoundoffFloor.size() && R.RoundoffFloor[C] > 0.1 * R.Error[C])
      Out += "   (round-off floor " + format("%.3g", R.RoundoffFloor[C]) + ")";
    Out += "\n";
  }
  // A vector's chi2/dof and Q are those of all its components together.
  if (R.Outputs > 1)
    Out += Joint + "   (the " + std::to_string(R.Outputs) +
           " components together)\n";
  Out += precisionLine(R);
  Out += channelTable(R);
  for (const DerivedValue &D : R.Derived)
    Out += D.Name + " = " + format("%.15g", D.Mean) + " +- " +
           format("%.3g", D.Error) + "   (derived)\n";
  if (R.Stopped != StopReason::None)
    Out += std::string("stopped: ") +
           (R.Stopped == StopReason::Target ? "the accuracy target was met"
            : R.Stopped == StopReason::Cap
                ? "the accuracy target was not met within the iterations "
                  "allowed"
            : R.Stopped == StopReason::Error ? "by an error"
            : R.Stopped == StopReason::Cancelled
                ? "cancelled (the iterations done are kept; run() again "
                  "continues)"
                : "every iteration ran") +
           "\n";
  return Out;
}

std::string precisionLine(const Result &R) {
  if (R.Arithmetic != Precision::F32)
    return "";
  return "precision: f32 (each sample in single precision; the error "
         "includes its round-off floor, sqrt(d + 2) 2^-23 of the result)\n";
}

// A channel's integral moves with the weights: the table shows the last
// iteration's, never an average.
std::string channelTable(const Result &R) {
  if (R.Channels.empty())
    return "";
  std::string Out = "channel           alpha      samples  last integral"
                    "         error       error share\n";
  for (const ChannelSummary &C : R.Channels) {
    std::string Row = C.Name;
    Row.resize(std::max<std::size_t>(Row.size() + 1, 14), ' ');
    Row += format("%8.4f", C.Alpha) + padLeft(std::to_string(C.Samples), 13) +
           "  " + format("%-22.15g", C.Last.Mean) +
           format("%-10.3g", C.Last.Error) + format("%11.3f", C.ErrorShare);
    Out += Row + "\n";
  }
  return Out;
}

const char *stopReasonName(StopReason R) {
  switch (R) {
  case StopReason::None:
    return "none";
  case StopReason::Iterations:
    return "iterations";
  case StopReason::Target:
    return "target";
  case StopReason::Cap:
    return "max_iterations";
  case StopReason::Error:
    return "error";
  case StopReason::Cancelled:
    return "cancelled";
  }
  return "none";
}

std::string Integrator::summary() const { return vf::summary(result()); }

} // namespace vf
