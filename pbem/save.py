"""The signed save file: a readable public part, a secret part sealed to the moderator.

On disk::

    {"format": "pbem-save/v1", "body": {...}, "signature": "<base64 Ed25519>"}

The signature (moderator's key, domain ``pbem-save/v1``) covers the RFC 8785 bytes of
``body``.  ``body.secret`` is an age block, encrypted to the moderator only, holding the full
game state, the random seed and the orders accepted so far this turn.  ``body.prev`` is the
digest of the previous body (a hash chain) and ``body.revision`` counts every write, so an
older save put back in place is recognised as a rollback.

Reading is all-or-nothing: :func:`read_save` checks the format, the version, the structure
and the signature before returning anything; :func:`open_secret` checks that the secret
part belongs to this very save.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, overload

from pbem import canonical
from pbem.errors import ForeignError, FormatError, TamperedError
from pbem.keys import SAVE_DOMAIN, Identity, PublicCard, encrypt
from pbem.save_shape import check_body

FORMAT = "pbem-save/v1"
SECRET_FORMAT = "pbem-secret/v1"

_BODY_FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "game_id": str,
    "turn": int,
    "revision": int,
    "options": dict,
    "moderator": dict,
    "players": list,
    "awaiting": list,
    "submitted": list,
    "seq": dict,
    "public": dict,
    "events": list,
    "outcome": (dict, type(None)),
    "seed_commitment": str,
    "seed": (str, type(None)),
    "prev": (str, type(None)),
    "replay": (list, type(None)),
    "written": str,
    "secret": str,
}

_OPTIONAL_FIELDS: dict[str, type | tuple[type, ...]] = {
    "reseeds": list,
}
"""Fields only some saves have: ``reseeds`` lists the commitments of the fresh seeds drawn
at each rollback (``{"turn", "revision", "commitment"}``), absent until the first one."""


@dataclass(frozen=True)
class Save:
    """A verified save file (its secret part still sealed)."""

    body: dict[str, Any]
    source: str
    canonical_body: bytes = b""
    """RFC 8785 bytes of ``body`` (what the signature covers), computed once."""
    file_digest: str = ""
    """SHA-256 of the file's bytes (what a writer's compare-and-swap compares); empty when
    the save was not read from, or written to, a file."""
    body_digest: str = ""
    """SHA-256 (hex) of ``canonical_body`` when it is already known (made once where the
    canonical bytes were made, and remembered with them); empty: :attr:`digest` makes it."""

    @property
    def game(self) -> str:
        return str(self.body["game"])

    @property
    def game_id(self) -> str:
        return str(self.body["game_id"])

    @property
    def turn(self) -> int:
        return int(self.body["turn"])

    @property
    def revision(self) -> int:
        return int(self.body["revision"])

    @cached_property
    def moderator(self) -> PublicCard:
        return PublicCard.from_json(self.body["moderator"])

    @property
    def players(self) -> list[PublicCard]:
        return list(self._players)

    @cached_property
    def _players(self) -> tuple[PublicCard, ...]:
        return tuple(PublicCard.from_json(p["card"]) for p in self.body["players"])

    @property
    def names(self) -> list[str]:
        return [p["card"]["name"] for p in self.body["players"]]

    @property
    def awaiting(self) -> list[int]:
        return list(self.body["awaiting"])

    @cached_property
    def digest(self) -> str:
        """SHA-256 of the canonical body: what the next save's ``prev`` names."""
        return (
            self.body_digest or hashlib.sha256(self.canonical_body or canonical.dumps(self.body)).hexdigest()
        )

    def seat_of(self, name: str) -> int | None:
        """The seat of the player called ``name`` (case-insensitive), or None."""
        for seat, player in enumerate(self.names):
            if player.lower() == name.lower():
                return seat
        return None


