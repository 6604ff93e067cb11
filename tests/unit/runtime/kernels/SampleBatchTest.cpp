//===- tests/unit/runtime/kernels/SampleBatchTest.cpp - The sample step ---===//
//
// The host kernel's sixteen-sample step (runtime/kernels/SampleBatch.h)
// against the scalar forms the GPU kernel and the host's recomputation
// use (SamplePoint.h, Philox.h), bit for bit: hypercube coordinates found
// in double arithmetic against the divisions, Philox words of several
// interleaved chains against one block at a time, whole points,
// training slots and Jacobians, and one map axis at its ends. Each for the
// baseline build and, on a CPU that has it, the AVX-512 one.
//
//===----------------------------------------------------------------------===//
#include "SamplePoint.h"

#include "MappedArgs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

extern "C" {
#define VF_DECLARE_PROBES(P)                                                   \
  void P##hcube_coords_x8(const vf_u64 *h, unsigned dim, vf_u32 nstrat,        \
                          double *k);                                          \
  void P##philox_chains(vf_u64 seed, vf_u32 iteration, unsigned n,             \
                        const vf_u64 *j, const vf_u32 *blk, vf_u32 *out);      \
  void P##sample_points_x16(const vf_sampler_args *a, unsigned dim,            \
                            const vf_u64 *j, const vf_u64 *hc,                 \
                            unsigned x_stride, double *x, vf_u32 *slot,        \
                            double *jac, int unit_box);                        \
  double P##sample_point(const vf_sampler_args *a, unsigned dim, vf_u64 j,     \
                         vf_u64 h, double *x, vf_u32 *bin);                    \
  void P##map_axis_x8(const vf_sampler_args *a, const double *u,               \
                      const double *k, double *x, vf_u32 *slot, double *jac);  \
  double P##channel_axis(const vf_sampler_args *a, double u, double k,         \
                         double *x, vf_u32 *bin);                              \
  double P##uniform(vf_u32 w);
VF_DECLARE_PROBES(vf_test_)
VF_DECLARE_PROBES(vf_test512_)
VF_DECLARE_PROBES(vf_test_f32_)
VF_DECLARE_PROBES(vf_test512_f32_)
}

namespace {

struct Probes {
  const char *Name;
  decltype(&vf_test_hcube_coords_x8) Coords;
  decltype(&vf_test_philox_chains) Chains;
  decltype(&vf_test_sample_points_x16) Points;
  decltype(&vf_test_sample_point) Point; ///< the scalar path
  decltype(&vf_test_map_axis_x8) Axis;
  decltype(&vf_test_channel_axis) ScalarAxis;
  decltype(&vf_test_uniform) Uniform;
  bool Single; ///< the sample path is float (VF_SAMPLE_SINGLE)
};

#define VF_PROBES(Name, P, Single)                                             \
  Probes {                                                                     \
    Name, P##hcube_coords_x8, P##philox_chains, P##sample_points_x16,          \
        P##sample_point, P##map_axis_x8, P##channel_axis, P##uniform, Single   \
  }

std::vector<Probes> builds() {
  std::vector<Probes> B = {VF_PROBES("baseline", vf_test_, false),
                           VF_PROBES("baseline f32", vf_test_f32_, true)};
  // The features the AVX-512 probe is built with.
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl")) {
    B.push_back(VF_PROBES("avx512", vf_test512_, false));
    B.push_back(VF_PROBES("avx512 f32", vf_test512_f32_, true));
  }
  return B;
}

std::uint64_t power(std::uint64_t B, unsigned E) {
  std::uint64_t R = 1;
  while (E--)
    R *= B;
  return R;
}

/// Hypercubes of an nstrat^dim grid: its ends, neighbours of multiples of
/// nstrat^d (where a coordinate carries), and random ones.
std::vector<vf_u64> hypercubes(vf_u32 Nstrat, unsigned Dim, std::mt19937_64 &R) {
  const std::uint64_t N = power(Nstrat, Dim);
  std::vector<vf_u64> H = {0, N - 1, N / 2};
  for (unsigned D = 1; D < Dim; ++D)
    for (std::uint64_t M = power(Nstrat, D); M < N; M += M * (Nstrat - 1))
      for (std::int64_t Off : {-1, 0, 1})
        if (std::int64_t(M) + Off >= 0 && M + Off < N)
          H.push_back(M + Off);
  std::uniform_int_distribution<std::uint64_t> U(0, N - 1);
  while (H.size() % 8 || H.size() < 256)
    H.push_back(U(R));
  return H;
}

