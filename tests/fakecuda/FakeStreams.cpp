//===- tests/fakecuda/FakeStreams.cpp - Streams as asynchronous as a GPU's -===//
//
// One mutex and one condition variable for all streams (a test driver's
// work is coarse: copies and whole kernels); they and every stream and
// context are allocated once and never destroyed, since a worker may still
// wait on them while the process exits.
//
//===----------------------------------------------------------------------===//

#include "FakeStreams.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace vf::fakecuda {

namespace {

/// What is ordered before an operation: per stream id, the last sequence
/// number of that stream's work.
using Clock = std::vector<std::uint64_t>;

void join(Clock &A, const Clock &B) {
  if (A.size() < B.size())
    A.resize(B.size(), 0);
  for (std::size_t I = 0; I < B.size(); ++I)
    A[I] = std::max(A[I], B[I]);
}

bool covers(const Clock &C, unsigned Id, std::uint64_t Seq) {
  return Id < C.size() && C[Id] >= Seq;
}

struct Dep {
  Stream *S;
  std::uint64_t Seq;
};

struct Op {
  std::uint64_t Seq = 0;
  std::vector<Dep> Deps;
  std::function<std::string()> Work;
};

std::mutex &lock() {
  static auto *M = new std::mutex();
  return *M;
}
std::condition_variable &changed() {
  static auto *C = new std::condition_variable();
  return *C;
}
/// What the host has seen complete (all host threads together).
Clock &hostClock() {
  static auto *C = new Clock();
  return *C;
}
unsigned NextStreamId = 0;

std::uint64_t jitterSeed() {
  const char *J = std::getenv("VF_FAKE_CUDA_JITTER");
  return J && *J ? std::strtoull(J, nullptr, 10) : 0;
}

std::uint64_t splitmix(std::uint64_t &S) {
  std::uint64_t Z = (S += 0x9e3779b97f4a7c15ull);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return Z ^ (Z >> 31);
}

/// The last writer and, per stream, the last kernel reaching one device
/// allocation.
struct Allocation {
  std::size_t Bytes = 0;
  bool Written = false;
  unsigned WriterStream = 0;
  std::uint64_t WriterSeq = 0;
  std::string Writer;
  struct Reader {
    std::uint64_t Seq;
    std::string Name;
  };
  std::map<unsigned, Reader> Readers;
};
std::map<std::uintptr_t, Allocation> &allocations() {
  static auto *A = new std::map<std::uintptr_t, Allocation>();
  return *A;
}

std::map<std::uintptr_t, Allocation>::iterator findAllocation(std::uintptr_t P) {
  auto &A = allocations();
  auto It = A.upper_bound(P);
  if (It == A.begin())
    return A.end();
  --It;
  return P < It->first + It->second.Bytes ? It : A.end();
}

} // namespace

struct Stream {
  unsigned Id = 0;
  Context *Ctx = nullptr;
  bool NonBlocking = false, IsNull = false, Destroyed = false, Stop = false;
  std::deque<Op> Queue;
  std::uint64_t Enqueued = 0, Completed = 0;
  Clock Clk;
  std::uint64_t Rng = 0;
  std::thread Worker;
};

struct Context {
  int Device = 0;
  Stream *Null = nullptr;
  std::vector<Stream *> Streams;
  std::string Error;
};

struct Event {
  Stream *S = nullptr;
  std::uint64_t Seq = 0;
  Clock Clk;
  std::chrono::steady_clock::time_point Time;
};

