//===- frontend/Program.h - A checked .vf program ---------------*- C++ -*-===//
//
// A Program owns the source buffers (through its SourceMgr) and the parsed
// modules: the main file first, then every imported module once. After Sema
// it also lists the parameter block's layout and the main file's integrands,
// which is all codegen and the runtime need to know about the source.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_PROGRAM_H
#define VF_COMPILER_FRONTEND_PROGRAM_H

#include "frontend/AST.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vf {

namespace pdf {
class PdfTable;
} // namespace pdf

struct Program {
  llvm::SourceMgr SM;
  /// Modules[0] is the main file; imports follow in load order.
  std::vector<std::unique_ptr<SourceModule>> Modules;

  /// Sema's input: sets replacing those of the named pdf items
  /// (vf::CompileSettings::PdfSets).
  std::map<std::string, std::string> PdfSets;

  // Sema results.
  llvm::StringMap<Item *> Globals;
  /// Parameters in parameter-block order (Slot == index).
  std::vector<const ParamDecl *> Params;
  /// The main file's integrands, in source order.
  std::vector<const IntegrandDecl *> Integrands;
  /// The main file's derived items, in source order.
  std::vector<const DerivedDecl *> Derived;
  /// Every member the pdf calls read, as the one block that each device
  /// holds and generated code looks members up in (runtime/pdf/PdfTable.h,
  /// by CallExpr::TableIndex); null without pdf items.
  std::shared_ptr<const pdf::PdfTable> PdfTable;
  /// Each set's files (runtime/pdf/SetIdentity.h): part of the compile
  /// cache key, so that a changed set is compiled again.
  std::vector<std::string> PdfSetIdentities;
  /// A param that chooses a set's member at run time: before a run, its
  /// value must be one of the set's members (backends/IntegrandBounds).
  struct MemberParam {
    const ParamDecl *Param;
    unsigned Members;
    std::string Set;
    llvm::SMLoc Where;
  };
  std::vector<MemberParam> PdfMemberParams;

  const IntegrandDecl *findIntegrand(llvm::StringRef Name) const {
    for (const IntegrandDecl *I : Integrands)
      if (I->Name == Name)
        return I;
    return nullptr;
  }
  /// Default values of all parameters, by slot.
  std::vector<double> defaultParams() const {
    std::vector<double> V;
    for (const ParamDecl *P : Params)
      V.push_back(P->DefaultValue);
    return V;
  }
};

} // namespace vf

#endif // VF_COMPILER_FRONTEND_PROGRAM_H
