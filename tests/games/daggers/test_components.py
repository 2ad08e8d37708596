"""A frontier component's enumeration: its class order is the documented one, and its
counts agree with brute force."""

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from logic_agents.games.daggers.components import components, enumerate_component


def reference_order(cons):
    """The order the search assigns classes in, as the docstring states it, the slow way: at
    each step the pending class under the most constraints touched so far, then under the
    most constraints, then the first."""
    by_cell = {}
    for i, (cells, _) in enumerate(cons):
        for c in cells:
            by_cell.setdefault(c, []).append(i)
    class_of = {}
    for c, owners in by_cell.items():
        class_of.setdefault(tuple(owners), []).append(c)
    classes = list(class_of.items())
    pending, touched, order = set(range(len(classes))), set(), []
    while pending:
        best = max(pending, key=lambda j: (len(touched & set(classes[j][0])),
                                           len(classes[j][0]), -j))
        order.append(classes[best])
        pending.discard(best)
        touched |= set(classes[best][0])
    return order


@st.composite
def constraint_sets(draw):
    """Clue-like constraints over a few cells: random neighbourhoods with feasible counts."""
    rng = random.Random(draw(st.integers(0, 10**9)))
    cells = [(r, c) for r in range(3) for c in range(4)]
    cons = []
    for _ in range(draw(st.integers(1, 6))):
        chosen = tuple(sorted(rng.sample(cells, rng.randint(1, 5))))
        cons.append((chosen, rng.randint(0, len(chosen))))
    return cons


@settings(max_examples=300, deadline=None)
@given(constraint_sets())
def test_classes_come_in_the_documented_order(cons):
    classes, _ = enumerate_component(cons)
    assert classes == reference_order(cons)


@settings(max_examples=300, deadline=None)
@given(constraint_sets())
def test_counts_agree_with_brute_force(cons):
    """W[k] placements of k daggers, and per class the daggers summed over them."""
    classes, table = enumerate_component(cons)
    cells = sorted({c for chosen, _ in cons for c in chosen})
    expected = {}
    for k in range(len(cells) + 1):
        for daggers in itertools.combinations(cells, k):
            chosen = set(daggers)
            if all(len(chosen & set(group)) == need for group, need in cons):
                weight, per_class = expected.setdefault(k, [0, [0] * len(classes)])
                expected[k][0] = weight + 1
                for j, (_, members) in enumerate(classes):
                    per_class[j] += len(chosen & set(members))
    assert {k: [w, e] for k, (w, e) in table.items()} == expected


def test_components_group_constraints_that_share_cells():
    cons = [(((0, 0), (0, 1)), 1), (((0, 1), (0, 2)), 1), (((5, 5),), 0)]
    assert sorted(sorted(g) for g in components(cons)) == [[0, 1], [2]]
