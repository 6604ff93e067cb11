//===- backends/DerivedTape.h - A derived item as the runtime's tape -*- C++
//-*-===//
//
// The checked expression of a `derived` item (frontend/SemaDerived.cpp) as
// the steps vf/Derived.h evaluates, so that a binding keeps the tape and
// never the Program.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_DERIVEDTAPE_H
#define VF_COMPILER_BACKENDS_DERIVEDTAPE_H

#include "frontend/Program.h"

#include "vf/Derived.h"

#include <vector>

namespace vf {

/// The derived items of \p P that use integrand \p I, in source order.
std::vector<DerivedSpec> derivedTapes(const Program &P, const IntegrandDecl &I);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_DERIVEDTAPE_H
