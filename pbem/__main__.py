"""``python -m pbem`` runs the command line."""

from pbem.cli import main

main()
