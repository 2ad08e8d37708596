"""One room per game, each with the same parts: board, world, encode, agents, render."""
