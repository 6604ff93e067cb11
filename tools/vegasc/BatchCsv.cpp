//===- vegasc/BatchCsv.cpp - A batch's results as a CSV table -------------===//
//
// One row per run and component, then a column per parameter of any run
// (the value used; empty where a run's integrand has none) and the error
// of a failed run; numbers in their shortest round-trip form, text fields
// quoted and kept as text (csvField).
//
//===----------------------------------------------------------------------===//

#include "vegasc/BatchJob.h"

#include "vegasc/Driver.h"
#include "vegasc/Format.h"

#include <algorithm>

namespace vf {

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
      Text += csvField(J.R->Name) + "," +
              (Ok                              ? "ok"
               : J.Status == RunStatus::Failed ? "failed"
                                               : "skipped") +
              "," + (J.Info ? csvField(J.Info->Name) : "") + "," +
              std::to_string(K) + ",";
      if (Ok)
        Text += shortest(J.Res.Mean[K]) + "," + shortest(J.Res.Error[K]) + "," +
                shortest(J.Res.Chi2Dof) + "," + shortest(J.Res.Q) + "," +
                std::to_string(J.Res.Evaluations) + "," +
                shortest(J.Res.WallSeconds);
      else
        Text += ",,,,,";
      Text += "," + std::to_string(S.Calls) + "," +
              std::to_string(S.Iterations) + "," + std::to_string(S.Warmup) +
              "," + std::to_string(S.Seed);
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
