//===- runtime/output/EventRecord.cpp - An event record's values ----------===//
//
// The basic layout keeps what vegasflow always wrote: outgoing particles'
// mothers are the incoming ones, no colour, the mass from E^2 - p^2, spin
// 9 (unknown). The lhe layout gives all of it, checked here against what
// the Les Houches accord (hep-ph/0609017) allows.
//
//===----------------------------------------------------------------------===//

#include "output/EventRecord.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <tuple>
#include <vector>

namespace vf {

unsigned particlesOf(unsigned Outputs, EventLayout L) {
  if (L == EventLayout::Basic)
    return Outputs % 6 == 0 ? Outputs / 6 : 0;
  return Outputs > LheHeaderValues &&
                 (Outputs - LheHeaderValues) % LheParticleValues == 0
             ? (Outputs - LheHeaderValues) / LheParticleValues
             : 0;
}

namespace {

constexpr double MaxInt = std::numeric_limits<int>::max();

/// The shortest text that reads back as \p V (NaN and infinities too).
std::string shortest(double V) {
  char Buf[32];
  return {Buf, std::to_chars(Buf, Buf + sizeof(Buf), V).ptr};
}

/// Reads one event's values in order, each checked, the first error kept
/// with the place it was read from.
class ValueReader {
public:
  ValueReader(const double *V, const RecordShape &S, std::uint64_t Event)
      : V(V), S(S), Event(Event) {}

  /// The next value as a whole number from \p Lo to \p Hi.
  int whole(const char *What, double Lo, double Hi) {
    const double X = V[Next++];
    if (!(X >= Lo && X <= Hi && X == std::floor(X)))
      fail(std::string(What) + " must be a whole number from " + shortest(Lo) +
           " to " + shortest(Hi) + ", got " + shortest(X));
    return failed() ? 0 : int(X);
  }
  double real(const char *What) {
    const double X = V[Next++];
    if (!std::isfinite(X))
      fail(std::string(What) + " is not finite (" + shortest(X) + ")");
    return X;
  }
  void fail(const std::string &Why) {
    if (!failed())
      Outcome =
          Error{"the event record '" + S.Name + "' at event " +
                std::to_string(Event) + " of the file" +
                (Particle ? ", particle " + std::to_string(Particle) : "") +
                ": " + Why};
  }
  /// The 1-based particle read from now on (0: the event's header).
  unsigned Particle = 0;
  /// The first error, if any.
  Status Outcome;
  bool failed() const { return !Outcome; }

private:
  const double *V;
  const RecordShape &S;
  std::uint64_t Event;
  unsigned Next = 0;
};

/// E^2 - p^2 of a massless particle is rounding, a few ulp of E^2: 0.
double massOf(const vf::Particle &P) {
  const double M2 = P.E * P.E - (P.Px * P.Px + P.Py * P.Py + P.Pz * P.Pz);
  return M2 > 64 * 0x1p-52 * P.E * P.E ? std::sqrt(M2) : 0;
}

void readBasic(ValueReader &R, unsigned N, Particle *Out) {
  int Incoming = 0;
  for (unsigned K = 0; K < N; ++K) {
    R.Particle = K + 1;
    Particle &P = Out[K];
    P.Pdg = R.whole("the pdg id", -MaxInt, MaxInt);
    P.Status = R.real("the status") < 0 ? -1 : 1;
    P.E = R.real("E");
    P.Px = R.real("px");
    P.Py = R.real("py");
    P.Pz = R.real("pz");
    P.Mass = massOf(P);
    // One process: outgoing particles come from the incoming ones.
    Incoming += P.Status < 0;
    if (P.Status > 0)
      std::tie(P.Mother1, P.Mother2) =
          std::pair{Incoming > 0 ? 1 : 0, Incoming > 1 ? 2 : 0};
  }
}

bool isLheStatus(int S) {
  return S == -1 || S == 1 || S == -2 || S == 2 || S == 3 || S == -9;
}

void readMothers(ValueReader &R, unsigned K, unsigned N, Particle &P) {
  P.Mother1 = R.whole("mother1", 0, N);
  P.Mother2 = R.whole("mother2", 0, N);
  if (R.failed())
    return;
  if (P.Mother1 == int(K) || P.Mother2 == int(K))
    R.fail("a particle cannot be its own mother");
  else if (P.Mother2 && P.Mother2 < P.Mother1)
    R.fail("mothers " + std::to_string(P.Mother1) + ", " +
           std::to_string(P.Mother2) +
           " are a range (first, last): mother2 "
           "is 0 or at least mother1");
}

/// Each particle ends in at most one vertex: every particle naming it
/// among its mothers names the same range (first, last) of mothers, as
/// HepMC3's graph of vertices needs and an LHE reader assumes.
void checkMotherRanges(ValueReader &R, unsigned N, const Particle *Ps) {
  std::vector<std::pair<int, int>> EndsIn(N + 1, {0, 0});
  std::vector<unsigned> NamedBy(N + 1, 0);
  for (unsigned K = 0; K < N && !R.failed(); ++K) {
    if (!Ps[K].Mother1)
      continue;
    const std::pair Range{Ps[K].Mother1,
                          Ps[K].Mother2 ? Ps[K].Mother2 : Ps[K].Mother1};
    for (int M = Range.first; M <= Range.second && !R.failed(); ++M) {
      if (NamedBy[M] && EndsIn[M] != Range) {
        R.Particle = K + 1;
        R.fail("its mothers " + std::to_string(Range.first) + " to " +
               std::to_string(Range.second) + " and particle " +
               std::to_string(NamedBy[M]) + "'s " +
               std::to_string(EndsIn[M].first) + " to " +
               std::to_string(EndsIn[M].second) + " share particle " +
               std::to_string(M) +
               ": the daughters of one vertex must name "
               "the same mothers");
      }
      EndsIn[M] = Range;
      NamedBy[M] = K + 1;
    }
  }
}

void readLhe(ValueReader &R, unsigned N, EventInfo &Info, Particle *Out) {
  Info.Process = R.whole("idprup", 0, MaxInt);
  Info.Scale = R.real("the scale");
  Info.AlphaQed = R.real("aqed");
  Info.AlphaQcd = R.real("aqcd");
  for (unsigned K = 0; K < N; ++K) {
    R.Particle = K + 1;
    Particle &P = Out[K];
    P.Pdg = R.whole("the pdg id", -MaxInt, MaxInt);
    P.Status = R.whole("the status", -MaxInt, MaxInt);
    if (!R.failed() && !isLheStatus(P.Status))
      R.fail("the status must be -1 (incoming), 1 (outgoing), -2 or 2 "
             "(intermediate), 3 (documentation) or -9 (beam), got " +
             std::to_string(P.Status));
    readMothers(R, K + 1, N, P);
    P.Colour = R.whole("the colour", 0, MaxInt);
    P.Anticolour = R.whole("the anticolour", 0, MaxInt);
    P.E = R.real("E");
    P.Px = R.real("px");
    P.Py = R.real("py");
    P.Pz = R.real("pz");
    P.Mass = R.real("the mass");
    P.Lifetime = R.real("the lifetime");
    P.Spin = R.real("the spin");
  }
  checkMotherRanges(R, N, Out);
}

} // namespace

Status decodeEvent(const double *V, const RecordShape &S, std::uint64_t Event,
                   EventInfo &Info, Particle *Out) {
  ValueReader R(V, S, Event);
  if (S.Layout == EventLayout::Basic)
    readBasic(R, S.Particles, Out);
  else
    readLhe(R, S.Particles, Info, Out);
  return R.Outcome;
}

} // namespace vf
