//===- runtime/files/SafeFiles.cpp - Reading and writing files safely -----===//
//
// POSIX underneath: the checks must look at the descriptor actually opened
// (a path checked, then opened, may have changed in between), and a FIFO
// must be opened with O_NONBLOCK to be looked at without blocking.
//
//===----------------------------------------------------------------------===//

#include "files/SafeFiles.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vf {

namespace {

std::string quoted(const std::string &Path) { return "'" + Path + "'"; }

std::string sysError(const std::string &What, const std::string &Path) {
  return "cannot " + What + " " + quoted(Path) + ": " + std::strerror(errno);
}

/// "a FIFO", "a directory", ... for a file that is not regular.
std::string kindOf(mode_t Mode) {
  if (S_ISDIR(Mode))
    return "a directory";
  if (S_ISFIFO(Mode))
    return "a FIFO";
  if (S_ISCHR(Mode) || S_ISBLK(Mode))
    return "a device";
  if (S_ISSOCK(Mode))
    return "a socket";
  return "not a regular file";
}

std::string folderOf(const std::string &Path) {
  std::size_t Slash = Path.find_last_of('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash + 1);
}

/// Closes a descriptor on every path out.
struct Fd {
  int N = -1;
  ~Fd() {
    if (N >= 0)
      ::close(N);
  }
};

} // namespace

Expected<std::string> readRegularFile(const std::string &Path,
                                      std::uint64_t MaxBytes,
                                      const std::string &What) {
  if (Path.empty())
    return Error{What + ": the path is empty"};
  Fd F{::open(Path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (F.N < 0)
    return Error{sysError("read " + What, Path)};
  struct stat St;
  if (::fstat(F.N, &St) != 0)
    return Error{sysError("read " + What, Path)};
  if (!S_ISREG(St.st_mode))
    return Error{What + " " + quoted(Path) + " is " + kindOf(St.st_mode) +
                 ", not a regular file"};
  if (std::uint64_t(St.st_size) > MaxBytes)
    return Error{What + " " + quoted(Path) + " is " +
                 std::to_string(St.st_size) + " bytes, more than the " +
                 std::to_string(MaxBytes) + " such a file can be"};
  std::string Data;
  Data.resize(std::size_t(St.st_size));
  std::size_t Done = 0;
  // A file that grows while it is read is cut at its size when opened.
  while (Done < Data.size()) {
    ssize_t N = ::read(F.N, Data.data() + Done, Data.size() - Done);
    if (N < 0 && (errno == EINTR || errno == EAGAIN))
      continue;
    if (N < 0)
      return Error{sysError("read " + What, Path)};
    if (N == 0)
      break;
    Done += std::size_t(N);
  }
  Data.resize(Done);
  return Data;
}

Status checkWritable(const std::string &Path, const std::string &What) {
  if (Path.empty())
    return Error{What + ": the path is empty"};
  struct stat St;
  if (::stat(Path.c_str(), &St) == 0 && !S_ISREG(St.st_mode))
    return Error{"cannot write " + What + " " + quoted(Path) + ": it is " +
                 kindOf(St.st_mode) +
                 "; outputs replace only regular files, name a file"};
  const std::string Dir = folderOf(Path);
  if (::access(Dir.c_str(), W_OK | X_OK) != 0)
    return Error{sysError("write " + What + " in", Dir)};
  return Status::ok();
}

std::string temporaryFor(const std::string &Path) {
  return Path + ".tmp." + std::to_string(::getpid());
}

void removeStaleTemporaries(const std::string &Path) {
  const std::string Dir = folderOf(Path);
  const std::string Base = Path.substr(Path.find_last_of('/') + 1) + ".tmp.";
  DIR *D = ::opendir(Dir.c_str());
  if (!D)
    return;
  while (struct dirent *E = ::readdir(D)) {
    std::string Name = E->d_name;
    if (Name.compare(0, Base.size(), Base) != 0 || Name.size() == Base.size())
      continue;
    const std::string Pid = Name.substr(Base.size());
    if (Pid.find_first_not_of("0123456789") != std::string::npos ||
        Pid.size() > 9)
      continue;
    // Only a temporary whose writer is gone: another running process may
    // be writing its own right now.
    const pid_t P = pid_t(std::stol(Pid));
    if (P == ::getpid() || ::kill(P, 0) == 0 || errno != ESRCH)
      continue;
    const std::string Full = Dir + (Dir.back() == '/' ? "" : "/") + Name;
    struct stat St;
    if (::lstat(Full.c_str(), &St) == 0 && S_ISREG(St.st_mode))
      ::unlink(Full.c_str());
  }
  ::closedir(D);
}

Expected<AtomicFile> AtomicFile::create(const std::string &Path,
                                        const std::string &What) {
  if (Status S = checkWritable(Path, What); !S)
    return S.error();
  removeStaleTemporaries(Path);
  const std::string Tmp = temporaryFor(Path);
  // O_EXCL: never through a symlink or a file someone placed at that name.
  ::unlink(Tmp.c_str());
  int F = ::open(Tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (F < 0)
    return Error{sysError("write " + What, Path)};
  return AtomicFile(Path, What, F);
}

AtomicFile::AtomicFile(std::string Path, std::string What, int Fd)
    : Path(std::move(Path)), What(std::move(What)), Fd(Fd) {
  Tmp = temporaryFor(this->Path);
}

AtomicFile::AtomicFile(AtomicFile &&O) noexcept
    : Path(std::move(O.Path)), What(std::move(O.What)), Tmp(std::move(O.Tmp)),
      Fd(O.Fd), Committed(O.Committed), Failure(std::move(O.Failure)) {
  O.Fd = -1;
  O.Committed = true; // the moved-from object owns no temporary
}

AtomicFile::~AtomicFile() {
  if (Fd >= 0)
    ::close(Fd);
  if (!Committed)
    ::unlink(Tmp.c_str());
}

Status AtomicFile::failed(const std::string &Verb) {
  Failure = sysError(Verb + " " + What, Path);
  if (Fd >= 0)
    ::close(Fd);
  Fd = -1;
  ::unlink(Tmp.c_str());
  return Error{Failure};
}

Status AtomicFile::write(std::string_view Data) {
  if (!Failure.empty())
    return Error{Failure};
  if (Fd < 0)
    return Error{"cannot write " + What + " '" + Path + "': it is closed"};
  std::size_t Done = 0;
  while (Done < Data.size()) {
    ssize_t N = ::write(Fd, Data.data() + Done, Data.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      if (N == 0)
        errno = ENOSPC;
      return failed("write");
    }
    Done += std::size_t(N);
  }
  return Status::ok();
}

Status AtomicFile::commit() {
  if (!Failure.empty())
    return Error{Failure};
  if (Fd < 0)
    return Error{"cannot write " + What + " '" + Path + "': it is closed"};
  if (::fsync(Fd) != 0)
    return failed("write");
  const int Closing = Fd;
  Fd = -1;
  if (::close(Closing) != 0)
    return failed("write");
  if (::rename(Tmp.c_str(), Path.c_str()) != 0)
    return failed("replace");
  Committed = true;
  if (int D = ::open(folderOf(Path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      D >= 0) {
    ::fsync(D); // Best effort: the rename itself has happened.
    ::close(D);
  }
  return Status::ok();
}

Status writeFileAtomically(const std::string &Path, std::string_view Data,
                           const std::string &What) {
  Expected<AtomicFile> F = AtomicFile::create(Path, What);
  if (!F)
    return F.error();
  if (Status S = F->write(Data); !S)
    return S;
  return F->commit();
}

} // namespace vf
