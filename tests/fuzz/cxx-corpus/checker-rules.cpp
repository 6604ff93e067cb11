// The portability checker (compiler/clang/PortabilityChecker.cpp): each rule
// reported by --check as a Clang diagnostic at its place, file:line:col
// with the line and a caret, before any code is generated. --check asks
// for a file every device can run, so the GPU rules are errors too.
// RUN: not %vegasc --check %s 2> %t.err
// RUN: FileCheck %s < %t.err
// And nothing of it is run: the integrating path refuses the file too.
// RUN: not %vegasc %s --devices cpu --calls 1000 2> %t.run
// RUN: FileCheck %s --check-prefix=REFUSED < %t.run

#include "vf/integrand.h"

extern "C" int printf(const char *, ...);
extern "C" void *malloc(unsigned long);
double undefinedHelper(double);

// CHECK: checker-rules.cpp:[[@LINE+1]]:5: error: non-const global 'counter': state shared between samples makes results depend on the order of evaluation and races between threads; make it 'const' or 'constexpr', or pass a parameter
int counter;
// CHECK: checker-rules.cpp:[[@LINE+1]]:19: error: 'long double' is 80 bits on the CPU and 64 on a GPU, so the devices would disagree; use double
const long double Wide = 2;
const double Table[2] = {1, 2}; // const: fine
// CHECK-NOT: Table

struct Shape {
  virtual double area() const { return 1; }
};
struct Square final : Shape {
  double area() const override { return 4; }
};

// CHECK: checker-rules.cpp:[[@LINE+1]]:48: error: cannot run on a GPU: recursive call ('fact' -> 'fact'); write it as a loop
double fact(double n) { return n < 2 ? 1 : n * fact(n - 1); }

// CHECK: checker-rules.cpp:[[@LINE+3]]:47: error: cannot run on a GPU: virtual call of 'area' through a pointer or reference of unknown dynamic type; call it on an object, or mark the class or the function 'final'
// CHECK-NEXT: double viaPointer(const Shape *s) { return s->area(); }
// CHECK-NEXT: {{^ +\| +}}~~~^~~~
double viaPointer(const Shape *s) { return s->area(); }
double onObject(Square q) { return q.area(); } // known type: fine

VF_INTEGRAND(rules, 1, 1, "") {
  // CHECK: checker-rules.cpp:[[@LINE+1]]:14: error: function-local static 'calls': state kept between samples makes a sample depend on the ones before it and races between threads; make it a local or 'static constexpr'
  static int calls = 0;
  static constexpr double Half = 0.5; // constant: fine
  // CHECK: checker-rules.cpp:[[@LINE+1]]:3: error: cannot run on a GPU: 'printf' does input or output, which an integrand evaluated on many threads and GPUs cannot do
  printf("x = %g\n", x[0]);
  // CHECK: checker-rules.cpp:[[@LINE+1]]:15: error: cannot run on a GPU: 'new' allocates memory, which the fused sampler has none of; use a local variable or vf::array<N>
  double *p = new double[4];
  // CHECK: checker-rules.cpp:[[@LINE+1]]:3: error: cannot run on a GPU: 'delete' frees memory, which the fused sampler has none of
  delete[] p;
  // CHECK: checker-rules.cpp:[[@LINE+1]]:21: error: cannot run on a GPU: 'malloc' allocates memory, which the fused sampler has none of; use a local variable or vf::array<N>
  void *m = (void *)malloc(8);
  // CHECK: checker-rules.cpp:[[@LINE+1]]:12: error: cannot run on a GPU: 'undefinedHelper' has no definition in this file; a GPU can call only functions defined here and vf/integrand.h's math
  out[0] = undefinedHelper(x[0]) + fact(3) + Half;
  // CHECK: checker-rules.cpp:[[@LINE+1]]:3: error: inline assembly is for one target only; an integrand runs on the CPU and on GPUs
  __asm__ volatile("nop");
  // CHECK: checker-rules.cpp:[[@LINE+1]]:3: error: exceptions cannot be caught in an integrand (it is compiled without them, for every device)
  try {
    // CHECK: checker-rules.cpp:[[@LINE+1]]:17: error: exceptions cannot leave an integrand (it is compiled without them, for every device); return a NaN instead
    if (m == 0) throw 1;
  } catch (...) {
  }
  Square q;
  out[0] += onObject(q) + viaPointer(&q);
}
// CHECK-NOT: error:

// On the run path Clang's own Sema refuses 'throw' (the code is compiled
// without exceptions) before the checker would:
// REFUSED: checker-rules.cpp:{{[0-9]+}}:17: error: cannot use 'throw' with exceptions disabled
// REFUSED-NOT: result =
