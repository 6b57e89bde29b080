"""Building a game's :class:`~pbem.archive.model.Archive`: from public files alone (a
finished game), with the moderator's key (any time; confidential before the end) or with a
player's key (that player's own archive, from the reports they can open).

Orders: a finished game's saves keep each turn's orders only as the JSON the game
validated, so the public archive has the game write them back as order lines (its
``order_lines`` hook; the JSON itself where a game has none) and says so.  The moderator's
key opens the sealed order files in ``orders/``, so the moderator's archive shows the
lines each player wrote (when they still validate to the orders the game resolved).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from itertools import pairwise
from pathlib import Path

from pbem.archive.charts import PALETTE
from pbem.archive.model import Archive, Chart, PlayerOrders, PrivatePart, Section, TurnPage
from pbem.archive.rebuild import Rebuilt, Step, on_line, rebuild
from pbem.errors import FormatError, PbemError, UsageError
from pbem.game import JSON, Event, Game, OrderErrors, View
from pbem.inputs import read_text, visible
from pbem.keys import Identity
from pbem.registry import get_game
from pbem.save import Save, open_secret
from pbem.wording import counted, for_people, name_seats, wrap_text

WRITTEN_BACK = (
    "Orders are shown as the game writes back what the save keeps (the validated orders, "
    "not the files the players wrote: those stay sealed to the moderator)."
)
_SEQ_FILE = re.compile(r"(.+)\.seq([0-9]{1,9})\.txt")
_SVG_DANGER = re.compile(
    r"<script|<foreignobject|\son[a-z]+\s*=|(?:href|src)\s*=\s*[\"'](?!#)", re.IGNORECASE
)


def extra_sections(folder: Path, save: Save, turn: int, reader: str | None) -> tuple[Section, ...]:
    """Sections added to ``turn``'s page besides the game's own report: where public press
    (table talk, issue 14) goes once it exists.  ``reader`` is the player whose archive this
    is (None: everyone's); a section must hold only what that reader could read: the press
    the game's end made public (pbem.press.listing.archive_sections), the same for every reader."""
    from pbem.press.listing import archive_sections

    return tuple(Section(title, lines) for title, lines in archive_sections(folder, save, turn))


def _named_events(events: Sequence[Event], names: Sequence[str]) -> tuple[str, ...]:
    return tuple(wrap_text(name_seats(e.text, names)) for e in events)


def _pictures(game: Game, view: View, names: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The game's pictures of a public view, named; an SVG that could run code or load
    anything is left out (the archive must open offline and run nothing)."""
    out = []
    for filename, content in sorted(game.pictures(view).items()):
        if filename.endswith(".svg") and not _SVG_DANGER.search(content):
            out.append((filename, name_seats(content, names)))
    return tuple(out)


def _written_back(game: Game, view: View, orders: JSON) -> tuple[str, ...]:
    """Orders as order lines through the game's hook, else as compact JSON lines."""
    hook = getattr(game, "order_lines", None)
    if callable(hook):
        try:
            return tuple(hook(view, orders))
        except Exception:  # a hook that fails on a log it resolved: show the JSON instead
            pass
    return tuple(json.dumps(orders, sort_keys=True, ensure_ascii=False).splitlines())


def _sealed_orders(
    folder: Path, game: Game, view: View, name: str, turn: int, orders: JSON, moderator: Identity
) -> tuple[str, ...] | None:
    """The lines ``name`` wrote for ``turn`` (the highest Seq accepted), if the moderator's
    key opens that file and its lines still validate to ``orders``; else None."""
    from pbem.orders import open_orders

    where = folder / "orders" / f"turn-{turn:04d}"
    try:
        found = [(m, where / p) for p in _names(where) if (m := _SEQ_FILE.fullmatch(p))]
    except OSError:
        return None
    files = [(int(m.group(2)), path) for m, path in found if m.group(1) == name]
    for _, path in sorted(files, reverse=True):
        try:
            signed = open_orders(read_text(path, "order file"), moderator, str(path))
            if game.validate(view, signed.lines) != orders:
                continue
        except (PbemError, OrderErrors, ValueError):
            continue
        body = signed.signed_text.splitlines()
        # as written, but no terminal escapes (a trailing comment may hold anything the player signed)
        return tuple(visible(line) for line in body if not re.match(r"(Game|Turn|Player|Seq):", line))
    return None


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


class _Charts:
    """Chart values gathered turn by turn (see :class:`pbem.game.Archived`)."""

    def __init__(self, game: Game, names: Sequence[str]) -> None:
        self.hook = getattr(game, "charts", None)
        self.names = names
        self.turns: list[int] = []
        self.values: dict[str, list[dict[int, int]]] = {}

    def add(self, turn: int, views: Sequence[View], own: Mapping[int, View]) -> None:
        """Values at ``turn``: everything ``views`` show, then each seat's value from its
        own view in ``own``."""
        if not callable(self.hook):
            return
        merged: dict[str, dict[int, int]] = {}
        for view in views:
            for title, values in self.hook(view).items():
                merged.setdefault(title, {}).update(values)
        for seat, view in own.items():
            for title, values in self.hook(view).items():
                if seat in values:
                    merged.setdefault(title, {})[seat] = values[seat]
        index = len(self.turns)
        self.turns.append(turn)
        for title, values in merged.items():
            rows = self.values.setdefault(title, [{} for _ in range(index)])
            rows.append(values)
        for rows in self.values.values():
            while len(rows) < len(self.turns):
                rows.append({})

    def charts(self) -> tuple[Chart, ...]:
        out = []
        for title, rows in self.values.items():
            series = tuple(
                (name, tuple(row.get(seat) for row in rows))
                for seat, name in enumerate(self.names)
                if any(seat in row for row in rows)
            )
            if series:
                out.append(Chart(title, tuple(self.turns), series))
        return tuple(out)


def _private(
    game: Game, view: View, events: Sequence[Event], names: Sequence[str], told_by: Sequence[str]
) -> PrivatePart | None:
    """What the seat of ``view`` alone read at its turn (``names``: the players then), with
    the private events of the turn before (``told_by``: the players of that turn)."""
    seat = view.seat
    assert seat is not None
    text = for_people(game.describe(view)[1], names).rstrip()
    mine = _named_events([e for e in events if e.to is not None and seat in e.to], told_by)
    if not text and not mine:
        return None
    return PrivatePart(names[seat], mine, text)


def _from_rebuilt(
    folder: Path, built: Rebuilt, scope: str, moderator: Identity | None, pending: Mapping[str, JSON]
) -> Archive:
    save, game = built.save, built.game
    names = tuple(save.names)
    finished = save.body["outcome"] is not None
    charts = _Charts(game, names)
    pages: list[TurnPage] = []
    verbatim_all = True
    last = len(built.steps) - 1
    told_by = names
    for index, step in enumerate(built.steps):
        # the players of this turn (a seat replaced later has its old name here), and of the
        # turn before, whose resolution the events tell
        here = _names_of(built.last.get(step.turn), names)
        told_by = here if index == 0 else told_by
        public_view = game.observe(step.state, None)
        views = {seat: game.observe(step.state, seat) for seat in range(len(names))}
        # the events as the turn's last signed save tells them: the first one's, and any
        # note added during the turn (a rollback to it says so)
        signed = built.last.get(step.turn, built.signed[step.turn]).body["events"]
        events = _named_events([Event.from_json(e) for e in signed], told_by)
        private = tuple(
            part
            for seat in range(len(names))
            if (part := _private(game, views[seat], step.events, here, told_by))
        )
        # seats the stand-in played this turn: the engine's public event in the next turn's save
        stood = {} if index == last else _stood_in(built.signed.get(built.steps[index + 1].turn))
        orders, verbatim_all = _orders(folder, game, step, views, here, moderator, verbatim_all, stood)
        note = ""
        if index == last and not finished:
            accepted = {int(seat): entry["orders"] for seat, entry in pending.items()}
            orders, verbatim_all = _orders(
                folder, game, Step(step.turn, step.state, (), accepted), views, here, moderator, verbatim_all
            )
            note = "The turn is still open: these are the orders accepted so far."
        told_by = here
        pages.append(
            TurnPage(
                turn=step.turn,
                events=events,
                public_text=for_people(game.describe(public_view)[0], here).rstrip(),
                private=private,
                orders=orders,
                awaiting=tuple(here[s] for s in game.to_act(step.state)),
                pictures=_pictures(game, public_view, here),
                extra=extra_sections(folder, save, step.turn, None),
                orders_note=note,
            )
        )
        charts.add(step.turn, [public_view], views)
    outcome = save.body["outcome"]
    reveal = tuple(part for part in pages[-1].private if _telling(part)) if finished else ()
    notes = [] if verbatim_all else [WRITTEN_BACK]
    notes += seat_changes([built.last[step.turn] for step in built.steps if step.turn in built.last])
    rollbacks = save.body.get("reseeds") or []
    if rollbacks:
        to = ", then of turn ".join(str(r.get("turn")) for r in rollbacks if isinstance(r, dict))
        notes.append(
            f"The moderator rolled the game back {counted(len(rollbacks), 'time')} (to the start of turn "
            f"{to}); the turns undone are not shown (their files are in the game folder's undone/)."
        )
    seed = save.body["seed"] if finished else None
    return Archive(
        game=game.info.name,
        title=game.info.title,
        game_id=save.game_id,
        names=names,
        scope=scope,
        reader=None,
        finished=finished,
        outcome=None if outcome is None else name_seats(outcome["summary"], names),
        seed=seed,
        seed_commitment=save.body["seed_commitment"],
        checked=(
            f"Re-played {len(built.steps) - 1} turns from the "
            f"{'revealed' if finished else 'secret'} seed (checked against its commitment) and "
            f"compared with {built.compared} signed saves: every position matches."
        ),
        turns=tuple(pages),
        reveal=reveal,
        charts=charts.charts(),
        notes=tuple(notes),
        palette=palette_of(game, len(names)),
    )


def _names_of(save: Save | None, names: tuple[str, ...]) -> tuple[str, ...]:
    """The players' names in ``save`` (``names`` if there is none, or its seats differ)."""
    if save is None or len(save.names) != len(names):
        return names
    return tuple(save.names)


_STATUS = {
    "resigned": "{name} resigned at turn {turn}: the stand-in played the seat from then on.",
    "abandoned": "{name}'s seat was marked abandoned at turn {turn}: the stand-in played it from then on.",
    "active": "{name} played the seat again from turn {turn}.",
}


def seat_changes(saves: Sequence[Save]) -> list[str]:
    """Who took over a seat, resigned or abandoned it, and from which turn, read from the
    signed saves of successive turns (``saves``: the last save of each turn, in order):
    a page names the players of its turn, so a reader is told why a name changes."""
    out: list[str] = []
    for before, after in pairwise(saves):
        old, new = before.body["players"], after.body["players"]
        if len(old) != len(new):
            continue
        for was, now in zip(old, new, strict=True):
            name, gone = now["card"]["name"], was["card"]["name"]
            if now["card"] != was["card"]:
                out.append(
                    f"{name} took over {gone}'s seat at turn {after.turn}; the turns before name {gone}."
                    if name != gone
                    else f"A new player called {name} took over the seat at turn {after.turn}."
                )
            elif now["status"] != was["status"] and now["status"] in _STATUS:
                out.append(_STATUS[now["status"]].format(name=name, turn=after.turn))
    return out


def _telling(part: PrivatePart) -> bool:
    """Whether a private part tells more than who its reader is (a game with no hidden
    information says only "You are alice." at the end: no reveal to show)."""
    return bool(part.events) or len([line for line in part.text.splitlines() if line.strip()]) > 1


def _orders(
    folder: Path,
    game: Game,
    step: Step,
    views: Mapping[int, View],
    names: Sequence[str],
    moderator: Identity | None,
    verbatim_all: bool,
    stood: Mapping[int, str] | None = None,
) -> tuple[tuple[PlayerOrders, ...], bool]:
    """Each seat's orders of ``step``: as written (the moderator's key opens their order file)
    or written back by the game; ``stood``: the seats the stand-in played, and how."""
    out = []
    for seat, orders in sorted(step.orders.items()):
        lines = None
        if moderator is not None and seat not in (stood or {}):
            lines = _sealed_orders(folder, game, views[seat], names[seat], step.turn, orders, moderator)
        if lines is not None:
            out.append(PlayerOrders(names[seat], lines, True))
            continue
        verbatim_all = False
        if seat in (stood or {}):
            note = f"the stand-in's orders, {(stood or {})[seat]}; written back by the game from the save"
        else:
            note = "written back by the game from the save" + (
                "" if moderator is None else " (no order file of theirs gives these orders: the stand-in's?)"
            )
        out.append(PlayerOrders(names[seat], _written_back(game, views[seat], orders), False, note))
    return tuple(out), verbatim_all


_STAND_IN = re.compile(r"player ([0-9]{1,3})'s orders were played by the stand-in \((.{1,200})\)\.")


def _stood_in(save: Save | None) -> dict[int, str]:
    """The seats whose orders the stand-in played in the turn before ``save``, with how
    ("filled in by the moderator", "the default orders, deadline passed" ...): read from the
    public event the engine writes for each (pbem.engine)."""
    out: dict[int, str] = {}
    for event in [] if save is None else save.body["events"]:
        match = _STAND_IN.fullmatch(str(event.get("text", "")) if isinstance(event, dict) else "")
        if match:
            out[int(match.group(1)) - 1] = match.group(2)
    return out


def _read(folder: Path) -> Save:
    """The folder's verified save (no key needed)."""
    from pbem.engine import GameFolder

    return GameFolder(folder).read()


def finished_archive(folder: Path) -> Archive:
    """The archive of a finished game from its public files alone (no key).

    Raises UsageError if the game is not over, RollbackError if the re-play does not match
    the signed saves, and what reading the save raises.
    """
    save = _read(folder)
    if save.body["seed"] is None or save.body["replay"] is None:
        raise UsageError(
            f"game {save.game_id} in {folder} is not over: its seed and orders are still secret, so "
            "nothing can be re-played from public files",
            "archive it after the end, or now with a key: --key YOURS.key gives a player their own "
            "archive, the moderator's key the full one (confidential)",
        )
    built = rebuild(folder, save, bytes.fromhex(save.body["seed"]), save.body["replay"])
    return _from_rebuilt(folder, built, "full", None, {})


def moderator_archive(folder: Path, identity: Identity) -> Archive:
    """The full archive with the moderator's key, at any time (confidential before the end),
    with the orders as the players wrote them.  Raises as :func:`finished_archive` and
    ForeignError for another moderator's key."""
    from pbem.engine import GameFolder

    save = GameFolder(folder).read(identity.public())
    secret = open_secret(save, identity)
    built = rebuild(folder, save, secret.seed, secret.log)
    if built.steps[-1].state != secret.state:
        from pbem.errors import RollbackError

        raise RollbackError(
            f"re-playing the log of {save.source} does not reach the state sealed in it",
            "do not trust this save; restore the folder from a backup",
        )
    return _from_rebuilt(folder, built, "moderator", identity, secret.pending)


def seat_of_key(save: Save, identity: Identity) -> int | None:
    """The seat whose public card holds ``identity``'s keys, or None."""
    mine = identity.public()
    for seat, card in enumerate(save.players):
        if card.verify_key == mine.verify_key:
            return seat
    return None


def player_archive(folder: Path, identity: Identity) -> Archive:
    """A player's own archive before the end: every turn's report they can open (public text
    and their private part), the public events of the signed saves, and charts of what their
    views show.  Nothing another player alone could read is used.

    Raises ForeignError if ``identity`` holds no seat, UsageError if the folder has none of
    their reports, FormatError or SignatureError for a damaged or forged report.
    """
    from pbem.archive.rebuild import history
    from pbem.errors import ForeignError
    from pbem.reports import parse_report

    save = _read(folder)
    seat = seat_of_key(save, identity)
    if seat is None:
        raise ForeignError(
            f"key {identity.name} ({identity.public().key_id}) holds no seat in game {save.game_id} "
            f"(players: {', '.join(save.names)})",
            "use your own key for this game, or archive it without a key once it is over",
        )
    game = get_game(save.game)
    names = tuple(save.names)
    me = names[seat]
    line = on_line(history(folder, save))
    charts = _Charts(game, names)
    pages = []
    for turn in range(1, save.turn + 1):
        path = folder / "reports" / f"turn-{turn:04d}" / f"{me}.txt"
        if not path.is_file():
            continue
        report = parse_report(read_text(path, "report"), str(path), identity, save.moderator)
        if (
            report.data["game_id"] != save.game_id
            or report.data["seat"] != seat
            or report.data["turn"] != turn
        ):
            raise FormatError(f"{path} is not {me}'s report of turn {turn} of game {save.game_id}")
        view = report.view()
        public_view = View(game.info.name, None, view.public)
        signed = line.get(turn)
        # the players as this report named them, and as the turn before had them (its
        # resolution is what the events tell): a seat replaced later keeps its old name here
        here = _names_of(signed[-1] if signed else None, names)
        before = line.get(turn - 1)
        told_by = _names_of(before[-1] if before else None, here)
        events = (
            ()
            if not signed
            else _named_events([Event.from_json(e) for e in signed[-1].body["events"]], told_by)
        )
        private: tuple[PrivatePart, ...] = ()
        if report.private_text and report.private_text.strip():
            private = (PrivatePart(me, (), report.private_text.rstrip()),)
        pages.append(
            TurnPage(
                turn=turn,
                events=events,
                public_text=for_people(game.describe(public_view)[0], here).rstrip(),
                private=private,
                orders=(),
                awaiting=tuple(report.data["awaiting"]),
                pictures=_pictures(game, public_view, here),
                extra=extra_sections(folder, save, turn, me),
                orders_note="Orders stay sealed to the moderator until the end of the game.",
            )
        )
        charts.add(turn, [view], {})
    if not pages:
        raise UsageError(f"{folder / 'reports'} holds no report of {me}'s in game {save.game_id}")
    return Archive(
        game=game.info.name,
        title=game.info.title,
        game_id=save.game_id,
        names=names,
        scope="player",
        reader=me,
        finished=False,
        outcome=None,
        seed=None,
        seed_commitment=save.body["seed_commitment"],
        checked=(
            f"Built from {len(pages)} reports of {me}'s, each signed by the moderator; the game is not "
            "over, so nothing could be re-played."
        ),
        turns=tuple(pages),
        charts=charts.charts(),
        palette=palette_of(game, len(names)),
        notes=(
            f"{me}'s own archive: the public reports and what {me} alone could read.",
            *seat_changes([saves[-1] for _, saves in sorted(line.items())]),
        ),
    )


def palette_of(game: Game, players: int) -> tuple[str, ...]:
    """The colour of each seat in charts: the game's own (``chart_colours``, so that a Symbioz
    player's line has their pawns' colour) when it gives one valid ``#rrggbb`` per seat, else
    the archive's palette."""
    hook = getattr(game, "chart_colours", None)
    colours = tuple(hook(players)) if hook is not None else ()
    if len(colours) >= players and all(re.fullmatch(r"#[0-9a-fA-F]{6}", c) for c in colours):
        return colours[:players]
    return tuple(PALETTE[seat % len(PALETTE)] for seat in range(players))


def build_archive(folder: Path, identity: Identity | None = None) -> Archive:
    """The archive ``identity`` may have of the game in ``folder``: without a key, a finished
    game's full archive; with the moderator's key, the full one (confidential before the
    end); with any other key, the full one after the end (the game is public then), and a
    player's own archive before it (ForeignError for a key that holds no seat)."""
    if identity is None:
        return finished_archive(folder)
    save = _read(folder)
    if identity.public().verify_key == save.moderator.verify_key:
        return moderator_archive(folder, identity)
    if save.body["seed"] is not None:  # over: public to all, whoever's key this is
        return finished_archive(folder)
    return player_archive(folder, identity)
