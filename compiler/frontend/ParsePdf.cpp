//===- frontend/ParsePdf.cpp - The pdf item -------------------------------===//
//
// `pdf NAME = "set" [member K]` (LANGUAGE.md v3, "Parton densities"). The
// set is a string so that a name and a folder are written alike; Sema
// decides which it is and reads it.
//
//===----------------------------------------------------------------------===//

#include "frontend/ParserImpl.h"

using namespace llvm;

namespace vf {

bool Parser::isPdfStart() const {
  return tok().is(TokenKind::Identifier) && tok().Text == "pdf" &&
         peek(1).is(TokenKind::Identifier) && peek(2).is(TokenKind::Equal);
}

/// pdf -> 'pdf' NAME '=' string ('member' expr)?
std::unique_ptr<Item> Parser::parsePdf() {
  consume();
  auto D = std::make_unique<PdfDecl>();
  D->NameRange = tok().range();
  D->Name = tok().Text.str();
  consume();
  consume(); // '='
  if (!tok().is(TokenKind::String)) {
    error(tok(), "expected a PDF set's name or folder in quotes after "
                 "'pdf " +
                     D->Name + " =', found " + describe(tok()));
    return nullptr;
  }
  D->Set = tok().Text.drop_front().drop_back().str();
  D->SetRange = tok().range();
  consume();
  if (tok().is(TokenKind::Identifier) && tok().Text == "member") {
    SMLoc Start = tok().loc();
    consume();
    D->Member = parseExpr();
    D->MemberRange = rangeFrom(Start);
  }
  return D;
}

} // namespace vf
