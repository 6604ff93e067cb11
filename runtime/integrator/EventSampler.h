//===- runtime/integrator/EventSampler.h - Frozen-map events ----*- C++ -*-===//
//
// Draws events (ALGORITHM.md section 7; vf/Events.h) from a trained map and
// allocation. Event j of a stream is drawn from the sampling core's
// uniform source (kernels/UniformSource.h) keyed by the seed, with the
// iteration set to the stream (iterations of integration count up from 1,
// streams down from 2^32 - 1, so they never meet):
//
//   the choice draw:   u (52 bits), the hypercube: sample index floor(u N)
//                      of the frozen allocation, so hypercube h has
//                      probability p_h = n_h / N; and the acceptance
//                      uniform of unweighting (vf_uniforms_choice);
//   the point's draw:  the point in the hypercube and through the map,
//                      exactly as the fused kernel draws a sample
//                      (vf_sample_point).
//
// With J the map's and the box's Jacobian and N_h the number of hypercubes,
// q(x) = p_h N_h / J, so Jac = 1/q = J N / (N_h n_h). Every number of event
// j depends only on (seed, stream, j): events are the same for any thread
// count. Batches of BatchSize events are computed in parallel and handed to
// the caller in order.
//
// A multi-channel integrand's event first picks its channel c with
// probability alpha_c, by the same 52-bit uniform (the part of it below
// the channels before c, rescaled, then picks the hypercube of channel
// c's allocation); its point is channel c's (its map, strata and Philox
// blocks), its value channel c's term f_c, and its Jac 1/(alpha_c q_c).
//
// An integrand's weight lists are evaluated at the events handed out
// (IntegrandInfo::EvaluateWeights, in the batches' parallel fill): every
// weighted event, and of unweighting only the events the hit-or-miss test
// accepts, whose entries are then scaled to the unweighted weight
// (EventBatch::EntryWeights). The w_max pass evaluates none.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_EVENTSAMPLER_H
#define VF_RUNTIME_INTEGRATOR_EVENTSAMPLER_H

#include "vf/Events.h"
#include "vf/Expected.h"
#include "vf/Integrand.h"

#include "SamplerABI.h"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace vf {

class EventSampler {
public:
  /// The stream of the events handed out, and of the w_max pass.
  static constexpr std::uint32_t EventStream = 0xffffffffu;
  static constexpr std::uint32_t WmaxStream = 0xfffffffeu;
  /// Events per batch (a constant: batches do not depend on threads).
  static constexpr std::size_t BatchSize = 4096;

  /// What the sampler borrows from the integrator; valid while it is used.
  struct Frozen {
    const IntegrandInfo *Integrand;
    std::span<const double> Params;
    std::span<const double> Edges;           ///< dim x (ninc + 1)
    unsigned Ninc;
    std::span<const std::uint64_t> Offsets;  ///< nhcube + 1 prefix sums
    unsigned Nstrat;
    std::uint64_t Seed;
    unsigned Threads;                        ///< 0: every hardware thread
    bool StopOnNonFinite;                    ///< else count f as 0
    /// A multi-channel integrand's channels (empty without; the fields
    /// of the one grid above are then unused): each one's grid and
    /// weight, Params being the kernels' block (RunState::kernelParams).
    struct ChannelGrid {
      std::span<const double> Edges;
      unsigned Ninc = 0;
      std::span<const std::uint64_t> Offsets;
      unsigned Nstrat = 0;
      double Alpha = 0;
    };
    std::vector<ChannelGrid> Channels;
  };

  /// Evaluates the domain for the current parameters.
  static Expected<EventSampler> create(const Frozen &State);

  /// Events [First, First + N) of Stream in batches, in order, with their
  /// weight lists' entries. The callback may stop early by returning
  /// false.
  Status draw(std::uint32_t Stream, std::uint64_t First, std::uint64_t N,
              const std::function<bool(const EventBatch &)> &Callback) const;

  /// N unweighted events, examining events of EventStream from Next on
  /// (Next is advanced past the last one examined).
  Expected<UnweightStats>
  unweight(std::uint64_t N, std::uint64_t &Next, const UnweightOptions &O,
           const std::function<void(const EventBatch &)> &Callback) const;

private:
  explicit EventSampler(const Frozen &S) : S(S) {}

  /// Which events of a batch get their weight lists' entries: none (the
  /// w_max pass), all (weighted events), or those that unweighting at
  /// Wmax accepts.
  struct EntryChoice {
    enum { None, All, Accepted } Which = None;
    double Wmax = 0;
  };
  /// One batch's buffers; Accept holds the acceptance uniforms. Entries
  /// (N x the lists' entries): Jac e_k with EntryChoice::All, e_k itself
  /// with Accepted (unweight() scales it), 0 for the events not chosen;
  /// Zeroed marks the events whose value was not finite.
  struct Buffers {
    std::vector<double> X, F, Jac, Weight, Accept, Entries;
    std::vector<std::uint32_t> Channel;
    std::vector<unsigned char> Zeroed;
    std::uint64_t NonFinite = 0, FirstBad = 0;
  };
  Status
  drawBuffers(std::uint32_t Stream, std::uint64_t First, std::uint64_t N,
              EntryChoice Choice,
              const std::function<bool(const Buffers &, std::uint64_t First,
                                       std::size_t N)> &Callback) const;
  void fill(std::uint32_t Stream, std::uint64_t First, std::size_t N,
            EntryChoice Choice, Buffers &B) const;
  /// The weight lists' entries of \p B's events that \p Choice picks.
  void fillEntries(EntryChoice Choice, std::size_t N, Buffers &B) const;
  /// Appends event \p E of \p B, accepted with weight \p Weight, to
  /// \p Out, its entries scaled to that weight.
  void takeAccepted(const Buffers &B, std::size_t E, double Weight,
                    Buffers &Out) const;
  /// The kernel's inputs for a point of \p Stream in a grid.
  vf_sampler_args gridArgs(std::uint32_t Stream, std::span<const double> Edges,
                           unsigned Ninc, unsigned Nstrat,
                           unsigned Channel) const;
  /// Event \p J's point in the grid of \p A and allocation \p Offsets
  /// from its choice \p Pick in [0, 1), into \p X; returns 1/q there.
  double drawPoint(const vf_sampler_args &A,
                   std::span<const std::uint64_t> Offsets, double Pick,
                   std::uint64_t J, double *X) const;
  /// The w_max of unweighting: the largest |w| of \p Events events of
  /// WmaxStream.
  Expected<double> wmax(std::uint64_t Events) const;
  /// \p B's arrays for \p N events.
  void resize(std::size_t N, Buffers &B) const;
  /// fill()'s points and Jac for a multi-channel integrand, and its
  /// values channel by channel.
  void fillChannels(std::uint32_t Stream, std::uint64_t First, std::size_t N,
                    Buffers &B) const;
  /// Counts the non-finite values of B (zeroing them) and sets the
  /// weights.
  void weigh(std::uint64_t First, std::size_t N, Buffers &B) const;
  EventBatch view(const Buffers &B, std::uint64_t First, std::size_t N) const;

  Frozen S;
  unsigned Entries = 0; ///< of the weight lists, in all
  std::vector<double> Lo, Width;
  double Volume = 1;
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_EVENTSAMPLER_H
