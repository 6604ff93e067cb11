//===- vf/Events.h - Events drawn from a trained integrator -----*- C++ -*-===//
//
// Event generation (ALGORITHM.md section 7): after training and freeze(),
// Integrator::sample draws weighted events from the adapted map and
// stratification, and Integrator::unweight turns them into unweighted ones.
// These are the types they hand to the caller.
//
// An event is a point x in the integrand's box drawn with density q(x): a
// hypercube h with probability n_h / N (the frozen allocation), a point
// uniform in it, then the VEGAS map and the box. Its sampling weight is
// Jac = 1/q(x), so the mean over events of Jac f(x) is the integral, and its
// event weight is Weight = Jac f_0(x) (component 0 for vector integrands).
//
//===----------------------------------------------------------------------===//
#ifndef VF_EVENTS_H
#define VF_EVENTS_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace vf {

/// A batch of events, valid only during the callback. Batches come in
/// event order, on the thread that called sample/unweight.
struct EventBatch {
  std::uint64_t First = 0; ///< index of the batch's first event drawn
  std::size_t N = 0;       ///< events in the batch
  unsigned Dim = 0;
  unsigned Outputs = 0;
  std::span<const double> X;      ///< N x Dim: the points
  std::span<const double> F;      ///< N x Outputs: the integrand there
  std::span<const double> Jac;    ///< N: 1/q(x), the sampling weight
  /// N. Weighted events (sample): Jac * F[i * Outputs], whose mean is the
  /// integral. Unweighted events (unweight): sign(w) * max(1, |w| / w_max),
  /// i.e. +-1, or more for an event whose w exceeded w_max (kept with its
  /// excess so histograms stay unbiased); the integral is then
  /// w_max * (sum of Weight) / UnweightStats::Drawn.
  std::span<const double> Weight;
  /// N: a multi-channel integrand's channel each event was drawn from
  /// (empty without channels). Such an event is drawn from channel c with
  /// probability alpha_c and its map; F is then channel c's term f_c and
  /// Jac = 1 / (alpha_c q_c(x)), so that the weights' mean is still the
  /// integral (docs/algorithm.md, "Multi-channel integration").
  std::span<const std::uint32_t> Channel;
  /// The entries of the integrand's weight lists (IntegrandInfo::
  /// WeightLists: list after list, the index rising; 0 without lists)
  /// and, N x Entries, each one's event weight in Weight's scale: Jac e_k
  /// for a weighted event, Weight e_k / f_0 for an unweighted one (f_0 is
  /// never 0 there: an event of weight 0 is never accepted). A non-finite
  /// e_k weighs 0, as it adds nothing to its integral, and so does every
  /// e_k of an event whose value was not finite (docs/user-guide.md,
  /// "Weight lists in event files").
  unsigned Entries = 0;
  std::span<const double> EntryWeights;
};

struct UnweightOptions {
  /// Events of the separate pass that estimates w_max = max |w| (their own
  /// random stream, not handed out). More: fewer overshoots, lower
  /// efficiency. Default 10^5; 10^4-10^7 are typical.
  std::uint64_t WmaxEvents = 100000;
  /// Draw hypercubes as the trained allocation does (n_h / N). Off by
  /// default: hypercubes equally likely, the map alone shaping the density,
  /// which keeps the weights flat whatever beta trained the allocation.
  bool UseAllocation = false;
};

/// A channel's part of unweighting: its events examined and accepted.
struct ChannelUnweight {
  std::uint64_t Drawn = 0;
  std::uint64_t Accepted = 0;
  double efficiency() const {
    return Drawn ? double(Accepted) / double(Drawn) : 0.0;
  }
};

struct UnweightStats {
  double Wmax = 0;               ///< max |w| of the w_max pass
  std::uint64_t Drawn = 0;       ///< weighted events examined
  std::uint64_t Accepted = 0;    ///< unweighted events handed out
  std::uint64_t Overshoot = 0;   ///< accepted events with |w| > w_max
  /// Overshoot / Accepted: the share of events whose weight exceeded
  /// w_max (they are kept with weight |w| / w_max).
  double OvershootFraction = 0;
  double Efficiency = 0;         ///< Accepted / Drawn
  /// Mean and standard error of w over the drawn events: the integral
  /// (cross section) the unweighted events represent.
  double Mean = 0;
  double Error = 0;
  /// Per channel of a multi-channel integrand (empty without channels).
  std::vector<ChannelUnweight> Channels;
};

} // namespace vf

#endif // VF_EVENTS_H
