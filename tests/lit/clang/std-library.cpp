// A C++ file that includes headers needing the C++ run-time library
// (<map>, <string>, <vector>) runs on the CPU only, compiled with the
// system's libstdc++ and linked against this process's: a warning at each
// such #include and the "CPU only" note, the same from the compile cache;
// -w hides them. A GPU build and --check refuse it, naming the header and
// the line. The cache key has the system headers' text: a warm run is a
// hit, a changed .cpp a miss. Integrals and threads:
// tests/python/test_cpp_stdlib.py.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/lib.cpp
// RUN: %vegasc -v --cache-dir %t/cache --eval %t/lib.cpp --integrand poly --at 0.5,0.5 2> %t/cold.err | FileCheck %s --check-prefix=VALUE
// RUN: FileCheck %s --check-prefixes=ONCPU,COLD < %t/cold.err
// RUN: %vegasc -v --cache-dir %t/cache --eval %t/lib.cpp --integrand poly --at 0.5,0.5 2> %t/warm.err | FileCheck %s --check-prefix=VALUE
// RUN: FileCheck %s --check-prefixes=ONCPU,WARM < %t/warm.err
// RUN: echo '// a comment' >> %t/lib.cpp
// RUN: %vegasc -v --cache-dir %t/cache --eval %t/lib.cpp --integrand poly --at 0.5,0.5 2> %t/changed.err | FileCheck %s --check-prefix=VALUE
// RUN: FileCheck %s --check-prefix=COLD < %t/changed.err
// RUN: %vegasc --no-cache -w --eval %s --integrand poly --at 0.5,0.5 2> %t/quiet.err | FileCheck %s --check-prefix=VALUE
// RUN: count 0 < %t/quiet.err
// RUN: not %vegasc --check %s 2> %t/check.err
// RUN: FileCheck %s --check-prefix=FORGPU < %t/check.err
// RUN: not %vegasc --no-cache --emit=ptx %s 2> %t/ptx.err
// RUN: FileCheck %s --check-prefix=PTX < %t/ptx.err
//
// Each such #include is a finding, even of a header that an earlier one
// has already included (<iostream> includes <string>).
// RUN: %vegasc --no-cache --eval %S/Inputs/iostream-string.cpp --at 0.5 2> %t/again.err | FileCheck %s --check-prefix=AGAIN-VALUE
// RUN: FileCheck %s --check-prefix=AGAIN < %t/again.err
// AGAIN-VALUE: 1.5
// AGAIN: iostream-string.cpp:1:10: warning: cannot run on a GPU: <iostream> needs the C++ run-time library (it does input and output), which a GPU does not have
// AGAIN: iostream-string.cpp:2:10: warning: cannot run on a GPU: <string> needs the C++ run-time library (it allocates memory), which a GPU does not have
//
// An exception escaping from the library (std::vector::at out of range)
// ends the process as any fault in an integrand does, with exit code 70.
// RUN: python3 %inputs/expect_exit.py 70 %vegasc --no-cache -w --eval %s --integrand at --at 0.5 2> %t/at.err
// RUN: FileCheck %s --check-prefix=AT < %t/at.err

#include "vf/integrand.h"
// ONCPU: lib.cpp:[[@LINE+3]]:10: warning: cannot run on a GPU: <map> needs the C++ run-time library (it allocates memory), which a GPU does not have
// FORGPU: std-library.cpp:[[@LINE+2]]:10: error: cannot run on a GPU: <map> needs the C++ run-time library (it allocates memory), which a GPU does not have
// PTX: In file included from {{.*}}std-library.cpp:[[@LINE+1]]:
#include <map>
// PTX-NEXT: map:1:2: error: "<map> needs the C++ run-time library (it allocates memory), which a GPU does not have: this file runs on the CPU only;
// ONCPU: lib.cpp:[[@LINE+2]]:10: warning: cannot run on a GPU: <string> needs the C++ run-time library (it allocates memory), which a GPU does not have
// FORGPU: std-library.cpp:[[@LINE+1]]:10: error: cannot run on a GPU: <string> needs the C++ run-time library (it allocates memory), which a GPU does not have
#include <string>
// ONCPU: lib.cpp:[[@LINE+2]]:10: warning: cannot run on a GPU: <vector> needs the C++ run-time library (it allocates memory), which a GPU does not have
// FORGPU: std-library.cpp:[[@LINE+1]]:10: error: cannot run on a GPU: <vector> needs the C++ run-time library (it allocates memory), which a GPU does not have
#include <vector>
// ONCPU: lib.cpp:1:1: note: this file runs on the CPU only (the warnings above): a run on a GPU refuses it, and --devices all runs it on the CPU threads
// COLD: vegasc: cache: 0 hits, 1 miss, 0 corrupt
// WARM: vegasc: cache: 1 hit, 0 misses, 0 corrupt

// 1 + 2 x + 3 y^2: 2.75 at (0.5, 0.5), 3 over the unit square.
// VALUE: 2.75
VF_INTEGRAND(poly, 2, 1, "") {
  const std::vector<double> c = {1, 2, 3};
  std::map<std::string, int> axis = {{"x", 0}, {"y", 1}};
  const std::string y = "y";
  out[0] = c[0] + c[1] * x[axis["x"]] + c.at(2) * pow(x[axis.at(y)], 2);
}

// AT: terminate called after throwing an instance of 'std::out_of_range'
// AT: vegasc: error: the integrand 'at' crashed (SIGABRT: abort(), or an exception escaping the integrand, in {{.*}}std-library.cpp's code)
// AT-NEXT: note: the process ends here with exit code 70
VF_INTEGRAND(at, 1, 1, "") {
  std::vector<double> v(2, x[0]);
  out[0] = v.at(5);
}
