"""Dask as the executor of parallel work: this process, a local cluster or a running one.

With no executor settings (``[executor] workers = 0`` and no ``scheduler``) everything runs in
this process, as it always did. ``workers = N`` starts a ``distributed.LocalCluster`` of N
single-threaded worker processes for the length of one run; ``scheduler = "tcp://host:8786"``
joins a cluster someone started (its workers must have this workbench installed, with the same
models). No pool of the workbench's own: Dask schedules, retries a task whose worker died and
reports progress.

Dense encoding goes out as content-addressed batches (:class:`workbench.retrieval.TextBatch`):
a batch's task key is its texts' digests and the model id, so a batch is named by what it holds.
Workers return vectors; the embedding cache on the client takes them in before the index is
built from it, exactly as a one-process build does.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from workbench.config import Executor, Settings, number_problem
from workbench.errors import WorkbenchError
from workbench.index import BuildReport, build_index
from workbench.retrieval import BatchEncoder, BilingualGlossary, TextBatch, make_embedder


class ExecutorError(WorkbenchError):
    """The executor could not be set up or a worker answered with something unexpected."""


class SchedulerUnreachableError(ExecutorError):
    """No Dask scheduler answered at the address within the connect timeout."""


class SchedulerAddressError(ExecutorError):
    """A scheduler address this workbench cannot join: a malformed one, or an unknown scheme."""


SCHEMES = ("tcp",)
"""Address schemes ``--scheduler`` joins. ``tls://`` and ``wss://`` need certificates, ``ucx://``
a UCX install, ``inproc://`` a scheduler in this very process; none of them is configured here."""


def check_scheduler_address(address: str) -> str:
    """``address`` when it is one this workbench can join: ``tcp://HOST:PORT``.

    A bare ``HOST:PORT`` is read as TCP, as Dask reads it.

    Raises:
        SchedulerAddressError: Another scheme, or no host or port; says what is expected.
    """
    if "://" not in address:
        address = f"tcp://{address}"  # as Dask reads a bare HOST:PORT
    scheme, _, rest = address.partition("://")
    host, colon, port = rest.rpartition(":")
    if scheme not in SCHEMES:
        raise SchedulerAddressError(
            f"scheduler address {address!r}: the workbench joins {', '.join(s + '://' for s in SCHEMES)}"
            "HOST:PORT only (tls, wss and ucx need security or transport settings it does not "
            "take)")
    if not colon or not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        raise SchedulerAddressError(f"scheduler address {address!r}: expected tcp://HOST:PORT with a "
                                    "port from 1 to 65535")
    return address


async def _identity(address: str, deadline: float) -> Any:
    from distributed.comm import connect

    comm = await connect(address, timeout=deadline)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def probe_scheduler(address: str, deadline: float) -> None:
    """Ask the scheduler at ``address`` who it is, and wait ``deadline`` seconds in all.

    ``distributed.Client`` bounds only the TCP connect: a socket that accepts and never answers
    (or an HTTP server) holds it in its handshake for ever. This probe bounds the connect, the
    handshake and the first reply together, in a thread of its own so that a running event loop
    (a notebook's) is left alone.

    Raises:
        SchedulerAddressError: The address is not one the workbench joins.
        SchedulerUnreachableError: Nothing answered in time, or what answered is no scheduler.
    """
    address = check_scheduler_address(address)

    def ask() -> Any:
        return asyncio.run(asyncio.wait_for(_identity(address, deadline), deadline))

    hint = ("start one with `dask scheduler` and `dask worker ADDRESS`, or use --workers N for "
            "a local cluster")
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        try:
            reply = pool.submit(ask).result(timeout=deadline + 5)
        except (TimeoutError, concurrent.futures.TimeoutError):
            raise SchedulerUnreachableError(
                f"no Dask scheduler answered at {address} within {deadline:g} s (connect and "
                f"handshake); {hint}") from None
        except Exception as exc:  # noqa: BLE001 - whatever the peer sent, it is no scheduler
            raise SchedulerUnreachableError(
                f"no Dask scheduler answered at {address} within {deadline:g} s "
                f"({type(exc).__name__}: {str(exc)[:200]}); {hint}") from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise SchedulerUnreachableError(f"{address} answered, but not as a Dask scheduler; {hint}")


