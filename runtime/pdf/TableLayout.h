/*===- runtime/pdf/TableLayout.h - A run's members as one block -*- C -*-===//
 *
 * The parton densities of a run as one read-only block of bytes, built on
 * the host (PdfTable.h) and copied as it is to each device, once per run:
 * it holds no pointers, only byte offsets from its own start, so the same
 * bytes serve at any address. A kernel that calls xfx or alphas gets the
 * block's address on its device and looks members up by index
 * (TableLookup.c).
 *
 *   vf_pdf_table_header          Bytes (the whole block), NumMembers
 *   vf_pdf_table_member[N]       per member: where its arrays start, and
 *                                its grid's and alpha_s's sizes and
 *                                scalars (their pointer fields null)
 *   the arrays                   each member's X, LogX, Q2, LogQ2, Values,
 *                                XCoeffs, Slot, alpha_s Q2, LogQ2, Values,
 *                                each starting on an 8-byte boundary
 *
 * Memory: 16 bytes, plus per member sizeof(vf_pdf_table_member) and its
 * arrays (GridLayout::bytes() with the flavour table padded to 64 bytes,
 * and 24 bytes per alpha_s knot): PdfTable::memberBytes.
 *
 *===----------------------------------------------------------------------===*/
#ifndef VF_RUNTIME_PDF_TABLELAYOUT_H
#define VF_RUNTIME_PDF_TABLELAYOUT_H

#include "GridView.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vf_pdf_table_header {
  uint64_t Bytes;
  uint32_t NumMembers;
  uint32_t Reserved;
} vf_pdf_table_header;

/* Byte offsets from the block's start of a member's arrays. */
typedef struct vf_pdf_member_offsets {
  uint64_t X, LogX, Q2, LogQ2, Values, XCoeffs, Slot;
  uint64_t AlphaQ2, AlphaLogQ2, AlphaValues;
} vf_pdf_member_offsets;

typedef struct vf_pdf_table_member {
  vf_pdf_member_offsets At;
  vf_pdf_grid Grid;
  vf_pdf_alphas Alpha;
} vf_pdf_table_member;

/* x f(x, Q) of PDG id Pid in member Member of the block at Table; NaN for
   a member the block lacks. */
double vf_pdf_table_xfx(const void *Table, uint32_t Member, int Pid, double X,
                        double Q);

/* x f(x, Q) of every slot (vf_pdf_pid_slot) into Out[VF_PDF_NUM_SLOTS],
   each slot the bits of vf_pdf_table_xfx for its ids (0 for a flavour the
   member lacks): one search of the grid for all flavours. NaN in every
   slot for a member the block lacks. */
void vf_pdf_table_xfx_all(const void *Table, uint32_t Member, double X,
                          double Q, double *Out);

/* alpha_s(Q) of member Member; NaN for a member the block lacks. */
double vf_pdf_table_alphas(const void *Table, uint32_t Member, double Q);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* VF_RUNTIME_PDF_TABLELAYOUT_H */
