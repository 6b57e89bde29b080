"""A player's side: order forms, offline checking and signing, from a decrypted report.

The checker runs the game's own ``validate`` on the view rebuilt from the signed report,
the very function the engine runs on submission: what one accepts, the other accepts.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import (
    ForeignError,
    FormatError,
    OrdersRejected,
    PbemError,
    ReplayError,
    SignatureError,
    UsageError,
)
from pbem.folder import HOME_HINT, MISCONFIGURED, atomic_write, default_home, read_record, write_record
from pbem.game import OrderErrors, OrderLine
from pbem.keys import Identity, PublicCard, key_id_of
from pbem.mailtext import AGE_BEGIN, AGE_END
from pbem.mailtext import unquoted as _unquoted
from pbem.registry import get_game
from pbem.report_shape import game_call
from pbem.reports import _PROSE_START, DATA_BEGIN, Report, parse_report
from pbem.wording import form_lines

if TYPE_CHECKING:
    from pbem.engine import Loaded
    from pbem.orders import OrderHeader
    from pbem.rng import Rng
    from pbem.signed_form import SignedForm


def __getattr__(name: str) -> Any:
    """``pbem.player.SignedForm``, for older callers: it lives in :mod:`pbem.signed_form`."""
    if name == "SignedForm":
        from pbem.signed_form import SignedForm

        return SignedForm
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class KnownModerators:
    """A player's local memory of which moderator key runs which game (trust on first use).

    Anyone can write a report-shaped file into a shared folder; pinning the moderator's key
    the first time a game's report is read means a later forgery, signed by another key,
    is refused instead of steering the player's sealed orders to the forger.
    """

    def __init__(self, home: Path) -> None:
        self.path = home / "moderators.json"

    def _read(self) -> dict[str, Any]:
        try:
            return read_record(self.path)
        except OSError as exc:  # PBEM_HOME is a file, unreadable ...: the pins cannot be checked
            if exc.errno not in MISCONFIGURED:
                raise  # a failing disk: said as such (pbem.cli)
            raise UsageError(
                f"cannot read the pinned moderator keys {self.path}: {exc.strerror}", HOME_HINT
            ) from None

    def pin(self, game_id: str, card: PublicCard) -> None:
        """Remember ``card`` as the moderator of ``game_id`` (replacing any earlier key).
        Raises UsageError when the record cannot be written (``$PBEM_HOME`` unusable)."""
        data = self._read()
        data[game_id] = {"name": card.name, "sign": card.verify_key.hex()}
        try:
            write_record(self.path, data)
        except OSError as exc:
            if exc.errno not in MISCONFIGURED:
                raise  # a full or failing disk: said as such (pbem.cli)
            raise UsageError(
                f"cannot write the pinned moderator keys {self.path}: {exc.strerror}", HOME_HINT
            ) from None

    def card_of(self, game_id: str) -> PublicCard | None:
        """The moderator key pinned for ``game_id`` (as a card, named as when it was
        pinned), or None when none is.  Raises FormatError when the record of it is
        damaged, and as :meth:`pin` when the record cannot be read."""
        known = self._read().get(game_id)
        if known is None:
            return None
        try:
            return PublicCard(str(known.get("name", "moderator")), bytes.fromhex(known["sign"]), "")
        except (AttributeError, KeyError, TypeError, ValueError):
            raise FormatError(f"the record of pinned moderator keys {self.path} is damaged") from None

    def games(self) -> frozenset[str]:
        """The ids of the games a moderator key is pinned for.  Raises as :meth:`pin`."""
        return frozenset(self._read())

    def check(self, game_id: str, card: PublicCard, source: str, *, pin: bool = True) -> bool:
        """Pin on first use; afterwards raise SignatureError for any other key.

        Returns True when no key is pinned for the game yet (the first report of the game);
        then ``card`` is pinned, unless ``pin`` is False (the caller pins it once the rest of
        the report has checked out).
        """
        known = self._read().get(game_id)
        if known is None:
            if pin:
                self.pin(game_id, card)
            return True
        if known["sign"] != card.verify_key.hex():
            raise SignatureError(
                f"{source} is signed by moderator key {card.key_id}, but game {game_id} is run by "
                f"{known['name']}'s key {key_id_of(bytes.fromhex(known['sign'])).hex().upper()}: "
                "a forged report, or the moderator changed keys",
                "ask your moderator; if they really changed keys, pass --moderator NEW.pub",
            )
        return False


class SignedSeqs:
    """A player's local memory of the highest ``Seq`` they signed in each game, so that a new
    form (``pbem orders``) asks for a number above it: after orders are sent, a form written
    from the same report would otherwise repeat their ``Seq`` and be refused as a replay.
    Never raises: a record that cannot be read or written only means the report's number."""

    def __init__(self, home: Path) -> None:
        self.path = home / "signed.json"

    def last(self, game_id: str, player: str) -> int:
        try:
            value = read_record(self.path).get(f"{game_id}/{player.lower()}", 0)
        except (PbemError, OSError):
            return 0
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9
        return value if ok else 0

    def signed(self, header: OrderHeader) -> None:
        """Remember that ``header.seq`` was signed (if higher than before)."""
        key = f"{header.game}/{header.player.lower()}"
        try:
            data = read_record(self.path)
            if header.seq > self.last(header.game, header.player):
                data[key] = header.seq
                write_record(self.path, data, durable=False)
        except (PbemError, OSError):
            return


