"""The game folder: create a game, accept orders, advance turns, publish reports.

Layout of a game folder (every file safe to share: secrets are encrypted)::

    save.json                       current signed save (secret part sealed to the moderator)
    history/rev-000007.json         every save ever written, for audit and rollback
    orders/turn-0004/alice.seq2.txt each accepted order file, sealed to the moderator
    reports/turn-0004/alice.txt     per-player reports (private part sealed to the player)
    reports/turn-0004/public.txt    the public report; plus pictures (board.svg)

The engine owns turns and who must act; the game owns its state and rules.  Every call
that changes the folder verifies the current save first, works on a copy, and writes the
new save atomically last: a rejected order or a crash leaves the game as it was.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem import canonical
from pbem.errors import (
    DuplicateError,
    ForeignError,
    NotAwaitedError,
    OrdersRejected,
    ReplayError,
    RollbackError,
    SignatureError,
    UsageError,
)
from pbem.folder import atomic_write, default_home, read_record, write_record
from pbem.game import Event, Game, OrderErrors, OrderLine, Outcome, View
from pbem.keys import Identity, PublicCard
from pbem.orders import SignedOrders, is_sealed, open_orders, seal, signature_failure
from pbem.registry import get_game
from pbem.rng import Rng, commitment
from pbem.save import Save, Secret, encode_save, open_secret, read_save, seal_secret

SAVE_NAME = "save.json"
Entropy = Callable[[int], bytes]


def parse_options(game: Game, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Check and convert ``--option name=value`` pairs against the game's variants.

    Raises UsageError naming the unknown option or bad value and listing what is allowed.
    """
    variants = {v.name: v for v in game.info.variants}
    options: dict[str, Any] = {v.name: v.default for v in game.info.variants}
    for name, value in raw.items():
        if name not in variants:
            known = ", ".join(variants) or "none"
            raise UsageError(f"{game.info.name} has no option {name!r}; options: {known}")
        variant = variants[name]
        text = str(value).strip().lower()
        if isinstance(variant.default, bool):
            if text not in {"true", "false", "yes", "no", "on", "off", "1", "0"}:
                raise UsageError(f"option {name} takes true or false, got {value!r}")
            options[name] = text in {"true", "yes", "on", "1"}
        elif isinstance(variant.default, int):
            if not re.fullmatch(r"-?[0-9]+", text):
                raise UsageError(f"option {name} takes a whole number, got {value!r}")
            options[name] = int(text)
        else:
            options[name] = str(value).strip()
        if variant.choices and options[name] not in variant.choices:
            raise UsageError(
                f"option {name} takes one of {', '.join(map(str, variant.choices))}, got {value!r}"
            )
    return options


@dataclass(frozen=True)
class Receipt:
    """What :meth:`GameFolder.submit` accepted."""

    player: str
    turn: int
    seq: int
    replaced: bool
    awaiting: tuple[str, ...]


@dataclass(frozen=True)
class Advanced:
    """What :meth:`GameFolder.advance` did (or would do, for a preview)."""

    turn: int
    events: tuple[Event, ...]
    awaiting: tuple[str, ...]
    outcome: Outcome | None
    filled: tuple[str, ...]
    reports: tuple[Path, ...]


@dataclass(frozen=True)
class Loaded:
    """A verified save with its secret part open."""

    save: Save
    secret: Secret
    game: Game

    def view(self, seat: int | None) -> View:
        return self.game.observe(self.secret.state, seat)


class SeenRecord:
    """The moderator's local memory of the newest save of each game (rollback detection).

    One small file per game (``seen/<game id>.json``), so that moderators working on
    different games never rewrite each other's records.
    """

    def __init__(self, home: Path) -> None:
        self.folder = home / "seen"

    def _path(self, game_id: str) -> Path:
        if not game_id.isalnum():
            raise RollbackError(f"game id {game_id!r} is not a pbem game id")
        return self.folder / f"{game_id}.json"

    def check(self, save: Save) -> None:
        """Raise RollbackError if a newer save of this game was seen, or another at this revision."""
        seen = read_record(self._path(save.game_id))
        if not seen:
            return
        if save.revision < seen["revision"]:
            raise RollbackError(
                f"{save.source} is revision {save.revision} (turn {save.turn}) but revision "
                f"{seen['revision']} of game {save.game_id} was already seen: an old save was put back",
                "restore the newest save from history/, or use pbem rollback to go back on purpose",
            )
        if save.revision == seen["revision"] and save.digest != seen["digest"]:
            raise RollbackError(
                f"{save.source} differs from the revision {save.revision} seen before: a forked save"
            )

    def record(self, save: Save) -> None:
        write_record(
            self._path(save.game_id), {"revision": save.revision, "digest": save.digest}, durable=False
        )


