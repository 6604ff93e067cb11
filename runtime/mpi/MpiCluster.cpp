//===- runtime/mpi/MpiCluster.cpp - vf::Cluster over MPI ---------===//
//
// The claim counter lives in a one-word window on rank 0 and is reset by
// rank 0 between two barriers, so no rank claims from the next iteration
// before the reset nor from the previous one after it.
//
//===----------------------------------------------------------------------===//

#include "vf/MpiCluster.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace vf {

struct MpiCluster::State {
  MPI_Win Window = MPI_WIN_NULL;
  std::uint64_t *Counter = nullptr;
};

static Status mpiStatus(int Rc, const char *What) {
  if (Rc == MPI_SUCCESS)
    return Status::ok();
  char Text[MPI_MAX_ERROR_STRING] = {0};
  int Len = 0;
  MPI_Error_string(Rc, Text, &Len);
  return Error{std::string("MPI: ") + What + " failed: " + Text};
}

/// An error of the transport during a run: the other ranks may be left
/// waiting, so the cluster keeps it as the transport's (errorScope).
static Status transport(Cluster &C, Status S) {
  if (!S)
    C.setErrorScope(ErrorScope::Transport);
  return S;
}

static Status mpiStatus(Cluster &C, int Rc, const char *What) {
  return transport(C, mpiStatus(Rc, What));
}

bool launchedByMpi() {
  for (const char *V : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK",
                        "PMI_SIZE", "MPI_LOCALNRANKS"})
    if (const char *E = std::getenv(V); E && *E)
      return true;
  return false;
}

Expected<std::unique_ptr<MpiCluster>> MpiCluster::create(int *Argc,
                                                          char ***Argv) {
  int Provided = 0;
  if (Status S = mpiStatus(
          MPI_Init_thread(Argc, Argv, MPI_THREAD_FUNNELED, &Provided),
          "MPI_Init_thread");
      !S)
    return S.error();
  // Errors come back as codes, to be reported, not as aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  std::unique_ptr<MpiCluster> C(new MpiCluster());
  C->S = std::make_unique<State>();
  MPI_Comm_rank(MPI_COMM_WORLD, &C->Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &C->Size);
  MPI_Comm Node;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, C->Rank,
                          MPI_INFO_NULL, &Node) == MPI_SUCCESS) {
    MPI_Comm_rank(Node, &C->LocalRank);
    MPI_Comm_size(Node, &C->LocalSize);
    MPI_Comm_free(&Node);
  }
  if (Provided < MPI_THREAD_FUNNELED)
    return Error{"MPI: the library does not support threads "
                 "(MPI_THREAD_FUNNELED)"};
  MPI_Aint Bytes = C->Rank == 0 ? sizeof(std::uint64_t) : 0;
  if (Status S = mpiStatus(MPI_Win_allocate(Bytes, sizeof(std::uint64_t),
                                            MPI_INFO_NULL, MPI_COMM_WORLD,
                                            &C->S->Counter, &C->S->Window),
                           "MPI_Win_allocate");
      !S)
    return S.error();
  // A window has its own handler, fatal by default.
  MPI_Win_set_errhandler(C->S->Window, MPI_ERRORS_RETURN);
  if (C->Rank == 0)
    *C->S->Counter = 0;
  if (Status S = mpiStatus(MPI_Win_lock_all(0, C->S->Window), "MPI_Win_lock_all");
      !S)
    return S.error();
  return C;
}

MpiCluster::~MpiCluster() {
  if (S && S->Window != MPI_WIN_NULL) {
    MPI_Win_unlock_all(S->Window);
    MPI_Win_free(&S->Window);
  }
  MPI_Finalize();
}

void MpiCluster::abort(int Code) { MPI_Abort(MPI_COMM_WORLD, Code); std::exit(Code); }

