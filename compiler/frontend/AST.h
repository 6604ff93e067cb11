//===- frontend/AST.h - The .vf abstract syntax tree ------------*- C++ -*-===//
//
// Expression node kinds are one list (VF_FOR_EACH_EXPR) that generates the
// kind enum and the visitor, as Halide's IR does. Nodes are plain structs
// with public fields; every node carries its source range. Sema fills in the
// fields under "Sema results" (type, folded constant, name binding); later
// stages read them and never re-resolve names.
//
// Semantics every stage may assume: all numbers are IEEE doubles; booleans
// exist only as the value of comparisons and logic; `if` has no side effects
// so it may be evaluated as a select; a user `fn` is always inlined.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_AST_H
#define VF_COMPILER_FRONTEND_AST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include "HistogramCells.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace vf {

#define VF_FOR_EACH_EXPR(X)                                                    \
  X(Number)                                                                    \
  X(Name)                                                                      \
  X(Index)                                                                     \
  X(Unary)                                                                     \
  X(Binary)                                                                    \
  X(Call)                                                                      \
  X(If)                                                                        \
  X(Reduce)                                                                    \
  X(Vector)                                                                    \
  X(Slice)                                                                     \
  X(Channel)

enum class ExprKind {
#define VF_EXPR_ENUM(K) K,
  VF_FOR_EACH_EXPR(VF_EXPR_ENUM)
#undef VF_EXPR_ENUM
};

/// Value types. A reduction index is an integer, usable as a Real. An Array
/// is a fixed-size array of reals whose size (Expr::Size) is a compile-time
/// constant; codegen lowers it to that many scalars. A Complex value
/// (LANGUAGE.md v3) is a pair of reals; it is never folded (no ConstValue),
/// so only real values carry compile-time constants.
enum class ExprType { Unknown, Real, Bool, Array, Complex };

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  const ExprKind Kind;
  llvm::SMRange Range;
  /// Height of the tree rooted here (1 for a leaf); the parser bounds it so
  /// that no recursive pass can overflow the stack.
  unsigned Height = 1;

  // Sema results.
  ExprType Ty = ExprType::Unknown;
  /// The number of elements when Ty is Array.
  unsigned Size = 0;
  /// An Array of complex values (`[z, w]`, `c: [4] complex`): codegen's
  /// elements are pairs, the evaluator's re and im interleaved.
  bool ComplexElems = false;
  /// The folded value when the expression is a compile-time constant
  /// (for booleans: 1 or 0).
  std::optional<double> ConstValue;

  virtual ~Expr() = default;
  llvm::SMLoc loc() const { return Range.Start; }

protected:
  Expr(ExprKind K, llvm::SMRange R) : Kind(K), Range(R) {}
};

/// Checked downcast in the style of llvm::dyn_cast, without RTTI.
template <typename T> T *dynCast(Expr *E) {
  return E && E->Kind == T::ClassKind ? static_cast<T *>(E) : nullptr;
}
template <typename T> const T *dynCast(const Expr *E) {
  return E && E->Kind == T::ClassKind ? static_cast<const T *>(E) : nullptr;
}

template <ExprKind K> struct ExprNode : Expr {
  static constexpr ExprKind ClassKind = K;
  explicit ExprNode(llvm::SMRange R) : Expr(K, R) {}
};

struct NumberExpr : ExprNode<ExprKind::Number> {
  double Value;
  NumberExpr(llvm::SMRange R, double V) : ExprNode(R), Value(V) {}
};

struct ConstDecl;
struct ParamDecl;
struct LetStmt;
struct ReduceExpr;
struct IntegrandDecl;

/// What a name refers to, decided by Sema.
enum class BindingKind {
  Unresolved,
  Const,        // global const: Const
  Param,        // run-time parameter: Param (slot in the parameter block)
  Let,          // let binding: Let
  ReduceIndex,  // reduction index: Reduce
  FnArg,        // argument of the enclosing fn: ArgIndex
  DomainVar,    // the integrand's variable (1-D domain, used unindexed)
  BuiltinConst, // pi or e: ConstValue of the NameExpr
  Component,    // a derived item's integrand component: ArgIndex
};

struct PdfDecl;