def executor_settings(settings: Settings, workers: int | None = None,
                      scheduler: str | None = None) -> Executor:
    """The ``[executor]`` settings with a run's ``--workers`` / ``--scheduler`` put over them.

    Raises:
        ExecutorError: Both were given, or ``workers`` is out of its range.
        SchedulerAddressError: ``--scheduler``, or the settings file's ``[executor] scheduler``
            (the error names the file), is not a ``tcp://HOST:PORT`` address.
    """
    if workers is not None and scheduler:
        raise ExecutorError("give --workers N (a local cluster) or --scheduler ADDRESS "
                            "(a running one), not both")
    if workers is not None:
        problem = number_problem("executor.workers", workers)
        if problem is not None:
            raise ExecutorError(f"--workers {workers}: {problem.split(': ', 1)[1]} "
                                "(0 runs in this process)")
    chosen = settings.executor
    if scheduler:
        return replace(chosen, scheduler=check_scheduler_address(scheduler), workers=0)
    if workers is not None:
        return replace(chosen, workers=workers, scheduler="")
    if chosen.scheduler:
        try:
            check_scheduler_address(chosen.scheduler)
        except SchedulerAddressError as exc:
            where = f"{settings.source}: " if settings.source is not None else ""
            raise SchedulerAddressError(f"{where}[executor] {exc}") from None
    return chosen


def is_local(executor: Executor) -> bool:
    """Whether the settings ask for no cluster at all: everything in this process."""
    return not executor.scheduler and executor.workers == 0


