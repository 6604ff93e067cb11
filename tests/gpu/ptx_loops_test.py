#!/usr/bin/env python3
"""bench/gpu/ptx_loops.py, the per-sample instruction count of
docs/gpu-benchmarks.md, on a small PTX kernel laid out the way LLVM lays
out the sampler's: an inner loop whose exit block has no label, a slow
path placed after the loop that branches back up (not a loop), a call
written over several lines. Then its bad inputs.

    ptx_loops_test.py SCRIPT
"""

import os
import subprocess
import sys
import tempfile

KERNEL = r"""
.visible .entry vf_sample_tiles_gpu_t(
	.param .u64 p0
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<9>;
	mov.u32 	%r1, 0;
	mov.u32 	%r2, 0;
$L__BB0_1:
	add.s32 	%r1, %r1, 1;
	setp.lt.u32 	%p1, %r1, 9;
	@%p1 bra 	$L__BB0_9;
$L__BB0_2:
	add.s32 	%r2, %r2, 1;
	setp.lt.u32 	%p2, %r2, 4;
	@%p2 bra 	$L__BB0_2;
// %bb.3:
	shfl.sync.idx.b32 	%r3, %r1, 0, 31, -1;
	{ // callseq 0, 0
	call.uni
	vf_fn,
	(
	param0
	);
	} // callseq 0
	setp.lt.u32 	%p3, %r1, 100;
	@%p3 bra 	$L__BB0_1;
	bra.uni 	$L__BB0_10;
$L__BB0_9:
	mov.u32 	%r4, 1;
	bra.uni 	$L__BB0_2;
$L__BB0_10:
	ret;
}
"""

# One loop of arithmetic in both precisions, as --precision f32 leaves a
# kernel: f64 in the sampler, f32 in the integrand, conversions between.
ARITH = """
.visible .entry vf_sample_tiles_gpu_a(
)
{
$L__BB1_1:
	cvt.rn.f32.f64 	%f1, %fd1;
	fma.rn.f32 	%f2, %f1, %f1, %f1;
	mul.rn.f32 	%f3, %f2, %f2;
	cvt.f64.f32 	%fd2, %f3;
	add.rn.f64 	%fd1, %fd1, %fd2;
	setp.lt.f64 	%p1, %fd1, 0d4000000000000000;
	@%p1 bra 	$L__BB1_1;
	ret;
}
"""

failures = []


def check(ok, what):
    print(("ok:   " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def run(script, *args):
    return subprocess.run([sys.executable, script, *args],
                          capture_output=True, text=True)


def main():
    script = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        ptx = os.path.join(d, "t.ptx")
        with open(ptx, "w") as f:
            f.write(KERNEL)
        r = run(script, ptx)
        lines = r.stdout.splitlines()
        check(r.returncode == 0, "runs on the kernel")
        check(lines[0].endswith("16 PTX instructions, 7 blocks, 2 loops"),
              "a call over five lines is one instruction; blocks end after "
              "branches: " + lines[0])
        # The outer loop owns its header (3), the inner loop's unlabelled
        # exit block (4: shuffle, call, test, branch) and the slow path
        # (2); the inner loop only its own 3; outside: entry and exit.
        check(lines[1].split()[:2] == ["$L__BB0_1", "9"] and
              "1 shfl" in lines[1] and "1 call" in lines[1],
              "the outer loop holds the inner one's exit and the slow path: "
              + lines[1])
        check(lines[2].split()[:2] == ["$L__BB0_2", "3"] and
              lines[2].startswith("    "),
              "the inner loop nests, without its exit: " + lines[2])
        check(len(lines) == 4 and lines[3].startswith("outside loops 4"),
              "the slow path's branch up is not a loop: " + " | ".join(lines))
        r = run(script, ptx, "--trips", "$L__BB0_1=1", "$L__BB0_2=4",
                "--per", "2")
        check(r.stdout.splitlines()[-1].endswith("= 10.5"),
              "weighed: (9 + 3 x 4) / 2: " + r.stdout.splitlines()[-1])
        r = run(script, ptx, "--trips", "$L__BB0_2=4")
        check(r.stdout.splitlines()[-1].endswith("= 0.0"),
              "an outermost loop not named counts not at all")
        for args, says in [
                (["--trips", "$L__BB0_7=2"], "heads no loop"),
                (["--trips", "$L__BB0_1"], "write HEADER=N"),
                (["--trips", "$L__BB0_1=-1"], "write HEADER=N"),
                (["--entry", "vf_other"], "no .entry named vf_other")]:
            r = run(script, ptx, *args)
            check(r.returncode != 0 and says in r.stderr and
                  "Traceback" not in r.stderr,
                  "bad input %s: %s" % (" ".join(args), r.stderr.strip()))
        arith = os.path.join(d, "a.ptx")
        with open(arith, "w") as f:
            f.write(ARITH)
        r = run(script, arith, "--trips", "$L__BB1_1=4", "--per", "2")
        lines = r.stdout.splitlines()
        check(len(lines) >= 2 and lines[-2].endswith(
            "/ 2: 4.0 f64 arith, 4.0 f32 arith, 4.0 cvt f32/f64"),
              "arithmetic by precision, weighed: " + " | ".join(lines))
        r = run(script, os.path.join(d, "missing.ptx"))
        check(r.returncode != 0 and "cannot read" in r.stderr,
              "a missing file: " + r.stderr.strip())
    if failures:
        print("\n%d check(s) failed" % len(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
