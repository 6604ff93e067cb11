//===- vegasc/Streams.cpp - vegasc's standard output and error ------------===//
//
// A stream buffer over a file descriptor that buffers, writes and keeps
// errors as LLVM's raw_fd_ostream does (Streams.h says why): the buffer is
// set up at the first write, the file's block size or none on a terminal;
// a write larger than the room left fills the buffer and flushes it, and
// one larger than an empty buffer goes out directly in whole buffers;
// write(2) is retried on EINTR and EAGAIN, and any other error is kept
// while later writes are still tried.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Streams.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ostream>
#include <streambuf>
#include <system_error>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace vf {

namespace {

/// Standard output or error as LLVM's raw_fd_ostream writes it.
class FdBuffer final : public std::streambuf {
public:
  FdBuffer(int Fd, bool Unbuffered) : Fd(Fd), Unbuffered(Unbuffered) {}
  FdBuffer(const FdBuffer &) = delete;
  FdBuffer &operator=(const FdBuffer &) = delete;
  /// What is left is written at exit; an error then has nowhere to go.
  ~FdBuffer() override { flushBuffer(); }

  void flushBuffer() {
    if (Used == 0)
      return;
    const std::size_t N = Used;
    Used = 0;
    writeThrough(Buf.data(), N);
  }

  std::string takeError() {
    flushBuffer();
    if (LastErrno == 0)
      return "";
    std::string Why =
        std::error_code(LastErrno, std::generic_category()).message();
    LastErrno = 0;
    return Why;
  }

protected:
  std::streamsize xsputn(const char *S, std::streamsize N) override {
    write(S, std::size_t(N));
    return N;
  }
  int_type overflow(int_type C) override {
    if (traits_type::eq_int_type(C, traits_type::eof()))
      return traits_type::not_eof(C);
    const char Ch = traits_type::to_char_type(C);
    write(&Ch, 1);
    return C;
  }
  int sync() override {
    flushBuffer();
    return 0;
  }

private:
  void write(const char *P, std::size_t N) {
    if (N == 0)
      return;
    if (Unbuffered)
      return writeThrough(P, N);
    if (Buf.empty()) {
      setUpBuffer();
      return write(P, N);
    }
    const std::size_t Room = Buf.size() - Used;
    if (N <= Room) {
      std::memcpy(Buf.data() + Used, P, N);
      Used += N;
      return;
    }
    if (Used == 0) {
      const std::size_t Whole = N - N % Buf.size();
      writeThrough(P, Whole);
      return write(P + Whole, N - Whole);
    }
    std::memcpy(Buf.data() + Used, P, Room);
    Used += Room;
    flushBuffer();
    write(P + Room, N - Room);
  }

  /// The file's block size; no buffer on a terminal, where each line is
  /// wanted as it is printed, or when the file cannot be examined.
  void setUpBuffer() {
    struct stat St;
    if (::fstat(Fd, &St) != 0 || St.st_blksize <= 0 ||
        (S_ISCHR(St.st_mode) && ::isatty(Fd))) {
      Unbuffered = true;
      return;
    }
    Buf.resize(std::size_t(St.st_blksize));
  }

  void writeThrough(const char *P, std::size_t N) {
    // Linux refuses single writes much over 2 GiB.
    constexpr std::size_t MaxChunk = std::size_t(1) << 30;
    while (N > 0) {
      const ssize_t Done = ::write(Fd, P, std::min(N, MaxChunk));
      if (Done < 0) {
        if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
          continue;
        LastErrno = errno;
        return;
      }
      P += Done;
      N -= std::size_t(Done);
    }
  }

  int Fd;
  bool Unbuffered;
  std::vector<char> Buf;
  std::size_t Used = 0;
  int LastErrno = 0;
};

FdBuffer &outBuffer() {
  static FdBuffer B(STDOUT_FILENO, /*Unbuffered=*/false);
  return B;
}

FdBuffer &errBuffer() {
  static FdBuffer B(STDERR_FILENO, /*Unbuffered=*/true);
  return B;
}

} // namespace

std::ostream &outs() {
  static std::ostream S(&outBuffer());
  return S;
}

std::ostream &errs() {
  static std::ostream S(&errBuffer());
  return S;
}

std::ostream &nulls() {
  // Without a buffer the stream is bad from the start, and a bad stream
  // writes nothing.
  static std::ostream S(nullptr);
  return S;
}

std::string takeWriteError(std::ostream &S) {
  if (&S == &outs())
    return outBuffer().takeError();
  if (&S == &errs())
    return errBuffer().takeError();
  return "";
}

} // namespace vf
