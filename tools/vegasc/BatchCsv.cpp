//===- vegasc/BatchCsv.cpp - A batch's results as a CSV table -------------===//
//
// Two layouts (csv_layout). The long one: a row per run and component,
// then a column per parameter of any run (the value used; empty where a
// run's integrand has none) and the error of a failed run. The wide one,
// for a scan: a row per run, so that a curve is a column against a column
// (the scanned parameters first, then every component's value and error,
// chi2/dof, Q, the covariance, and each derived item's value and error as
// derived.NAME, derived.NAME.error). Numbers in their shortest round-trip
// form, text fields quoted and kept as text (csvField).
//
//===----------------------------------------------------------------------===//

#include "vegasc/BatchJob.h"

#include "vegasc/Driver.h"
#include "vegasc/Format.h"

#include <algorithm>

namespace vf {

namespace {

const char *statusName(RunStatus S) {
  return S == RunStatus::Ok       ? "ok"
         : S == RunStatus::Failed ? "failed"
                                  : "skipped";
}

/// The wide table's header for the scanned parameters \p Scanned and \p K
/// components. A parameter whose name is one of the table's own columns
/// is written param.NAME, as the long table writes every parameter.
std::string wideHeader(const std::vector<std::string> &Scanned, unsigned K,
                       const std::vector<std::string> &Derived) {
  auto Own = [](const std::string &N) {
    return N == "run" || N == "chi2_dof" || N == "Q" || N == "seed" ||
           N == "status" || N == "message" || N.starts_with("value_") ||
           N.starts_with("error_") || N.starts_with("cov_");
  };
  std::string Text = "run";
  for (const std::string &N : Scanned)
    Text += "," + csvField(Own(N) ? "param." + N : N);
  for (unsigned I = 0; I < K; ++I)
    Text += ",value_" + std::to_string(I) + ",error_" + std::to_string(I);
  Text += ",chi2_dof,Q";
  for (unsigned I = 0; I < K; ++I)
    for (unsigned J = I; J < K; ++J)
      Text += ",cov_" + std::to_string(I) + "_" + std::to_string(J);
  for (const std::string &D : Derived)
    Text += "," + csvField("derived." + D) + "," +
            csvField("derived." + D + ".error");
  return Text + ",seed,status,message\n";
}

/// \p J's value and error of each derived item of \p Derived: empty where
/// its integrand has no such item or the run failed.
std::string derivedNumbers(const BatchJob &J,
                           const std::vector<std::string> &Derived) {
  std::string Text;
  for (const std::string &Name : Derived) {
    auto It =
        std::find_if(J.Res.Derived.begin(), J.Res.Derived.end(),
                     [&](const DerivedValue &D) { return D.Name == Name; });
    Text += J.Status == RunStatus::Ok && It != J.Res.Derived.end()
                ? "," + shortest(It->Mean) + "," + shortest(It->Error)
                : std::string(",,");
  }
  return Text;
}

/// \p J's numbers in the wide table's columns for \p K components: empty
/// where the run failed or has fewer components.
std::string wideNumbers(const BatchJob &J, unsigned K) {
  const bool Ok = J.Status == RunStatus::Ok;
  const unsigned N = Ok ? unsigned(J.Res.Mean.size()) : 0;
  const bool HasCov = Ok && J.Res.Covariance.size() == std::size_t(N) * N;
  std::string Text;
  for (unsigned I = 0; I < K; ++I)
    Text += I < N
                ? "," + shortest(J.Res.Mean[I]) + "," + shortest(J.Res.Error[I])
                : std::string(",,");
  Text += Ok ? "," + shortest(J.Res.Chi2Dof) + "," + shortest(J.Res.Q)
             : std::string(",,");
  for (unsigned I = 0; I < K; ++I)
    for (unsigned C = I; C < K; ++C)
      Text += "," + (HasCov && C < N ? shortest(J.Res.Covariance[I * N + C])
                                     : std::string());
  return Text;
}

} // namespace

bool writeWideCsv(const std::vector<BatchJob> &Jobs, const std::string &Path) {
  // One column per scanned parameter of any run, in order of first
  // appearance; as many component columns as the widest run has.
  std::vector<std::string> Scanned, Derived;
  auto Add = [](std::vector<std::string> &To, const std::string &Name) {
    if (std::find(To.begin(), To.end(), Name) == To.end())
      To.push_back(Name);
  };
  unsigned K = 1;
  for (const BatchJob &J : Jobs) {
    for (const BatchScanAxis &A : J.R->Scan)
      Add(Scanned, A.Name);
    if (J.Status == RunStatus::Ok)
      K = std::max(K, unsigned(J.Res.Mean.size()));
    for (const DerivedValue &D : J.Res.Derived)
      Add(Derived, D.Name);
  }
  std::string Text = wideHeader(Scanned, K, Derived);
  for (const BatchJob &J : Jobs) {
    Text += csvField(J.R->Name);
    for (const std::string &Col : Scanned) {
      Text += ",";
      for (const auto &[Name, V] : J.Point)
        if (Name == Col)
          Text += shortest(V);
    }
    Text += wideNumbers(J, K) + derivedNumbers(J, Derived) + "," +
            std::to_string(J.Seed) + "," + statusName(J.Status) + "," +
            csvField(J.Error) + "\n";
  }
  return writeOutput(Path, Text, "the CSV table");
}

bool writeBatchCsv(const std::vector<BatchJob> &Jobs, const std::string &Path) {
  // One column per parameter of any run, in order of first appearance.
  std::vector<std::string> ParamCols;
  auto AddCol = [&](const std::string &N) {
    if (std::find(ParamCols.begin(), ParamCols.end(), N) == ParamCols.end())
      ParamCols.push_back(N);
  };
  for (const BatchJob &J : Jobs) {
    if (J.Info)
      for (const std::string &N : J.Info->ParamNames)
        AddCol(N);
    else
      for (const BatchParam &P : J.R->Params)
        AddCol(P.Name);
  }
  std::string Text = "name,status,integrand,component,mean,error,chi2_dof,Q,"
                     "evaluations,wall_s,calls,iterations,warmup,seed";
  for (const std::string &N : ParamCols)
    Text += "," + csvField("param." + N);
  Text += ",message\n";
  for (const BatchJob &J : Jobs) {
    const BatchSettings &S = J.R->Settings;
    unsigned N = J.Status == RunStatus::Ok ? J.Info->Outputs : 1;
    for (unsigned K = 0; K < N; ++K) {
      bool Ok = J.Status == RunStatus::Ok;
      Text += csvField(J.R->Name) + "," + statusName(J.Status) + "," +
              (J.Info ? csvField(J.Info->Name) : "") + "," + std::to_string(K) +
              ",";
      if (Ok)
        Text += shortest(J.Res.Mean[K]) + "," + shortest(J.Res.Error[K]) + "," +
                shortest(J.Res.Chi2Dof) + "," + shortest(J.Res.Q) + "," +
                std::to_string(J.Res.Evaluations) + "," +
                shortest(J.Res.WallSeconds);
      else
        Text += ",,,,,";
      Text += "," + std::to_string(S.Calls) + "," +
              std::to_string(S.Iterations) + "," + std::to_string(S.Warmup) +
              "," + std::to_string(J.Seed);
      for (const std::string &Col : ParamCols) {
        Text += ",";
        if (J.Info) {
          for (size_t I = 0; I < J.Info->ParamNames.size(); ++I)
            if (J.Info->ParamNames[I] == Col)
              Text += shortest(J.Params[I]);
        } else {
          for (const BatchParam &P : J.R->Params)
            if (P.Name == Col)
              Text += shortest(P.Value);
        }
      }
      Text += "," + csvField(J.Error) + "\n";
    }
  }
  return writeOutput(Path, Text, "the CSV table");
}

} // namespace vf
