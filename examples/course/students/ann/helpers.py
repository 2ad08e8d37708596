from logic_agents.games.daggers import COVERED, probe


def first_covered(obs):
    for r, row in enumerate(obs.grid):
        for c, value in enumerate(row):
            if value == COVERED:
                return probe(r, c)
    return None
