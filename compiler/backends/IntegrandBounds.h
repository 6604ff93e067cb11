//===- backends/IntegrandBounds.h - Compiled bounds, checked ---*- C++ -*-===//
//
// An integrand's domain and histogram ranges may be made of parameters.
// Their values come from compiled code (vf_bounds_NAME, codegen/IRGen.h:
// the expressions the integrand's body lowers, in the same module), and
// what the checks need of the source (the places errors name) is copied
// when the integrand is bound: checking a parameter change reaches neither
// the AST nor the front end, so the Program may be freed after compiling.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_INTEGRANDBOUNDS_H
#define VF_COMPILER_BACKENDS_INTEGRANDBOUNDS_H

#include "backends/Compiler.h"
#include "faults/IntegrandFaults.h"
#include "vf/Expected.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace vf {

struct IntegrandDecl;
struct Program;

class IntegrandBounds {
public:
  /// \p Fn is \p I's vf_bounds entry point; \p Site, where not null, the
  /// fault site its C/C++ calls run under.
  IntegrandBounds(const Program &P, const IntegrandDecl &I, BoundsEntry Fn,
                  std::shared_ptr<const FaultSite> Site);

  /// The box [lo, hi] per dimension (an infinite axis sampled as [0, 1]);
  /// an error names the empty interval or the bad scale at its place.
  Status domain(std::span<const double> Params, std::vector<double> &Lo,
                std::vector<double> &Hi) const;
  /// lo and hi of each histogram axis, histogram after histogram; an error
  /// names the statement whose range cannot be binned.
  Status histRanges(std::span<const double> Params,
                    std::vector<double> &Ranges) const;

private:
  struct Interval {
    unsigned Count;
    bool Infinite;
    std::string Place; ///< the interval's, or its scale's if infinite
  };
  struct HistAxis {
    std::string Histogram, Place;
  };
  /// A param that chooses a PDF set's member (Program::PdfMemberParams).
  struct MemberParam {
    unsigned Slot, Members;
    std::string Name, Set, Place;
  };
  /// An error unless each member param's value is one of its set's.
  Status checkMembers(std::span<const double> Params) const;

  std::vector<double> values(std::span<const double> Params) const;

  std::string Integrand;
  std::vector<Interval> Intervals;
  std::vector<HistAxis> Axes;
  std::vector<MemberParam> Members;
  BoundsEntry Fn;
  std::shared_ptr<const FaultSite> Site;
};

} // namespace vf

#endif // VF_COMPILER_BACKENDS_INTEGRANDBOUNDS_H