@dataclass(frozen=True, eq=False)
class Log(Sequence[Any]):
    """The replay log of a secret part this process sealed, kept as its JSON text.

    The log of past orders is most of a secret part and grows every turn, yet a turn only
    adds an entry to it: kept as the compact JSON it was sealed as (``text``, an array),
    with the entries added since as objects (``tail``, encoded when sealed, as a list log's
    entries are), it is neither decoded when the secret is opened nor encoded again when
    the next one is sealed (:func:`seal_secret` puts the text in).  Safe: the text is an
    immutable string cut from the sealed plaintext itself, so it cannot go stale; every
    read (``log[i]``, iteration, ``len``, ``==``) decodes a fresh copy, so no caller can
    change what is sealed next (entries read from it are copies: the log only grows by
    :meth:`plus`)."""

    text: str
    tail: tuple[Any, ...] = ()

    def entries(self) -> list[Any]:
        """The log as a new list of fresh objects."""
        return [*json.loads(self.text), *self.tail]

    def plus(self, entry: Any) -> Log:
        """The log with ``entry`` appended."""
        return Log(self.text, (*self.tail, entry))

    def json(self) -> str:
        """The compact JSON of the whole log (sorted keys): the text with the tail's entries
        encoded into it, as the encoder writes a list (``[`` items joined by ``,`` ``]``)."""
        if not self.tail:
            return self.text
        added = ",".join(map(canonical.compact_text, self.tail))
        return f"{self.text[:-1]},{added}]" if self.text != "[]" else f"[{added}]"

    def may_reseed(self) -> bool:
        """False when no entry is a rollback's ``reseed`` (the text has no such key: a key
        is a quoted name right before a colon, which no string's JSON holds unescaped)."""
        return '"reseed":' in self.text or any(type(e) is dict and "reseed" in e for e in self.tail)

    def __len__(self) -> int:
        return len(self.entries())

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        return self.entries()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.entries())

    def __reversed__(self) -> Iterator[Any]:
        return reversed(self.entries())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Log):
            return self.entries() == other.entries()
        if isinstance(other, list):
            return self.entries() == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which has none


def appended(log: Sequence[Any], entry: Any) -> Sequence[Any]:
    """``log`` with ``entry`` added at its end (a new list, or a new :class:`Log`)."""
    return log.plus(entry) if type(log) is Log else [*log, entry]


def seed_in_force(secret: Secret) -> bytes:
    """:func:`pbem.replay.current_seed` of ``secret``: the seed of its last reseed entry, or
    its own; a :class:`Log` with no reseed entry (:meth:`Log.may_reseed`) is not decoded."""
    from pbem.replay import current_seed

    if type(secret.log) is Log and not secret.log.may_reseed():
        return secret.seed
    return current_seed(secret.seed, secret.log)


@dataclass(frozen=True)
class Secret:
    """The moderator-only part: full state, seed and this turn's accepted orders."""

    state: dict[str, Any]
    seed: bytes
    pending: dict[str, Any]
    events: list[Any]
    log: Sequence[Any]
    """The replay log: a list, or a :class:`Log` (read only) for a secret this process sealed."""

    def to_json(self, game_id: str, revision: int) -> dict[str, Any]:
        return {
            "format": SECRET_FORMAT,
            "game_id": game_id,
            "revision": revision,
            "state": self.state,
            "seed": self.seed.hex(),
            "pending": self.pending,
            "events": self.events,
            "log": self.log.entries() if type(self.log) is Log else self.log,
        }


def encode(body: dict[str, Any], moderator: Identity) -> bytes:
    """Sign ``body`` and return the save file's bytes (indented, for people to read)."""
    return encode_save(body, moderator)[0]


def encode_save(body: dict[str, Any], moderator: Identity, source: str = "") -> tuple[bytes, Save]:
    """Sign ``body``; return the save file's bytes and the Save they hold (named ``source``,
    the file it is for).

    The file shows one field of the body a line (for people to read; any JSON layout
    reads back the same).  Raises FormatError as :func:`pbem.canonical.dumps` does."""
    # The sealed secret is most of the body's bytes: it is encoded to JSON once, for both
    # the canonical bytes and the file's line (a string encodes the same in both).
    secret = _string_line(body["secret"])
    once = _fields_once(body, secret)
    marked: bytes | None
    if once is not None:
        raw, marked, lines, depth = once
    else:
        depth = -1  # measured below, if the checks get that far
        raw, marked = _canonical_parts(body, secret)
        lines = [
            _line(key) + ": " + (secret if key == "secret" else _line(body[key])) for key in sorted(body)
        ]
    signature = base64.b64encode(moderator.sign(SAVE_DOMAIN, raw)).decode()
    fields = ",\n".join(f"  {line}" for line in lines)
    tail = f' "format": {_line(FORMAT)},\n "signature": {_line(signature)}\n'
    data = f'{{\n "body": {{\n{fields}\n }},\n{tail}}}\n'.encode()
    saved = Save(body, source, raw, hashlib.sha256(data).hexdigest(), hashlib.sha256(raw).hexdigest())
    try:  # what read_save checks besides the signature we just made
        if (depth if depth >= 0 else canonical.depth(body)) >= canonical.MAX_DEPTH:
            raise FormatError("nested too deeply")
        _check_fields(body, "save")
        check_body(body, "save")
        signer = moderator.public().verify_key
        if PublicCard.from_json(body["moderator"]).verify_key != signer:
            raise FormatError("signed by another key than the body names")
    except FormatError:
        pass  # left to read_save, which refuses it with the file's name
    else:
        _remember(_verified, saved.file_digest, (raw, signer, saved.body_digest))
        _remember(_files, data[-_FILE_TAIL:], (data, saved.file_digest), _FILES_KEPT)
        if marked is not None and marked.isascii():  # ASCII: no key orders differently
            _remember(_bodies, saved.file_digest, (marked, body["secret"]))
    return data, saved