class ReportCopies:
    """A player's local copies of the reports they opened, so that ``pbem check`` and
    ``pbem sign`` find the report a form answers from the form's own headers (game, turn,
    player) without being told where it is: a report that came by mail may have been saved
    anywhere, or nowhere.

    One file per report under ``<home>/reports/<game id>/``, the newest revision of each turn
    kept.  A copy is the report exactly as received (its private part stays encrypted) and is
    verified again each time it is used.
    """

    def __init__(self, home: Path) -> None:
        self.folder = home / "reports"

    @staticmethod
    def _number(value: Any) -> int | None:
        ok = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**9
        return value if ok else None

    def _dir(self, game_id: str, player: str) -> Path | None:
        if not _game_id(game_id) or not _player_name(player):
            return None
        return self.folder / game_id / player.lower()

    def keep(self, report: Report) -> None:
        """Keep a copy of a verified report (newer revisions of a turn replace older ones).
        Never raises: a copy that cannot be written only means --report will be needed."""
        data = report.data
        turn, revision = self._number(data.get("turn")), self._number(data.get("revision"))
        folder = self._dir(str(data.get("game_id")), str(data.get("player")))
        if folder is None or turn is None or revision is None:
            return
        older = _named(folder, f"turn-{turn:09d}.rev-")
        target = folder / f"turn-{turn:09d}.rev-{revision:09d}.txt"
        if older and older[-1].name > target.name:
            return
        try:
            if not _holds(target, report.text):  # read again: nothing to write (start-up, issue 13)
                atomic_write(target, report.text, mode=0o600, durable=False)
            for path in older:
                if path != target:
                    path.unlink(missing_ok=True)
        except OSError:
            return

    def written_after(self, report: Report) -> tuple[int, int, Path] | None:
        """A kept report of ``report``'s game and player written after it (a higher revision)
        for the same or an earlier turn, as (turn, revision, path); None when there is none.

        Such a copy means the moderator went back (``pbem rollback``) or wrote the turn
        again after ``report``: ``report`` shows a position the game left.  A report of an
        earlier turn read again is not one (every later copy is of a later turn).  Never
        raises."""
        data = report.data
        turn, revision = self._number(data.get("turn")), self._number(data.get("revision"))
        folder = self._dir(str(data.get("game_id")), str(data.get("player")))
        if folder is None or turn is None or revision is None:
            return None
        for path in _named(folder, "turn-"):
            name = path.name  # turn-NNNNNNNNN.rev-NNNNNNNNN.txt
            kept_turn, kept_revision = name[5:14], name[19:28]
            if not (kept_turn.isdigit() and kept_revision.isdigit()):
                continue
            if int(kept_turn) <= turn and int(kept_revision) > revision:
                return int(kept_turn), int(kept_revision), path
        return None

    def of_game(self, game_id: str) -> list[Path]:
        """Every kept report of game ``game_id``, each player's kept here, sorted by player
        then turn (none when the game id is malformed or nothing is kept)."""
        if not _game_id(game_id):
            return []
        folder = self.folder / game_id
        try:
            players = sorted(
                entry.name for entry in os.scandir(folder) if entry.is_dir(follow_symlinks=False)
            )
        except OSError:
            return []
        return [path for player in players for path in _named(folder / player, "turn-")]

    def find(self, header: OrderHeader) -> tuple[str, str] | None:
        """The text and path of the newest kept report for ``header``'s game, turn and player.

        Raises ReplayError when a report of a later turn of that game is kept, written before
        the newest kept report of this turn: the form answers an old report.  A report of this
        turn written after it (the moderator rolled the game back to this turn) is the newest.
        """
        folder = self._dir(header.game, header.player)
        if folder is None or not folder.is_dir():
            return None
        kept = _named(folder, "turn-")
        mine = [path for path in kept if path.name.startswith(f"turn-{header.turn:09d}.")]
        if kept and kept[-1].name > f"turn-{header.turn:09d}.rev-999999999.txt":
            later = int(kept[-1].name[5:14])
            newest = max((path.name[19:28] for path in kept), default="")
            if not mine or mine[-1].name[19:28] < newest:
                raise ReplayError(
                    f"these orders are for turn {header.turn}, but you have already read the report "
                    f"of turn {later} of game {header.game}",
                    "write orders for the newest report: pbem orders REPORT --key YOUR.key",
                )
        if not mine:
            return None
        try:
            return mine[-1].read_text(encoding="utf-8"), str(mine[-1])
        except (OSError, UnicodeDecodeError):
            return None


