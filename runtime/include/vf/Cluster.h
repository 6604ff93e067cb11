//===- vf/Cluster.h - The processes of a distributed run -------*- C++ -*-===//
//
// When vegasflow runs as several processes (MPI ranks), every rank keeps
// the same map and allocation and evaluates part of each iteration's tiles;
// a Cluster is what the integrator needs of the transport. The runtime
// knows only this interface (no MPI header); vegasc supplies an MPI
// implementation when built with MPI (runtime/mpi/).
//
// All calls but claim() are collective: every rank makes them, in the same
// order.
//
//===----------------------------------------------------------------------===//
#ifndef VF_CLUSTER_H
#define VF_CLUSTER_H

#include "vf/Expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vf {

/// Where the error that ended a rank's run belongs: which ranks report it,
/// and whether the others can be trusted to stop by themselves.
enum class ErrorScope {
  Shared,    ///< every rank returns the same one (an option, a NaN, ...)
  Rank,      ///< this rank's own (all its devices failed); names the rank
  Transport, ///< MPI itself failed: the other ranks may be left waiting
};

class Cluster {
public:
  virtual ~Cluster() = default;

  /// The scope of the error the last run on this rank returned: Shared
  /// unless the transport failed (its implementation marks that) or the
  /// error was this rank's own (the integrator marks that). A run or
  /// extension starts it at Shared again. Every call is on the thread
  /// that integrates, as the collectives are.
  ErrorScope errorScope() const { return Scope; }
  void setErrorScope(ErrorScope S) { Scope = S; }

  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// This rank among the ranks on its machine, and how many there are
  /// (they share its CPU threads and GPUs).
  virtual int localRank() const = 0;
  virtual int localSize() const = 0;

  /// Starts handing out \p Total work units for a new iteration
  /// (collective: returns once every rank may claim).
  virtual Status startClaims(std::uint64_t Total) = 0;
  /// Claims up to \p Want further units: [Begin, End), empty when none is
  /// left. Not collective: ranks claim at their own pace.
  struct Range {
    std::uint64_t Begin = 0, End = 0;
    bool empty() const { return Begin >= End; }
  };
  virtual Expected<Range> claim(std::uint64_t Want) = 0;
  /// How many units are claimed so far (not collective).
  virtual Expected<std::uint64_t> claimed() = 0;

  /// In place, the bitwise OR over ranks of \p N words (collective). Data
  /// that exactly one rank computed and the others left zero is then the
  /// same on every rank, bit for bit.
  virtual Status orAll(std::uint64_t *Data, std::size_t N) = 0;
  /// Every rank's \p Words into \p All, rank after rank, with each rank's
  /// count in \p Counts (collective; counts may differ). \p All keeps its
  /// memory between calls.
  virtual Status gatherWords(const std::vector<std::uint64_t> &Words,
                             std::vector<std::uint64_t> &All,
                             std::vector<std::size_t> &Counts) = 0;
  /// Every rank's \p Values (the same count on each), rank after rank
  /// (collective).
  virtual Expected<std::vector<double>>
  gatherAll(const std::vector<double> &Values) = 0;
  /// Ends every rank with exit code \p Code, for an error after which the
  /// ranks can no longer agree (a failed transport).
  [[noreturn]] virtual void abort(int Code) = 0;
  /// Whether this rank sends what it computed and receives nothing (a task
  /// engine's part: the merge estimates the iteration). Its exchanges
  /// return once its packet is sent, the integrator skips the estimate of
  /// every pass, and the rank's gatherWords ends the iteration with an
  /// error after the last pass's packet.
  virtual bool sendsOnly() const { return false; }
  /// How errors name rank \p Rank's data when it cannot be used (a task
  /// engine's merge names the part's file).
  virtual std::string describeRank(int Rank) const {
    return "rank " + std::to_string(Rank) + "'s packet";
  }

private:
  ErrorScope Scope = ErrorScope::Shared;
};

} // namespace vf

#endif // VF_CLUSTER_H
