#!/usr/bin/env python3
#===- tests/integration/crashreport.py - A crash says where -----------------===#
#
# Usage: crashreport.py VEGASC
#
# A crash of vegasc prints a stack dump to standard error (LLVM's
# error-signal handler, installed first thing in main), with function
# names where llvm-symbolizer is on the PATH and as addresses in vegasc
# otherwise, so that a report of a rare one says where it happened. A SIGSEGV sent to a
# running integration stands in for the crash; without the handler the
# process would die silently.
#
#===----------------------------------------------------------------------===#
import re
import signal
import subprocess
import sys
import threading
import time

from vftest import check, finish, write_source


def main():
    exe = sys.argv[1]
    src = write_source("crash", "integrand f(x in [0, 1]^2) = x[0] * x[1]\n")
    # Long enough that the run outlives the report (the thread that takes
    # the signal prints it while the others go on; symbolizing it can take
    # seconds); ended once the report is complete.
    p = subprocess.Popen([exe, src, "--devices", "cpu:1", "--calls", "1e6",
                          "--iterations", "100000", "-q", "--no-cache"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(p.stderr))
    reader.start()
    time.sleep(1.0)
    still_running = p.poll() is None
    p.send_signal(signal.SIGSEGV)
    # A signal sent from outside does not fault again once the report is
    # printed, so the run goes on: wait until standard error has been
    # quiet for 3 s (at most a minute), then end it.
    deadline, seen, quiet_since = time.time() + 60, -1, time.time()
    while time.time() < deadline and time.time() - quiet_since < 3:
        if len(lines) != seen:
            seen, quiet_since = len(lines), time.time()
        time.sleep(0.1)
    p.kill()
    p.wait()
    reader.join()
    err = "".join(lines)
    check(still_running, "the run was under way when the signal came")
    # The thread that took the signal prints its stack: "#0 0x... name
    # (vegasc+0x...)" symbolized, "0 vegasc 0x..." without a symbolizer.
    # Only the first frames are certain: where the signal lands in JIT'd
    # code, walking its frames can end the dump early. Under the asan
    # preset the first is the sanitizer's interceptor of backtrace().
    frames = [l for l in err.splitlines()
              if re.match(r"\s*#?\d+\s+\S.*0x[0-9a-f]+", l)]
    check(len(frames) >= 2 and any("vegasc" in f for f in frames[:2]),
          f"the crash printed a stack dump ({err[:300]!r})")
    finish()


if __name__ == "__main__":
    main()
