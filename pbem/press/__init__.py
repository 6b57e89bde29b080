"""Press: messages between the players of a game, signed by the sender and encrypted to the
recipients only, relayed by the moderator (who cannot read them unless the game's rules say
so).

- :mod:`pbem.press.rules`: the game's press rules, fixed at creation and signed by the
  moderator (``press/rules.json``), shown in every report;
- :mod:`pbem.press.text`: the armoured text blocks (letter, envelope, relay) and their parser;
- :mod:`pbem.press.say`: the sender's side (``pbem say``): check, sign, encrypt, seal;
- :mod:`pbem.press.relay`: the moderator's side: open, check, record, deliver;
- :mod:`pbem.press.ledger`: what the moderator relayed, sealed to the moderator;
- :mod:`pbem.press.read`: the recipient's side (``pbem press read``);
- :mod:`pbem.press.listing`: what reports and the archive say about press.
"""

PRESS_DIR = "press"
"""A game's press folder (inside the game folder)."""
RULES_NAME = "rules.json"
"""The signed press rules in it; a game without this file has no press.  Both names live
here so that ``pbem status`` can tell a game without press without loading the press code."""