_LINE = canonical.encoder((", ", ": "))
_SECRET_MARK = "\x00pbem: the sealed secret\x00"
_SECRET_MARK_JSON = canonical.dumps(_SECRET_MARK)
_SECRET_MARK_TEXT = _SECRET_MARK_JSON.decode()


def _canonical_body(body: dict[str, Any], secret: str) -> bytes:
    """``canonical.dumps(body)``, given ``secret``, the JSON of ``body["secret"]``.

    Canonical JSON writes an object as its sorted members, each value in its own canonical
    form, so the bytes of a mark put in the secret's place, swapped for the secret's, are
    those of the whole (when the mark occurs once; else, or for a secret that is not
    valid Unicode, the whole is encoded the plain way).  Raises FormatError as dumps does."""
    return _canonical_parts(body, secret)[0]


def _canonical_parts(body: dict[str, Any], secret: str) -> tuple[bytes, bytes | None]:
    """:func:`_canonical_body`, and the canonical bytes with the mark in the secret's place
    (None where the whole was encoded the plain way)."""
    marked = canonical.dumps(dict(body, secret=_SECRET_MARK))
    if marked.count(_SECRET_MARK_JSON) != 1 or type(body["secret"]) is not str:
        return canonical.dumps(body), None
    try:
        return marked.replace(_SECRET_MARK_JSON, secret.encode("utf-8")), marked
    except UnicodeEncodeError:
        return canonical.dumps(body), None  # raises FormatError naming the lone surrogate


_SEPARATED = canonical.encoder(("\x01", "\x02"))
"""JSON with control characters for separators: ``json`` escapes every control character
inside a string (``\\u0001``), so a raw one in its text is a separator, and the one text
becomes the canonical form and the file's form by :meth:`str.replace` alone."""


def _fields_once(body: dict[str, Any], secret: str) -> tuple[bytes, bytes, list[str], int] | None:
    """The canonical bytes of ``body`` (:func:`pbem.canonical.dumps`), the same with the mark
    in the sealed secret's place, the file's line of each field (``"name": value``, in
    sorted order, with ``, `` and ``: ``), and the body's :func:`pbem.canonical.depth` (from
    the same walk as the check), given ``secret``, the JSON of ``body["secret"]``.

    Each field is encoded once, with control characters for separators, and each form made
    from that text by replacing them (where the body was encoded for the canonical bytes,
    then every field again for its line).  None, for the plain way, when a field name is not
    one a save has, the secret is not a string or a key needs RFC 8785's UTF-16 order.
    Raises FormatError as :func:`pbem.canonical.dumps` does."""
    quoted = _QUOTED
    if type(body.get("secret")) is not str or not all(key in quoted for key in body):
        return None
    astral, depth = canonical.walk(dict(body, secret=_SECRET_MARK))  # the check dumps makes
    if astral:
        return None
    items: list[str] = []
    lines: list[str] = []
    at = -1
    for key in sorted(body):
        if key == "secret":
            at = len(items)
            items.append(f"{quoted[key]}:{_SECRET_MARK_TEXT}")
            lines.append(f"{quoted[key]}: {secret}")
            continue
        value = body[key]
        text: str = _SEPARATED(value)
        if type(value) is dict or type(value) is list:
            items.append(f"{quoted[key]}:{text.replace(chr(1), ',').replace(chr(2), ':')}")
            lines.append(f"{quoted[key]}: {text.replace(chr(1), ', ').replace(chr(2), ': ')}")
        else:
            items.append(f"{quoted[key]}:{text}")
            lines.append(f"{quoted[key]}: {text}")
    try:
        marked = ("{" + ",".join(items) + "}").encode("utf-8")
        items[at] = f"{quoted['secret']}:{secret}"
        raw = ("{" + ",".join(items) + "}").encode("utf-8")
    except UnicodeEncodeError:
        raise FormatError("a string holds a lone surrogate: not valid Unicode") from None
    return raw, marked, lines, depth


