"""The public API's calls (`logic_agents.load`, `play`, `compare`, ...): see the package.

Concepts: the calls here; `arguments`, each argument checked at the door (a UsageError that
names it).

`logic_agents/__init__.py` names them and imports this module on first use, so that
`import logic_agents` (and every command of the CLI, which imports it first) stays light.
"""

from __future__ import annotations

import os
from pathlib import Path as _Path
from typing import TYPE_CHECKING

from logic_agents import web as _web
from logic_agents._version import __version__
from logic_agents.api import arguments as _arguments
from logic_agents.display import progress as _progress
from logic_agents.errors import UsageError as _UsageError
from logic_agents.ground.shapes import Record
from logic_agents.logic.certify import CHECKERS as _CHECKERS
from logic_agents.logic.certify import DEFAULT_CHECKER as _DEFAULT_CHECKER
from logic_agents.referee import agents as _seating
from logic_agents.referee.clock import DEFAULT_CAPS as _DEFAULT_CAPS
from logic_agents.referee.isolation import DEFAULT_MAX_PROCESSES as _DEFAULT_MAX_PROCESSES
from logic_agents.solving.puzzle import solved_certified as _solved_certified
from logic_agents.study import batch as _batch
from logic_agents.study.entries import entries_from_references as _entries_from_references
from logic_agents.study.results import GamePage, PlayedEpisode, Study
from logic_agents.study.settings import BACKENDS as _BACKENDS
from logic_agents.study.settings import StudySettings as _StudySettings
from logic_agents.study.summary import summarize as _summarize
from logic_agents.web import svg as _svg
from logic_agents.world import agents as _agents
from logic_agents.world import detect as _detect
from logic_agents.world import registry as _registry
from logic_agents.world import resolve as _resolve
from logic_agents.world import spec as _spec_module
from logic_agents.world import trace as _trace
from logic_agents.world import view as _view
from logic_agents.world.runner import run_episode

if TYPE_CHECKING:  # names for the annotations only: the namespace keeps the API alone
    from collections.abc import Sequence
    from os import PathLike
    from typing import Any

    from logic_agents.web.svg import Board
    from logic_agents.world.core import AnyAgent, AnyWorld, EpisodeResult
    from logic_agents.world.spec import GameSpec
    from logic_agents.world.values import Answer, Instance

    # an agent, wherever one is named: a registered name or "file.py:Class" reference, an
    # agent class, a factory (a callable that returns a fresh agent), or (for one episode)
    # an agent object
    AgentRef = Any


def _spec(ref: object, game: str | None) -> GameSpec:
    game = _arguments.game_name(game)
    return _registry.get_game(game or _detect.detect_game([_arguments.reference(ref, "ref")]))


def load(ref: str | PathLike[str], game: str | None = None) -> Instance:
    """The instance a reference names.

    Args:
        ref: a file, FILE:K (the K-th instance of a file), a shipped map's name, or an
            instance written inline.
        game: the game's name; None detects it from the file.

    Returns:
        The game's own instance object (a map, a puzzle), with its `name`.

    Raises:
        LogicAgentsError: the reference names nothing this game reads (a FormatError says
            file:line:col).
    """
    return _resolve.resolve(_arguments.reference(ref, "ref"), _spec(ref, game))[1][0]


def make_world(instance: object, game: str | None = None, **options: object) -> AnyWorld:
    """A fresh world for an instance.

    Args:
        instance: an instance of the game (as `load` returns it).
        game: the game's name; None: the game whose instances are of the instance's type.
        **options: `lives` (for a game with lives) and the game's declared world options.

    Returns:
        The world: `reset(seed=...)` and `step(action)`, as in Gymnasium.

    Raises:
        UsageError: an option the game's world does not take, or a value it refuses.
    """
    spec = _game_of(game, _arguments.game_of_instance(instance) if game is None else None)
    world: AnyWorld = spec.make_world(_arguments.instance_of(spec, instance),
                                             **_arguments.world_options_of(spec, options,
                                                                          "options"))
    return world


def _game_of(game: object, inferred: str | None) -> GameSpec:
    return _registry.get_game(inferred or _arguments.game_name(game)
                              or _arguments.reference(game, "game"))


def make_agent(agent: AgentRef, game: str | None = None, **options: object) -> AnyAgent:
    """An agent of a game, its declared options checked.

    Args:
        agent: a registered name, a "file.py:Class" / "module:Class" reference, an agent
            class or a factory (a callable that returns a fresh agent); an agent object is
            returned as it is.
        game: the game's name; None: the one game with an agent of that registered name
            (`make_agent("satx")`).
        **options: the agent's declared options (`--node-cap` is `node_cap=`).

    Returns:
        The agent: `reset(seed)` and `act(observation)`.

    Raises:
        AgentOptionError: an option the agent does not declare.
        AgentFailed: the agent's constructor raised.
    """
    spec = _game_of(game, _arguments.game_of_agent(agent) if game is None else None)
    return _agents.build_agent(_seating.agent_entry(spec, agent, instance_ok=True), options)


