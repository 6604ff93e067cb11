/*===- vf/vf_c.h - vegasflow's C API ----------------------------*- C -*-===//
//
// For generators written in C or Fortran: compile a .vf integrand (or wrap a
// C callback), integrate it with VEGAS+, read the result, then freeze and
// draw events. Opaque handles; every function that can fail returns an int
// status (VF_OK = 0) and leaves a message for vf_last_error(). All buffers
// are the caller's. Only C types (int, double, int64_t, char *) cross, so
// Fortran binds each function with iso_c_binding (docs/user-guide.md, "The
// library").
//
//   vf_module *m; vf_integrator *it; double mean, err;
//   if (vf_compile_file("lepage.vf", &m) != VF_OK) {
//     fprintf(stderr, "%s\n", vf_last_error()); return 1;
//   }
//   vf_integrator_create(m, "lepage", NULL, &it);
//   vf_run(it, 10, 100000, 3);
//   vf_result(it, &mean, &err, NULL, NULL);
//   vf_integrator_free(it); vf_module_free(m);
//
// Thread safety: handles may be used from any thread, one call at a time
// per handle, except vf_cancel, which may be called while vf_run runs.
// vf_last_error() is per thread.
//
//===--------------------------------------------------------------------===*/
#ifndef VF_VF_C_H
#define VF_VF_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
enum {
  VF_OK = 0,
  VF_ERR_ARGUMENT = 1, /* a NULL handle, an unknown name, a bad value */
  VF_ERR_COMPILE = 2,  /* the .vf source has errors (the message shows them) */
  VF_ERR_RUN = 3,      /* integration or sampling failed (non-finite value) */
  VF_ERR_STATE = 4,    /* not now: e.g. sampling before training + freeze,
                          or a call on an integrator another thread's call
                          is using (one call at a time per integrator:
                          never a wait; vf_cancel is always allowed) */
  VF_ERR_BUFFER = 5,   /* a caller's buffer is too small */
  VF_CANCELLED = 6     /* vf_run stopped by vf_cancel (iterations kept) */
};

typedef struct vf_module vf_module;
typedef struct vf_integrator vf_integrator;

/* Integration options; vf_options_default fills the library's defaults.
   Laid out without padding, in the order of a Fortran bind(C) type. */
typedef struct vf_options {
  uint64_t seed;       /* Philox seed (1) */
  uint64_t max_hcube;  /* cap on hypercubes (1000000) */
  double alpha;        /* map damping (0.5; 0 freezes the map) */
  double beta;         /* stratification exponent (0.75; 0 classic VEGAS) */
  int32_t max_ninc;    /* most map increments per axis (1000) */
  int32_t threads;     /* CPU threads (0: all) */
  int32_t nonfinite_zero; /* 1: count NaN/inf values as 0; 0: stop (0) */
  int32_t precision;      /* the samples' arithmetic: 64 (f64) or 32 (f32); 0
                             is 64, so a zeroed struct keeps double (64) */
} vf_options;

/* The message of this thread's last failed call ("" if none). Valid until
   this thread's next failing call. */
const char *vf_last_error(void);
/* Copies it, NUL-terminated and truncated to `size` bytes (for Fortran);
   returns its full length. */
size_t vf_copy_last_error(char *buf, size_t size);

/* vegasflow's version, "MAJOR.MINOR.PATCH". */
const char *vf_version(void);

/* --- Modules -------------------------------------------------------------*/
/* Compiles a .vf file or a string (`name` labels diagnostics; may be NULL).
   Uses the on-disk cache ($VF_CACHE_DIR or ~/.cache/vegasflow). */
int vf_compile_file(const char *path, vf_module **out);
int vf_compile_string(const char *source, const char *name, vf_module **out);
/* vf_compile_file with the PDF sets of pdf items replaced: `count`
   strings "NAME=SET" (a set name, searched as LHAPDF searches, or the
   set's folder). VF_ERR_ARGUMENT for a string without '=' (naming it);
   VF_ERR_COMPILE for a NAME that is no pdf item or a SET not found. */
int vf_compile_file_pdf_sets(const char *path, const char *const *sets,
                             int32_t count, vf_module **out);
void vf_module_free(vf_module *m);
/* Integrands in source order: their count, and the name of number `index`
   copied into buf (returns VF_ERR_BUFFER if it does not fit). */
int vf_module_integrand_count(const vf_module *m);
int vf_module_integrand_name(const vf_module *m, int index, char *buf,
                             size_t size);

/* --- Integrators ---------------------------------------------------------*/
void vf_options_default(vf_options *o);
/* Integrand `name` of m ("" or NULL: the only one) with options o (NULL:
   defaults). The integrator keeps what it needs of m alive. */
int vf_integrator_create(const vf_module *m, const char *name,
                         const vf_options *o, vf_integrator **out);

/* A native integrand: f(x, n, dim, out, user) fills out[i * outputs + c]
   for the n points x[i * dim + d]. Called concurrently from several
   threads with disjoint buffers (see vf/Native.h); must not longjmp. */
