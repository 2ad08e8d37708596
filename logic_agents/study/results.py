"""Study: what `logic_agents.compare` returns, for notebooks and scripts.

Concepts: Study holds the per-game `rows` (study.rows.Row), the `summary` (win rates or scores with
their 95% intervals, per agent and group), the paired tests (`pairs`: McNemar on paired seeds,
beside each difference and its interval), `by_map` (the same per map) and `meta` (the call that
made it, the version, the seed); `to_pandas()` gives one row per game (pandas is the optional
extra `pandas`), `to_html()` the self-contained study page (no network), which a notebook shows
by itself (`_repr_html_`), `grades()` / `write_grades(path)` one line per agent (study.grades).
`Study.load(results)` rebuilds a study from its results file without playing a game. A Study
reads like the summary's JSON: `study["agents"]`.
"""

from __future__ import annotations

import dataclasses
import html
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from logic_agents.errors import DependencyNotInstalled, FormatError, UsageError
from logic_agents.ground.output import natural_key
from logic_agents.ground.shapes import Record
from logic_agents.study.grades import grade_rows, write_grades
from logic_agents.study.record import read_study, study_path
from logic_agents.study.report import summary_text
from logic_agents.study.rows import Row, read_rows
from logic_agents.study.summary import MapStats, Pair, Summary, per_map, summarize
from logic_agents.web.study import study_page
from logic_agents.web.svg import episode_html
from logic_agents.world.core import EpisodeResult
from logic_agents.world.registry import get_game
from logic_agents.world.view import BoardView


@dataclass
class PlayedEpisode(EpisodeResult):
    """What `logic_agents.play` returns: an EpisodeResult that a notebook shows as its numbers
    beside its last board (the world's EpisodeResult draws nothing: pages are web's)."""

    # the last observation's board, when the game has a View
    board: BoardView | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, result: EpisodeResult, board: BoardView | None = None) -> PlayedEpisode:
        return cls(**vars(result), board=board)

    def to_dict(self) -> Record:
        """The result as JSON (a results row's fields), without the drawn board."""
        d = super().to_dict()
        del d["board"]
        return d

    def _repr_html_(self) -> str:
        return episode_html(self, self.board)


class GamePage(str):
    """A game page (the HTML `view` writes): a str, which a notebook shows as the page itself,
    playable, in a sandboxed frame (its script runs there; it loads nothing)."""

    def __repr__(self) -> str:
        return f"<GamePage: {len(self):,} characters of HTML>"

    def _repr_html_(self) -> str:
        return (f'<iframe srcdoc="{html.escape(self)}" sandbox="allow-scripts" '
                'style="width: 100%; height: 640px; border: 1px solid #ddd"></iframe>')


NOTEBOOK_WINDOW = 200  # rows per table a notebook shows of a study