def play(ref: str | PathLike[str], agent: AgentRef | None = None, *, game: str | None = None,
         seed: int | None = 0, lives: int | None = None, trace: str | PathLike[str] | None = None,
         **options: Any) -> EpisodeResult:
    """Play one episode.

    Args:
        ref: the instance (as for `load`).
        agent: a registered name, a "file.py:Class" reference, an agent class, a factory or
            an agent object; None plays the game's default agent.
        game: the game's name; None detects it.
        seed: the episode's seed (the world and the agent are reset with it).
        lives: the starting lives, for a game with lives.
        trace: a JSONL path to write the episode to (it replays anywhere).
        **options: the agent's declared options.

    Returns:
        The EpisodeResult, with its game and map names; a notebook shows it beside its last
        board. An agent that fails (raises, returns a non-action) ends the episode with
        outcome `error`, and `result.error` and `result.frames` say where.
    """
    spec = _spec(ref, game)
    seed = _arguments.seed_of(seed)
    trace = _arguments.path_or_none(trace, "trace")
    world_options = _arguments.lives(spec, lives)
    instance = load(ref, spec.name)
    player = make_agent(spec.default_agent if agent is None else agent, spec.name, **options)
    world = _arguments.world(spec, instance, world_options)
    writer = None
    if trace is not None:
        writer = _trace.Trace(os.fspath(trace), map_path=str(ref), world_options=world_options,
                       instance=spec.instances.format(instance))
    last: list[object] = [None]

    def keep_last(obs: object, action: object, reward: float) -> None:
        last[0] = obs

    try:
        result = run_episode(world, player, seed, writer, game=spec.name, map_name=instance.name,
                             on_step=keep_last)
    finally:
        if writer is not None:
            writer.close()
    drawn = spec.get(_view.View)
    board = drawn.board(last[0]) if drawn is not None and last[0] is not None else None
    return PlayedEpisode.of(result, board)


def view(ref: str | PathLike[str], agent: AgentRef | None = None, *,
         output: str | PathLike[str] | None = None, game: str | None = None,
         seed: int | None = 0, lives: int | None = None, **options: Any) -> str:
    """Play one episode with the agent's explanations on, and make its game page.

    Args:
        ref: the instance (as for `load`).
        agent: as for `play`; None plays the game's default agent.
        output: a path to write the page to as well.
        game: the game's name; None detects it.
        seed: the episode's seed.
        lives: the starting lives, for a game with lives.
        **options: the agent's declared options.

    Returns:
        The page, one self-contained HTML document (no network), as `logic-agents view`
        writes it; a notebook shows it, playable.
    """
    spec = _spec(ref, game)
    seed = _arguments.seed_of(seed)
    output = _arguments.path_or_none(output, "output")
    world_options = _arguments.lives(spec, lives)
    instance = load(ref, spec.name)
    entry = _seating.agent_entry(spec, spec.default_agent if agent is None else agent,
                                 instance_ok=True)
    player = _agents.build_agent(entry, _agents.explaining(entry, options))
    _, text = _web.record_episode(spec, _arguments.world(spec, instance, world_options), player, seed,
                             instance, os.fspath(ref), world_options)
    page = _web.game_page(_web.episode_data(os.fspath(output) if output else f"<{instance.name}>", text=text))
    if output is not None:
        _Path(output).write_text(page, encoding="utf-8")
    return GamePage(page)


