"""Canonical JSON (RFC 8785) for signing, and a strict parser for reading signed files.

What we sign is the RFC 8785 encoding, so the bytes never depend on key order or spacing.
What we read must be plain JSON data: duplicate keys, NaN/Infinity and floats are refused,
because two parsers could disagree on them and a signature must mean one thing.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NoReturn

from pbem.errors import FormatError

MAX_INT = 2**53 - 1
"""I-JSON's exact integer range: RFC 8785 refuses integers beyond it."""
MAX_DEPTH = 64
"""How deeply arrays and objects may nest in a file we read: every game's state and every
signed file we write stays far below it, and it keeps every later walk of the data (ours,
a game's, the json module's) clear of Python's recursion limit."""
_INT_DIGITS = len(str(MAX_INT))


def encoder(separators: tuple[str, str]) -> Any:
    """A function of one JSON value giving ``json.dumps(value, sort_keys=True,
    ensure_ascii=False, separators=separators)``, the same string.

    ``JSONEncoder.encode`` builds the json module's C encoder anew at every call, about as
    long as encoding a small object; here it is built once (no circular-reference check:
    what we encode is data just checked or built from checked parts, never a cycle).  Where
    the C encoder is missing, the encoder's own ``encode``.  Raises TypeError/ValueError as
    json does.
    """
    item, key = separators
    plain = json.JSONEncoder(sort_keys=True, separators=separators, ensure_ascii=False)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython has it
        return plain.encode
    run = make(None, plain.default, json.encoder.encode_basestring, None, key, item, True, False, True)
    quote = json.encoder.encode_basestring

    def encode(value: Any) -> str:
        if type(value) is str:
            text: str = quote(value)
            return text
        try:
            return "".join(run(value, 0))
        except RecursionError:  # what json's own check says of a cycle
            raise ValueError("Circular reference detected (or data nested too deeply)") from None

    return encode


_COMPACT = encoder((",", ":"))
"""``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``."""


def dumps(value: Any) -> bytes:
    """RFC 8785 bytes of a JSON value.

    Raises FormatError for floats, integers beyond 2**53 - 1, lone surrogates and non-JSON
    types.  For data without floats, RFC 8785 is exactly compact ``json.dumps`` with sorted
    keys and no ASCII escaping, except that keys are ordered by UTF-16 code units: the two
    orders differ only for keys with characters beyond U+FFFF, which go through the
    reference ``rfc8785`` encoder instead (tests check both paths agree with it).
    """
    if _check(value):
        import rfc8785

        try:
            data: bytes = rfc8785.dumps(value)
        except (
            rfc8785.CanonicalizationError,
            UnicodeEncodeError,
        ):  # left once _check passed: a lone surrogate
            raise FormatError("a string holds a lone surrogate: not valid Unicode") from None
        return data
    text = _COMPACT(value)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise FormatError("a string holds a lone surrogate: not valid Unicode") from None


def walk(value: Any) -> tuple[bool, int]:
    """The check :func:`dumps` makes and the :func:`depth` of ``value``, in one walk.

    Raises FormatError for anything that is not integer-only JSON data (the message
    :func:`check`'s walk gives).  Returns whether some key needs RFC 8785's UTF-16 order (a
    character beyond U+FFFF: ``dumps`` then takes the reference encoder) and how deeply
    ``value`` nests.  The walk goes a level at a time, as :func:`depth`'s does, so the depth
    costs no bookkeeping per value (the save's body is both checked and measured)."""
    astral = False
    deepest = 0
    layer = [value]
    while True:
        below: list[Any] = []
        extend = below.extend
        nested = False
        for item in layer:
            kind = type(item)
            if kind is dict:
                nested = True
                for key in item:
                    if type(key) is not str:
                        _refuse(value)
                    if not key.isascii() and max(map(ord, key)) > 0xFFFF:
                        astral = True
                extend(item.values())
            elif kind is list:
                nested = True
                extend(item)
            elif kind is int:
                if not -MAX_INT <= item <= MAX_INT:
                    _refuse(value)
            elif not (kind is str or kind is bool or item is None):
                _refuse(value)
        if not nested:
            return astral, deepest
        deepest += 1
        layer = below


def check(value: Any, what: str = "value") -> None:
    """Raise FormatError unless ``value`` is integer-only JSON data (names ``what``)."""
    try:
        _check(value)
    except FormatError as exc:
        raise FormatError(f"{what}: {exc.message}") from None


def compact(value: Any) -> bytes:
    """Compact JSON with sorted keys, WITHOUT the full walk of :func:`dumps`.

    Only for data checked where it entered (a game's state and orders are checked by the
    engine when the game returns them) and never signed as such: the sealed secret part of a
    save, whose ciphertext is what the signature covers.  Raises ValueError/TypeError for
    what json cannot encode at all.
    """
    return _COMPACT(value).encode("utf-8")