namespace {

std::string describe(const Stream *S) {
  return S->IsNull ? "the NULL stream"
                   : std::string(S->NonBlocking ? "non-blocking" : "blocking") +
                         " stream " + std::to_string(S->Id);
}

void fail(Context *C, const std::string &Why) {
  if (C->Error.empty())
    C->Error = Why;
}

void runWorker(Stream *S) {
  std::unique_lock<std::mutex> L(lock());
  for (;;) {
    changed().wait(L, [&] { return S->Stop || !S->Queue.empty(); });
    if (S->Queue.empty())
      return;
    Op &O = S->Queue.front();
    changed().wait(L, [&] {
      return std::all_of(O.Deps.begin(), O.Deps.end(), [](const Dep &D) {
        return D.S->Completed >= D.Seq;
      });
    });
    const bool Skip = !S->Ctx->Error.empty();
    L.unlock();
    if (S->Rng)
      std::this_thread::sleep_for(
          std::chrono::microseconds(splitmix(S->Rng) % 300));
    std::string Err = Skip ? "" : O.Work();
    L.lock();
    if (!Err.empty())
      fail(S->Ctx, Err);
    S->Completed = O.Seq;
    S->Queue.pop_front();
    changed().notify_all();
  }
}

Stream *newStream(Context *C, bool NonBlocking, bool IsNull) {
  auto *S = new Stream();
  S->Id = NextStreamId++;
  S->Ctx = C;
  S->NonBlocking = NonBlocking;
  S->IsNull = IsNull;
  if (std::uint64_t Seed = jitterSeed()) {
    S->Rng = Seed * 0x2545f4914f6cdd1dull + S->Id;
    splitmix(S->Rng);
  }
  C->Streams.push_back(S);
  S->Worker = std::thread(runWorker, S);
  return S;
}

/// The race detector's part of an enqueue (lock held): a write against
/// the kernels that reach its allocation, a kernel against the writes of
/// the allocations it reaches.
void checkRaces(Stream *S, const std::string &Name, const Access &A,
                std::uint64_t Seq, const Clock &C) {
  auto Race = [&](const std::string &Why) {
    std::fprintf(stderr, "fakecuda: race: %s\n", Why.c_str());
    fail(S->Ctx, "race: " + Why);
  };
  auto Where = [](std::uintptr_t Base, const Allocation &Al) {
    char B[64];
    std::snprintf(B, sizeof B, "allocation 0x%llx (%zu bytes)",
                  static_cast<unsigned long long>(Base), Al.Bytes);
    return std::string(B);
  };
  if (A.What == Access::Write) {
    auto It = findAllocation(A.Ptr);
    if (It == allocations().end())
      return;
    Allocation &Al = It->second;
    for (auto &[Id, R] : Al.Readers)
      if (!covers(C, Id, R.Seq))
        Race(Name + " on " + describe(S) + " writes " + Where(It->first, Al) +
             ", which kernel " + R.Name + " reaches on stream " +
             std::to_string(Id) + ", with no ordering between them");
    Al.Written = true;
    Al.WriterStream = S->Id;
    Al.WriterSeq = Seq;
    Al.Writer = Name + " on " + describe(S);
    return;
  }
  if (A.What != Access::Kernel)
    return;
  std::vector<std::map<std::uintptr_t, Allocation>::iterator> Reached;
  auto Reach = [&](std::uintptr_t P) {
    auto It = findAllocation(P);
    if (It != allocations().end() &&
        std::find(Reached.begin(), Reached.end(), It) == Reached.end())
      Reached.push_back(It);
    return It;
  };
  for (std::uintptr_t P : A.Pointers) {
    auto It = Reach(P);
    // Argument blocks are small; their pointers are reached too.
    if (It == allocations().end() || It->second.Bytes > 1024)
      continue;
    const auto *Words = reinterpret_cast<const std::uintptr_t *>(It->first);
    for (std::size_t W = 0; W < It->second.Bytes / sizeof(std::uintptr_t); ++W)
      Reach(Words[W]);
  }
  for (auto It : Reached) {
    Allocation &Al = It->second;
    if (Al.Written && !covers(C, Al.WriterStream, Al.WriterSeq))
      Race("kernel " + Name + " on " + describe(S) + " reaches " +
           Where(It->first, Al) + ", written by " + Al.Writer +
           ", with no ordering between them");
    Al.Readers[S->Id] = {Seq, Name};
  }
}

/// Queues an operation (lock held); returns its sequence number and
/// clock.
std::pair<std::uint64_t, Clock> push(Stream *S, const std::string &Name,
                                     const Access &A,
                                     std::function<std::string()> Work,
                                     std::vector<Dep> Deps = {},
                                     const Clock &Extra = {}) {
  Clock C = S->Clk;
  join(C, hostClock());
  join(C, Extra);
  // The legacy NULL stream and the blocking streams wait for each other.
  for (Stream *T : S->Ctx->Streams) {
    if (T == S || T->Destroyed || T->NonBlocking || S->NonBlocking ||
        (!S->IsNull && !T->IsNull))
      continue;
    Deps.push_back({T, T->Enqueued});
    join(C, T->Clk);
  }
  Op O;
  O.Seq = ++S->Enqueued;
  O.Deps = std::move(Deps);
  O.Work = std::move(Work);
  if (C.size() <= S->Id)
    C.resize(S->Id + 1, 0);
  C[S->Id] = O.Seq;
  checkRaces(S, Name, A, O.Seq, C);
  S->Clk = C;
  S->Queue.push_back(std::move(O));
  changed().notify_all();
  return {S->Enqueued, C};
}

/// Waits until \p S has completed \p Seq, then the host knows \p C.
void await(std::unique_lock<std::mutex> &L, Stream *S, std::uint64_t Seq,
           const Clock &C) {
  changed().wait(L, [&] { return S->Completed >= Seq; });
  join(hostClock(), C);
}

} // namespace

