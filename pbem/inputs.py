"""Reading a file someone named, as untrusted input: one place that turns every way a path
can fail into a clear pbem error instead of a traceback.

A path may name nothing, a folder, a symbolic-link loop, a FIFO (opening it would block
forever), a device, a file we may not read, a huge file, or bytes that are not UTF-8.  The
first kinds are the caller's mistake (UsageError, exit 2: "name another file"); a file that
is there but holds the wrong bytes is rejected input (FormatError, exit 1).  Nothing here
writes anything.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from pbem.errors import FormatError, UsageError

MAX_INPUT = 64 * 1024 * 1024
"""The largest file read by default (a save of a long game is a few megabytes)."""

_WHY = {
    errno.ENOENT: "there is no such file",
    errno.EISDIR: "it is a folder, not a file",
    errno.ELOOP: "it is a loop of symbolic links",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.ENAMETOOLONG: "the name is too long",
}


def read_fd(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes from an open file descriptor, read in 1 MiB chunks (so a file
    that grows while it is read never makes pbem read more).  Raises OSError as os.read does."""
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _read_regular(fd: int, size: int, limit: int) -> bytes:
    """:func:`read_fd` of a regular file whose ``fstat`` said ``size`` bytes: the first read
    asks for one byte more than that (up to 1 MiB); when it brings exactly ``size`` bytes, the
    whole file ``fstat`` described and not a byte more, no second ``read`` is made to find
    its end (one system call fewer for each save read).  Any other count (a read cut short
    mid-file, as a network or FUSE folder may give; a file that grew meanwhile; one that
    reports no size, as ``/proc`` does) is read on to the end as before.  Raises OSError as
    os.read does."""
    want = min(size + 1, 1 << 20, limit)
    first = os.read(fd, want)
    if len(first) == size < want:
        return first
    return first + read_fd(fd, limit - len(first))


def shorten(text: str, limit: int = 60) -> str:
    """``text`` for a message: cut to about ``limit`` characters, saying how long it was."""
    return text if len(text) <= limit else f"{text[: limit - 20]}... ({len(text):,} characters)"


HIDDEN_CATEGORIES = ("Cc", "Cs", "Co", "Cn")
"""Characters ``pbem say`` refuses: control, surrogate, private-use and unassigned."""

FORGING = frozenset("\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Characters :func:`visible` also shows as escapes though ``pbem say`` lets them through: the
line and paragraph separators (a text archive splits its lines there, so a letter could
start a line that reads as another message's header) and the bidirectional embeddings,
overrides and isolates (text after U+202E is drawn reversed: a line reads other than it was
written).  The marks U+200E and U+200F, which right-to-left writing needs, stay."""

MAX_MARKS = 5
"""Combining marks in a row on one letter that :func:`visible` shows as they are; more are
shown as escapes.  Writing needs a few (Vietnamese two, pointed Hebrew with its accents or a
Tibetan stack four); hundreds ("Zalgo" text) are drawn up over the lines above, hiding them
(a letter's first line over its own "Message 2, from bob" header)."""


def visible(line: str) -> str:
    """``line`` with each character of :data:`HIDDEN_CATEGORIES` but the tab, and each of
    :data:`FORGING`, written as its escape (``\\x1b``, ``\\u202e`` ...), for text a player
    wrote and another person reads (press, order lines in an archive): shown as it is, an
    escape sequence would drive the reader's terminal (set its title, write its clipboard),
    and a separator or override would show the reader a text other than the one signed.
    ``pbem say`` refuses the first kind, but a player may sign text by other means; applied
    after the signature is checked.  Combining marks past :data:`MAX_MARKS` in a row are
    shown as escapes too."""
    if line.isascii() and line.isprintable():
        return line
    import unicodedata

    out = []
    marks = 0
    for c in line:
        category = unicodedata.category(c)
        marks = marks + 1 if category in ("Mn", "Me") else 0
        hidden = c in FORGING or marks > MAX_MARKS or (c != "\t" and category in HIDDEN_CATEGORIES)
        out.append(c.encode("unicode_escape").decode("ascii") if hidden else c)
    return "".join(out)


_PLAIN_NAMES = os.sep == "/" and os.altsep is None
"""Whether a name with no ``/`` in it is its own final component (POSIX: no drives, no
second separator)."""


def file_name(source: str) -> str:
    """``Path(source).name``: the final component of the path ``source`` (what a save keeps of
    an order file's source).  The usual source, a bare file name (``orders.txt``), is its own
    name: answered without building a Path (a few microseconds a turn), the same answer
    ``Path`` gives, which any other source (a ``/`` in it, ``.``, empty) still asks."""
    if _PLAIN_NAMES and "/" not in source and source != "." and source:
        return source
    return Path(source).name


def describe_os_error(exc: OSError) -> str:
    """A short reason for an OSError, without Python's ``[Errno N]`` noise."""
    return _WHY.get(exc.errno or 0, exc.strerror or type(exc).__name__)


def read_bytes(path: str | os.PathLike[str], what: str = "file", limit: int = MAX_INPUT) -> bytes:
    """The bytes of the regular file at ``path`` (``what`` names it in messages).

    Never blocks on a FIFO and never reads more than ``limit`` bytes.  Raises UsageError when
    the path cannot be read as a file (missing, a folder, a link loop, not a regular file,
    permission denied) and FormatError when the file is larger than ``limit``.
    """
    name = os.fspath(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UsageError(
            f"cannot read {what} {name}: {describe_os_error(exc)}", "check the path and name a file"
        ) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a pipe or a device)"
            raise UsageError(f"cannot read {what} {name}: it is {kind}", "name a plain file")
        if info.st_size > limit:
            raise FormatError(
                f"{what} {name} is {info.st_size:,} bytes; pbem reads at most {limit:,}",
                "check that this is the right file",
            )
        data = _read_regular(fd, info.st_size, limit + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {what} {name}: {describe_os_error(exc)}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise FormatError(
            f"{what} {name} is larger than {limit:,} bytes", "check that this is the right file"
        )
    return data


def decode(data: bytes, source: str, what: str = "file") -> str:
    """``data`` as UTF-8 text.  Raises FormatError naming the line and the bad bytes."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start : exc.start + 4].hex(" ")
        raise FormatError(
            f"{what} {source} is not UTF-8 text: line {line} holds the bytes {bad}",
            "save the file as UTF-8 (any editor's 'encoding' setting) and try again",
        ) from None


def read_text(path: str | os.PathLike[str], what: str = "file", limit: int = MAX_INPUT) -> str:
    """The UTF-8 text of the file at ``path``.  Raises as :func:`read_bytes` and
    :func:`decode` do."""
    return decode(read_bytes(path, what, limit), os.fspath(path), what)


def writable_target(path: str | os.PathLike[str], what: str = "file") -> Path:
    """Check that a file can be written at ``path`` before any work is done: its folder
    exists and is a folder, and ``path`` itself is not a folder.  Raises UsageError."""
    target = Path(path)
    folder = target.parent
    if not folder.is_dir():
        raise UsageError(
            f"cannot write the {what} to {target}: the folder {folder} does not exist",
            "create the folder first, or name a file in an existing folder",
        )
    if target.is_dir():
        raise UsageError(f"cannot write the {what} to {target}: it is a folder", "name a file")
    return target
