//===- runtime/pdf/SetIdentity.cpp - What a compiled program read ---------===//
//
// SetIdentity.h's lines, from std::filesystem (no file is opened).
//
//===----------------------------------------------------------------------===//
#include "pdf/SetIdentity.h"

#include <filesystem>
#include <system_error>

namespace vf::pdf {

namespace {

Status appendFile(const std::string &File, std::string &Out) {
  namespace fs = std::filesystem;
  std::error_code Ec;
  const std::uintmax_t Size = fs::file_size(File, Ec);
  if (Ec)
    return Error(File + ": no such file");
  const fs::file_time_type When = fs::last_write_time(File, Ec);
  if (Ec)
    return Error(File + ": " + Ec.message());
  Out += File + "\t" + std::to_string(Size) + "\t" +
         std::to_string(When.time_since_epoch().count()) + "\n";
  return Status::ok();
}

} // namespace

Expected<std::string> setIdentity(const SetLocation &Where,
                                  unsigned NumMembers) {
  std::string Out;
  if (Status S = appendFile(Where.infoFile(), Out); !S)
    return S.error();
  for (unsigned M = 0; M < NumMembers; ++M)
    if (Status S = appendFile(Where.memberFile(M), Out); !S)
      return S.error();
  return Out;
}

} // namespace vf::pdf
