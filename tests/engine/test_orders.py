"""Signed order blocks: what survives email, what breaks the signature, what is malformed."""

from __future__ import annotations

import base64
import random
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from pbem.errors import FormatError, SignatureError
from pbem.keys import Identity
from pbem.orders import (
    BEGIN,
    END,
    SIGNATURE,
    OrderHeader,
    SignedOrders,
    find_sealed,
    parse,
    parse_draft,
    seal,
    sign,
    strip_comment,
    unseal,
)

from .conftest import Table, new_table

COMMENT = "# la carte d'Hélène, café noir"


@pytest.fixture(scope="module")
def module_table(tmp_path_factory: pytest.TempPathFactory, keys: dict[str, Identity]) -> Table:
    return new_table(tmp_path_factory.mktemp("orders"), keys, "orders")


@pytest.fixture(scope="module")
def header(module_table: Table) -> OrderHeader:
    return module_table.header("alice")


@pytest.fixture(scope="module")
def lines(module_table: Table) -> list[str]:
    """Legal Symbiote orders from its bots, with a comment line and an inline comment."""
    orders = module_table.full_turn("alice")
    return [COMMENT, *orders[:-1], f"{orders[-1]}   # my last card", ""]


@pytest.fixture(scope="module")
def block(keys: dict[str, Identity], header: OrderHeader, lines: list[str]) -> str:
    return sign(keys["alice"], header, lines)


def _orders(lines: list[str]) -> list[str]:
    return [strip_comment(line) for line in lines if strip_comment(line)]


def _check(parsed: SignedOrders, keys: dict[str, Identity], header: OrderHeader, lines: list[str]) -> None:
    parsed.verify(keys["alice"].public())
    assert parsed.header == header
    assert [line.text for line in parsed.lines] == _orders(lines)


def _line_no(text: str, needle: str) -> int:
    """1-based number of the first line of ``text`` containing ``needle``."""
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


def test_round_trip(keys: dict[str, Identity], header: OrderHeader, lines: list[str], block: str) -> None:
    parsed = parse(block, "alice.txt")
    _check(parsed, keys, header, lines)
    assert parsed.source == "alice.txt"
    for order in parsed.lines:
        assert block.splitlines()[order.number - 1].startswith(order.text)
    assert block.startswith(BEGIN) and block.rstrip().endswith(END)
    assert max(len(line) for line in block.splitlines()) < 72


def _crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def _trailing(text: str) -> str:
    return "".join(f"{line}  \t\n" for line in text.splitlines())


def _quote(text: str) -> str:
    return "".join(f"> {line}\n" for line in text.splitlines())


def _quote2(text: str) -> str:
    return "".join(f"> > {line}\n" for line in text.splitlines())


def _bare_quote(text: str) -> str:
    return "".join(f">>{line}\n" for line in text.splitlines())


def _around(text: str) -> str:
    return f"Hello moderator,\nhere are my orders:\n\n{text}\n-- \nalice, sent from my phone\n"


def _reindented_blanks(text: str) -> str:
    return "\n".join(line or "    \t " for line in text.splitlines()) + "\n"


def _extra_blanks(text: str) -> str:
    return "\n\n".join(text.splitlines()) + "\n"


def _indented(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.splitlines())


def _reply_with_everything(text: str) -> str:
    return _crlf(_around(_quote(_trailing(text))))


MANGLERS: dict[str, Callable[[str], str]] = {
    "crlf": _crlf,
    "trailing-spaces": _trailing,
    "quoted": _quote,
    "quoted-twice": _quote2,
    "quoted-no-space": _bare_quote,
    "text-around": _around,
    "reindented-blank-lines": _reindented_blanks,
    "extra-blank-lines": _extra_blanks,
    "indented": _indented,
    "reply-with-everything": _reply_with_everything,
}


@pytest.mark.parametrize("mangle", MANGLERS.values(), ids=list(MANGLERS))
def test_block_survives_mail(
    mangle: Callable[[str], str], keys: dict[str, Identity], header: OrderHeader, lines: list[str], block: str
) -> None:
    mangled = mangle(block)
    assert mangled != block
    parsed = parse(mangled, "mail.txt")
    _check(parsed, keys, header, lines)
    assert parsed.digest == parse(block).digest


def test_line_numbers_are_those_of_the_file(block: str) -> None:
    mail = _around(block)
    for order in parse(mail, "mail.txt").lines:
        assert order.text in mail.splitlines()[order.number - 1]


