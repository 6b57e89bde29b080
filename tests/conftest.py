"""Shared by every test: no test reads or writes the home folder of the person running it, and
hypothesis tries the same examples on every run unless asked to explore.

A plain ``python -m pytest`` (the README's command, what CI runs) is derandomized: what passes
here passes on a fresh machine, and a failure is found again by the next run.  Setting
``PBEM_FUZZ_EXAMPLES`` (more examples) or ``PBEM_HYPOTHESIS=explore`` draws new examples each run
(the way to hunt for bugs; hypothesis keeps what it finds in ``.hypothesis/``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(
    os.environ.get("PBEM_HYPOTHESIS") or ("explore" if os.environ.get("PBEM_FUZZ_EXAMPLES") else "repeatable")
)


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
