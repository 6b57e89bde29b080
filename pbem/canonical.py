"""Canonical JSON (RFC 8785) for signing, and a strict parser for reading signed files.

What we sign is the RFC 8785 encoding, so the bytes never depend on key order or spacing.
What we read must be plain JSON data: duplicate keys, NaN/Infinity and floats are refused,
because two parsers could disagree on them and a signature must mean one thing.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pbem.errors import FormatError


def dumps(value: Any) -> bytes:
    """RFC 8785 bytes of a JSON value.  Raises FormatError for floats or non-JSON types."""
    _check(value, "$")
    import rfc8785

    data: bytes = rfc8785.dumps(value)
    return data


def digest(value: Any) -> str:
    """SHA-256 (hex) of the canonical bytes of ``value``."""
    return hashlib.sha256(dumps(value)).hexdigest()


def _check(value: Any, path: str) -> None:
    if value is None or isinstance(value, (bool, str)):
        return
    if isinstance(value, int):
        return
    if isinstance(value, float):
        raise FormatError(f"float at {path}: state and signed files hold integers only")
    if isinstance(value, list):
        for i, item in enumerate(value):
            _check(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise FormatError(f"non-string key {key!r} at {path}")
            _check(item, f"{path}.{key}")
        return
    raise FormatError(f"{type(value).__name__} at {path} is not JSON data")


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


def loads(data: bytes | str, what: str = "file") -> Any:
    """Parse JSON strictly.  Raises FormatError naming ``what`` and the problem."""
    try:
        return json.loads(
            data,
            object_pairs_hook=_pairs,
            parse_constant=_no_constant,
            parse_float=_no_float,
        )
    except FormatError as exc:
        raise FormatError(f"{what}: {exc.message}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FormatError(f"{what} is not valid JSON ({exc})") from None
