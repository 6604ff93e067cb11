#!/usr/bin/env python3
"""Runs a command and succeeds only if it exits with the expected status.

Usage: expect_exit.py STATUS COMMAND [ARGS...]
lit's internal shell has no `$?`; `not` cannot tell 1 from 2.
"""
import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.run(sys.argv[2:]).returncode
if status != expected:
    print(f"expect_exit.py: expected exit status {expected}, got {status}",
          file=sys.stderr)
    sys.exit(1)
