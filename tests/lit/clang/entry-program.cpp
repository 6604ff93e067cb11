// A C/C++ main file's program is built from its VF_INTEGRAND entries, not
// written out as .vf text: every error the front end finds in it is at the
// entry's argument in this file (its line, a caret), never in a .cpp.vf
// file that does not exist; and nothing is run.
// RUN: not %vegasc --check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=.vf: --implicit-check-not=vf_cxx_ < %t.err
// RUN: not %vegasc %s --calls 1000 2> %t.run
// RUN: FileCheck %s --implicit-check-not=.vf: --implicit-check-not=vf_cxx_ < %t.run

#include "vf/integrand.h"

// The file's integrands share their parameters, so one name has one
// default: the second at its name in the string, the first noted.
// CHECK: entry-program.cpp:[[@LINE+5]]:33: error: parameter 'b' has two defaults (2 and 3); the file's integrands share their parameters
// CHECK-NEXT: VF_INTEGRAND(two, 1, 1, "a = 1, b = 3") { out[0] = x[0] * params[1]; }
// CHECK-NEXT: {{^ +\^$}}
// CHECK-NEXT: entry-program.cpp:[[@LINE+1]]:26: note: its default is 2 here
VF_INTEGRAND(one, 1, 1, "b = 2") { out[0] = x[0] * params[0]; }
VF_INTEGRAND(two, 1, 1, "a = 1, b = 3") { out[0] = x[0] * params[1]; }

// A parameter named as the integrand's variable would be hidden by it.
// CHECK: entry-program.cpp:[[@LINE+1]]:26: error: parameter 'x' has the name of the integrand's variable; name it otherwise
VF_INTEGRAND(var, 2, 1, "x = 5") { out[0] = x[0] * params[0]; }

// Two entries of one name: one error, at the second's name.
// CHECK: entry-program.cpp:[[@LINE+3]]:14: error: redefinition of 'one'
// CHECK-NEXT: VF_INTEGRAND(one, 2, 1, "") { out[0] = x[1]; }
// CHECK-NEXT: {{^ +\^~~$}}
VF_INTEGRAND(one, 2, 1, "") { out[0] = x[1]; }
// CHECK: entry-program.cpp:[[@LINE-12]]:14: note: previous definition of integrand 'one' is here

// Sema's errors, at the name they are about: a built-in constant, a
// parameter and an integrand of one name.
// CHECK: entry-program.cpp:[[@LINE+3]]:29: error: 'pi' is a built-in constant and cannot be redefined
// CHECK-NEXT: VF_INTEGRAND(circle, 2, 1, "pi = 3") { out[0] = params[0]; }
// CHECK-NEXT: {{^ +\^~$}}
VF_INTEGRAND(circle, 2, 1, "pi = 3") { out[0] = params[0]; }
// CHECK: entry-program.cpp:[[@LINE+2]]:14: error: redefinition of 'k'
// CHECK: entry-program.cpp:[[@LINE+1]]:24: note: previous definition of parameter 'k' is here
VF_INTEGRAND(k, 1, 1, "k = 1") { out[0] = params[0]; }
// CHECK-NOT: result
