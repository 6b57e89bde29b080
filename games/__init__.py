"""Game plug-ins shipped with pbem; installed as the ``pbem_games`` package."""
