//===- SlhaReader.h - A small SLHA parameter-card reader --------*- C++ -*-===//
//
// Reads the parameter cards generated processes are configured with, in the
// SUSY Les Houches Accord format (P. Skands et al., hep-ph/0311123,
// section 3): blocks of numbered entries,
//
//   BLOCK MASS  Q= 91.1876    # the scale is read past and ignored
//      23   9.11876e+01       # MZ
//   DECAY  23   2.4952e+00    # the total width, then branching ratios
//      1.0e-01   2   11  -11  # (skipped)
//
// Block names are case-insensitive; `#` starts a comment. An entry is
// integer indices followed by one real value, and every entry of a block
// has as many indices as its first one, which is how a truncated line is
// told from an entry with fewer indices.
//
// Errors are std::runtime_error, as in the generated code this example
// imitates (MadGraph's standalone output throws from its reader): each
// message names the card, and for a malformed line its line number.
//
//===----------------------------------------------------------------------===//
#ifndef VF_EXAMPLES_PROCESS_SLHAREADER_H
#define VF_EXAMPLES_PROCESS_SLHAREADER_H

#include <istream>
#include <map>
#include <string>
#include <vector>

namespace vfexample {

class SlhaReader {
public:
  /// Reads the card at Path; a file that cannot be opened is an error
  /// naming it.
  static SlhaReader fromFile(const std::string &Path);
  /// Reads a card from In; Name stands for the file in messages.
  static SlhaReader parse(std::istream &In, const std::string &Name);

  /// The entry of Block (any case) with these indices, e.g.
  /// value("MASS", {23}).
  double value(const std::string &Block, const std::vector<int> &Indices) const;
  /// The total width on the `DECAY Pdg` line.
  double width(int Pdg) const;

  const std::string &name() const { return Name; }

private:
  struct Entry {
    double Value;
    int Line;
  };
  struct Block {
    std::map<std::vector<int>, Entry> Entries;
    /// The number of indices of its first entry, -1 before it.
    int Arity = -1;
  };

  explicit SlhaReader(std::string Name) : Name(std::move(Name)) {}

  std::string Name;
  /// Blocks by upper-case name.
  std::map<std::string, Block> Blocks;
  std::map<int, Entry> Widths;

  friend class SlhaParser;
};

} // namespace vfexample

#endif // VF_EXAMPLES_PROCESS_SLHAREADER_H
