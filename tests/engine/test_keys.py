"""Identities, public key cards, domain-separated signatures and age interop."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from pbem.errors import FormatError, KeyFileError, SignatureError
from pbem.keys import (
    GAME_DOMAIN,
    KEY_DOMAIN,
    ORDERS_DOMAIN,
    REPORT_DOMAIN,
    SAVE_DOMAIN,
    Identity,
    PublicCard,
)
from pbem.orders import AGE_BEGIN, AGE_END
from pbem.reports import PRIVATE_BEGIN, parse_report

from .conftest import Table

DOMAINS = (KEY_DOMAIN, ORDERS_DOMAIN, SAVE_DOMAIN, REPORT_DOMAIN, GAME_DOMAIN)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_keygen_writes_private_identity_and_loadable_card(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pbem.cli import main

    result = CliRunner().invoke(main, ["keygen", "alice", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    key, pub = tmp_path / "alice.key", tmp_path / "alice.pub"
    assert _mode(key) == 0o600
    identity = Identity.load(key)
    card = PublicCard.load(pub)
    assert card.name == identity.name == "alice"
    assert card.verify_key == identity.public().verify_key
    assert card.age_recipient == identity.public().age_recipient
    assert "SECRET" in key.read_text()
    assert identity.age_identity_line() not in pub.read_text()
    assert card.to_text() in result.output


def test_identity_save_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "bob.key"
    Identity.generate("bob").save(path)
    before = path.read_bytes()
    with pytest.raises(KeyFileError, match="already exists"):
        Identity.generate("bob").save(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604])
def test_loose_identity_is_refused_with_chmod_hint(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "carol.key"
    Identity.generate("carol").save(path)
    os.chmod(path, mode)
    with pytest.raises(KeyFileError) as info:
        Identity.load(path)
    assert f"{mode:o}" in info.value.message
    assert info.value.hint is not None and f"chmod 600 {path}" in info.value.hint
    os.chmod(path, 0o600)
    assert Identity.load(path).name == "carol"


def test_public_card_passed_as_identity_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "dave.pub"
    path.write_text(Identity.generate("dave").public().to_text())
    os.chmod(path, 0o644)  # as keygen writes it: the advice must not be "chmod 600"
    with pytest.raises(KeyFileError, match="public key card, not an identity"):
        Identity.load(path)


def test_identity_round_trip_keeps_both_keys(tmp_path: Path) -> None:
    original = Identity.generate("erin")
    path = tmp_path / "erin.key"
    original.save(path)
    loaded = Identity.load(path)
    assert loaded.public() == original.public()
    assert loaded.age_identity_line() == original.age_identity_line()
    signature = loaded.sign(ORDERS_DOMAIN, b"data")
    original.public().verify(ORDERS_DOMAIN, b"data", signature)


def _replace_field(text: str, field: str, value: str) -> str:
    lines = text.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith(f"{field}:"))
    lines[index] = f"{field}: {value}"
    return "\n".join(lines) + "\n"


def test_card_survives_mail_quoting_and_surrounding_text() -> None:
    card = Identity.generate("frank").public()
    quoted = "Hi, here is my key:\n\n" + "".join(f"> {line}\r\n" for line in card.to_text().splitlines())
    assert PublicCard.from_text(quoted + "\nthanks\n") == card


@pytest.mark.parametrize("field", ["Name", "Age", "Sign"])
def test_edited_card_fails_its_self_signature(field: str) -> None:
    card = Identity.generate("grace").public()
    other = Identity.generate("heidi").public()
    other_text = other.to_text()
    value = next(line.split(":", 1)[1].strip() for line in other_text.splitlines() if line.startswith(field))
    edited = _replace_field(card.to_text(), field, value)
    assert edited != card.to_text()
    with pytest.raises(SignatureError, match="not self-signed correctly") as info:
        PublicCard.from_text(edited, "grace.pub")
    assert "grace" in info.value.message or "heidi" in info.value.message


def test_card_with_malformed_fields_is_a_format_error() -> None:
    text = Identity.generate("ivan").public().to_text()
    with pytest.raises(FormatError, match="not an age recipient"):
        PublicCard.from_text(_replace_field(text, "Age", "ssh-ed25519 AAAA"), "ivan.pub")
    with pytest.raises(FormatError, match="bad base64"):
        PublicCard.from_text(_replace_field(text, "Sign", "not*base64"), "ivan.pub")
    with pytest.raises(KeyFileError, match="no public key card"):
        PublicCard.from_text("just some mail text", "mail.txt")


def test_signature_of_one_domain_never_verifies_under_another(keys: dict[str, Identity]) -> None:
    identity = keys["alice"]
    card = identity.public()
    data = b"Game: 0123\nTurn: 1\n"
    for signed_as in DOMAINS:
        signature = identity.sign(signed_as, data)
        card.verify(signed_as, data, signature)
        for checked_as in DOMAINS:
            if checked_as == signed_as:
                continue
            with pytest.raises(SignatureError, match=card.key_id):
                card.verify(checked_as, data, signature)


def test_signature_of_another_key_or_data_does_not_verify(keys: dict[str, Identity]) -> None:
    signature = keys["alice"].sign(ORDERS_DOMAIN, b"pair 3H 7H\n")
    with pytest.raises(SignatureError):
        keys["bob"].public().verify(ORDERS_DOMAIN, b"pair 3H 7H\n", signature)
    with pytest.raises(SignatureError):
        keys["alice"].public().verify(ORDERS_DOMAIN, b"pair 3H 7S\n", signature)


def test_decrypt_with_wrong_identity_is_a_clear_error(keys: dict[str, Identity]) -> None:
    from pbem.keys import encrypt

    block = encrypt(b"secret hand", [keys["alice"].public()])
    opened = keys["alice"].decrypt(block)  # padded with white space (pbem.padding)
    assert opened.rstrip() == b"secret hand" and len(opened) == 1024
    with pytest.raises(FormatError, match="cannot decrypt with bob's key"):
        keys["bob"].decrypt(block)


def test_standard_age_tool_opens_a_report_private_block(table: Table, tmp_path: Path) -> None:
    age = shutil.which("age")
    if age is None:
        pytest.skip("the standard `age` tool is not installed (Debian package `age`)")
    from click.testing import CliRunner

    from pbem.cli import main

    key_path = tmp_path / "alice.key"
    table.keys["alice"].save(key_path)
    result = CliRunner().invoke(main, ["key", "age-identity", str(key_path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("AGE-SECRET-KEY-1")
    id_file = tmp_path / "id.txt"
    id_file.write_text(result.output)
    os.chmod(id_file, 0o600)

    text, source = table.report_text("alice")
    lines = text.splitlines()
    start, end = lines.index(AGE_BEGIN), lines.index(AGE_END)
    block = "\n".join(lines[start : end + 1]) + "\n"
    done = subprocess.run(
        [age, "-d", "-i", str(id_file)], input=block.encode(), capture_output=True, timeout=30, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    plain = done.stdout.decode()
    report = parse_report(text, source, table.keys["alice"])
    assert report.private_text is not None
    assert plain.startswith(report.private_text.rstrip())
    assert PRIVATE_BEGIN in plain
    for card in report.private["hand"]:
        assert card in plain
    # The key of another player does not open it.
    other = tmp_path / "bob.txt"
    other.write_text(table.keys["bob"].age_identity_line() + "\n")
    denied = subprocess.run(
        [age, "-d", "-i", str(other)], input=block.encode(), capture_output=True, timeout=30, check=False
    )
    assert denied.returncode != 0
