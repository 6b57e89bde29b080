"""``--help`` of the commands a new user reads first: every option says what it does (``pbem
show --json`` and ``pbem moderate`` / ``judge -v`` printed a bare flag)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pbem.cli import main


@pytest.mark.parametrize(
    ("command", "option", "words"),
    [
        ("show", "--json", "Machine-readable output."),
        ("moderate", "-v, --verbose", "counts"),
        ("judge", "-v, --verbose", "counts"),
    ],
)
def test_every_option_is_explained(command: str, option: str, words: str) -> None:
    result = CliRunner().invoke(main, [command, "--help"], terminal_width=200)
    assert result.exit_code == 0
    [line] = [line for line in result.output.splitlines() if line.strip().startswith(option)]
    assert words in line, line
