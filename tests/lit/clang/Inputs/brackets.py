# Writes a C++ integrand whose value is x[0] inside N nested parentheses.
import sys

n = int(sys.argv[1])
print('#include "vf/integrand.h"')
print('VF_INTEGRAND(f, 1, 1, "") { out[0] = ' + "(" * n + "x[0]" + ")" * n + "; }")
