/*===- runtime/pdf/AlphaSCoupling.h - alpha_s(Q^2) of a member --*- C -*-===//
 *
 * The evaluation of a member's alpha_s (AlphaS.h says how each type is
 * computed and read), in freestanding C like the grids (GridView.h), so
 * the host and every device compute the same bits.
 *
 *===----------------------------------------------------------------------===*/
#ifndef VF_RUNTIME_PDF_ALPHASCOUPLING_H
#define VF_RUNTIME_PDF_ALPHASCOUPLING_H

#include "GridView.h"

#ifdef __cplusplus
extern "C" {
#endif

/* alpha_s at Q^2 = Q2: DBL_MAX where LHAPDF marks a divergence. */
double vf_pdf_alphasq2(const vf_pdf_alphas *A, double Q2);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* VF_RUNTIME_PDF_ALPHASCOUPLING_H */
