/*===- examples/c_api/main.c - vegasflow from C -------------------------===//
//
// The C API (vf/vf_c.h) step by step: compile an integrand from a string,
// integrate it, read the result, call it again with fresh statistics as
// vegas does, draw weighted and unweighted events, read
// a histogram, wrap a C function as a native integrand, and read an error
// message. Exits 1
// if any step fails or an estimate is more than 5 sigma off.
//
//===--------------------------------------------------------------------===*/
#include <vf/vf_c.h>

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Prints the failed call and the library's message, and exits. */
static void check(int status, const char *what) {
  if (status != VF_OK) {
    fprintf(stderr, "%s failed (status %d): %s\n", what, status,
            vf_last_error());
    exit(1);
  }
}

/* A native integrand: f(x) = 3 x0^2 on [0, 1] (integral 1). Called from
   several threads at once, each with its own x and out. */
static void cubic(const double *x, int64_t n, int32_t dim, double *out,
                  void *user) {
  (void)user;
  for (int64_t i = 0; i < n; ++i)
    out[i] = 3 * x[i * dim] * x[i * dim];
}

/* The same, cancelling the run it belongs to once (vf_cancel is the one
   call allowed while vf_run runs). */
static atomic_int cancel_once = 1;
static void cubic_cancelling(const double *x, int64_t n, int32_t dim,
                             double *out, void *user) {
  cubic(x, n, dim, out, NULL);
  if (atomic_exchange(&cancel_once, 0))
    vf_cancel(*(vf_integrator **)user);
}