def compact_text(value: Any) -> str:
    """:func:`compact` as text (not encoded to UTF-8).  Raises ValueError/TypeError as json does."""
    text: str = _COMPACT(value)
    return text


def digest(value: Any) -> str:
    """SHA-256 (hex) of the canonical bytes of ``value``."""
    return hashlib.sha256(dumps(value)).hexdigest()


def _check(value: Any) -> bool:
    """Walk ``value``; raise FormatError for anything that is not integer-only JSON data.

    Returns True when some key has a character beyond U+FFFF (needs UTF-16 key order).
    The walk keeps no paths (it runs over every save and report written); only when it finds
    something wrong does :func:`_explain` walk again to name where.
    """
    astral = False
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict:
            for key in item:
                if type(key) is not str:
                    _refuse(value)
                if not key.isascii() and max(map(ord, key)) > 0xFFFF:
                    astral = True
            extend(item.values())
        elif kind is list:
            extend(item)
        elif kind is int:
            if not -MAX_INT <= item <= MAX_INT:
                _refuse(value)
        elif not (kind is str or kind is bool or item is None):
            _refuse(value)
    return astral


def _explain(value: Any) -> None:
    """Raise FormatError naming the first thing in ``value`` that is not integer-only JSON
    data, with its path (``$.state.hands[2]``); return if there is none."""
    stack = [(value, "$")]
    while stack:
        item, path = stack.pop()
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if -MAX_INT <= item <= MAX_INT:
                continue
            raise FormatError(f"integer at {path} is beyond 2**53 - 1")
        if kind is dict:
            for key, sub in item.items():
                if type(key) is not str:
                    raise FormatError(f"non-string key {key!r} at {path}")
                stack.append((sub, f"{path}.{key}"))
            continue
        if kind is list:
            stack.extend((sub, f"{path}[{i}]") for i, sub in enumerate(item))
            continue
        if kind is float:
            raise FormatError(f"float at {path}: state and signed files hold integers only")
        raise FormatError(f"{kind.__name__} at {path} is not JSON data")


def _refuse(value: Any) -> NoReturn:
    """Raise the FormatError :func:`_explain` finds in ``value`` (which has a fault)."""
    _explain(value)
    raise AssertionError("unreachable: _check found a fault _explain does not")  # pragma: no cover


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise FormatError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise FormatError(f"{name} is not allowed")


def _no_float(text: str) -> Any:
    raise FormatError(f"number {text} is not an integer")


def _int(text: str) -> int:
    """An integer of the JSON text, refused beyond 2**53 - 1 before Python converts it (a
    number with thousands of digits would otherwise cost time or raise ValueError)."""
    if len(text.lstrip("-")) > _INT_DIGITS or abs(value := int(text)) > MAX_INT:
        shown = text if len(text) <= 24 else f"{text[:12]}...({len(text)} digits)"
        raise FormatError(f"number {shown} is beyond 2**53 - 1")
    return value


def depth(value: Any) -> int:
    """How deeply ``value`` nests (a scalar is 0, ``[]`` is 1), walked without recursion;
    the walk stops a level past :data:`MAX_DEPTH`.

    The walk goes a level at a time (every value of one level, then their children), with
    no bookkeeping per value: it runs over every save pbem writes or reads."""
    deepest = 0
    layer = [value]
    while True:
        below: list[Any] = []
        extend = below.extend
        nested = False
        for item in layer:
            kind = type(item)
            if kind is dict:
                nested = True
                extend(item.values())
            elif kind is list:
                nested = True
                extend(item)
        if not nested:
            return deepest
        deepest += 1
        if deepest > MAX_DEPTH:
            return deepest
        layer = below


def loads(data: bytes | str, what: str = "file") -> Any:
    """Parse JSON strictly: no duplicate keys, NaN, Infinity or floats, integers within
    2**53 - 1, nesting at most :data:`MAX_DEPTH` deep.

    Raises FormatError naming ``what`` and the problem (never RecursionError or ValueError,
    however the input is built).
    """
    try:
        value = json.loads(
            data,
            object_pairs_hook=_pairs,
            parse_constant=_no_constant,
            parse_float=_no_float,
            parse_int=_int,
        )
    except FormatError as exc:
        raise FormatError(f"{what}: {exc.message}") from None
    except RecursionError:
        raise FormatError(f"{what}: arrays or objects nested more than {MAX_DEPTH} deep") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FormatError(f"{what} is not valid JSON ({_short(str(exc))})") from None
    if depth(value) > MAX_DEPTH:
        raise FormatError(f"{what}: arrays or objects nested more than {MAX_DEPTH} deep")
    return value


def _short(text: str, limit: int = 160) -> str:
    """``text`` cut to ``limit`` characters for a message."""
    return text if len(text) <= limit else f"{text[: limit - 3]}..."