@contextmanager
def dask_client(executor: Executor) -> Iterator[Any]:
    """A ``distributed.Client`` for the settings, closed (with its local cluster) on exit.

    Yields ``None`` when the settings ask for no cluster.

    The scheduler is probed first (:func:`probe_scheduler`): connect, handshake and first reply
    within ``connect_timeout`` seconds in all, so no client is made for an address that would
    hang it, and none is left to complain when collected.

    Raises:
        SchedulerAddressError: ``scheduler`` is not a ``tcp://HOST:PORT`` address.
        SchedulerUnreachableError: ``scheduler`` did not answer within ``connect_timeout``.
    """
    if is_local(executor):
        yield None
        return
    from distributed import Client, LocalCluster

    cluster = None
    if executor.scheduler:
        probe_scheduler(executor.scheduler, executor.connect_timeout)
        try:
            client = Client(executor.scheduler, timeout=executor.connect_timeout,
                            set_as_default=False)
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise SchedulerUnreachableError(
                f"no Dask scheduler answered at {executor.scheduler} within "
                f"{executor.connect_timeout:g} s ({type(exc).__name__}); start one with "
                "`dask scheduler` and `dask worker ADDRESS`, or use --workers N for a local "
                "cluster") from None
    else:
        # one thread per worker: the encoders are NumPy code that a second thread would only
        # slow down, and worker processes (not threads) keep a crash to one task
        cluster = LocalCluster(n_workers=executor.workers, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        client = Client(cluster, set_as_default=False)
    try:
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def encode_batch(embedder: str, texts: list[str]) -> tuple[str, np.ndarray]:
    """Run on a worker: the model's id and the passage vectors of ``texts``.

    The model loads once per worker process (:func:`workbench.retrieval.make_embedder` keeps it);
    the id comes back so the client can refuse vectors of another model.
    """
    model = make_embedder(embedder)
    return model.id, model.encode_passages(texts)


def batch_key(model_id: str, batch: TextBatch) -> str:
    """The Dask key of one encoding task: the model and the batch's contents, nothing else."""
    model = hashlib.sha256(model_id.encode()).hexdigest()[:12]
    return f"encode-{model}-{batch.digest[:40]}"


def dask_encoder(client: Any, embedder: str, model_id: str, retries: int = 1) -> BatchEncoder:
    """A :data:`workbench.retrieval.BatchEncoder` that sends each batch to the cluster.

    Batches are submitted together; progress is reported as each one finishes, in whatever
    order; vectors are returned in the batches' order.
    """
    from distributed import as_completed

    def encode(batches: Sequence[TextBatch], on_progress: Callable[[int], None]
               ) -> list[np.ndarray]:
        futures = [client.submit(encode_batch, embedder, list(b.texts),
                                 key=batch_key(model_id, b), retries=retries)
                   for b in batches]
        where = {f.key: i for i, f in enumerate(futures)}
        out: list[np.ndarray | None] = [None] * len(batches)
        try:
            for future in as_completed(futures, loop=client.loop):
                got_id, vectors = future.result()
                i = where[future.key]
                if got_id != model_id:
                    raise ExecutorError(f"a worker encoded with {got_id}, this build uses "
                                        f"{model_id}; install the same model on every worker")
                if len(vectors) != len(batches[i].texts):
                    raise ExecutorError(f"a worker returned {len(vectors)} vectors for a batch "
                                        f"of {len(batches[i].texts)}")
                out[i] = np.asarray(vectors, dtype=np.float32)
                on_progress(len(batches[i].texts))
        except BaseException:
            # an interrupted build leaves nothing running for it; a finished one cancels
            # nothing, so the same batches can be asked for again at once
            client.cancel([f for f in futures if not f.done()])
            raise
        return [v for v in out if v is not None]

    return encode


@dataclass(frozen=True)
class DistributedBuild:
    """What :func:`build_index_on` did: the build and where it ran."""

    report: BuildReport
    """The index build's own report."""
    executor: str
    """``this process``, ``local cluster of N workers`` or the scheduler's address."""

    def summary(self) -> str:
        """One line for the terminal."""
        return f"{self.report.summary()} [{self.executor}]"


def describe(executor: Executor) -> str:
    """Where work runs, in words."""
    if executor.scheduler:
        return f"scheduler {executor.scheduler}"
    if executor.workers:
        return f"local cluster of {executor.workers} worker(s)"
    return "this process"


def build_index_on(settings: Settings, executor: Executor, *,
                   corpus: str | os.PathLike[str] | None = None,
                   out: str | os.PathLike[str] | None = None, embedder: str | None = None,
                   cache_root: str | os.PathLike[str] | None = None,
                   progress: bool = False,
                   glossary: BilingualGlossary | None = None) -> DistributedBuild:
    """Build the fragment index, with dense encoding on the executor the settings name.

    The index is the one :func:`workbench.index.build_index` writes in one process, bit for
    bit: the same batches are encoded by the same model, the vectors go through the same
    embedding cache, and the new folder replaces the old one only once complete.

    Raises:
        SchedulerUnreachableError: The scheduler did not answer in time.
        ExecutorError: A worker used another model.
    """
    name = embedder or settings.embedder.name
    corpus_dir = Path(corpus) if corpus is not None else settings.paths.corpus
    out_dir = Path(out) if out is not None else settings.paths.index
    cache = Path(cache_root) if cache_root is not None else settings.paths.cache
    with dask_client(executor) as client:
        encoder = None
        if client is not None:
            model_id = make_embedder(name).id
            encoder = dask_encoder(client, name, model_id, retries=executor.retries)
        report = build_index(corpus_dir, out_dir, embedder=name, fragmenting=settings.fragmenting,
                             cache_root=cache, progress=progress, encode_batches=encoder,
                             batch_size=settings.embedder.batch_size, glossary=glossary)
    return DistributedBuild(report=report, executor=describe(executor))
