"""Per-player turn reports: public text, an encrypted private part, and signed data.

A report is plain text for a mail body.  Its hidden part (your hand, what you drew) is an
ASCII-armoured age block encrypted to the player and the moderator.  At the end a signed
data block carries the machine-readable public view, so that ``pbem orders`` and
``pbem check`` can rebuild the player's exact view offline and run the engine's own
validation on it.  The signature (moderator, domain ``pbem-report/v1``) also covers the
hash of the encrypted block, so neither part can be swapped or edited.
"""

from __future__ import annotations

import base64
import hashlib
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pbem import canonical
from pbem.errors import FormatError, SignatureError
from pbem.game import Event, Game, View
from pbem.keys import REPORT_DOMAIN, Identity, PublicCard, encrypt
from pbem.mailtext import AGE_BEGIN, AGE_END
from pbem.report_armour import armour_lines as _armour_lines
from pbem.report_armour import plain_armour as _plain_armour
from pbem.report_shape import check_report_data
from pbem.wording import WIDTH, fold, for_people, wrap_text
from pbem.wording import name_seats as name_seats  # re-exported for older callers

DATA_BEGIN = "-----BEGIN PBEM REPORT DATA-----"
DATA_SIG = "-----BEGIN PBEM SIGNATURE-----"
DATA_END = "-----END PBEM REPORT DATA-----"
PRIVATE_BEGIN = "-----BEGIN PBEM PRIVATE DATA-----"
PRIVATE_END = "-----END PBEM PRIVATE DATA-----"
REPORT_FORMAT = "pbem-report/v1"
_PROSE_START = ("PBEM REPORT", "PBEM PUBLIC REPORT")
_DATA_FIELDS = frozenset(
    ("game", "game_id", "turn", "revision", "seat", "player", "names", "awaiting", "moderator", "seq")
) | {"public", "private_sha256", "text_sha256"}
"""What every report data block holds (checked before any is used)."""


_COLUMNS64 = re.compile(".{1,64}", re.DOTALL)


def _wrap64(text: str) -> list[str]:
    """``text`` in lines of 64 characters (the last one shorter), cut by the regex engine."""
    return _COLUMNS64.findall(text)


def _b64(raw: bytes) -> list[str]:
    return _wrap64(base64.b64encode(raw).decode())


@lru_cache(maxsize=4096)
def _wrapped(text: str) -> tuple[str, ...]:
    # The same events go into every player's report: wrap each text once.
    return tuple(fold(text, WIDTH, initial_indent="- ", subsequent_indent="  ") or ["-"])


def _for_people(text: str, names: Sequence[str]) -> str:
    """:func:`for_people` of a private text, kept by its arguments (strings: an exact key;
    names not in a hashable tuple go the plain way): a seat's private text is often the
    same as the turn before (one seat plays a turn)."""
    try:
        return _for_people_kept(text, names)
    except TypeError:  # unhashable names: the plain way (raises what it raises)
        return for_people(text, names)


@lru_cache(maxsize=1024)
def _for_people_kept(text: str, names: Sequence[str]) -> str:
    return for_people(text, names)


