//===- frontend/ASTDump.cpp - A stable, readable AST dump -----------------===//

#include "frontend/ASTDump.h"
#include "frontend/AST.h"

#include "llvm/Support/raw_ostream.h"

#include <charconv>

using namespace llvm;

namespace vf {

StringRef binaryOpSpelling(BinaryOp Op) {
  static const char *const Spell[] = {"+", "-",  "*",  "/",  "^",   "<",  "<=",
                                      ">", ">=", "==", "!=", "and", "or"};
  return Spell[static_cast<int>(Op)]; // ORDER BINOP
}

bool isComparison(BinaryOp Op) { return Op >= BinaryOp::Lt && Op <= BinaryOp::Ne; }
bool isLogical(BinaryOp Op) { return Op == BinaryOp::And || Op == BinaryOp::Or; }

StringRef reduceOpSpelling(ReduceOp Op) {
  static const char *const Spell[] = {"sum", "prod", "min", "max"};
  return Spell[static_cast<int>(Op)];
}

std::string formatNumber(double V) {
  char Buf[64];
  auto [End, Ec] = std::to_chars(Buf, Buf + sizeof(Buf), V);
  (void)Ec;
  return std::string(Buf, End);
}

namespace {

class Dumper : public ExprVisitor<Dumper> {
public:
  explicit Dumper(raw_ostream &OS) : OS(OS) {}

  void expr(const Expr *E) {
    if (E)
      visit(*E);
    else
      OS << "<null>";
  }

  void visitNumber(const NumberExpr &E) { OS << formatNumber(E.Value); }
  void visitName(const NameExpr &E) { OS << E.Name; }
  void visitIndex(const IndexExpr &E) {
    OS << "(index ";
    expr(E.Base.get());
    OS << ' ';
    expr(E.Idx.get());
    OS << ')';
  }
  void visitSlice(const SliceExpr &E) {
    OS << "(slice ";
    expr(E.Base.get());
    OS << ' ';
    expr(E.Lo.get());
    OS << ' ';
    expr(E.Hi.get());
    OS << ')';
  }
  void visitUnary(const UnaryExpr &E) {
    OS << (E.Op == UnaryOp::Neg ? "(neg " : "(not ");
    expr(E.Operand.get());
    OS << ')';
  }
  void visitBinary(const BinaryExpr &E) {
    OS << '(' << binaryOpSpelling(E.Op) << ' ';
    expr(E.LHS.get());
    OS << ' ';
    expr(E.RHS.get());
    OS << ')';
  }
  void visitCall(const CallExpr &E) {
    OS << "(call " << E.Callee;
    if (E.Pdf) {
      OS << ' ' << E.Pdf->Name << " member ";
      if (E.MemberArg)
        expr(E.MemberArg.get());
      else
        OS << E.Member;
      if (E.Query == PdfQuery::Xfx)
        OS << " flavour " << E.Flavour;
    }
    for (const ExprPtr &A : E.Args) {
      OS << ' ';
      expr(A.get());
    }
    OS << ')';
  }
  void visitIf(const IfExpr &E) {
    OS << "(if ";
    expr(E.Cond.get());
    OS << ' ';
    expr(E.Then.get());
    OS << ' ';
    expr(E.Else.get());
    OS << ')';
  }
  void visitReduce(const ReduceExpr &E) {
    OS << '(' << reduceOpSpelling(E.Op) << ' ' << E.IndexName << ' ';
    expr(E.Lo.get());
    OS << ' ';
    expr(E.Hi.get());
    OS << ' ';
    expr(E.Body.get());
    OS << ')';
  }
  void visitVector(const VectorExpr &E) {
    OS << "(array";
    for (const ExprPtr &X : E.Elements) {
      OS << ' ';
      expr(X.get());
    }
    OS << ')';
  }

  void visitChannel(const ChannelExpr &E) {
    OS << (E.Query == ChannelQuery::Alpha ? "(alpha " : "(density ")
       << E.Channel;
    if (E.Point) {
      OS << ' ';
      expr(E.Point.get());
    }
    OS << ')';
  }

