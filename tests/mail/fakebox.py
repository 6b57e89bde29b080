"""An in-memory mailbox with the interface the judge's intake uses, and a judge on a real
game folder around it (fast: no mail server; tests/mail/test_hostile_servers.py does the
same with Dovecot and aiosmtpd)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from types import TracebackType

from pbem.engine import GameFolder
from pbem.keys import Identity
from pbem.mail.settings import MailSettings, Server
from pbem.moderator.core import Moderator
from pbem.moderator.judge import Judge
from pbem.orders import sign
from pbem.player import bot_orders, form_header, order_form, sign_orders
from pbem.reports import parse_report
from pbem.rng import Rng
from pbem.timing import FixedClock

NAMES = ("alice", "bob", "carol")
T0 = 1_800_000_000


@dataclass
class FakeBox:
    """Mails by UID; ``done`` maps a handled UID to whether it was quarantined."""

    mails: dict[int, bytes] = field(default_factory=dict)
    done: dict[int, bool] = field(default_factory=dict)
    uidvalidity: int = 7
    fetched: list[int] = field(default_factory=list)
    heads: list[int] = field(default_factory=list)
    next_uid: int = 1

    def add(self, raw: bytes) -> int:
        uid = self.next_uid
        self.mails[uid] = raw
        self.next_uid += 1
        return uid

    def __call__(self, settings: MailSettings) -> FakeBox:
        return self

    def __enter__(self) -> FakeBox:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None

    def pending(self) -> list[int]:
        return sorted(uid for uid in self.mails if uid not in self.done)

    def sizes(self, uids: list[int]) -> dict[int, int]:
        return {uid: len(self.mails[uid]) for uid in uids}

    def fetch(self, uid: int) -> bytes | None:
        self.fetched.append(uid)
        return self.mails.get(uid)

    def fetch_head(self, uid: int, limit: int) -> bytes | None:
        self.heads.append(uid)
        raw = self.mails[uid]
        end = raw.find(b"\r\n\r\n")
        return raw[: end if end >= 0 else len(raw)][:limit]

    def mark_done(self, uid: int, quarantined: bool = False) -> None:
        self.done[uid] = quarantined


SETTINGS = MailSettings(
    "judge@example.org", "pbem test judge", Server("127.0.0.1", 1), Server("127.0.0.1", 2)
)


def make_keys() -> dict[str, Identity]:
    return {n: Identity.generate(n) for n in ("moderator", *NAMES)}


def make_root(tmp: Path, keys: dict[str, Identity], games: tuple[str, ...] = ("game",)) -> Path:
    root = tmp / "root"
    for name in games:
        GameFolder.create(
            root / name,
            "symbiote",
            keys["moderator"],
            [keys[n].public() for n in NAMES],
            {"dealer": "last-seat"},
            now=datetime.fromtimestamp(T0, UTC),
            home=tmp / "create-home",
        )
        players = "".join(f'[players.{n}]\nemail = "{n}@example.org"\n' for n in NAMES)
        (root / name / "moderator.toml").write_text(players, encoding="utf-8")
    return root


def make_judge(root: Path, keys: dict[str, Identity], state: Path, box: FakeBox) -> Judge:
    moderator = Moderator(root, keys["moderator"], clock=FixedClock(T0 + 60), state_dir=state, mail=True)
    return Judge(moderator, SETTINGS, mailbox=box)


def refused_by_mail(
    tmp: Path, body: Callable[[str], str], headers: Mapping[str, str]
) -> tuple[str, Identity, Path]:
    """A judged game whose awaited player mails ``body(block)``, ``block`` a signed order
    file with the invalid line ``discard ZZ``, under ``headers``; the judge takes the mail in
    and a pass answers it.  Returns the notice's text, the player and the game folder."""
    keys = make_keys()
    root = make_root(tmp, keys)
    box = FakeBox()
    judge = make_judge(root, keys, tmp / "state", box)
    judge.moderator.run_pass()
    game = root / "game"
    save = GameFolder(game).read()
    awaited = save.names[save.awaiting[0]]
    player = keys[awaited]
    report_path = game / "reports" / f"turn-{save.turn:04d}" / f"{awaited}.txt"
    report = parse_report(report_path.read_text(encoding="utf-8"), "r", player)
    msg = EmailMessage()
    msg["From"] = f"{awaited}@example.org"
    msg["To"] = "judge@example.org"
    for name, value in headers.items():
        msg[name] = value
    msg.set_content(body(sign(player, form_header(report), ["discard ZZ"])))
    box.add(msg.as_bytes())
    judge.intake()
    judge.moderator.settle_ns = 0  # the filed block may be read at once
    judge.moderator.run_pass(force=True)
    [notice] = sorted((game / "players" / awaited).glob("notice-*.txt"))
    return notice.read_text(encoding="utf-8"), player, game


def good_mail(root: Path, game: str, player: Identity, seed: int = 0) -> bytes:
    """A player's signed, sealed orders for the current turn of ``root/game``, as a mail."""
    [report_path] = sorted((root / game / "players" / player.name).glob("report-turn-*.txt"))[-1:]
    text = report_path.read_text(encoding="utf-8")
    report = parse_report(text, report_path.name, player)
    lines = bot_orders(report, "greedy", Rng(f"hostile/{seed}/{player.name}".encode()))
    form = order_form(text, report_path.name, player).splitlines()
    head = form[: next(i for i, line in enumerate(form) if line.startswith("Seal-To:")) + 1]
    signed = sign_orders("\n".join([*head, "", *lines]) + "\n", report_path.name, player)
    msg = EmailMessage()
    msg["From"] = f"{player.name}@example.org"
    msg["To"] = "judge@example.org"
    msg["Subject"] = "my orders"
    msg["Message-ID"] = f"<orders-{player.name}-{seed}@example.org>"
    msg.set_content(f"Here they are.\n\n{signed}")
    return msg.as_bytes()


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (path: content), to show that nothing changed."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
