"""A worker's library error reaches the user as that error: every LogicAgentsError crosses a
process whole (type, words, file:line:col), so a game played in a child process fails the way
it would have failed in this one, not as a RuntimeError string."""

import inspect
import pickle

import pytest

from logic_agents import errors
from logic_agents.referee.clock import Caps
from logic_agents.referee.pool import run_child

SAMPLES = {
    errors.FormatError: errors.FormatError("bad cell 'x'", "maps/m.txt", 3, 7),
    errors.AgentFailed: errors.AgentFailed("my-agent", "act", "ValueError", "boom", step=4),
}


def every_error() -> list[errors.LogicAgentsError]:
    found = []
    for _, cls in inspect.getmembers(errors, inspect.isclass):
        if issubclass(cls, errors.LogicAgentsError):
            found.append(SAMPLES.get(cls) or cls(f"a {cls.__name__}"))
    return found


@pytest.mark.parametrize("error", every_error(), ids=lambda e: type(e).__name__)
def test_every_library_error_pickles_whole(error):
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error) and str(back) == str(error)


def test_an_error_raised_in_the_child_is_raised_here_as_itself():
    def child(clock):
        raise errors.FormatError("bad cell 'x'", "maps/m.txt", 3, 7)

    with pytest.raises(errors.FormatError, match=r"maps/m.txt:3:7: bad cell 'x'") as caught:
        run_child(child, Caps())
    assert (caught.value.file, caught.value.line, caught.value.col) == ("maps/m.txt", 3, 7)
