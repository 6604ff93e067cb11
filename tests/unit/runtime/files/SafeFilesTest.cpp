//===- tests/unit/runtime/files/SafeFilesTest.cpp - Safe reads, writes ----===//
//
// readRegularFile refuses what is not a regular file (FIFO, device,
// directory) without blocking and bounds what it reads;
// writeFileAtomically replaces only regular files, leaves the old contents
// when it fails, and removes temporaries of writers that were killed;
// AtomicFile, written in pieces, appears whole or not at all.
//
//===----------------------------------------------------------------------===//

#include "files/SafeFiles.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace vf;

namespace {

struct TempDir {
  std::string Path;
  TempDir() {
    char T[] = "/tmp/vf-safefiles-XXXXXX";
    Path = ::mkdtemp(T);
  }
  ~TempDir() { std::system(("rm -rf '" + Path + "'").c_str()); }
  std::string operator/(const std::string &Name) const {
    return Path + "/" + Name;
  }
};

std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(In)),
                     std::istreambuf_iterator<char>());
}

TEST(SafeFilesTest, ReadsARegularFile) {
  TempDir D;
  std::ofstream(D / "a") << "hello";
  Expected<std::string> R = readRegularFile(D / "a", 100, "the file");
  ASSERT_TRUE(R) << R.message();
  EXPECT_EQ(*R, "hello");
}

TEST(SafeFilesTest, RefusesWhatIsNotARegularFile) {
  TempDir D;
  ASSERT_EQ(::mkfifo((D / "fifo").c_str(), 0600), 0);
  for (const std::string &P : {D / "fifo", std::string("/dev/zero"), D.Path}) {
    Expected<std::string> R = readRegularFile(P, 1 << 20, "the grid");
    ASSERT_FALSE(R) << P;
    EXPECT_NE(R.message().find("the grid '" + P + "' is a"), std::string::npos)
        << R.message();
  }
}

TEST(SafeFilesTest, BoundsTheSize) {
  TempDir D;
  std::ofstream(D / "big") << std::string(1000, 'x');
  Expected<std::string> R = readRegularFile(D / "big", 999, "the source");
  ASSERT_FALSE(R);
  EXPECT_NE(R.message().find("1000 bytes, more than the 999"),
            std::string::npos)
      << R.message();
}

TEST(SafeFilesTest, WritesAtomicallyOverARegularFile) {
  TempDir D;
  std::ofstream(D / "out.json") << "old";
  ASSERT_TRUE(writeFileAtomically(D / "out.json", "new", "the JSON"));
  EXPECT_EQ(slurp(D / "out.json"), "new");
  EXPECT_FALSE(::access(temporaryFor(D / "out.json").c_str(), F_OK) == 0);
}

/// A device or FIFO named as an output is refused and stays what it was
/// (it used to be replaced by a regular file: issue #14, /dev/full).
TEST(SafeFilesTest, NeverReplacesADeviceOrFifo) {
  TempDir D;
  ASSERT_EQ(::mkfifo((D / "fifo").c_str(), 0600), 0);
  for (const std::string &P : {D / "fifo", std::string("/dev/full"), D.Path}) {
    Status S = writeFileAtomically(P, "x", "the checkpoint");
    ASSERT_FALSE(S) << P;
    EXPECT_NE(S.message().find("outputs replace only regular files"),
              std::string::npos)
        << S.message();
  }
  struct stat St;
  ASSERT_EQ(::stat((D / "fifo").c_str(), &St), 0);
  EXPECT_TRUE(S_ISFIFO(St.st_mode));
  ASSERT_EQ(::stat("/dev/full", &St), 0);
  EXPECT_TRUE(S_ISCHR(St.st_mode));
}

