"""Game detection is linear in its input (issue 39, item 2): the `game:` header patterns
match horizontal space only, so blank lines before a map no longer make them backtrack
(2,000 blank lines took 43 s to `play`, 4,000 over 300 s)."""

from __future__ import annotations

import time

from logic_agents.cli import main
from logic_agents.world.resolve import _GAME_HEADER, sniffer

from ..conftest import ROOT


def test_the_header_patterns_still_read_a_header():
    assert _GAME_HEADER.search("# a map\n  game: daggers \r\n. .\n").group(1) == "daggers"
    sniff = sniffer(lambda text, file: None, "akari")
    assert sniff("  # Game: akari\n.1.\n", "f.txt") == 2
    assert sniff("\n\n\ngame:akari\n", "f.txt") == 2
    assert sniff("game: akarix\n", "f.txt") == 1  # another name: only "it parses"


def test_a_million_blank_lines_before_a_map_are_read_in_linear_time(capsys, tmp_path):
    blank = "\n" * 10**6
    sniff = sniffer(lambda text, file: None, "akari")
    start = time.monotonic()
    assert sniff(blank + "game: akari\n", "f.txt") == 1  # past the first 4 KiB: parsed
    assert _GAME_HEADER.search(blank[:4096]) is None
    # the old patterns took 16 s on 2,000 blank lines here and grew with their cube
    assert time.monotonic() - start < 5
    path = tmp_path / "blank.txt"
    path.write_text(blank + (ROOT / "maps/daggers/2018/EASY1.txt").read_text())
    assert main(["play", str(path), "--quiet"]) == 0
    assert capsys.readouterr().out.startswith("WON EASY1")
