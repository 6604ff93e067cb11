//===- runtime/pdf/GridFile.cpp - One member's lhagrid1 file --------------===//
//
// A line reader with one state per part of a subgrid block (GridFile.h has
// the format). Blank lines and '#' comments are skipped, as LHAPDF skips
// comments; every other line is counted, so a message's line is the line
// an editor shows.
//
//===----------------------------------------------------------------------===//
#include "pdf/GridFile.h"

#include "pdf/Numbers.h"

#include <algorithm>

namespace vf::pdf {

namespace {

int gluonAs21(long Id) { return Id == 0 ? 21 : static_cast<int>(Id); }

/// Reads a member file block by block, keeping where it stands.
class GridReader {
public:
  GridReader(const std::string &File, const std::vector<int> &SetFlavours)
      : File(File), SetFlavours(SetFlavours) {}

  Expected<MemberGrid> read(std::string_view Text);

private:
  Error at(unsigned Line, const std::string &What) const {
    return Error(File + ":" + std::to_string(Line) + ": " + What);
  }
  Status knots(std::string_view Body, unsigned Line, bool IsX);
  Status flavours(std::string_view Body, unsigned Line);
  Status values(std::string_view Body, unsigned Line);
  Status endBlock(unsigned Line);

  const std::string &File;
  const std::vector<int> &SetFlavours;
  MemberGrid Grid;
  /// Within a subgrid: 0 expects x knots, 1 Q knots, 2 flavours, then
  /// value lines.
  unsigned Part = 0;
  unsigned Subgrid = 0;
  std::vector<double> SubX, SubQ;
  std::size_t ValueLines = 0;
  /// Values of the current subgrid, [ix][iq][f], merged at its end.
  std::vector<double> SubValues;
};

Status GridReader::knots(std::string_view Body, unsigned Line, bool IsX) {
  std::vector<double> &Out = IsX ? SubX : SubQ;
  Out.clear();
  std::string Bad;
  forEachToken(Body, [&](std::string_view T) {
    double V;
    if (!parseDouble(T, V) && Bad.empty())
      Bad = std::string(T);
    Out.push_back(V);
  });
  const char *Name = IsX ? "x" : "Q";
  if (!Bad.empty())
    return at(Line, std::string(Name) + " knot '" + Bad + "' is not a number");
  for (std::size_t I = 0; I < Out.size(); ++I) {
    if (Out[I] <= 0 || (IsX && Out[I] > 1))
      return at(Line, std::string(Name) + " knot " + std::to_string(I + 1) +
                          " is out of range" + (IsX ? " (0, 1]" : " (0, inf)"));
    if (I > 0 && !(Out[I] > Out[I - 1]))
      return at(Line, std::string(Name) + " knots are not increasing (knot " +
                          std::to_string(I + 1) + ")");
  }
  if (IsX && Out.size() < 4)
    return at(Line, "a subgrid needs at least 4 x knots for logcubic "
                    "interpolation");
  if (!IsX && Out.size() < 2)
    return at(Line, "a subgrid needs at least 2 Q knots");
  if (IsX && Subgrid > 0 && Out != Grid.X)
    return at(Line, "x knots differ from the first subgrid's (LHAPDF 6.5 "
                    "requires the same x knots in every subgrid)");
  if (!IsX && !Grid.Q.empty() && Out.front() < Grid.Q.back())
    return at(Line, "Q knots start below the previous subgrid's last knot");
  return Status::ok();
}

Status GridReader::flavours(std::string_view Body, unsigned Line) {
  std::vector<int> Ids;
  std::string Bad;
  forEachToken(Body, [&](std::string_view T) {
    long V;
    if (!parseInt(T, V) && Bad.empty())
      Bad = std::string(T);
    Ids.push_back(gluonAs21(V));
  });
  if (!Bad.empty())
    return at(Line, "flavour id '" + Bad + "' is not an integer");
  for (std::size_t I = 0; I < Ids.size(); ++I) {
    if (std::find(SetFlavours.begin(), SetFlavours.end(), Ids[I]) ==
        SetFlavours.end())
      return at(Line, "flavour " + std::to_string(Ids[I]) +
                          " is not in the set's Flavors list");
    if (std::find(Ids.begin(), Ids.begin() + I, Ids[I]) != Ids.begin() + I)
      return at(Line, "flavour " + std::to_string(Ids[I]) + " appears twice");
  }
  if (Ids.size() != SetFlavours.size())
    return at(Line, std::to_string(Ids.size()) +
                        " flavour ids, but Flavors "
                        "lists " +
                        std::to_string(SetFlavours.size()));
  if (Subgrid > 0 && Ids != Grid.Flavours)
    return at(Line, "flavour ids differ from the first subgrid's");
  Grid.Flavours = Ids;
  return Status::ok();
}

Status GridReader::values(std::string_view Body, unsigned Line) {
  std::size_t Count = 0;
  std::string Bad;
  forEachToken(Body, [&](std::string_view T) {
    double V = 0;
    if (!parseDouble(T, V) && Bad.empty())
      Bad = std::string(T);
    SubValues.push_back(V);
    ++Count;
  });
  if (!Bad.empty())
    return at(Line, "value '" + Bad + "' is not a finite number");
  if (Count != Grid.Flavours.size())
    return at(Line, std::to_string(Count) + " values, expected " +
                        std::to_string(Grid.Flavours.size()) +
                        " (one per flavour)");
  if (++ValueLines > SubX.size() * SubQ.size())
    return at(Line, "more value lines than x knots times Q knots (" +
                        std::to_string(SubX.size() * SubQ.size()) + ")");
  return Status::ok();
}

Status GridReader::endBlock(unsigned Line) {
  std::size_t Want = SubX.size() * SubQ.size();
  if (Part < 3 || ValueLines != Want)
    return at(Line, "subgrid " + std::to_string(Subgrid + 1) + " ends after " +
                        std::to_string(ValueLines) + " value lines, expected " +
                        std::to_string(Want));
  // Merge into [ix][iq][f] over the Q knots of every subgrid so far.
  std::size_t NF = Grid.Flavours.size(), OldQ = Grid.Q.size();
  std::size_t NewQ = OldQ + SubQ.size();
  std::vector<double> Merged(SubX.size() * NewQ * NF);
  for (std::size_t IX = 0; IX < SubX.size(); ++IX) {
    std::copy_n(Grid.Values.begin() + IX * OldQ * NF, OldQ * NF,
                Merged.begin() + IX * NewQ * NF);
    std::copy_n(SubValues.begin() + IX * SubQ.size() * NF, SubQ.size() * NF,
                Merged.begin() + (IX * NewQ + OldQ) * NF);
  }
  Grid.Values = std::move(Merged);
  Grid.X = SubX;
  Grid.Q.insert(Grid.Q.end(), SubQ.begin(), SubQ.end());
  ++Subgrid;
  Part = 0;
  ValueLines = 0;
  SubValues.clear();
  return Status::ok();
}

Expected<MemberGrid> GridReader::read(std::string_view Text) {
  bool InHeader = true;
  std::size_t HeaderEnd = 0, Pos = 0;
  unsigned Line = 0, LastLine = 0;
  while (Pos < Text.size()) {
    std::size_t End = std::min(Text.find('\n', Pos), Text.size());
    std::string_view Body = trimBlanks(Text.substr(Pos, End - Pos));
    Pos = End + 1;
    ++Line;
    if (Body.empty() || Body.front() == '#')
      continue;
    LastLine = Line;
    if (Body == "---") {
      if (InHeader) {
        Expected<InfoFile> H = InfoFile::parse(Text.substr(0, HeaderEnd), File);
        if (!H)
          return H.error();
        Grid.Header = std::move(*H);
        InHeader = false;
      } else if (Status S = endBlock(Line); !S) {
        return S.error();
      }
      continue;
    }
    if (InHeader) {
      HeaderEnd = Pos;
      continue;
    }
    Status S = Part < 2    ? knots(Body, Line, Part == 0)
               : Part == 2 ? flavours(Body, Line)
                           : values(Body, Line);
    if (!S)
      return S.error();
    Part = std::min(Part + 1, 3u);
  }
  if (Part != 0 || ValueLines != 0)
    return Error(File + ":" + std::to_string(LastLine) +
                 ": truncated: subgrid " + std::to_string(Subgrid + 1) +
                 " does not end with '---'");
  if (InHeader || Subgrid == 0)
    return Error(File + ":" + std::to_string(Line) +
                 ": truncated: no complete subgrid (each ends with '---')");
  return std::move(Grid);
}

} // namespace

Expected<MemberGrid> parseMemberGrid(std::string_view Text,
                                     const std::string &File,
                                     const std::vector<int> &SetFlavours) {
  return GridReader(File, SetFlavours).read(Text);
}

} // namespace vf::pdf
