#===- python/vegasflow/dask.py - VEGAS+ iterations as Dask tasks -----------===#
#
#   python3 -m vegasflow.dask FILE.vf --scheduler ADDRESS|local --parts N
#       [--workers W] [--equal-parts] [--state FILE] [--json FILE]
#       [run settings as vegasc spells them]
#
# One task per part per iteration, the state and the parts passed as bytes
# and computed in the worker's process through the vegasflow module (each
# worker compiles the .vf once; no vegasc, no shared filesystem; --vegasc,
# deprecated, runs vegasc there instead); a task whose worker dies
# is rerun elsewhere by the scheduler, and one that fails is retried, which
# cannot change the result: a part is a function of the state alone.
# From the second iteration on, part i is placed on worker i (in turn,
# allow_other_workers: a lost worker's part runs elsewhere) and sized by
# that worker's measured throughput (_tasks.Balance), so slow and fast
# workers finish together.
#
#===------------------------------------------------------------------------===#
import sys

from . import _tasks


def _part_task(run, state, index, nparts, weights):
    """On a worker: (its address, the part), so the driver learns whose
    throughput the part measured (a retried part: the worker that ran it)."""
    from distributed import get_worker
    return get_worker().address, run.compute_part(state, index, nparts,
                                                  weights)


def dask_map(client, retries):
    def map_parts(run, state, split):
        futures = [client.submit(_part_task, run, state, i, split.nparts,
                                 split.weights, pure=False, retries=retries,
                                 workers=[w] if w else None,
                                 allow_other_workers=bool(w))
                   for i, w in enumerate(split.workers)]
        return client.gather(futures)
    return map_parts


def dask_workers(client):
    return lambda: sorted(client.scheduler_info()["workers"])


def _print_iteration(done, total, doc, parts):
    sizes = " ".join(str(e - b) for _, b, e, _ in parts)
    print(f"iteration {done} of {total} (groups per part: {sizes})",
          file=sys.stderr)


def main():
    def options(ap):
        ap.add_argument("--scheduler", required=True,
                        help="the scheduler's address, or 'local' for a "
                        "LocalCluster of processes on this machine")
        ap.add_argument("--workers", type=int, default=None,
                        help="with --scheduler local: worker processes")
        ap.add_argument("--retries", type=int, default=2,
                        help="reruns of a failed task (default 2)")
        ap.add_argument("--equal-parts", action="store_true",
                        help="equal parts, not sized by each worker's "
                        "measured throughput (the result is the same)")
    args, settings = _tasks.arguments("python3 -m vegasflow.dask", options)
    run = _tasks.make_run("vegasflow.dask", args, settings)
    if run is None:
        return 1
    from distributed import Client, LocalCluster
    if args.scheduler == "local":
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        cluster, client = None, Client(args.scheduler)
    try:
        doc = _tasks.integrate(run, args.parts,
                               dask_map(client, args.retries), args.state,
                               _print_iteration,
                               None if args.equal_parts
                               else dask_workers(client))
    except _tasks.TaskError as e:
        print(f"vegasflow.dask: error: {e}", file=sys.stderr)
        return 1
    finally:
        client.close()
        if cluster:
            cluster.close()
    _tasks.report(doc, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
