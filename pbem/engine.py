"""The game folder: create a game, accept orders, advance turns, publish reports.

Layout of a game folder (every file safe to share: secrets are encrypted)::

    save.json                       current signed save (secret part sealed to the moderator)
    history/rev-000007.json         every save ever written, for audit and rollback
    orders/turn-0004/alice.seq2.txt each accepted order file, sealed to the moderator
    reports/turn-0004/alice.txt     per-player reports (private part sealed to the player)
    reports/turn-0004/public.txt    the public report; plus pictures (board.svg)
    undone/rev-000012/              files of the turns a rollback undid (moved aside)
    .pbem-lock                      the game's lock (holds no data)

The engine owns turns and who must act; the game owns its state and rules.  Every call
that changes the folder holds the game's lock, verifies the current save (against the
folder's history too: see :mod:`pbem.integrity`), checks everything on a copy, and writes
the new save atomically last, by compare-and-swap: a rejected order or a crash leaves the
game as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pbem import canonical
from pbem.errors import (
    ConflictError,
    DuplicateError,
    ForeignError,
    FormatError,
    NotAwaitedError,
    OrdersRejected,
    PbemError,
    ReplayError,
    RollbackError,
    SignatureError,
    UsageError,
    no_game_here,
)
from pbem.folder import atomic_write, default_home, write_folder
from pbem.game import Event, Game, OrderErrors, OrderLine, Outcome, View
from pbem.inputs import file_name, shorten
from pbem.inputs import read_bytes as read_input
from pbem.integrity import (
    LOCK_NAME,
    FolderLock,
    Origin,
    check_history,
    commit,
    file_digest,
    history_path,
    read_origin,
    store_history,
)
from pbem.keys import Identity, PublicCard, check_player_name
from pbem.options import option_name as option_name  # re-exported: older callers
from pbem.options import parse_options as parse_options
from pbem.registry import get_game
from pbem.replay import verify_replay as verify_replay  # re-exported: pbem verify, tests
from pbem.rng import Rng, commitment
from pbem.save import Save, Secret, appended, encode_save, open_secret, read_save, seal_secret, seed_in_force
from pbem.seen import SeenRecord as SeenRecord

if TYPE_CHECKING:  # pbem.orders is imported where orders are read: `pbem status` starts without it
    from pbem.orders import SignedOrders

SAVE_NAME = "save.json"
UNDONE_DIR = "undone"
"""Where a rollback moves the files of the turns it undid: ``undone/rev-NNNNNN/``."""
LOCK_WAIT = 60.0
"""Seconds a command waits for another writer of the same game (a moderator's pass)."""
ATTEMPTS = 3
"""Times a command is run again when another writer saved the game while it worked."""
Entropy = Callable[[int], bytes]
T = TypeVar("T")


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
class Receipt:
    """What :meth:`GameFolder.submit` accepted.

    ``awaiting`` names the seats of the file's turn still owing orders (empty when it
    completed the turn).  ``advanced`` is what resolving the turn did, when ``submit`` was
    asked to advance and the file completed the turn; None otherwise."""

    player: str
    turn: int
    seq: int
    replaced: bool
    awaiting: tuple[str, ...]
    advanced: Advanced | None = None


@dataclass(frozen=True)
class Loaded:
    """A verified save with its secret part open."""

    save: Save
    secret: Secret
    game: Game

    def view(self, seat: int | None) -> View:
        return self.game.observe(self.secret.state, seat)

    @property
    def seed(self) -> bytes:
        """The seed hidden chance is drawn from now: the game's, or the fresh one drawn at the
        latest rollback (see :meth:`GameFolder.rollback`)."""
        return seed_in_force(self.secret)


@dataclass(frozen=True)
class _Resolved:
    """A resolved turn not yet written: the next secret part, and what advance reports
    (its ``reports`` still empty)."""

    secret: Secret
    advanced: Advanced


SAVED_FIRST = "what happened: "
"""How the note :func:`saved_first` adds to a system error begins (``pbem.cli`` prints it)."""


def saved_first(exc: OSError, folder: Path, save: Save) -> None:
    """Add to ``exc``, a system error (a full disk, a failing device) raised after ``save`` was
    written to ``folder``, notes saying so and what to do: the command's work is in the save
    (its orders accepted, its turn resolved), so running it again would be refused; what is
    missing (a turn's reports) is written by ``pbem publish``.  Added once."""
    if any(note.startswith(SAVED_FIRST) for note in getattr(exc, "__notes__", ())):
        return
    exc.add_note(
        f"{SAVED_FIRST}{folder / SAVE_NAME} was written before this (now turn {save.turn}, revision "
        f"{save.revision}): what the command did is in it, so do not run the command again"
    )
    fix = (
        "give yourself the right to write there (or run pbem as the user who owns the folder)"
        if exc.errno in (errno.EACCES, errno.EPERM)
        else "free space or fix the device or file system"
    )
    exc.add_note(
        f"what to do: {fix}, then run pbem status {folder}: "
        f"it names any report still to be written, and pbem publish {folder} --key MODERATOR.key "
        "writes it"
    )


def saved_call(save: Save, step: Callable[..., T], *args: Any) -> T:
    """Run the game's code on a position read from ``save``.

    The signature says the moderator wrote the save, not that its position is one the game
    it names can read (a save re-signed over another game's state, or written by a buggy
    plug-in).  Raises FormatError naming the save instead of the game's own exception; pbem
    errors and the game's OrderErrors pass through.
    """
    try:
        return step(*args)
    except (PbemError, OrderErrors):
        raise
    except Exception as exc:  # the game's code on data it never checked: any error is a refusal
        raise FormatError(
            f"{save.source}: the save says this is a {save.game} game, but {save.game} cannot read its "
            f"position ({type(exc).__name__}: {shorten(str(exc), 80)})",
            "restore the save from the game's history/ folder or your backup",
        ) from None


_REPORT_END = b"-----END PBEM REPORT DATA-----\n"
"""How every report ends: its signed data block's last line (``pbem.reports.DATA_END``)."""


def _whole(path: Path, ending: bytes = b"\n") -> bool:
    """Whether ``path`` is a regular file that ends with ``ending``: a report with the last
    line of its data block (a report cut short by a power cut at a line's end still fails),
    a picture with the newline every published file ends with.  One small read at the end;
    never follows a link out of the folder's checks."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        st = os.fstat(fd)
        size = len(ending)
        return (
            stat.S_ISREG(st.st_mode)
            and st.st_size >= size
            and os.pread(fd, size, st.st_size - size) == ending
        )
    except OSError:
        return False
    finally:
        os.close(fd)


class GameFolder:
    """One game on disk.  Methods verify before they change anything.

    Every method that writes holds the game's lock (:mod:`pbem.integrity`) from reading the
    save to writing the new one, and writes only if the save is still the one it read; when
    another writer (on another machine of a synced folder) got there first, the whole
    operation runs again, up to :data:`ATTEMPTS` times, then ConflictError is raised.
    """

    def __init__(
        self, path: str | os.PathLike[str], home: Path | None = None, *, lock_wait: float = LOCK_WAIT
    ) -> None:
        self.path = Path(path)
        self._save_path = self.path / SAVE_NAME  # built once: paths are joined on every turn
        self._reports_root, self._orders_root = self.path / "reports", self.path / "orders"
        self._first_history = os.fspath(history_path(self.path, 0))
        self.seen = SeenRecord(home or default_home())
        self.lock = FolderLock(self.path)
        self.lock_wait = lock_wait
        self._origin: tuple[tuple[int, int, int], Origin] | None = None
        self._working = False

    # ---- the lock -------------------------------------------------------------------------
    def exclusive(self, work: Callable[[], T]) -> T:
        """Run ``work`` (which reads the save and writes a new one) holding the game's lock;
        run it again if another writer saved the game meanwhile.

        Raises ConflictError if the lock stays taken for ``lock_wait`` seconds, or the save
        kept changing under every attempt.
        """
        with self.lock.hold(self.lock_wait) as mine:
            if not mine:
                raise ConflictError(
                    f"another pbem process is working on the game in {self.path} (it holds "
                    f"{LOCK_NAME}) and did not finish within {self.lock_wait:g} s",
                    "try again in a moment; if it stays busy, look for a pbem process that hangs",
                )
            if self._working:
                return work()
            self._working = True
            try:
                for attempt in range(1, ATTEMPTS + 1):
                    try:
                        return work()
                    except ConflictError as exc:
                        if attempt == ATTEMPTS:
                            raise ConflictError(
                                f"{exc.message} ({ATTEMPTS} attempts)",
                                "another moderator keeps writing this game: let one moderator run it "
                                "(a synced folder must not be moderated from two machines)",
                            ) from None
            finally:
                self._working = False
        raise AssertionError("unreachable")  # pragma: no cover

    # ---- paths ---------------------------------------------------------------------------
    @property
    def save_path(self) -> Path:
        return self._save_path

    def reports_dir(self, turn: int) -> Path:
        return self._reports_root / f"turn-{turn:04d}"

    def orders_dir(self, turn: int) -> Path:
        return self._orders_root / f"turn-{turn:04d}"

    # ---- reading ---------------------------------------------------------------------------
    def read(self, expect_moderator: PublicCard | None = None) -> Save:
        """The verified current save (no key needed), checked against the folder's history: it
        must be this folder's game and its newest save.  A writer holding the lock completes a
        history the previous writer left one revision behind.

        Raises UsageError if there is no save, FormatError, TamperedError, ForeignError (another
        game's or moderator's save) or RollbackError (an old or forked save).
        """
        for attempt in range(3):
            try:
                data = read_input(self._save_path, "save file")
            except UsageError:  # the absent save asked after the failed read: no lstat a turn
                if not os.path.lexists(self._save_path):
                    raise no_game_here(self.path) from None
                raise
            save = read_save(data, str(self._save_path), expect_moderator)
            try:
                behind = check_history(self.path, save, data, self._origin_of(save))
            except RollbackError:
                # A reader takes no lock: a writer may have replaced the save and added its
                # history file between the two reads.  Only the same save again is an error.
                if attempt < 2 and self._save_changed(data):
                    continue
                raise
            if behind and self.lock.held:
                store_history(self.path, save.revision, data)
            return save
        raise AssertionError("unreachable")  # pragma: no cover

    def _save_changed(self, data: bytes) -> bool:
        """True if ``save.json`` no longer holds ``data`` (a writer replaced it)."""
        try:
            return read_input(self._save_path, "save file") != data
        except PbemError:
            return True

    def _origin_of(self, save: Save) -> Origin:
        """The folder's first save, read once per object (again if the file changes)."""
        try:
            st = os.stat(self._first_history)
            key = (st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError:
            key = (-1, -1, -1)
        if self._origin is None or self._origin[0] != key:
            self._origin = (key, read_origin(self.path, save))
        return self._origin[1]

    def load(self, moderator: Identity) -> Loaded:
        """Verify the save, check it is not rolled back, and open its secret part.

        Raises FormatError when the game the save names cannot read its position (a save
        signed with this moderator's key over another game's state), besides what
        :meth:`read` and :func:`open_secret` raise."""
        save = self.read(moderator.public())
        self.seen.check(save)
        secret = open_secret(save, moderator)
        game = get_game(save.game)
        saved_call(save, game.to_act, secret.state)
        saved_call(save, game.observe, secret.state, None)
        return Loaded(save, secret, game)

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
        """Build, sign and commit the next save.  Raises ConflictError if the folder no longer
        holds ``previous`` (nothing written), FormatError for a state that is not canonical JSON."""
        data, save = self._prepare(moderator, previous, game, secret, now=now, base=base)
        return self._commit(previous, data, save)

    def _prepare(
        self,
        moderator: Identity,
        previous: Save | None,
        game: Game,
        secret: Secret,
        *,
        now: datetime,
        base: Mapping[str, Any],
    ) -> tuple[bytes, Save]:
        """The bytes of the next save and the Save they hold; checks everything, writes nothing."""
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
            "replay": list(secret.log) if outcome is not None else None,
            "written": now.isoformat(timespec="seconds"),
            "secret": "",
        }
        if base.get("reseeds"):
            body["reseeds"] = list(base["reseeds"])
        card = PublicCard.from_json(base["moderator"])
        body["secret"] = seal_secret(
            secret, body["game_id"], revision, card, pad_to=game.info.padding.secret_size(body["turn"])
        )
        return encode_save(body, moderator, str(self._save_path))  # its digests made once

    def _saved(self, data: bytes) -> bool:
        """True if the folder's save is ``data`` (a write got that far)."""
        try:
            return self.save_path.read_bytes() == data
        except OSError:
            return False

    def _commit(
        self, previous: Save | None, data: bytes, save: Save, also: Sequence[tuple[str, bytes]] = ()
    ) -> Save:
        """Write a prepared save if the folder still holds ``previous``, with the new files
        ``also`` (on disk before it: :func:`pbem.integrity.commit`).  Raises ConflictError."""
        self.seen.ready()  # a $PBEM_HOME that cannot hold the seen record: said before writing
        try:
            commit(self.path, previous, data, save.revision, also)
        except OSError as exc:  # after the rename (its folder's fsync, its history name)?
            if self._saved(data):
                saved_first(exc, self.path, save)
            raise
        with self.after_commit(save):
            self.seen.record(save)
        return save

    @contextlib.contextmanager
    def after_commit(self, save: Save) -> Iterator[None]:
        """Around the work that follows the commit of ``save`` (its reports, the seen record):
        a system error there (a full disk) is raised with notes saying that the save was
        written, so the command is not simply run again (:func:`saved_first`)."""
        try:
            yield
        except OSError as exc:
            saved_first(exc, self.path, save)
            raise

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
        game_id: str | None = None,
    ) -> GameFolder:
        """Start a new game in ``path`` (which must not hold one) and publish turn 1 reports.

        ``game_id`` (16 hex digits) replaces the one drawn from ``entropy`` (the demo keeps
        its seed's play but gives every run its own game).

        Raises UsageError for a wrong player count, duplicate or reserved names
        (:func:`pbem.keys.check_player_name`) or bad options, and
        RejectedError for a public key card that is not self-signed.
        """
        game = get_game(game_name)
        folder = cls(path, home)
        if os.path.lexists(folder.save_path) or os.path.lexists(history_path(folder.path, 0)):
            raise UsageError(f"{folder.path} already holds a game", "choose an empty folder")
        info = game.info
        if not info.min_players <= len(players) <= info.max_players:
            raise UsageError(
                f"{info.title} takes {info.min_players} to {info.max_players} players, got {len(players)}"
            )
        names = [p.name.lower() for p in players]
        if len(set(names)) != len(names):
            twice = next(p.name for i, p in enumerate(players) if p.name.lower() in names[:i])
            raise UsageError(
                f"two players have the same name, {twice}: every seat needs a player of its own",
                "give each seat a different player's card (pbem keygen NAME makes one)",
            )
        for card in [*players, moderator.public()]:
            card.check_self_signature()
        opts = parse_options(game, options)
        seed = entropy(32)
        drawn_id = entropy(8).hex().upper()
        game_id = drawn_id if game_id is None else game_id
        state = game.setup(len(players), opts, Rng.for_turn(seed, 0, "setup"))
        pictures = game.pictures(game.observe(state, None))
        for card in players:  # no report may clash with public.txt or a picture
            check_player_name(card.name, pictures)
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
        data, save = folder._prepare(moderator, None, game, secret, now=now, base=base)
        try:
            folder.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"cannot make the folder {folder.path}: {exc.strerror or exc}") from None

        def start() -> None:
            try:
                folder._commit(None, data, save)
            except ConflictError as exc:
                raise UsageError(exc.message, exc.hint) from None
            with folder.after_commit(save):
                folder.publish(moderator, Loaded(save, secret, game))

        folder.exclusive(start)
        return folder

    # ---- orders ---------------------------------------------------------------------------
    def identify(
        self, loaded: Loaded, text: str, source: str, moderator: Identity
    ) -> tuple[SignedOrders, int]:
        """Open, parse and authenticate an order file; return it with its seat.

        Raises FormatError, ForeignError, SignatureError, ReplayError as appropriate.
        """
        from pbem.order_damage import signature_failure
        from pbem.orders import open_orders

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

    def submit(
        self,
        text: str,
        moderator: Identity,
        *,
        source: str,
        now: datetime,
        advance: bool = False,
        fill: Mapping[int, Sequence[str]] | None = None,
        stand_in: Mapping[int, str] | None = None,
    ) -> Receipt:
        """Verify, validate and record one order file; nothing changes when it is refused.

        Without ``advance`` the file is recorded in a new save ("orders accepted"), and the
        turn waits for :meth:`advance`.  With ``advance``, when the file leaves no awaited
        seat without orders (counting the seats ``fill`` gives orders for, which mean what
        they mean to :meth:`advance`, as does ``stand_in``), the turn is resolved in the same
        lock and ONE save is written: the advanced one (revision = the save on disk + 1, its
        ``prev`` that save's digest, the file's orders in its log), then the new turn's
        reports are published, and the Receipt's ``advanced`` says what :meth:`advance` would
        have said.  The game ends up exactly as after ``submit`` then ``advance``, one history
        revision shorter.  When seats still owe orders, or the game refuses a ``fill`` entry
        (:meth:`advance` then names the error), the file is recorded as without ``advance``.

        Either way the sealed copy of the file goes to ``orders/turn-NNNN/`` first, and is
        removed again if the save cannot be committed.

        Raises FormatError, ForeignError, SignatureError (forged or changed), ReplayError (old
        turn, reused sequence number), DuplicateError (already accepted), NotAwaitedError
        (that seat owes nothing now), OrdersRejected (the game refused an order line of the
        file), ConflictError (the game stayed locked or kept changing: run it again); with
        all of these nothing is written.
        """
        return self.exclusive(
            lambda: self._submit(
                text, moderator, source=source, now=now, advance=advance, fill=fill, stand_in=stand_in
            )
        )

    def _submit(
        self,
        text: str,
        moderator: Identity,
        *,
        source: str,
        now: datetime,
        advance: bool = False,
        fill: Mapping[int, Sequence[str]] | None = None,
        stand_in: Mapping[int, str] | None = None,
    ) -> Receipt:
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
        from pbem.orders import MAX_DIGITS, MAX_SEQ_STEP, archive_copy

        if header.seq > last + MAX_SEQ_STEP:
            raise ReplayError(
                f"{source}: sequence number {header.seq} of {name} is far above the last accepted ({last}): "
                f"numbers only go up (to {10**MAX_DIGITS - 1} at most), so a jump of more than "
                f"{MAX_SEQ_STEP:,} could leave none for later turns",
                f"sign the orders again with Seq: {last + 1} (pbem sign numbers them for you)",
            )
        if save.body["players"][seat]["status"] == "resigned":
            raise NotAwaitedError(
                f"{source}: {name} has resigned from game {save.game_id}; their orders are no longer taken",
                "the moderator can set the seat active again",
            )
        to_act = game.to_act(secret.state)
        if seat not in to_act:
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
            "source": file_name(source),
        }
        # a plain string (save names are file-name safe): the os calls below take it as it is
        archive = f"{self._orders_root}{os.sep}turn-{save.turn:04d}{os.sep}{name}.seq{header.seq}.txt"
        sealed = archive_copy(text, moderator, save.moderator, source)
        seq = dict(save.body["seq"])
        seq[name] = header.seq
        base = dict(save.body, seq=seq)
        new = Secret(secret.state, secret.seed, pending_all, secret.events, secret.log)
        owing = [s for s in to_act if str(s) not in pending_all]
        missing = tuple(save.names[s] for s in owing)
        resolved: _Resolved | None = None
        if advance and all(fill is not None and s in fill for s in owing):
            try:
                resolved = self._resolve(Loaded(save, new, game), fill=fill, stand_in=stand_in)
            except OrdersRejected:  # a fill the game refuses: the file is still good, the turn waits
                resolved = None
        if resolved is not None:
            new = resolved.secret
            base = dict(base, turn=save.turn + 1)
        # Everything is checked (and the save built) before the first write: a refused file
        # leaves nothing behind, not even its archive copy.
        data, written = self._prepare(moderator, save, game, new, now=now, base=base)
        fresh = not os.path.lexists(archive)
        if not fresh:  # a copy a stopped writer left: replaced; else created with the save
            atomic_write(archive, sealed)
        copy = ((archive, sealed.encode("utf-8")),) if fresh else ()
        try:
            self._commit(save, data, written, copy)
        except BaseException:
            if fresh and not self._saved(data):  # the orders were not accepted after all
                with contextlib.suppress(OSError):
                    os.unlink(archive)
            raise
        done: Advanced | None = None
        if resolved is not None:
            with self.after_commit(written):
                reports = self._publish(moderator, Loaded(written, new, game), committed=True)
            done = replace(resolved.advanced, turn=written.turn, reports=tuple(reports))
        return Receipt(name, save.turn, header.seq, pending is not None, missing, done)

    # ---- turns ----------------------------------------------------------------------------
    def advance(
        self,
        moderator: Identity,
        *,
        now: datetime,
        fill: Mapping[int, Sequence[str]] | None = None,
        preview: bool = False,
        stand_in: Mapping[int, str] | None = None,
    ) -> Advanced:
        """Resolve the turn once every awaited seat has orders, and publish the reports.

        ``fill`` gives order lines for seats that sent none (default orders or a bot's,
        as the moderator's policy says); they are validated like any other orders, and the
        reports say each such seat was "played by the stand-in" (``stand_in`` describes
        who played it, by seat: "the game's default orders", say).
        With ``preview`` nothing is written.  Raises NotAwaitedError naming the missing
        players, UsageError if the game is over, OrdersRejected for a ``fill`` the game
        refuses, ConflictError as :meth:`submit`.
        """
        if preview:
            return self._advance(moderator, now=now, fill=fill, preview=True, stand_in=stand_in)
        return self.exclusive(
            lambda: self._advance(moderator, now=now, fill=fill, preview=False, stand_in=stand_in)
        )

    def _advance(
        self,
        moderator: Identity,
        *,
        now: datetime,
        fill: Mapping[int, Sequence[str]] | None,
        preview: bool,
        stand_in: Mapping[int, str] | None = None,
    ) -> Advanced:
        loaded = self.load(moderator)
        save, game = loaded.save, loaded.game
        resolved = self._resolve(loaded, fill=fill, stand_in=stand_in)
        if preview:
            return resolved.advanced
        base = dict(save.body, turn=save.turn + 1)
        written = self._write(moderator, save, game, resolved.secret, now=now, base=base)
        with self.after_commit(written):
            reports = self._publish(moderator, Loaded(written, resolved.secret, game), committed=True)
        return replace(resolved.advanced, turn=written.turn, reports=tuple(reports))

    def _resolve(
        self,
        loaded: Loaded,
        *,
        fill: Mapping[int, Sequence[str]] | None,
        stand_in: Mapping[int, str] | None,
    ) -> _Resolved:
        """Resolve the turn of ``loaded`` (its secret's pending orders, plus ``fill``): the
        next secret part and what :meth:`advance` reports, with no reports yet.  Writes nothing.

        Raises UsageError if the game is over, OrdersRejected for a ``fill`` the game refuses,
        NotAwaitedError naming the seats with no orders.
        """
        save, secret, game = loaded.save, loaded.secret, loaded.game
        if game.outcome(secret.state) is not None:
            raise UsageError(
                f"game {save.game_id} is over: there is no turn to advance",
                "pbem status shows the result; pbem verify re-plays the game from its revealed seed",
            )
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
        result = game.resolve(secret.state, orders, Rng.for_turn(loaded.seed, save.turn))
        state = result.state
        outcome = game.outcome(state)
        awaiting = tuple(save.names[s] for s in game.to_act(state))
        # Every reader is told which seats the stand-in played (public: civil disorder is).
        played = tuple(
            Event(f"player {s + 1}'s orders were played by the stand-in ({(stand_in or {}).get(s, how)}).")
            for s, how in ((save.seat_of(n), "filled in by the moderator") for n in filled)
            if s is not None
        )
        result = replace(result, events=(*played, *result.events))
        entry = {"turn": save.turn, "orders": {str(k): v for k, v in sorted(orders.items())}}
        log = appended(secret.log, entry)  # a Log stays one: not decoded, nor encoded again
        new_secret = Secret(state, secret.seed, {}, [e.to_json() for e in result.events], log)
        advanced = Advanced(save.turn + 1, result.events, awaiting, outcome, tuple(filled), ())
        return _Resolved(new_secret, advanced)

    def turn_files(self, save: Save) -> list[Path]:
        """Every file the reports of ``save``'s turn must have: each player's report, the
        public report and the game's pictures (named from the public view; no key needed)."""
        folder = self.reports_dir(save.turn)
        view = View(save.game, None, save.body["public"])
        pictures = saved_call(save, get_game(save.game).pictures, view)
        names = [f"{name}.txt" for name in save.names] + ["public.txt"] + sorted(pictures)
        return [folder / name for name in names]

    def missing_files(self, save: Save) -> list[Path]:
        """The files of :meth:`turn_files` that are not there whole: absent (a writer stopped
        mid-publish), or cut short as a power cut can leave a file written without fsync
        (empty, ending in zeros where its data never reached the disk, or cut at a line's end:
        every report ends with its data block's last line, every picture with a newline).
        Such files are written again by :meth:`republish`."""
        reports = {f"{name}.txt" for name in [*save.names, "public"]}
        return [
            path
            for path in self.turn_files(save)
            if not _whole(path, _REPORT_END if path.name in reports else b"\n")
        ]

    def republish(self, moderator: Identity) -> list[Path]:
        """Write the current turn's reports again, reading the save under the game's lock."""
        return self.exclusive(lambda: self.publish(moderator, self.load(moderator)))

    def publish(self, moderator: Identity, loaded: Loaded) -> list[Path]:
        """Write every report of the current turn (idempotent: rewrites the same turn), and
        move the reports of turns after it (undone by a rollback) aside, into ``undone/``.

        Reports are derived from the durable save, so they are written without fsync; a
        moderator that finds them missing after a crash calls this again.  Raises
        ConflictError if ``loaded`` is no longer the folder's save."""
        return self.exclusive(lambda: self._publish(moderator, loaded))

    def _publish(self, moderator: Identity, loaded: Loaded, *, committed: bool = False) -> list[Path]:
        """:meth:`publish`, holding the lock; ``committed``: ``loaded`` is the save this call
        of the engine has just committed under that lock, so the folder is known to hold it."""
        from pbem.press.listing import report_press
        from pbem.reports import ReportContext, name_seats, render_reports

        save, secret, game = loaded.save, loaded.secret, loaded.game
        if save.file_digest and not committed:
            try:
                current = file_digest(self.save_path.read_bytes())
            except OSError:
                current = ""
            if current != save.file_digest:
                raise ConflictError(
                    f"{self.save_path} changed since it was read: another writer saved the game",
                    "run the command again",
                )
        if save.body.get("reseeds"):  # reports of later turns: only a rollback (which reseeds) leaves them
            from pbem.corrections import set_aside

            set_aside(self, save.revision, "reports", after=save.turn)
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
            press=report_press(self.path, save, moderator, game, secret.state),
        )
        folder = self.reports_dir(save.turn)
        written = []
        seats = [*range(len(save.names)), None]
        every = getattr(game, "observe_all", None)  # pbem.game.ObservedOnce: one public part for all
        if callable(every):
            views = every(secret.state, seats)
        else:
            views = [game.observe(secret.state, seat) for seat in seats]
        public_view = views[-1]
        texts = render_reports(game, views, events, ctx, moderator, [*save.players, None])
        names = [f"{name}.txt" for name in [*save.names, "public"]]
        write_folder(folder, dict(zip(names, texts, strict=True)))  # a new turn's at once
        written += [folder / name for name in names]
        for filename, content in game.pictures(public_view).items():
            atomic_write(folder / filename, name_seats(content, save.names), durable=False)
            written.append(folder / filename)
        if outcome is not None:  # the game's end makes its public press public (the archive)
            from pbem.press.listing import publish_archive

            publish_archive(self.path, save, moderator)
        return written

    # ---- moderator actions (pbem.corrections does the work) ---------------------------------
    def undone_dir(self, revision: int) -> Path:
        """Where the rollback written as ``revision`` puts the files of the turns it undid."""
        return self.path / UNDONE_DIR / f"rev-{revision:06d}"

    def rollback(
        self, moderator: Identity, turn: int, *, now: datetime, entropy: Entropy = os.urandom
    ) -> Save:
        """Go back to the start of ``turn``: a new revision whose state is that turn's.

        Hidden chance is drawn anew: a fresh seed (from ``entropy``) rules every later draw,
        the game shuffles again what it keeps hidden (its optional ``redraw(state, rng)``),
        and the seed's commitment is published in the save (``reseeds``) and in the turn's
        reports, to be revealed with the game's seed at the end (``pbem verify`` checks it).
        The reports and order files of the turns undone are moved into ``undone/``.

        Raises UsageError if history holds no save that starts that turn, or if the game is
        over: its seed is public then, so a rolled-back game would have no secrets left.
        """
        from pbem.corrections import rollback

        return self.exclusive(lambda: rollback(self, moderator, turn, now=now, entropy=entropy))

    def replace_player(self, moderator: Identity, name: str, card: PublicCard, *, now: datetime) -> Save:
        """Give seat ``name`` to a new key (and possibly name); the seat keeps its position.

        Raises UsageError for an unknown seat or a name another seat has, SignatureError for a
        card that is not self-signed, and what :func:`pbem.keys.check_player_name` raises.
        """
        from pbem.corrections import replace_player

        return self.exclusive(lambda: replace_player(self, moderator, name, card, now=now))

    def set_status(self, moderator: Identity, name: str, status: str, *, now: datetime) -> Save:
        """Mark a seat ``active``, ``resigned`` or ``abandoned`` (the moderator then plays it).

        Raises UsageError for an unknown status or seat.
        """
        from pbem.corrections import set_status

        if status not in {"active", "resigned", "abandoned"}:
            raise UsageError(f"unknown seat status {status!r}")
        return self.exclusive(lambda: set_status(self, moderator, name, status, now=now))
