//===- vf/vf.h - vegasflow, the library -------------------------*- C++ -*-===//
//
// One include for embedding vegasflow: compile a .vf integrand (Module),
// wrap a C++ callback (Native) or a class-based process (Process),
// integrate it with VEGAS+ on every CPU thread (Integrator), read the
// Result (or its JSON), draw events (Events), share iterations among a
// task engine's tasks (Tasks).
// See docs/user-guide.md, "The library". C and Fortran: vf/vf_c.h.
//
// The facade of both halves: the runtime's headers (runtime/include/vf)
// and the compiler's (Module.h and vf_c.h, compiler/api/include/vf); both
// are installed into include/vf/.
//
//===----------------------------------------------------------------------===//
#ifndef VF_VF_H
#define VF_VF_H

#include "vf/Devices.h"
#include "vf/EventFiles.h"
#include "vf/Events.h"
#include "vf/Expected.h"
#include "vf/Integrand.h"
#include "vf/Integrator.h"
#include "vf/Module.h"
#include "vf/Native.h"
#include "vf/Process.h"
#include "vf/Result.h"
#include "vf/ResultJson.h"
#include "vf/Summary.h"
#include "vf/Tasks.h"
#include "vf/Version.h"

#endif // VF_VF_H
