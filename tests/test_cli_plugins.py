"""Start-up (issue 13): the commands that live in other modules (the moderator's, press) load
only when asked for, ``PbemGroup.PLUGINS`` says exactly what each adds, and reading a report
loads no order-file code."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click
from click.testing import CliRunner

from pbem.cli import PbemGroup, main


def test_each_plugin_module_adds_exactly_the_commands_listed_for_it() -> None:
    for module, names in PbemGroup.PLUGINS.items():
        group = click.Group()
        importlib.import_module(module).register(group)
        assert sorted(group.commands) == sorted(names), module


def test_no_plugin_command_shadows_a_core_command() -> None:
    plugin_names = [name for names in PbemGroup.PLUGINS.values() for name in names]
    assert len(plugin_names) == len(set(plugin_names))
    core = set(main.commands) - set(plugin_names)
    assert not core & set(plugin_names)


def test_help_lists_and_runs_plugin_commands() -> None:
    runner = CliRunner()
    listed = runner.invoke(main, ["--help"])
    assert listed.exit_code == 0
    for names in PbemGroup.PLUGINS.values():
        for name in names:
            assert f"  {name} " in listed.output, name
    moderate = runner.invoke(main, ["moderate", "--help"])
    assert moderate.exit_code == 0 and "Usage: main moderate" in moderate.output
    assert runner.invoke(main, ["no-such-command"]).exit_code == 2


def test_a_player_command_does_not_import_the_moderator() -> None:
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from pbem.cli import main\n"
        "result = CliRunner().invoke(main, ['keygen', '--help'])\n"
        "assert result.exit_code == 0, result.output\n"
        "print(sorted(m for m in sys.modules if m in ('pbem.cli_moderator', 'pbem.press.commands')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_reading_a_report_does_not_load_the_order_file_code() -> None:
    # pbem read's start-up (issue 13): the report reader needs the mail-text helpers only.
    code = (
        "import sys\n"
        "import pbem.player, pbem.reports\n"
        "print(sorted(m for m in sys.modules if m in ('pbem.orders', 'pbem.transit')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
