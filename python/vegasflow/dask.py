#===- python/vegasflow/dask.py - VEGAS+ iterations as Dask tasks -----------===#
#
#   python3 -m vegasflow.dask FILE.vf --scheduler ADDRESS|local --parts N
#       [--workers W] [--state FILE] [--json FILE] [vegasc settings]
#
# One task per part per iteration, the state and the parts passed as bytes
# (workers need vegasc, not a shared filesystem); a task whose worker dies
# is rerun elsewhere by the scheduler, and one that fails is retried, which
# cannot change the result: a part is a function of the state alone.
#
#===------------------------------------------------------------------------===#
import sys

from . import _tasks


def dask_map(client, retries):
    def map_parts(run, state, nparts):
        futures = [client.submit(run.compute_part, state, i, nparts,
                                 pure=False, retries=retries)
                   for i in range(nparts)]
        return client.gather(futures)
    return map_parts


def main():
    def options(ap):
        ap.add_argument("--scheduler", required=True,
                        help="the scheduler's address, or 'local' for a "
                        "LocalCluster of processes on this machine")
        ap.add_argument("--workers", type=int, default=None,
                        help="with --scheduler local: worker processes")
        ap.add_argument("--retries", type=int, default=2,
                        help="reruns of a failed task (default 2)")
    args, settings = _tasks.arguments("python3 -m vegasflow.dask", options)
    from distributed import Client, LocalCluster
    if args.scheduler == "local":
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        cluster, client = None, Client(args.scheduler)
    run = _tasks.Run(args.file, settings, args.vegasc)
    try:
        doc = _tasks.integrate(
            run, args.parts, dask_map(client, args.retries), args.state,
            lambda done, total, d: print(f"iteration {done} of {total}",
                                         file=sys.stderr))
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