Context *context(int Device) {
  std::lock_guard<std::mutex> L(lock());
  static auto *All = new std::map<int, Context *>();
  Context *&C = (*All)[Device];
  if (!C) {
    C = new Context();
    C->Device = Device;
    C->Null = newStream(C, false, true);
  }
  return C;
}

Context *&currentContext() {
  thread_local Context *Current = nullptr;
  return Current;
}

Stream *nullStream(Context *C) { return C->Null; }

Stream *createStream(Context *C, bool NonBlocking) {
  std::lock_guard<std::mutex> L(lock());
  return newStream(C, NonBlocking, false);
}

void destroyStream(Stream *S) {
  synchronize(S);
  std::thread Worker;
  {
    std::lock_guard<std::mutex> L(lock());
    S->Stop = true;
    S->Destroyed = true;
    changed().notify_all();
    Worker = std::move(S->Worker);
  }
  Worker.join();
}

void enqueue(Stream *S, std::string Name, Access A,
             std::function<std::string()> Work) {
  std::lock_guard<std::mutex> L(lock());
  push(S, Name, A, std::move(Work));
}

void synchronize(Stream *S) {
  std::unique_lock<std::mutex> L(lock());
  // A marker, so that the NULL stream's sync also waits for the blocking
  // streams' work.
  auto [Seq, C] = push(S, "synchronize", {}, [] { return std::string(); });
  await(L, S, Seq, C);
}

void synchronizeContext(Context *C) {
  std::vector<Stream *> Streams;
  {
    std::lock_guard<std::mutex> L(lock());
    for (Stream *S : C->Streams)
      if (!S->Destroyed)
        Streams.push_back(S);
  }
  for (Stream *S : Streams)
    synchronize(S);
}

std::string contextError(Context *C) {
  std::lock_guard<std::mutex> L(lock());
  return C->Error;
}

Event *createEvent() { return new Event(); }
void destroyEvent(Event *E) {
  synchronizeEvent(E);
  delete E;
}

void recordEvent(Event *E, Stream *S) {
  std::lock_guard<std::mutex> L(lock());
  auto Stamp = [E, Expected = S->Enqueued + 1] {
    std::lock_guard<std::mutex> In(lock());
    if (E->Seq == Expected)
      E->Time = std::chrono::steady_clock::now();
    return std::string();
  };
  // The stamp takes the lock itself, so it runs outside the worker's.
  auto [Seq, C] = push(S, "cuEventRecord", {}, Stamp);
  E->S = S;
  E->Seq = Seq;
  E->Clk = C;
}

void streamWaitEvent(Stream *S, Event *E) {
  std::lock_guard<std::mutex> L(lock());
  if (!E->S)
    return;
  push(S, "cuStreamWaitEvent", {}, [] { return std::string(); },
       {{E->S, E->Seq}}, E->Clk);
}

void synchronizeEvent(Event *E) {
  std::unique_lock<std::mutex> L(lock());
  if (E->S)
    await(L, E->S, E->Seq, E->Clk);
}

bool elapsedMs(Event *Start, Event *End, float *Ms) {
  std::lock_guard<std::mutex> L(lock());
  for (const Event *E : {Start, End})
    if (!E->S || E->S->Completed < E->Seq)
      return false;
  *Ms = std::chrono::duration<float, std::milli>(End->Time - Start->Time)
            .count();
  return true;
}

void trackAllocation(std::uintptr_t Ptr, std::size_t Bytes) {
  std::lock_guard<std::mutex> L(lock());
  Allocation A;
  A.Bytes = Bytes ? Bytes : 1;
  allocations()[Ptr] = std::move(A);
}

void untrackAllocation(std::uintptr_t Ptr) {
  std::lock_guard<std::mutex> L(lock());
  allocations().erase(Ptr);
}

} // namespace vf::fakecuda