def _line(value: Any) -> str:
    """``value`` as JSON on one line: ``json.dumps(value, ensure_ascii=False, sort_keys=True)``
    (:func:`pbem.canonical.encoder`: the C encoder built once)."""
    text: str = _LINE(value)
    return text


_QUOTED = {key: _line(key) for key in (*_BODY_FIELDS, *_OPTIONAL_FIELDS)}
"""The body's field names as JSON strings, made once."""
_NO_ESCAPE = bytes(range(0x20, 0x7F)).replace(b'"', b"").replace(b"\\", b"")
"""The ASCII characters JSON writes as they are (json escapes ``"``, ``\\`` and controls)."""
_AS_IS_AND_BREAKS = _NO_ESCAPE + b"\n"


def _string_line(value: Any) -> str:
    """:func:`_line` of ``value``, the same string; for an ASCII string whose only character
    JSON escapes is the line break (the sealed secret's age armour, most of a save's bytes)
    by one replacement in C instead of json's walk character by character."""
    if type(value) is str and value.isascii() and not value.encode().translate(None, _AS_IS_AND_BREAKS):
        return '"' + value.replace("\n", "\\n") + '"'
    return _line(value)


_CACHE_SIZE = 64
"""Saves and secret parts remembered per process (a moderator works on one game at a time)."""
_verified: dict[str, tuple[bytes, bytes, str]] = {}
"""SHA-256 of a save file's bytes -> (canonical body, moderator key, SHA-256 of the canonical
body): files this process wrote or verified in full.  The same bytes need not be parsed
strictly and verified again, nor their body hashed again for :attr:`Save.digest`."""
_opened: dict[tuple[str, str], tuple[bytes, str | None, str]] = {}
"""(age recipient, a sealed secret's whole text) -> its plaintext (with, for one this process
sealed, the same JSON with a mark in the log's place and the log's JSON: :class:`Log`; else
None and ""), for secrets this process
sealed or opened with that identity: the same block need not be decrypted again.  Keyed by
the text itself, not its SHA-256: a dict compares the very characters (the secret a save
this process wrote is read back as the same string object, found without reading it
again), where a digest had to hash the whole block at every seal and open."""
_bodies: dict[str, tuple[bytes, str]] = {}
"""SHA-256 of a save file this process wrote -> (the canonical JSON of its body with a mark in
the sealed secret's place, ASCII; the secret): the body read back without decoding the
secret's JSON string again (most of the file's bytes)."""


_FILE_TAIL = 96
"""How many of a save file's last bytes key :data:`_files` (they hold its signature)."""
_FILES_KEPT = 8
"""Save files whose bytes are kept (a moderator works on one game at a time)."""
_files: dict[bytes, tuple[bytes, str]] = {}
"""The last :data:`_FILE_TAIL` bytes of a save file this process wrote or verified (most of
its signature) -> (the file's bytes, their SHA-256): see :func:`file_sha256`."""


def _remember(cache: dict[Any, Any], key: Any, value: Any, size: int = _CACHE_SIZE) -> None:
    cache.pop(key, None)
    cache[key] = value
    while len(cache) > size:
        del cache[next(iter(cache))]


def file_sha256(data: bytes) -> str:
    """SHA-256 (hex) of the save file bytes ``data``: what the cache of verified saves and a
    writer's compare-and-swap compare.

    The bytes of a file this process wrote or verified (the last :data:`_FILES_KEPT`) are
    found by their last bytes and then compared whole with the kept ones (one ``memcmp``),
    not hashed again: a save is hashed when it is written and its next read and the commit
    that replaces it (both of the very same bytes) get that digest.  Saves two SHA-256 of
    the whole file a turn.  Safe: only bytes equal to the kept ones get the kept digest
    (the tail only finds the candidate); any other bytes, a file changed anywhere included,
    are hashed."""
    kept = _files.get(data[-_FILE_TAIL:])
    if kept is not None and kept[0] == data:
        return kept[1]
    return hashlib.sha256(data).hexdigest()


