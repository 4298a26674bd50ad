"""Where the batches of a simulation run: this process, a local process pool, a Dask cluster.

Every backend runs the same batches (`simulate.run_batch`) and the records
come back in game order, so the results do not depend on the backend, on the
number of jobs or on the batch size: game g is played from (root seed, g)
wherever it runs.

- `local` with one job plays in this process.
- `local` with J jobs starts J worker processes (forked from a server
  process that has imported the engine, or fresh interpreters where there is
  no fork); each opens the pack once.
- `dask` sends the batches to the scheduler at `address`
  (`HOST:PORT` or `tcp://HOST:PORT`), or, with no address, to a cluster of
  `jobs` worker processes it starts on this machine for the run; it needs the optional extra
  `boardrule[dask]` here and boardrule installed on every worker, and the
  workers open the same pack path (a bundled name, or a file at the same
  absolute path). A worker that finds a different pack (another hash) fails
  the run instead of playing other rules.

`progress(done, total)` is called after every finished batch.
"""

from __future__ import annotations

import os

from boardrule.dsl.diagnostics import UsageError
from boardrule.interpreter.lab.simulate import Plan, batches, run_batch
from boardrule.interpreter.runtime.values import RuleError

BACKENDS = ("local", "dask")
BATCHES_PER_WORKER = 8  # small enough batches to share the work evenly and report progress often
MAX_BATCH = 250
DASK_TIMEOUT_S = 10


def batch_size(games: int, workers: int) -> int:
    return max(1, min(MAX_BATCH, -(-games // (max(1, workers) * BATCHES_PER_WORKER))))


def run_plan(plan: Plan, jobs: int = 1, backend: str = "local", address: str | None = None,
             progress=None) -> list:
    """Every game of the plan, as records in game order (see simulate.play_game)."""
    if backend not in BACKENDS:
        raise UsageError(f"unknown backend `{backend}`; backends are: {', '.join(BACKENDS)}", code="E001")
    jobs = resolve_jobs(jobs)
    if backend == "dask":
        results = _run_dask(plan, address, progress) if address else _run_local_dask(plan, jobs, progress)
    elif jobs == 1:
        results = _run_here(plan, progress)
    else:
        results = _run_pool(plan, jobs, progress)
    return _checked(results)


def resolve_jobs(jobs) -> int:
    if jobs is None:
        return 1
    if jobs == 0:
        return os.cpu_count() or 1
    if jobs < 0:
        raise UsageError(f"--jobs must be 0 (one per CPU) or more, not {jobs}", code="E001")
    return int(jobs)


def _checked(results) -> list:
    """Records in game order; the first failed game (in game order) raised as the rule error it was."""
    records = [record for batch in results for record in batch]
    for record in records:
        if "error" in record:
            raise RuleError(f"game {record['game'] + 1}: {record['error']}", record.get("span"))
    return records


def _run_here(plan, progress):
    results = []
    done = 0
    for start, stop in batches(plan.games, batch_size(plan.games, 1)):
        batch = run_batch((plan, start, stop))
        results.append(batch)
        done += stop - start
        if progress is not None:
            progress(done, plan.games)
        if batch and "error" in batch[-1]:
            break
    return results


def _run_pool(plan, jobs, progress):
    import concurrent.futures as futures
    import multiprocessing

    spans = batches(plan.games, batch_size(plan.games, jobs))
    results = [None] * len(spans)
    done = 0
    if "forkserver" in multiprocessing.get_all_start_methods():
        # workers fork from a server that has imported the engine once: no import per worker,
        # and no fork of this process (whose threads a plain fork could catch mid-way)
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["boardrule.interpreter.lab.simulate"])
    else:
        context = multiprocessing.get_context("spawn")
    pool = futures.ProcessPoolExecutor(max_workers=min(jobs, len(spans)), mp_context=context)
    try:
        pending = {pool.submit(run_batch, (plan, start, stop)): index for index, (start, stop) in enumerate(spans)}
        for future in futures.as_completed(pending):
            index = pending[future]
            try:
                results[index] = future.result()
            except futures.BrokenExecutor:
                raise UsageError("a worker process died before its games were played (out of memory? killed? "
                                 "a Python script that starts a simulation must do so under "
                                 "`if __name__ == \"__main__\":`)", code="E001") from None
            done += spans[index][1] - spans[index][0]
            if progress is not None:
                progress(done, plan.games)
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return results


def dask_address(address: str) -> str:
    return address if "://" in address else f"tcp://{address}"


def _run_local_dask(plan, jobs, progress):
    """No scheduler named: a Dask cluster of `jobs` worker processes on this machine, for this run."""
    try:
        from distributed import LocalCluster
    except ImportError:
        raise UsageError("--backend dask needs dask.distributed: pip install 'boardrule[dask]'",
                         code="E001") from None
    cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1, processes=True,
                           dashboard_address=None)
    try:
        return _run_dask(plan, cluster.scheduler_address, progress)
    finally:
        cluster.close()


def _run_dask(plan, address, progress):
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UsageError("--backend dask needs dask.distributed: pip install 'boardrule[dask]'",
                         code="E001") from None
    try:
        client = Client(dask_address(address), timeout=DASK_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {err}", code="E001") from None
    try:
        workers = max(1, sum(client.nthreads().values()))
        spans = batches(plan.games, batch_size(plan.games, workers))
        submitted = [client.submit(run_batch, (plan, start, stop), pure=False) for start, stop in spans]
        index_of = {future.key: index for index, future in enumerate(submitted)}
        results = [None] * len(spans)
        done = 0
        for future in as_completed(submitted, loop=client.loop):
            index = index_of[future.key]
            try:
                results[index] = future.result()
            except (UsageError, RuleError):
                raise
            except Exception as err:  # noqa: BLE001  (a worker without boardrule, a lost worker...)
                raise UsageError(f"a Dask worker failed: {type(err).__name__}: {err}", code="E001") from None
            done += spans[index][1] - spans[index][0]
            if progress is not None:
                progress(done, plan.games)
        return results
    finally:
        client.close()
