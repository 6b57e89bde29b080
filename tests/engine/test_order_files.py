"""Order files as they really travel: bounds on what is read, replies that quote a report,
blocks damaged by mail, Windows editors, and the player's commands (check, sign, read) with
the report each one needs found without extra typing."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.cli import main
from pbem.engine import GameFolder
from pbem.errors import FormatError, OrdersRejected, PbemError, ReplayError, SignatureError
from pbem.keys import Identity, PublicCard
from pbem.orders import (
    AGE_BEGIN,
    AGE_END,
    BEGIN,
    END,
    MAX_ORDERS,
    SIGNATURE,
    WIDTH,
    is_sealed,
    open_orders,
    parse,
    parse_draft,
    seal,
    sign,
    unseal,
)
from pbem.player import check_orders, order_form, read_report, readable_report, sign_form

from .conftest import PLAYERS, Table, new_table

FUZZ = int(os.environ.get("PBEM_FUZZ_EXAMPLES", "0"))


def snapshot(folder: GameFolder) -> dict[str, bytes]:
    """Every file of the game folder and its bytes."""
    return {str(p.relative_to(folder.path)): p.read_bytes() for p in folder.path.rglob("*") if p.is_file()}


def quote(text: str) -> str:
    return "".join(f"> {line}\n" if line else ">\n" for line in text.splitlines())


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if needle in line)


def refused(table: Table, text: str, error: type[PbemError], *words: str, source: str = "o.txt") -> str:
    """Submit ``text``; it must be refused with ``error`` naming ``words``, changing nothing."""
    before = snapshot(table.folder)
    with pytest.raises(error) as info:
        table.submit(text, source)
    assert snapshot(table.folder) == before
    for word in words:
        assert word in info.value.message, info.value.message
    return info.value.message


def with_header(block: str, name: str, value: str) -> str:
    return re.sub(rf"^{name}: .*$", f"{name}: {value}", block, count=1, flags=re.MULTILINE)


# ---- issue 8: bounds ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["Turn", "Seq"])
def test_a_5000_digit_number_is_a_clear_error_everywhere(table: Table, name: str) -> None:
    block = with_header(table.signed("alice"), name, "7" * 5000)
    message = refused(
        table, block, FormatError, f"o.txt, line {line_of(block, name + ':')}", "at most 9 digits"
    )
    assert "(5,000 characters)" in message and len(message) < 200
    refused(table, table.sealed(block), FormatError, "at most 9 digits")
    unsigned = block.split(SIGNATURE)[0] + END + "\n"
    refused(table, unsigned, FormatError, "not signed")
    form = "\n".join(["Game: 0123456789ABCDEF", "Turn: 1", "Player: alice", "Seq: 1", "draw"])
    with pytest.raises(FormatError, match="at most 9 digits"):
        parse_draft(with_header(form, name, "9" * 5000), "form.txt")


def test_header_values_have_their_shape(table: Table) -> None:
    block = table.signed("alice")
    for name, value, words in [
        ("Seq", str(2**60), "at most 9 digits"),
        ("Turn", "٣", "whole number"),
        ("Game", "NOT-A-GAME", "16 hexadecimal digits"),
        ("Game", "0" * 5000, "16 hexadecimal digits"),
        ("Player", "../../etc/passwd", "player name"),
        ("Player", "x" * 40, "player name"),
    ]:
        message = refused(table, with_header(block, name, value), FormatError, words)
        assert len(message) < 250
    assert not table.folder.orders_dir(1).exists(), "a refused file left something in orders/"


def test_a_10_megabyte_block_is_refused_at_once_by_size(table: Table) -> None:
    """Before: 3.0 s (10 MB of repeated orders) to 6.2 s (10 MB of junk lines) to refuse one."""
    block = table.signed("alice")
    filler = "take   # " + "x" * 40 + "\n"
    huge = block.replace(SIGNATURE, filler * (10_000_000 // len(filler)) + SIGNATURE)
    assert len(huge) > 10_000_000
    started = time.perf_counter()
    refused(table, huge, FormatError, "10,000,", "at most 1,000,000")
    assert time.perf_counter() - started < 0.5


def test_lines_and_orders_are_bounded(table: Table, keys: dict[str, Identity]) -> None:
    block = table.signed("alice")
    long_line = block.replace(SIGNATURE, "draw # " + "y" * 2000 + "\n" + SIGNATURE)
    refused(table, long_line, FormatError, f"line {line_of(long_line, 'yyyy')}: 2,007 characters")
    header = table.header("alice")
    many = "\n".join([BEGIN, *header.lines(), *["draw"] * (MAX_ORDERS + 1), SIGNATURE, "AAAA", END])
    refused(table, many, FormatError, f"more than {MAX_ORDERS} orders")
    with pytest.raises(FormatError, match=f"more than {MAX_ORDERS} orders"):
        sign(keys["alice"], header, ["draw"] * (MAX_ORDERS + 1))
    form = "\n".join([*header.lines(), "draw # " + "z" * 1500])
    with pytest.raises(FormatError, match="line 5: 1,507 characters"):
        parse_draft(form, "form.txt")


# ---- issue 8: what is filed in clear -------------------------------------------------------------
def test_a_clear_block_that_mentions_age_armour_is_filed_sealed(table: Table) -> None:
    lines = table.full_turn("alice")
    block = table.signed("alice", [f"{lines[0]}  # {AGE_BEGIN}", *lines[1:]])
    text = f"{block}\n{AGE_BEGIN}\nnot really\n{AGE_END}\n"
    assert not is_sealed(text)
    table.submit(text)
    archived = (table.folder.orders_dir(1) / "alice.seq1.txt").read_text()
    assert is_sealed(archived)
    assert lines[-1] not in archived and "alice" not in archived
    assert parse(unseal(archived, table.moderator, "archive")).digest == parse(text).digest


def test_is_sealed_says_what_may_be_filed_as_it_is(table: Table) -> None:
    sealed = table.sealed(table.signed("alice"))
    assert is_sealed(sealed) and is_sealed("\n\n" + sealed + "\n\n")
    body = sealed.splitlines()[1:-1]
    joined = "".join(body)
    rewrapped = "\n".join([AGE_BEGIN, *(joined[i : i + 50] for i in range(0, len(joined), 50)), AGE_END])
    for not_filed_as_is in (quote(sealed), "Hi!\n" + sealed, table.signed("alice"), rewrapped, ""):
        assert not is_sealed(not_filed_as_is)


# ---- issue 8: replies to a report --------------------------------------------------------------
def _replies(table: Table, name: str) -> dict[str, str]:
    report, _ = table.report_text(name)
    block = table.signed(name, table.full_turn(name))
    sealed = table.sealed(block)
    said = "On Monday, the moderator wrote:\n"
    return {
        "clear-above-quoted-report": f"My orders:\n\n{block}\n{said}{quote(report)}",
        "clear-below-quoted-report": f"{said}{quote(report)}\n\nand my orders:\n{block}",
        "sealed-above-quoted-report": f"{sealed}\n{said}{quote(report)}",
        "sealed-below-quoted-report": f"{said}{quote(report)}\n{sealed}",
        "sealed-above-report": f"{sealed}\n-----Original Message-----\n{report}",
        "clear-above-report": f"{block}\n-----Original Message-----\n{report}",
    }


@pytest.mark.parametrize(
    "form",
    [
        "clear-above-quoted-report",
        "clear-below-quoted-report",
        "sealed-above-quoted-report",
        "sealed-below-quoted-report",
        "sealed-above-report",
        "clear-above-report",
    ],
)
def test_a_reply_to_a_report_with_the_orders_in_it(table: Table, form: str) -> None:
    text = _replies(table, "alice")[form]
    assert AGE_BEGIN in text and "PBEM REPORT DATA" in text
    receipt = table.submit(text, "reply.eml")
    assert receipt.player == "alice" and receipt.seq == 1
    archived = (table.folder.orders_dir(1) / "alice.seq1.txt").read_text()
    assert parse(unseal(archived, table.moderator, "archive")).header.player == "alice"
    if form.startswith("clear"):
        report_text, report_source = table.report_text("alice")
        assert check_orders(text, "reply.eml", report_text, report_source, table.keys["alice"]) > 0


def test_two_sealed_order_blocks_beside_a_quoted_report_are_refused(table: Table) -> None:
    report, _ = table.report_text("alice")
    sealed = table.sealed(table.signed("alice"))
    text = f"{sealed}\n{sealed}\n{quote(report)}"
    refused(table, text, FormatError, "holds 2 sealed order blocks", "lines 1, ")


# ---- issue 8: fuzzing every entry point ------------------------------------------------------------
@pytest.fixture(scope="module")
def fuzz_table(tmp_path_factory: pytest.TempPathFactory, keys: dict[str, Identity]) -> Table:
    return new_table(tmp_path_factory.mktemp("order-fuzz"), keys, "fuzz")


def _pieces(table: Table) -> list[str]:
    block = table.signed("bob", ["draw"])  # bob owes nothing: even a whole valid block changes nothing
    sealed = table.sealed(block)
    report, _ = table.report_text("alice")
    return [
        BEGIN, SIGNATURE, END, AGE_BEGIN, AGE_END, "Game: ", "Turn: ", "Player: ", "Seq: ", "Seal-To: ",
        "\ufeff", "> ", "- ", "#", "\r\n", "\n", "\u00a0", "draw", "take", "discard 7H", "7" * 50,
        "=3D", "\x00", "é", block, sealed, *block.splitlines(), *sealed.splitlines()[:3], report[:400],
    ]  # fmt: skip


@settings(
    max_examples=FUZZ or 40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_order_files_get_pbem_errors_and_change_nothing(
    fuzz_table: Table, data: st.DataObject
) -> None:
    table = fuzz_table
    pieces = _pieces(table)
    text = "".join(
        data.draw(st.lists(st.one_of(st.sampled_from(pieces), st.text(max_size=30)), max_size=30), "parts")
    )
    report_text, report_source = table.report_text("alice")
    calls = [
        lambda: parse(text, "f.txt"),
        lambda: parse_draft(text, "f.txt"),
        lambda: unseal(text, table.moderator, "f.txt"),
        lambda: open_orders(text, table.moderator, "f.txt"),
        lambda: check_orders(text, "f.txt", report_text, report_source, table.keys["alice"]),
        lambda: is_sealed(text),
    ]
    for call in calls:
        try:
            call()
        except PbemError as exc:
            assert exc.message and "Traceback" not in exc.message
    before = snapshot(table.folder)
    with pytest.raises(PbemError):
        table.submit(text, "f.txt")
    assert snapshot(table.folder) == before


# ---- issue 9: damage is told as damage --------------------------------------------------------------
def _body(sealed: str) -> list[str]:
    return sealed.strip().splitlines()[1:-1]


def test_a_sealed_block_rewrapped_by_mail_is_repaired_and_accepted(table: Table) -> None:
    sealed = table.sealed(table.signed("alice", table.full_turn("alice")))
    joined = "".join(_body(sealed))
    at50 = "\n".join([AGE_BEGIN, *(joined[i : i + 50] for i in range(0, len(joined), 50)), AGE_END]) + "\n"
    assert table.submit(quote(at50)).player == "alice"


def test_damaged_sealed_blocks_are_diagnosed(table: Table, keys: dict[str, Identity]) -> None:
    sealed = table.sealed(table.signed("alice"))
    body = _body(sealed)

    def damaged(index: int, change: str) -> str:
        lines = list(body)
        lines[index] = lines[index][:10] + change + lines[index][10 + len(change) :]
        return "\n".join([AGE_BEGIN, *lines, AGE_END]) + "\n"

    transit = "the block was changed in transit: damaged characters"
    refused(table, damaged(2, "é"), FormatError, transit, "line 4 holds 'é'")
    refused(table, damaged(1, "=3D"), FormatError, transit, "'=' inside the data")
    refused(
        table,
        damaged(len(body) - 1, "AAAA" if "AAAA" not in body[-1][10:14] else "BBBB"),
        FormatError,
        transit,
    )
    refused(table, damaged(0, "AAAA"), FormatError, "changed in transit")  # the age header itself
    cut = "\n".join([AGE_BEGIN, *body[:-2]]) + "\n"
    refused(table, cut, FormatError, "changed in transit", "cut off")
    lost = "\n".join([AGE_BEGIN, *body[:2], *body[3:], AGE_END]) + "\n"
    refused(table, lost, FormatError, "changed in transit")
    elsewhere = seal(table.signed("alice"), [keys["moderator2"].public()])
    message = refused(table, elsewhere, FormatError, "sealed to another key")
    assert "transit" in message  # the facts cannot tell a wrong key from a changed key line: both said


def test_damaged_clear_blocks_are_diagnosed(table: Table, keys: dict[str, Identity]) -> None:
    block = table.signed("alice", ["draw", "# " + "a long comment, " * 4])
    rewrapped = (
        "\n".join(part for line in block.splitlines() for part in (line[:50], line[50:]) if part) + "\n"
    )
    refused(table, rewrapped, SignatureError, "changed in transit: re-wrapped lines", "lines of 50")
    comment = "# " + " ".join(["word"] * 12)
    two = table.signed("alice", ["draw", comment])
    cut = comment.rindex(" ", 0, 31)
    split = two.replace(comment, comment[:cut] + "\n" + comment[cut + 1 :])
    at = line_of(split, comment[:cut])
    refused(
        table, split, SignatureError, "re-wrapped lines", f"lines {at} and {at + 1} were one line when signed"
    )
    by_bob = table.signed("alice", signer="bob")
    refused(table, by_bob, SignatureError, "say Player: alice but were signed with bob's key")
    edited = two.replace("draw", "take")
    refused(table, edited, SignatureError, "changed after signing, or signed with another key")


# ---- issue 9: line numbers point into the player's file ------------------------------------------------
def test_rejections_name_lines_of_the_file_that_was_sent(table: Table) -> None:
    report, _ = table.report_text("alice")
    block = table.signed("alice", ["bogus 1", "draw"])
    reply = f"Hello,\n\nhere you are:\n\n{quote(block)}\n-- \nalice\n\n{quote(report)}"
    refused(
        table,
        reply,
        OrdersRejected,
        f"reply.txt, line {line_of(reply, 'bogus 1')}: invalid order",
        source="reply.txt",
    )
    in_block = line_of(block, "bogus 1")
    refused(
        table, table.sealed(block), OrdersRejected, f"s.txt, sealed block, line {in_block}:", source="s.txt"
    )


# ---- issue 9: the player's commands --------------------------------------------------------------
class Player:
    """Key files on disk and the CLI, with a local home of their own."""

    def __init__(self, root: Path, table: Table, name: str) -> None:
        self.root, self.table, self.name = root, table, name
        self.home = root / f"{name}-home"
        root.mkdir(parents=True, exist_ok=True)
        self.key = root / f"{name}.key"
        if not self.key.exists():
            table.keys[name].save(self.key)

    def run(self, *args: str) -> Result:
        return CliRunner().invoke(main, list(args), env={"PBEM_HOME": str(self.home)})

    @property
    def report(self) -> str:
        save = self.table.folder.read()
        return str(self.table.folder.reports_dir(save.turn) / f"{self.name}.txt")

    def form(self, lines: list[str], path: str = "form.txt") -> Path:
        result = self.run("orders", self.report, "--key", str(self.key))
        assert result.exit_code == 0, result.output
        kept = [
            line for line in result.stdout.splitlines() if line.startswith("#") or ":" in line or not line
        ]
        target = self.root / path
        target.write_text("\n".join([*kept, *lines]) + "\n", encoding="utf-8")
        return target


def done(result: Result, code: int = 0) -> Result:
    assert result.exit_code == code, f"exit {result.exit_code}, wanted {code}:\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def test_sign_checks_exactly_as_check_does_and_refuses(table: Table, tmp_path: Path) -> None:
    alice = Player(tmp_path, table, "alice")
    form = alice.form(["bogus 1", *table.full_turn("alice")])
    where = f"{form}, line {line_of(form.read_text(), 'bogus 1')}: invalid order 'bogus 1'"
    assert where in done(alice.run("check", str(form), "--key", str(alice.key)), 1).output
    out = tmp_path / "signed.txt"
    assert where in done(alice.run("sign", str(form), "--key", str(alice.key), "-o", str(out)), 1).output
    assert not out.exists()
    form = alice.form(table.full_turn("alice"))
    result = done(alice.run("sign", str(form), "--key", str(alice.key), "-o", str(out)))
    assert "all accepted" in result.output and "sealed to the moderator (moderator)" in result.output
    assert is_sealed(out.read_text())
    assert table.submit(out.read_text()).player == "alice"


def test_sign_and_check_find_the_report_or_say_how(table: Table, tmp_path: Path) -> None:
    alice = Player(tmp_path, table, "alice")
    form = alice.form(table.full_turn("alice"))
    stranger = Player(tmp_path / "elsewhere", table, "alice")
    for command in ("check", "sign"):
        message = done(stranger.run(command, str(form), "--key", str(stranger.key)), 2).output
        assert "no report of game" in message and "--report REPORT" in message
    result = done(stranger.run("sign", str(form), "--key", str(stranger.key), "--report", alice.report))
    assert result.stdout.startswith(AGE_BEGIN)
    no_seal_to = tmp_path / "no-seal-to.txt"
    no_seal_to.write_text(
        "".join(line + "\n" for line in form.read_text().splitlines() if "Seal-To" not in line)
    )
    message = done(stranger.run("sign", str(no_seal_to), "--key", str(stranger.key), "--no-check"), 2).output
    assert "no Seal-To line" in message and "--no-seal" in message
    result = done(alice.run("sign", str(no_seal_to), "--key", str(alice.key)))  # sealed from the report
    assert result.stdout.startswith(AGE_BEGIN)
    result = done(stranger.run("sign", str(form), "--key", str(stranger.key), "--no-check"))
    assert "NOT checked" in result.output and result.stdout.startswith(AGE_BEGIN)
    result = done(alice.run("sign", str(form), "--key", str(alice.key), "--no-seal"))
    assert "NOT sealed" in result.output and result.stdout.startswith(BEGIN)


def test_sign_refuses_a_seal_to_line_of_another_moderator(
    table: Table, tmp_path: Path, keys: dict[str, Identity]
) -> None:
    alice = Player(tmp_path, table, "alice")
    form = alice.form(table.full_turn("alice"))
    other = keys["moderator2"].public().age_recipient
    form.write_text(re.sub(r"^Seal-To: .*$", f"Seal-To: {other}", form.read_text(), flags=re.MULTILINE))
    assert "delete the Seal-To line" in done(alice.run("sign", str(form), "--key", str(alice.key)), 1).output


def test_a_form_for_an_old_turn_is_not_signed(table: Table, tmp_path: Path) -> None:
    alice = Player(tmp_path, table, "alice")
    form = alice.form(table.full_turn("alice"))
    table.play_step()
    done(alice.run("read", alice.report, "--key", str(alice.key)))  # the report of turn 2
    message = done(alice.run("sign", str(form), "--key", str(alice.key)), 1).output
    assert "these orders are for turn 1, but you have already read the report of turn 2" in message
    with pytest.raises(ReplayError):
        sign_form(form.read_text(), "form.txt", table.keys["alice"], home=alice.home)


def test_long_comments_are_wrapped_and_long_orders_refused(table: Table, tmp_path: Path) -> None:
    alice = Player(tmp_path, table, "alice")
    orders = table.full_turn("alice")
    comment = "# " + "a very long comment about my cunning plan " * 4
    form = alice.form([f"{orders[0]}   {comment}", *orders[1:]])
    result = done(alice.run("sign", str(form), "--key", str(alice.key), "--no-seal"))
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= WIDTH
    signed = parse(result.stdout)
    signed.verify(table.keys["alice"].public())
    assert [o.text for o in signed.lines] == orders
    assert "cunning plan" in signed.signed_text
    form = alice.form([*orders[:-1], orders[-1] + " " + "x" * 80])
    message = done(alice.run("sign", str(form), "--key", str(alice.key)), 1).output
    assert f"line {line_of(form.read_text(), 'xxxx')}" in message and "at most 71 characters" in message
    form_text = done(alice.run("orders", alice.report, "--key", str(alice.key))).stdout
    assert max(len(line) for line in form_text.splitlines()) <= WIDTH


def test_a_byte_order_mark_is_accepted_everywhere(table: Table, tmp_path: Path) -> None:
    bom = "\ufeff"
    alice = Player(tmp_path, table, "alice")
    form = alice.form(table.full_turn("alice"))
    form.write_text(bom + form.read_text(), encoding="utf-8")
    done(alice.run("check", str(form), "--key", str(alice.key)))
    signed = done(alice.run("sign", str(form), "--key", str(alice.key), "--no-seal")).stdout
    parse(bom + signed).verify(table.keys["alice"].public())
    with_bom = tmp_path / "report.txt"
    report_text, _ = table.report_text("alice")
    with_bom.write_text(bom + report_text, encoding="utf-8")
    assert "Private to alice" in done(alice.run("read", str(with_bom), "--key", str(alice.key))).output
    card = table.keys["alice"].public()
    assert PublicCard.from_text(bom + card.to_text()) == card
    key_file = tmp_path / "bom.key"
    key_file.write_text(bom + table.keys["alice"].to_text(), encoding="utf-8")
    key_file.chmod(0o600)
    assert Identity.load(key_file).public() == card
    assert table.submit(table.sealed(bom + signed)).player == "alice"


def test_read_shows_the_report_once(table: Table, tmp_path: Path) -> None:
    alice = Player(tmp_path, table, "alice")
    shown = done(alice.run("read", alice.report, "--key", str(alice.key))).stdout
    report = table.report("alice")
    assert report.private_text is not None
    assert report.private_text.strip().splitlines()[-1] in shown
    for hidden in (AGE_BEGIN, "PBEM REPORT DATA", "PBEM SIGNATURE", "pbem read THIS-FILE", "age -d"):
        assert hidden not in shown
    assert shown.count("PBEM REPORT for alice") == 1
    assert readable_report(report) == shown


def test_the_age_command_printed_in_a_report_works_as_typed(table: Table, tmp_path: Path) -> None:
    """The lines a report prints run verbatim in bash with the real age tool, on the report as
    saved, as quoted in a reply and with CRLF ends, and never write the identity to disk."""
    if shutil.which("age") is None or shutil.which("bash") is None:
        pytest.skip("the age command-line tool (Debian package age) or bash is not installed")
    if shutil.which("pbem") is None:
        pytest.skip("the pbem script is not on PATH (pip install -e .)")
    report_text, _ = table.report_text("alice")
    lines = report_text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("or with the age tool"))
    command = "\n".join(lines[at + 1 : at + 3]) + "\n"
    assert "THIS-FILE" in command and "YOUR.key" in command and max(map(len, lines[at : at + 3])) <= WIDTH
    table.keys["alice"].save(tmp_path / "YOUR.key")
    env = {**os.environ, "PBEM_HOME": str(tmp_path / "home")}
    private = read_report(report_text, "r", table.keys["alice"], home=tmp_path / "home").private_text
    assert private is not None
    for variant in (report_text, quote(report_text), report_text.replace("\n", "\r\n")):
        (tmp_path / "THIS-FILE").write_text(variant, encoding="utf-8", newline="")
        run = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        assert private.strip() in run.stdout
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["THIS-FILE", "YOUR.key"]


def test_order_form_names_commands_that_work_without_a_report_path(table: Table) -> None:
    report_text, source = table.report_text("alice")
    form = order_form(report_text, source, table.keys["alice"])
    assert "pbem check THIS-FILE --key alice.key\n" in form
    assert "--report" not in form
    assert all(name in PLAYERS for name in ("alice",))