def test_dash_escaping_round_trip(keys: dict[str, Identity], header: OrderHeader) -> None:
    odd = ["-1 is no card", "From the deck, a draw", ">quoted in the order", "- already dashed", "draw"]
    block = sign(keys["alice"], header, odd)
    body = block.splitlines()
    for line in odd[:4]:
        assert f"- {line}" in body, f"{line!r} is not dash-escaped"
    assert "draw" in body
    for text in (block, _quote(block), _crlf(_around(block))):
        parsed = parse(text)
        parsed.verify(keys["alice"].public())
        assert [line.text for line in parsed.lines] == odd


def test_unicode_normalization_of_comment(keys: dict[str, Identity], header: OrderHeader) -> None:
    nfd = unicodedata.normalize("NFD", COMMENT)
    assert nfd != COMMENT
    block = sign(keys["alice"], header, [COMMENT, "draw"])
    # NFD and NFC input sign the same normalized text
    assert parse(sign(keys["alice"], header, [nfd, "draw"])).signed_text == parse(block).signed_text
    sent = block.replace(COMMENT, nfd)
    assert sent != block
    parse(sent).verify(keys["alice"].public())


def _first_order_line(block: str, lines: list[str]) -> str:
    first = _orders(lines)[0]
    return next(line for line in block.splitlines() if line.startswith(first))


def _change_word(block: str, lines: list[str]) -> str:
    line = _first_order_line(block, lines)
    word = line.split()[0]
    other = "draw" if word != "draw" else "take"
    return block.replace(line, line.replace(word, other, 1), 1)


def _add_line(block: str, lines: list[str]) -> str:
    line = _first_order_line(block, lines)
    return block.replace(line, f"{line}\n{line}", 1)


def _drop_line(block: str, lines: list[str]) -> str:
    line = _first_order_line(block, lines)
    return block.replace(f"{line}\n", "", 1)


def _edit_comment(block: str, lines: list[str]) -> str:
    return block.replace("café", "thé")


def _x_payload(block: str, lines: list[str]) -> str:
    """bc-java style: "-X" in front of a line must not be taken as dash-escaping."""
    line = _first_order_line(block, lines)
    return block.replace(line, f"-X{line}", 1)


def _header_change(name: str, value: Callable[[str], str]) -> Callable[[str, list[str]], str]:
    def change(block: str, lines: list[str]) -> str:
        old = next(line for line in block.splitlines() if line.startswith(f"{name}: "))
        return block.replace(old, f"{name}: {value(old.split(': ', 1)[1])}", 1)

    return change


TAMPERS: dict[str, Callable[[str, list[str]], str]] = {
    "order-word": _change_word,
    "added-line": _add_line,
    "dropped-line": _drop_line,
    "comment": _edit_comment,
    "x-payload": _x_payload,
    "turn": _header_change("Turn", lambda v: str(int(v) + 1)),
    "seq": _header_change("Seq", lambda v: str(int(v) + 1)),
    "player": _header_change("Player", lambda v: "bob"),
    "game": _header_change("Game", lambda v: v[::-1]),
}


@pytest.mark.parametrize("tamper", TAMPERS.values(), ids=list(TAMPERS))
def test_tampered_block_is_rejected(
    tamper: Callable[[str, list[str]], str], keys: dict[str, Identity], lines: list[str], block: str
) -> None:
    changed = tamper(block, lines)
    assert changed != block
    parsed = parse(changed)
    with pytest.raises(SignatureError, match="signature does not verify"):
        parsed.verify(keys["alice"].public())
    # ... however it is mangled on the way.
    with pytest.raises(SignatureError):
        parse(_reply_with_everything(changed)).verify(keys["alice"].public())


def test_x_payload_is_read_as_written(keys: dict[str, Identity], header: OrderHeader) -> None:
    block = sign(keys["alice"], header, ["-Xdraw"])
    parsed = parse(block)
    parsed.verify(keys["alice"].public())
    assert [line.text for line in parsed.lines] == ["-Xdraw"]


def test_signature_from_another_key(
    keys: dict[str, Identity], header: OrderHeader, lines: list[str], block: str
) -> None:
    forged = sign(keys["mallory"], header, lines)
    assert parse(forged).header == header
    with pytest.raises(SignatureError, match="alice"):
        parse(forged).verify(keys["alice"].public())
    # Alice's signature lines pasted under other orders do not carry over either.
    own_sig = block.split(SIGNATURE, 1)[1]
    other = sign(keys["alice"], header, ["draw", "# something else"])
    spliced = other.split(SIGNATURE, 1)[0] + SIGNATURE + own_sig
    with pytest.raises(SignatureError):
        parse(spliced).verify(keys["alice"].public())


