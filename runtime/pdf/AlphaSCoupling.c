/*===- runtime/pdf/AlphaSCoupling.c - alpha_s(Q^2), as LHAPDF 6.5 -------===//
 *
 * AlphaS.h's two kinds, evaluated. The beta-function coefficients are
 * LHAPDF's decimals (AlphaS::_beta), kept rather than recomputed from the
 * exact fractions so that the coupling has LHAPDF's bits; the logarithms
 * and powers are the project's (vfmath.h).
 *
 *===----------------------------------------------------------------------===*/
#include "AlphaSCoupling.h"

#include "vfmath.h"

#define VF_DBL_MAX 1.7976931348623157e308

static double beta(int I, int Nf) {
  const double N = Nf;
  switch (I) {
  case 0:
    return 0.875352187 - 0.053051647 * N;
  case 1:
    return 0.6459225457 - 0.0802126037 * N;
  case 2:
    return 0.719864327 - 0.140904490 * N + 0.00303291339 * N * N;
  default:
    return 1.172686 - 0.2785458 * N + 0.01624467 * N * N +
           0.0000601247 * N * N * N;
  }
}

/* Below the first knot: a power law through the first two distinct knots. */
static double ipolBelow(const vf_pdf_alphas *A, double Q2) {
  size_t Next = 1;
  while (Next + 1 < A->NumQ2 && A->Q2[0] == A->Q2[Next])
    ++Next;
  const double Grad = vf_log10(A->Values[Next] / A->Values[0]) /
                      vf_log10(A->Q2[Next] / A->Q2[0]);
  return A->Values[0] * vf_pow(Q2 / A->Q2[0], Grad);
}

/* The interval [I, I+1] holding Q2 in its subgrid [*Begin, *End): from the
   last knot <= Q2 that starts one (the first knot, or a repeated one) to
   the knot before the next repeat. */
static size_t ipolInterval(const vf_pdf_alphas *A, double Q2, size_t *Begin,
                           size_t *End) {
  *Begin = 0;
  for (size_t I = 1; I < A->NumQ2 && A->Q2[I] <= Q2; ++I)
    if (A->Q2[I] == A->Q2[I - 1])
      *Begin = I;
  *End = *Begin + 1;
  while (*End < A->NumQ2 && A->Q2[*End] != A->Q2[*End - 1])
    ++*End;
  size_t First = vf_pdf_first_above(A->Q2, *Begin, *End, Q2);
  if (First == *End)
    --First;
  return First - 1;
}

static double forward(const vf_pdf_alphas *A, size_t K) {
  return (A->Values[K + 1] - A->Values[K]) / (A->LogQ2[K + 1] - A->LogQ2[K]);
}

static double backward(const vf_pdf_alphas *A, size_t K) {
  return (A->Values[K] - A->Values[K - 1]) / (A->LogQ2[K] - A->LogQ2[K - 1]);
}

static double central(const vf_pdf_alphas *A, size_t K) {
  return (forward(A, K) + backward(A, K)) * 0.5;
}

static double ipol(const vf_pdf_alphas *A, double Q2) {
  if (Q2 < A->Q2[0])
    return ipolBelow(A, Q2);
  if (Q2 > A->Q2[A->NumQ2 - 1])
    return A->Values[A->NumQ2 - 1];
  size_t Begin, End;
  const size_t I = ipolInterval(A, Q2, &Begin, &End);
  const int First = I == Begin, Last = I + 2 == End;
  const double DL = First ? forward(A, I) : central(A, I);
  const double DH = Last ? backward(A, I + 1) : central(A, I + 1);
  const double DLogQ2 = A->LogQ2[I + 1] - A->LogQ2[I];
  const double T = (vf_log(Q2) - A->LogQ2[I]) / DLogQ2;
  const double T2 = T * T, T3 = T2 * T;
  const double V =
      (2 * T3 - 3 * T2 + 1) * A->Values[I] + (T3 - 2 * T2 + T) * (DL * DLogQ2) +
      (-2 * T3 + 3 * T2) * A->Values[I + 1] + (T3 - T2) * (DH * DLogQ2);
  return vf_fabs(V) < 2. ? V : VF_DBL_MAX;
}

static int activeFlavours(const vf_pdf_alphas *A, double Q2) {
  if (A->FixedScheme)
    return A->FixedFlavours;
  int Nf = A->NfMin;
  for (int I = A->NfMin; I <= A->NfMax; ++I)
    if (A->Threshold[I] * A->Threshold[I] < Q2)
      Nf = I;
  return A->FixedFlavours != -1 && Nf > A->FixedFlavours ? A->FixedFlavours
                                                         : Nf;
}

static double lambdaFor(const vf_pdf_alphas *A, int Nf) {
  if (A->FixedScheme)
    return A->Lambda[A->FixedFlavours];
  while (Nf > 0 && A->Lambda[Nf] == 0)
    --Nf;
  return A->Lambda[Nf];
}

static double analytic(const vf_pdf_alphas *A, double Q2) {
  const int Nf = activeFlavours(A, Q2);
  const double L = lambdaFor(A, Nf);
  if (Q2 <= L * L)
    return VF_DBL_MAX;
  if (A->Order == 0)
    return A->AlphaSMZ;
  const double B0 = beta(0, Nf), B1 = beta(1, Nf), B2 = beta(2, Nf),
               B3 = beta(3, Nf);
  const double B02 = B0 * B0, B12 = B1 * B1;
  const double LnX = vf_log(Q2 / (L * L));
  const double LnLnX = vf_log(LnX);
  const double LnLnX2 = LnLnX * LnLnX, LnLnX3 = LnLnX * LnLnX * LnLnX;
  const double Y = 1 / LnX;
  double Sum = 1;
  if (A->Order > 1)
    Sum -= B1 * LnLnX / B02 * Y;
  if (A->Order > 2)
    Sum += B12 / (B02 * B02) * Y * Y * ((LnLnX2 - LnLnX) + B2 * B0 / B12 - 1);
  if (A->Order > 3)
    Sum -= 1. / (B02 * B02 * B02) * Y * Y * Y *
           (B12 * B1 * (LnLnX3 - (5 / 2.) * LnLnX2 - 2 * LnLnX + 0.5) +
            3 * B0 * B1 * B2 * LnLnX - 0.5 * B02 * B3);
  return 1 / B0 * Y * Sum;
}

double vf_pdf_alphasq2(const vf_pdf_alphas *A, double Q2) {
  return A->Type == 0 ? ipol(A, Q2) : analytic(A, Q2);
}
