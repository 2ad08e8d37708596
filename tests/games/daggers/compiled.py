"""The skip of a test of a compiled part of prob (_enumerate.c, _endgame.c, _clues.c).

Such a test runs wherever the part was built. It skips only where the install had no C
compiler (the part is optional, and the Python path then serves, tested on its own); under
`make test` (CI_REQUIRE_KERNEL=1) it never skips, and a part that did not build fails
instead."""

from __future__ import annotations

import os
from types import ModuleType

import pytest

REQUIRED = bool(os.environ.get("CI_REQUIRE_KERNEL"))  # make test: every part must be built


def needs_built(compiled: ModuleType | None, what: str) -> pytest.MarkDecorator:
    """Skip the test where `compiled` (a module's COMPILED) was not built, unless required."""
    return pytest.mark.skipif(compiled is None and not REQUIRED,
                              reason=f"{what} is not built here (no C compiler at install)")
