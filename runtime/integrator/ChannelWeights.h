//===- runtime/integrator/ChannelWeights.h - How channels share samples -*- C++
//-*-===//
//
// The weights alpha of a multi-channel integrand's channels (LANGUAGE.md
// v3, "Channels"; ALGORITHM.md section 8), and the samples they give each
// channel in an iteration of N: n_i = max(2, floor(alpha_i N)).
//
// After an iteration, from channel i's estimate I_i of component 0 and the
// sampled variance V_i of that estimate over its n_i samples (so that
// n_i V_i is the variance per sample, with the strata's help):
//   - when a channel calls alpha(), the channels are the Kleiss-Pittau
//     partition f_i = f alpha_i g_i / g, channel i's values are alpha_i
//     f / g, and W_i = <(f/g)^2>_i = (n_i V_i + I_i^2) / alpha_i^2; the
//     damped update alpha_i <- alpha_i W_i^(1/2) is then
//     alpha_i <- sqrt(n_i V_i + I_i^2) (Kleiss and Pittau, Comput. Phys.
//     Commun. 83 (1994) 141, Eq. 12 with exponent 1/2);
//   - otherwise alpha_i <- sigma_i = sqrt(n_i V_i), which minimises the
//     total variance sum_i sigma_i^2 / (alpha_i N), as VEGAS+ shares
//     samples among hypercubes.
// The raw weights are rounded to 40 significant bits and summed in channel
// order, as the strata's allocation is (ALGORITHM.md section 2), then
// normalised and floored: alpha_i = f + (1 - m f) a_i for the normalised
// a_i, so that every weight is at least the floor f and they sum to 1.
// Raw weights that are all 0 or not finite leave the weights as they were.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_CHANNELWEIGHTS_H
#define VF_RUNTIME_INTEGRATOR_CHANNELWEIGHTS_H

#include "vf/Expected.h"
#include "vf/Integrator.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vf {

/// What one channel's pass of an iteration measured (component 0).
struct ChannelMoments {
  std::uint64_t Samples = 0;
  double Mean = 0;
  double Variance = 0; ///< of Mean, as sampled
};

/// The floor of \p M channels' weights under options \p O.
double channelFloor(const IntegratorOptions &O, unsigned M);
/// The weights of a run's first iteration: the fixed ones normalised, or
/// 1 / M each.
std::vector<double> initialChannelWeights(const IntegratorOptions &O,
                                          unsigned M);
/// The weights after an iteration that measured \p Moments with weights
/// \p Alpha; \p KleissPittau when some channel calls alpha().
std::vector<double> nextChannelWeights(std::span<const ChannelMoments> Moments,
                                       std::span<const double> Alpha,
                                       bool KleissPittau, double Floor);
/// The samples a channel of weight \p Alpha gets of an iteration's
/// \p Calls.
std::uint64_t channelCalls(double Alpha, std::uint64_t Calls);
/// Whether strata sized for \p SizedFor calls (Strata::sizedFor) suit a
/// channel's share of \p Share: from half to twice that. Sized for a
/// share, a channel's hypercubes get four samples each, as an integrand
/// without channels does; they stay while the share moves within a factor
/// of two, so that the allocation keeps adapting, and two samples per
/// hypercube remain at the lower end.
bool strataFit(std::uint64_t SizedFor, std::uint64_t Share);
/// Whether \p O's channel options suit integrand \p Name's \p M channels
/// (none for M = 0); the error names the option.
Status checkChannelOptions(const IntegratorOptions &O, unsigned M,
                           const std::string &Name);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_CHANNELWEIGHTS_H
