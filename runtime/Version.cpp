//===- runtime/Version.cpp - vegasflow version ----------------------------===//
#include "vf/Version.h"

const char *vf::versionString() { return VF_VERSION_STRING; }
