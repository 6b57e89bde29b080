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
    """Point PBEM_HOME (signed Seqs, kept reports, keys) and PBEM_STATE_DIR (the moderator's
    local state: a folder per root or game its commands touch) at folders of the test session,
    so a test that forgets to set its own cannot touch ``~/.local/share/pbem`` or
    ``~/.local/state/pbem``; tests that need their own still set one with monkeypatch."""
    names = ("PBEM_HOME", "PBEM_STATE_DIR")
    old = {name: os.environ.get(name) for name in names}
    os.environ["PBEM_HOME"] = str(tmp_path_factory.mktemp("pbem-home"))
    os.environ["PBEM_STATE_DIR"] = str(tmp_path_factory.mktemp("pbem-state"))
    yield
    for name, value in old.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
