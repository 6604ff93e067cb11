#include "vf/integrand.h"
constexpr long spin() { long i = 0; while (true) ++i; return i; }
constexpr long deep(long n) { return n == 0 ? 0 : 1 + deep(n - 1); }
constexpr long V = spin();
constexpr long W = deep(100000);
VF_INTEGRAND(f, 1, 1, "") { out[0] = V + W; }