def board(ref: object = None, *, game: str | None = None, seed: int | None = 0,
          observation: object = None, action: object = None, why: object = None) -> Board:
    """The board a person sees, as the game page draws it.

    Args:
        ref: a reference (as for `load`) or an instance object (with `game`): its board at
            the start of an episode.
        game: the game's name (needed for an instance or an observation object).
        seed: the episode's seed, for a board drawn from an instance.
        observation: an observation of `game` to draw instead.
        action: a move, outlined.
        why: an agent's reason for the move: the cells it names are drawn as its proof.

    Returns:
        A Board: a notebook shows it as the game page's SVG; `print` shows its text.
    """
    seed = _arguments.seed_of(seed)
    instance: Instance | None
    if isinstance(ref, (str, os.PathLike)):
        spec = _spec(ref, game)
        instance = load(ref, spec.name)
    elif game is None:
        raise _UsageError("board: name the game of an instance or observation object (game=...)")
    else:
        spec = _registry.get_game(_arguments.game_name(game) or "")
        instance = None if ref is None else _arguments.instance_of(spec, ref, "ref")
    drawn = spec.need(_view.View, "board")
    if observation is None:
        if instance is None:
            raise _UsageError("board: give an instance (a reference or an object) or observation=")
        observation, _ = _arguments.world(spec, instance, {}).reset(seed=seed)
        title = f"{spec.name} · {instance.name}"
    else:
        observation = _arguments.observation_of(spec, observation)
        title = spec.name
    try:
        move = tuple(drawn.cells_of(action)) if action is not None else ()
        move = tuple((int(r), int(c)) for r, c in move)
    except (TypeError, ValueError, AttributeError, IndexError, KeyError):
        raise _UsageError(f"action must be a {spec.name} action, not "
                          f"{type(action).__name__}") from None
    return _svg.Board(drawn.board(observation), title, move, _view.cells_in(why))


def compare(agents: AgentRef | Sequence[AgentRef], refs: Sequence[str | PathLike[str]], *,
            game: str | None = None, runs: int = 10, seed: int | str | None = None,
            jobs: int | None = None,
            out: str | PathLike[str] | None = None, resume: bool = False,
            agent_options: dict[str, Record] | None = None,
            world_options: Record | None = None, progress: bool | None = None,
            backend: str = "process", address: str | None = None,
            isolate: str = "untrusted", trust: Sequence[str] = (), sandbox: str = "auto",
            hide: Sequence[str | PathLike[str]] = (), pass_env: Sequence[str] = (),
            agent_output: str | PathLike[str] | None = None,
            move_timeout: float | None = _DEFAULT_CAPS.move_timeout,
            game_timeout: float | None = _DEFAULT_CAPS.game_timeout,
            memory_cap: int | None = _DEFAULT_CAPS.memory_cap,
            max_processes: int = _DEFAULT_MAX_PROCESSES,
            baseline: Sequence[str] = ()) -> Study:
    """A paired study: every agent plays every instance `runs` times, with shared seeds.

    Args:
        agents: an agent or a list of them: registered names, "file.py:Class" references,
            agent classes or factories (a study needs a fresh agent per game).
        refs: files, folders and shipped names of the instances.
        game: the game's name; None detects it.
        runs: games per agent and instance (run i of an instance has the same seed for
            every agent).
        seed: the study's seed, from which every game's seed is drawn: a whole number
            (public: anyone can rebuild the games from it), "random" (drawn and kept secret;
            with `out`, kept in its study record for a resume), or None: "random" when any
            agent plays in a player process, else 0.
        jobs: worker processes; None uses one per core.
        out: a CSV or JSONL file the rows stream to.
        resume: continue `out`, playing only the games it does not hold.
        agent_options: per agent name, its declared options.
        world_options: the world's options (`lives`, the game's own).
        progress: None shows the games as they finish where a person watches (a notebook,
            a terminal) and nowhere else; True always; False never.
        backend: "process" (worker processes of this machine) or "ray" (the `ray` extra).
        address: the Ray cluster to join (`backend="ray"`); None starts a local one.
        isolate: who plays in a player process of its own: "untrusted" (agents named by a
            file or module reference), "all" (built-in agents too), "none".
        trust: references that may play in this process (your own code, for speed).
        sandbox: "auto" (bubblewrap where installed), "bwrap" (required) or "none".
        hide: folders and files a sandboxed player must not see (the maps, `out` and its
            record are hidden already).
        pass_env: names of environment variables a player may read; no other reaches it.
        agent_output: a folder where each isolated agent's prints are kept, AGENT.txt.
        move_timeout: seconds an agent's move may take (None: no cap).
        game_timeout: seconds an agent's game may take (None: no cap).
        memory_cap: MiB an agent's process may hold (None: no cap).
        max_processes: processes an isolated agent may start beside its own.
        baseline: agents' names; only the pairs with one of them are tested. A glob agent
            ("students/*/agent.py:Agent") is each match, named by what `*` matched; a file
            agent that does not read plays error rows that say why (docs/teach.md).

    Returns:
        A Study: its `rows` (one per game), `summary` (a frozen Summary whose `to_json()` is
        what `compare --json` prints; `study["agents"]` reads it), `pairs` (the paired
        tests), `by_map`, `to_pandas()` and `to_html()`.
    """
    agents = _arguments.agent_list(agents)
    refs = _arguments.references(refs)
    spec = _spec(refs[0], game)
    runs = _arguments.whole(runs, "runs", 1, _arguments.MAX_RUNS)
    seed = _arguments.study_seed(seed)
    jobs = None if jobs is None else _arguments.whole(jobs, "jobs", 1, _arguments.MAX_JOBS)
    out = _arguments.path_or_none(out, "out")
    if _arguments.flag(resume, "resume") and out is None:
        raise _UsageError("resume=True continues a results file: give it as out=")
    if progress is not None:
        _arguments.flag(progress, "progress")
    agent_options = _arguments.per_agent_options(agent_options)
    world_options = _arguments.world_options_of(spec, world_options)
    caps = _arguments.caps(move_timeout, game_timeout, memory_cap)
    isolation = _arguments.isolation(isolate, trust, sandbox, hide, pass_env, max_processes,
                                     [*refs, *([out] if out else [])],
                                     _arguments.path_or_none(agent_output, "agent_output"))
    entries = _entries_from_references(refs, spec)
    _arguments.world(spec, entries[0].instance, world_options)  # options a world refuses: before a game
    baseline = _arguments.texts(baseline, "baseline")
    scored = spec.objective == "score"
    settings = _StudySettings(runs=runs, seed=seed, jobs=jobs, game=spec.name, out=out,
                              resume=resume, agent_options=agent_options,
                              world_options=world_options, caps=caps, isolation=isolation,
                              backend=_arguments.choice(backend, "backend", _BACKENDS),
                              address=_arguments.optional_text(address, "address"))
    # the agents are read once, in the plan; the bar counts the plan's games
    with _batch.planned(agents, entries, settings) as plan, \
            _progress.StudyProgress(len(plan), progress, scored=scored) as shown:
        rows = _batch.play(plan, on_row=shown.advance)
    summary = _summarize(rows, plan.agents, groups=list(dict.fromkeys(e.group for e in entries)),
                         scored=scored, baseline=baseline)
    labels = ", ".join(repr(name) for name in summary.agents)
    secret = plan.settings.seed_secret
    shown_seed = "'random'" if secret else str(plan.settings.seed)  # a secret one never shown
    call = (f"logic_agents.compare([{labels}], {refs!r}, "
            f"game={spec.name!r}, runs={runs}, seed={shown_seed})")
    return Study(list(rows), summary, spec.name, {
        "call": call, "version": f"logic-agents {__version__}",
        "seed": "secret" if secret else str(plan.settings.seed),
        "runs": f"{runs} per map and agent"}, plan.sources)