_HEX = frozenset("0123456789ABCDEF")
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_NAME = _ALNUM | frozenset("_.-")


def _game_id(text: str) -> bool:
    """A game id as saves write it: 16 upper-case hex digits (``[0-9A-F]{16}``; set tests,
    not a pattern compiled on every start-up)."""
    return len(text) == 16 and _HEX.issuperset(text)


def _player_name(text: str) -> bool:
    """A player name safe as a folder name: ``[A-Za-z0-9][A-Za-z0-9_.-]{0,31}`` (ASCII)."""
    return 0 < len(text) <= 32 and text[0] in _ALNUM and _NAME.issuperset(text)


def _named(folder: Path, prefix: str) -> list[Path]:
    """The report copies in ``folder`` whose names start with ``prefix``, sorted (what
    ``glob(prefix + "*.rev-*.txt")`` gives, without compiling a pattern on every start-up);
    none when the folder is missing or unreadable."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    return [folder / n for n in sorted(names) if n.startswith(prefix) and n.endswith(".txt") and ".rev-" in n]


def _holds(path: Path, text: str) -> bool:
    """True when ``path`` is a regular file holding exactly ``text`` (UTF-8), so that reading
    a report again does not rewrite its copy.  Any doubt (missing, unreadable, another size,
    a symlink, anything not a plain file, a file others may read) is False: the copy is then
    written (mode 0600)."""
    data = text.encode("utf-8")
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_mode & 0o077 or info.st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def read_report(
    report_text: str,
    source: str,
    identity: Identity,
    moderator: PublicCard | None = None,
    home: Path | None = None,
) -> Report:
    """Verify and open a player's own report, checking its moderator key.

    With ``moderator`` the report must be signed by that card (which is then pinned);
    without, by the key first seen for this game.  Raises SignatureError, FormatError,
    ForeignError (another player's report), UsageError (the public report) or ReplayError
    (a report the game was written again after: a kept copy of the same or an earlier turn
    has a higher revision, see :meth:`ReportCopies.written_after`).
    """
    report = parse_report(report_text, source, identity, moderator)
    pins = KnownModerators(home or default_home())
    game_id = report.data["game_id"]
    first = moderator is None and pins.check(game_id, report.moderator, source, pin=False)
    if report.data["player"] is None:
        raise UsageError(f"{source} is the public report", "use your own report, reports/turn-N/YOURNAME.txt")
    if report.data["player"].lower() != identity.name.lower():
        raise ForeignError(f"{source} is {report.data['player']}'s report, and your key is {identity.name}'s")
    # Pinned only now: a report refused above (anyone may sign a "public report" with any key
    # and a game's id) must not decide whose reports of the game are believed later.
    if moderator is not None:
        pins.pin(game_id, moderator)
    elif first:
        pins.pin(game_id, report.moderator)
    copies = ReportCopies(home or default_home())
    later = copies.written_after(report)
    if later is not None:
        raise ReplayError(
            f"{source} is the report of turn {report.data['turn']} written as revision "
            f"{report.data['revision']}, but the game was written again after it: you have read "
            f"revision {later[1]} (turn {later[0]}); the moderator went back (a rollback), so this "
            "report shows a position the game has left",
            f"read your newest report: reports/turn-{later[0]:04d}/{report.data['player']}.txt "
            "(or ask the moderator for it); do not write orders from this one",
        )
    copies.keep(report)
    return report


def unsigned_above(report: Report) -> int:
    """How many non-blank lines stand above the report's first signed line ("PBEM REPORT ..."):
    text anyone may have added (or a mail's preamble), which :func:`readable_report` leaves out."""
    lines = _unquoted(report.text)
    first = next((i for i, line in enumerate(lines) if line.strip().startswith(_PROSE_START)), 0)
    return sum(1 for line in lines[:first] if line.strip())


def readable_report(report: Report) -> str:
    """A report as a person reads it once opened: the private part in place of the encrypted
    block and of the lines that explain how to open it, and no data block."""
    lines = _unquoted(report.text)
    data_at = next((i for i, line in enumerate(lines) if line.strip() == DATA_BEGIN), len(lines))
    # What stands above the first line the moderator signed ("PBEM REPORT ...") is not part of
    # the report (a mail's preamble, or anyone's addition): never shown as if it were.
    first = next((i for i in range(data_at) if lines[i].strip().startswith(_PROSE_START)), 0)
    lines = lines[first:data_at]
    begin = next((i for i, line in enumerate(lines) if line.strip() == AGE_BEGIN), None)
    end = next((i for i, line in enumerate(lines) if line.strip() == AGE_END), None)
    if report.private_text is not None and begin is not None and end is not None:
        intro = next(
            (i for i in range(begin - 1, max(begin - 12, -1), -1) if lines[i].strip().startswith(_INTRO)),
            begin,
        )
        lines = [*lines[:intro], report.private_text.rstrip(), *lines[end + 1 :]]
    return "\n".join(lines).rstrip() + "\n"


_INTRO = "Your private part is below"
"""The first line of a report's explanation of its encrypted block (templates/report.txt.j2)."""


def form_header(report: Report, home: Path | None = None) -> OrderHeader:
    """The header a player's next order file for this report needs: a ``Seq`` above both the
    last one the moderator accepted (in the report) and the last one this player signed here."""
    from pbem.orders import OrderHeader

    data = report.data
    from pbem.orders import MAX_SEQ_STEP

    signed = SignedSeqs(home or default_home()).last(data["game_id"], data["player"])
    accepted = int(data["seq"] or 0)
    # A number signed here but never accepted (a typo the moderator refused) may be far
    # above: the form stays within what the moderator takes.
    seq = min(max(accepted, signed), accepted + MAX_SEQ_STEP - 1) + 1
    return OrderHeader(data["game_id"], data["turn"], data["player"], seq)


def order_form(
    report_text: str,
    source: str,
    identity: Identity,
    moderator: PublicCard | None = None,
    home: Path | None = None,
) -> str:
    """A blank order form for the turn of ``report_text``, headers filled in."""
    report = read_report(report_text, source, identity, moderator, home)
    data = report.data
    game = get_game(data["game"])
    header = form_header(report, home)
    out = [
        f"# pbem order form: {game.info.title}, game {data['game_id']},",
        f"# turn {data['turn']}, for {data['player']}.",
        "# Write one order per line; '#' starts a comment.  Then:",
        f"#   pbem check THIS-FILE --key {identity.name}.key",
        f"#   pbem sign THIS-FILE --key {identity.name}.key -o signed.txt",
        "# and send signed.txt.  Both check the orders against your report",
        "# (pbem keeps a copy); sign also seals them to the moderator.",
    ]
    if data["player"] not in data["awaiting"]:
        out.append("# NOTE: the moderator awaits no orders from you this turn.")
    out += [*header.lines(), f"Seal-To: {report.moderator.age_recipient}", ""]
    out += game_call(source, game.order_form, report.view())
    return "\n".join(form_lines(out, data["names"])) + "\n"


def _validate(report: Report, lines: Sequence[OrderLine], source: str) -> int:
    game = get_game(report.data["game"])
    try:
        game_call(source, game.validate, report.view(), lines)
    except OrderErrors as exc:
        names = report.data["names"]
        raise OrdersRejected("\n".join(e.describe(source, names) for e in exc.errors)) from None
    return len(lines)


def _report_for(
    header: OrderHeader, identity: Identity, report: tuple[str, str] | None, home: Path | None
) -> tuple[str, str]:
    """The report an order file answers: the one given, else the kept copy for its headers.

    Raises UsageError when there is none, ReplayError when the file answers an old report.
    """
    if report is not None:
        return report
    found = ReportCopies(home or default_home()).find(header)
    if found is None:
        raise UsageError(
            f"no report of game {header.game}, turn {header.turn} for {header.player} has been opened here",
            "pass the report the form answers: --report REPORT (pbem read or pbem orders on it also "
            "lets pbem find it next time)",
        )
    return found


def _own(player: str, identity: Identity, source: str, what: str) -> None:
    """Refuse an order file of another player than the key's, before anything is opened
    with the key.  Raises ForeignError naming both and what to pass instead."""
    if player.lower() != identity.name.lower():
        raise ForeignError(
            f"{source} is {what} of {player} (its Player: line), and your key is {identity.name}'s",
            f"pass {player}'s own key (--key {player}.key), or write your own orders: "
            f"pbem orders REPORT --key {identity.name}.key",
        )


def _order_lines(text: str, source: str, identity: Identity) -> tuple[OrderHeader, tuple[OrderLine, ...]]:
    """The header and order lines of a form or of a clear signed block (checked against the
    player's own key).  Raises FormatError for a sealed file, ForeignError for another
    player's file, SignatureError, FormatError."""
    from pbem.order_damage import signature_failure
    from pbem.orders import BEGIN, check_size, parse, parse_draft

    check_size(text, source)
    lines = [line.strip() for line in _unquoted(text)]
    if BEGIN in lines:
        signed = parse(text, source)
        _own(signed.header.player, identity, source, "a signed order file")
        card = identity.public()
        try:
            signed.verify(card)
        except SignatureError:
            raise signature_failure(signed, card) from None
        return signed.header, signed.lines
    if AGE_BEGIN in lines:
        from pbem.file_kind import FORM, wrong_file

        raise wrong_file(text, source, FORM) or FormatError(
            f"{source} is sealed to the moderator: only the moderator can open it",
            "check the unsigned form instead, or a block signed with pbem sign --no-seal",
        )
    draft = parse_draft(text, source)
    _own(draft.header.player, identity, source, "an order form")
    return draft.header, draft.lines


def _same_turn(header: OrderHeader, report: Report, source: str) -> None:
    """Refuse a file for another game, turn or player than ``report`` (ForeignError), or one
    whose Seq the moderator would refuse as far above the last accepted (FormatError)."""
    data = report.data
    if (
        header.game != data["game_id"]
        or header.turn != data["turn"]
        or header.player.lower() != data["player"].lower()
    ):
        raise ForeignError(
            f"{source} is for game {header.game}, turn {header.turn}, player {header.player}; "
            f"the report is for game {data['game_id']}, turn {data['turn']}, player {data['player']}"
        )
    from pbem.orders import MAX_SEQ_STEP

    accepted = int(data["seq"] or 0)
    if header.seq > accepted + MAX_SEQ_STEP:
        raise FormatError(
            f"{source}: Seq {header.seq} is far above the last the moderator accepted ({accepted}); "
            f"the moderator refuses a jump of more than {MAX_SEQ_STEP:,}",
            f"write Seq: {accepted + 1} (pbem orders fills it in)",
        )


def check_orders(
    text: str,
    source: str,
    report_text: str | None,
    report_source: str | None,
    identity: Identity,
    moderator: PublicCard | None = None,
    home: Path | None = None,
) -> int:
    """Validate a draft or signed order file against the player's report; returns the count.

    Without ``report_text`` the kept copy of the report the file answers is used.  Raises
    OrdersRejected with errors numbered by lines of ``text``, ForeignError when the file is
    for another game, turn or player, SignatureError when a signed file does not verify,
    UsageError when no report is known.
    """
    header, lines = _order_lines(text, source, identity)
    given = None if report_text is None else (report_text, report_source or "report")
    report_text, report_source = _report_for(header, identity, given, home)
    report = read_report(report_text, report_source, identity, moderator, home)
    _same_turn(header, report, source)
    return _validate(report, lines, source)


def sign_form(
    text: str,
    source: str,
    identity: Identity,
    *,
    seal_orders: bool = True,
    check: bool = True,
    report: tuple[str, str] | None = None,
    moderator: PublicCard | None = None,
    home: Path | None = None,
) -> SignedForm:
    """Check a filled-in form as ``pbem check`` does, sign it, and seal it to the moderator.

    The report is ``report`` or the kept copy of the one the form answers; the file is sealed
    to that report's moderator (a Seal-To line must agree).  With ``check=False`` nothing is
    checked and the Seal-To line names the recipient.  Long comments are wrapped; a long order
    line is refused.  Raises OrdersRejected (lines numbered as in the form), ForeignError (a
    form of another player or turn), FormatError, UsageError (no report known, or nothing to
    seal to).
    """
    from pbem.orders import OrderHeader, fit_width, parse_draft, seal, sign
    from pbem.signed_form import SignedForm

    draft = parse_draft(text, source)
    _own(draft.header.player, identity, source, "an order form")
    header = OrderHeader(draft.header.game, draft.header.turn, identity.name, draft.header.seq)
    fitted = fit_width(draft.numbered, source)
    recipient, sealed_to, checked, where = draft.seal_to, None, None, None
    if check:
        report_text, path = _report_for(header, identity, report, home)
        opened = read_report(report_text, path, identity, moderator, home)
        where = path if report is not None else f"your report of turn {header.turn}"
        _same_turn(header, opened, source)
        checked = _validate(opened, draft.lines, source)
        card = opened.moderator
        if draft.seal_to is not None and draft.seal_to != card.age_recipient:
            raise FormatError(
                f"{source}: the Seal-To line names {draft.seal_to[:16]}..., but your report was signed by "
                f"moderator {card.name}, whose key is {card.age_recipient[:16]}...",
                "delete the Seal-To line: pbem seals your orders to the moderator of your report",
            )
        recipient, sealed_to = card.age_recipient, card.name
    block = sign(identity, header, fitted)
    SignedSeqs(home or default_home()).signed(header)
    if not seal_orders:
        return SignedForm(block, checked, where, None)
    if recipient is None:
        raise UsageError(
            f"{source} has no Seal-To line, and without a report pbem does not know the moderator's key",
            "check against your report (drop --no-check, or pass --report REPORT), add the Seal-To line "
            "of the form pbem orders writes, or pass --no-seal to send the orders unsealed",
        )
    return SignedForm(seal(block, [recipient]), checked, where, sealed_to or recipient)


def sign_orders(
    text: str,
    source: str,
    identity: Identity,
    *,
    seal_orders: bool = True,
    check: bool = True,
    report: tuple[str, str] | None = None,
) -> str:
    """The signed (and sealed) text :func:`sign_form` writes."""
    return sign_form(text, source, identity, seal_orders=seal_orders, check=check, report=report).text


def bot_orders(report: Report, bot: str, rng: Rng) -> list[str]:
    """What a bot writes for its report: order lines, as a person would."""
    game = get_game(report.data["game"])
    if bot not in game.bots:
        raise UsageError(f"{game.info.name} has no bot {bot!r}; bots: {', '.join(game.bots)}")
    return game_call(str(report.data["game_id"]), game.bots[bot], game, report.view(), rng)


def fill_orders(loaded: Loaded, how: str) -> Mapping[int, list[str]]:
    """Orders for every awaited seat that sent none: default orders or a bot's."""
    game = loaded.game
    out: dict[int, list[str]] = {}
    for seat in game.to_act(loaded.secret.state):
        if str(seat) in loaded.secret.pending:
            continue
        view = loaded.view(seat)
        if how == "default":
            out[seat] = game.default_orders(view)
        else:
            from pbem.rng import Rng

            rng = Rng(loaded.seed + f"\x00fill\x00{loaded.save.turn}\x00{seat}".encode())
            out[seat] = game.bots[how](game, view, rng)
    return out