def _event_lines(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    out: list[str] = []
    for event in events:
        out += _wrapped(name_seats(event.text, names))
    return out


def _normal_block(block: str) -> str:
    return "\n".join(line.strip() for line in block.strip().splitlines() if line.strip())


def _armour_normal(block: str) -> str:
    """:func:`_normal_block` of an armoured age block: such a block as pbem's encryption
    writes it (:func:`_armour_lines`) is its own normal form, trimmed; any other block goes
    the general way.  (The test splits in C, where the general way trims every line in
    Python.)"""
    trimmed = block.strip()
    return trimmed if _armour_lines(trimmed) is not None else _normal_block(block)


def _report_digest(prose: str, private_block: str) -> str:
    """``prose_digest(prose.splitlines())`` of a report text pbem has just rendered, the
    same hex string, without the walk line by line when it can tell the words at once.

    That is when the text is ASCII, starts with its "PBEM ..." line, holds the encrypted
    block ``private_block`` (if any) as whole lines, and no other age marker: then the
    signed words are the text's words without the block's (every ASCII line break is white
    space to :meth:`str.split`, and no other line can open or close a block).  Never raises.
    """
    rest = prose
    if private_block:
        block = private_block.strip()
        at = prose.find(f"\n{block}\n")
        if at < 0 or block.count(AGE_BEGIN) != 1 or block.count(AGE_END) != 1:
            return prose_digest(prose.splitlines())
        if not (block.startswith(AGE_BEGIN + "\n") and block.endswith("\n" + AGE_END)):
            return prose_digest(prose.splitlines())
        rest = prose[: at + 1] + prose[at + len(block) + 2 :]
    if not (rest.isascii() and rest.startswith(_PROSE_START)) or AGE_BEGIN in rest or AGE_END in rest:
        return prose_digest(prose.splitlines())
    return hashlib.sha256(" ".join(rest.split()).encode()).hexdigest()


@dataclass(frozen=True)
class ReportContext:
    """Everything about the game a report states besides the view."""

    game_id: str
    turn: int
    revision: int
    names: tuple[str, ...]
    awaiting: tuple[str, ...]
    moderator: PublicCard
    seed_commitment: str
    seed: str | None
    outcome: str | None
    seq: dict[str, int]
    press: Any = None
    """The press part of the turn's reports (:class:`pbem.press.listing.ReportPress`), or
    None for a game without press rules."""


def private_plaintext(
    game: Game, view: View, events: Sequence[Event], ctx: ReportContext, private_text: str | None = None
) -> bytes:
    """The private part of ``view.seat``'s report before padding and encryption: the seat's
    events and private text, then its private view as a base64 data block.

    ``private_text`` is the game's private description with names put in (computed here when
    not given).  The tests measure this against the game's declared padding size.  Raises
    ValueError for the public view (seat None).
    """
    seat = view.seat
    if seat is None:
        raise ValueError("the public view has no private part")
    from pbem.render import render

    if private_text is None:
        private_text = for_people(game.describe(view)[1], ctx.names)
    mine = _event_lines([e for e in events if e.to is not None and seat in e.to], ctx.names)
    plain = wrap_text(
        render(
            "private.txt.j2",
            player=ctx.names[seat],
            turn=ctx.turn,
            events=mine,
            private_text=private_text,
            press=() if ctx.press is None else ctx.press.inbox.get(seat, ()),
        )
    )
    data = {"game_id": ctx.game_id, "turn": ctx.turn, "seat": seat, "private": view.private}
    plain += "\n" + "\n".join([PRIVATE_BEGIN, *_b64(canonical.dumps(data)), PRIVATE_END]) + "\n"
    return plain.encode("utf-8")


_SLOT_MARKS = {slot: f"\x00pbem:private-{slot}\x00" for slot in ("player", "turn", "events", "text", "press")}
"""Stand for the values of the private template's variables in :func:`_private_shape`."""
_SLOT_SPLIT = re.compile("(" + "|".join(map(re.escape, _SLOT_MARKS.values())) + ")")


@lru_cache(maxsize=4)
def _private_shape(events: bool, press: bool) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """``private.txt.j2`` rendered once with a mark for each variable (one event line and
    one press line when ``events``/``press``, none otherwise), as the literal text between
    the marks and the marks' slots in order; None where the marks do not stand for the
    values exactly.

    The template writes ``player`` and ``turn`` as they are, ``private_text`` trimmed at
    its end, and each list one item a line: so a render is the literal text with, in each
    slot, the value, the trimmed text, or the list's items joined by line breaks (what
    :meth:`_Turn.plaintext` puts in).  Checked here: each mark occurs once, and a render
    with two items in a list is the one-item render with the second item on the next line.
    Four entries at most (the template ships with pbem: nothing can go stale)."""

    from pbem.render import render

    def marked(extra: str = "") -> str:
        return render(
            "private.txt.j2",
            player=_SLOT_MARKS["player"],
            turn=_SLOT_MARKS["turn"],
            events=[_SLOT_MARKS["events"], *([extra] if extra else [])] if events else [],
            private_text=_SLOT_MARKS["text"],
            press=[_SLOT_MARKS["press"], *([extra] if extra else [])] if press else (),
        )

    raw = marked()
    parts = _SLOT_SPLIT.split(raw)
    literals, marks = tuple(parts[0::2]), tuple(parts[1::2])
    slots = tuple(slot for mark in marks for slot, m in _SLOT_MARKS.items() if m == mark)
    lists = [slot for slot, on in (("events", events), ("press", press)) if on]
    if len(slots) != len(set(slots)) or set(slots) != {"player", "turn", "text", *lists}:
        return None
    if lists:
        second = "\x00pbem:private-second\x00"
        expected = raw
        for slot in lists:
            expected = expected.replace(_SLOT_MARKS[slot], f"{_SLOT_MARKS[slot]}\n{second}", 1)
        if marked(second) != expected:
            return None
    return literals, slots


def render_report(
    game: Game,
    view: View,
    events: Sequence[Event],
    ctx: ReportContext,
    moderator: Identity,
    recipient: PublicCard | None,
) -> str:
    """The report text for ``view.seat`` (or the public report when seat is None).

    Private events and the private view are encrypted to ``recipient`` and the moderator.
    This is the plain way, one report on its own; :func:`render_reports` writes a whole
    turn's reports, the same bytes, doing once what is the same for every reader.
    """
    public_text, private_text = (for_people(text, ctx.names) for text in game.describe(view))
    public_events = _event_lines([e for e in events if e.to is None], ctx.names)
    return _assemble(
        game, view, events, ctx, moderator, recipient, (public_text, private_text, public_events)
    )


def render_reports(
    game: Game,
    views: Sequence[View],
    events: Sequence[Event],
    ctx: ReportContext,
    moderator: Identity,
    recipients: Sequence[PublicCard | None],
) -> list[str]:
    """Every report of a turn, one for each of ``views`` (encrypted to the matching entry of
    ``recipients``): exactly what :func:`render_report` writes for each, byte for byte.

    What is the same for every reader is done once: the public events, and for a game with
    the ``describe_private`` hook (:class:`pbem.game.DescribedOnce`) the public text, and
    the public view's canonical JSON, for each view whose ``public`` equals that of the
    public view (seat None) among ``views``; the signed data's members that every report
    holds; and the prose of the players' reports that share a public text (:class:`_Turn`).
    Raises ValueError when the lengths differ.
    """
    public_events = _event_lines([e for e in events if e.to is None], ctx.names)
    public_view = next((v for v in views if v.seat is None), None)
    hook: Any = getattr(game, "describe_private", None)
    shared_text: str | None = None
    shared_json: bytes | None = None
    if public_view is not None:
        if callable(hook):
            shared_text = for_people(game.describe(public_view)[0], ctx.names)
        shared_json = canonical.dumps(public_view.public)
    turn = _Turn(game, ctx)
    out = []
    for view, recipient in zip(views, recipients, strict=True):
        same = public_view is not None and (view is public_view or view.public == public_view.public)
        if same and shared_text is not None:
            private_text = "" if view.seat is None else _for_people(hook(view), ctx.names)
            texts = (shared_text, private_text, public_events)
        else:
            public_text, private_text = (for_people(text, ctx.names) for text in game.describe(view))
            texts = (public_text, private_text, public_events)
        public_json = shared_json if same else None
        if view.seat is None:
            out.append(turn.public_report(view, moderator, texts, public_json))
        elif recipient is None:
            out.append(_assemble(game, view, events, ctx, moderator, recipient, texts, public_json))
        else:
            out.append(turn.report(view, events, moderator, recipient, texts, public_json))
    return out


_PUBLIC_MARK = "\x00pbem: the public view\x00"
"""Stands for the public view in a report's data until its canonical JSON, made once a turn,
is put in.  Canonical JSON writes an object as its sorted members, each value in canonical
form, so putting the public view's canonical bytes in place of the mark's gives exactly the
canonical bytes of the whole (the splice checks the mark occurs once, else dumps it all)."""
_PUBLIC_MARK_JSON = canonical.dumps(_PUBLIC_MARK)


def _signed_data(data: dict[str, Any], public_json: bytes | None) -> bytes:
    """``canonical.dumps(data)``, with ``data["public"]`` taken from ``public_json`` (its
    canonical bytes, made once a turn) when given."""
    if public_json is None:
        return canonical.dumps(data)
    raw = canonical.dumps(dict(data, public=_PUBLIC_MARK))
    if raw.count(_PUBLIC_MARK_JSON) != 1:  # pragma: no cover - no field can hold the mark
        return canonical.dumps(data)
    return raw.replace(_PUBLIC_MARK_JSON, public_json)


def _assemble(
    game: Game,
    view: View,
    events: Sequence[Event],
    ctx: ReportContext,
    moderator: Identity,
    recipient: PublicCard | None,
    texts: tuple[str, str, list[str]],
    public_json: bytes | None = None,
    encrypted: str | None = None,
) -> str:
    """One report from its texts (public text, private text, public event lines, all with
    names put in and folded): private part encrypted (unless ``encrypted`` is its block),
    prose rendered, data block signed."""
    private_text = texts[1]
    seat = view.seat
    private_block = ""
    if encrypted is not None:
        private_block = encrypted
    elif seat is not None and recipient is not None:
        plain = private_plaintext(game, view, events, ctx, private_text)
        # Padded to the game's one size: the length says nothing about the hand.
        private_block = encrypt(plain, [recipient, ctx.moderator], pad_to=private_size(game, ctx))
    data = {
        "format": REPORT_FORMAT,
        "game": game.info.name,
        "game_id": ctx.game_id,
        "turn": ctx.turn,
        "revision": ctx.revision,
        "seat": seat,
        "player": None if seat is None else ctx.names[seat],
        "names": list(ctx.names),
        "awaiting": list(ctx.awaiting),
        "moderator": ctx.moderator.to_json(),
        "seq": None if seat is None else ctx.seq.get(ctx.names[seat], 0),
        "public": view.public,
        "private_sha256": hashlib.sha256(_armour_normal(private_block).encode()).hexdigest()
        if private_block
        else None,
    }
    if ctx.press is not None and ctx.press.data is not None:
        data["press"] = ctx.press.data
    outcome = None if ctx.outcome is None else name_seats(ctx.outcome, ctx.names)
    player = None if seat is None else ctx.names[seat]
    prose = wrap_text(_report_prose(game, ctx, player, seat, texts, outcome, private_block))
    data["text_sha256"] = _report_digest(prose, private_block)
    return _finish(prose, _signed_data(data, public_json), moderator)


def private_size(game: Game, ctx: ReportContext) -> int:
    """The size a private part of ``ctx``'s turn is padded to: the game's report size, plus
    :data:`pbem.press.listing.PRESS_RESERVE` in a game with press rules (whose private parts
    list the press their player got: a public fact decides the size, never the press)."""
    size: int = game.info.padding.report
    if ctx.press is not None and ctx.press.data is not None:
        from pbem.press.listing import PRESS_RESERVE

        size += PRESS_RESERVE
    return size


def _report_prose(
    game: Game,
    ctx: ReportContext,
    player: str | None,
    seat: int | None,
    texts: tuple[str, str, list[str]],
    outcome: str | None,
    private_block: str,
) -> str:
    """The report template rendered (not folded) for ``player`` at ``seat`` with the public
    text and event lines of ``texts``, the named ``outcome`` and the encrypted block."""
    from pbem.render import render

    return render(
        "report.txt.j2",
        player=player,
        seat=seat,
        title=game.info.title,
        game_id=ctx.game_id,
        turn=ctx.turn,
        public_text=texts[0],
        events=texts[2],
        outcome=outcome,
        seed=ctx.seed,
        awaiting=list(ctx.awaiting),
        seed_commitment=ctx.seed_commitment,
        private_block=private_block,
        press=() if ctx.press is None else ctx.press.lines,
    )


def _shaped_prose(
    game: Game,
    ctx: ReportContext,
    player: str | None,
    seat: int | None,
    texts: tuple[str, str, list[str]],
    outcome: str | None,
    private_block: str,
) -> str:
    """:func:`_report_prose`'s text, from the template's shape (:mod:`pbem.report_prose`: one
    join instead of a Jinja2 run) where the shape stands for the values."""
    text = _prose_from_shape(ctx, game.info.title, player, texts, outcome, private_block)
    return _report_prose(game, ctx, player, seat, texts, outcome, private_block) if text is None else text


def _prose_from_shape(*args: Any) -> str | None:
    """:func:`pbem.report_prose.prose`, imported at the first call, which puts that function
    in this one's place: ``pbem read`` imports this module and renders nothing (the shapes
    and the renderer stay unloaded), and a turn pays no import statement per call (~7,000
    instructions each)."""
    global _prose_from_shape
    from pbem.report_prose import prose

    _prose_from_shape = prose
    return prose(*args)


_PLAYER_MARK = "\x00pbem:player\x00"
_BLOCK_MARK = "\x00pbem:private-block\x00"
"""Stand for the player's name and the private block in the prose :class:`_Turn` renders
once for every player's report (neither can occur in a name, a block or a game's text:
the rendering is used only where each occurs exactly once)."""
_SEAT_FIELDS = ("player", "private_sha256", "public", "seat", "seq", "text_sha256")
"""The members of a report's signed data that differ from one report of a turn to another
(sorted: :meth:`_Turn.signed_data` puts their values in this order)."""
_KEY_JSON = {key: canonical.dumps(key) + b":" for key in (*_DATA_FIELDS, "format", "press")}


def _member_json(value: Any) -> bytes:
    """``canonical.dumps(value)``, the same bytes, written directly for what a report's own
    members hold: None, an integer in canonical JSON's range (its decimal digits), a string
    of printable ASCII without a quote or a backslash (a digest, a name: in quotes, as it
    is, since JSON escapes none of its characters).  Anything else goes through
    :func:`canonical.dumps` and its checks."""
    kind = type(value)
    if value is None:
        return b"null"
    if kind is int and -canonical.MAX_INT <= value <= canonical.MAX_INT:
        return str(value).encode()
    if kind is str and value.isascii() and value.isprintable() and '"' not in value and "\\" not in value:
        return b'"' + value.encode() + b'"'  # nothing JSON escapes: the characters in quotes
    return canonical.dumps(value)


def _game_members(game: str, game_id: str, names: Sequence[str], moderator: PublicCard) -> dict[str, bytes]:
    """The members of every report's signed data that stay the same over a game (format,
    game, game id, names, the moderator's card), each as its key and value in canonical
    JSON, kept by the values themselves (strings, a tuple of strings and the card, a
    frozen value: an exact key); values that cannot be a key are encoded each time."""
    try:
        return _game_members_kept(game, game_id, names, moderator)
    except TypeError:  # an unhashable value: the plain way (raises what it raises)
        return _encode_game_members(game, game_id, names, moderator)


def _encode_game_members(
    game: str, game_id: str, names: Sequence[str], moderator: PublicCard
) -> dict[str, bytes]:
    values = {
        "format": REPORT_FORMAT,
        "game": game,
        "game_id": game_id,
        "names": list(names),
        "moderator": moderator.to_json(),
    }
    return {key: _KEY_JSON[key] + canonical.dumps(value) for key, value in values.items()}


@lru_cache(maxsize=256)
def _game_members_kept(
    game: str, game_id: str, names: Sequence[str], moderator: PublicCard
) -> dict[str, bytes]:
    return _encode_game_members(game, game_id, names, moderator)


class _Turn:
    """What the players' reports of one turn share, made once, and each report made from it
    (:meth:`report`): exactly the text :func:`_assemble` writes, the plain way.

    - The signed data: the canonical JSON of each member every report holds (format, game,
      ids, turn, revision, names, awaiting, the moderator's card, the press) is made once;
      a report's bytes are its members in sorted order (all keys are ASCII, so UTF-16 order
      is code point order), which is RFC 8785's encoding of the whole object.
    - The prose: for each public text, the report template is rendered and folded once with
      marks for the player's name and the private block; a report puts its name and block
      in (two replacements), and its word digest is the marked text's words with the name
      put in.  Only where this gives what the plain way gives: each mark occurs once, on a
      line of its own for the block, as a word of its own for the name; the name is one
      ASCII word whose line still fits :data:`WIDTH`; the block is an ASCII armour of lines
      that fit, with no white space but line breaks (as age writes it); the marked text
      meets :func:`_report_digest`'s conditions.  Anything else goes the plain way.
    """

    def __init__(self, game: Game, ctx: ReportContext) -> None:
        self.game, self.ctx = game, ctx
        common: dict[str, Any] = {
            "turn": ctx.turn,
            "revision": ctx.revision,
            "awaiting": list(ctx.awaiting),
        }
        if ctx.press is not None and ctx.press.data is not None:
            common["press"] = ctx.press.data
        members = {key: _KEY_JSON[key] + _member_json(value) for key, value in common.items()}
        members.update(_game_members(game.info.name, ctx.game_id, ctx.names, ctx.moderator))
        # The object's bytes as fixed runs between the values that differ from report to
        # report: ``pieces[i]`` ends with the key of the i-th of :data:`_SEAT_FIELDS`.
        pieces: list[bytes] = []
        run = b"{"
        for key in sorted([*members, *_SEAT_FIELDS]):
            if key in members:
                run += members[key] + b","
            else:
                pieces.append(run + _KEY_JSON[key])
                run = b","
        self.pieces = tuple(pieces)
        self.tail = run[:-1] + b"}" if run != b"," else b"}"
        self.outcome = None if ctx.outcome is None else name_seats(ctx.outcome, ctx.names)
        self._prose: dict[str, _Prose | None] = {}
        # The private data block's object, {"game_id", "private", "seat", "turn"} in
        # canonical (sorted) order, around the private view and the seat.
        self.private_head = b'{"game_id":' + _member_json(ctx.game_id) + b',"private":'
        self.private_tail = b',"turn":' + _member_json(ctx.turn) + b"}"

    def signed_data(self, values: dict[str, Any], public_json: bytes) -> bytes:
        """The canonical bytes of a report's data: the shared members, ``values`` (the other
        members but ``public``) and ``public_json`` (the canonical bytes of ``public``).

        One join of the fixed runs made once a turn and the values' bytes, each value
        encoded by :func:`_member_json` (a name, an integer, a digest or None, in a line)."""
        p = self.pieces
        enc = _member_json
        return b"".join(
            (
                p[0], enc(values["player"]),
                p[1], enc(values["private_sha256"]),
                p[2], public_json,
                p[3], enc(values["seat"]),
                p[4], enc(values["seq"]),
                p[5], enc(values["text_sha256"]),
                self.tail,
            )
        )  # fmt: skip

    def prose(self, public_text: str, public_events: list[str]) -> _Prose | None:
        """The marked prose for ``public_text`` (made at the first call), or None where the
        marks cannot stand for every name and block."""
        if public_text not in self._prose:
            self._prose[public_text] = _Prose.make(self, public_text, public_events)
        return self._prose[public_text]

    def plaintext(self, view: View, events: Sequence[Event], private_text: str) -> bytes:
        """:func:`private_plaintext` of a player's ``view`` (seat not None): the template's
        text from its shape (:func:`_private_shape`, rendered once a process) with the
        values put in, and the data block's JSON from fixed runs around the canonical
        bytes of the private view; the plain way where the shape cannot stand for the
        values (a value that is not a string)."""
        ctx, seat = self.ctx, view.seat
        assert seat is not None
        mine = _event_lines([e for e in events if e.to is not None and seat in e.to], ctx.names)
        press = () if ctx.press is None else ctx.press.inbox.get(seat, ())
        player = ctx.names[seat]
        shape = _private_shape(bool(mine), bool(press))
        if shape is None or type(player) is not str or type(private_text) is not str:
            return private_plaintext(self.game, view, events, ctx, private_text)
        values = {
            "player": player,
            "turn": str(ctx.turn),
            "events": "\n".join(map(str, mine)),
            "text": private_text.rstrip(),
            "press": "\n".join(map(str, press)),
        }
        literals, slots = shape
        parts = [literals[0]]
        for slot, literal in zip(slots, literals[1:], strict=True):
            parts += (values[slot], literal)
        data = b"".join(
            (
                self.private_head,
                canonical.dumps(view.private),
                b',"seat":',
                _member_json(seat),
                self.private_tail,
            )
        )
        block = "\n".join([PRIVATE_BEGIN, *_b64(data), PRIVATE_END])
        return (wrap_text("".join(parts)) + "\n" + block + "\n").encode("utf-8")

    def public_report(
        self, view: View, moderator: Identity, texts: tuple[str, str, list[str]], public_json: bytes | None
    ) -> str:
        """The public report (``view.seat`` None): :func:`_assemble`'s text, its signed data
        made from the shared members (:meth:`signed_data`, the values of a report without a
        reader) instead of a canonical walk of the whole object."""
        prose = wrap_text(_shaped_prose(self.game, self.ctx, None, None, texts, self.outcome, ""))
        values = {
            "player": None,
            "private_sha256": None,
            "seat": None,
            "seq": None,
            "text_sha256": _report_digest(prose, ""),
        }
        raw = self.signed_data(values, canonical.dumps(view.public) if public_json is None else public_json)
        return _finish(prose, raw, moderator)

    def report(
        self,
        view: View,
        events: Sequence[Event],
        moderator: Identity,
        recipient: PublicCard,
        texts: tuple[str, str, list[str]],
        public_json: bytes | None,
    ) -> str:
        """The report of a player's ``view`` (seat not None), encrypted to ``recipient``:
        :func:`_assemble`'s text, the shared parts made once."""
        game, ctx = self.game, self.ctx
        public_text, private_text, public_events = texts
        seat = view.seat
        assert seat is not None
        plain = self.plaintext(view, events, private_text)
        private_block = encrypt(plain, [recipient, ctx.moderator], pad_to=private_size(game, ctx))
        name = ctx.names[seat]
        shape = self.prose(public_text, public_events)
        block = private_block.rstrip()
        if shape is None or not shape.fits(name) or not _plain_armour(block):
            texts_done = (public_text, private_text, public_events)
            return _assemble(
                game, view, events, ctx, moderator, recipient, texts_done, public_json, private_block
            )
        values = {
            "player": name,
            "private_sha256": hashlib.sha256(block.encode()).hexdigest(),
            "seat": seat,
            "seq": ctx.seq.get(name, 0),
            "text_sha256": shape.digest(name),
        }
        raw = self.signed_data(values, canonical.dumps(view.public) if public_json is None else public_json)
        # _finish(prose, ...) with the prose's parts: one join, no copy of the prose per mark.
        data_block = _data_block(raw, moderator)
        return "".join((shape.head, name, shape.middle, block, shape.tail, "\n\n", data_block, "\n"))


@dataclass(frozen=True)
class _Prose:
    """A player's report prose rendered and folded with marks for the name and the block,
    kept as the text around the marks (the name's mark comes first)."""

    head: str
    """The folded prose up to the name's mark."""
    middle: str
    """The folded prose between the name's mark and the block's."""
    tail: str
    """The folded prose after the block's mark, trimmed at its end (the block ends with a
    marker line, so the report's trimmed prose ends with this)."""
    words_head: Any
    """SHA-256 of the words the digest covers up to the name's mark (copied per report)."""
    words_tail: bytes
    """The words the digest covers after the name's mark (the block's line left out)."""
    name_line: str
    """The folded line the name's mark is on."""

    @classmethod
    def make(cls, turn: _Turn, public_text: str, public_events: list[str]) -> _Prose | None:
        """Render the marked prose; None unless the marks stand where :class:`_Turn` needs."""
        texts = (public_text, "", public_events)
        raw = _shaped_prose(turn.game, turn.ctx, _PLAYER_MARK, 0, texts, turn.outcome, _BLOCK_MARK)
        if raw.count(_PLAYER_MARK) != 1 or raw.count(_BLOCK_MARK) != 1:
            return None
        at = raw.find(_PLAYER_MARK)
        end = raw.find("\n", at)
        name_line = raw[raw.rfind("\n", 0, at) + 1 : end if end >= 0 else len(raw)].rstrip()
        if len(name_line) > WIDTH or f"\n{_BLOCK_MARK}\n" not in f"\n{raw}":
            return None
        text = wrap_text(raw)
        at = text.find(f"\n{_BLOCK_MARK}\n")
        if at < 0:
            return None
        rest = text[: at + 1] + text[at + len(_BLOCK_MARK) + 2 :]
        if not (rest.isascii() and rest.startswith(_PROSE_START)) or AGE_BEGIN in rest or AGE_END in rest:
            return None
        words = " ".join(rest.split())
        if f" {words} ".count(f" {_PLAYER_MARK} ") != 1:
            return None
        name_at, block_at = text.find(_PLAYER_MARK), text.find(_BLOCK_MARK)
        if not 0 <= name_at < block_at:
            return None
        words_head, words_tail = words.split(_PLAYER_MARK)
        return cls(
            head=text[:name_at],
            middle=text[name_at + len(_PLAYER_MARK) : block_at],
            tail=text[block_at + len(_BLOCK_MARK) :].rstrip(),
            words_head=hashlib.sha256(words_head.encode()),
            words_tail=words_tail.encode(),
            name_line=name_line,
        )

    def fits(self, name: str) -> bool:
        """Whether ``name`` can stand in the mark's place: one ASCII word without NUL, its
        line still within :data:`WIDTH` and not making an age marker line."""
        if not (name.isascii() and "\x00" not in name and name.split() == [name]):
            return False
        line = self.name_line.replace(_PLAYER_MARK, name, 1)
        return len(line) <= WIDTH and AGE_BEGIN not in line and AGE_END not in line

    def digest(self, name: str) -> str:
        """The word digest of the prose with ``name`` put in (what :func:`_report_digest`
        gives for the report's text): the hash of the words before the name, made once,
        continued with the name and the words after it."""
        words = self.words_head.copy()
        words.update(name.encode() + self.words_tail)
        return str(words.hexdigest())


def _finish(prose: str, raw: bytes, moderator: Identity) -> str:
    """A report's text: its folded prose, then its signed data block (``raw``, signed)."""
    return prose.rstrip() + "\n\n" + _data_block(raw, moderator) + "\n"


def _data_block(raw: bytes, moderator: Identity) -> str:
    """A report's signed data block: ``raw`` and the moderator's signature of it, in base64."""
    signature = base64.b64encode(moderator.sign(REPORT_DOMAIN, raw)).decode()
    return "\n".join([DATA_BEGIN, *_b64(raw), DATA_SIG, *_wrap64(signature), DATA_END])


def _normal_line(line: str) -> str:
    if line.isascii():  # NFC and the no-break space change nothing in ASCII
        return line.strip()
    return unicodedata.normalize("NFC", line.replace("\u00a0", " ").strip())


def signed_lines(lines: Sequence[str]) -> list[str]:
    """The lines of a report's text (the lines above its data block) whose words the
    moderator signed: from its first line ("PBEM REPORT ..."), normalised, without blank lines
    and without the encrypted block (it has its own hash, private_sha256).  What a reader may
    take a fact from (the seed's commitment, say); a line outside them is anyone's.  Never
    raises."""
    kept, inside = [], False
    # ASCII text (the usual report) needs no NFC: each line is only trimmed.
    normal = [raw.strip() for raw in lines] if "".join(lines).isascii() else map(_normal_line, lines)
    for line in normal:
        if line == AGE_BEGIN:
            inside = True
        elif line == AGE_END:
            inside = False
        elif line and not inside:
            kept.append(line)
    start = next((i for i, line in enumerate(kept) if line.startswith(_PROSE_START)), 0)
    return kept[start:]


def prose_digest(lines: Sequence[str]) -> str:
    """SHA-256 of a report's text as the moderator signs it: every word, in order.

    From the first line ("PBEM REPORT ..."), NFC, the encrypted block left out (it has its
    own hash), the text is read as its sequence of words (runs of non-space characters)
    joined by single spaces.  Mail quoting, re-wrapped blank lines, indentation and lines a
    mail client folded (or joined) do not matter; every word, and the order of the words,
    does: no word can be changed, added, removed, split or joined without the digest
    changing.  (Report tables mark empty cells, so spacing carries no meaning.)"""
    words = " ".join(signed_lines(lines)).split()
    return hashlib.sha256(" ".join(words).encode()).hexdigest()


def _line_digest(lines: Sequence[str]) -> str:
    """The digest of reports written before words were signed: lines trimmed, layout kept."""
    return hashlib.sha256("\n".join(signed_lines(lines)).encode()).hexdigest()


@dataclass(frozen=True)
class Report:
    """A verified report, with its private part if a key opened it."""

    data: dict[str, Any]
    text: str
    private_text: str | None
    private: Any

    @property
    def moderator(self) -> PublicCard:
        return PublicCard.from_json(self.data["moderator"])

    def view(self) -> View:
        """The player's view, exactly as the engine built it."""
        return View(self.data["game"], self.data["seat"], self.data["public"], self.private or {})

    def readable(self) -> str:
        """The report with the encrypted block replaced by its plaintext (mail quoting removed)."""
        from pbem.mailtext import unquoted as _unquoted

        lines = _unquoted(self.text)
        if self.private_text is None:
            return "\n".join(lines).rstrip() + "\n"
        start = next(i for i, line in enumerate(lines) if line.strip() == AGE_BEGIN)
        end = next(i for i, line in enumerate(lines) if line.strip() == AGE_END)
        return "\n".join([*lines[:start], self.private_text.rstrip(), *lines[end + 1 :]]).rstrip() + "\n"


def _between(lines: list[str], begin: str, end: str, source: str) -> tuple[int, int]:
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == begin)
        stop = next(i for i in range(start, len(lines)) if lines[i].strip() == end)
    except StopIteration:
        from pbem.file_kind import REPORT, wrong_file

        other = wrong_file("\n".join(lines), source, REPORT) if begin == DATA_BEGIN else None
        raise other or FormatError(f"{source} is not a pbem report (no {begin} ... {end} block)") from None
    return start, stop


