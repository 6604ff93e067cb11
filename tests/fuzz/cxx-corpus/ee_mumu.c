/*===- tests/testdata/c/ee_mumu.c - An integrand in C11 --------------------===*
 *
 * e+ e- -> mu+ mu- through a photon and a Z at tree level, massless, the
 * closed formula of examples/physics/ee_mumu.vf (Ellis, Stirling and
 * Webber, QCD and Collider Physics, ch. 3) written in C11 rather than C++:
 * the whole integrand (VF_INTEGRAND sigma, `vegasc ee_mumu.c`) and the
 * function ee_mumu_c.vf calls (dsigma_c). tests/python/test_cpp.py
 * compares both with the .vf version; tests/lit/clang/c.test compiles them
 * for the host and the GPU.
 *
 *===----------------------------------------------------------------------===*/
#include "vf/integrand.h"

_Static_assert(sizeof(double) == 8, "a double is 64 bits on every device");

/* Constant data only: a mutable global would be shared between samples. */
static const struct {
  double alpha, gf, mz, gz, sw2, gev2pb;
} Sm = {.alpha = 1.0 / 128, .gf = 1.1663787e-5, .mz = 91.1876,
        .gz = 2.4952, .sw2 = 0.2312, .gev2pb = 0.3893794e9};

typedef struct {
  double a0, a1;
} Couplings;

static Couplings couplings(double s) {
  const double mz2 = Sm.mz * Sm.mz;
  const double k = sqrt(2) * Sm.gf * mz2 / (4 * M_PI * Sm.alpha);
  const double d = (s - mz2) * (s - mz2) + Sm.gz * Sm.gz * mz2;
  const double chi1 = k * s * (s - mz2) / d, chi2 = k * k * s * s / d;
  const double v = -0.5 + 2 * Sm.sw2, a = -0.5;
  return (Couplings){
      .a0 = 1 + 2 * v * v * chi1 + (v * v + a * a) * (v * v + a * a) * chi2,
      .a1 = 2 * a * a * chi1 + 4 * v * v * a * a * chi2};
}

/* dsigma/dc in pb, for a .vf file: extern "ee_mumu.c" fn dsigma_c(s, c) */
VF_FUNCTION double dsigma_c(double s, double c) {
  const Couplings A = couplings(s);
  return Sm.gev2pb * M_PI * Sm.alpha * Sm.alpha / (2 * s) *
         ((1 + c * c) * A.a0 + 2 * c * A.a1);
}

/* The muon's momentum from (u, v) as std/phasespace's two_body_rest makes
 * it (c = 2u - 1, phi = 2 pi v), into k[3]. */
static void muon(double rs, double u, double v, double *restrict k) {
  const double p = rs / 2, c = 2 * u - 1;
  const double sn = sqrt(1 - c * c > 0 ? 1 - c * c : 0);
  const double phi = 2 * M_PI * v;
  const double dir[3] = {sn * cos(phi), sn * sin(phi), c};
  for (int i = 0; i < 3; ++i)
    k[i] = p * dir[i];
}

/* integral du dv of 2 dsigma/dc = sigma (dc = 2 du). */
VF_INTEGRAND(sigma, 2, 1, "rs = 91.19") {
  const double rs = params[0];
  double k[3];
  muon(rs, x[0], x[1], k);
  const double c = k[2] / sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
  out[0] = 2 * dsigma_c(rs * rs, c);
}
