#include "vf/integrand.h"
// Never deeper than 100 levels, but up to 65521 distinct B<N, M> on each.
template <int N, int M> struct B {
  static constexpr long V = B<N - 1, (2 * M) % 65521>::V + B<N - 1, (2 * M + 1) % 65521>::V;
};
template <int M> struct B<0, M> { static constexpr long V = M; };
VF_INTEGRAND(f, 1, 1, "") { out[0] = B<100, 1>::V; }