def test_text_outside_the_block_is_never_signed(
    keys: dict[str, Identity], header: OrderHeader, lines: list[str], block: str
) -> None:
    """CVE-2019-11841 style: text (even headers and orders) before or after the armour is
    not part of what was signed, and never reaches the game."""
    injected = "Game: FFFFFFFFFFFFFFFF\nTurn: 99\nPlayer: bob\nSeq: 99\n\ndiscard AS\npair 3H 7H\n"
    for text in (injected + block, block + injected, injected + _quote(block) + injected):
        parsed = parse(text, "mail.txt")
        _check(parsed, keys, header, lines)
        assert "discard AS" not in parsed.signed_text
        assert "99" not in parsed.signed_text


def test_orders_smuggled_inside_the_armour_are_refused(keys: dict[str, Identity], block: str) -> None:
    # before the headers: the headers are then missing where they must be
    before_headers = block.replace(f"{BEGIN}\n", f"{BEGIN}\ndiscard AS\n", 1)
    with pytest.raises(FormatError, match="lacks the header"):
        parse(before_headers)
    # after the signature: not base64, refused rather than ignored
    after_sig = block.replace(f"\n{END}", f"\ndiscard AS\n{END}", 1)
    with pytest.raises(FormatError, match=r"line \d+: the signature is not valid base64"):
        parse(after_sig)


def test_two_blocks_name_their_lines(block: str) -> None:
    text = "first try:\n" + block + "\nsecond try:\n" + block
    with pytest.raises(FormatError) as info:
        parse(text, "mail.txt")
    first, second = (i for i, line in enumerate(text.splitlines(), start=1) if line == BEGIN)
    assert f"2 order blocks found (lines {first}, {second})" in info.value.message
    assert info.value.message.startswith("mail.txt")
    assert info.value.hint and "one order block" in info.value.hint


def test_missing_end(block: str) -> None:
    text = "hi\n" + block.replace(END, "")
    with pytest.raises(FormatError) as info:
        parse(text, "mail.txt")
    assert f"starting at line {_line_no(text, BEGIN)}" in info.value.message
    assert END in info.value.message


def test_missing_signature(header: OrderHeader) -> None:
    text = "\n".join(["hi", BEGIN, *header.lines(), "", "draw", END]) + "\n"
    with pytest.raises(FormatError) as info:
        parse(text, "mail.txt")
    assert f"mail.txt, line {_line_no(text, BEGIN)}: the order block is not signed" in info.value.message
    assert info.value.hint and "pbem sign" in info.value.hint


def test_no_block_at_all() -> None:
    with pytest.raises(FormatError, match="no signed order block found") as info:
        parse("draw\ndiscard 7H\n", "mail.txt")
    assert info.value.hint and "pbem sign" in info.value.hint


@pytest.mark.parametrize("missing", ["Game", "Turn", "Player", "Seq"])
def test_missing_header(block: str, missing: str) -> None:
    text = "\n".join(line for line in block.splitlines() if not line.startswith(f"{missing}:")) + "\n"
    with pytest.raises(FormatError) as info:
        parse(text, "mail.txt")
    assert f"mail.txt, line {_line_no(text, BEGIN) + 1}" in info.value.message
    assert f"lacks the header(s) {missing}" in info.value.message


@pytest.mark.parametrize("bad", ["four", "4a", "-1", "", "²", "٣"])
@pytest.mark.parametrize("name", ["Turn", "Seq"])
def test_non_numeric_header(block: str, name: str, bad: str) -> None:
    text = "re: orders\n" + "\n".join(
        f"{name}: {bad}" if line.startswith(f"{name}:") else line for line in block.splitlines()
    )
    with pytest.raises(FormatError) as info:
        parse(text, "mail.txt")
    number = _line_no(text, f"{name}:")
    assert f"mail.txt, line {number}: {name} must be a whole number, got {bad!r}" in info.value.message


def test_header_given_twice(block: str) -> None:
    text = block.replace("Seq:", "Turn:", 1)
    with pytest.raises(FormatError, match=r"line \d+: header 'Turn' given twice"):
        parse(text)


def test_sign_refuses_ambiguous_order_lines(keys: dict[str, Identity], header: OrderHeader) -> None:
    for line in ("Turn: 5", "seq: 9", BEGIN, END):
        with pytest.raises(FormatError, match="looks like a header or armour line"):
            sign(keys["alice"], header, ["draw", line])


