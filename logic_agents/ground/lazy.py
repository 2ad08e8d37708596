"""Names a package gives on first use (PEP 562), so that importing the package stays light.

Concepts: LazyNames(package, homes, moved): what a package's module-level `__getattr__` and
`__dir__` do. A name is imported from its home module when it is first read; a name that
moved raises an ImportError that names its new home; `dir()` lists every name, for tab
completion. The package imports its names under `if TYPE_CHECKING:` too, for type checkers
and editors.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any


class LazyNames:
    """A package's lazy names: {name: home module}, and {name: new home} of moved ones."""

    def __init__(self, package: str, homes: Mapping[str, str],
                 moved: Mapping[str, str] | None = None):
        self.package, self.homes, self.moved = package, dict(homes), dict(moved or {})

    def attribute(self, name: str) -> Any:  # whatever the home module holds
        """The package's `__getattr__`: the name from its home module, imported now."""
        if name in self.moved:
            raise ImportError(f"{self.package}.{name} moved: import it from {self.moved[name]}")
        if name not in self.homes:
            raise AttributeError(f"module {self.package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(self.homes[name]), name)

    def listed(self, present: Iterable[str]) -> list[str]:
        """The package's `__dir__`: the names it holds and the lazy ones."""
        return sorted(set(present) | set(self.homes))