Status MpiCluster::startClaims(std::uint64_t N) {
  Total = N;
  if (Status St = mpiStatus(*this, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
      !St)
    return St;
  if (Rank == 0) {
    std::uint64_t Zero = 0;
    if (Status St = mpiStatus(*this,
                              MPI_Put(&Zero, 1, MPI_UINT64_T, 0, 0, 1,
                                      MPI_UINT64_T, S->Window),
                              "MPI_Put");
        !St)
      return St;
    if (Status St =
            mpiStatus(*this, MPI_Win_flush(0, S->Window), "MPI_Win_flush");
        !St)
      return St;
  }
  return mpiStatus(*this, MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

namespace {
/// The claim counter on rank 0 before Op(counter, Add), atomically, with
/// the access completed.
Expected<std::uint64_t> fetchAndOp(Cluster &C, MPI_Win Window,
                                   std::uint64_t Add, MPI_Op Op) {
  std::uint64_t Old = 0;
  if (Status St = mpiStatus(C,
                            MPI_Fetch_and_op(&Add, &Old, MPI_UINT64_T, 0, 0,
                                             Op, Window),
                            "MPI_Fetch_and_op");
      !St)
    return St.error();
  if (Status St = mpiStatus(C, MPI_Win_flush(0, Window), "MPI_Win_flush");
      !St)
    return St.error();
  return Old;
}
} // namespace

Expected<Cluster::Range> MpiCluster::claim(std::uint64_t Want) {
  std::uint64_t Add = std::max<std::uint64_t>(Want, 1);
  Expected<std::uint64_t> Old = fetchAndOp(*this, S->Window, Add, MPI_SUM);
  if (!Old)
    return Old.error();
  if (*Old >= Total)
    return Range{Total, Total};
  return Range{*Old, std::min(*Old + Add, Total)};
}

Expected<std::uint64_t> MpiCluster::claimed() {
  Expected<std::uint64_t> Now = fetchAndOp(*this, S->Window, 0, MPI_NO_OP);
  if (!Now)
    return Now.error();
  return std::min(*Now, Total);
}

Status MpiCluster::orAll(std::uint64_t *Data, std::size_t N) {
  if (N > std::size_t(INT_MAX))
    return transport(*this, Error{"MPI: too many words to combine (" +
                                  std::to_string(N) + ")"});
  return mpiStatus(*this,
                   MPI_Allreduce(MPI_IN_PLACE, Data, int(N), MPI_UINT64_T,
                                 MPI_BOR, MPI_COMM_WORLD),
                   "MPI_Allreduce");
}

Status MpiCluster::gatherWords(const std::vector<std::uint64_t> &Words,
                               std::vector<std::uint64_t> &All,
                               std::vector<std::size_t> &Counts) {
  // Counts travel as doubles (exact below 2^53).
  Expected<std::vector<double>> N = gatherAll({double(Words.size())});
  if (!N)
    return Status(N.error());
  Counts.assign(N->begin(), N->end());
  std::vector<int> Sizes(Size), Displs(Size);
  std::size_t Offset = 0;
  for (int R = 0; R < Size; ++R) {
    // MPI counts and displacements are ints: 2^31 words (16 GiB) in all.
    if (Offset + Counts[R] > std::size_t(INT_MAX))
      return transport(*this, Error{"MPI: the exchange exceeds 2^31 words"});
    Sizes[R] = int(Counts[R]);
    Displs[R] = int(Offset);
    Offset += Counts[R];
  }
  All.resize(Offset);
  return mpiStatus(*this,
                   MPI_Allgatherv(Words.data(), int(Words.size()),
                                  MPI_UINT64_T, All.data(), Sizes.data(),
                                  Displs.data(), MPI_UINT64_T, MPI_COMM_WORLD),
                   "MPI_Allgatherv");
}

Expected<std::vector<double>>
MpiCluster::gatherAll(const std::vector<double> &Values) {
  std::vector<double> All(Values.size() * std::size_t(Size));
  if (Status St = mpiStatus(
          *this,
          MPI_Allgather(Values.data(), int(Values.size()), MPI_DOUBLE,
                        All.data(), int(Values.size()), MPI_DOUBLE,
                        MPI_COMM_WORLD),
          "MPI_Allgather");
      !St)
    return St.error();
  return All;
}

} // namespace vf
