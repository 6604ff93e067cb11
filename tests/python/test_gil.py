#===- tests/python/test_gil.py - Runs release the GIL ----------------------===#
#
# A Python thread keeps running while an integration runs: it counts loop
# turns during run(), which would stay near zero if run() held the GIL.
# A numpy integrand takes the GIL per batch only, so the thread runs during
# its integration too; and the first call of an integrand, which compiles
# its batch entry point, lets it run as well.
#
#===------------------------------------------------------------------------===#
import threading
import time

import numpy as np

import vegasflow as vf


def turns_during(work):
    """Loop turns a second thread makes while work() runs, and its time."""
    stop, turns = threading.Event(), [0]

    def spin():
        while not stop.is_set():
            turns[0] += 1
            time.sleep(0.001)
    t = threading.Thread(target=spin)
    t.start()
    start = time.perf_counter()
    try:
        work()
    finally:
        took = time.perf_counter() - start
        stop.set()
        t.join()
    return turns[0], took


def test_compiled_run_releases_the_gil(gauss):
    integ = vf.Integrator(gauss, calls=1000000, iterations=12, warmup=2,
                          devices="cpu:2")
    turns, took = turns_during(integ)
    assert took > 0.1
    # A thread sleeping 1 ms per turn makes ~1000 turns/s when free; held
    # off by the GIL it would make a handful (one per poll at most).
    assert turns > 0.2 * took * 1000 / 2


def test_numpy_run_lets_other_threads_run():
    integ = vf.Integrator(lambda x: np.cos(x).prod(axis=1), dim=3,
                          calls=200000, iterations=4, warmup=1,
                          devices="cpu:2")
    turns, took = turns_during(integ)
    assert took > 0.1 and turns > 20


def test_evaluate_runs_without_the_gil(tmp_path):
    # The integrand at many points, through the sampler's own code: other
    # threads run meanwhile.
    m = vf.compile("integrand g(x in [0, 1]^8) = prod(i in 0..8: "
                   "exp(-(x[i] - 0.5)^2 / 0.01) * sin(3 * x[i]))\n",
                   cache=False)
    x = np.random.default_rng(1).random((400000, 8))
    turns, took = turns_during(lambda: m.g(x))
    assert took > 0.02
    assert turns > 0.2 * took * 1000 / 2
    assert np.array_equal(m.g(x[:5]), m.g(x)[:5])


def test_a_call_from_another_thread_during_a_run_is_refused(gauss, tmp_path):
    """Integrator.run on one thread, then run(), result(), save_state()
    and sample() on another while it runs: each raises vegasflow.Error
    saying the integrator is busy, at once (never a wait, never a crash);
    afterwards the integrator works as before."""
    integ = vf.Integrator(gauss, calls=20000, iterations=3, warmup=0,
                          devices="cpu:1")
    inside, tried = threading.Event(), threading.Event()
    said = []

    def during(progress):
        inside.set()
        tried.wait(60)  # the run stays in progress until the other tried

    def other():
        inside.wait(60)
        for call in (integ.run, lambda: integ.result,
                     lambda: integ.save_state(str(tmp_path / "s.vfstate")),
                     lambda: integ.sample(10)):
            start = time.perf_counter()
            try:
                call()
                said.append(("no error", 0.0))
            except vf.Error as e:
                said.append((str(e), time.perf_counter() - start))
        tried.set()
    t = threading.Thread(target=other)
    t.start()
    first = integ.run(progress=during)
    t.join()
    assert len(said) == 4
    for message, took in said:
        assert "the integrator is busy" in message, message
        assert took < 5, f"refused after {took:.1f} s: it waited"
    assert len(first.iterations) == 3
    again = integ.run(iterations=1)
    assert len(again.iterations) == 4