def _check_blocks(lines: Sequence[str], private: bool, source: str) -> None:
    """Raise SignatureError unless the text above a report's data block holds exactly the
    age markers pbem writes: one encrypted block when the report has a private part (the
    one whose hash the moderator signed), none when it has not.

    The signed words leave out every line between age markers (the private block has its
    own hash), so a second block, or a lone BEGIN line, would let anyone add lines that no
    signature covers and that ``pbem read`` prints as part of the verified report."""
    markers = sum(1 for line in lines if _normal_line(line) in (AGE_BEGIN, AGE_END))
    if markers != (2 if private else 0):
        raise SignatureError(
            f"{source}: the report's text holds {markers} encrypted-block marker line(s) where the "
            f"moderator wrote {2 if private else 0}: lines between them are not signed, so someone "
            "added them",
            "ask the moderator for the report again; do not act on this copy",
        )


def parse_report(
    text: str, source: str, identity: Identity | None = None, moderator: PublicCard | None = None
) -> Report:
    """Verify a report and, with ``identity``, decrypt its private part.

    Raises FormatError (not a report, damaged) or SignatureError (edited, or signed by
    another moderator than ``moderator`` when given).
    """
    from pbem.mailtext import unquoted as _unquoted

    lines = [line.strip() for line in _unquoted(text)]
    start, stop = _between(lines, DATA_BEGIN, DATA_END, source)
    try:
        sig_at = lines.index(DATA_SIG, start, stop)
        data = canonical.loads(base64.b64decode("".join(lines[start + 1 : sig_at]), validate=True), source)
        signature = base64.b64decode("".join(lines[sig_at + 1 : stop]), validate=True)
    except ValueError:
        raise FormatError(f"{source}: the report data block is damaged") from None
    if not isinstance(data, dict) or data.get("format") != REPORT_FORMAT:
        raise FormatError(f"{source}: unknown report format")
    missing = sorted(_DATA_FIELDS - set(data))
    if missing or not isinstance(data["moderator"], dict):
        raise FormatError(
            f"{source}: the report data block is damaged (missing or bad: {missing or 'moderator'})"
        )
    check_report_data(data, source)
    try:
        card = PublicCard.from_json(data["moderator"])
    except FormatError as exc:
        raise FormatError(f"{source}: {exc.message}") from None
    if moderator is not None and card.verify_key != moderator.verify_key:
        raise SignatureError(f"{source} was not signed by moderator {moderator.name} ({moderator.key_id})")
    try:
        card.verify(REPORT_DOMAIN, canonical.dumps(data), signature)
    except SignatureError:
        raise SignatureError(f"{source}: the report was changed after the moderator signed it") from None
    if data["text_sha256"] not in (prose_digest(lines[:start]), _line_digest(lines[:start])):
        raise SignatureError(
            f"{source}: the report's text was changed after the moderator signed it",
            "ask the moderator for the report again; do not act on this copy",
        )
    _check_blocks(lines[:start], bool(data.get("private_sha256")), source)
    private_text = None
    private = None
    if data.get("private_sha256"):
        a, b = _between(lines, AGE_BEGIN, AGE_END, source)
        block = "\n".join(line for line in lines[a : b + 1] if line)
        if hashlib.sha256(_normal_block(block).encode()).hexdigest() != data["private_sha256"]:
            raise SignatureError(f"{source}: the encrypted part is not the one the moderator signed")
        if identity is not None:
            player = data["player"]
            try:
                opened = identity.decrypt(block + "\n")
            except FormatError:
                if player is not None and player.lower() != identity.name.lower():
                    raise FormatError(
                        f"{source} is {player}'s report: cannot decrypt with {identity.name}'s key",
                        f"read your own report (reports/turn-N/{identity.name}.txt), or pass your own key",
                    ) from None
                raise FormatError(
                    f"{source}: cannot decrypt with {identity.name}'s key: the private part is not "
                    "encrypted to it",
                    "pass the key whose card you gave the moderator; if you did, ask the moderator "
                    "for the report again",
                ) from None
            try:
                plain = opened.decode("utf-8")
                plines = plain.splitlines()
                p0, p1 = _between(plines, PRIVATE_BEGIN, PRIVATE_END, source)
                inner = canonical.loads(base64.b64decode("".join(plines[p0 + 1 : p1]), validate=True), source)
            except ValueError:
                raise FormatError(f"{source}: the private part is damaged") from None
            if not isinstance(inner, dict) or "private" not in inner:
                raise FormatError(f"{source}: the private part is damaged")
            if inner.get("game_id") != data["game_id"] or inner.get("turn") != data["turn"]:
                raise SignatureError(f"{source}: the private part belongs to another report")
            private = inner["private"]
            private_text = "\n".join(plines[:p0]).rstrip() + "\n"
    return Report(data, text, private_text, private)
