"""Every option of every command says what it takes: ``pbem moderate --help`` showed
``--poll INTEGER``, ``pbem say --help`` ``--file TEXT`` and ``-o, --out TEXT`` (a type name, not
what the value is).  Walks every command, so a new option without help or with a bare type
name fails here."""

from __future__ import annotations

import re
from collections.abc import Iterator

import click
from click.testing import CliRunner

from pbem.cli import main

BARE = re.compile(r"\b(INTEGER|TEXT|PATH|FILENAME|FLOAT|DIRECTORY|BOOLEAN|INTEGER RANGE)\b")


def _commands() -> Iterator[tuple[str, click.Command]]:
    ctx = click.Context(main)
    stack: list[tuple[str, click.Command]] = [("pbem", main)]
    while stack:
        path, command = stack.pop()
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                stack.append((f"{path} {name}", sub))
        else:
            yield path, command


def test_every_option_has_help_and_names_its_value() -> None:
    bad = []
    for path, command in _commands():
        ctx = click.Context(command, info_name=path)
        for param in command.params:
            if not isinstance(param, click.Option):
                continue
            record = param.get_help_record(ctx)
            if record is None:  # hidden
                continue
            opts, text = record
            if not (param.help or "").strip() or BARE.search(opts):
                bad.append(f"{path} {opts}: {text[:40]!r}")
    assert not bad, "\n".join(bad)


def test_the_options_the_review_found_read_well() -> None:
    runner = CliRunner()
    moderate = runner.invoke(main, ["moderate", "--help"], terminal_width=200).output
    assert "--poll SECONDS" in moderate and "--settle SECONDS" in moderate, moderate
    say = runner.invoke(main, ["say", "--help"], terminal_width=200).output
    assert "--file FILE" in say and "-o, --out FILE" in say and "-m, --message MESSAGE" in say, say