@dataclass
class Study:
    rows: list[Row]
    summary: Summary
    game: str = ""
    meta: dict[str, str] = dataclasses.field(default_factory=dict)
    # what each agent was read from (a file reference, `builtin`): the grades' source column
    sources: dict[str, str] = dataclasses.field(default_factory=dict)

    @classmethod
    def load(cls, results: str | PathLike[str], baseline: Sequence[str] = ()) -> Study:
        """The study a results file holds, rebuilt without playing a game: its summary (with
        the paired tests, only those with a `baseline` agent if given), grades and page.

        The file's study record (beside it) gives the game, the agents' order and sources,
        and the seed (a secret one stays secret); every row must carry the referee's seal.
        A game retried with --retry-errors counts once, as its last row.
        """
        try:
            path = Path(os.fspath(results))
        except Exception as e:  # a caller's path object whose __fspath__ raises, or no path
            raise UsageError(f"Study.load: results must be a path (a str or path), not "
                             f"{type(results).__name__} ({type(e).__name__})") from None
        if not path.is_file():
            raise FormatError("no such results file", str(path), 0, 0)
        record = read_study(path)
        game = record.get("game")
        if not isinstance(game, str):
            raise FormatError("the study record names no game", str(study_path(path)), 1, 1)
        spec = get_game(game)
        key = record.get("seal")
        rows = list({row.key: row for row in read_rows(
            path, key if isinstance(key, str) and len(key) == 32 else None)}.values())
        listed = [a.get("name") for a in record.get("agents") or () if isinstance(a, dict)]
        agents = [a for a in listed if isinstance(a, str)] or None
        instances = [i for i in record.get("instances") or () if isinstance(i, dict)]
        groups = list(dict.fromkeys(str(i.get("group")) for i in instances))
        summary = summarize(rows, agents, groups=groups or None,
                            scored=spec.objective == "score", baseline=tuple(baseline))
        secret = record.get("seed_secret") is True
        sources = record.get("references")
        maps = len({(r.group, r.map) for r in rows})
        return cls(rows, summary, game, {
            "results": str(path), "version": str(record.get("version", "")),
            "seed": "secret" if secret else str(record.get("seed", "")),
            "runs": f"{record.get('runs')} per map and agent", "maps": str(maps)},
            {str(k): str(v) for k, v in sources.items()} if isinstance(sources, dict) else {})

    def grades(self) -> list[Record]:
        """One record per agent, best first (study.grades.GRADE_FIELDS)."""
        return grade_rows(self.summary, self.rows, self.sources)

    def write_grades(self, path: str | PathLike[str]) -> None:
        """The grades as CSV (what `compare --grades` writes)."""
        write_grades(path, self.grades())

    @property
    def pairs(self) -> tuple[Pair, ...]:
        """The paired tests: for each pair of agents, the games only one won and McNemar's p."""
        return self.summary.pairs

    @property
    def objective(self) -> str:
        return self.summary.objective

    def __getitem__(self, key: str) -> Any:
        return self.summary.to_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.summary.to_json())

    def keys(self) -> Any:
        return self.summary.to_json().keys()

    def to_pandas(self) -> Any:
        """One DataFrame row per game: the Row fields, the agent's counters as `stat_NAME` and
        what the world reported as `world_NAME` columns; ordered by agent (as the summary
        lists them), map (EASY2 before EASY10) and run, whatever order the games ended in."""
        try:
            import pandas
        except ImportError:
            raise DependencyNotInstalled(
                "Study.to_pandas needs the 'pandas' extra: pip install 'logic-agents[pandas]'"
            ) from None
        order = {name: k for k, name in enumerate(self.summary.agents)}
        records = []
        for row in sorted(self.rows, key=lambda r: (order.get(r.agent, len(order)),
                                                    natural_key(r.map), r.run)):
            record = {k: v for k, v in dataclasses.asdict(row).items()
                      if k not in ("stats", "extra")}
            record.update({f"stat_{k}": v for k, v in row.stats.items()})
            record.update({f"world_{k}": v for k, v in row.extra.items()})
            records.append(record)
        return pandas.DataFrame.from_records(records)

    @property
    def by_map(self) -> list[MapStats]:
        """Each map's statistics per agent (group, map, agents: {name: AgentStats})."""
        groups = dict.fromkeys(g for st in self.summary.agents.values() for g in st.groups or {})
        return per_map(self.rows, list(self.summary.agents), self.summary.scored, list(groups))

    def to_html(self, title: str = "", window: int | None = None) -> str:
        """The study page `compare --html` writes (without replay links), with the call that
        made it at the top; `window`: at most that many rows per table."""

        return study_page(title or f"{self.game} study", self.summary.to_json(), self.rows, {},
                          meta=self.meta, window=window,
                          maps=[m.to_json() for m in self.by_map])

    def _repr_html_(self) -> str:
        """What a notebook shows: the summary and a window of NOTEBOOK_WINDOW rows, so a study
        of 100,000 games does not put megabytes into the notebook."""
        return self.to_html(window=NOTEBOOK_WINDOW)

    def __repr__(self) -> str:
        agents = ", ".join(self.summary.agents)
        return f"<Study {self.game}: {len(self.rows)} games of {agents}>"

    def __str__(self) -> str:
        """The table, counters and paired tests `compare` prints (`print(study)`)."""
        maps = len({(row.group, row.map) for row in self.rows})
        runs = max((row.run for row in self.rows), default=-1) + 1
        return summary_text(self.summary, maps, runs, self.meta.get("seed", "0") or "0")
