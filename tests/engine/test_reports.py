"""Reports: verified before use; damaged or forged ones are refused with a message, never a
traceback."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from pbem import canonical
from pbem.errors import FormatError, RejectedError, SignatureError
from pbem.keys import REPORT_DOMAIN, Identity, encrypt
from pbem.orders import AGE_BEGIN, AGE_END
from pbem.reports import (
    DATA_BEGIN,
    DATA_END,
    DATA_SIG,
    PRIVATE_BEGIN,
    PRIVATE_END,
    parse_report,
    prose_digest,
)

from .conftest import Table


def _b64(raw: bytes) -> list[str]:
    text = base64.b64encode(raw).decode()
    return [text[i : i + 64] for i in range(0, len(text), 64)]


def forged_report(signer: Identity, data: Any, private_block: str = "") -> str:
    """A report made by ``signer``: self-consistent (its text hash too), signed with ``signer``'s key."""
    prose = "Report\n\n" + private_block + "\n"
    if isinstance(data, dict):
        data = dict(data, text_sha256=prose_digest(prose.splitlines()))
    raw = canonical.dumps(data)
    sig = signer.sign(REPORT_DOMAIN, raw)
    block = [DATA_BEGIN, *_b64(raw), DATA_SIG, *_b64(sig), DATA_END]
    return prose + "\n".join(block) + "\n"


def test_report_round_trip(table: Table) -> None:
    report = table.report("alice")
    assert report.data["player"] == "alice" and report.data["turn"] == 1
    assert report.private_text is not None and "Private to alice" in report.private_text
    state = table.folder.load(table.moderator).secret.state
    assert sorted(report.private["hand"]) == sorted(state["hands"][0])
    # the moderator can open every private part; another player none
    text, source = table.report_text("alice")
    assert parse_report(text, source, table.moderator).private == report.private
    with pytest.raises(FormatError, match="cannot decrypt with bob's key"):
        parse_report(text, source, table.keys["bob"])
    # no key: verified, private part left sealed
    assert parse_report(text, source).private is None


def test_report_of_another_moderator_is_refused(table: Table) -> None:
    text, source = table.report_text("alice")
    with pytest.raises(SignatureError, match="was not signed by moderator moderator2"):
        parse_report(text, source, moderator=table.keys["moderator2"].public())


def test_swapped_private_part_is_refused(table: Table) -> None:
    text, source = table.report_text("alice")
    other, _ = table.report_text("bob")

    def block(report: str) -> str:
        lines = report.splitlines()
        return "\n".join(lines[lines.index(AGE_BEGIN) : lines.index(AGE_END) + 1])

    swapped = text.replace(block(text), block(other))
    assert swapped != text
    with pytest.raises(SignatureError, match="encrypted part is not the one the moderator signed"):
        parse_report(swapped, source, table.keys["alice"])


def test_damaged_data_block(table: Table) -> None:
    text, source = table.report_text("alice")
    lines = text.splitlines()
    at = lines.index(DATA_BEGIN) + 2
    lines[at] = lines[at][::-1]
    with pytest.raises((FormatError, SignatureError)):
        parse_report("\n".join(lines), source, table.keys["alice"])
    with pytest.raises(FormatError, match="is not a pbem report"):
        parse_report(text.replace(DATA_END, ""), source)
    with pytest.raises(FormatError, match="damaged"):
        parse_report(text.replace(DATA_SIG, "----"), source)


def _data(table: Table, keys: dict[str, Identity]) -> dict[str, Any]:
    data: dict[str, Any] = dict(table.report("alice").data)
    data["moderator"] = keys["mallory"].public().to_json()
    return data


FORGERIES: dict[str, Any] = {
    "no-moderator": lambda d: {"format": d["format"]},
    "moderator-not-an-object": lambda d: dict(d, moderator="mallory"),
    "a-list": lambda d: [d["format"]],
}


@pytest.mark.parametrize("change", FORGERIES.values(), ids=list(FORGERIES))
def test_malformed_report_data_is_a_format_error(
    table: Table, keys: dict[str, Identity], change: Any
) -> None:
    text = forged_report(keys["mallory"], change(_data(table, keys)))
    with pytest.raises(RejectedError) as info:
        parse_report(text, "report.txt", keys["alice"])
    assert "report.txt" in info.value.message


@pytest.mark.parametrize(
    "inner",
    [b"not base64 !!", base64.b64encode(b"[1, 2]"), base64.b64encode(b"{}"), base64.b64encode(b"\xff")],
    ids=["not-base64", "a-list", "empty-object", "not-utf8"],
)
def test_malformed_private_part_is_a_format_error(
    table: Table, keys: dict[str, Identity], inner: bytes
) -> None:
    """A report forged by someone else (anyone can encrypt to alice) must not crash pbem read."""
    plain = f"Private to alice\n{PRIVATE_BEGIN}\n{inner.decode('latin-1')}\n{PRIVATE_END}\n"
    block = encrypt(plain.encode(), [keys["alice"].public()])
    data = _data(table, keys)
    import hashlib

    from pbem.reports import _normal_block

    data["private_sha256"] = hashlib.sha256(_normal_block(block).encode()).hexdigest()
    text = forged_report(keys["mallory"], data, block)
    with pytest.raises(RejectedError) as info:
        parse_report(text, "report.txt", keys["alice"])
    assert "report.txt" in info.value.message


def test_forged_report_is_refused_when_the_moderator_is_known(
    table: Table, keys: dict[str, Identity]
) -> None:
    text = forged_report(keys["mallory"], dict(_data(table, keys), private_sha256=None))
    assert parse_report(text, "report.txt").data["player"] == "alice"  # self-consistent ...
    with pytest.raises(SignatureError, match="was not signed by moderator moderator"):
        parse_report(text, "report.txt", moderator=table.moderator.public())


def test_edited_report_prose_is_refused(table: Table) -> None:
    text, source = table.report_text("alice")
    edited = text.replace("Orders awaited from: alice", "Orders awaited from: bob")
    assert edited != text
    with pytest.raises(SignatureError, match="text was changed after the moderator signed it"):
        parse_report(edited, source, table.keys["alice"])


def test_report_survives_mail_but_not_edits(table: Table) -> None:
    """Quoting, CRLF, trailing spaces, no-break spaces and extra blank lines are fine; a word is not."""
    text, source = table.report_text("alice")
    mailed = "Hi, your report:\r\n\r\n" + "".join(
        f"> {line.replace(' ', chr(0xA0), 1)}   \r\n\r\n" for line in text.splitlines()
    )
    opened = parse_report(mailed, source, table.keys["alice"])
    assert opened.private_text and "PBEM REPORT for alice" in opened.readable()
    with pytest.raises(SignatureError, match="text was changed"):
        parse_report(mailed.replace("from: alice", "from: bob"), source, table.keys["alice"])
