//===- runtime/output/EventFiles.cpp - Events as LHE and HepMC3 files -----===//
//
// writeEventFile: draws the events through the public Integrator API
// (sample or unweight), evaluates the event record at each point, and
// hands them to EventWriters.cpp, which streams the text into a temporary
// renamed over the file once complete. checkEventFile says before a run
// what would stop the file after it.
//
//===----------------------------------------------------------------------===//

#include "vf/EventFiles.h"

#include "vf/Integrator.h"

#include "files/MemoryLimit.h"
#include "files/SafeFiles.h"
#include "output/EventRecord.h"
#include "vf/OutputGuard.h"

#include <cmath>

namespace vf {

namespace {
/// What an event (its weight, and as many again per weight list entry;
/// with the lhe layout also its EventInfo) and each of its particles take
/// until they are written (EventWriters.h).
constexpr std::uint64_t BytesPerWeight = 8, BytesPerInfo = 32,
                        BytesPerParticle = 80;

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
               "Houches Event File) or .hepmc3 (HepMC3 ASCII)", "events_out"};
}

bool haveEventFiles() {
#ifdef VF_HAVE_HEPMC3
  return true;
#else
  return false;
#endif
}

/// The sizes a record of \p L may have, said with the one it has.
static Error recordSizeError(const IntegrandInfo &Record, EventLayout L) {
  const std::string Has = "the event record '" + Record.Name + "' returns " +
                          std::to_string(Record.Outputs) + " values; ";
  if (L == EventLayout::Basic)
    return Error{Has +
                     "it must return 6 per particle: [pdg, status, E, px, "
                     "py, pz, ...] (or 4 + 13 per particle with " +
                     optionRef("event_layout", "lhe") + ")",
                 "event_layout"};
  // The nearest sizes the layout has, below and above.
  const unsigned Above =
      Record.Outputs < LheHeaderValues + LheParticleValues
          ? 1
          : (Record.Outputs - LheHeaderValues) / LheParticleValues + 1;
  auto Size = [](unsigned N) {
    return std::to_string(LheHeaderValues + N * LheParticleValues);
  };
  return Error{Has + "with " + optionRef("event_layout", "lhe") +
                   " it must return 4 + 13 per particle (" +
                   (Above > 1 ? Size(Above - 1) + " or " : "") + Size(Above) +
                   "): [idprup, scale, aqed, aqcd], then [pdg, status, "
                   "mother1, mother2, colour, anticolour, E, px, py, pz, m, "
                   "lifetime, spin] per particle",
               "event_layout"};
}

/// The <init> block's own settings, as a program may have set them.
static Status checkHeaderOptions(const EventFileOptions &O) {
  if (O.PdfSetId < -1)
    return Error{optionRef("pdf_id") +
                     " must be an LHAPDF id (>= 0), or -1 "
                     "for none; got " +
                     std::to_string(O.PdfSetId),
                 "pdf_id"};
  if (!O.Beams)
    return Status::ok();
  for (unsigned K = 0; K < 2; ++K)
    if (!O.Beams->Pdg[K] || !(O.Beams->Energy[K] > 0) ||
        !std::isfinite(O.Beams->Energy[K]))
      return Error{"beam " + std::to_string(K + 1) + " must have a PDG id " +
                       "and a positive, finite energy (" + optionRef("beams") +
                       ", " + optionRef("beam_energies") + ")",
                   O.Beams->Pdg[K] ? "beam_energies" : "beams"};
  return Status::ok();
}

/// "channels z, photon", or "no channels".
static std::string channelList(const std::vector<std::string> &Channels) {
  std::string L;
  for (const std::string &C : Channels)
    L += (L.empty() ? "channels " : ", ") + C;
  return L.empty() ? "no channels" : L;
}

