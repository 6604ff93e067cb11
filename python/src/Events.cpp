//===- python/src/Events.cpp - Weighted and unweighted events -------------===//
//
// Integrator.sample and unweight for Python: the library hands events to
// a callback in batches; these collect them (GIL released) into arrays
// that become numpy arrays. sample() asks the library for chunks of
// events, which continue one stream, so Ctrl-C is seen between chunks;
// unweight() is one library call (its w_max pass and acceptance cannot be
// split), interruptible only when it returns. write_events() is
// vf::writeEventFile (LHE, HepMC3), one call as well.
//
//===----------------------------------------------------------------------===//

#include "PyIntegrator.h"

#include "vf/EventFiles.h"

#include <pybind11/numpy.h>

namespace vfpy {

namespace {

/// Events collected from the library's batches.
struct EventArrays {
  unsigned Dim, Outputs;
  std::vector<double> X, F, Jac, Weight;
  /// A multi-channel integrand's channel of each event (empty without).
  std::vector<std::uint32_t> Channel;
  /// The weight lists and each event's entries' weights (EntryWeights).
  std::vector<vf::WeightListSpec> Lists;
  unsigned Entries;
  std::vector<double> EntryWeights;

  EventArrays(const vf::IntegrandInfo &I, std::uint64_t N)
      : Dim(I.Dim), Outputs(I.Outputs), Lists(I.WeightLists),
        Entries(vf::weightEntries(I)) {
    EntryWeights.reserve(N * Entries);
    X.reserve(N * Dim);
    F.reserve(N * Outputs);
    Jac.reserve(N);
    Weight.reserve(N);
  }
  void add(const vf::EventBatch &B) {
    X.insert(X.end(), B.X.begin(), B.X.end());
    F.insert(F.end(), B.F.begin(), B.F.end());
    Jac.insert(Jac.end(), B.Jac.begin(), B.Jac.end());
    Weight.insert(Weight.end(), B.Weight.begin(), B.Weight.end());
    Channel.insert(Channel.end(), B.Channel.begin(), B.Channel.end());
    EntryWeights.insert(EntryWeights.end(), B.EntryWeights.begin(),
                        B.EntryWeights.end());
  }
  /// Per list, its name and its entries' weights (n x entries).
  py::dict weightLists(py::ssize_t N) const {
    py::dict D;
    for (std::size_t L = 0, Col = 0; L < Lists.size(); ++L) {
      const py::ssize_t Width = Lists[L].Entries;
      py::array_t<double> A({N, Width});
      double *Out = A.mutable_data();
      for (py::ssize_t E = 0; E < N; ++E)
        std::copy_n(EntryWeights.data() + E * Entries + Col, Width,
                    Out + E * Width);
      D[py::str(Lists[L].Name)] = A;
      Col += std::size_t(Width);
    }
    return D;
  }
  py::dict toDict() const {
    const py::ssize_t N = py::ssize_t(Jac.size());
    auto Array = [](const std::vector<double> &V, std::vector<py::ssize_t> S) {
      py::array_t<double> A(S);
      std::copy(V.begin(), V.end(), A.mutable_data());
      return A;
    };
    py::object Channels = py::none();
    if (!Channel.empty()) {
      py::array_t<std::uint32_t> C(N);
      std::copy(Channel.begin(), Channel.end(), C.mutable_data());
      Channels = C;
    }
    return py::dict(py::arg("x") = Array(X, {N, py::ssize_t(Dim)}),
                    py::arg("f") = Array(F, {N, py::ssize_t(Outputs)}),
                    py::arg("jac") = Array(Jac, {N}),
                    py::arg("weights") = Array(Weight, {N}),
                    py::arg("channel") = Channels,
                    py::arg("weight_lists") = weightLists(N));
  }
};

py::dict sample(PyIntegrator &P, std::uint64_t N, std::uint64_t Chunk) {
  const Claim Held(P, "sample");
  P.startCall();
  EventArrays E(P.In.Info, N);
  for (std::uint64_t Done = 0; Done < N;) {
    const std::uint64_t Now = std::min(Chunk, N - Done);
    vf::Status S;
    {
      py::gil_scoped_release R;
      S = P.I->sample(Now, [&](const vf::EventBatch &B) { E.add(B); });
    }
    P.raiseCallbackError();
    if (!S)
      raise(S.error());
    if (PyErr_CheckSignals() != 0)
      throw py::error_already_set();
    Done += Now;
  }
  return E.toDict();
}

/// A multi-channel integrand's efficiency per channel (empty without).
py::list channelEfficiency(const vf::UnweightStats &St) {
  py::list L;
  for (const vf::ChannelUnweight &C : St.Channels)
    L.append(C.efficiency());
  return L;
}

py::dict unweight(PyIntegrator &P, std::uint64_t N, std::uint64_t WmaxEvents) {
  const Claim Held(P, "unweight");
  P.startCall();
  EventArrays E(P.In.Info, N);
  vf::UnweightOptions O;
  O.WmaxEvents = WmaxEvents;
  std::optional<vf::Expected<vf::UnweightStats>> S;
  {
    py::gil_scoped_release R;
    S.emplace(P.I->unweight(
        N, [&](const vf::EventBatch &B) { E.add(B); }, O));
  }
  P.raiseCallbackError();
  if (!*S)
    raise(S->error());
  py::dict D = E.toDict();
  const vf::UnweightStats &St = **S;
  D["stats"] = py::dict(py::arg("wmax") = St.Wmax, py::arg("drawn") = St.Drawn,
                        py::arg("accepted") = St.Accepted,
                        py::arg("overshoot") = St.Overshoot,
                        py::arg("overshoot_fraction") = St.OvershootFraction,
                        py::arg("efficiency") = St.Efficiency,
                        py::arg("mean") = St.Mean, py::arg("sdev") = St.Error,
                        py::arg("channel_efficiency") = channelEfficiency(St));
  return D;
}

/// vf::writeEventFile for Python: the file with \p N events of \p Record,
/// the header's cross section \p Xs +- \p XsErr; what was written as a
/// dict (Integrator.write_events).
/// \p Shower's layout ("basic", "lhe"), beams ("PDG1,PDG2", "E1,E2"; ""
/// for none) and LHAPDF id (-1: none) into \p O, read as every door reads
/// them; raises the library's error.
void showerOptions(const py::dict &Shower, vf::EventFileOptions &O) {
  auto Text = [&Shower](const char *Key) {
    return Shower[Key].cast<std::string>();
  };
  vf::Expected<vf::EventLayout> L = vf::parseEventLayout(Text("layout"));
  if (!L)
    raise(L.error());
  vf::Expected<std::optional<vf::EventBeams>> B =
      vf::parseBeams(Text("beams"), Text("beam_energies"));
  if (!B)
    raise(B.error());
  O.Layout = *L;
  O.Beams = *B;
  O.PdfSetId = Shower["pdf_id"].cast<int>();
}

py::dict writeEvents(PyIntegrator &P, const Integrand &Record,
                     const std::string &Path, std::uint64_t N, bool Weighted,
                     std::uint64_t WmaxEvents, double Xs, double XsErr,
                     const py::dict &Shower) {
  const Claim Held(P, "write_events");
  P.startCall();
  vf::EventFileOptions O;
  showerOptions(Shower, O);
  O.Path = Path;
  O.Events = N;
  O.Weighted = Weighted;
  O.Unweight.WmaxEvents = WmaxEvents;
  O.CrossSection = Xs;
  O.CrossSectionError = XsErr;
  std::optional<vf::Expected<vf::EventFileReport>> Rep;
  {
    py::gil_scoped_release R;
    Rep.emplace(vf::writeEventFile(*P.I, Record.Info, O));
  }
  P.raiseCallbackError();
  if (!*Rep)
    raise(Rep->error());
  const vf::EventFileReport &E = **Rep;
  const vf::UnweightStats &U = E.Unweighting;
  return py::dict(
      py::arg("path") = Path,
      py::arg("format") = E.Format == vf::EventFormat::Lhe ? "lhe" : "hepmc3",
      py::arg("written") = E.Written, py::arg("weighted") = Weighted,
      py::arg("sum_weights") = E.SumWeights,
      py::arg("max_weight") = E.MaxWeight,
      py::arg("efficiency") = Weighted ? py::object(py::none())
                                       : py::float_(U.Efficiency),
      py::arg("wmax") = Weighted ? py::object(py::none())
                                 : py::float_(U.Wmax),
      py::arg("overshoot_fraction") = Weighted
                                          ? py::object(py::none())
                                          : py::float_(U.OvershootFraction));
}

} // namespace

void bindEvents(py::class_<PyIntegrator> &C) {
  C.def("sample", &sample, py::arg("n"), py::arg("chunk"))
      .def("unweight", &unweight, py::arg("n"), py::arg("wmax_events"))
      .def("write_events", &writeEvents, py::arg("record"), py::arg("path"),
           py::arg("n"), py::arg("weighted"), py::arg("wmax_events"),
           py::arg("cross_section"), py::arg("cross_section_error"),
           py::arg("shower"));
}

} // namespace vfpy
