"""check_world: the contract every registered world must pass (after Gymnasium's check_env).

Concepts checked:
- shapes: reset -> (obs, dict); step -> (obs, finite float, bool, bool, dict);
- determinism: the same seed gives the same first observation and the same trace, twice
  over, for the same agent;
- hiding: an observation reaches neither the world nor its `hidden_state()` by any path
  (fields, slots, a bound method's object, a closure, a partial, a weak reference), holds
  no weak proxy, and is immutable, so an agent cannot reach or change what it should not see;
- legality: every sampled illegal action raises IllegalAction and changes nothing; acting
  after the episode has ended, even with a move that was legal at its start, raises
  IllegalAction;
- outcomes: a step that terminates leaves the world's typed `outcome` (WON, LOST or ENDED:
  world.outcomes.ended); a step that does not leaves it None. A Gymnasium env, which says
  `terminated` alone, fails here with the words of what to add.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import math
import types
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from logic_agents.errors import ContractError, IllegalAction
from logic_agents.world.core import AnyAgent, AnyWorld
from logic_agents.world.outcomes import ended, finished, hidden_state_of, outcome_of
from logic_agents.world.trace import to_jsonable


class WorldContractError(AssertionError):
    """A world broke the World contract (raised by check_world, used by tests)."""


def _walk(value: object, seen: set[int], thorough: bool = True) -> Iterable[object]:
    """Every object an observation reaches.

    Fields, items, attributes and slots, a bound method's object, a function's closure and
    defaults, a partial's arguments, a weak reference's referent (classes and modules are
    not followed).
    """
    stack = [value]
    while stack:
        value = stack.pop()
        if id(value) in seen or isinstance(value, (type, types.ModuleType)):
            continue
        seen.add(id(value))
        yield value
        stack.extend(_parts(value, thorough))


def _parts(value: object, thorough: bool = True) -> list[object]:
    """What `value` holds.

    With `thorough`, its attributes beyond a dataclass's fields too (a cache a frozen
    dataclass keeps in its __dict__), for the search of the world.
    """
    if isinstance(value, (str, bytes, int, float, complex, bool)) or value is None:
        return []
    if isinstance(value, weakref.ref):
        return [value()]
    if isinstance(value, dict):
        return [*value.keys(), *value.values()]
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    if isinstance(value, types.FunctionType):
        cells = [c.cell_contents for c in value.__closure__ or () if _filled(c)]
        return [*cells, *(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values()]
    if isinstance(value, (types.MethodType, types.BuiltinMethodType, types.MethodWrapperType)):
        return [getattr(value, "__self__", None), getattr(value, "__func__", None)]
    if isinstance(value, functools.partial):
        return [value.func, *value.args, *value.keywords.values()]
    parts: list[object] = []
    if dataclasses.is_dataclass(value):
        parts += [getattr(value, f.name, None) for f in dataclasses.fields(value)]
    if hasattr(value, "__dict__") and (thorough or not dataclasses.is_dataclass(value)):
        parts += list(vars(value).values())
    for klass in type(value).__mro__:
        for slot in klass.__dict__.get("__slots__", ()) if isinstance(
                klass.__dict__.get("__slots__", ()), (tuple, list)) else ():
            if slot not in ("__dict__", "__weakref__") and hasattr(value, slot):
                parts.append(getattr(value, slot))
    if not parts:  # an object of C (an array, a deque, a cell): what the collector sees
        parts = [p for p in gc.get_referents(value) if not isinstance(p, (type, dict))]
    return parts


def _filled(cell: types.CellType) -> bool:
    try:
        return cell.cell_contents is not _EMPTY  # reading an empty cell raises ValueError
    except ValueError:
        return False


_EMPTY = object()


def _play(make_world: Callable[[], AnyWorld], make_agent: Callable[[], AnyAgent], seed: int,
          max_steps: int) -> tuple[AnyWorld, list[object], object, bool]:
    world = make_world()
    agent = make_agent()
    obs, info = world.reset(seed=seed)
    agent.reset(seed)
    if not isinstance(info, dict):
        raise WorldContractError("reset must return (observation, info dict)")
    record: list[object] = [to_jsonable(obs)]
    for _ in range(max_steps):
        action = agent.act(obs)
        if action is None:
            break
        out = world.step(action)
        if len(out) != 5:
            raise WorldContractError("step must return a 5-tuple")
        obs, reward, terminated, truncated, info = out
        if not (isinstance(terminated, bool) and isinstance(truncated, bool)):
            raise WorldContractError("terminated and truncated must be bools")
        if not isinstance(reward, (int, float)) or not isinstance(info, dict):
            raise WorldContractError("reward must be a number and info a dict")
        if not math.isfinite(reward):
            raise WorldContractError(f"reward must be a finite number, not {reward!r}")
        record.append((to_jsonable(action), to_jsonable(obs), reward, terminated, truncated))
        _check_outcome(world, terminated)
        if terminated or truncated:
            return world, record, obs, True
    return world, record, obs, False


def check_world(
    make_world: Callable[[], AnyWorld],
    make_agent: Callable[[], AnyAgent],
    illegal_actions: Callable[[Any], Iterable[object]],  # the game's observation
    seeds: Iterable[int] = (0, 1, 2),
    max_steps: int = 10_000,
) -> None:
    """Raise WorldContractError (or let IllegalAction checks fail) if the world breaks the contract."""
    for seed in seeds:
        first = to_jsonable(make_world().reset(seed=seed)[0])
        if to_jsonable(make_world().reset(seed=seed)[0]) != first:
            raise WorldContractError(f"reset(seed) gave two different observations for seed "
                                     f"{seed}: a world draws its randomness from its seed alone")
        world_a, trace_a, last_obs, ended = _play(make_world, make_agent, seed, max_steps)
        _, trace_b, _, _ = _play(make_world, make_agent, seed, max_steps)
        if trace_a != trace_b:
            raise WorldContractError(f"seed {seed}: the same seed gave two different traces")
        if ended:
            for action in illegal_actions(last_obs):
                _expect_illegal(world_a, action, "after the episode ended")
            # a move that was legal at the start (the agent's first) is refused after the end
            _expect_illegal(world_a, _first_action(make_agent, make_world, seed),
                            "after the episode ended")

        world = make_world()
        obs, info = world.reset(seed=seed)
        hidden = hidden_state_of(world)
        forbidden = {id(world)} | ({id(hidden)} if hidden is not None else set())
        if hidden is not None and isinstance(hidden, (list, tuple, dict)):
            forbidden |= {id(v) for v in (hidden.values() if isinstance(hidden, dict) else hidden)
                          if not isinstance(v, (int, str, bool, float))}
        state = getattr(world, "__dict__", None)
        for part in _walk(obs, set()):
            if part is world or (state is not None and part is state):
                raise WorldContractError("the observation holds a reference to the world")
            if id(part) in forbidden:
                raise WorldContractError("the observation holds a reference to the hidden state")
            if isinstance(part, (weakref.ProxyType, weakref.CallableProxyType)):
                raise WorldContractError("the observation holds a weak proxy (of the world?); "
                                         "an observation holds plain data")
        for part in _walk(obs, set(), thorough=False):
            if isinstance(part, (list, dict, set)):
                raise WorldContractError(
                    f"the observation holds a mutable {type(part).__name__}; use tuples"
                )
        params = getattr(obs, "__dataclass_params__", None)
        if params is not None and not params.frozen:
            raise WorldContractError("the observation dataclass must be frozen")
        before = to_jsonable(obs)
        for action in illegal_actions(obs):
            _expect_illegal(world, action, "")
        if finished(world):  # by reset: nothing to play
            continue
        legal = make_agent_act(make_agent, seed, obs)
        twin = make_world()
        twin.reset(seed=seed)
        after_illegal = to_jsonable(world.step(legal)[0])
        if after_illegal != to_jsonable(twin.step(legal)[0]):
            raise WorldContractError("a refused illegal action changed the world")
        if to_jsonable(obs) != before:
            raise WorldContractError("stepping the world changed an earlier observation")


def _check_outcome(world: AnyWorld, terminated: bool) -> None:
    if terminated:
        try:
            ended(world)
        except ContractError as e:
            raise WorldContractError(str(e)) from None
    elif finished(world):
        raise WorldContractError(f"a step that did not terminate left the outcome "
                                 f"{outcome_of(world)!r}; it must stay None until the end")


def make_agent_act(make_agent: Callable[[], AnyAgent], seed: int, obs: object) -> object:
    """The default agent's first action on `obs` (a fresh agent, reset with `seed`)."""
    agent = make_agent()
    agent.reset(seed)
    return agent.act(obs)


def _first_action(make_agent: Callable[[], AnyAgent], make_world: Callable[[], AnyWorld],
                  seed: int) -> object:
    """The default agent's first move of a fresh game of `seed`."""
    return make_agent_act(make_agent, seed, make_world().reset(seed=seed)[0])


def _expect_illegal(world: AnyWorld, action: object, when: str) -> None:
    try:
        world.step(action)
    except IllegalAction:
        return
    raise WorldContractError(f"action {action!r} was accepted {when}".rstrip())
