//===- Processes.h - e+e- -> mu+mu- and q qbar -> l+l- classes --*- C++ -*-===//
//
// Two tree-level processes through an s-channel photon and Z, written as
// generated code comes (the shape of a CPPProcess class of MadGraph's
// standalone output): a process is configured once from a parameter card
// (initProc), then for each phase-space point it is given the momenta
// (setMomenta) and computes |M|^2 (sigmaKin) into a buffer read by
// getMatrixElements(). Every call after initProc works in member buffers,
// so an object is used by one thread at a time; threads each build their
// own.
//
// |M|^2 is summed over all helicities from the complex helicity amplitudes
// of HelAmps.h (two diagrams, photon and Z, per helicity configuration),
// averaged over the four initial helicities and, for quarks, over the
// initial colours. It agrees with the closed formulas of
// examples/physics/ee_mumu.vf and examples/cpp/drell_yan.vf (R. K. Ellis,
// W. J. Stirling, B. R. Webber, "QCD and Collider Physics", CUP 1996,
// ch. 3) to rounding: tests/unit/examples/ProcessTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef VF_EXAMPLES_PROCESS_PROCESSES_H
#define VF_EXAMPLES_PROCESS_PROCESSES_H

#include "HelAmps.h"
#include "Parameters.h"

#include <string>
#include <vector>

namespace vfexample {

/// f fbar -> gamma*/Z -> l- l+ for a massless initial fermion f: what the
/// two processes below share. The momenta are, in order, the incoming
/// fermion, the incoming antifermion, the outgoing l- and the outgoing l+.
class NeutralCurrentProcess {
public:
  static constexpr int ninitial = 2;
  static constexpr int nexternal = 4;
  static constexpr int nprocesses = 1;

  /// Reads the parameter card at ParamCard (SLHA); throws
  /// std::runtime_error naming the card and what is wrong with it.
  void initProc(const std::string &ParamCard);
  /// Copies nexternal four-momenta (E, px, py, pz) in GeV.
  void setMomenta(std::vector<double *> &Momenta);
  /// |M|^2 at the momenta last set, into getMatrixElements()[0].
  void sigmaKin();
  const double *getMatrixElements() const { return MatrixElements.data(); }
  const std::string &name() const { return Name; }

protected:
  enum class InitialFermion { ChargedLepton, UpQuark, DownQuark };
  NeutralCurrentProcess(InitialFermion Initial, std::string Name);

private:
  /// The amplitudes of both diagrams for one helicity configuration (each
  /// entry +1 or -1, twice the helicity), into Amplitudes.
  void calculateWavefunctions(const int *Helicities);
  /// The helicity sum of |M|^2, averaged over the initial states.
  double matrix();
  const double *momentum(int Particle) const {
    return Momenta.data() + 4 * Particle;
  }

  InitialFermion Initial;
  std::string Name;
  Parameters Pars;
  /// Pars's couplings of the initial fermion and of the leptons.
  FermionCouplings In{}, Out{};
  bool Initialised = false;

  // Buffers, reused for every point.
  /// nexternal four-momenta, one after the other.
  std::vector<double> Momenta;
  /// The external fermions' spinors.
  std::vector<Spinor> Wavefunctions;
  /// The photon and the Z made by the initial pair.
  std::vector<VectorWave> Bosons;
  /// The photon and the Z diagram.
  std::vector<Complex> Amplitudes;
  std::vector<double> MatrixElements;
};

/// e- e+ -> mu- mu+.
class EeMuMuProcess : public NeutralCurrentProcess {
public:
  EeMuMuProcess();
};

/// q qbar -> l- l+ for q = u or d, chosen at construction; colour-averaged.
class QqbarLLProcess : public NeutralCurrentProcess {
public:
  enum class Quark { Up, Down };
  explicit QqbarLLProcess(Quark Q);
};

} // namespace vfexample

#endif // VF_EXAMPLES_PROCESS_PROCESSES_H
