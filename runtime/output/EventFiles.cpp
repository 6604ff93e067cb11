//===- runtime/output/EventFiles.cpp - Events as LHE and HepMC3 files -----===//
//
// writeEventFile: draws the events through the public Integrator API
// (sample or unweight), evaluates the event record at each point, and
// hands them to EventWriters.cpp; the text is written atomically.
//
//===----------------------------------------------------------------------===//

#include "vf/EventFiles.h"

#include "vf/Integrator.h"

#include "files/SafeFiles.h"
#ifdef VF_HAVE_HEPMC3
#include "output/EventWriters.h"
#endif

#include <cmath>

namespace vf {

namespace {
constexpr unsigned ValuesPerParticle = 6;

bool endsWith(const std::string &S, const std::string &Tail) {
  return S.size() >= Tail.size() &&
         S.compare(S.size() - Tail.size(), Tail.size(), Tail) == 0;
}
} // namespace

Expected<EventFormat> eventFormatOf(const std::string &Path) {
  if (endsWith(Path, ".lhe"))
    return EventFormat::Lhe;
  if (endsWith(Path, ".hepmc3") || endsWith(Path, ".hepmc"))
    return EventFormat::HepMC3;
  return Error{"events file '" + Path + "': the name must end in .lhe (Les "
               "Houches Event File) or .hepmc3 (HepMC3 ASCII)",
               ErrorScope::Shared, "events_out"};
}

bool haveEventFiles() {
#ifdef VF_HAVE_HEPMC3
  return true;
#else
  return false;
#endif
}

#ifndef VF_HAVE_HEPMC3
Expected<EventFileReport> writeEventFile(Integrator &, const IntegrandInfo &,
                                         const EventFileOptions &O) {
  return Error{"cannot write '" + O.Path + "': this vegasflow was built "
               "without HepMC3 (install libhepmc3-dev and rebuild)"};
}
#else

namespace {

/// The record's parameters: the integrator's values by name, else the
/// record's defaults.
std::vector<double> recordParams(const Integrator &Int,
                                 const IntegrandInfo &Record) {
  std::vector<double> P = Record.ParamDefaults;
  const IntegrandInfo &I = Int.integrand();
  for (std::size_t K = 0; K < Record.ParamNames.size(); ++K)
    for (std::size_t J = 0; J < I.ParamNames.size(); ++J)
      if (I.ParamNames[J] == Record.ParamNames[K])
        P[K] = Int.params()[J];
  return P;
}

Status checkRecord(const Integrator &Int, const IntegrandInfo &Record) {
  const IntegrandInfo &I = Int.integrand();
  if (Record.Dim != I.Dim)
    return Error{"the event record '" + Record.Name + "' has " +
                 std::to_string(Record.Dim) + " dimensions; integrand '" +
                 I.Name + "' has " + std::to_string(I.Dim)};
  if (!Record.Evaluate || Record.Outputs % ValuesPerParticle != 0)
    return Error{"the event record '" + Record.Name + "' returns " +
                 std::to_string(Record.Outputs) + " values; it must return "
                 "6 per particle: [pdg, status, E, px, py, pz, ...]"};
  if (Record.PrepareEvaluate)
    return Record.PrepareEvaluate();
  return Status::ok();
}

} // namespace

Expected<EventFileReport> writeEventFile(Integrator &Int,
                                         const IntegrandInfo &Record,
                                         const EventFileOptions &O) {
  Expected<EventFormat> F = eventFormatOf(O.Path);
  if (!F)
    return F.error();
  if (Status S = checkRecord(Int, Record); !S)
    return S.error();
  if (Status S = checkWritable(O.Path, "the events file"); !S)
    return S.error();
  const std::vector<double> Params = recordParams(Int, Record);
  const unsigned Nvalues = Record.Outputs;
  std::vector<StoredEvent> Events;
  Events.reserve(O.Events);
  std::vector<double> Values;
  std::string Bad;
  EventFileReport Rep;
  Rep.Format = *F;
  EventHeader H;
  auto Take = [&](const EventBatch &B) {
    Values.resize(B.N * Nvalues);
    Record.Evaluate(B.X.data(), std::int64_t(B.N), Params.data(),
                    Values.data());
    for (std::size_t K = 0; K < B.N; ++K) {
      StoredEvent E;
      E.Weight = B.Weight[K];
      for (unsigned P = 0; P < Nvalues / ValuesPerParticle; ++P) {
        const double *V = Values.data() + K * Nvalues + P * ValuesPerParticle;
        for (unsigned C = 0; C < ValuesPerParticle; ++C)
          if (!std::isfinite(V[C]) && Bad.empty())
            Bad = "the event record '" + Record.Name +
                  "' is not finite at event " + std::to_string(B.First + K);
        E.Particles.push_back({int(std::lround(V[0])), V[1] < 0 ? -1 : 1,
                               V[2], V[3], V[4], V[5]});
      }
      Rep.SumWeights += E.Weight;
      Rep.MaxWeight = std::max(Rep.MaxWeight, std::fabs(E.Weight));
      H.NegativeWeights |= E.Weight < 0;
      Events.push_back(std::move(E));
    }
  };
  if (O.Weighted) {
    if (Status S = Int.sample(O.Events, Take); !S)
      return S.error();
  } else {
    Expected<UnweightStats> U = Int.unweight(O.Events, Take, O.Unweight);
    if (!U)
      return U.error();
    Rep.Unweighting = *U;
    Rep.MaxWeight = U->Wmax;
  }
  if (!Bad.empty())
    return Error{Bad};
  H.Weighted = O.Weighted;
  H.CrossSection = O.CrossSection;
  H.CrossSectionError = O.CrossSectionError;
  H.MaxWeight = Rep.MaxWeight;
  Expected<std::string> Text = renderEvents(*F, H, Events);
  if (!Text)
    return Text.error();
  if (Status S = writeFileAtomically(O.Path, *Text, "the events file"); !S)
    return S.error();
  Rep.Written = Events.size();
  return Rep;
}

#endif // VF_HAVE_HEPMC3

} // namespace vf
