"""Ooze: the timed pipe-laying game (RULES.md §4). Work in progress: rules and world."""
