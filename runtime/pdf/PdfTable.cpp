//===- runtime/pdf/PdfTable.cpp - A run's members as one block ------------===//
//
// Lays out TableLayout.h: the header, the entries, then each member's
// arrays in turn, every array rounded up to whole 8-byte words so that the
// next one stays aligned for doubles on every device.
//
//===----------------------------------------------------------------------===//
#include "pdf/PdfTable.h"

#include <cstring>

namespace vf::pdf {

static_assert(sizeof(vf_pdf_table_member) == 328,
              "TableLookup.c checks the kernels' layout against 328 bytes");
static_assert(sizeof(vf_pdf_table_header) == 16);

namespace {

std::size_t words(std::size_t Bytes) { return (Bytes + 7) / 8; }

/// Appends arrays to the block, returning where each starts.
class Appender {
public:
  explicit Appender(std::vector<std::uint64_t> &Words) : Words(Words) {}

  template <typename T> std::uint64_t add(const T *Data, std::size_t N) {
    const std::uint64_t At = Words.size() * 8;
    Words.resize(Words.size() + words(N * sizeof(T)), 0);
    if (N)
      std::memcpy(reinterpret_cast<char *>(Words.data()) + At, Data,
                  N * sizeof(T));
    return At;
  }

private:
  std::vector<std::uint64_t> &Words;
};

} // namespace

std::size_t PdfTable::memberBytes(const PdfMember &M) {
  const GridLayout &G = M.Grid;
  const std::size_t Doubles = G.X.size() + G.LogX.size() + G.Q2.size() +
                              G.LogQ2.size() + G.Values.size() +
                              G.XCoeffs.size() + M.Alpha.Q2.size() +
                              M.Alpha.LogQ2.size() + M.Alpha.Values.size();
  return sizeof(vf_pdf_table_member) + 8 * Doubles + 8 * words(sizeof(G.Slot));
}

PdfTable PdfTable::build(const std::vector<const PdfMember *> &Members) {
  PdfTable T;
  const std::size_t Head = sizeof(vf_pdf_table_header) +
                           Members.size() * sizeof(vf_pdf_table_member);
  T.Words.assign(words(Head), 0);
  std::vector<vf_pdf_table_member> Entries(Members.size());
  Appender Out(T.Words);
  for (std::size_t K = 0; K < Members.size(); ++K) {
    const GridLayout &G = Members[K]->Grid;
    const AlphaS &A = Members[K]->Alpha;
    vf_pdf_table_member &E = Entries[K];
    E.At.X = Out.add(G.X.data(), G.X.size());
    E.At.LogX = Out.add(G.LogX.data(), G.LogX.size());
    E.At.Q2 = Out.add(G.Q2.data(), G.Q2.size());
    E.At.LogQ2 = Out.add(G.LogQ2.data(), G.LogQ2.size());
    E.At.Values = Out.add(G.Values.data(), G.Values.size());
    E.At.XCoeffs = Out.add(G.XCoeffs.data(), G.XCoeffs.size());
    E.At.Slot = Out.add(G.Slot.data(), G.Slot.size());
    E.At.AlphaQ2 = Out.add(A.Q2.data(), A.Q2.size());
    E.At.AlphaLogQ2 = Out.add(A.LogQ2.data(), A.LogQ2.size());
    E.At.AlphaValues = Out.add(A.Values.data(), A.Values.size());
    // The sizes and scalars; the pointers are the block's offsets instead.
    E.Grid = G.view();
    E.Grid.X = E.Grid.LogX = E.Grid.Q2 = E.Grid.LogQ2 = nullptr;
    E.Grid.Values = E.Grid.XCoeffs = nullptr;
    E.Grid.Slot = nullptr;
    E.Alpha = A.view();
    E.Alpha.Q2 = E.Alpha.LogQ2 = E.Alpha.Values = nullptr;
  }
  vf_pdf_table_header H{};
  H.Bytes = T.bytes();
  H.NumMembers = static_cast<std::uint32_t>(Members.size());
  char *Base = reinterpret_cast<char *>(T.Words.data());
  std::memcpy(Base, &H, sizeof H);
  if (!Entries.empty())
    std::memcpy(Base + sizeof H, Entries.data(),
                Entries.size() * sizeof(vf_pdf_table_member));
  return T;
}

} // namespace vf::pdf
