"""A player's side: order forms, offline checking and signing, from a decrypted report.

The checker runs the game's own ``validate`` on the view rebuilt from the signed report,
the very function the engine runs on submission: what one accepts, the other accepts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.errors import ForeignError, FormatError, OrdersRejected, SignatureError, UsageError
from pbem.folder import default_home, read_record, write_record
from pbem.game import OrderErrors, OrderLine
from pbem.keys import Identity, PublicCard, key_id_of
from pbem.orders import AGE_BEGIN, BEGIN, OrderHeader, parse, parse_draft, seal, sign
from pbem.registry import get_game
from pbem.reports import Report, parse_report
from pbem.rng import Rng
from pbem.wording import form_lines

if TYPE_CHECKING:
    from pbem.engine import Loaded


class KnownModerators:
    """A player's local memory of which moderator key runs which game (trust on first use).

    Anyone can write a report-shaped file into a shared folder; pinning the moderator's key
    the first time a game's report is read means a later forgery, signed by another key,
    is refused instead of steering the player's sealed orders to the forger.
    """

    def __init__(self, home: Path) -> None:
        self.path = home / "moderators.json"

    def _read(self) -> dict[str, Any]:
        return read_record(self.path)

    def pin(self, game_id: str, card: PublicCard) -> None:
        """Remember ``card`` as the moderator of ``game_id`` (replacing any earlier key)."""
        data = self._read()
        data[game_id] = {"name": card.name, "sign": card.verify_key.hex()}
        write_record(self.path, data)

    def check(self, game_id: str, card: PublicCard, source: str) -> bool:
        """Pin on first use; afterwards raise SignatureError for any other key.

        Returns True when this call pinned the key (the first report of the game).
        """
        known = self._read().get(game_id)
        if known is None:
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
    ForeignError (another player's report) or UsageError (the public report).
    """
    report = parse_report(report_text, source, identity, moderator)
    pins = KnownModerators(home or default_home())
    if moderator is not None:
        pins.pin(report.data["game_id"], moderator)
    else:
        pins.check(report.data["game_id"], report.moderator, source)
    if report.data["player"] is None:
        raise UsageError(f"{source} is the public report", "use your own report, reports/turn-N/YOURNAME.txt")
    if report.data["player"].lower() != identity.name.lower():
        raise ForeignError(f"{source} is {report.data['player']}'s report, and your key is {identity.name}'s")
    return report


def form_header(report: Report) -> OrderHeader:
    """The header a player's next order file for this report needs."""
    data = report.data
    return OrderHeader(data["game_id"], data["turn"], data["player"], int(data["seq"] or 0) + 1)


def order_form(report_text: str, source: str, identity: Identity, moderator: PublicCard | None = None) -> str:
    """A blank order form for the turn of ``report_text``, headers filled in."""
    report = read_report(report_text, source, identity, moderator)
    data = report.data
    game = get_game(data["game"])
    header = form_header(report)
    out = [
        f"# pbem order form: {game.info.title}, game {data['game_id']},",
        f"# turn {data['turn']}, for {data['player']}.",
        "# Write one order per line; '#' starts a comment.  Then:",
        f"#   pbem check THIS-FILE --key {identity.name}.key --report {source}",
        f"#   pbem sign THIS-FILE --key {identity.name}.key -o signed.txt   (and send signed.txt)",
    ]
    if data["player"] not in data["awaiting"]:
        out.append("# NOTE: the moderator awaits no orders from you this turn.")
    out += [*header.lines(), f"Seal-To: {report.moderator.age_recipient}", ""]
    out += game.order_form(report.view())
    return "\n".join(form_lines(out, data["names"])) + "\n"


def _validate(report: Report, lines: Sequence[OrderLine], source: str) -> int:
    game = get_game(report.data["game"])
    try:
        game.validate(report.view(), lines)
    except OrderErrors as exc:
        names = report.data["names"]
        raise OrdersRejected("\n".join(e.describe(source, names) for e in exc.errors)) from None
    return len(lines)


def check_orders(
    text: str,
    source: str,
    report_text: str,
    report_source: str,
    identity: Identity,
    moderator: PublicCard | None = None,
) -> int:
    """Validate a draft or signed order file against the player's report; returns the count.

    Raises OrdersRejected with line-numbered errors, ForeignError when the file is for
    another game, turn or player, SignatureError when a signed file does not verify.
    """
    report = read_report(report_text, report_source, identity, moderator)
    if AGE_BEGIN in text and BEGIN not in text:
        raise FormatError(
            f"{source} is sealed to the moderator: only the moderator can open it",
            "check the unsigned form instead, or a block signed with pbem sign --no-seal",
        )
    if BEGIN in text:
        signed = parse(text, source)
        signed.verify(identity.public())
        header, lines = signed.header, signed.lines
    else:
        draft = parse_draft(text, source)
        header, lines = draft.header, draft.lines
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
    return _validate(report, lines, source)


def sign_orders(text: str, source: str, identity: Identity, *, seal_orders: bool = True) -> str:
    """Sign a filled-in form; seal it to the moderator named in its Seal-To line.

    Raises ForeignError if the form is another player's.
    """
    draft = parse_draft(text, source)
    if draft.header.player.lower() != identity.name.lower():
        raise ForeignError(
            f"{source} is an order form of {draft.header.player}, and your key is {identity.name}'s"
        )
    header = OrderHeader(draft.header.game, draft.header.turn, identity.name, draft.header.seq)
    block = sign(identity, header, draft.orders)
    if seal_orders and draft.seal_to:
        return seal(block, [draft.seal_to])
    return block


def bot_orders(report: Report, bot: str, rng: Rng) -> list[str]:
    """What a bot writes for its report: order lines, as a person would."""
    game = get_game(report.data["game"])
    if bot not in game.bots:
        raise UsageError(f"{game.info.name} has no bot {bot!r}; bots: {', '.join(game.bots)}")
    return game.bots[bot](game, report.view(), rng)


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
            rng = Rng(loaded.secret.seed + f"\x00fill\x00{loaded.save.turn}\x00{seat}".encode())
            out[seat] = game.bots[how](game, view, rng)
    return out
