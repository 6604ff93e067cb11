//===- tests/fakecuda/FakeStreams.h - Streams as asynchronous as a GPU's -*- C++ -*-===//
//
// The fake driver's streams: each a queue of operations (copies, memsets,
// kernels, event records, waits) run in order by a worker thread of its
// own, so the host returns from an enqueue before the work is done, as
// with a real driver. Ordering follows the CUDA programming guide: work
// on one stream runs in issue order; the legacy NULL stream of a context
// waits for all earlier work of the context's blocking streams, and they
// for its earlier work; CU_STREAM_NON_BLOCKING streams have no implicit
// ordering with it; cuStreamWaitEvent orders a stream after an event's
// work. VF_FAKE_CUDA_JITTER=SEED delays each operation by a seeded random
// time (up to 300 us), which widens every window a race needs.
//
// Besides running the work, every operation carries a vector clock of what
// is ordered before it (its stream, its dependencies, and what the host had
// seen complete when it issued it: host synchronisation is one clock for
// all host threads). A copy or memset into a device allocation that a
// kernel reaches, with neither ordered before the other, is a race: it is
// reported when the second of the two is issued, whatever the timing, and
// makes the context fail like a faulting kernel.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_FAKECUDA_FAKESTREAMS_H
#define VF_TESTS_FAKECUDA_FAKESTREAMS_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vf::fakecuda {

struct Stream;
struct Context;

/// What an operation does to device memory, for the race detector: a copy
/// or memset writes [Ptr, Ptr + Bytes); a kernel reaches the allocations
/// its pointer parameters (and pointers stored in small allocations they
/// point to) point into.
struct Access {
  enum Kind { None, Write, Kernel } What = None;
  std::uintptr_t Ptr = 0;
  std::size_t Bytes = 0;
  std::vector<std::uintptr_t> Pointers; ///< a kernel's pointer parameters
};

/// The context of device \p Device (created on first use).
Context *context(int Device);
/// The calling thread's current context (cuCtxSetCurrent), or null.
Context *&currentContext();
/// The context's NULL stream.
Stream *nullStream(Context *C);
Stream *createStream(Context *C, bool NonBlocking);
/// Waits for the stream's work, then stops its worker.
void destroyStream(Stream *S);

/// Queues \p Work on \p S (after its ordering rules), described as \p Name
/// in reports. A non-empty string returned by Work fails the context.
void enqueue(Stream *S, std::string Name, Access A,
             std::function<std::string()> Work);

/// The host waits for \p S's work issued so far (and learns its clock).
void synchronize(Stream *S);
/// The host waits for every stream of \p C.
void synchronizeContext(Context *C);
/// The context's first failure (a kernel's, or a race), "" if none.
std::string contextError(Context *C);

/// Events: recorded on a stream, waited for by the host or a stream.
struct Event;
Event *createEvent();
void destroyEvent(Event *E);
void recordEvent(Event *E, Stream *S);
void streamWaitEvent(Stream *S, Event *E);
void synchronizeEvent(Event *E);
/// Milliseconds between two completed events; false if either is not.
bool elapsedMs(Event *Start, Event *End, float *Ms);

/// Device allocations, for the race detector.
void trackAllocation(std::uintptr_t Ptr, std::size_t Bytes);
void untrackAllocation(std::uintptr_t Ptr);

} // namespace vf::fakecuda

#endif // VF_TESTS_FAKECUDA_FAKESTREAMS_H
