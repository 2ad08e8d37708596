"""A Sudoku agent of your own: one model of the rules and the grid so far, written out
cell by cell (docs/write-an-agent.md).

    logic-agents play norvig_top95:3 --agent examples/sudoku_agent.py:OneModel
"""

from logic_agents.games.sudoku import SudokuPuzzle, SudokuSolver, place


class OneModel:
    name = "one-model"

    def reset(self, seed=None):
        self.todo = []

    def act(self, obs):
        if not self.todo:
            with SudokuSolver(obs.n) as sat:
                grid = sat.solve(SudokuPuzzle(obs.n, obs.cells))
            if grid is None:
                return None
            self.todo = [place(i // obs.n, i % obs.n, v)
                         for i, v in enumerate(grid) if obs.cells[i] != v]
        return self.todo.pop(0) if self.todo else None