class GameFolder:
    """One game on disk.  Methods verify before they change anything."""

    def __init__(self, path: str | os.PathLike[str], home: Path | None = None) -> None:
        self.path = Path(path)
        self.seen = SeenRecord(home or default_home())

    # ---- paths ---------------------------------------------------------------------------
    @property
    def save_path(self) -> Path:
        return self.path / SAVE_NAME

    def reports_dir(self, turn: int) -> Path:
        return self.path / "reports" / f"turn-{turn:04d}"

    def orders_dir(self, turn: int) -> Path:
        return self.path / "orders" / f"turn-{turn:04d}"

    # ---- reading ---------------------------------------------------------------------------
    def read(self, expect_moderator: PublicCard | None = None) -> Save:
        """The verified current save (no key needed).  Raises UsageError if there is none."""
        try:
            data = self.save_path.read_bytes()
        except FileNotFoundError:
            raise UsageError(f"{self.path} holds no pbem game (no {SAVE_NAME})") from None
        return read_save(data, str(self.save_path), expect_moderator)

    def load(self, moderator: Identity) -> Loaded:
        """Verify the save, check it is not rolled back, and open its secret part."""
        save = self.read(moderator.public())
        self.seen.check(save)
        secret = open_secret(save, moderator)
        return Loaded(save, secret, get_game(save.game))

    # ---- writing ---------------------------------------------------------------------------
    def _write(
        self,
        moderator: Identity,
        previous: Save | None,
        game: Game,
        secret: Secret,
        *,
        now: datetime,
        base: Mapping[str, Any],
    ) -> Save:
        state = secret.state
        revision = 0 if previous is None else previous.revision + 1
        outcome = game.outcome(state)
        players = list(base["players"])
        awaiting = list(game.to_act(state))
        body: dict[str, Any] = {
            "game": game.info.name,
            "game_id": base["game_id"],
            "turn": base["turn"],
            "revision": revision,
            "options": base["options"],
            "moderator": base["moderator"],
            "players": players,
            "awaiting": awaiting,
            "submitted": sorted(int(s) for s in secret.pending),
            "seq": base["seq"],
            "public": game.observe(state, None).public,
            "events": [e for e in secret.events if e.get("to") is None],
            "outcome": None
            if outcome is None
            else {
                "winners": list(outcome.winners),
                "scores": outcome.scores and list(outcome.scores),
                "summary": outcome.summary,
            },
            "seed_commitment": base["seed_commitment"],
            "seed": secret.seed.hex() if outcome is not None else None,
            "prev": None if previous is None else previous.digest,
            "replay": secret.log if outcome is not None else None,
            "written": now.isoformat(timespec="seconds"),
            "secret": "",
        }
        card = PublicCard.from_json(base["moderator"])
        body["secret"] = seal_secret(
            secret, body["game_id"], revision, card, pad_to=game.info.padding.secret_size(body["turn"])
        )
        data, signed = encode_save(body, moderator)
        atomic_write(self.path / "history" / f"rev-{revision:06d}.json", data)
        atomic_write(self.save_path, data)
        save = Save(body, str(self.save_path), signed.canonical_body)
        self.seen.record(save)
        return save

    @classmethod
    def create(
        cls,
        path: str | os.PathLike[str],
        game_name: str,
        moderator: Identity,
        players: Sequence[PublicCard],
        options: Mapping[str, Any],
        *,
        now: datetime,
        entropy: Entropy = os.urandom,
        home: Path | None = None,
    ) -> GameFolder:
        """Start a new game in ``path`` (which must not hold one) and publish turn 1 reports.

        Raises UsageError for a wrong player count, duplicate names or options, and
        RejectedError for a public key card that is not self-signed.
        """
        game = get_game(game_name)
        folder = cls(path, home)
        if folder.save_path.exists():
            raise UsageError(f"{folder.path} already holds a game", "choose an empty folder")
        info = game.info
        if not info.min_players <= len(players) <= info.max_players:
            raise UsageError(
                f"{info.title} takes {info.min_players} to {info.max_players} players, got {len(players)}"
            )
        names = [p.name.lower() for p in players]
        if len(set(names)) != len(names):
            raise UsageError("two players have the same name")
        for card in [*players, moderator.public()]:
            card.check_self_signature()
        opts = parse_options(game, options)
        seed = entropy(32)
        game_id = entropy(8).hex().upper()
        state = game.setup(len(players), opts, Rng.for_turn(seed, 0, "setup"))
        base = {
            "game_id": game_id,
            "turn": 1,
            "options": opts,
            "moderator": moderator.public().to_json(),
            "players": [{"card": p.to_json(), "status": "active"} for p in players],
            "seq": {p.name: 0 for p in players},
            "seed_commitment": commitment(seed),
        }
        secret = Secret(state=state, seed=seed, pending={}, events=[], log=[])
        folder.path.mkdir(parents=True, exist_ok=True)
        save = folder._write(moderator, None, game, secret, now=now, base=base)
        folder.publish(moderator, Loaded(save, secret, game))
        return folder

    # ---- orders ---------------------------------------------------------------------------
    def identify(
        self, loaded: Loaded, text: str, source: str, moderator: Identity
    ) -> tuple[SignedOrders, int]:
        """Open, parse and authenticate an order file; return it with its seat.

        Raises FormatError, ForeignError, SignatureError, ReplayError as appropriate.
        """
        save = loaded.save
        signed = open_orders(text, moderator, source)
        header = signed.header
        if header.game != save.game_id:
            raise ForeignError(
                f"{source}: orders are for game {header.game}, this folder holds game {save.game_id}",
                "send them to the moderator of that game",
            )
        seat = save.seat_of(header.player)
        if seat is None:
            raise ForeignError(
                f"{source}: no player called {header.player!r} in game {save.game_id} "
                f"(players: {', '.join(save.names)})",
                "sign the orders with the key of a player of this game; a new player needs the "
                "moderator to give them a seat",
            )
        card = save.players[seat]
        try:
            signed.verify(card)
        except SignatureError:
            raise signature_failure(signed, card, save.players) from None
        return signed, seat

    def submit(self, text: str, moderator: Identity, *, source: str, now: datetime) -> Receipt:
        """Verify, validate and record one order file; nothing changes when it is refused.

        Raises FormatError, ForeignError, SignatureError (forged or changed), ReplayError (old
        turn, reused sequence number), DuplicateError (already accepted), NotAwaitedError
        (that seat owes nothing now), OrdersRejected (the game refused an order line).
        """
        loaded = self.load(moderator)
        save, secret, game = loaded.save, loaded.secret, loaded.game
        signed, seat = self.identify(loaded, text, source, moderator)
        header = signed.header
        name = save.names[seat]
        pending = secret.pending.get(str(seat))
        if pending is not None and pending["digest"] == signed.digest:
            raise DuplicateError(
                f"{source}: these orders of {name} for turn {header.turn} were already accepted"
            )
        if header.turn < save.turn:
            raise ReplayError(
                f"{source}: orders of {name} for turn {header.turn}, but the game is at turn {save.turn}: "
                "an old order file",
                f"write new orders for turn {save.turn} (pbem orders REPORT --key YOUR.key)",
            )
        if header.turn > save.turn:
            raise ReplayError(
                f"{source}: orders for turn {header.turn}, but the game is only at turn {save.turn}",
                f"send them again once the report of turn {header.turn} is out, or write orders for turn "
                f"{save.turn}",
            )
        last = int(save.body["seq"].get(save.names[seat], 0))
        if header.seq <= last:
            raise ReplayError(
                f"{source}: sequence number {header.seq} of {name} was already used (last accepted: {last}): "
                "a replayed or out-of-date file",
                f"to replace your orders, sign them again with Seq: {last + 1}",
            )
        if save.body["players"][seat]["status"] == "resigned":
            raise NotAwaitedError(
                f"{source}: {name} has resigned from game {save.game_id}; their orders are no longer taken",
                "the moderator can set the seat active again",
            )
        if seat not in game.to_act(secret.state):
            raise NotAwaitedError(
                f"{source}: {name} owes no orders at turn {save.turn}; awaited: "
                f"{', '.join(save.names[s] for s in save.awaiting) or 'nobody'}",
                "wait for a report that asks you for orders, and answer that one",
            )
        view = game.observe(secret.state, seat)
        try:
            parsed = game.validate(view, signed.lines)
        except OrderErrors as exc:
            raise OrdersRejected(
                "\n".join(e.describe(signed.source, save.names) for e in exc.errors),
                "correct the lines named above, sign again and resend (the same Seq will do: nothing was "
                "accepted)",
            ) from None
        pending_all = dict(secret.pending)
        pending_all[str(seat)] = {
            "orders": parsed,
            "seq": header.seq,
            "digest": signed.digest,
            "source": Path(source).name,
        }
        archive = self.orders_dir(save.turn) / f"{name}.seq{header.seq}.txt"
        sealed = text if is_sealed(text) else seal(text, [save.moderator])
        atomic_write(archive, sealed)
        seq = dict(save.body["seq"])
        seq[name] = header.seq
        base = dict(save.body, seq=seq)
        new = Secret(secret.state, secret.seed, pending_all, secret.events, secret.log)
        self._write(moderator, save, game, new, now=now, base=base)
        missing = tuple(save.names[s] for s in game.to_act(secret.state) if str(s) not in pending_all)
        return Receipt(name, save.turn, header.seq, pending is not None, missing)

    # ---- turns ----------------------------------------------------------------------------
    def advance(
        self,
        moderator: Identity,
        *,
        now: datetime,
        fill: Mapping[int, Sequence[str]] | None = None,
        preview: bool = False,
    ) -> Advanced:
        """Resolve the turn once every awaited seat has orders, and publish the reports.

        ``fill`` gives order lines for seats that sent none (default orders or a bot's,
        as the moderator's policy says); they are validated like any other orders.
        With ``preview`` nothing is written.  Raises NotAwaitedError naming the missing
        players, UsageError if the game is over.
        """
        loaded = self.load(moderator)
        save, secret, game = loaded.save, loaded.secret, loaded.game
        if game.outcome(secret.state) is not None:
            raise UsageError(f"game {save.game_id} is over")
        orders: dict[int, Any] = {}
        filled: list[str] = []
        missing: list[str] = []
        for seat in game.to_act(secret.state):
            entry = secret.pending.get(str(seat))
            if entry is not None:
                orders[seat] = entry["orders"]
            elif fill is not None and seat in fill:
                lines = [OrderLine(i, t.split("#", 1)[0].strip()) for i, t in enumerate(fill[seat], 1)]
                lines = [line for line in lines if line.text]
                try:
                    orders[seat] = game.validate(game.observe(secret.state, seat), lines)
                except OrderErrors as exc:
                    where = f"orders filled in for {save.names[seat]}"
                    raise OrdersRejected(
                        "\n".join(e.describe(where, save.names) for e in exc.errors),
                        "fill in legal orders for that seat, or wait for the player's own",
                    ) from None
                canonical.check(orders[seat], f"{game.info.name}'s validated orders")
                filled.append(save.names[seat])
            else:
                missing.append(save.names[seat])
        if missing:
            raise NotAwaitedError(
                f"turn {save.turn} still awaits orders from {', '.join(missing)}",
                "wait for them, or advance with default orders or bots for missing seats",
            )
        result = game.resolve(secret.state, orders, Rng.for_turn(secret.seed, save.turn))
        state = result.state
        outcome = game.outcome(state)
        awaiting = tuple(save.names[s] for s in game.to_act(state))
        if preview:
            return Advanced(save.turn + 1, result.events, awaiting, outcome, tuple(filled), ())
        base = dict(save.body, turn=save.turn + 1)
        entry = {"turn": save.turn, "orders": {str(k): v for k, v in sorted(orders.items())}}
        log = [*secret.log, entry]
        new_secret = Secret(state, secret.seed, {}, [e.to_json() for e in result.events], log)
        written = self._write(moderator, save, game, new_secret, now=now, base=base)
        reports = self.publish(moderator, Loaded(written, new_secret, game))
        return Advanced(written.turn, result.events, awaiting, outcome, tuple(filled), tuple(reports))

    def publish(self, moderator: Identity, loaded: Loaded) -> list[Path]:
        """Write every report of the current turn (idempotent: rewrites the same turn).

        Reports are derived from the durable save, so they are written without fsync; a
        moderator that finds them missing after a crash calls this again."""
        from pbem.reports import ReportContext, name_seats, render_report

        save, secret, game = loaded.save, loaded.secret, loaded.game
        events = [e if isinstance(e, Event) else Event.from_json(e) for e in secret.events]
        outcome = game.outcome(secret.state)
        ctx = ReportContext(
            game_id=save.game_id,
            turn=save.turn,
            revision=save.revision,
            names=tuple(save.names),
            awaiting=tuple(save.names[s] for s in save.awaiting),
            moderator=save.moderator,
            seed_commitment=save.body["seed_commitment"],
            seed=save.body["seed"],
            outcome=None if outcome is None else name_seats(outcome.summary, save.names),
            seq=dict(save.body["seq"]),
        )
        folder = self.reports_dir(save.turn)
        written = []
        cards = save.players
        for seat, name in enumerate(save.names):
            text = render_report(game, game.observe(secret.state, seat), events, ctx, moderator, cards[seat])
            path = folder / f"{name}.txt"
            atomic_write(path, text, durable=False)
            written.append(path)
        public_view = game.observe(secret.state, None)
        path = folder / "public.txt"
        atomic_write(path, render_report(game, public_view, events, ctx, moderator, None), durable=False)
        written.append(path)
        for filename, content in game.pictures(public_view).items():
            atomic_write(folder / filename, name_seats(content, save.names), durable=False)
            written.append(folder / filename)
        return written

    # ---- moderator actions ------------------------------------------------------------------
    def rollback(self, moderator: Identity, turn: int, *, now: datetime) -> Save:
        """Go back to the start of ``turn``: a new revision whose state is that turn's.

        Raises UsageError if history holds no save that starts that turn, or if the game is
        over: its seed is public then, so a rolled-back game would have no secrets left.
        """
        loaded = self.load(moderator)
        if loaded.save.body["seed"] is not None:
            raise UsageError(
                f"game {loaded.save.game_id} is over and its seed is revealed: it cannot be rolled back",
                "start a new game (pbem new) instead",
            )
        candidates = []
        for path in sorted((self.path / "history").glob("rev-*.json")):
            old = read_save(path.read_bytes(), str(path), moderator.public())
            if old.game_id == loaded.save.game_id and old.turn == turn and not old.body["submitted"]:
                candidates.append(old)
        if not candidates:
            raise UsageError(f"history holds no start of turn {turn}")
        old = candidates[-1]
        old_secret = open_secret(old, moderator)
        # Only the game goes back: seats keep their current keys (replace_player) and status.
        base = dict(old.body, seq=loaded.save.body["seq"], players=loaded.save.body["players"])
        written = self._write(moderator, loaded.save, loaded.game, old_secret, now=now, base=base)
        self.publish(moderator, Loaded(written, old_secret, loaded.game))
        return written

    def replace_player(self, moderator: Identity, name: str, card: PublicCard, *, now: datetime) -> Save:
        """Give seat ``name`` to a new key (and possibly name); the seat keeps its position."""
        loaded = self.load(moderator)
        save = loaded.save
        seat = save.seat_of(name)
        if seat is None:
            raise UsageError(f"no player called {name!r}")
        card.check_self_signature()
        others = [n.lower() for i, n in enumerate(save.names) if i != seat]
        if card.name.lower() in others:
            raise UsageError(f"another seat is already called {card.name!r}")
        players = [dict(p) for p in save.body["players"]]
        players[seat] = {"card": card.to_json(), "status": "active"}
        seq = dict(save.body["seq"])
        seq[card.name] = seq.pop(save.names[seat], 0)
        written = self._write(
            moderator,
            save,
            loaded.game,
            loaded.secret,
            now=now,
            base=dict(save.body, players=players, seq=seq),
        )
        self.publish(moderator, Loaded(written, loaded.secret, loaded.game))
        return written

    def set_status(self, moderator: Identity, name: str, status: str, *, now: datetime) -> Save:
        """Mark a seat ``active``, ``resigned`` or ``abandoned`` (the moderator then plays it)."""
        if status not in {"active", "resigned", "abandoned"}:
            raise UsageError(f"unknown seat status {status!r}")
        loaded = self.load(moderator)
        save = loaded.save
        seat = save.seat_of(name)
        if seat is None:
            raise UsageError(f"no player called {name!r}")
        players = [dict(p) for p in save.body["players"]]
        players[seat]["status"] = status
        return self._write(
            moderator, save, loaded.game, loaded.secret, now=now, base=dict(save.body, players=players)
        )


def verify_replay(save: Save) -> int:
    """Re-play a finished game from its revealed seed and published orders.

    Returns the number of turns re-played.  Raises UsageError if the game is not over and
    RejectedError if the seed does not match its commitment or the re-play ends elsewhere.
    """
    seed_hex, log = save.body["seed"], save.body["replay"]
    if seed_hex is None or log is None:
        raise UsageError(f"game {save.game_id} is not over: its seed is still secret")
    seed = bytes.fromhex(seed_hex)
    if commitment(seed) != save.body["seed_commitment"]:
        raise RollbackError("the revealed seed does not match the commitment published at turn 1")
    game = get_game(save.game)
    state = game.setup(len(save.names), save.body["options"], Rng.for_turn(seed, 0, "setup"))
    for entry in log:
        orders = {int(seat): value for seat, value in entry["orders"].items()}
        state = game.resolve(state, orders, Rng.for_turn(seed, entry["turn"])).state
    if game.observe(state, None).public != save.body["public"]:
        raise RollbackError(
            "re-playing the published orders with the revealed seed does not reach the final position"
        )
    return len(log)