def forget_cached() -> None:
    """Forget every remembered save and secret (tests, and benchmarks of a cold read)."""
    _verified.clear()
    _opened.clear()
    _bodies.clear()
    _files.clear()


_LOG_MARK = "\x00pbem: the replay log\x00"
_LOG_MARK_JSON = canonical.compact_text(_LOG_MARK)


def seal_secret(secret: Secret, game_id: str, revision: int, moderator: PublicCard, *, pad_to: int) -> str:
    """Encrypt the secret part to the moderator, padded to ``pad_to`` bytes (the engine
    passes the game's ``padding.secret_size(turn)``: the state, this turn's orders and the
    log of past orders must not show through the length)."""
    # The state and this turn's orders are checked here; the log holds orders checked when
    # they were accepted, so the whole (growing) log is not walked again on every write.
    canonical.check(secret.state, "game state")
    canonical.check(secret.pending, "accepted orders")
    plain, marked, log = _secret_json(secret, game_id, revision)
    sealed = encrypt(plain, [moderator], pad_to=pad_to)
    _remember(_opened, (moderator.age_recipient, sealed), (plain, marked, log))
    return sealed


def _secret_json(secret: Secret, game_id: str, revision: int) -> tuple[bytes, str | None, str]:
    """``canonical.compact(secret.to_json(game_id, revision))``, the same text with a mark in
    the log's place, and the log's JSON (the mark None, and the log "", where the whole was
    encoded the plain way).

    A :class:`Log` puts in its text, not encoded again; a list log is encoded apart, once
    (the next turn's secret then keeps it as a Log).  The encoder writes an object as its
    members, each value in its own form, so swapping the mark for the log's JSON gives the
    bytes of the whole (when the mark occurs once: else the plain way).  Raises ValueError
    or TypeError as json does."""
    log = secret.log
    marked = canonical.compact_text(
        {
            "format": SECRET_FORMAT,
            "game_id": game_id,
            "revision": revision,
            "state": secret.state,
            "seed": secret.seed.hex(),
            "pending": secret.pending,
            "events": secret.events,
            "log": _LOG_MARK,
        }
    )
    if marked.count(_LOG_MARK_JSON) != 1:
        return canonical.compact(secret.to_json(game_id, revision)), None, ""
    text = log.json() if type(log) is Log else canonical.compact_text(log)
    return marked.replace(_LOG_MARK_JSON, text).encode("utf-8"), marked, text


def read_save(data: bytes, source: str, expect_moderator: PublicCard | None = None) -> Save:
    """Parse and verify a save file.  Nothing is returned unless everything checks.

    Raises FormatError (corrupt, truncated, unknown version, bad structure), TamperedError
    (signature does not verify), ForeignError (signed by another moderator than expected).
    """
    digest = file_sha256(data)
    known = _verified.get(digest)
    if known is not None:
        return _known_save(data, source, digest, known, expect_moderator)
    doc = canonical.loads(data, f"save file {source}")
    if not isinstance(doc, dict) or "format" not in doc:
        raise FormatError(f"save file {source} is not a pbem save (no format field)")
    if doc["format"] != FORMAT:
        raise FormatError(
            f"save file {source} has format {doc['format']!r}; this pbem reads {FORMAT!r}",
            "upgrade pbem, or check that this is a pbem save file",
        )
    if set(doc) != {"format", "body", "signature"}:
        raise FormatError(
            f"save file {source} has unexpected fields {sorted(set(doc) - {'format', 'body', 'signature'})}"
        )
    body = doc["body"]
    if not isinstance(body, dict):
        raise FormatError(f"save file {source}: body is not an object")
    _check_fields(body, source)
    try:
        moderator = PublicCard.from_json(body["moderator"])
    except FormatError as exc:
        raise FormatError(f"save file {source}: moderator: {exc.message}") from None
    if expect_moderator is not None and moderator.verify_key != expect_moderator.verify_key:
        raise ForeignError(
            f"save file {source} was signed by moderator {moderator.name} ({moderator.key_id}), "
            f"not by {expect_moderator.name} ({expect_moderator.key_id})",
            "use the moderator key this game was created with",
        )
    try:
        signature = base64.b64decode(doc["signature"], validate=True)
    except (ValueError, TypeError):
        raise FormatError(f"save file {source}: signature is not base64") from None
    raw = canonical.dumps(body)
    try:
        moderator.verify(SAVE_DOMAIN, raw, signature)
    except Exception:
        raise TamperedError(
            f"save file {source} was changed after the moderator signed it (signature does not verify)",
            "restore it from the game's history/ folder or your backup",
        ) from None
    check_body(body, source)
    body_digest = hashlib.sha256(raw).hexdigest()
    _remember(_verified, digest, (raw, moderator.verify_key, body_digest))
    _remember(_files, data[-_FILE_TAIL:], (data, digest), _FILES_KEPT)
    return Save(body, source, raw, digest, body_digest)


