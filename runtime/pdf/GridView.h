/*===- runtime/pdf/GridView.h - What a kernel reads of a member -*- C -*-===//
 *
 * A member's grid and alpha_s as a kernel reads them: pointers to flat
 * arrays (GridLayout.h, AlphaS.h) and their sizes, in freestanding C so
 * that the same interpolation source (LogCubic.c, Continuation.c,
 * AlphaSCoupling.c) is compiled natively for the host and to bitcode for
 * x86-64 and nvptx64, giving the same bits everywhere.
 *
 *===----------------------------------------------------------------------===*/
#ifndef VF_RUNTIME_PDF_GRIDVIEW_H
#define VF_RUNTIME_PDF_GRIDVIEW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Slots of the flavour table: quarks -6..6 at 0..12, the gluon (21 or 0)
   at 13, the photon (22) at 14. */
#define VF_PDF_NUM_SLOTS 15

/* The slot of PDG id pid, or -1 for an id no set in lhagrid1 carries. */
static inline int vf_pdf_pid_slot(int Pid) {
  if (Pid >= -6 && Pid <= 6 && Pid != 0)
    return Pid + 6;
  if (Pid == 21 || Pid == 0)
    return 13;
  return Pid == 22 ? 14 : -1;
}

/* The first index in [First, Last) whose knot K[i] is above V (Last if
   none): std::upper_bound, which LHAPDF searches knots with. */
static inline size_t vf_pdf_first_above(const double *K, size_t First,
                                        size_t Last, double V) {
  size_t Count = Last - First;
  while (Count > 0) {
    const size_t Step = Count / 2;
    if (!(V < K[First + Step])) {
      First += Step + 1;
      Count -= Step + 1;
    } else {
      Count = Step;
    }
  }
  return First;
}

/* One member's grid: GridLayout.h says what each array holds. */
typedef struct vf_pdf_grid {
  const double *X, *LogX, *Q2, *LogQ2, *Values, *XCoeffs;
  const int32_t *Slot;
  uint32_t NumX, NumQ2, NumFlavours;
  int32_t ForcePositive;
} vf_pdf_grid;

/* One member's alpha_s (AlphaS.h): Type 0 is ipol over (Q2, LogQ2,
   Values), 1 the analytic expansion. */
typedef struct vf_pdf_alphas {
  const double *Q2, *LogQ2, *Values;
  uint32_t NumQ2;
  int32_t Type;
  double Lambda[7], Threshold[7];
  int32_t Order, NfMin, NfMax, FixedFlavours, FixedScheme;
  double AlphaSMZ;
} vf_pdf_alphas;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* VF_RUNTIME_PDF_GRIDVIEW_H */
