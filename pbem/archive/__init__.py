"""``pbem archive``: a game as one readable document, every secret it may show revealed.

A finished game's seed and orders are public, so re-playing them rebuilds every state and
every player's private view from public files alone (:mod:`pbem.archive.rebuild`, which
refuses a game whose re-play does not match its signed saves).  Before the end, the
moderator's key rebuilds the same from the sealed save (marked confidential), and a
player's key gives that player's own archive from the reports they can open
(:mod:`pbem.archive.build`).  The result, an :class:`~pbem.archive.model.Archive` value, is
written as one self-contained HTML file (:mod:`pbem.archive.html`, charts drawn by
:mod:`pbem.archive.charts`) and one plain-text file under 72 columns
(:mod:`pbem.archive.text`); :mod:`pbem.archive.write` writes them, one game or every
finished game under a moderator root with an index page.
"""
