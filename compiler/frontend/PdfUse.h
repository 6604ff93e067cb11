//===- frontend/PdfUse.h - A parton density set a program uses --*- C++ -*-===//
//
// Sema opens each `pdf` item's set once and reads every member the
// program's calls name, so that a missing set, member or malformed file is
// an error before the run, and the reference evaluator and code generation
// read the same members. The members are shared by the program and what is
// compiled from it.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_PDFUSE_H
#define VF_COMPILER_FRONTEND_PDFUSE_H

#include "pdf/ErrorType.h"
#include "pdf/PdfSet.h"

#include <map>

namespace vf {

struct PdfSetUse {
  pdf::PdfSet Set;
  /// By member index; std::map so that a member's address never changes.
  std::map<unsigned, pdf::PdfMember> Members;

  explicit PdfSetUse(pdf::PdfSet S) : Set(std::move(S)) {}
  /// A member that Sema loaded; null for one it did not.
  const pdf::PdfMember *member(unsigned Index) const {
    auto It = Members.find(Index);
    return It == Members.end() ? nullptr : &It->second;
  }
};

struct WeightsStmt;

/// The band of list \p W (checked): the error members of the set whose
/// member argument is W's index, if the list's entries cover them all;
/// else the envelope, with Why saying why not (empty if no set's member
/// is W's index).
pdf::ErrorMembers listBand(const WeightsStmt &W);

} // namespace vf

#endif // VF_COMPILER_FRONTEND_PDFUSE_H
