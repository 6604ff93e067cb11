// std::array has no at(), which throws (std-headers.test).
#include "vf/integrand.h"
#include <array>
VF_INTEGRAND(f, 1, 1, "") {
  std::array<double, 2> A = {x[0], 1};
  out[0] = A.at(1);
}
