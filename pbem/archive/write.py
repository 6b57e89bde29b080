"""Writing archives: one game's HTML and text files, or every game under a moderator root
with an index page (``index.html`` and ``index.txt``).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

from pbem.archive.build import build_archive
from pbem.archive.html import CSS, HEAD, render_html
from pbem.archive.model import Archive
from pbem.archive.text import fold, render_text
from pbem.errors import PbemError, UsageError
from pbem.folder import atomic_write
from pbem.inputs import shorten, visible
from pbem.keys import Identity
from pbem.moderator.quarantine import file_token
from pbem.registry import get_game
from pbem.save import Save


@dataclass(frozen=True)
class Written:
    """One game's archive files, or why the game has none."""

    folder: Path
    html: Path | None
    text: Path | None
    summary: str
    problem: str | None = None
    skipped: bool = False
    """A game not over yet, left out of a keyless archive of a root (not a refusal)."""


def file_stem(archive: Archive) -> str:
    """The archive files' name: game, id and (for a player's archive) the reader."""
    stem = f"{archive.game}-{archive.game_id}"
    if archive.scope == "player" and archive.reader:
        stem += f"-{archive.reader}"
    elif archive.confidential:
        stem += "-confidential"
    return stem


def _out_dir(out: Path) -> None:
    try:
        if out.exists() and not out.is_dir():
            raise UsageError(f"{out} is a file, not a folder", "name a folder for the archive with --out")
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a name too long, no permission, a file in the way ...
        raise UsageError(f"cannot make the folder {shorten(str(out), 200)}: {exc.strerror or exc}") from None


def write_archive(
    archive: Archive, out: Path, taken: set[str] | None = None, folder_name: str = "game"
) -> tuple[Path, Path]:
    """Write ``archive`` as ``<stem>.html`` and ``<stem>.txt`` in ``out`` (made if needed).
    ``taken``: stems this run already wrote (an archive of a root): a second folder of the
    same game id (a copy, or a fork) gets its folder's name (``folder_name``) added instead
    of overwriting the first; the stem used is added to it."""
    _out_dir(out)
    stem = file_stem(archive)
    if taken is not None:
        base = stem
        if stem in taken:
            stem = f"{base}-{file_token(folder_name)}"
        number = 2
        while stem in taken:
            stem, number = f"{base}-{file_token(folder_name)}-{number}", number + 1
        taken.add(stem)
    html, text = out / f"{stem}.html", out / f"{stem}.txt"
    try:
        atomic_write(html, render_html(archive), durable=False)
        atomic_write(text, render_text(archive), durable=False)
    except OSError as exc:
        raise UsageError(f"cannot write the archive in {out}: {exc.strerror or exc}") from None
    return html, text


def archive_game(
    folder: Path, out: Path, identity: Identity | None = None, taken: set[str] | None = None
) -> Written:
    """Build and write the archive of the game in ``folder`` (``taken``: as
    :func:`write_archive`).  Raises what :func:`pbem.archive.build.build_archive` raises;
    writes nothing then."""
    archive = build_archive(folder, identity)
    html, text = write_archive(archive, out, taken, folder.name)
    outcome = (archive.outcome or "not over").rstrip(".")
    from pbem.wording import counted

    # the last page is the final position (or the turn awaiting orders): played are the others,
    # as pbem demo, pbem verify and the page's own "Re-played N turns" count them
    summary = f"{archive.title}, {counted(len(archive.turns) - 1, 'turn')} played: {outcome}"
    return Written(folder, html, text, summary)


def archive_root(root: Path, out: Path, identity: Identity | None = None) -> list[Written]:
    """Archive every game folder under ``root`` that ``identity`` may archive (without a key:
    the finished ones) into ``out``, and write an index page of them all.  A game that is
    refused does not stop the others: its line in the index says why.  A game still being
    played that ``identity`` may not open (no key, or a key holding no seat in it) is listed
    as such (``skipped``), not refused."""
    from pbem.archive.build import _read
    from pbem.moderator.overview import game_folders

    folders = game_folders(root)
    if not folders:
        raise UsageError(f"{root} holds no pbem game (no folder with a save.json under it)")
    _out_dir(out)
    done: list[Written] = []
    taken: set[str] = set()
    for folder in folders:
        try:
            save = _read(folder)
            if save.body["seed"] is None and not _may_open(save, identity):
                title = get_game(save.game).info.title
                what = f"{title}, not over yet (turn {save.turn}): archived once it ends"
                if identity is not None:
                    what += f" (key {identity.name} holds no seat in it)"
                done.append(Written(folder, None, None, what, skipped=True))
                continue
            done.append(archive_game(folder, out, identity, taken))
        except PbemError as exc:
            problem = exc.message + (f" ({exc.hint})" if getattr(exc, "hint", None) else "")
            done.append(Written(folder, None, None, "", problem))
    write_index(done, out)
    return done


def _may_open(save: Save, identity: Identity | None) -> bool:
    """Whether ``identity`` may archive ``save``'s game before its end: the game's moderator,
    or a player of it (their own archive)."""
    from pbem.archive.build import seat_of_key

    if identity is None:
        return False
    return (
        identity.public().verify_key == save.moderator.verify_key or seat_of_key(save, identity) is not None
    )


def write_index(done: list[Written], out: Path) -> tuple[Path, Path]:
    """``index.html`` and ``index.txt`` in ``out``: a line per game, linking its archive."""
    rows, lines = [], ["Archived games", "=" * 14, ""]
    for item in done:
        # a folder's name (and a problem naming its path) as the characters it has: an override
        # in it would draw the rest of the line reversed, a control drive the reader's terminal
        shown, problem = visible(item.folder.name), visible(item.problem or "")
        name = escape(shown)
        if item.html is not None and item.text is not None:
            rows.append(
                f'<li><a href="{escape(item.html.name)}">{name}</a>: {escape(item.summary)} '
                f'(<a href="{escape(item.text.name)}">text</a>)</li>'
            )
            lines.append(f"{shown}: {item.summary}")
            lines.append(f"  {item.html.name}, {item.text.name}")
        elif item.skipped:
            rows.append(f"<li>{name}: {escape(item.summary)}</li>")
            lines.append(f"{shown}: {item.summary}")
        else:
            rows.append(f"<li>{name}: not archived: {escape(problem)}</li>")
            lines.append(f"{shown}: not archived: {problem}")
    html = (
        f'<!DOCTYPE html>\n<html lang="en"><head>{HEAD}'
        f"<title>Archived games</title><style>{CSS}</style></head><body>"
        f"<h1>Archived games</h1><ul>{''.join(rows)}</ul></body></html>\n"
    )
    index_html, index_text = out / "index.html", out / "index.txt"
    atomic_write(index_html, html, durable=False)
    atomic_write(index_text, "\n".join(fold(lines)) + "\n", durable=False)
    return index_html, index_text
