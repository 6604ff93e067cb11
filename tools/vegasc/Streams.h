//===- vegasc/Streams.h - vegasc's standard output and error ----*- C++ -*-===//
//
// What vegasc prints goes through outs() and errs(): std::ostreams over
// file descriptors 1 and 2 that write as LLVM's streams of the same names
// did when the tool used those, so that every byte, and where standard
// output's lines fall among standard error's in `2>&1`, stay as they
// were. Standard output is buffered (unless it is a terminal) and is not
// flushed by a write to standard error, which is unbuffered: LLVM 19
// does not tie the two. A failed write neither throws nor stops the
// stream: the error is kept for the tool to report once (takeWriteError),
// as `vegasc ... > /dev/full` must fail with a message rather than exit 0.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_STREAMS_H
#define VF_TOOLS_VEGASC_STREAMS_H

#include <iosfwd>
#include <string>

namespace vf {

/// Standard output: buffered with the file's block size, unbuffered on a
/// terminal.
std::ostream &outs();

/// Standard error, unbuffered.
std::ostream &errs();

/// A stream that discards what is written (the table of a rank other
/// than 0).
std::ostream &nulls();

/// Flushes \p S (outs() or errs()) and returns why its last failed write
/// failed ("No space left on device"), or "" when every write succeeded.
/// The error is forgotten, so that it is said once.
std::string takeWriteError(std::ostream &S);

} // namespace vf

#endif // VF_TOOLS_VEGASC_STREAMS_H
