"""An identity file with a field twice, with two values, is refused instead of read by its last line.

A key file is the player's own; one edited by hand (or two files pasted together) could hold
two ``name:`` lines, and pbem silently took the last, so the player signed under a name they
did not see first.  Now two different values of one field are a damaged identity file, said
with what to do; the same line twice is still read.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.errors import KeyFileError
from pbem.keys import Identity


def _written(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "alice.key"
    path.write_text(text)
    os.chmod(path, 0o600)
    return path


def test_two_names_in_one_identity_file_are_refused(tmp_path: Path) -> None:
    text = Identity.generate("alice").to_text()
    path = _written(tmp_path, text.rstrip("\n") + "\nname: mallory\n")
    with pytest.raises(KeyFileError, match="two different 'name' lines"):
        Identity.load(path)


def test_the_same_line_twice_is_still_read(tmp_path: Path) -> None:
    identity = Identity.generate("alice")
    text = identity.to_text()
    name_line = next(line for line in text.splitlines() if line.startswith("name:"))
    path = _written(tmp_path, text.rstrip("\n") + f"\n{name_line}\n")
    assert Identity.load(path).public().verify_key == identity.public().verify_key