Status checkEventFile(const IntegrandInfo &Integrand,
                      const IntegrandInfo &Record, const EventFileOptions &O) {
  Expected<EventFormat> F = eventFormatOf(O.Path);
  if (!F)
    return F.error();
  if (!haveEventFiles())
    return Error{"cannot write '" + O.Path +
                 "': this vegasflow was built "
                 "without HepMC3 (install libhepmc3-dev and rebuild)"};
  if (Record.Dim != Integrand.Dim)
    return Error{"the event record '" + Record.Name + "' has " +
                 std::to_string(Record.Dim) + " dimensions; integrand '" +
                 Integrand.Name + "' has " + std::to_string(Integrand.Dim)};
  const unsigned Particles = particlesOf(Record.Outputs, O.Layout);
  if (!Record.Evaluate || !Particles)
    return recordSizeError(Record, O.Layout);
  if (Status S = checkHeaderOptions(O); !S)
    return S;
  // A multi-channel integrand's point means what its channel's mapping
  // makes of it: the record maps it channel by channel too.
  if (Record.Channels != Integrand.Channels)
    return Error{"the event record '" + Record.Name +
                 "' must have the "
                 "channels of integrand '" +
                 Integrand.Name + "' (" + channelList(Integrand.Channels) +
                 "), in the same order, each mapping its point as that "
                 "channel does; it has " +
                 channelList(Record.Channels)};
  if (Record.ChannelDensityUsed)
    return Error{"the event record '" + Record.Name +
                 "' calls density(); an event record gives particles, not "
                 "weights: leave density() to the integrand"};
  if (Status S = checkWritable(O.Path, "the events file"); !S)
    return S;
  if (Status S = checkNotAnInput(
          O.Path, "the events file", Integrand.SourceFiles,
          "a source file of integrand '" + Integrand.Name + "'");
      !S)
    return S;
  // Held until written: the weights and the particles of each event.
  const std::uint64_t PerEvent =
      BytesPerWeight * (1 + weightEntries(Integrand)) +
      (O.Layout == EventLayout::Lhe ? BytesPerInfo : 0) +
      Particles * BytesPerParticle;
  const std::uint64_t Need = saturatingMulAdd(O.Events, PerEvent);
  if (const MemoryLimit L = availableMemory(); Need > L.Bytes)
    return Error{std::to_string(O.Events) + " events of " +
                     std::to_string(Particles) + " particles need " +
                     gibibytes(Need) +
                     " of memory until they are written, more than the " +
                     gibibytes(L.Bytes) + " of " + L.What + ". Lower " +
                     optionRef("events") +
                     ", or write several files with "
                     "different seeds",
                 "events"};
  return Status::ok();
}

#ifndef VF_HAVE_HEPMC3
Expected<EventFileReport> writeEventFile(Integrator &, const IntegrandInfo &,
                                         const EventFileOptions &O) {
  return Error{"cannot write '" + O.Path + "': this vegasflow was built "
               "without HepMC3 (install libhepmc3-dev and rebuild)"};
}
#else

static_assert(sizeof(Particle) == BytesPerParticle);
static_assert(sizeof(double) == BytesPerWeight);
static_assert(sizeof(EventInfo) == BytesPerInfo);

