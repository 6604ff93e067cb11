//===- clang/StandardHeaders.cpp - <complex>, <cmath>, ... for integrands -===//
//
// The provided headers are embedded by CMake (vf_embed_text, one symbol
// per header: vf_text_std_NAME); the refused ones are written here. Their
// text is part of the compile cache's key as every included file's is
// (ForeignScan.cpp hashes each file entered).
//
//===----------------------------------------------------------------------===//

#include "clang/StandardHeaders.h"

#include "llvm/Support/MemoryBuffer.h"

// The provided headers, X(file name, symbol suffix).
#define VF_STANDARD_HEADERS(X)                                                 \
  X("algorithm", algorithm)                                                    \
  X("array", array)                                                            \
  X("cmath", cmath)                                                            \
  X("complex", complex)                                                        \
  X("cstdint", cstdint)                                                        \
  X("initializer_list", initializer_list)                                      \
  X("limits", limits)                                                          \
  X("numeric", numeric)                                                        \
  X("type_traits", type_traits)                                                \
  X("utility", utility)

#define VF_DECLARE_TEXT(NAME, SYM)                                             \
  extern "C" const unsigned char vf_text_std_##SYM[];                          \
  extern "C" const unsigned long vf_text_std_##SYM##_len;
VF_STANDARD_HEADERS(VF_DECLARE_TEXT)
#undef VF_DECLARE_TEXT

using namespace llvm;

namespace vf {

namespace {
struct RefusedHeader {
  StringLiteral Name;
  StringLiteral Why;
};
} // namespace

/// Headers whose classes allocate memory, throw or do I/O: none of these
/// exists inside the fused sampler on a GPU, and on the CPU they take the
/// system's C++ library and its run-time library.
static constexpr RefusedHeader Refused[] = {
    {"iostream", "does input and output"},
    {"cstdio", "does input and output"},
    {"fstream", "does input and output"},
    {"sstream", "allocates memory"},
    {"vector", "allocates memory"},
    {"string", "allocates memory"},
    {"memory", "allocates memory"},
    {"map", "allocates memory"},
    {"unordered_map", "allocates memory"},
    {"set", "allocates memory"},
    {"list", "allocates memory"},
    {"deque", "allocates memory"},
    {"functional", "allocates memory"},
    {"stdexcept", "throws exceptions"},
    {"exception", "throws exceptions"},
    {"random", "keeps state between samples"},
    {"thread", "starts threads"},
    {"mutex", "locks between threads"},
    {"chrono", "reads the clock"},
};

static void add(vfs::InMemoryFileSystem &FS, StringRef Root, StringRef Name,
                StringRef Text) {
  FS.addFile(Root + "/" + Name, 0, MemoryBuffer::getMemBuffer(Text, Name));
}

void addStandardHeaders(vfs::InMemoryFileSystem &FS, StringRef Root) {
#define VF_ADD_TEXT(NAME, SYM)                                                 \
  add(FS, Root, NAME,                                                          \
      StringRef(reinterpret_cast<const char *>(vf_text_std_##SYM),             \
                vf_text_std_##SYM##_len));
  VF_STANDARD_HEADERS(VF_ADD_TEXT)
#undef VF_ADD_TEXT
  for (const RefusedHeader &H : Refused) {
    std::string Text =
        ("#error \"<" + H.Name + "> needs the C++ run-time library (it " +
         H.Why +
         "), which a GPU does not have: this file runs on the CPU only; on "
         "every device vegasflow provides <algorithm>, <array>, <cmath>, "
         "<complex>, <cstdint>, <limits>, <numeric>, <type_traits> and "
         "<utility>\"\n")
            .str();
    FS.addFile(Root + "/" + H.Name, 0,
               MemoryBuffer::getMemBufferCopy(Text, H.Name));
  }
}

StringRef runtimeLibraryUse(StringRef Name) {
  for (const RefusedHeader &H : Refused)
    if (H.Name == Name)
      return H.Why;
  return {};
}

} // namespace vf