struct NameExpr : ExprNode<ExprKind::Name> {
  std::string Name;
  BindingKind Binding = BindingKind::Unresolved;
  const ConstDecl *Const = nullptr;
  const ParamDecl *Param = nullptr;
  const LetStmt *Let = nullptr;
  const ReduceExpr *Reduce = nullptr;
  unsigned ArgIndex = 0;
  /// An extern fn's pdf argument: the item, and its default member's
  /// index in the program's block (Sema, buildPdfTable).
  const PdfDecl *PdfHandle = nullptr;
  unsigned PdfTableIndex = 0;
  NameExpr(llvm::SMRange R, llvm::StringRef N) : ExprNode(R), Name(N) {}
};

/// `x[i]` or `p[i]`: a coordinate of the integrand's variable or an element
/// of an array value. Sema checks that the index is a compile-time integer
/// in range for every value of the reduction indices it uses.
struct IndexExpr : ExprNode<ExprKind::Index> {
  ExprPtr Base;
  ExprPtr Idx;
  IndexExpr(llvm::SMRange R, ExprPtr B, ExprPtr I)
      : ExprNode(R), Base(std::move(B)), Idx(std::move(I)) {}
};

enum class UnaryOp { Neg, Not };

struct UnaryExpr : ExprNode<ExprKind::Unary> {
  UnaryOp Op;
  ExprPtr Operand;
  UnaryExpr(llvm::SMRange R, UnaryOp O, ExprPtr E)
      : ExprNode(R), Op(O), Operand(std::move(E)) {}
};

// ORDER BINOP: the parser's precedence table and the dump's spellings are
// indexed by this enum; grep ORDER BINOP when changing it.
enum class BinaryOp { Add, Sub, Mul, Div, Pow, Lt, Le, Gt, Ge, Eq, Ne, And, Or };

llvm::StringRef binaryOpSpelling(BinaryOp Op);
bool isComparison(BinaryOp Op);
bool isLogical(BinaryOp Op);

struct BinaryExpr : ExprNode<ExprKind::Binary> {
  BinaryOp Op;
  llvm::SMLoc OpLoc;
  ExprPtr LHS, RHS;
  BinaryExpr(llvm::SMRange R, BinaryOp O, llvm::SMLoc OL, ExprPtr L, ExprPtr Rh)
      : ExprNode(R), Op(O), OpLoc(OL), LHS(std::move(L)), RHS(std::move(Rh)) {}
};

struct FnDecl;
enum class Builtin : int;

/// What a call of a parton density asks (LANGUAGE.md v3, "Parton
/// densities").
enum class PdfQuery { Xfx, AlphaS };

/// A call of a built-in function or of a user `fn` (always inlined).
struct CallExpr : ExprNode<ExprKind::Call> {
  std::string Callee;
  llvm::SMRange CalleeRange;
  std::vector<ExprPtr> Args;
  // Sema results: exactly one of BuiltinFn, Fn and Pdf is set.
  std::optional<Builtin> BuiltinFn;
  const FnDecl *Fn = nullptr;
  /// `xfx(p, id, x, mu[, member])` or `alphas(p, mu[, member])`: Sema
  /// takes the set's name, the flavour and the member out of Args, which
  /// keep only the run-time values (x, mu) or (mu), so that every pass
  /// over arguments sees real values alone.
  const PdfDecl *Pdf = nullptr;
  PdfQuery Query = PdfQuery::Xfx;
  int Flavour = 0;     // a PDG id; 21 for the gluon, also written 0
  unsigned Member = 0; // the set's member; with MemberArg, the first
  /// A member computed from reduction or weight-list indices (`k` in
  /// `weights pdfvar(k in 1..59: ... xfx(p, 2, x, mu, k))`): Sema read
  /// every member it takes, Member to the last, which lie side by side in
  /// the block. Null for a constant member.
  ExprPtr MemberArg;
  /// With a MemberArg that is a fn's argument or a param, the set's
  /// members: every one is read, and generated code checks the value (not
  /// a member: NaN).
  unsigned MemberCount = 0;
  /// The member's place in the block of the program's members
  /// (Program::PdfTable), where generated code looks it up; with
  /// MemberArg, Member's place.
  unsigned TableIndex = 0;
  CallExpr(llvm::SMRange R, llvm::StringRef C, llvm::SMRange CR,
           std::vector<ExprPtr> A)
      : ExprNode(R), Callee(C), CalleeRange(CR), Args(std::move(A)) {}
};

