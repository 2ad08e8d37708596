"""GameSpec: what a game declares, as Gymnasium's EnvSpec is what an env declares.

Concepts:
- GameSpec: small data (name, description, objective, default agent, example, world
  options) and the factories every game needs (make_world, agents, render), the instance
  codec (Instances) and the action codec (Actions).
- Capabilities: optional, each a small typed class, either in `capabilities` or not:
  Puzzle (solve, cnf), Generator (generate), View (the board as tiles and keys: the page,
  human play), Lives (the world takes `lives`), Shipped (a folder of instances), Detection
  (which game a file or an argument is), Inline (instances typed on the command line),
  Results (the numbers and words a result carries), CnfLegend (what `cnf` writes to explain
  the variables), Proofs (what its SAT reasoning proves of an observation: world.values).
  `spec.get(Puzzle)` is the capability or None; `spec.need(Puzzle, "solve")`
  raises a UsageError that names the verb.
- AgentEntry: a registered agent (its factory, help line, declared options); agents_from
  makes them from {name: class}.
- GenerateRequest / GenerateReport: what `generate` asks of a Generator and what it answers.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from logic_agents.errors import ContractError, UnknownName, UsageError
from logic_agents.ground.shapes import Record
from logic_agents.world.core import AnyAgent, AnyWorld, EpisodeResult
from logic_agents.world.declared import Option, accepts, declared_options, unwrapped
from logic_agents.world.values import Instance, Proofs, Solve
from logic_agents.world.view import View

Objective = Literal["win", "score"]
OBJECTIVES = ("win", "score")
# a game's name is typed on the command line, names folders and entry points
GAME_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
C = TypeVar("C")
Obs = TypeVar("Obs")  # a game's observation
Act = TypeVar("Act")  # a game's action
Sol = TypeVar("Sol")  # a puzzle's solution


# -- the codecs every game gives --------------------------------------------------------------
def no_facts(instance: object) -> Record:
    """No columns for `maps` (the default of Instances.facts)."""
    return {}


Inst = TypeVar("Inst", bound=Instance)  # a game's instance


@dataclass(frozen=True)
class Instances(Generic[Inst]):
    """How a game reads and writes its instances. An instance has a `name` (a one-line str)."""

    read: Callable[[Path], Sequence[Inst]]  # a file -> its instances; FormatError(file, line, col)
    parse: Callable[[str, str], Inst]  # (text, source) -> the instance `format` wrote
    format: Callable[[Inst], str]  # instance -> text; parse(format(x)) == x (traces carry it)
    sample: Callable[[], Inst]  # a tiny instance: the contract tests play it with every agent
    many: bool = False  # a file holds many instances (FILE:K names one)
    facts: Callable[[Inst], Record] = no_facts  # the columns `maps` shows


@dataclass(frozen=True)
class Actions(Generic[Obs, Act]):
    """How actions are read back from a trace, and a few the rules forbid (for the checks)."""

    from_json: Callable[[Any], Act]  # the inverse of the action's to_json() (a JSON value)
    illegal: Callable[[Obs], Iterable[Act]]  # observation -> actions the world must refuse


# -- capabilities -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Puzzle(Generic[Inst, Sol]):
    """A static puzzle: `solve` and `cnf` without an agent."""

    solve: Solve[Inst, Sol]
    is_solution: Callable[[Inst, Sol], bool]
    show: Callable[[Inst, Sol], str]  # (instance, solution) -> text a person reads
    to_json: Callable[[Inst, Sol], object]  # (instance, solution) -> JSON value
    encode: Callable[[Inst], object]  # instance -> KnowledgeBase, for `cnf` (it checks so)
    describe: Callable[[Inst], str]  # one line about an instance
    # what one run of `solve` keeps across its puzzles (warm solvers), closed when it ends
    session: Callable[[], AbstractContextManager[object]] = contextlib.nullcontext


@dataclass(frozen=True)
class GenerateRequest:
    """What `generate` asks: `count` instances from `seed` into `output`.

    `options` holds the generator's own options by name (None when not given).
    """

    count: int
    seed: int
    output: Path
    force: bool = False  # overwrite files already there
    resume: bool = False  # keep the instances already written (the same options make them)
    options: Mapping[str, Any] = field(default_factory=dict)

    def need(self, name: str) -> Any:
        """A required option's value, else a UsageError naming its flag."""
        value = self.options.get(name)
        if value is None:
            raise UsageError(f"--{name.replace('_', '-')} is required")
        return value


@dataclass
class GenerateReport:
    """What a generator made: the files, how many instances, how many kept from before."""

    files: list[str]
    made: int
    kept: int = 0
    summary: str = ""  # one line for a person
    details: Record = field(default_factory=dict)  # extra keys of `--json`


