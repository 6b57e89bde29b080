"""The unattended moderator: shared-folder games, deadlines, and the email judge.

Modules: :mod:`.durable` (atomic writes, crash points), :mod:`.lock` (one moderator per
game), :mod:`.scan` (cheap change detection), :mod:`.config` (TOML settings),
:mod:`.record` (the per-game journal), :mod:`.post` (notices, reports and mail out),
:mod:`.notices` (what a player is told), :mod:`.core` (a pass over a root),
:mod:`.actions` (moderator commands) and :mod:`.judge` (mail in and out).
"""
