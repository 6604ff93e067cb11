//===- frontend/Sema.h - Name resolution, types, folding --------*- C++ -*-===//
//
// Sema checks a parsed Program against LANGUAGE.md: names resolve (with a
// "did you mean"), arities match the built-in table, booleans and numbers
// are not mixed, constants fold, dimensions and reduction bounds are
// constant integers, `x[i]` is in range, user functions do not recurse.
// Every independent error is reported; it annotates the AST in place.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_SEMA_H
#define VF_COMPILER_FRONTEND_SEMA_H

namespace vf {

class DiagEngine;
struct Program;

/// Checks \p P; returns true when no error was reported.
bool checkProgram(Program &P, DiagEngine &Diags);

/// Upper bounds that keep hostile inputs from exhausting memory.
constexpr unsigned MaxDimension = 1024;
constexpr unsigned MaxOutputs = 1024;
constexpr unsigned MaxArraySize = 1024;
/// A reduction that indexes an array by its index is unrolled; at most this
/// many iterations.
constexpr long long MaxUnrolled = 1024;
/// Histograms per integrand, bins per histogram axis, and cells (bins with
/// their under/overflow) of all an integrand's histograms together: each
/// cell costs six doubles per tile in flight (docs/algorithm.md).
constexpr unsigned MaxHistograms = 16;
constexpr unsigned MaxHistBins = 100000;
constexpr unsigned MaxHistCells = 1u << 20;
/// Entries of all an integrand's weight lists together: each costs three
/// sums per tile (Σw_k, Σw_k², Σw_k·w), linear in their number, unlike a
/// vector integrand's components with their covariance.
constexpr unsigned MaxWeightEntries = 1024;

} // namespace vf

#endif // VF_COMPILER_FRONTEND_SEMA_H
