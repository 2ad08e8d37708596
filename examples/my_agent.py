"""A Daggers agent of your own, in the tell/ask shape of aima-python's knowledge-based agent.

    logic-agents play maps/daggers/2018/EASY1.txt --agent examples/my_agent.py:MyAgent
    logic-agents compare maps/daggers/2018 --agents spx,satx,examples/my_agent.py:MyAgent

The walk-through is docs/write-an-agent.md.
"""

import random

from logic_agents.games.daggers import probe
from logic_agents.logic import Exactly, KnowledgeBase, SatOracle, sym


def dagger(cell):
    """The proposition "this cell holds a dagger" (named D_<row>_<col> in the CNF)."""
    return sym(("D", *cell))


class MyAgent:
    """Tell the knowledge base what each move shows; probe a cell it proves safe, else guess."""

    name = "my-agent"

    def reset(self, seed=None):
        self.rng = random.Random(seed)
        self.kb = KnowledgeBase()
        self.oracle = SatOracle(self.kb)  # one incremental solver for the whole game
        self.told = set()
        self.guesses = 0

    def act(self, obs):
        for cell in obs.cells():  # TELL: every clue shown since the last move
            clue = obs.clue(cell)
            if clue is not None and cell not in self.told:
                self.told.add(cell)
                around = [dagger(n) for n in obs.neighbours[cell]]
                self.kb.tell(~dagger(cell), Exactly(clue, *around))
        covered = obs.unknown_cells()
        frontier = [c for c in covered if any(n in self.told for n in obs.neighbours[c])]
        for cell in frontier:  # ASK: does the KB entail that this cell is safe?
            if self.oracle.entails(~dagger(cell)):
                return probe(*cell)  # ACT on a proof
        self.guesses += 1  # no proof: guess
        return probe(*self.rng.choice(covered)) if covered else None

    def stats(self):
        return {"guesses": self.guesses, "queries": self.oracle.calls}

    def close(self):
        self.oracle.close()


class Wrapper:
    """Hands every call to the registered spx agent, so its results must equal spx's."""

    name = "wrapper"

    def __init__(self):
        import logic_agents

        self.inner = logic_agents.make_agent("spx", game="daggers")

    def reset(self, seed=None):
        self.inner.reset(seed)

    def act(self, observation):
        return self.inner.act(observation)

    def stats(self):
        return self.inner.stats()
