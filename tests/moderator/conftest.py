"""Fixtures for the moderator tests: keys (per session), a root folder, a fixed clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.keys import Identity
from pbem.timing import FixedClock

from .modkit import T0, make_keys


@pytest.fixture(scope="session")
def keys() -> dict[str, Identity]:
    return make_keys()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "root"
    path.mkdir()
    return path


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(T0 + 60)


@pytest.fixture(autouse=True)
def _no_fsync(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Skip fsync in scenario tests: a test process never loses power, so fsync changes
    nothing they check, and on a shared disk it costs most of their time.  Tests marked
    ``real_fsync`` (the durable-write tests) keep it."""
    if request.node.get_closest_marker("real_fsync") is None:
        monkeypatch.setattr("os.fsync", lambda fd: None)
        # The moderator's group-commit barrier (one syncfs of a whole file system).
        monkeypatch.setattr("pbem.moderator.durable._syncfs", [lambda fd: None])


@pytest.fixture(autouse=True)
def _local_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the moderator's local state and the engine's records out of the real home."""
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "real_fsync: keep the real os.fsync in this test")