TEST(SampleBatchTest, HypercubeCoordinatesAreTheDivisionsWholeNumbers) {
  std::mt19937_64 R(7);
  // Up to Strata's bound of 2^50 hypercubes (2^50 itself with 2^10 per axis
  // and 2 per axis), where the double arithmetic is exact by a margin.
  const struct {
    vf_u32 Nstrat;
    unsigned Dim;
  } Grids[] = {{1, 8}, {2, 50}, {3, 31}, {4, 8}, {7, 17}, {22, 4},
               {1024, 5}, {65535, 3}, {1000, 1}};
  for (const Probes &P : builds())
    for (auto [Nstrat, Dim] : Grids) {
      std::vector<vf_u64> H = hypercubes(Nstrat, Dim, R);
      std::vector<double> K(8 * Dim), Want(Dim);
      for (std::size_t I = 0; I < H.size(); I += 8) {
        P.Coords(H.data() + I, Dim, Nstrat, K.data());
        for (unsigned L = 0; L < 8; ++L) {
          vf_hcube_coords(H[I + L], Dim, Nstrat, Want.data());
          for (unsigned D = 0; D < Dim; ++D)
            ASSERT_EQ(K[D * 8 + L], Want[D])
                << P.Name << ": hypercube " << H[I + L] << " of " << Nstrat
                << "^" << Dim << ", axis " << D;
        }
      }
    }
}

TEST(SampleBatchTest, InterleavedPhiloxChainsAreSingleBlocks) {
  std::mt19937_64 R(11);
  for (const Probes &P : builds())
    for (unsigned N = 1; N <= 4; ++N)
      for (int Trial = 0; Trial < 20; ++Trial) {
        const vf_u64 Seed = R();
        const vf_u32 Iteration = vf_u32(R());
        std::vector<vf_u64> J(16 * N);
        for (vf_u64 &X : J) // high words too: sample indices past 2^32
          X = Trial % 2 ? R() : R() % 100000;
        std::vector<vf_u32> Blk(N), Out(64 * N);
        for (vf_u32 &B : Blk)
          B = vf_u32(R() % 300);
        P.Chains(Seed, Iteration, N, J.data(), Blk.data(), Out.data());
        for (unsigned C = 0; C < N; ++C)
          for (unsigned L = 0; L < 16; ++L) {
            vf_u32 Want[4];
            vf_philox_block(Seed, Iteration, J[C * 16 + L], Blk[C], Want);
            for (unsigned W = 0; W < 4; ++W)
              ASSERT_EQ(Out[(C * 4 + W) * 16 + L], Want[W])
                  << P.Name << ": " << N << " chains, chain " << C
                  << ", lane " << L << ", word " << W;
          }
      }
}

/// The step's points, slots and Jacobians of sixteen random samples (and
/// the grid's ends) against the scalar path's, in the step's unit-cube
/// form where Unit.
void expectScalarPoints(const Probes &P, const vf_sampler_args &A, unsigned Dim,
                        unsigned Strided, bool Unit, std::mt19937_64 &R) {
  const std::uint64_t Nhcube = power(A.nstrat, Dim);
  vf_u64 J[16], Hc[16];
  for (unsigned L = 0; L < 16; ++L) {
    J[L] = R() % 1000000;
    Hc[L] = R() % Nhcube;
  }
  // The grid's ends and powers of nstrat, where coordinates carry (3^6 is
  // where the quotient's rounding would drop below 1).
  Hc[0] = 0;
  Hc[1] = Nhcube - 1;
  for (unsigned D = 1; D < Dim && D < 12; ++D)
    Hc[1 + D] = power(A.nstrat, D);
  std::vector<double> X(16 * Dim), Jac(16), Want(Dim);
  std::vector<vf_u32> Slot(16 * Dim), Bin(Dim);
  P.Points(&A, Dim, J, Hc, Strided ? 16 : 0, X.data(), Slot.data(), Jac.data(),
           Unit);
  for (unsigned L = 0; L < 16; ++L) {
    const double WantJac =
        P.Point(&A, Dim, J[L], Hc[L], Want.data(), Bin.data());
    // A single path's x and J are floats.
    ASSERT_TRUE(!P.Single || double(float(WantJac)) == WantJac);
    ASSERT_EQ(Jac[L], WantJac) << P.Name << ", d = " << Dim;
    for (unsigned D = 0; D < Dim; ++D) {
      const double Got = Strided ? X[D * 16 + L] : X[L * Dim + D];
      ASSERT_EQ(Got, Want[D]) << P.Name << ", d = " << Dim << ", axis " << D
                              << ", lane " << L << (Unit ? ", unit cube" : "");
      ASSERT_EQ(Slot[D * 16 + L], 2 * (D * A.ninc + Bin[D]));
    }
  }
}