struct IfExpr : ExprNode<ExprKind::If> {
  ExprPtr Cond, Then, Else;
  IfExpr(llvm::SMRange R, ExprPtr C, ExprPtr T, ExprPtr E)
      : ExprNode(R), Cond(std::move(C)), Then(std::move(T)),
        Else(std::move(E)) {}
};

enum class ReduceOp { Sum, Prod, Min, Max };
llvm::StringRef reduceOpSpelling(ReduceOp Op);

/// `sum(i in lo..hi: body)`; the range is half-open.
struct ReduceExpr : ExprNode<ExprKind::Reduce> {
  ReduceOp Op;
  std::string IndexName;
  llvm::SMRange IndexRange;
  ExprPtr Lo, Hi, Body;
  // Sema results: the folded bounds.
  long long LoValue = 0, HiValue = 0;
  /// The body indexes an array value with this index: codegen unrolls the
  /// reduction, so every index is a constant and the array stays scalars.
  bool Unroll = false;
  ReduceExpr(llvm::SMRange R, ReduceOp O, llvm::StringRef I, llvm::SMRange IR,
             ExprPtr L, ExprPtr H, ExprPtr B)
      : ExprNode(R), Op(O), IndexName(I), IndexRange(IR), Lo(std::move(L)),
        Hi(std::move(H)), Body(std::move(B)) {}
};

/// `[a, b, c]`: an array literal. An element that is itself an array is
/// spliced in, so `[p, q]` of two [4] arrays is an [8].
struct VectorExpr : ExprNode<ExprKind::Vector> {
  std::vector<ExprPtr> Elements;
  VectorExpr(llvm::SMRange R, std::vector<ExprPtr> E)
      : ExprNode(R), Elements(std::move(E)) {}
};

/// `x[lo..hi]` or `p[lo..hi]`: the half-open range of coordinates or
/// elements, an array of hi - lo; the bounds are compile-time integers.
struct SliceExpr : ExprNode<ExprKind::Slice> {
  ExprPtr Base, Lo, Hi;
  // Sema results: the folded bounds.
  long long LoValue = 0, HiValue = 0;
  SliceExpr(llvm::SMRange R, ExprPtr B, ExprPtr L, ExprPtr H)
      : ExprNode(R), Base(std::move(B)), Lo(std::move(L)), Hi(std::move(H)) {}
};

enum class ChannelQuery { Alpha, Density };

/// `alpha(NAME)` or `density(NAME, u)`, parsed only inside a channel block
/// (LANGUAGE.md v3, "Channels"): channel NAME's current weight, or the
/// density, with respect to the unit cube, of the points its adapted VEGAS
/// map produces at \p Point (a point of the unit cube).
struct ChannelExpr : ExprNode<ExprKind::Channel> {
  ChannelQuery Query;
  std::string Channel;
  llvm::SMRange ChannelRange;
  ExprPtr Point; // null for alpha
  // Sema results: the channel's position among the integrand's channels,
  // and their number.
  unsigned Index = 0;
  unsigned Count = 0;
  ChannelExpr(llvm::SMRange R, ChannelQuery Q, llvm::StringRef C,
              llvm::SMRange CR, ExprPtr P)
      : ExprNode(R), Query(Q), Channel(C), ChannelRange(CR),
        Point(std::move(P)) {}
};

//===----------------------------------------------------------------------===//
// Bodies and items
//===----------------------------------------------------------------------===//

struct LetStmt {
  std::string Name;
  llvm::SMRange NameRange;
  ExprPtr Value;
  bool Used = false; // Sema
};

