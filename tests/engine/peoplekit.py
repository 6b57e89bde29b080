"""A game played as people play it: the moderator and each player in a folder of their own,
with a ``PBEM_HOME`` of their own (as on separate machines), every step through the command
line (``pbem keygen``, ``pbem new``, ...)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pbem.cli import main


class People:
    """``names`` and a moderator (folder ``mod``) with keys made by ``pbem keygen``, and a game
    of ``game`` in ``mod/game`` made by ``pbem new`` with ``options`` (``NAME=VALUE``)."""

    def __init__(self, root: Path, game: str, names: Sequence[str], options: Sequence[str] = ()) -> None:
        self.root = root
        self.names = tuple(names)
        for name in (*self.names, "mod"):
            (root / name).mkdir()
            self.run(name, "keygen", name)
        cards = [f"--player={n}={root / n / n}.pub" for n in self.names]
        chosen = [f"--option={option}" for option in options]
        self.run("mod", "new", game, "game", "--moderator-key", "mod.key", *cards, *chosen)
        self.game = root / "mod" / "game"

    def run(self, who: str, *args: str, code: int = 0) -> Result:
        """Run pbem as ``who``, in their own folder with their own PBEM_HOME; the exit code
        must be ``code``, and nothing may say it is a bug."""
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(self.root / who)
            result = CliRunner().invoke(main, list(args), env={"PBEM_HOME": str(self.root / who / "home")})
        assert result.exit_code == code, result.output
        assert "Traceback" not in result.output and "this is a bug" not in result.output
        return result

    def report_path(self, turn: int, name: str) -> str:
        """The path of ``name``'s report of ``turn`` in the game folder."""
        return str(self.game / "reports" / f"turn-{turn:04d}" / f"{name}.txt")