@dataclass(frozen=True)
class Generator:
    """A game that makes instances: `logic-agents generate GAME`.

    Its `options` become the sub-command's flags; `generate(request)` writes through
    logic_agents.world.generated, so Ctrl-C keeps what is written and `--resume` finishes a
    run. `for_compare(spec text, count, seed, options)` gives `compare --generate SPEC` its
    instances, with `compare_options` as flags.
    """

    options: tuple[Option, ...]
    generate: Callable[[GenerateRequest], GenerateReport]
    help: str = ""
    epilog: Callable[[], str] = str  # no epilog: str() is ""
    for_compare: Callable[[str, int, int, Mapping[str, object]],
                          Sequence[tuple[Instance, str]]] | None = None
    compare_options: tuple[Option, ...] = ()


@dataclass(frozen=True)
class Lives:
    """The world takes `lives=N` (`--lives`), and results carry `lives_left`."""


@dataclass(frozen=True)
class Shipped:
    """A folder of shipped instances (package data: world.resolve.shipped_maps).

    Names like HARD1 resolve in it, and `maps` lists it.
    """

    folder: Path


@dataclass(frozen=True)
class Detection:
    """Which game a text is: `sniff(text, file)` scores 2 (it says so), 1 (it parses) or 0.

    `file` is None for an argument typed on the command line.
    """

    sniff: Callable[[str, str | None], int]


@dataclass(frozen=True)
class Inline:
    """Instances typed on the command line (a Sudoku line, an Undead game ID)."""

    parse: Callable[[str, str], Sequence[Instance]]  # (text, label) -> instances


@dataclass(frozen=True)
class Results:
    """What `play` prints after the outcome, and the world's summary() keys a result carries.

    Ooze's key is its score.
    """

    words: Callable[[EpisodeResult], str]
    keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class CnfLegend:
    """Comment lines `cnf` writes to explain the variable names."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Observations(Generic[Obs]):
    """How an observation crosses to a player process as data (referee.remote).

    `encode(obs)` is a JSON object of the observation's fields, `decode(record)` the
    observation again; decode(encode(obs)) == obs. Without it, the game's agents play in the
    referee's process only (trusted).
    """

    encode: Callable[[Obs], Record]
    decode: Callable[[Record], Obs]


class InstanceText(Generic[Inst]):
    """An instance that is public (a puzzle) inside an observation.

    It crosses as the text the game's own `format` writes and is read back with `parse`,
    once per instance (the last one is remembered on both sides).
    """

    def __init__(self, format: Callable[[Inst], str], parse: Callable[[str, str], Inst]):
        """The game's own codec of an instance."""
        self.format, self.parse = format, parse
        self._encoded: tuple[Inst, str] | None = None
        self._decoded: tuple[str, Inst] | None = None

    def encode(self, instance: Inst) -> str:
        """The instance's text (made once per instance)."""
        if self._encoded is None or self._encoded[0] is not instance:
            self._encoded = (instance, self.format(instance))
        return self._encoded[1]

    def decode(self, text: str) -> Inst:
        """The instance a text writes (read once per text)."""
        if self._decoded is None or self._decoded[0] != text:
            self._decoded = (text, self.parse(text, "<observation>"))
        return self._decoded[1]


CAPABILITIES: tuple[type, ...] = (Puzzle, Generator, View, Lives, Shipped, Detection, Inline,
                                  Results, CnfLegend, Observations, Proofs)