  void body(const Body &B) {
    OS << "(body";
    size_t NextHist = 0, NextWeights = 0;
    auto Statements = [&](size_t LetsSeen) {
      for (; NextHist < B.Hists.size() &&
             B.Hists[NextHist]->LetsBefore <= LetsSeen;
           ++NextHist) {
        OS << " (hist " << B.Hists[NextHist]->Name;
        for (const ExprPtr &A : B.Hists[NextHist]->Args) {
          OS << ' ';
          expr(A.get());
        }
        OS << ')';
      }
      for (; NextWeights < B.Weights.size() &&
             B.Weights[NextWeights]->LetsBefore <= LetsSeen;
           ++NextWeights) {
        OS << " (weights " << B.Weights[NextWeights]->Name << ' ';
        expr(B.Weights[NextWeights]->List.get());
        OS << ')';
      }
    };
    for (size_t K = 0; K < B.Lets.size(); ++K) {
      Statements(K);
      OS << " (let " << B.Lets[K]->Name << ' ';
      expr(B.Lets[K]->Value.get());
      OS << ')';
    }
    Statements(B.Lets.size());
    OS << " (return ";
    expr(B.Result.get());
    OS << "))";
  }

  void item(const Item &I) {
    switch (I.Kind) {
    case ItemKind::Const: {
      const auto &C = static_cast<const ConstDecl &>(I);
      OS << "(const " << C.Name << ' ';
      expr(C.Value.get());
      break;
    }
    case ItemKind::Param: {
      const auto &P = static_cast<const ParamDecl &>(I);
      OS << "(param " << P.Name << ' ';
      expr(P.Default.get());
      break;
    }
    case ItemKind::Fn: {
      const auto &F = static_cast<const FnDecl &>(I);
      if (F.Extern)
        OS << "(extern \"" << F.ExternPath << "\" ";
      OS << "(fn " << F.Name << " (";
      for (size_t K = 0; K < F.Args.size(); ++K) {
        OS << (K ? " " : "") << F.Args[K].Name;
        if (F.Args[K].SizeExpr) {
          OS << ":[";
          expr(F.Args[K].SizeExpr.get());
          OS << ']';
        }
        if (F.Args[K].IsComplex)
          OS << (F.Args[K].SizeExpr ? "complex" : ":complex");
        if (F.Args[K].IsPdf)
          OS << ":pdf";
      }
      OS << ") ";
      if (F.ResultSizeExpr) {
        OS << "-> [";
        expr(F.ResultSizeExpr.get());
        OS << (F.ResultComplex ? "]complex " : "] ");
      } else if (F.ResultComplex) {
        OS << "-> complex ";
      }
      if (F.Extern)
        OS << ')';
      else
        body(F.B);
      break;
    }
    case ItemKind::Integrand:
      integrand(static_cast<const IntegrandDecl &>(I));
      break;
    case ItemKind::Import:
      OS << "(import \"" << static_cast<const ImportDecl &>(I).Path << '"';
      break;
    case ItemKind::Pdf: {
      const auto &D = static_cast<const PdfDecl &>(I);
      OS << "(pdf " << D.Name << " \"" << D.Set << '"';
      if (D.Member) {
        OS << " member ";
        expr(D.Member.get());
      }
      break;
    }
    case ItemKind::Derived:
      OS << "(derived " << I.Name << ' ';
      expr(static_cast<const DerivedDecl &>(I).Value.get());
      break;
    }
    OS << ")\n";
  }

  void integrand(const IntegrandDecl &D) {
    OS << "(integrand " << D.Name << ' ' << D.Var << " (domain";
    for (const Interval &Iv : D.Domain) {
      OS << " (interval ";
      if (Iv.Lo)
        expr(Iv.Lo.get());
      else
        OS << "-inf";
      OS << ' ';
      if (Iv.Hi)
        expr(Iv.Hi.get());
      else
        OS << "inf";
      if (Iv.Scale) {
        OS << " ;";
        expr(Iv.Scale.get());
      }
      if (Iv.Power) {
        OS << " ^";
        expr(Iv.Power.get());
      }
      OS << ')';
    }
    OS << ')';
    if (D.OutputsExpr) {
      OS << " (outputs ";
      expr(D.OutputsExpr.get());
      OS << ')';
    }
    OS << ' ';
    if (D.Channels.empty()) {
      body(D.B);
      return;
    }
    OS << "(channels";
    for (const auto &C : D.Channels) {
      OS << " (channel " << C->Name << ' ';
      body(C->B);
      OS << ')';
    }
    OS << ')';
  }

private:
  raw_ostream &OS;
};

} // namespace

void dumpModule(const SourceModule &M, raw_ostream &OS) {
  Dumper D(OS);
  for (const auto &I : M.Items)
    D.item(*I);
}

std::string dumpExpr(const Expr &E) {
  std::string S;
  raw_string_ostream OS(S);
  Dumper(OS).expr(&E);
  return OS.str();
}

} // namespace vf
