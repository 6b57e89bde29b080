"""Finding order blocks in mails: bodies, attachments, quoting, HTML-only, duplicates."""

from __future__ import annotations

from email.message import EmailMessage

from pbem.mail.extract import (
    AGE_BEGIN,
    AGE_END,
    ORDERS_BEGIN,
    ORDERS_END,
    extract,
    extract_raw,
    find_blocks,
    html_to_text,
)

BLOCK = f"{ORDERS_BEGIN}\nGame: g1\nTurn: 3\nPlayer: alice\nSeq: 4\n\ndraw\ndiscard 7H\n{ORDERS_END}\n"


def _mail(body: str | None = None, html: str | None = None, attachments: tuple = ()) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "someone@example.org"
    msg["To"] = "judge@example.org"
    msg["Subject"] = "orders"
    msg["Message-ID"] = "<m1@example.org>"
    if body is not None:
        msg.set_content(body)
        if html is not None:
            msg.add_alternative(html, subtype="html")
    elif html is not None:
        msg.set_content(html, subtype="html")
    for name, data in attachments:
        if isinstance(data, bytes):
            msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
        else:
            msg.add_attachment(data, filename=name)
    return msg


def test_block_in_body_with_text_around_it() -> None:
    got = extract(_mail(f"Hi judge,\nhere they are:\n\n{BLOCK}\ncheers\n"))
    assert [c.data for c in got.candidates] == [BLOCK]
    assert got.candidates[0].source == "mail body" and not got.candidates[0].quoted
    assert got.problem() is None and got.message_id == "<m1@example.org>"


def test_quoted_block_has_its_quoting_removed() -> None:
    quoted = "".join(f"> {line}\n" if line else ">\n" for line in BLOCK.splitlines())
    got = extract(_mail(f"On Monday you wrote:\n{quoted}"))
    assert [c.data for c in got.candidates] == [BLOCK]
    assert got.candidates[0].quoted


def test_doubly_quoted_block() -> None:
    quoted = "".join(f"> > {line}\n" for line in BLOCK.splitlines())
    [cand] = find_blocks(quoted, "x")
    assert cand.data == BLOCK


def test_unquoted_block_wins_over_the_quoted_one_it_replies_to() -> None:
    old = BLOCK.replace("Seq: 4", "Seq: 3")
    quoted = "".join(f"> {line}\n" for line in old.splitlines())
    got = extract(_mail(f"{BLOCK}\nOn Monday the judge wrote:\n{quoted}"))
    assert [c.data for c in got.candidates] == [BLOCK]


def test_attachment_and_body_with_the_same_block_count_once() -> None:
    got = extract(_mail(BLOCK, attachments=(("orders.txt", BLOCK),)))
    assert len(got.candidates) == 1


def test_age_armour_and_binary_age_attachments() -> None:
    armoured = f"{AGE_BEGIN}\nYWdlLWVuY3J5cHRpb24ub3JnL3YxCg==\n{AGE_END}\n"
    binary = b"age-encryption.org/v1\n-> X25519 abc\nxyz\n--- mac\n\x00\x01"
    got = extract(_mail("see attached", attachments=(("o.age", armoured), ("o.bin", binary))))
    kinds = sorted((c.kind, type(c.data).__name__) for c in got.candidates)
    assert kinds == [("age", "bytes"), ("age", "str")]


def test_html_only_mail_is_converted_and_searched() -> None:
    markup = "<html><body><p>Orders:</p><p>" + "<br>".join(BLOCK.splitlines()) + "</p></body></html>"
    got = extract(_mail(html=markup))
    assert got.html_only
    assert [c.data for c in got.candidates] == [BLOCK]
    assert got.candidates[0].source == "HTML mail body"


def test_html_only_mail_without_a_block_asks_for_plain_text() -> None:
    got = extract(_mail(html="<p>my orders: draw, discard 7H</p>"))
    assert got.candidates == ()
    problem = got.problem()
    assert problem is not None and "plain text" in problem and ORDERS_BEGIN in problem


def test_plain_mail_without_block_explains_what_to_send() -> None:
    problem = extract(_mail("draw\ndiscard 7H\n")).problem()
    assert problem is not None and "no order block" in problem


def test_unterminated_block_is_not_a_candidate() -> None:
    assert find_blocks(BLOCK.replace(ORDERS_END, ""), "x") == []


def test_crlf_and_trailing_spaces() -> None:
    raw = ("From: a@b\r\nSubject: s\r\n\r\n" + BLOCK.replace("\n", "  \r\n")).encode()
    [cand] = extract_raw(raw).candidates
    assert cand.data == BLOCK


def test_html_entities_and_nbsp() -> None:
    assert html_to_text("<p>a&amp;b&nbsp;c</p><script>x</script>").strip() == "a&b c"
