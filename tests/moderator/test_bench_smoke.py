"""The moderator benchmark still runs (on a handful of games; the real run is by hand)."""

from __future__ import annotations

import importlib.util
from pathlib import Path


def test_benchmark_runs_on_a_few_games(tmp_path: Path) -> None:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_moderator.py"
    spec = importlib.util.spec_from_file_location("bench_moderator", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.run(3, tmp_path / "work")
    assert result["games"] == 3 and result["games_per_second"] > 0
    assert result["unchanged_pass_games_looked_at"] == 0 and result["unchanged_pass_opens"] == 0
    assert result["one_changed_game_looked_at"] == 1
