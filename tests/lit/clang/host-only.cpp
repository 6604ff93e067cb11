// A file that only a CPU can run (here: recursion) runs on the CPU with
// warnings and a note saying so, the same from the compile cache; a GPU
// build refuses it with the same findings as errors, never skipping it
// quietly; --check, which asks for every device, refuses it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %vegasc --cache-dir %t/cache --eval %s --at 0.5 2> %t/cold.err | FileCheck %s --check-prefix=VALUE
// RUN: FileCheck %s --check-prefix=ONCPU < %t/cold.err
// RUN: %vegasc --cache-dir %t/cache --eval %s --at 0.5 2> %t/warm.err | FileCheck %s --check-prefix=VALUE
// RUN: FileCheck %s --check-prefix=ONCPU < %t/warm.err
// RUN: not %vegasc --no-cache --emit=ptx %s 2> %t/ptx.err
// RUN: FileCheck %s --check-prefix=FORGPU < %t/ptx.err
// RUN: not %vegasc --check %s 2> %t/check.err
// RUN: FileCheck %s --check-prefix=FORGPU < %t/check.err

#include "vf/integrand.h"

// ONCPU: host-only.cpp:[[@LINE+3]]:53: warning: cannot run on a GPU: recursive call ('halve' -> 'halve'); write it as a loop
// ONCPU: host-only.cpp:1:1: note: this file runs on the CPU only (the warnings above): a run on a GPU refuses it, and --devices all runs it on the CPU threads
// FORGPU: host-only.cpp:[[@LINE+1]]:53: error: cannot run on a GPU: recursive call ('halve' -> 'halve'); write it as a loop
double halve(double v, int n) { return n == 0 ? v : halve(v / 2, n - 1); }

// 4 * 0.5 / 2^3
// VALUE: 0.25
VF_INTEGRAND(h, 1, 1, "") { out[0] = halve(4 * x[0], 3); }
