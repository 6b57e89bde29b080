"""Handing a turn's reports to the players: hard links into their folders, and mail.

Each player's report (``reports/turn-NNNN/<name>.txt``) and the turn's pictures go to
``players/<name>/`` as ``report-turn-NNNN.txt`` and ``turn-NNNN-<picture>``: hard links of
the engine's files, made durable first (the engine writes reports without fsync), so a turn
costs one fsync per report and one per player folder instead of a second durable copy of
every file.  Where a link cannot be made (another disk, a file system without links, no
permission) or a file of that name holds other bytes, a durable copy is written instead
(:func:`pbem.moderator.durable.link_all`).

A player's copy is the same file as the game's own: a player who edits it in place edits
``reports/turn-NNNN/<name>.txt`` too.  Nothing else is harmed: that report is signed, so
``pbem read``, ``pbem orders`` and ``pbem check`` refuse the edited text ("changed after
the moderator signed it"); only that player can open its private part; the archive and
``pbem verify`` re-play the signed saves and never read it; ``pbem publish`` writes the
turn's reports again (new files) when the moderator wants them pristine.  Mail is sent as
before (:meth:`pbem.moderator.post.Post.mail`), from the report's bytes.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.moderator.durable import link_all, step
from pbem.moderator.post import Post
from pbem.save import Save


def missing_reports(folder: GameFolder, save: Save, post: Post) -> list[str]:
    """The players whose copy of ``save``'s turn report is not in their folder although the
    game's own is (one ``lstat`` a player): a sync tool deleted it, or the whole folder and
    made it again.  Never raises: a folder that cannot be looked into counts as missing."""
    reports = folder.reports_dir(save.turn)
    filename = f"report-turn-{save.turn:04d}.txt"
    return [
        name
        for name in save.names
        if not os.path.lexists(post.folder_of(name) / filename) and os.path.isfile(reports / f"{name}.txt")
    ]


def deliver_reports(folder: GameFolder, identity: Identity, save: Save, post: Post) -> list[str]:
    """Hand the reports of ``save``'s turn to every player (idempotent), publishing them
    again first if any of the turn's files is missing (a writer killed inside an advance).
    Returns how each file went ("linked", "present", "copied"; see ``link_all``).  Raises
    OSError for a broken disk, PbemError if the reports cannot be published."""
    reports = folder.reports_dir(save.turn)
    if folder.missing_files(save):
        # The engine's publish is idempotent: write the turn's texts and pictures (again).
        folder.publish(identity, folder.load(identity))
        step("published")
    pictures = sorted(
        p for p in reports.iterdir() if p.suffix != ".txt" and not p.name.startswith(".") and p.is_file()
    )
    over = save.body["outcome"] is not None
    pairs: list[tuple[Path, Path]] = []
    for name in save.names:
        path = reports / f"{name}.txt"
        if not path.is_file():
            continue
        filename = f"report-turn-{save.turn:04d}.txt"
        pairs.append((path, post.folder_of(name) / filename))
        pairs += [(pic, post.folder_of(name) / f"turn-{save.turn:04d}-{pic.name}") for pic in pictures]
        if post.mails(name):
            data = path.read_bytes()
            digest = hashlib.sha256(data).hexdigest()[:16]
            subject = f"[pbem {save.game_id}] {save.game}: " + (
                "final report" if over else f"turn {save.turn} report"
            )
            attachments = [(f"{name}-turn-{save.turn:04d}.txt", data)]
            attachments += [(f"turn-{save.turn:04d}-{p.name}", p.read_bytes()) for p in pictures]
            post.mail(
                name,
                filename,
                data.decode("utf-8"),
                subject,
                attachments=attachments,
                mail_key=f"{save.game_id}/report/{name}/{save.turn}/{digest}",
            )
    return link_all(pairs)
