"""Agents from anywhere: registered names, `file.py:Class` and `package.module:Class`.

Concepts:
- The agent protocol (world.core.Agent): `reset(seed=None)` and `act(observation) -> action`
  (None gives up). Optional: `name` (default: the class name), `stats() -> dict` (counters a
  result carries; `guesses` is counted apart), `close()` (the runner calls it when an episode
  ends, so C solvers are freed; `reset` must make the agent ready again) and declared options.
- Declared options: a class attribute `options = (Option(...), ...)` (see world.registry).
  Without one, the keyword-only parameters of `__init__` with a default and an annotation of
  bool/int/float/str are taken, so a plain class works as it stands.
- resolve_agent(spec, reference): the AgentEntry of a registered name or of a class named by
  `path/to/file.py:ClassName` or `package.module:ClassName`; a bad reference is a UsageError.
- build_agent(entry, options): options are checked against the declared ones first (a wrong
  one is a usage error); whatever the constructor then raises is the agent's failure
  (errors.AgentFailed), which `play` reports with the agent's frames and a study records.
- check_factory: a reference must name a class with reset() and act(), or a function that
  takes no required argument; anything else (json:loads, os:system) is a usage error.
- agent_entry(spec, agent): what the Python API takes wherever an agent is named: a name or
  reference (a str), an agent class, a factory, or (for one episode) an agent object; named by
  the agent's own `name`.
- explaining(entry, options): the options plus an `explain` hook for agents that take one.
- Which agents play in a player process of their own (an untrusted reference) is the
  referee's to say: referee.agents builds on resolve_agent and agent_entry here; an agent
  built elsewhere has a factory that is a seat.Elsewhere.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import importlib.util
import inspect
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from logic_agents.errors import (
    AgentFailed,
    AgentOptionError,
    AgentUnreadable,
    UnknownName,
    UsageError,
)
from logic_agents.ground.inputs import path_exists
from logic_agents.ground.shapes import Record
from logic_agents.world.calls import PACKAGE_DIR, Calls
from logic_agents.world.core import AnyAgent, own_name
from logic_agents.world.declared import (  # noqa: F401
    HOOKS,
    Option,
    accepts,
    declared_options,
    unwrapped,
)
from logic_agents.world.seat import Elsewhere, missing_members
from logic_agents.world.spec import AgentEntry, GameSpec, summary_of


def names_a_file(module_text: str) -> bool:
    """Whether a reference's module part names a file, not an importable module.

    `agent.py` and `students/ann/agent` are files; `package.module` is a module.
    """
    return module_text.endswith(".py") or "/" in module_text or "\\" in module_text


def is_reference(text: str) -> bool:
    """Whether an --agent value names a class (`file.py:Class`, `pkg.mod:Class`)."""
    module, sep, attr = text.rpartition(":")
    return bool(sep and module and attr.isidentifier())


def resolve_agent(spec: GameSpec, reference: str) -> AgentEntry:
    """The agent an --agent value names, for game `spec`, to play in this process.

    Which agents play in a player process of their own instead is the referee's to say
    (referee.agents.resolve_agent, which builds on this one).
    """
    if reference in spec.agents:
        return spec.agents[reference]
    if not is_reference(reference):
        raise UnknownName(f"unknown agent {reference!r} for {spec.name}; choose one of "
                          f"{', '.join(spec.playing_agents())}, or name your own class as "
                          "file.py:Class or package.module:Class")
    factory = load_class(reference)
    check_factory(factory, reference)
    return AgentEntry(reference, factory, summary_of(factory, reference))


Resolver = Callable[[GameSpec, str], AgentEntry]


def agent_entry(spec: GameSpec, agent: Any, *, instance_ok: bool = False,
                resolve: Resolver = resolve_agent) -> AgentEntry:
    """The AgentEntry of whatever names an agent.

    That is a registered name or a `file.py:Class` / `module:Class` reference (a str), an
    agent class, a factory (a callable that returns a fresh agent), or, where one episode is
    played (`instance_ok`), an agent object itself. Its name is the agent's own `name` when
    it has one, else the class's or function's name. `resolve` reads a name or reference
    (the referee's puts an untrusted one in a player process).
    """
    if isinstance(agent, str):
        entry = resolve(spec, agent)
        named = own_name(entry.factory)
        if agent not in spec.agents and named:
            return dataclasses.replace(entry, name=named)  # a file agent, by its own name
        return entry
    if isinstance(agent, AgentEntry):
        return agent
    label = _label(agent)
    if isinstance(agent, type) or (callable(agent) and not _is_agent(agent)):
        check_factory(agent, label)
        return AgentEntry(label, agent, _doc_line(agent))
    if not _is_agent(agent):
        raise UsageError(f"agent {label}: {type(agent).__name__!r} is not an agent (it has no "
                         "reset(seed=None) and act(observation)); pass an agent, its class, a "
                         "function that makes one, or a registered name")
    if not instance_ok:
        raise UsageError(f"agent {label}: a study plays many games and needs a fresh agent for "
                         "each: pass its class or a function that makes one, not an agent object")
    return AgentEntry(label, lambda: agent, _doc_line(type(agent)))


def _is_agent(obj: object) -> bool:
    return not missing_members(obj)


def _label(agent: object) -> str:
    name = own_name(agent)
    if name:
        return name
    own = getattr(unwrapped(agent)[0], "__name__", None)  # a class's, a function's
    return own if isinstance(own, str) else type(agent).__name__


def _doc_line(obj: object) -> str:
    doc = (obj.__doc__ or "").strip()
    return doc.splitlines()[0] if doc else ""


def check_factory(factory: object, reference: str) -> None:
    """Check that `factory` can make agents.

    It is a class with reset() and act(), or a callable that takes no required argument (it
    is called with the agent's options).

    Raises:
        AgentUnreadable: it cannot.
    """
    needs = "an agent needs reset(seed=None) and act(observation)"
    if isinstance(factory, type):
        missing = missing_members(factory)
        if missing:
            raise AgentUnreadable(f"--agent {reference}: the class {factory.__name__} has no "
                                  f"{' or '.join(m + '()' for m in missing)}; {needs}",
                                  "TypeError")
        return
    if not callable(factory):
        raise AgentUnreadable(f"--agent {reference}: {reference} is a "
                              f"{type(factory).__name__}, not an agent class or a function "
                              "that returns an agent", "TypeError")
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):  # a built-in such as os.system: no signature to read
        raise AgentUnreadable(f"--agent {reference}: {reference} is a built-in function that "
                              "does not return an agent", "TypeError") from None
    required = [p.name for p in params if p.default is p.empty
                and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if required:
        raise AgentUnreadable(f"--agent {reference}: {reference} is a function that does not "
                              f"return an agent (it needs {', '.join(required)}; an agent "
                              "factory is called with the agent's options only)", "TypeError")

# the agent files read in this process: module name -> the stamp of the file when it was read
_READ: dict[str, tuple[int, ...]] = {}


def load_class(reference: str) -> Any:
    """The object named by `file.py:Name` or `package.module:Name`."""
    module_text, _, attr = reference.rpartition(":")
    if names_a_file(module_text):
        path = Path(module_text)
        if not path_exists(path) or not path.is_file():
            raise UsageError(f"--agent {reference}: no such file {module_text}"
                             f"{what_is_there(path)}")
        name = f"logic_agents_user_{abs(hash(str(path.resolve())))}"
        stamp = _stamp(path)
        held = sys.modules.get(name)
        if held is not None and _READ.get(name) == stamp:
            module = held  # read already, and unchanged: its code is not run twice
        else:
            module = _read_file(reference, module_text, path, name)
            _READ[name] = stamp
    else:
        if not all(part.isidentifier() for part in module_text.split(".")):
            raise UsageError(f"--agent {reference}: {module_text!r} is not a module name")
        try:
            module = importlib.import_module(module_text)
        except ModuleNotFoundError as e:
            if e.name and module_text.startswith(e.name):
                raise UsageError(f"--agent {reference}: no module named {e.name!r}") from None
            raise AgentUnreadable(f"--agent {reference}: importing {module_text} raised "
                                  f"{_where_in(e, module_text)}", type(e).__name__) from None
        except (Exception, SystemExit) as e:
            raise AgentUnreadable(f"--agent {reference}: importing {module_text} raised "
                                  f"{_where_in(e, module_text)}", type(e).__name__) from None
    try:
        return getattr(module, attr)
    except AttributeError:
        raise AgentUnreadable(f"--agent {reference}: {module_text} has no {attr!r}"
                              f"{_classes_of(module)}", "AttributeError") from None


def _classes_of(module: ModuleType) -> str:
    """What a module that lacks the class asked for defines instead, in words."""
    own = [name for name, value in vars(module).items()
           if inspect.isclass(value) and getattr(value, "__module__", None) == module.__name__]
    if not own:
        return " (it defines no class)"
    listed = ", ".join(own[:6]) + (" ..." if len(own) > 6 else "")
    return f" (it defines {listed}: name one with FILE.py:CLASS, or --submission-class)"


def what_is_there(path: Path, limit: int = 6) -> str:
    """Words on what the folder of a missing agent file holds.

    The Python files beside it, or the same file in a folder nested below it (a zip unpacked
    into a folder of its own name). Names are listed, never opened; "" when the folder is not
    there either.
    """
    folder = path.parent
    try:
        beside = sorted(p.name for p in folder.iterdir() if p.suffix == ".py" and p.is_file())
        nested = sorted(str(p) for p in folder.glob(f"*/{path.name}") if p.is_file())
    except OSError:
        return ""
    if nested:
        return (f"; {nested[0]} is there (a folder inside the folder: hand in "
                f"{path.name} at its top)")
    if beside:
        listed = ", ".join(beside[:limit]) + (" ..." if len(beside) > limit else "")
        return f"; its folder holds {listed} (the file to play from is {path.name})"
    return "; its folder holds no Python file" if folder.is_dir() else ""


def _read_file(reference: str, module_text: str, path: Path, name: str) -> ModuleType:
    """An agent file's module, read (its code run) under `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"--agent {reference}: {module_text} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling look modules up by name
    # its folder is on the import path, as a script's is: a submission of several files
    # (`from helpers import ...`) reads as it does when its author runs it
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        sys.modules.pop(name, None)
        raise AgentUnreadable(f"--agent {reference}: {e.filename}:{e.lineno}:{e.offset or 0}: "
                              f"{e.msg}", type(e).__name__) from None
    except (Exception, SystemExit) as e:  # the file's own code failed as it was read
        sys.modules.pop(name, None)
        raise AgentUnreadable(f"--agent {reference}: reading {module_text} raised "
                              f"{_where_in(e, module_text)}", type(e).__name__) from None
    return module


def _stamp(path: Path) -> tuple[int, ...]:
    """What tells an agent file read before from one changed since: its size and mtime."""
    try:
        status = path.stat()
    except OSError:
        return ()
    return (status.st_size, status.st_mtime_ns)


def _where_in(error: BaseException, module: str) -> str:
    """`Type: message (file:line)` of an error raised while a module was read."""
    said = str(error).strip().splitlines()
    line = f"{type(error).__name__}: {said[0][:200]}" if said else type(error).__name__
    frames = traceback.extract_tb(error.__traceback__)
    # the innermost frame of the agent's own code: not ours, not the import machinery's
    own = [f for f in frames if not f.filename.startswith(PACKAGE_DIR)
           and not f.filename.startswith("<frozen ")] or frames[-1:]
    if own:
        text = (own[-1].line or "").strip()
        line += f" ({own[-1].filename}:{own[-1].lineno}{': ' + text[:120] if text else ''})"
    return line


def check_options(entry: AgentEntry, options: Record) -> None:
    """AgentOptionError naming the options `entry` does not declare."""
    declared = {o.name for o in entry.declared()}
    refused = [k for k in options if k not in declared and not (k in HOOKS
                                                                and accepts(entry.factory, k))]
    if refused:
        given = ", ".join("--" + k.replace("_", "-") for k in refused)
        takes = ", ".join(o.flag for o in entry.declared()) or "no options"
        raise AgentOptionError(f"agent {entry.name} does not take {given} (it takes {takes})")


def build_agent(entry: AgentEntry, options: Record | None = None,
                clock: Calls | None = None) -> AnyAgent:
    """Check the options, then make the agent; it gets a `name` if it has none.

    What the constructor raises, or a made object that is no agent, is errors.AgentFailed (in `__init__`):
    the agent's fault, which a study records and goes on.
    """
    options = dict(options or {})
    check_options(entry, options)
    clock = clock or Calls()
    clock.agent = entry.name
    if isinstance(entry.factory, Elsewhere):  # its own process builds it
        return entry.factory.make(options, clock)
    agent: AnyAgent = clock.call("__init__", functools.partial(entry.factory, **options))
    missing = missing_members(agent)
    if missing:
        what = type(agent).__name__
        raise AgentFailed(entry.name, "__init__", "TypeError",
                          f"it made a {what}, which has no "
                          f"{' or '.join(m + '()' for m in missing)}; an agent needs "
                          "reset(seed=None) and act(observation)")
    if own_name(agent) is None:
        with contextlib.suppress(Exception):  # a read-only or failing `name`: left as it is
            agent.name = entry.name  # type: ignore[attr-defined]  # `name`: optional, set here
    return agent


def explaining(entry: AgentEntry, options: Record | None = None,
               show: Callable[[list[str]], None] | None = None) -> Record:
    """The options with an `explain` hook, for an agent that takes one.

    The agent then proves its moves and keeps the proofs in its `why` (the page, a hint);
    `show(lines)` also receives the lines it explains (default: nowhere).
    """
    options = dict(options or {})
    if accepts(entry.factory, "explain"):
        options["explain"] = show or (lambda lines: None)
    return options
