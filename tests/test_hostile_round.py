"""A fixed slice of the hostile round (tests/hostile.py; `python scripts/hostile_round.py
--cases 10000` runs the whole one): the same 600 cases in every run, none of which may give
a raw exception, hang or silently change a study's rows."""

from __future__ import annotations

import warnings

import pytest

from tests.hostile import round_of


@pytest.mark.slow
def test_a_fixed_slice_of_the_hostile_round(tmp_path):
    warnings.simplefilter("ignore")
    verdicts = list(round_of(600, seed=2039, work=tmp_path))
    bad = [f"case {n} ({kind}): {v}" for n, (kind, v) in enumerate(verdicts, 1)
           if v not in ("ok", "refused")]
    assert not bad, "\n".join(bad)
    kinds = {kind for kind, _ in verdicts}
    assert kinds == {"api", "plugin", "results", "files"}
