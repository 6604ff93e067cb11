//===- tests/unit/codegen/KnownIntegrals.cpp - Read the test data ---------===//
//
// Reads tests/testdata/known_integrals.toml (path from the build, as the
// compile definition VF_KNOWN_INTEGRALS) with toml++, so the differential
// test always covers exactly the sources the accuracy tests integrate.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include <gtest/gtest.h>
// Debian's toml++ 3.3 installs toml.h; newer releases also toml.hpp.
#if __has_include(<toml++/toml.hpp>)
#include <toml++/toml.hpp>
#else
#include <toml++/toml.h>
#endif

namespace vf::test {

std::vector<KnownIntegral> loadKnownIntegrals() {
  std::vector<KnownIntegral> Out;
  // The packaged toml++ is built with exceptions; they end here.
  toml::table T;
  try {
    T = toml::parse_file(VF_KNOWN_INTEGRALS);
  } catch (const toml::parse_error &E) {
    ADD_FAILURE() << "cannot read " << VF_KNOWN_INTEGRALS << ": "
                  << E.description();
    return Out;
  }
  // toml++ keeps keys sorted; the order does not matter to the tests.
  for (const auto &[Key, Node] : T) {
    const toml::table *Entry = Node.as_table();
    if (!Entry)
      continue;
    std::optional<std::string> Src = (*Entry)["source"].value<std::string>();
    if (Src)
      Out.push_back({std::string(Key.str()), *Src});
  }
  return Out;
}

} // namespace vf::test
