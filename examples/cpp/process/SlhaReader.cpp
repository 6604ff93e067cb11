//===- SlhaReader.cpp - A small SLHA parameter-card reader ----------------===//
//
// A line-by-line parser: a BLOCK or DECAY line opens a section, and every
// other line belongs to the section above it (an entry of the block, or a
// branching ratio of the decay, which is skipped). Numbers are read with
// std::from_chars, which reads the C locale's format whatever the program's
// locale is, and must take the whole token ("9.1e1x" is malformed).
//
//===----------------------------------------------------------------------===//

#include "SlhaReader.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace vfexample {

namespace {

std::string upperCase(std::string Text) {
  std::transform(Text.begin(), Text.end(), Text.begin(),
                 [](unsigned char C) { return std::toupper(C); });
  return Text;
}

/// The words of a line before its comment.
std::vector<std::string> tokens(const std::string &Line) {
  std::istringstream Words(Line.substr(0, Line.find('#')));
  std::vector<std::string> Tokens;
  for (std::string Word; Words >> Word;)
    Tokens.push_back(Word);
  return Tokens;
}

template <typename T> bool parseWhole(const std::string &Token, T &Value) {
  const char *End = Token.data() + Token.size();
  const auto [Ptr, Ec] = std::from_chars(Token.data(), End, Value);
  return Ec == std::errc() && Ptr == End;
}

std::string joined(const std::vector<int> &Indices) {
  std::string Text;
  for (int Index : Indices)
    Text += (Text.empty() ? "" : " ") + std::to_string(Index);
  return Text;
}

/// "'BLOCK MASS' entry 23", or "'BLOCK ALPHA'" for an entry without
/// indices.
std::string entryName(const std::string &Block,
                      const std::vector<int> &Indices) {
  const std::string Name = "'BLOCK " + Block + "'";
  return Indices.empty() ? Name : Name + " entry " + joined(Indices);
}

std::string quoted(const std::vector<std::string> &Tokens, std::size_t I) {
  return I < Tokens.size() ? "'" + Tokens[I] + "'" : "end of line";
}

} // namespace

/// Reads one card into a SlhaReader, keeping the section the current line
/// belongs to.
class SlhaParser {
public:
  explicit SlhaParser(const std::string &Name) : Card(Name) {}

  SlhaReader run(std::istream &In) {
    std::string Text;
    while (std::getline(In, Text)) {
      ++Line;
      const std::vector<std::string> Words = tokens(Text);
      if (Words.empty())
        continue;
      const std::string Keyword = upperCase(Words[0]);
      if (Keyword == "BLOCK")
        openBlock(Words);
      else if (Keyword == "DECAY")
        readDecay(Words);
      else if (Section == InBlock)
        readEntry(Words);
      else if (Section == None)
        fail("an entry outside any BLOCK: '" + Words[0] + "'");
      // Section == InDecay: a branching-ratio line, not needed here.
    }
    return std::move(Card);
  }

private:
  enum SectionKind { None, InBlock, InDecay };

  [[noreturn]] void fail(const std::string &Message) const {
    throw std::runtime_error(Card.Name + ":" + std::to_string(Line) + ": " +
                             Message);
  }

  /// BLOCK name [Q= scale] : the scale is not needed by a tree-level
  /// process and is ignored.
  void openBlock(const std::vector<std::string> &Words) {
    if (Words.size() < 2)
      fail("expected a block name after 'BLOCK'");
    BlockName = upperCase(Words[1]);
    Card.Blocks.try_emplace(BlockName);
    Section = InBlock;
  }

  /// DECAY pdg width
  void readDecay(const std::vector<std::string> &Words) {
    int Pdg = 0;
    double Width = 0;
    if (Words.size() < 2 || !parseWhole(Words[1], Pdg))
      fail("expected a PDG code after 'DECAY', got " + quoted(Words, 1));
    const std::string Where = "'DECAY " + std::to_string(Pdg) + "'";
    if (Words.size() < 3 || !parseWhole(Words[2], Width))
      fail("expected a width after " + Where + ", got " + quoted(Words, 2));
    const auto [It, Fresh] = Card.Widths.try_emplace(Pdg, Width, Line);
    if (!Fresh)
      fail(Where + " given twice (first at line " +
           std::to_string(It->second.Line) + ")");
    Section = InDecay;
  }

  /// index... value
  void readEntry(const std::vector<std::string> &Words) {
    SlhaReader::Block &Block = Card.Blocks[BlockName];
    std::vector<int> Indices;
    for (std::size_t I = 0; I + 1 < Words.size(); ++I) {
      int Index = 0;
      if (!parseWhole(Words[I], Index))
        fail("expected an integer index in 'BLOCK " + BlockName + "', got '" +
             Words[I] + "'");
      Indices.push_back(Index);
    }
    const std::string &Last = Words.back();
    int LastIndex = 0;
    if (Block.Arity == static_cast<int>(Words.size()) &&
        parseWhole(Last, LastIndex)) {
      // As many words as the block's indices: the value is missing.
      Indices.push_back(LastIndex);
      fail("expected a number after " + entryName(BlockName, Indices) +
           ", got end of line");
    }
    double Value = 0;
    if (!parseWhole(Last, Value))
      fail("expected a number after " + entryName(BlockName, Indices) +
           ", got '" + Last + "'");
    if (Block.Arity < 0)
      Block.Arity = static_cast<int>(Indices.size());
    if (Block.Arity != static_cast<int>(Indices.size()))
      fail(entryName(BlockName, Indices) + " has " +
           std::to_string(Indices.size()) +
           " indices where the block's first entry has " +
           std::to_string(Block.Arity));
    const auto [It, Fresh] = Block.Entries.try_emplace(Indices, Value, Line);
    if (!Fresh)
      fail(entryName(BlockName, Indices) + " given twice (first at line " +
           std::to_string(It->second.Line) + ")");
  }

  SlhaReader Card;
  int Line = 0;
  SectionKind Section = None;
  std::string BlockName;
};

SlhaReader SlhaReader::fromFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    throw std::runtime_error("cannot open the SLHA card '" + Path + "'");
  return parse(In, Path);
}

SlhaReader SlhaReader::parse(std::istream &In, const std::string &Name) {
  return SlhaParser(Name).run(In);
}

double SlhaReader::value(const std::string &BlockName,
                         const std::vector<int> &Indices) const {
  const std::string Upper = upperCase(BlockName);
  const auto Found = Blocks.find(Upper);
  if (Found == Blocks.end())
    throw std::runtime_error(Name + ": no BLOCK " + Upper);
  const auto Entry = Found->second.Entries.find(Indices);
  if (Entry == Found->second.Entries.end())
    throw std::runtime_error(Name + ": no " + entryName(Upper, Indices));
  return Entry->second.Value;
}

double SlhaReader::width(int Pdg) const {
  const auto Found = Widths.find(Pdg);
  if (Found == Widths.end())
    throw std::runtime_error(Name + ": no DECAY line for PDG code " +
                             std::to_string(Pdg));
  return Found->second.Value;
}

} // namespace vfexample