def solve(ref: str | PathLike[str], *, game: str | None = None, unique: bool = True,
          solver: str | None = None, certify: bool | str = False) -> Answer[object]:
    """Solve a static puzzle.

    Args:
        ref: the puzzle (as for `load`).
        game: the game's name; None detects it.
        unique: also look for a second solution, to say whether the puzzle is unique.
        solver: a PySAT solver's name; None is the game's default.
        certify: True (the drup checker) or a checker's name ("drup", "dratify"): every
            UNSAT answer "unique" or "unsat" rests on is certified by a DRAT proof the
            checker accepts (the certify extra; docs/CNF.md).

    Returns:
        The game's Answer (a SolveResult for the shipped games): status unique / multiple /
        solved / unsat, the solution, and a second one when it is not unique.

    Raises:
        UncertifiedClaim: with `certify`, a proof the checker rejected, or a verdict with no
            UNSAT answer to certify.
    """
    spec = _spec(ref, game)
    puzzle = spec.need(_spec_module.Puzzle, "solve")
    if solver is not None and not isinstance(solver, str):
        raise _UsageError(f"solver must be a solver's name (a str), not {type(solver).__name__}")
    instance = load(ref, spec.name)
    unique = _arguments.flag(unique, "unique")
    if certify is False:
        result: Answer[object] = puzzle.solve(instance, unique, solver)
        return result
    checker = _DEFAULT_CHECKER if certify is True else certify
    if not isinstance(checker, str) or checker not in _CHECKERS:
        raise _UsageError(f"certify must be True or one of {', '.join(_CHECKERS)}, not "
                          f"{certify!r}")
    certified: Answer[object]
    certified, _ = _solved_certified(lambda: puzzle.solve(instance, unique, solver), checker,
                                     str(getattr(instance, "name", ref)))
    return certified


def registered_games() -> dict[str, GameSpec]:
    """Every registered game (built-in and plug-ins): {name: GameSpec}, a fresh dict.

    A plug-in that fails to load is left out with a warning that says why.
    """
    return dict(_registry.games())


def register(spec: GameSpec) -> GameSpec:
    """Add a game at run time, for a notebook or a test.

    Installed packages register through the `logic_agents.games` entry point instead.

    Args:
        spec: the game's GameSpec.

    Returns:
        The spec, as registered.
    """
    return _registry.register(spec)
