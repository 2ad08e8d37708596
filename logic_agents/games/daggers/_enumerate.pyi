"""The compiled kernel of prob's odds (_enumerate.c): a component's placements, by class."""

from typing import Any

def enumerate_component(cons: list[tuple[tuple[tuple[int, int], ...], int]], free: int | None,
                        ) -> tuple[list[tuple[tuple[int, ...], list[tuple[int, int]]]],
                                   dict[Any, list[Any]]] | None: ...
