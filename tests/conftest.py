"""Shared by every test: no test reads or writes the home folder of the person running it."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _own_pbem_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point PBEM_HOME (signed Seqs, kept reports, keys) at a folder of the test session, so a
    test that forgets to set its own cannot touch ``~/.local/share/pbem``; tests that need a
    home of their own still set one with monkeypatch."""
    old = os.environ.get("PBEM_HOME")
    os.environ["PBEM_HOME"] = str(tmp_path_factory.mktemp("pbem-home"))
    yield
    if old is None:
        os.environ.pop("PBEM_HOME", None)
    else:
        os.environ["PBEM_HOME"] = old