// A map that is not uniform, in a box that is not the unit cube and in one
// that is (corners of -0 and +0), where the step's unit-cube form, which
// leaves the box's two operations out, must give the general form's bits.
TEST(SampleBatchTest, PointsSlotsAndJacobiansAreTheScalarOnes) {
  std::mt19937_64 R(3);
  const unsigned Ninc = 50;
  for (const Probes &P : builds())
    for (unsigned Dim : {1u, 3u, 5u, 8u, 9u, 13u, 16u, 17u})
      for (bool Unit : {false, true})
        for (unsigned Strided : {0u, 1u}) {
          std::vector<double> Edges(Dim * (Ninc + 1)), Lo(Dim), Width(Dim);
          for (unsigned D = 0; D < Dim; ++D) {
            for (unsigned I = 0; I <= Ninc; ++I) {
              const double C = 2.0 * I / Ninc - 1;
              Edges[D * (Ninc + 1) + I] = 0.5 + 0.5 * C * C * C;
            }
            Lo[D] = Unit ? (D % 2 ? -0.0 : 0.0) : -1.0 - D;
            Width[D] = Unit ? 1.0 : 0.5 + D;
          }
          vf_sampler_args A =
              mappedArgs(R(), 5, Dim, Ninc, 3, Edges, Lo, Width);
          const std::vector<float> EdgesF(Edges.begin(), Edges.end()),
              LoF(Lo.begin(), Lo.end()), WidthF(Width.begin(), Width.end());
          if (P.Single)
            singleInputs(A, EdgesF, LoF, WidthF);
          expectScalarPoints(P, A, Dim, Strided, false, R);
          if (Unit)
            expectScalarPoints(P, A, Dim, Strided, true, R);
        }
}

// The map's step takes y's clamp below 1 as a minimum and the offset in
// the increment as t - floor(t), which equal the scalar channel's forms
// only because nothing lies between below-one and 1 and y ninc stays below
// ninc. Both ends of the axis, where y rounds to 1 and t is largest, with
// increment counts that are and are not powers of two.
TEST(SampleBatchTest, MapAxisEndsAreTheScalarOnes) {
  std::mt19937_64 R(5);
  for (const Probes &P : builds()) {
    unsigned Clamped = 0;
    for (vf_u32 Ninc : {1u, 2u, 3u, 50u, 1000u, 1024u, 4095u, 4096u, 65537u})
      for (vf_u32 Nstrat = 1; Nstrat <= 40; ++Nstrat) {
        std::vector<double> Edges(Ninc + 1), Lo{-1.0}, Width{2.5};
        for (vf_u32 I = 0; I <= Ninc; ++I) {
          const double C = 2.0 * I / Ninc - 1;
          Edges[I] = 0.5 + 0.5 * C * C * C;
        }
        vf_sampler_args A = mappedArgs(1, 1, 1, Ninc, Nstrat, Edges, Lo, Width);
        const std::vector<float> EdgesF(Edges.begin(), Edges.end()),
            LoF(Lo.begin(), Lo.end()), WidthF(Width.begin(), Width.end());
        if (P.Single)
          singleInputs(A, EdgesF, LoF, WidthF);
        // Below one by an ulp of the build's precision: no uniform comes so
        // close in double, and k + u then rounds to k + 1.
        const double BelowOne = P.Single ? 1 - 0x1p-24 : 1 - 0x1p-53;
        const double Top = P.Uniform(0xffffffffu), Bottom = P.Uniform(0);
        double U[8] = {BelowOne, Bottom, Top, BelowOne},
               K[8] = {Nstrat - 1.0, 0, Nstrat - 1.0, 0};
        for (unsigned L = 4; L < 8; ++L) {
          U[L] = P.Uniform(vf_u32(R()));
          K[L] = double(R() % Nstrat);
        }
        double X[8], Jac[8];
        vf_u32 Slot[8];
        P.Axis(&A, U, K, X, Slot, Jac);
        for (unsigned L = 0; L < 8; ++L) {
          double WantX;
          vf_u32 Bin;
          const double WantJac = P.ScalarAxis(&A, U[L], K[L], &WantX, &Bin);
          ASSERT_EQ(X[L], WantX) << P.Name << ", ninc " << Ninc << ", nstrat "
                                 << Nstrat << ", lane " << L;
          ASSERT_EQ(Jac[L], WantJac) << P.Name << ", lane " << L;
          ASSERT_EQ(Slot[L], 2 * Bin) << P.Name << ", lane " << L;
        }
        // Whether the top lane's y rounded to 1, in the build's precision.
        Clamped +=
            P.Single
                ? (float(K[0]) + float(U[0])) * (1.0f / float(Nstrat)) >= 1.0f
                : (K[0] + U[0]) * (1.0 / Nstrat) >= 1.0;
      }
    EXPECT_GT(Clamped, 0u) << P.Name << ": no case reached the clamp";
  }
}

TEST(SampleBatchTest, SingleUniformsAreExactMidpointsOf23Bits) {
  std::mt19937_64 R(5);
  for (const Probes &P : builds()) {
    if (!P.Single)
      continue;
    EXPECT_EQ(P.Uniform(0), 0x1p-24) << P.Name;
    EXPECT_EQ(P.Uniform(0xffffffffu), 1 - 0x1p-24) << P.Name;
    for (int K = 0; K < 1000; ++K) {
      const auto W = vf_u32(R());
      ASSERT_EQ(P.Uniform(W), (double(W >> 9) + 0.5) * 0x1p-23) << P.Name;
    }
  }
}

} // namespace
