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
def _local_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the moderator's local state and the engine's records out of the real home."""
    monkeypatch.setenv("PBEM_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PBEM_HOME", str(tmp_path / "home"))