# -- agents ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: `factory(**options)` makes one.

    `options` are what it declares (by default the factory's `options` attribute, see
    world.agents).
    """

    name: str
    factory: Callable[..., AnyAgent]
    help: str = ""
    options: tuple[Option, ...] | None = None
    # needs a person at a terminal: factory(read_key=..., show=...), `play` only
    interactive: bool = False

    def declared(self) -> tuple[Option, ...]:
        """The options the agent takes."""
        return self.options if self.options is not None else declared_options(self.factory)


def _human(**options: object) -> AnyAgent:
    raise UsageError("the human agent is a person at a terminal: `logic-agents play MAP "
                     "--agent human`")


HUMAN = AgentEntry("human", _human, "you, in the terminal: arrows move, space probes or "
                   "places, f flags or marks, u undoes (puzzles), h hints with the why, q quits",
                   options=(), interactive=True)


def agents_from(factories: Mapping[str, Callable[..., AnyAgent]],
                help: Mapping[str, str] | None = None,
                interactive: Sequence[str] = ()) -> dict[str, AgentEntry]:
    """AgentEntries from {name: factory}, with help lines (default: the factory's docstring)."""
    help = help or {}
    out = {}
    for name, factory in factories.items():
        doc = help.get(name) or summary_of(factory, name)
        out[name] = AgentEntry(name, factory, doc, interactive=name in interactive)
    return out


def summary_of(factory: object, name: str) -> str:
    """The first paragraph of a factory's docstring, without a leading "name:"."""
    target, _ = unwrapped(factory)
    doc = (target.__doc__ or "").strip()
    text = " ".join(doc.split("\n\n")[0].split())
    return text[len(name) + 1:].strip() if text.startswith(f"{name}:") else text


# -- the spec ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameSpec:
    """A game: its data, factories, codecs and capabilities (see docs/write-a-game.md)."""

    name: str
    description: str
    make_world: Callable[..., AnyWorld]  # (instance, **options) -> a World
    agents: Mapping[str, AgentEntry]
    # the framework reads every game's instances, observations and actions alike: a game's
    # own types are checked where its codecs are made (Instances(...), Actions(...), ...)
    instances: Instances[Any]
    actions: Actions[Any, Any]
    render: Callable[[Any], object]  # observation -> the text `play` prints (str, or rich Text)
    default_agent: str
    example: str  # an instance `play` takes: a shipped name or an inline instance
    objective: Objective = "win"
    options: tuple[Option, ...] = ()  # what make_world takes besides lives
    capabilities: tuple[object, ...] = ()

    def __post_init__(self) -> None:
        """Check the name, the texts, the objective and the callables when made."""
        if not isinstance(self.name, str) or not GAME_NAME.fullmatch(self.name):
            raise ContractError(f"a game's name is 1-40 lower-case letters, digits, '-' and "
                                f"'_', not {self.name!r}")
        for field_name, text in (("description", self.description),
                                 ("default_agent", self.default_agent), ("example", self.example)):
            if not isinstance(text, str):
                raise ContractError(f"{self.name}: {field_name} must be a str, not "
                                    f"{type(text).__name__}")
        if self.objective not in OBJECTIVES:
            raise ContractError(f"{self.name}: objective must be one of {', '.join(OBJECTIVES)},"
                                f" not {self.objective!r}")
        for field_name, function in (("make_world", self.make_world), ("render", self.render)):
            if not callable(function):
                raise ContractError(f"{self.name}: {field_name} must be callable")
        kinds = [type(c) for c in self.capabilities]
        unknown = [k.__name__ for k in kinds if k not in CAPABILITIES]
        if unknown:
            raise TypeError(f"{self.name}: not capabilities: {', '.join(unknown)} (one of "
                            f"{', '.join(k.__name__ for k in CAPABILITIES)})")
        twice = sorted({k.__name__ for k in kinds if kinds.count(k) > 1})
        if twice:
            raise TypeError(f"{self.name}: capability {twice[0]} given twice")
        # every game a person can play by hand gets the `human` agent (world.view.Controls)
        view = self.get(View)
        if view is not None and view.controls is not None and "human" not in self.agents:
            object.__setattr__(self, "agents", {**self.agents, "human": HUMAN})

    def get(self, kind: type[C]) -> C | None:
        """The capability of that kind, or None when the game does not have it."""
        for capability in self.capabilities:
            if type(capability) is kind:
                found: C = capability
                return found
        return None

    def need(self, kind: type[C], verb: str) -> C:
        """The capability, else a UsageError that says which verb needs it and where it goes."""
        found = self.get(kind)
        if found is None:
            raise UsageError(f"{self.name} has no {kind.__name__} capability, which `{verb}` "
                             f"needs: add a {kind.__name__}(...) to its GameSpec's capabilities "
                             "(docs/write-a-game.md)")
        return found

    @property
    def verbs(self) -> list[str]:
        """The verbs this game supports, from its capabilities."""
        out = ["play", "compare", "replay", "maps", "view"]
        if self.get(Puzzle) is not None:
            out.append("solve")
        if self.get(Puzzle) is not None or self.query_agents():
            out.append("cnf")
        if self.get(Generator) is not None:
            out.append("generate")
        return sorted(out)

    def query_agents(self) -> list[str]:
        """The agents that hand their satisfiability tests to an `on_query` hook (for `cnf`)."""
        return [k for k, e in self.agents.items() if accepts(e.factory, "on_query")]

    def playing_agents(self) -> dict[str, AgentEntry]:
        """The agents that play by themselves (not the `human` one)."""
        return {k: e for k, e in self.agents.items() if not e.interactive}

    def make_agent(self, name: str, **options: object) -> AnyAgent:
        """A registered agent, made with `options`.

        Raises:
            UnknownName: no agent of that name (the message lists them).
        """
        try:
            entry = self.agents[name]
        except KeyError:
            raise UnknownName(f"unknown agent {name!r} for {self.name}; choose one of "
                              f"{', '.join(self.playing_agents())}") from None
        return entry.factory(**options)

    def result_keys(self) -> tuple[str, ...]:
        """The world's summary() keys a result carries: Results' keys, and lives_left."""
        results = self.get(Results)
        keys = results.keys if results is not None else ()
        return keys + (("lives_left",) if self.get(Lives) and "lives_left" not in keys else ())

    @property
    def hint_agent(self) -> str:
        """The agent human play asks for a hint: the View's Controls say, else the default."""
        view = self.get(View)
        hint = view.controls.hint_agent if view is not None and view.controls else ""
        return hint or self.default_agent