/// A write that fails half-way (here the file-size limit, as a full disk
/// would) leaves the old file whole and no temporary (it used to truncate
/// an existing JSON to an invalid 8 KiB).
TEST(SafeFilesTest, AFailedWriteKeepsTheOldFile) {
  TempDir D;
  const std::string Old(100, 'o');
  std::ofstream(D / "keep") << Old;
  pid_t Child = ::fork();
  if (Child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit L = {4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &L);
    Status S = writeFileAtomically(D / "keep", std::string(1 << 20, 'n'),
                                   "the CSV");
    ::_exit(!S && S.message().find("cannot write the CSV") == 0 ? 0 : 1);
  }
  int Wait = 0;
  ::waitpid(Child, &Wait, 0);
  EXPECT_TRUE(WIFEXITED(Wait) && WEXITSTATUS(Wait) == 0);
  EXPECT_EQ(slurp(D / "keep"), Old);
  EXPECT_NE(::access((D / "keep.tmp." + std::to_string(Child)).c_str(), F_OK),
            0);
}

/// The temporary of a writer killed before its rename is removed by the
/// next writer of the same path; one of a live process is left alone.
TEST(SafeFilesTest, RemovesTemporariesOfDeadWriters) {
  TempDir D;
  const std::string Out = D / "state.vfstate";
  pid_t Child = ::fork();
  if (Child == 0)
    ::_exit(0);
  ::waitpid(Child, nullptr, 0);
  const std::string Dead = Out + ".tmp." + std::to_string(Child);
  const std::string Live = Out + ".tmp." + std::to_string(::getppid());
  std::ofstream(Dead) << "left by kill -9";
  std::ofstream(Live) << "being written";
  ASSERT_TRUE(writeFileAtomically(Out, "state", "the checkpoint"));
  EXPECT_NE(::access(Dead.c_str(), F_OK), 0);
  EXPECT_EQ(::access(Live.c_str(), F_OK), 0);
  EXPECT_EQ(slurp(Out), "state");
}

/// An AtomicFile written in pieces appears whole at commit(), not before;
/// one dropped before commit() leaves the old file and no temporary.
TEST(SafeFilesTest, AtomicFileAppearsWholeOrNotAtAll) {
  TempDir D;
  std::ofstream(D / "ev.lhe") << "old events";
  {
    Expected<AtomicFile> F = AtomicFile::create(D / "ev.lhe", "the events");
    ASSERT_TRUE(F) << F.message();
    ASSERT_TRUE(F->write("<LesHouchesEvents>\n"));
    EXPECT_EQ(slurp(D / "ev.lhe"), "old events");
  } // dropped: an error after the first event, say
  EXPECT_EQ(slurp(D / "ev.lhe"), "old events");
  EXPECT_NE(
      ::access((D / "ev.lhe.tmp." + std::to_string(::getpid())).c_str(), F_OK),
      0);
  Expected<AtomicFile> F = AtomicFile::create(D / "ev.lhe", "the events");
  ASSERT_TRUE(F) << F.message();
  for (int K = 0; K < 1000; ++K)
    ASSERT_TRUE(F->write("<event>\n"));
  ASSERT_TRUE(F->commit());
  EXPECT_EQ(slurp(D / "ev.lhe").size(), 8000u);
}

/// A write that fails half way (the file size limit standing in for a
/// full disk) is an error, sticks, and removes the temporary.
TEST(SafeFilesTest, AtomicFileFailsWholeWhenAPieceFails) {
  TempDir D;
  pid_t Child = ::fork();
  if (Child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit L = {65536, 65536};
    ::setrlimit(RLIMIT_FSIZE, &L);
    Expected<AtomicFile> F = AtomicFile::create(D / "ev.lhe", "the events");
    if (!F)
      ::_exit(2);
    Status Last = Status::ok();
    for (int K = 0; K < 100 && Last; ++K)
      Last = F->write(std::string(4096, 'e'));
    const bool Sticks = !F->write("more") && !F->commit();
    ::_exit(!Last && Last.message().find("cannot write the events") == 0 &&
                    Sticks
                ? 0
                : 1);
  }
  int Wait = 0;
  ::waitpid(Child, &Wait, 0);
  EXPECT_TRUE(WIFEXITED(Wait) && WEXITSTATUS(Wait) == 0);
  EXPECT_NE(::access((D / "ev.lhe").c_str(), F_OK), 0);
  EXPECT_NE(::access((D / "ev.lhe.tmp." + std::to_string(Child)).c_str(), F_OK),
            0);
}

} // namespace
