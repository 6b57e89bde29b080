"""Identities (secret) and public key cards: Ed25519 signatures and age (X25519) encryption.

An identity file holds two independent secrets: an Ed25519 signing key and an age X25519
identity (``AGE-SECRET-KEY-1...``), so that ``age -d -i`` can open whatever pbem encrypts
(``pbem key age-identity`` prints the line ``age`` needs).  Keys are never converted from one
type to the other.  The public key card carries the name, the Ed25519 key (in minisign's
text shape: base64 of ``Ed`` + 8-byte key id + key), the age recipient, and a
self-signature that binds the recipient to the signing key.

Every signature is domain-separated: the signed bytes are ``<domain>\\n<data>``, with a
domain such as ``pbem-orders/v1``, so a signature of one kind never passes as another.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from pbem.errors import FormatError, KeyFileError, SignatureError
from pbem.padding import DEFAULT_SIZE, pad

KEY_DOMAIN = "pbem-key/v1"
ORDERS_DOMAIN = "pbem-orders/v1"
SAVE_DOMAIN = "pbem-save/v1"
REPORT_DOMAIN = "pbem-report/v1"
GAME_DOMAIN = "pbem-game/v1"

_IDENTITY_HEADER = "PBEM-IDENTITY-V1"
_CARD_BEGIN = "-----BEGIN PBEM PUBLIC KEY-----"
_CARD_END = "-----END PBEM PUBLIC KEY-----"
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")


def check_name(name: str) -> str:
    """Return ``name`` if it is a valid player name (letters, digits, ``_.-``, at most 32).

    Raises KeyFileError otherwise: names appear in file names and order headers.
    """
    if not _NAME_RE.match(name):
        from pbem.inputs import shorten

        near = _name_like(name)
        raise KeyFileError(
            f"invalid name {shorten(name)!r}{_why_invalid(name)}",
            "use 1-32 of the letters A-Z and a-z (no accents), digits, '_', '.' or '-', "
            "starting with a letter or digit" + (f" (for example {near!r})" if near else ""),
        )
    return name


def _why_invalid(name: str) -> str:
    """Why ``name`` is no valid name, to add to the message: the characters not allowed, its
    length, or its first character.  Never raises."""
    bad = sorted({c for c in name if not (c.isascii() and (c.isalnum() or c in "_.-"))})
    if bad:
        return f" ({', '.join(map(repr, bad[:5]))} {'is' if len(bad) == 1 else 'are'} not allowed)"
    if len(name) > 32:
        return f" ({len(name):,} characters)"
    return " (it must start with a letter or digit)" if name else ""


def _name_like(name: str) -> str | None:
    """A valid name close to ``name`` ("Zoë" -> "Zoe", "ann marie" -> "ann-marie"), or None
    when letters would be lost (a letter with no plain form, such as "Ø").  Never raises."""
    import unicodedata

    plain = "".join(c for c in unicodedata.normalize("NFKD", name[:200]) if not unicodedata.combining(c))
    if not plain.isascii():
        return None
    plain = re.sub(r"[^A-Za-z0-9_.-]+", "-", plain).strip("-_.")[:32].rstrip("-_.")
    return plain if plain and _NAME_RE.match(plain) else None


ENGINE_FILES = ("public.txt", "board.svg")
"""Files the engine writes beside the players' reports in ``reports/turn-NNNN/`` (the public
report, and the picture the board games draw): no player may be called after one."""

_WINDOWS_DEVICES = frozenset(
    ["con", "prn", "aux", "nul", *(f"com{i}" for i in range(1, 10)), *(f"lpt{i}" for i in range(1, 10))]
)


def check_player_name(name: str, pictures: Iterable[str] = ()) -> str:
    """Return ``name`` if a player may have it: :func:`check_name`, and no collision with a
    file the engine writes.

    A player's report is ``reports/turn-NNNN/<name>.txt`` and their folders are
    ``players/<name>/`` and ``inbox/<name>/``, so, compared without regard to case (shared
    folders live on case-insensitive disks too), a name may not be the name or stem of a
    file in :data:`ENGINE_FILES` or of one of the game's ``pictures``, nor a device name
    Windows reserves (``con``, ``nul``, ``com1`` ...; also before a dot), nor end in a dot
    (Windows drops it, so ``bob.`` and ``bob`` would share a folder).  One check, used by
    ``pbem keygen``, ``pbem new`` and ``pbem replace``.  Raises KeyFileError.
    """
    check_name(name)
    low = name.lower()
    files = (*ENGINE_FILES, *pictures)
    clash = [f for f in files if low in (f.lower(), f.lower().rsplit(".", 1)[0]) or f"{low}.txt" == f.lower()]
    if clash:
        raise KeyFileError(
            f"the name {name!r} is reserved: that player's report or folder would clash with the "
            f"file {clash[0]} the engine writes beside the reports",
            "choose another name (not the name of public.txt or of a picture such as board.svg, in any case)",
        )
    if low.split(".", 1)[0] in _WINDOWS_DEVICES or low.endswith("."):
        raise KeyFileError(
            f"the name {name!r} cannot be a file name on Windows (a device name, or a final dot)",
            "choose another name: players' reports and folders are named after them",
        )
    return name


def _signed_bytes(domain: str, data: bytes) -> bytes:
    return domain.encode("ascii") + b"\n" + data


_CACHE_LIMIT = 4096
"""Parsed public keys kept per process (a moderator meets a few per game)."""
_verifiers: dict[bytes, Ed25519PublicKey] = {}
_cards: dict[tuple[str, str, str, str], PublicCard] = {}
"""Cards rebuilt from their JSON (name, sign, age, self_sig), by those four strings."""
_recipients: dict[str, Any] = {}


def _verifier(verify_key: bytes) -> Ed25519PublicKey:
    """The parsed Ed25519 key of ``verify_key``, parsed once per process (a pure function of
    the bytes).  Raises ValueError for bytes that are not a key."""
    key = _verifiers.get(verify_key)
    if key is None:
        if len(_verifiers) >= _CACHE_LIMIT:
            _verifiers.clear()
        key = _verifiers[verify_key] = Ed25519PublicKey.from_public_bytes(verify_key)
    return key


def _recipient(text: str) -> Any:
    """The parsed age recipient ``text``, parsed once per process.  Raises on a bad one."""
    found = _recipients.get(text)
    if found is None:
        import pyrage

        if len(_recipients) >= _CACHE_LIMIT:
            _recipients.clear()
        found = _recipients[text] = pyrage.x25519.Recipient.from_str(text)
    return found


def key_id_of(verify_key: bytes) -> bytes:
    """The 8-byte key id of an Ed25519 public key (a hash prefix, stable and short)."""
    return hashlib.sha256(b"pbem-key-id\x00" + verify_key).digest()[:8]


@dataclass(frozen=True)
class PublicCard:
    """A participant's public keys: what others need to verify and encrypt to them."""

    name: str
    verify_key: bytes
    age_recipient: str
    self_signature: bytes = b""

    @property
    def key_id(self) -> str:
        """Hex key id, shown to people to compare keys."""
        return key_id_of(self.verify_key).hex().upper()

    def _binding(self) -> bytes:
        return f"{self.name}\n{self.verify_key.hex()}\n{self.age_recipient}".encode()

    def verify(self, domain: str, data: bytes, signature: bytes) -> None:
        """Check a signature made by this card's identity.  Raises SignatureError."""
        try:
            _verifier(self.verify_key).verify(signature, _signed_bytes(domain, data))
        except (InvalidSignature, ValueError):
            raise SignatureError(f"signature does not verify with {self.name}'s key {self.key_id}") from None

    def check_self_signature(self) -> None:
        """Check that the card's own signing key vouches for its name and age recipient."""
        try:
            self.verify(KEY_DOMAIN, self._binding(), self.self_signature)
        except SignatureError:
            raise SignatureError(
                f"public key card for {self.name!r} is not self-signed correctly",
                "ask the player to send their card again (pbem keygen writes it)",
            ) from None

    def to_text(self) -> str:
        """The card as an armoured text block to paste into an email."""
        ed = base64.b64encode(b"Ed" + key_id_of(self.verify_key) + self.verify_key).decode()
        sig = base64.b64encode(self.self_signature).decode()
        return "\n".join(
            [
                _CARD_BEGIN,
                f"Name: {self.name}",
                f"Key-Id: {self.key_id}",
                f"Sign: {ed}",
                f"Age: {self.age_recipient}",
                f"Self-Sig: {sig[:44]}",
                f"Self-Sig: {sig[44:]}",
                _CARD_END,
                "",
            ]
        )

    def to_json(self) -> dict[str, str]:
        return {
            "name": self.name,
            "sign": self.verify_key.hex(),
            "age": self.age_recipient,
            "self_sig": self.self_signature.hex(),
        }

    @classmethod
    def from_json(cls, data: dict[str, str]) -> PublicCard:
        """Rebuild a card stored in a save file; raises FormatError if malformed.

        A card is a value, the same for the same four strings: each is built once per
        process (a turn reads the same few cards from every save it loads and writes): a
        record whose four values equal a remembered card's key is answered with one lookup.
        Only cards built from four str are remembered, and equal strings make an equal card."""
        if cls is not PublicCard:
            return cls._from_json(data)
        try:
            key = (data["name"], data["sign"], data["age"], data["self_sig"])
            card = _cards.get(key)
        except (KeyError, TypeError):  # not a mapping, a field missing, or unhashable
            return cls._from_json(data)  # raises FormatError
        if card is not None:
            return card
        if not all(type(part) is str for part in key):
            return cls._from_json(data)  # raises FormatError, or a card no cache holds
        card = cls._from_json(data)
        if len(_cards) >= _CACHE_LIMIT:
            _cards.clear()
        _cards[key] = card
        return card

    @classmethod
    def _from_json(cls, data: dict[str, str]) -> PublicCard:
        """:meth:`from_json`, the plain way (every call builds the card)."""
        try:
            card = cls(
                name=data["name"],
                verify_key=bytes.fromhex(data["sign"]),
                age_recipient=data["age"],
                self_signature=bytes.fromhex(data["self_sig"]),
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise FormatError(f"malformed public key record ({exc})") from None
        if len(card.verify_key) != 32:
            raise FormatError("malformed public key record (signing key is not 32 bytes)")
        return card

    @classmethod
    def from_text(cls, text: str, source: str = "public key card") -> PublicCard:
        """Parse a card from text that contains one (mail quoting and text around it allowed).

        Raises KeyFileError if there is no card, FormatError if it is malformed, and
        SignatureError if its self-signature does not verify.
        """
        text = text.removeprefix("\ufeff")  # a byte-order mark (Windows Notepad)
        lines = [re.sub(r"^(\s*>)+\s?", "", line).strip() for line in text.splitlines()]
        try:
            start = lines.index(_CARD_BEGIN)
            end = lines.index(_CARD_END, start)
        except ValueError:
            from pbem.file_kind import CARD, wrong_file

            raise wrong_file(text, source, CARD, KeyFileError) or KeyFileError(
                f"{source}: no public key card found",
                f"a card starts with {_CARD_BEGIN}; pass the .pub file that pbem keygen wrote",
            ) from None
        fields: dict[str, str] = {}
        for line in lines[start + 1 : end]:
            if not line:
                continue
            key, sep, value = line.partition(":")
            if not sep:
                raise FormatError(f"{source}: unreadable line {line!r} in public key card")
            key = key.strip().lower()
            fields[key] = fields.get(key, "") + value.strip()
        try:
            raw = base64.b64decode(fields["sign"], validate=True)
            sig = base64.b64decode(fields["self-sig"], validate=True)
            name = check_name(fields["name"])
            age = fields["age"]
        except KeyError as exc:
            raise FormatError(f"{source}: public key card lacks the {exc.args[0]!r} field") from None
        except ValueError:
            raise FormatError(f"{source}: public key card has bad base64") from None
        if len(raw) != 42 or raw[:2] != b"Ed" or raw[2:10] != key_id_of(raw[10:]):
            raise FormatError(f"{source}: the Sign field is not a pbem Ed25519 key")
        if not age.startswith("age1"):
            raise FormatError(f"{source}: the Age field is not an age recipient (age1...)")
        card = cls(name=name, verify_key=raw[10:], age_recipient=age, self_signature=sig)
        card.check_self_signature()
        return card

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PublicCard:
        """Read a card from a file.  Raises KeyFileError if the file cannot be read."""
        from pbem.inputs import read_bytes

        data = read_bytes(path, "public key card", KEY_FILE_LIMIT)  # never blocks on a FIFO
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise KeyFileError(f"public key card {path} is not UTF-8 text", "pass the .pub file") from None
        return cls.from_text(text, str(path))


KEY_FILE_LIMIT = 64 * 1024
"""The largest identity file or public key card read (a real one is under 1 KB)."""


OPENED_KEPT = 4
"""How many opened blocks an identity keeps (see :meth:`Identity.decrypt`)."""

OPENED_MAX_BYTES = 64 * 1024
"""Only blocks up to this size are kept (sealed orders and press are a few KiB)."""


class Identity:
    """A participant's secret keys.  Never leaves the participant's machine."""

    __slots__ = ("_age", "_age_text", "_card", "_opened", "_signing", "name")

    def __init__(self, name: str, signing: Ed25519PrivateKey, age_secret: str) -> None:
        import pyrage

        self.name = check_name(name)
        self._signing = signing
        self._age_text = age_secret
        self._card: PublicCard | None = None
        self._opened: dict[bytes, bytes] = {}
        """The last few blocks this identity opened (see :meth:`decrypt`)."""
        try:
            self._age = pyrage.x25519.Identity.from_str(age_secret)
        except Exception:
            raise KeyFileError("the identity's age key is malformed") from None

    @classmethod
    def generate(cls, name: str) -> Identity:
        """A fresh identity with new random keys."""
        import pyrage

        return cls(name, Ed25519PrivateKey.generate(), str(pyrage.x25519.Identity.generate()))

    def public(self) -> PublicCard:
        """The public key card, self-signed: built and signed once per identity (Ed25519
        signatures are deterministic, so it is the same card every time)."""
        if self._card is None:
            self._card = self._make_card()
        return self._card

    def _make_card(self) -> PublicCard:
        from cryptography.hazmat.primitives import serialization

        verify_key = self._signing.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        recipient = str(self._age.to_public())
        card = PublicCard(self.name, verify_key, recipient)
        return PublicCard(self.name, verify_key, recipient, self.sign(KEY_DOMAIN, card._binding()))

    def sign(self, domain: str, data: bytes) -> bytes:
        """An Ed25519 signature over ``domain`` and ``data``."""
        return self._signing.sign(_signed_bytes(domain, data))

    def age_identity_line(self) -> str:
        """The ``AGE-SECRET-KEY-1...`` line the standard ``age -d -i`` tool reads."""
        return self._age_text

    def decrypt(self, armored: str | bytes, *, keep: bool = False) -> bytes:
        """Open an age block encrypted to this identity.  Raises SignatureError-free
        FormatError when it is not for this key or is corrupt.

        ``keep``: the opening is kept (the last :data:`OPENED_KEPT` small ones, keyed by
        their bytes) and any later opening of the same bytes is answered from it: the
        moderator opens an inbox file to see whether it is press (``open_press`` of
        :mod:`pbem.press.relay` keeps) and the engine opens it again to read the orders (one
        X25519 and a ChaCha20-Poly1305 pass saved a file).  Decryption is a function of the
        key and the bytes, so a kept answer is the answer; a block that fails is never kept
        (it fails again, with its message).  Only that look ahead keeps: every other
        opening is age's own work each time (a benchmark's crypto floor included)."""
        data = armored.encode() if isinstance(armored, str) else armored
        known = self._opened.get(data)
        if known is not None:
            return known
        import pyrage

        try:
            plain: bytes = pyrage.decrypt(data, [self._age])
        except Exception as exc:
            raise FormatError(f"cannot decrypt with {self.name}'s key: {exc}") from None
        if keep and len(data) <= OPENED_MAX_BYTES:
            if len(self._opened) >= OPENED_KEPT:
                del self._opened[next(iter(self._opened))]
            self._opened[data] = plain
        return plain

    def to_text(self) -> str:
        from cryptography.hazmat.primitives import serialization

        seed = self._signing.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        )
        return (
            f"# pbem identity of {self.name}: SECRET, never share or mail this file.\n"
            f"# Your public key card is in the .pub file written beside it.\n"
            f"{_IDENTITY_HEADER}\n"
            f"name: {self.name}\n"
            f"sign: {base64.b64encode(seed).decode()}\n"
            f"age: {self._age_text}\n"
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the identity file with mode 0600, refusing to overwrite an existing one."""
        target = Path(path)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise KeyFileError(
                f"{target} already exists", "choose another file name; pbem never overwrites a key"
            ) from None
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(self.to_text())
            fh.flush()
            os.fsync(fh.fileno())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Identity:
        """Read an identity file.  Raises KeyFileError if it is missing, readable by others
        (mode wider than 0600), or not an identity (a public card passed by mistake, say)."""
        from pbem.inputs import read_bytes

        source = Path(path)
        data = read_bytes(source, "identity", KEY_FILE_LIMIT)  # never blocks on a FIFO
        try:
            mode = source.stat().st_mode
            text = data.decode("utf-8-sig")  # a byte-order mark is not part of it
        except (OSError, UnicodeDecodeError) as exc:
            raise KeyFileError(f"cannot read identity {source}: {exc}") from None
        if _CARD_BEGIN in text:
            raise KeyFileError(f"{source} is a public key card, not an identity", "pass the .key file")
        if _IDENTITY_HEADER not in text:
            from pbem.file_kind import IDENTITY, wrong_file

            other = wrong_file(text, str(source), IDENTITY, KeyFileError)
            if other is not None:  # a report or an order file given as --key: before its mode
                raise other
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise KeyFileError(
                f"identity {source} is readable by other users (mode {stat.S_IMODE(mode):o})",
                f"run: chmod 600 {source}",
            )
        fields: dict[str, str] = {}
        lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
        if not lines or lines[0] != _IDENTITY_HEADER:
            raise KeyFileError(f"{source} is not a pbem identity file")
        for line in lines[1:]:
            key, _, value = line.partition(":")
            if key.strip() in fields and fields[key.strip()] != value.strip():
                raise KeyFileError(
                    f"{source} is a damaged identity file: it has two different {key.strip()!r} lines",
                    "use the identity file pbem keygen wrote (keep one line of each)",
                )
            fields[key.strip()] = value.strip()
        try:
            seed = base64.b64decode(fields["sign"], validate=True)
            signing = Ed25519PrivateKey.from_private_bytes(seed)
            return cls(fields["name"], signing, fields["age"])
        except (KeyError, ValueError) as exc:
            raise KeyFileError(f"{source} is a damaged identity file ({exc})") from None


def encrypt(data: bytes, recipients: Sequence[PublicCard | str], *, pad_to: int = DEFAULT_SIZE) -> str:
    """Encrypt to every recipient (a card, or an ``age1...`` string) as one armoured age block.

    The plaintext is first padded with white space to ``pad_to`` bytes (doubled until it
    fits, see :mod:`pbem.padding`), so the block's length says nothing about what it holds:
    callers pass the size declared for the kind of part they encrypt.  Decrypting returns
    the padded plaintext; every pbem reader ignores the trailing white space.

    Raises KeyFileError for a malformed recipient string.
    """
    import pyrage

    try:
        keys = [_recipient(r if isinstance(r, str) else r.age_recipient) for r in recipients]
    except Exception:
        raise KeyFileError(f"not an age recipient: {', '.join(map(str, recipients))}") from None
    armored: bytes = pyrage.encrypt(pad(data, pad_to), keys, armored=True)
    return armored.decode("ascii")
