//===- tests/unit/runtime/pdf/TableTest.cpp - A run's members as a block --===//
//
// PdfTable's block, copied to another address as a device copy is, gives
// through TableLookup.c (here built natively; tests/unit/codegen's
// PdfKernelTest runs its bitcode) each member's values with the host's
// bits, by the member's index in the block; its size is the header and
// each member's stated bytes. The all-flavour lookup gives every
// flavour's bits.
//
//===----------------------------------------------------------------------===//

#include "PdfTestFiles.h"
#include "pdf/PdfTable.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

namespace vf::pdf {
namespace {

TEST(PdfTable, IsTheHeaderAndEachMembersBytes) {
  const PdfMember M0 = test::loadShipped(0), M1 = test::loadShipped(1);
  const PdfTable T = PdfTable::build({&M0, &M1, &M0});
  EXPECT_EQ(T.bytes(), sizeof(vf_pdf_table_header) +
                           2 * PdfTable::memberBytes(M0) +
                           PdfTable::memberBytes(M1));
  // The entry holds the alpha_s scalars PdfMember::bytes counts, and the
  // flavour table is padded to whole words.
  EXPECT_EQ(PdfTable::memberBytes(M0),
            sizeof(vf_pdf_table_member) + M0.bytes() - sizeof(double) * 14 + 4);
  vf_pdf_table_header H;
  std::memcpy(&H, T.data(), sizeof H);
  EXPECT_EQ(H.Bytes, T.bytes());
  EXPECT_EQ(H.NumMembers, 3u);
}

TEST(PdfTable, MovedElsewhereGivesEachMembersBits) {
  const PdfMember M0 = test::loadShipped(0), M1 = test::loadShipped(1);
  const PdfTable T = PdfTable::build({&M1, &M0});
  std::vector<std::uint64_t> Copy(T.bytes() / 8);
  std::memcpy(Copy.data(), T.data(), T.bytes());
  const PdfMember *ByIndex[] = {&M1, &M0};
  for (unsigned K = 0; K < 2; ++K)
    for (int Pid : {-5, -1, 0, 2, 4, 21, 6, 22})
      for (double X : {1e-7, 1e-5, 3e-3, 0.2, 0.9, 1.0})
        for (double Q : {0.5, 1.5, 2.2, 4.5, 91.1876, 2e4}) {
          const double Want = ByIndex[K]->xfx(Pid, X, Q);
          const double Got = vf_pdf_table_xfx(Copy.data(), K, Pid, X, Q);
          EXPECT_EQ(std::memcmp(&Want, &Got, sizeof Want), 0)
              << K << " " << Pid << " " << X << " " << Q;
          const double WantAs = ByIndex[K]->alphasQ(Q);
          const double GotAs = vf_pdf_table_alphas(Copy.data(), K, Q);
          EXPECT_EQ(std::memcmp(&WantAs, &GotAs, sizeof WantAs), 0) << Q;
        }
}

// Every slot of the all-flavour lookup is the bits of its ids' own call:
// on the grid (knots, subgrid edges among them), below x_min, above and
// below the Q range, x past the last knot and unphysical points.
TEST(PdfTable, AllFlavoursGiveEachFlavoursBits) {
  const PdfMember M0 = test::loadShipped(0), M1 = test::loadShipped(1);
  const PdfTable T = PdfTable::build({&M0, &M1});
  std::vector<double> Xs = {-0.1, 0, 1e-9, 1e-5, 0.5, 1, 1.0000001, NAN};
  for (double L = -7.9; L < 0; L += 0.173)
    Xs.push_back(std::pow(10.0, L));
  std::vector<double> Qs = {-1,  0,   1e-3, 1.4142135623730951, 2.2, 4.5,
                            1e4, 5e4, NAN};
  for (double L = -0.6; L < 5; L += 0.137)
    Qs.push_back(std::pow(10.0, L));
  unsigned Values = 0;
  for (unsigned K = 0; K < 2; ++K)
    for (double X : Xs)
      for (double Q : Qs) {
        double All[VF_PDF_NUM_SLOTS];
        vf_pdf_table_xfx_all(T.data(), K, X, Q, All);
        for (int Pid : {-6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 21, 0, 22}) {
          const double Want = vf_pdf_table_xfx(T.data(), K, Pid, X, Q);
          const double Got = All[vf_pdf_pid_slot(Pid)];
          EXPECT_EQ(std::memcmp(&Want, &Got, sizeof Want), 0)
              << K << " " << Pid << " " << X << " " << Q;
          Values += Want != 0 && !std::isnan(Want);
        }
      }
  // Not a vacuous comparison: most values are neither 0 nor NaN.
  EXPECT_GT(Values, Xs.size() * Qs.size() * 15);
}

TEST(PdfTable, GivesNaNForAMemberItLacks) {
  const PdfMember M0 = test::loadShipped(0);
  const PdfTable T = PdfTable::build({&M0});
  EXPECT_TRUE(std::isnan(vf_pdf_table_xfx(T.data(), 1, 2, 0.1, 10)));
  EXPECT_TRUE(std::isnan(vf_pdf_table_alphas(T.data(), 7, 10)));
  double All[VF_PDF_NUM_SLOTS];
  vf_pdf_table_xfx_all(T.data(), 1, 0.1, 10, All);
  for (double V : All)
    EXPECT_TRUE(std::isnan(V));
}

} // namespace
} // namespace vf::pdf
