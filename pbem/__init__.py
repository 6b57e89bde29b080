"""pbem: a play-by-email and shared-folder turn manager.

Kept import-light: ``pbem --help`` must start fast, so nothing heavy is imported here.
"""

__version__ = "0.1.0"
