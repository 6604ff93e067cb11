//===- runtime/pdf/InfoFile.cpp - LHAPDF metadata (a YAML subset) ---------===//
//
// The line-oriented reader of InfoFile.h: keys at column 0, scalars and
// flow lists, comments and continuation lines. It is deliberately not a
// YAML parser: a construct LHAPDF's sets do not use (block lists, anchors,
// nested maps) is an error, not a guess.
//
//===----------------------------------------------------------------------===//
#include "pdf/InfoFile.h"

#include "pdf/Numbers.h"

namespace vf::pdf {

namespace {

/// \p Line without a comment; a '#' inside quotes is text.
std::string_view stripComment(std::string_view Line) {
  char Quote = 0;
  for (std::size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (Quote) {
      Quote = C == Quote ? 0 : Quote;
    } else if (C == '"' || C == '\'') {
      Quote = C;
    } else if (C == '#') {
      return Line.substr(0, I);
    }
  }
  return Line;
}

std::string unquote(std::string_view Value) {
  Value = trimBlanks(Value);
  if (Value.size() >= 2 && (Value.front() == '"' || Value.front() == '\'') &&
      Value.back() == Value.front())
    Value = Value.substr(1, Value.size() - 2);
  return std::string(Value);
}

/// Splits the inside of a flow list at commas.
std::vector<std::string> listItems(std::string_view Inside) {
  std::vector<std::string> Items;
  std::size_t Start = 0;
  for (std::size_t I = 0; I <= Inside.size(); ++I) {
    if (I == Inside.size() || Inside[I] == ',') {
      std::string Item = unquote(Inside.substr(Start, I - Start));
      if (!Item.empty())
        Items.push_back(std::move(Item));
      Start = I + 1;
    }
  }
  return Items;
}

} // namespace

Expected<InfoFile> InfoFile::parse(std::string_view Text, std::string File,
                                   unsigned FirstLine) {
  InfoFile Info;
  Info.File = std::move(File);
  auto At = [&](unsigned Line) {
    return Info.File + ":" + std::to_string(Line) + ": ";
  };
  InfoEntry *Last = nullptr;
  std::string OpenList; // the text of a flow list not closed yet
  unsigned Line = FirstLine - 1;
  std::size_t Pos = 0;
  while (Pos <= Text.size()) {
    std::size_t End = Text.find('\n', Pos);
    if (End == std::string_view::npos)
      End = Text.size();
    std::string_view Raw = Text.substr(Pos, End - Pos);
    Pos = End + 1;
    ++Line;
    std::string_view Body = trimBlanks(stripComment(Raw));
    if (Body.empty())
      continue;
    if (Last && Last->IsList && !OpenList.empty()) {
      // YAML indents a flow list's continuation lines.
      if (Raw.front() != ' ' && Raw.front() != '\t')
        return Error(At(Last->Line) + "the list is not closed with ']'");
      OpenList += Body;
      if (OpenList.back() == ']') {
        Last->Items = listItems(
            std::string_view(OpenList).substr(1, OpenList.size() - 2));
        OpenList.clear();
      }
      continue;
    }
    if (Raw.front() == ' ' || Raw.front() == '\t') {
      if (!Last || Last->IsList)
        return Error(At(Line) + "unexpected indented line");
      if (Body == "-" || Body.substr(0, 2) == "- ")
        return Error(At(Line) + "a block list is not part of LHAPDF's "
                                "metadata (write [a, b])");
      Last->Text += (Last->Text.empty() ? "" : " ") + unquote(Body);
      continue;
    }
    std::size_t Colon = Body.find(':');
    if (Colon == std::string_view::npos || Colon == 0)
      return Error(At(Line) + "expected 'Key: value'");
    std::string Key(trimBlanks(Body.substr(0, Colon)));
    std::string_view Value = trimBlanks(Body.substr(Colon + 1));
    InfoEntry Entry;
    Entry.File = Info.File;
    Entry.Line = Line;
    if (!Value.empty() && Value.front() == '[') {
      Entry.IsList = true;
      if (Value.back() == ']')
        Entry.Items = listItems(Value.substr(1, Value.size() - 2));
      else
        OpenList = std::string(Value);
    } else if (!Value.empty() &&
               (Value.front() == '{' || Value.front() == '&' || Value == "-" ||
                Value.substr(0, 2) == "- " || Value == "|" || Value == ">")) {
      return Error(At(Line) + "'" + Key +
                   "': this YAML form is not part of LHAPDF's metadata");
    } else {
      Entry.Text = unquote(Value);
    }
    Info.Entries[Key] = std::move(Entry);
    Last = &Info.Entries[Key];
  }
  if (!OpenList.empty())
    return Error(At(Last->Line) + "the list is not closed with ']'");
  return Info;
}

Error InfoFile::missing(const std::string &Key) const {
  return Error(File + ": no '" + Key + "' entry");
}

std::string InfoFile::where(const std::string &Key) const {
  auto It = Entries.find(Key);
  if (It == Entries.end())
    return File;
  return It->second.File + ":" + std::to_string(It->second.Line);
}

Expected<std::string> InfoFile::text(const std::string &Key) const {
  auto It = Entries.find(Key);
  if (It == Entries.end())
    return missing(Key);
  if (It->second.IsList)
    return Error(where(Key) + ": '" + Key + "' is a list, not a value");
  return It->second.Text;
}

std::string InfoFile::textOr(const std::string &Key,
                             const std::string &Default) const {
  auto It = Entries.find(Key);
  return It == Entries.end() || It->second.IsList ? Default : It->second.Text;
}

Expected<double> InfoFile::number(const std::string &Key) const {
  Expected<std::string> T = text(Key);
  if (!T)
    return T.error();
  double V;
  if (!parseDouble(*T, V))
    return Error(where(Key) + ": '" + Key + "' is not a number: '" + *T + "'");
  return V;
}

Expected<long> InfoFile::integer(const std::string &Key) const {
  Expected<std::string> T = text(Key);
  if (!T)
    return T.error();
  long V;
  if (!parseInt(*T, V))
    return Error(where(Key) + ": '" + Key + "' is not an integer: '" + *T +
                 "'");
  return V;
}

namespace {

/// The items of list \p E, each parsed by \p Parse.
template <typename T, typename ParseFn>
Expected<std::vector<T>> parseItems(const InfoEntry &E, const std::string &Key,
                                    const std::string &Where, ParseFn Parse,
                                    const char *Kind) {
  std::vector<T> Out;
  for (const std::string &Item : E.Items) {
    T V;
    if (!Parse(Item, V))
      return Error(Where + ": '" + Key + "' holds '" + Item + "', not " + Kind);
    Out.push_back(V);
  }
  return Out;
}

} // namespace

Expected<const InfoEntry *> InfoFile::list(const std::string &Key) const {
  auto It = Entries.find(Key);
  if (It == Entries.end())
    return missing(Key);
  if (!It->second.IsList)
    return Error(where(Key) + ": '" + Key + "' is not a list");
  return &It->second;
}

Expected<std::vector<double>> InfoFile::numbers(const std::string &Key) const {
  Expected<const InfoEntry *> E = list(Key);
  if (!E)
    return E.error();
  return parseItems<double>(**E, Key, where(Key), parseDouble, "a number");
}

Expected<std::vector<long>> InfoFile::integers(const std::string &Key) const {
  Expected<const InfoEntry *> E = list(Key);
  if (!E)
    return E.error();
  return parseItems<long>(**E, Key, where(Key), parseInt, "an integer");
}

void InfoFile::overrideWith(const InfoFile &Member) {
  for (const auto &[Key, Entry] : Member.Entries)
    Entries[Key] = Entry;
}

} // namespace vf::pdf
