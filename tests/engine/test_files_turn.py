"""Issue 13, the file work of a turn: what a turn no longer does, and that it is not needed.

* Publishing a turn lists ``reports/`` (to move the reports of later turns aside) only in a
  game that was rolled back (its save carries ``reseeds``): only a rollback leaves reports
  of turns after the current one.  A rollback stopped after its save and before its reports
  has them moved aside by the next publish, as before.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem import engine

from .conftest import Table


def _listed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = os.listdir

    def listdir(path: str | os.PathLike[str] = ".") -> list[str]:
        seen.append(os.path.basename(os.fspath(path)))
        return real(path)

    monkeypatch.setattr(engine.os, "listdir", listdir)
    return seen


def test_a_turn_without_a_rollback_does_not_list_reports(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.play_step()
    listed = _listed(monkeypatch)
    table.play_step()
    assert "reports" not in listed
    save = table.folder.read()
    assert (table.folder.reports_dir(save.turn) / "public.txt").is_file()


def test_a_rollback_stopped_before_its_reports_has_them_set_aside_by_the_next_publish(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(3):
        table.play_step()
    assert table.folder.read().turn == 4

    class Stopped(Exception):
        pass

    def stopped(*args: object, **kwargs: object) -> list[Path]:
        raise Stopped("killed after the save, before the reports")

    with monkeypatch.context() as patch:
        patch.setattr(engine.GameFolder, "publish", stopped)
        with pytest.raises(Stopped):
            table.folder.rollback(table.moderator, 2, now=table.tick(), entropy=lambda n: bytes(n))
    save = table.folder.read()
    assert save.turn == 2 and save.body["reseeds"]
    assert table.folder.reports_dir(3).exists() and table.folder.reports_dir(4).exists()  # left behind
    listed = _listed(monkeypatch)
    table.folder.republish(table.moderator)
    assert "reports" in listed
    assert not table.folder.reports_dir(3).exists() and not table.folder.reports_dir(4).exists()
    undone = table.folder.undone_dir(save.revision) / "reports"
    assert sorted(p.name for p in undone.iterdir()) == ["turn-0003", "turn-0004"]
    # The game goes on past the rollback, its later turns published as usual.
    table.play_step()
    assert (table.folder.reports_dir(3) / "public.txt").is_file()