/// `hist NAME(value, lo, hi, bins)` or the 2-D
/// `hist NAME(vx, lo, hi, bins, vy, lo2, hi2, bins2)`: fills a histogram of
/// the observables with the sample's weight. Its cells, counted from Base
/// in the integrand's cell array: 1-D: underflow, the bins, overflow
/// (bins + 2); 2-D: outside, then the bins row-major with x outer
/// (1 + bins_x bins_y).
struct HistStmt {
  std::string Name;
  llvm::SMRange Range;     // the whole statement
  llvm::SMRange NameRange;
  std::vector<ExprPtr> Args;
  /// How many of the body's lets precede it (its scope).
  unsigned LetsBefore = 0;
  // Sema results.
  unsigned Axes = 0;       // 1 or 2 (0 after an error)
  unsigned Bins[2] = {0, 0};
  unsigned Base = 0;       // the first cell
  const Expr &value(unsigned Axis) const { return *Args[4 * Axis]; }
  const Expr &lo(unsigned Axis) const { return *Args[4 * Axis + 1]; }
  const Expr &hi(unsigned Axis) const { return *Args[4 * Axis + 2]; }
  /// Its cells (HistogramCells.h: the layout the runtime reads).
  unsigned long long cells() const {
    return vf_hist_cells(Axes, Bins[0], Axes == 2 ? Bins[1] : 0);
  }
};

/// `weights NAME(k in lo..hi: expr)` (LANGUAGE.md v3, "Weight lists"): hi -
/// lo alternative values of the integrand on the same sample (scale and PDF
/// variations), entry k being expr with the index bound to k. List holds the
/// index and range as a reduction does, so names bind to it as to any
/// reduction index; it is never evaluated as a sum.
struct WeightsStmt {
  std::string Name;
  llvm::SMRange Range; // the whole statement
  llvm::SMRange NameRange;
  std::unique_ptr<ReduceExpr> List;
  /// How many of the body's lets precede it (its scope).
  unsigned LetsBefore = 0;
  // Sema results.
  unsigned Length = 0; // hi - lo (0 after an error)
  unsigned Base = 0;   // its first entry among all the integrand's entries
  /// The pdf whose member argument is this list's index itself (the list
  /// then gets the set's error band); null if none or several sets.
  const PdfDecl *BandPdf = nullptr;
  bool BandMixed = false; // indices of several sets' members
};

/// `= expr`, or `{ let ...; hist ...; weights ...; return expr }`.
struct Body {
  std::vector<std::unique_ptr<LetStmt>> Lets;
  std::vector<std::unique_ptr<HistStmt>> Hists;
  std::vector<std::unique_ptr<WeightsStmt>> Weights;
  ExprPtr Result;
  llvm::SMLoc ReturnLoc;
};

/// `channel NAME { ... }` in an integrand's body: one term of the
/// integrand's sum, sampled through its own VEGAS map and strata.
struct ChannelDecl {
  std::string Name;
  llvm::SMRange NameRange;
  Body B;
};

enum class ItemKind { Const, Param, Fn, Integrand, Import, Derived, Pdf };

struct Item {
  const ItemKind Kind;
  std::string Name; // empty for imports
  llvm::SMRange NameRange;
  virtual ~Item() = default;

protected:
  explicit Item(ItemKind K) : Kind(K) {}
};

struct ConstDecl : Item {
  ExprPtr Value;
  // Sema results.
  std::optional<double> Folded;
  enum class State { Unchecked, Checking, Done } CheckState = State::Unchecked;
  ConstDecl() : Item(ItemKind::Const) {}
};

struct ParamDecl : Item {
  ExprPtr Default;
  // Sema results.
  double DefaultValue = 0;
  unsigned Slot = 0; // position in the parameter block
  bool Used = false;
  bool FromMainFile = true;
  ParamDecl() : Item(ItemKind::Param) {}
};

/// `NAME` (a real), `NAME: [n]` (an array of n reals) or `NAME: complex`.
struct FnArg {
  std::string Name;
  llvm::SMRange Range;
  ExprPtr SizeExpr; // null for a real or complex value
  bool IsComplex = false;
  bool IsPdf = false; // `NAME: pdf`, an extern fn's vf_pdf handle
  unsigned Size = 0;  // Sema: the folded size; 0 for a real
};

struct FnDecl : Item {
  std::vector<FnArg> Args;
  ExprPtr ResultSizeExpr;     // `-> [n]`; null for a real or complex result
  bool ResultComplex = false; // `-> complex`
  Body B; // empty for an extern fn
  /// `extern "file.cpp" fn ...`: defined in C or C++ (compiler/clang).
  bool Extern = false;
  std::string ExternPath;    // as written, without quotes
  llvm::SMRange ExternRange; // the string
  std::string ExternFile;    // the loader's resolution of ExternPath
  unsigned ResultSize = 0; // Sema: 0 for a real result
  FnDecl() : Item(ItemKind::Fn) {}
};

