/*===- runtime/pdf/TableLookup.c - Members of a block, by index ---------===//
 *
 * TableLayout.h's lookups: a member's views are its entry with the
 * pointers set from the offsets, then the same evaluation as the host's
 * (Continuation.c, AlphaSCoupling.c). Q^2 is Q * Q, as PdfMember::xfx
 * computes it, so the block and the host give the same bits.
 *
 *===----------------------------------------------------------------------===*/
#include "TableLayout.h"

#include "AlphaSCoupling.h"
#include "Continuation.h"

/* The host builds the block (PdfTable.cpp, which checks the same size):
   every target must read the same layout. */
_Static_assert(sizeof(vf_pdf_table_member) == 328,
               "vf_pdf_table_member's layout differs on this target");

static const vf_pdf_table_member *memberOf(const void *Table, uint32_t Member) {
  const vf_pdf_table_header *H = (const vf_pdf_table_header *)Table;
  if (Member >= H->NumMembers)
    return 0;
  return (const vf_pdf_table_member *)(H + 1) + Member;
}

static const double *doublesAt(const void *Table, uint64_t Offset) {
  return (const double *)((const char *)Table + Offset);
}

/* Entry E's grid, its pointers set from the offsets. */
static vf_pdf_grid gridOf(const void *Table, const vf_pdf_table_member *E) {
  vf_pdf_grid G = E->Grid;
  G.X = doublesAt(Table, E->At.X);
  G.LogX = doublesAt(Table, E->At.LogX);
  G.Q2 = doublesAt(Table, E->At.Q2);
  G.LogQ2 = doublesAt(Table, E->At.LogQ2);
  G.Values = doublesAt(Table, E->At.Values);
  G.XCoeffs = doublesAt(Table, E->At.XCoeffs);
  G.Slot = (const int32_t *)((const char *)Table + E->At.Slot);
  return G;
}

double vf_pdf_table_xfx(const void *Table, uint32_t Member, int Pid, double X,
                        double Q) {
  const vf_pdf_table_member *E = memberOf(Table, Member);
  if (!E)
    return __builtin_nan("");
  const vf_pdf_grid G = gridOf(Table, E);
  return vf_pdf_xfxq2(&G, Pid, X, Q * Q);
}

void vf_pdf_table_xfx_all(const void *Table, uint32_t Member, double X,
                          double Q, double *Out) {
  const vf_pdf_table_member *E = memberOf(Table, Member);
  if (!E) {
    for (int S = 0; S < VF_PDF_NUM_SLOTS; ++S)
      Out[S] = __builtin_nan("");
    return;
  }
  const vf_pdf_grid G = gridOf(Table, E);
  vf_pdf_xfxq2_all(&G, X, Q * Q, Out);
}

double vf_pdf_table_alphas(const void *Table, uint32_t Member, double Q) {
  const vf_pdf_table_member *E = memberOf(Table, Member);
  if (!E)
    return __builtin_nan("");
  vf_pdf_alphas A = E->Alpha;
  A.Q2 = doublesAt(Table, E->At.AlphaQ2);
  A.LogQ2 = doublesAt(Table, E->At.AlphaLogQ2);
  A.Values = doublesAt(Table, E->At.AlphaValues);
  return vf_pdf_alphasq2(&A, Q * Q);
}
