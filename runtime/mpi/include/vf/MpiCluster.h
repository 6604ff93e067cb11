//===- vf/MpiCluster.h - vf::Cluster over MPI -------------------*- C++ -*-===//
//
// Open MPI (or any MPI-3 library) behind vf::Cluster: the public header of
// vfmpi, a library of its own (built only when MPI is found, and not part
// of libvegasflow.so, which needs no MPI), linked by vegasc and open to any
// program built with the tree that runs under mpirun. Work is claimed from a
// counter on rank 0 with one-sided MPI_Fetch_and_op, so a rank asks for
// more when it needs it and nobody waits for a dispatcher; only the
// integrator's own thread calls MPI (MPI_THREAD_FUNNELED).
//
//===----------------------------------------------------------------------===//
#ifndef VF_MPICLUSTER_H
#define VF_MPICLUSTER_H

#include "vf/Cluster.h"

#include <memory>

namespace vf {

/// True when this process was started by an MPI launcher (mpirun, srun),
/// judged from its environment: the same vegasc runs alone without MPI.
bool launchedByMpi();

class MpiCluster : public Cluster {
public:
  /// MPI_Init_thread and the claim counter; an error says what failed.
  static Expected<std::unique_ptr<MpiCluster>> create(int *Argc, char ***Argv);
  /// Frees the counter and finalizes MPI.
  ~MpiCluster() override;

  int rank() const override { return Rank; }
  int size() const override { return Size; }
  int localRank() const override { return LocalRank; }
  int localSize() const override { return LocalSize; }
  Status startClaims(std::uint64_t Total) override;
  Expected<Range> claim(std::uint64_t Want) override;
  Expected<std::uint64_t> claimed() override;
  Status orAll(std::uint64_t *Data, std::size_t N) override;
  Status gatherWords(const std::vector<std::uint64_t> &Words,
                     std::vector<std::uint64_t> &All,
                     std::vector<std::size_t> &Counts) override;
  Expected<std::vector<double>>
  gatherAll(const std::vector<double> &Values) override;

  [[noreturn]] void abort(int Code) override;

private:
  MpiCluster() = default;
  struct State;
  std::unique_ptr<State> S;
  int Rank = 0, Size = 1, LocalRank = 0, LocalSize = 1;
  std::uint64_t Total = 0;
};

} // namespace vf

#endif // VF_MPICLUSTER_H
