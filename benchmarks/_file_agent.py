"""spx in a file of its own: the file agent of benchmarks/bench_fair_play.py (a reference, so it
plays in a player process unless trusted)."""

from logic_agents.games.daggers.agents import SinglePointAgent


class FileSpx(SinglePointAgent):
    name = "file-spx"