/// `[lo, hi]` or `[lo, hi]^n` in a domain product; either bound may be
/// infinite (`[a, inf]`, `[-inf, b]`, `[-inf, inf]`), with an optional
/// scale (`[0, inf; 10]`). The runtime samples an infinite interval as
/// [0, 1]; codegen maps it (frontend/DomainMap.h).
struct Interval {
  ExprPtr Lo, Hi; // null for an infinite side
  ExprPtr Scale;  // `; s`; null when absent
  ExprPtr Power;  // null when absent
  llvm::SMRange Range;
  unsigned Count = 1; // Sema: the folded power
  bool isInfinite() const { return !Lo || !Hi; }
};

struct IntegrandDecl : Item {
  std::string Var;
  llvm::SMRange VarRange;
  std::vector<Interval> Domain;
  ExprPtr OutputsExpr; // `-> [n]`; null for a scalar integrand
  Body B;              // empty (no result) when the body is channel blocks
  /// The body's `channel` blocks, in source order; empty for an ordinary
  /// integrand.
  std::vector<std::unique_ptr<ChannelDecl>> Channels;
  // Sema results.
  unsigned Dim = 0;
  unsigned Outputs = 1;
  /// The body's histograms in source order (the first channel's, whose
  /// cells every channel's histogram of the same name shares), and their
  /// cells in all.
  std::vector<const HistStmt *> Histograms;
  unsigned HistCells = 0;
  /// The body's weight lists in source order, and their entries in all.
  std::vector<const WeightsStmt *> WeightLists;
  unsigned WeightEntries = 0;
  IntegrandDecl() : Item(ItemKind::Integrand) {}
};

/// `derived NAME = expr` (LANGUAGE.md v3, "Derived results"): a function
/// of one integrand's components, evaluated by the runtime on results with
/// its error propagated from their covariance.
struct DerivedDecl : Item {
  ExprPtr Value;
  // Sema results: the integrand whose components Value uses (its names
  // bound as Component, with the component in ArgIndex, or as an index
  // into the integrand's name).
  const IntegrandDecl *Of = nullptr;
  DerivedDecl() : Item(ItemKind::Derived) {}
};

struct PdfSetUse;

/// `pdf NAME = "set" [member K]`: an LHAPDF 6 set by name or by a folder
/// (relative to the file's own), and the member its calls use by default.
struct PdfDecl : Item {
  std::string Set; // without quotes
  llvm::SMRange SetRange;
  ExprPtr Member;            // null: member 0
  llvm::SMRange MemberRange; // `member K`
  // Sema results: the default member, and the set with every member the
  // program's calls use, each read once (frontend/PdfUse.h).
  unsigned DefaultMember = 0;
  /// `member m` with m a param: every member is read, and calls without a
  /// member argument take param m's (CallExpr::MemberArg).
  const ParamDecl *MemberParam = nullptr;
  std::shared_ptr<PdfSetUse> Use;
  PdfDecl() : Item(ItemKind::Pdf) {}
};

struct ImportDecl : Item {
  std::string Path; // without quotes
  llvm::SMRange PathRange;
  ImportDecl() : Item(ItemKind::Import) {}
};

/// One parsed file (the main file or an imported module).
struct SourceModule {
  std::string Path;
  unsigned BufferID = 0;
  bool IsMain = false;
  std::vector<std::unique_ptr<Item>> Items;
};

/// Dispatches on an expression's kind to Derived::visitNumber(const
/// NumberExpr &) etc.; the cases are generated from VF_FOR_EACH_EXPR so a new
/// node kind cannot be forgotten.
template <typename Derived, typename RetTy = void> class ExprVisitor {
public:
  RetTy visit(const Expr &E) {
    switch (E.Kind) {
#define VF_EXPR_VISIT(K)                                                       \
  case ExprKind::K:                                                            \
    return static_cast<Derived *>(this)->visit##K(                             \
        static_cast<const K##Expr &>(E));
      VF_FOR_EACH_EXPR(VF_EXPR_VISIT)
#undef VF_EXPR_VISIT
    }
    __builtin_unreachable();
  }
};

} // namespace vf

#endif // VF_COMPILER_FRONTEND_AST_H