typedef void (*vf_native_fn)(const double *x, int64_t n, int32_t dim,
                             double *out, void *user);
int vf_integrator_create_native(const char *name, int32_t dim,
                                int32_t outputs, const double *lo,
                                const double *hi, vf_native_fn f, void *user,
                                const vf_options *o, vf_integrator **out);
void vf_integrator_free(vf_integrator *it);

int vf_integrator_dim(const vf_integrator *it);
int vf_integrator_outputs(const vf_integrator *it);
int vf_set_param(vf_integrator *it, const char *name, double value);

/* Runs `warmup` adapting iterations, then `iterations` measured ones of
   `calls` samples each; adds to the statistics of earlier runs. A fault
   in an integrand's C/C++ code (a stack overflow, a division by zero, an
   out-of-bounds write) does not return: the process prints the report
   and exits with code 70 (docs/user-guide.md, "C and C++ integrands"). */
int vf_run(vf_integrator *it, int32_t iterations, int64_t calls,
           int32_t warmup);
/* Asks the vf_run in progress (or the next one) to stop: from another
   thread, a signal handler's flag watcher, or a native integrand. The
   iteration under way is dropped; vf_run returns VF_CANCELLED with the
   iterations completed in vf_result, and vf_run with the same numbers
   continues the run, bit for bit as if it had never stopped. */
int vf_cancel(vf_integrator *it);
/* Starts the statistics afresh, as each call of vegas's integrator
   returns its own: the next vf_run's result combines only its own
   iterations (the last one before stays in the JSON's iterations, marked
   warm-up: its variance weights the next). The map, the stratification
   and the random stream go on. VF_ERR_STATE while a run is unfinished
   (cancelled: finish it with vf_run first). */
int vf_restart_statistics(vf_integrator *it);
/* The combined result of component 0 so far (any pointer may be NULL). */
int vf_result(const vf_integrator *it, double *mean, double *error,
              double *chi2dof, double *q);
/* Component c's mean and error (vector-valued integrands). */
int vf_result_component(const vf_integrator *it, int32_t c, double *mean,
                        double *error);
/* The result as JSON (vegasc --json's schema) into buf; *needed (may be
   NULL) gets the length plus 1. VF_ERR_BUFFER when it does not fit. */
int vf_result_json(const vf_integrator *it, char *buf, size_t size,
                   size_t *needed);

/* --- Histograms (`hist` statements) --------------------------------------*/
/* How many histograms the integrand fills (0 for a native integrand). */
int vf_histogram_count(const vf_integrator *it);
/* Histogram h's name (into name[size], like vf_module_integrand_name),
   its axes (1 or 2), bins per axis (bins[2]; bins[1] = 0 in 1-D) and
   ranges (range[4]: lo, hi, lo2, hi2, from the last iteration). Any
   pointer may be NULL. */
int vf_histogram_info(const vf_integrator *it, int32_t h, char *name,
                      size_t size, int32_t *axes, int32_t *bins,
                      double *range);
/* Histogram h's combined bins, bins[0] x bins[1] of them in 2-D (row-major,
   the first axis outer), with their errors, and its flow cells: 1-D:
   underflow then overflow (flow[2]); 2-D: outside (flow[1]). Any pointer
   may be NULL. VF_ERR_STATE before any iteration. */
int vf_histogram(const vf_integrator *it, int32_t h, double *values,
                 double *errors, double *flow, double *flow_errors);

/* --- Channels (an integrand of `channel` blocks) -------------------------*/
/* How many channels the integrand has (0 without channels or for a NULL
   handle). */
int vf_channel_count(const vf_integrator *it);
/* Channel c, in source order: its name (into name[size], like
   vf_module_integrand_name), its weight alpha now (the share of samples
   the next iteration gives it), its samples over the run, and its part
   of the last iteration's estimate of component 0 (integral, error) with
   that part's share of the iteration's variance. A channel's integral
   moves with alpha: the parts add up to each iteration's estimate, and
   only that total is averaged (vf_result). Before any iteration alpha is
   the first iteration's and the rest 0. Any pointer may be NULL;
   VF_ERR_ARGUMENT for an index that is not a channel's. */
int vf_channel_info(const vf_integrator *it, int32_t c, char *name, size_t size,
                    double *alpha, int64_t *samples, double *integral,
                    double *error, double *error_share);

/* --- Events (after training) ---------------------------------------------*/
/* Stops adapting; needed before sampling. */
int vf_freeze(vf_integrator *it);
/* n weighted events: x[i * dim + d] and weight[i] = f_0(x) / q(x), whose
   mean is the integral. Successive calls continue the stream. */
int vf_sample(vf_integrator *it, int64_t n, double *x, double *weight);
/* n unweighted events (weight[i] = +-1, or |w|/w_max > 1 for the
   overshooting ones); w_max from `wmax_events` events of a separate pass
   (0: 100000). Any of the statistics pointers may be NULL. */
int vf_unweight(vf_integrator *it, int64_t n, int64_t wmax_events,
                double *x, double *weight, double *wmax,
                double *efficiency, double *overshoot_fraction);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* VF_VF_C_H */