namespace {

/// The record's parameters: the integrator's values by name, else the
/// record's defaults; with channels, then the integrator's weights, which
/// the record's alpha() reads.
std::vector<double> recordParams(const Integrator &Int,
                                 const IntegrandInfo &Record) {
  std::vector<double> P = Record.ParamDefaults;
  const IntegrandInfo &I = Int.integrand();
  for (std::size_t K = 0; K < Record.ParamNames.size(); ++K)
    for (std::size_t J = 0; J < I.ParamNames.size(); ++J)
      if (I.ParamNames[J] == Record.ParamNames[K])
        P[K] = Int.params()[J];
  if (!Record.Channels.empty())
    for (const ChannelSummary &C : Int.result().Channels)
      P.push_back(C.Alpha);
  return P;
}

/// The record's values at \p B's points: channel by channel for a
/// multi-channel integrand's events.
void recordValues(const EventBatch &B, const IntegrandInfo &Record,
                  const std::vector<double> &Params,
                  std::vector<double> &Values) {
  const unsigned Nvalues = Record.Outputs, Dim = B.Dim;
  Values.resize(B.N * Nvalues);
  if (B.Channel.empty()) {
    Record.Evaluate(B.X.data(), std::int64_t(B.N), Params.data(),
                    Values.data());
    return;
  }
  std::vector<double> X, V;
  for (unsigned C = 0; C < Record.Channels.size(); ++C) {
    X.clear();
    for (std::size_t K = 0; K < B.N; ++K)
      if (B.Channel[K] == C)
        X.insert(X.end(), B.X.begin() + K * Dim, B.X.begin() + (K + 1) * Dim);
    V.resize(X.size() / Dim * Nvalues);
    Record.EvaluateChannel(C, X.data(), std::int64_t(X.size() / Dim),
                           Params.data(), V.data());
    for (std::size_t K = 0, Next = 0; K < B.N; ++K)
      if (B.Channel[K] == C)
        std::copy_n(V.begin() + (Next++) * Nvalues, Nvalues,
                    Values.begin() + K * Nvalues);
  }
}

/// The events of one batch of points, appended to \p Events; the first
/// value that is not what its layout needs is said in \p Bad.
void takeBatch(const EventBatch &B, const IntegrandInfo &Record,
               const RecordShape &Shape, const std::vector<double> &Params,
               std::vector<double> &Values, EventList &Events, Status &Bad) {
  const unsigned Nvalues = Record.Outputs;
  recordValues(B, Record, Params, Values);
  for (std::size_t K = 0; K < B.N && Bad; ++K) {
    Events.Weights.push_back(B.Weight[K]);
    Events.EntryWeights.insert(Events.EntryWeights.end(),
                               B.EntryWeights.begin() + K * B.Entries,
                               B.EntryWeights.begin() + (K + 1) * B.Entries);
    if (!B.Channel.empty())
      Events.Channels.push_back(B.Channel[K]);
    EventInfo Info;
    const std::size_t First = Events.Particles.size();
    Events.Particles.resize(First + Shape.Particles);
    Bad = decodeEvent(Values.data() + K * Nvalues, Shape, Events.size(), Info,
                      Events.Particles.data() + First);
    if (Shape.Layout == EventLayout::Lhe)
      Events.Infos.push_back(Info);
  }
}

/// Streams the events to \p Path: the file appears whole or not at all.
Status writeAtomically(const std::string &Path, EventFormat F,
                       const EventHeader &H, const EventList &Events) {
  Expected<AtomicFile> File = AtomicFile::create(Path, "the events file");
  if (!File)
    return File.error();
  if (Status S = writeEvents(F, H, Events, *File); !S)
    return Error{S.message() + "; nothing was written"};
  return File->commit();
}

} // namespace

Expected<EventFileReport> writeEventFile(Integrator &Int,
                                         const IntegrandInfo &Record,
                                         const EventFileOptions &O) {
  if (Status S = checkEventFile(Int.integrand(), Record, O); !S)
    return S.error();
  const std::vector<double> Params = recordParams(Int, Record);
  const RecordShape Shape{Record.Name, O.Layout,
                          particlesOf(Record.Outputs, O.Layout)};
  EventList Events;
  Events.ParticlesPerEvent = Shape.Particles;
  Events.ChannelNames = Int.integrand().Channels;
  Events.WeightLists = Int.integrand().WeightLists;
  Events.Entries = weightEntries(Int.integrand());
  Events.Weights.reserve(O.Events);
  Events.EntryWeights.reserve(O.Events * Events.Entries);
  Events.Particles.reserve(O.Events * Events.ParticlesPerEvent);
  std::vector<double> Values;
  Status Bad;
  EventFileReport Rep;
  Rep.Format = *eventFormatOf(O.Path);
  auto Take = [&](const EventBatch &B) {
    if (Bad)
      takeBatch(B, Record, Shape, Params, Values, Events, Bad);
  };
  if (O.Weighted) {
    if (Status S = Int.sample(O.Events, Take); !S)
      return S.error();
  } else {
    Expected<UnweightStats> U = Int.unweight(O.Events, Take, O.Unweight);
    if (!U)
      return U.error();
    Rep.Unweighting = *U;
  }
  if (!Bad)
    return Bad.error();
  EventHeader H;
  for (double W : Events.Weights) {
    Rep.SumWeights += W;
    Rep.MaxWeight = std::max(Rep.MaxWeight, std::fabs(W));
    H.NegativeWeights |= W < 0;
  }
  if (!O.Weighted)
    Rep.MaxWeight = Rep.Unweighting.Wmax;
  H.Weighted = O.Weighted;
  H.FullRecord = O.Layout == EventLayout::Lhe;
  H.Beams = O.Beams;
  H.PdfSetId = O.PdfSetId;
  H.CrossSection = O.CrossSection;
  H.CrossSectionError = O.CrossSectionError;
  H.MaxWeight = Rep.MaxWeight;
  if (Status S = writeAtomically(O.Path, Rep.Format, H, Events); !S)
    return S.error();
  Rep.Written = Events.size();
  return Rep;
}

#endif // VF_HAVE_HEPMC3

} // namespace vf