def _check_fields(body: dict[str, Any], source: str) -> None:
    """Raise FormatError unless ``body`` has every field, of its type, and no other."""
    for name, kind in _BODY_FIELDS.items():
        if name not in body:
            raise FormatError(f"save file {source}: body lacks {name!r}")
        if not isinstance(body[name], kind) or (kind is int and isinstance(body[name], bool)):
            raise FormatError(f"save file {source}: body field {name!r} has the wrong type")
    for name, kind in _OPTIONAL_FIELDS.items():
        if name in body and not isinstance(body[name], kind):
            raise FormatError(f"save file {source}: body field {name!r} has the wrong type")
    extra = set(body) - set(_BODY_FIELDS) - set(_OPTIONAL_FIELDS)
    if extra:
        raise FormatError(f"save file {source}: body has unknown fields {sorted(extra)}")


def _known_save(
    data: bytes, source: str, digest: str, known: tuple[bytes, bytes, str], expect: PublicCard | None
) -> Save:
    """A save whose very bytes this process wrote or verified before: parsed again (a fresh
    body, never one shared with another caller), not verified again.  Raises ForeignError as
    :func:`read_save`."""
    raw, verify_key, body_digest = known
    written = _bodies.get(digest)
    if written is not None:  # the same body, its fields in the file's order (ASCII keys)
        body = json.loads(written[0])
        body["secret"] = written[1]
    else:
        body = json.loads(data)["body"]
    save = Save(body, source, raw, digest, body_digest)
    if expect is not None and verify_key != expect.verify_key:
        moderator = save.moderator
        raise ForeignError(
            f"save file {source} was signed by moderator {moderator.name} ({moderator.key_id}), "
            f"not by {expect.name} ({expect.key_id})",
            "use the moderator key this game was created with",
        )
    return save


def open_secret(save: Save, moderator: Identity) -> Secret:
    """Decrypt and check the secret part.  Raises ForeignError or FormatError."""
    if moderator.public().verify_key != save.moderator.verify_key:
        raise ForeignError(
            f"{save.source} belongs to moderator {save.moderator.name} ({save.moderator.key_id}), "
            f"not to {moderator.name} ({moderator.public().key_id})",
            "use the moderator key this game was created with",
        )
    sealed = save.body["secret"]
    key = (moderator.public().age_recipient, sealed)
    known = _opened.get(key)
    log: Log | None = None
    if known is not None:  # sealed (or opened and checked) by this process
        if known[1] is not None:  # the log kept as its text, not decoded
            data = json.loads(known[1])
            log = Log(known[2])
        else:
            data = json.loads(known[0])
    else:
        raw = moderator.decrypt(sealed)
        data = canonical.loads(raw, f"secret part of {save.source}")
        # kept without its padding (white space after the JSON: up to ~100 KB late in a
        # game), which json.loads would otherwise skip again at every later open
        _remember(_opened, key, (raw.rstrip(), None, ""))
    if (
        not isinstance(data, dict)
        or data.get("format") != SECRET_FORMAT
        or data.get("game_id") != save.game_id
        or data.get("revision") != save.revision
    ):
        raise FormatError(f"the secret part of {save.source} does not belong to this save")
    try:
        return Secret(
            state=data["state"],
            seed=bytes.fromhex(data["seed"]),
            pending=data["pending"],
            events=data["events"],
            log=data["log"] if log is None else log,
        )
    except (KeyError, ValueError, TypeError):
        raise FormatError(f"the secret part of {save.source} is malformed") from None
