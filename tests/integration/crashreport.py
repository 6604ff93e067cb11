#!/usr/bin/env python3
#===- tests/integration/crashreport.py - A crash says where -----------------===#
#
# Usage: crashreport.py VEGASC
#
# A crash of vegasc prints a stack dump with function names to standard
# error (LLVM's error-signal handler, installed first thing in main), so
# that a report of a rare one says where it happened. A SIGSEGV sent to a
# running integration stands in for the crash; without the handler the
# process would die silently.
#
#===----------------------------------------------------------------------===#
import signal
import subprocess
import sys
import time

from vftest import check, finish, write_source


def main():
    exe = sys.argv[1]
    src = write_source("crash", "integrand f(x in [0, 1]^2) = x[0] * x[1]\n")
    p = subprocess.Popen([exe, src, "--devices", "cpu:1", "--calls", "1e7",
                          "--iterations", "1000", "-q", "--no-cache"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(1.0)
    still_running = p.poll() is None
    p.send_signal(signal.SIGSEGV)
    time.sleep(1.0)
    # A signal sent from outside does not fault again once the report is
    # printed, so the run is ended here.
    if p.poll() is None:
        p.kill()
    err = p.communicate(timeout=60)[1]
    check(still_running, "the run was under way when the signal came")
    # The thread that took the signal prints its stack (a worker's or the
    # main thread's), symbolized from vegasc's own symbol table.
    frames = [l for l in err.splitlines() if l.lstrip().startswith("#")]
    check(len(frames) >= 4 and "PrintStackTrace" in frames[0] and
          any("vegasc+" in l for l in frames),
          f"the crash printed a stack with function names ({err[:300]!r})")
    finish()


if __name__ == "__main__":
    main()
