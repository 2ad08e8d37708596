"""Self-contained HTML pages: one game to watch step by step, and a study's report.

Concepts:
- episode_data: a trace (a file, or one just played) replayed through a fresh world; every
  observation drawn by the game's View (world.view) into tiles, the changes per step kept;
  the last move, the cells of its proof and a guess's odds are tile indices;
- game_page: the page: the data and the script inline (page.js, page.css beside this file),
  no network request; `#step=K` opens it at step K;
- study_page: compare's report: the summary table, win-rate (or score) bars as inline SVG,
  and a link per game to its replay page.
"""

from __future__ import annotations

import html
import io
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from logic_agents.ground.shapes import Record
from logic_agents.referee.clock import Clock
from logic_agents.world.core import AnyAgent, AnyWorld, EpisodeResult, Why
from logic_agents.world.registry import get_game
from logic_agents.world.runner import run_episode
from logic_agents.world.seeds import PUBLIC_KEY
from logic_agents.world.spec import GameSpec
from logic_agents.world.trace import Trace, replay, trace_header
from logic_agents.world.values import Instance
from logic_agents.world.view import View

# what a page may load: nothing from anywhere; its own inline style (and script)
CSP_PAGE = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"


def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _fill(template: str, values: dict[str, str]) -> str:
    """Every {{name}} of a template replaced in one pass, so that a value that happens to
    hold "{{...}}" (a map name, the data) is never itself filled."""
    return re.sub(r"\{\{(\w+)\}\}", lambda m: values[m.group(1)], template)


def html_page(title: str, css: str, body: str, csp: str) -> str:
    """A whole page: frame.html around a body, the style inline."""
    return _fill(_asset("frame.html"), {"title": html.escape(title), "css": css, "body": body,
                                        "csp": csp})


def _script_json(data: Any) -> str:
    """JSON that is safe inside a <script> element and still JSON: every <, > and & is a
    \\u escape (so no `</script>` or `<!--` can appear), as are the line separators."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return text


class _Recorder:
    """Collects the frames of a replay (the `watch` of world.trace.replay)."""

    def __init__(self) -> None:
        self.frames: list[Record] = []
        self.board: Record | None = None
        self.kinds: list[str] = []
        self._tiles: list[tuple[str, int]] = []
        self.score = 0.0
        self.guesses = 0

    def _kind(self, kind: str) -> int:
        if kind not in self.kinds:
            self.kinds.append(kind)
        return self.kinds.index(kind)

    def __call__(self, spec: GameSpec, observation: object, record: Record | None) -> None:
        frame: Record = {"t": 0 if record is None else record["t"]}
        if record is not None:
            frame["action"] = str(record["action"])
            self.score += record["reward"]
        view = spec.get(View)
        if view is None:  # a game without a View: its text picture
            frame["text"] = str(spec.render(observation))
        else:
            board = view.board(observation)
            if self.board is None:
                self.board = board.to_json()
            tiles = [(t.text, self._kind(t.kind)) for t in board.tiles]
            frame["d"] = [[i, text, k] for i, (text, k) in enumerate(tiles)
                          if i >= len(self._tiles) or self._tiles[i] != (text, k)]
            self._tiles = tiles
            frame["counters"] = [[k, str(v)] for k, v in board.counters]

            def index(cell: Any) -> int | None:
                tile = board.tile_of(cell)
                return None if tile is None else tile[0] * board.cols + tile[1]

            if record is not None:
                action = spec.actions.from_json(record["action"])
                frame["move"] = [i for i in map(index, view.cells_of(action)) if i is not None]
        why = Why.from_json(record.get("why") if record else None)
        if why:
            frame["why"] = str(why)
            if view is not None:
                cells = [i for i in map(index, why.cells) if i is not None]
                frame["route" if why.path else "proof"] = cells
                frame["odds"] = [[i, p] for cell, p in sorted(why.odds.items())
                                 if (i := index(cell)) is not None]
            if why.guess:
                self.guesses += 1
            if why.certified is not None:  # a proof checker accepted what the move rests on
                frame["certified"] = why.certified
        frame["score"] = round(self.score, 6)
        frame["guesses"] = self.guesses
        self.frames.append(frame)


def episode_data(trace_path: str | Path, text: str | None = None) -> Record:
    """Everything the game page shows, from a trace (checked step by step as it replays)."""

    recorder = _Recorder()
    report = replay(trace_path, watch=recorder, text=text)
    return {"game": report["game"], "map": report["map"], "agent": report["agent"],
            "seed": report["seed"], "outcome": report["outcome"] or "unfinished",
            "objective": get_game(report["game"]).objective, "board": recorder.board,
            "kinds": recorder.kinds, "frames": recorder.frames,
            **({"error": report["error"]} if report.get("error") else {})}


def game_page(data: Record, title: str | None = None) -> str:
    """One self-contained HTML page that steps through a game."""
    title = title or f"{data['game']} {data['map']}: {data['agent']}"
    body = _fill(_asset("page.html"), {"data": _script_json(data), "script": _asset("page.js")})
    return html_page(title, _asset("page.css"), body, CSP_PAGE)


def record_episode(spec: GameSpec, world: AnyWorld, agent: AnyAgent, seed: int | None,
                   instance: Instance, map_path: str, world_options: Record,
                   clock: Clock | None = None, agent_key: bytes = PUBLIC_KEY
                   ) -> tuple[EpisodeResult, str]:
    """Play one episode into an in-memory trace (under `clock`'s caps); returns (result,
    trace text). `agent_key` derives the agent's seed (world.seeds), a study's own key."""

    buffer = io.StringIO()
    header = trace_header(spec, instance, map_path, world_options)
    result = run_episode(world, agent, seed, Trace(buffer, **header), game=spec.name,
                         map_name=instance.name, clock=clock, agent_key=agent_key)
    return result, buffer.getvalue()


__all__ = ["episode_data", "game_page", "record_episode"]
