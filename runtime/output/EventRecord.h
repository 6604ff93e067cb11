//===- runtime/output/EventRecord.h - An event record's values --*- C++ -*-===//
//
// The numbers an event record returns for one event, read as particles in
// the record's layout (vf/EventFiles.h, EventLayout) and checked where LHE
// needs whole numbers or a value from a short list: a wrong one is an
// error naming the event and the particle, never a rounded id or colour
// that a shower would read as another particle or another colour line.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_OUTPUT_EVENTRECORD_H
#define VF_RUNTIME_OUTPUT_EVENTRECORD_H

#include "output/EventWriters.h"

#include <cstdint>
#include <string>

namespace vf {

/// Where a record's values are read from: its name, for the messages, the
/// layout and the particles per event.
struct RecordShape {
  std::string Name;
  EventLayout Layout = EventLayout::Basic;
  unsigned Particles = 0;
};

/// The particles of a record of \p Outputs values in layout \p L; 0 if
/// that is not a size the layout has.
unsigned particlesOf(unsigned Outputs, EventLayout L);

/// One event's values \p V into \p Info and \p Out (S.Particles of them).
/// \p Event is its 1-based place in the file, for the messages.
Status decodeEvent(const double *V, const RecordShape &S, std::uint64_t Event,
                   EventInfo &Info, Particle *Out);

} // namespace vf

#endif // VF_RUNTIME_OUTPUT_EVENTRECORD_H
