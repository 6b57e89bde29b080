"""Why the signature of an order block does not verify, told from facts that can be checked:
another player's key made it, the signature lines or two order lines were re-wrapped, the
mail program put typographic quotes, dashes or invisible characters for what was typed, or
accented letters were garbled on the way.  Each fact is established by verifying the
signature once more with the damage undone; when none is, the message says the orders were
changed after signing or signed with another key (see :mod:`pbem.transit` for the armour)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from pbem.errors import SignatureError
from pbem.keys import ORDERS_DOMAIN, PublicCard
from pbem.orders import WIDTH, SignedOrders, _normalize
from pbem.transit import CLIENT_CHARACTERS, CLIENT_TABLE, WHAT_TO_DO, Damage, long_line, signature_damage

_REPLACED = "characters replaced by the mail program"


def _joined_verifies(signed: SignedOrders, card: PublicCard) -> int | None:
    """The line number after which joining two lines makes the signature verify (a fact:
    those two lines were one when signed), else None.  Tries at most 200 joins."""
    body = signed.body
    for k in range(min(len(body) - 1, 200)):
        texts = [t for _, t in body]
        texts[k : k + 2] = [f"{texts[k]} {texts[k + 1]}"]
        try:
            card.verify(ORDERS_DOMAIN, ("\n".join(texts) + "\n").encode(), signed.signature)
        except SignatureError:
            continue
        return k
    return None


def _client_characters(signed: SignedOrders, card: PublicCard) -> Damage | None:
    """Evidence that the mail program replaced characters: the lines that hold typographic
    quotes, dashes or invisible characters, when the signature verifies with what was
    typed in their place; else None.  One verification."""
    body = signed.body
    changed = [(n, t) for n, t in body if t.translate(CLIENT_TABLE) != t]
    if not changed:
        return None
    texts = [unicodedata.normalize("NFC", t.translate(CLIENT_TABLE)).strip() for _, t in body]
    try:
        card.verify(ORDERS_DOMAIN, ("\n".join(t for t in texts if t) + "\n").encode(), signed.signature)
    except SignatureError:
        return None
    facts = []
    for number, text in changed[:3]:
        chars = sorted({c for c in text if c in CLIENT_CHARACTERS})
        shown_chars = ", ".join(
            f"{c!r} for {CLIENT_CHARACTERS[c]!r}" if CLIENT_CHARACTERS[c] else f"an invisible U+{ord(c):04X}"
            for c in chars
        )
        facts.append(f"line {number}: {shown_chars}")
    more = f"; and {len(changed) - 3} more line(s)" if len(changed) > 3 else ""
    return Damage(_REPLACED, "; ".join(facts) + more)


def _ungarbled(text: str) -> str:
    """``text`` with UTF-8 that was read as Windows-1252 (or Latin-1) read back; else as it is."""
    for codec in ("cp1252", "latin-1"):
        try:
            return text.encode(codec).decode("utf-8")
        except UnicodeError:
            continue
    return text


def _garbled(signed: SignedOrders, card: PublicCard) -> Damage | None:
    """Evidence that accented letters were garbled on the way (UTF-8 read as Windows-1252
    by a gateway or a client, "é" become "Ã©"): the lines where, read back, the signature
    verifies; else None.  One verification."""
    texts = [t if t.isascii() else _ungarbled(t) for _, t in signed.body]
    changed = [(n, t, fixed) for (n, t), fixed in zip(signed.body, texts, strict=True) if fixed != t]
    if not changed:
        return None
    normal = [_normalize(t) for t in texts]
    try:
        card.verify(ORDERS_DOMAIN, ("\n".join(t for t in normal if t) + "\n").encode(), signed.signature)
    except SignatureError:
        return None
    facts = []
    for number, text, _ in changed[:3]:
        word = next(w for w in text.split() if not w.isascii())
        facts.append(f"line {number}: {word!r} for {_ungarbled(word)!r}")
    more = f"; and {len(changed) - 3} more line(s)" if len(changed) > 3 else ""
    return Damage("accented letters garbled on the way (UTF-8 read as Windows-1252)", "; ".join(facts) + more)


def signature_failure(
    signed: SignedOrders, card: PublicCard, others: Sequence[PublicCard] = (), source: str | None = None
) -> SignatureError:
    """The error for orders whose signature does not verify with ``card``, from facts.

    Names another player's key when that key made the signature; says "changed in transit"
    with the evidence when the signature lines were re-wrapped or damaged, two lines were
    one when signed, or the mail program put typographic quotes, dashes or invisible
    characters for what was signed; otherwise says the orders were changed after signing or signed with
    another key.
    """
    src = source or signed.source
    mine = f"{card.name}'s key {card.key_id}"
    for other in others:
        if other.verify_key == card.verify_key:
            continue
        try:
            signed.verify(other)
        except SignatureError:
            continue
        return SignatureError(
            f"{src}: these orders say Player: {signed.header.player} but were signed with {other.name}'s key",
            f"each player signs their own orders with their own key (pbem sign ORDERS --key {card.name}.key)",
        )
    damage = signature_damage(signed.signature_widths, signed.signature) if signed.signature_widths else None
    if damage is None:
        joined = _joined_verifies(signed, card)
        if joined is not None:
            first, second = signed.body[joined][0], signed.body[joined + 1][0]
            damage = Damage("re-wrapped lines", f"lines {first} and {second} were one line when signed")
    if damage is None:
        damage = _client_characters(signed, card) or _garbled(signed, card)
    if damage is None:
        damage = long_line(signed.body, WIDTH) if signed.body else None
    if damage is not None:
        hint = WHAT_TO_DO
        if damage.what == _REPLACED:
            hint += ", and turn off its automatic replacement of quotes and dashes (smart quotes)"
        return SignatureError(f"{src}: the signature does not match {mine}: {damage.describe()}", hint)
    return SignatureError(
        f"{src}: the signature does not match {mine}: the orders were changed after signing, "
        "or signed with another key",
        f"sign the orders again with {card.name}'s own key: pbem sign ORDERS --key {card.name}.key",
    )
