"""Package discovery for pbem (everything else is in pyproject.toml).

The game plug-ins live in ``games/`` and the report templates in ``templates/`` in the source
tree, but install as ``pbem_games`` and ``pbem_templates``: never as bare top-level ``games``
or ``templates`` packages that would clash with other projects.  Static ``packages.find``
cannot find packages under a renamed folder, so they are found here: any new sub-package of
``pbem``, ``games`` or ``templates`` lands in the wheel without editing a list.
"""

from setuptools import find_namespace_packages, find_packages, setup

RENAMED = {"pbem_games": "games", "pbem_templates": "templates"}

packages = find_packages(include=["pbem", "pbem.*"])
for name, folder in RENAMED.items():
    # Folders without an __init__.py count too (a game's templates are data only): listed,
    # they ship as data of a package setuptools knows, not as an "absent" one it warns about.
    subs = find_namespace_packages(folder, exclude=["*__pycache__*"])
    packages += [name, *(f"{name}.{sub}" for sub in subs)]

setup(packages=packages, package_dir=RENAMED)
