// Syntax and type errors in C++ are Clang's own diagnostics, at their
// place with the line and a caret, every one of them (up to Clang's limit
// of 20), and nothing is run.
// RUN: not %vegasc --check %s 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not %vegasc %s --calls 1000 2> %t.run
// RUN: FileCheck %s < %t.run

#include "vf/integrand.h"

// CHECK: syntax-errors.cpp:[[@LINE+2]]:34: error: expected ';' after return statement
// CHECK-NEXT: {{^ +}}[[@LINE+1]] | double f(double v) { return v * 2 }
double f(double v) { return v * 2 }
// CHECK: syntax-errors.cpp:[[@LINE+1]]:38: error: use of undeclared identifier 'y'
VF_INTEGRAND(g, 1, 1, "") { out[0] = y + f(x[0]); }
// CHECK-NOT: result