def test_sealed_round_trip(
    keys: dict[str, Identity], header: OrderHeader, lines: list[str], block: str
) -> None:
    sealed = seal(block, [keys["moderator"].public()])
    assert "discard" not in sealed and header.game not in sealed
    assert len(find_sealed(_quote(sealed))) == 1
    for text in (sealed, _around(sealed), _quote(_crlf(sealed))):
        opened = unseal(text, keys["moderator"], "mail.txt")
        _check(parse(opened, "mail.txt"), keys, header, lines)


def test_sealed_to_another_key(keys: dict[str, Identity], block: str) -> None:
    sealed = seal(block, [keys["moderator2"].public()])
    with pytest.raises(FormatError) as info:
        unseal(sealed, keys["moderator"], "mail.txt")
    assert "mail.txt, line 1: the sealed order block cannot be opened with the moderator's key" in (
        info.value.message
    )
    assert info.value.hint and "seal" in info.value.hint


def test_two_sealed_blocks(keys: dict[str, Identity], block: str) -> None:
    sealed = seal(block, [keys["moderator"].public()])
    with pytest.raises(FormatError, match=r"holds 2 sealed order blocks \(lines 1, [0-9]+\)"):
        unseal(sealed + "\n" + sealed, keys["moderator"], "mail.txt")


def test_plain_block_passes_unseal_unchanged(keys: dict[str, Identity], block: str) -> None:
    assert unseal(block, keys["moderator"], "mail.txt") == block


def test_draft_round_trip_and_errors(header: OrderHeader, lines: list[str]) -> None:
    text = "\n".join(["# my form", *header.lines(), "Seal-To: age1example", "", *lines]) + "\n"
    draft = parse_draft(text, "form.txt")
    assert draft.header == header
    assert draft.seal_to == "age1example"
    assert [line.text for line in draft.lines] == _orders(lines)
    for line in draft.lines:
        assert line.text in text.splitlines()[line.number - 1]
    with pytest.raises(FormatError, match="lacks the header"):
        parse_draft(text.replace("Seq:", "Sequence:"), "form.txt")
    with pytest.raises(FormatError, match="Turn must be a whole number"):
        parse_draft(text.replace(f"Turn: {header.turn}", "Turn: ²"), "form.txt")


def test_draft_refuses_signed_text(block: str, tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="already signed"):
        parse_draft(block, "signed.txt")


def test_signature_of_another_domain_does_not_pass(keys: dict[str, Identity], block: str) -> None:
    from pbem.keys import REPORT_DOMAIN, SAVE_DOMAIN

    parsed = parse(block)
    for domain in (SAVE_DOMAIN, REPORT_DOMAIN):
        signature = keys["alice"].sign(domain, parsed.signed_text.encode())
        wrong = base64.b64encode(signature).decode()
        head, _, _ = block.partition(SIGNATURE)
        spliced = f"{head}{SIGNATURE}\n{wrong[:64]}\n{wrong[64:]}\n{END}\n"
        with pytest.raises(SignatureError):
            parse(spliced).verify(keys["alice"].public())


def _mutations(block: str, rng: random.Random) -> str:
    lines = block.splitlines()
    i = rng.randrange(len(lines))
    kind = rng.randrange(6)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif kind == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3 and lines[i]:
        k = rng.randrange(len(lines[i]))
        lines[i] = lines[i][:k] + rng.choice("-> #:aZ9\t") + lines[i][k + 1 :]
    elif kind == 4:
        lines.insert(i, rng.choice(["- ", ">", "From x", "-X", "Seq: 7", BEGIN, END, SIGNATURE, "draw"]))
    else:
        lines[i] = "> " + lines[i]
    return "\n".join(lines) + "\n"


def test_random_edits_never_pass_as_other_orders(
    keys: dict[str, Identity], header: OrderHeader, lines: list[str], block: str
) -> None:
    """Whatever one edit does to a block, it is refused with a pbem error, or it still says
    exactly what alice signed."""
    rng = random.Random(1548)
    card = keys["alice"].public()
    original = parse(block)
    outcomes = {"refused": 0, "same": 0}
    for _ in range(600):
        text = _mutations(block, rng)
        try:
            parsed = parse(text, "fuzz.txt")
            parsed.verify(card)
        except (FormatError, SignatureError):
            outcomes["refused"] += 1
            continue
        assert parsed.header == original.header, text
        assert parsed.lines and [o.text for o in parsed.lines] == [o.text for o in original.lines], text
        outcomes["same"] += 1
    assert outcomes["refused"] > 100 and outcomes["same"] > 20, outcomes