int main(void) {
  /* (1) Compile Lepage's Gaussian in 4 dimensions from a string. */
  const char *source =
      "param a = 0.1\n"
      "integrand lepage(x in [0, 1]^4) =\n"
      "    prod(i in 0..4: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))\n";
  vf_module *module = NULL;
  check(vf_compile_string(source, "lepage4.vf", &module), "vf_compile_string");

  /* (2) An integrator for it: a fixed seed, two threads. */
  vf_options opts;
  vf_options_default(&opts);
  opts.seed = 2024;
  opts.threads = 2;
  vf_integrator *it = NULL;
  check(vf_integrator_create(module, "lepage", &opts, &it),
        "vf_integrator_create");

  /* (3) Integrate: 3 warm-up and 8 measured iterations of 50000 samples. */
  check(vf_run(it, 8, 50000, 3), "vf_run");
  double mean, err, chi2dof, q;
  check(vf_result(it, &mean, &err, &chi2dof, &q), "vf_result");
  printf("lepage: %.8f +- %.8f  chi2/dof %.2f  Q %.2f\n", mean, err, chi2dof,
         q);
  const double exact = 0.99999999999385016;
  int bad = fabs(mean - exact) > 5 * err;

  /* (4) The result as JSON: ask for the size, then fetch. */
  size_t needed = 0;
  vf_result_json(it, NULL, 0, &needed);
  char *json = malloc(needed);
  check(vf_result_json(it, json, needed, NULL), "vf_result_json");
  printf("json: %zu bytes\n", needed - 1);
  free(json);

  /* (4b) As each call of vegas's integrator returns its own statistics:
     restart them, keeping the trained map. The next result holds that
     run's 4 measured iterations alone (without the restart, all 12). */
  check(vf_restart_statistics(it), "vf_restart_statistics");
  check(vf_run(it, 4, 50000, 0), "vf_run");
  double mean4, err4;
  check(vf_result(it, &mean4, &err4, NULL, NULL), "vf_result");
  vf_result_json(it, NULL, 0, &needed);
  json = malloc(needed);
  check(vf_result_json(it, json, needed, NULL), "vf_result_json");
  int measured = 0;
  for (const char *p = json; (p = strstr(p, "\"warmup\": false")); ++p)
    ++measured;
  free(json);
  printf("lepage, a second call: %.8f +- %.8f over %d iterations\n", mean4,
         err4, measured);
  bad |= fabs(mean4 - exact) > 5 * err4 || measured != 4;
  bad |= vf_restart_statistics(NULL) != VF_ERR_ARGUMENT;

  /* (5) Events: freeze the trained map, then draw weighted events. */
  check(vf_freeze(it), "vf_freeze");
  enum { N = 20000, DIM = 4 };
  double *x = malloc(sizeof(double) * N * DIM), *w = malloc(sizeof(double) * N);
  check(vf_sample(it, N, x, w), "vf_sample");
  double sum = 0, sum2 = 0;
  for (int i = 0; i < N; ++i) {
    sum += w[i];
    sum2 += w[i] * w[i];
  }
  double wmean = sum / N, werr = sqrt((sum2 / N - wmean * wmean) / N);
  printf("weighted events: mean weight %.5f +- %.5f\n", wmean, werr);
  bad |= fabs(wmean - exact) > 5 * werr;

  /* (6) Unweighted events: accepted with probability w / w_max. */
  double wmax, efficiency, overshoot;
  check(vf_unweight(it, 1000, 0, x, w, &wmax, &efficiency, &overshoot),
        "vf_unweight");
  printf("unweighted events: 1000, w_max %.4f, efficiency %.3f, "
         "overshoot %.4f\n", wmax, efficiency, overshoot);
  free(x);
  free(w);
  vf_integrator_free(it);
  vf_module_free(module);

  /* (7) A histogram: dsigma/dc ~ 3/8 (1 + c^2), its bins filled on the
     samples of the integral. Bin [a, b] holds 3/8 [(b - a) + (b^3 - a^3)/3];
     the underflow and overflow are c < -0.5 and c >= 0.5. */
  check(vf_compile_string("integrand ee(x in [-1, 1]) {\n"
                          "    hist c(x, -0.5, 0.5, 4)\n"
                          "    return 3/8 * (1 + x^2)\n"
                          "}\n",
                          "ee.vf", &module),
        "vf_compile_string");
  check(vf_integrator_create(module, "ee", &opts, &it), "vf_integrator_create");
  check(vf_run(it, 5, 20000, 2), "vf_run");
  char hname[16];
  int32_t axes, bins[2];
  double range[4], values[4], errors[4], flow[2], flow_errors[2];
  check(vf_histogram_info(it, 0, hname, sizeof hname, &axes, bins, range),
        "vf_histogram_info");
  check(vf_histogram(it, 0, values, errors, flow, flow_errors),
        "vf_histogram");
  bad |= vf_histogram_count(it) != 1 || axes != 1 || bins[0] != 4;
  for (int b = 0; b < 6; ++b) {
    double lo_c = b < 4 ? range[0] + 0.25 * b : b == 4 ? -1 : 0.5;
    double hi_c = b < 4 ? lo_c + 0.25 : b == 4 ? -0.5 : 1;
    double want = 0.375 * ((hi_c - lo_c) + (pow(hi_c, 3) - pow(lo_c, 3)) / 3);
    double got = b < 4 ? values[b] : flow[b - 4];
    double e = b < 4 ? errors[b] : flow_errors[b - 4];
    printf("hist %s cell %d: %.6f +- %.6f (exact %.6f)\n", hname, b, got, e,
           want);
    bad |= fabs(got - want) > 5 * e;
  }
  vf_integrator_free(it);
  vf_module_free(module);

  /* (8) A C function as the integrand. */
  double lo[1] = {0}, hi[1] = {1};
  check(vf_integrator_create_native("cubic", 1, 1, lo, hi, cubic, NULL,
                                    &opts, &it),
        "vf_integrator_create_native");
  check(vf_run(it, 5, 20000, 1), "vf_run");
  check(vf_result(it, &mean, &err, NULL, NULL), "vf_result");
  printf("cubic: %.6f +- %.6f\n", mean, err);
  bad |= fabs(mean - 1) > 5 * err;
  vf_integrator_free(it);

  /* (8b) vf_cancel stops the run; the same vf_run then continues it to
     bitwise the uninterrupted result. */
  double full = mean;
  check(vf_integrator_create_native("cubic", 1, 1, lo, hi, cubic_cancelling,
                                    &it, &opts, &it),
        "vf_integrator_create_native");
  if (vf_run(it, 5, 20000, 1) != VF_CANCELLED) {
    fprintf(stderr, "vf_run: expected VF_CANCELLED\n");
    bad = 1;
  } else {
    printf("expected: %s\n", vf_last_error());
  }
  check(vf_run(it, 5, 20000, 1), "vf_run after vf_cancel");
  check(vf_result(it, &mean, &err, NULL, NULL), "vf_result");
  printf("cubic, cancelled and continued: %.6f +- %.6f\n", mean, err);
  bad |= mean != full;
  vf_integrator_free(it);

  /* (9) Errors come back as a status and a message. */
  if (vf_compile_string("integrand f(x in [0, 1]) = y", "bad.vf", &module) ==
      VF_ERR_COMPILE)
    printf("expected error:\n%s\n", vf_last_error());
  else
    bad = 1;
  return bad;
}
