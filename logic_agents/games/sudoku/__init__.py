"""Sudoku N x N: board (formats, is_solution) and encode (rules, solver). World and agents follow."""
