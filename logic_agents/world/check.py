"""check_world: the contract every registered world must pass (after Gymnasium's check_env).

Concepts checked:
- shapes: reset -> (obs, dict); step -> (obs, float, bool, bool, dict);
- determinism: the same seed gives the same trace, twice over, for the same agent;
- hiding: an observation holds no reference to the world or to its `hidden_state()`, and it
  is immutable, so an agent cannot reach or change what it should not see;
- legality: every sampled illegal action raises IllegalAction and changes nothing; acting
  after the episode has ended raises IllegalAction;
- outcomes: a step that terminates leaves the world's typed `outcome` (WON, LOST or ENDED:
  world.base.ended); a step that does not leaves it None. A Gymnasium env, which says
  `terminated` alone, fails here with the words of what to add.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from logic_agents.errors import IllegalAction
from logic_agents.world.trace import to_jsonable


class WorldContractError(AssertionError):
    """A world broke the World contract (raised by check_world, used by tests)."""


def _walk(value: Any, seen: set[int]) -> Iterable[Any]:
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _walk(getattr(value, f.name), seen)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(k, seen)
            yield from _walk(v, seen)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            yield from _walk(v, seen)
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        for v in vars(value).values():
            yield from _walk(v, seen)


def _play(make_world: Callable[[], Any], make_agent: Callable[[], Any], seed: int,
          max_steps: int) -> tuple[Any, list[Any], Any, bool]:
    world = make_world()
    agent = make_agent()
    obs, info = world.reset(seed=seed)
    agent.reset(seed)
    if not isinstance(info, dict):
        raise WorldContractError("reset must return (observation, info dict)")
    record = [to_jsonable(obs)]
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
        record.append((to_jsonable(action), to_jsonable(obs), reward, terminated, truncated))
        _check_outcome(world, terminated)
        if terminated or truncated:
            return world, record, obs, True
    return world, record, obs, False


def check_world(
    make_world: Callable[[], Any],
    make_agent: Callable[[], Any],
    illegal_actions: Callable[[Any], Iterable[Any]],
    seeds: Iterable[int] = (0, 1, 2),
    max_steps: int = 10_000,
) -> None:
    """Raise WorldContractError (or let IllegalAction checks fail) if the world breaks the contract."""
    for seed in seeds:
        world_a, trace_a, last_obs, ended = _play(make_world, make_agent, seed, max_steps)
        _, trace_b, _, _ = _play(make_world, make_agent, seed, max_steps)
        if trace_a != trace_b:
            raise WorldContractError(f"seed {seed}: the same seed gave two different traces")
        if ended:
            for action in illegal_actions(last_obs):
                _expect_illegal(world_a, action, "after the episode ended")

        world = make_world()
        obs, info = world.reset(seed=seed)
        hidden = world.hidden_state() if hasattr(world, "hidden_state") else None
        forbidden = {id(world)} | ({id(hidden)} if hidden is not None else set())
        if hidden is not None and isinstance(hidden, (list, tuple, dict)):
            forbidden |= {id(v) for v in (hidden.values() if isinstance(hidden, dict) else hidden)
                          if not isinstance(v, (int, str, bool, float))}
        for part in _walk(obs, set()):
            if id(part) in forbidden:
                raise WorldContractError("the observation holds a reference to the hidden state")
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
        if getattr(world, "outcome", None) is not None:  # finished by reset: nothing to play
            continue
        legal = make_agent_act(make_agent, seed, obs)
        twin = make_world()
        twin.reset(seed=seed)
        after_illegal = to_jsonable(world.step(legal)[0])
        if after_illegal != to_jsonable(twin.step(legal)[0]):
            raise WorldContractError("a refused illegal action changed the world")
        if to_jsonable(obs) != before:
            raise WorldContractError("stepping the world changed an earlier observation")


def _check_outcome(world: Any, terminated: bool) -> None:
    from logic_agents.errors import ContractError
    from logic_agents.world.base import ended

    if terminated:
        try:
            ended(world)
        except ContractError as e:
            raise WorldContractError(str(e)) from None
    elif getattr(world, "outcome", None) is not None:
        raise WorldContractError(f"a step that did not terminate left the outcome "
                                 f"{world.outcome!r}; it must stay None until the end")


def make_agent_act(make_agent: Callable[[], Any], seed: int, obs: Any) -> Any:
    agent = make_agent()
    agent.reset(seed)
    return agent.act(obs)


def _expect_illegal(world: Any, action: Any, when: str) -> None:
    try:
        world.step(action)
    except IllegalAction:
        return
    raise WorldContractError(f"action {action!r} was accepted {when}".rstrip())
