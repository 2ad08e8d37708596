"""Map files: round-trip, computed clues, and located errors."""

import pytest

from logic_agents.errors import FormatError
from logic_agents.games.daggers.board import format_map, load, neighbours, parse

from ...conftest import MAPS


def test_thirty_official_maps_load_and_round_trip(official_maps):
    assert len(official_maps) == 30
    for name, m in official_maps.items():
        assert m.name == name
        assert parse(format_map(m)) == m
        assert m.start == (0, 0) and m.lives == 1
        assert m.token((0, 0)) in ("0", "g")
    sizes = {name[:4]: (m.height, m.total_daggers) for name, m in official_maps.items()}
    assert sizes == {"EASY": (5, 4), "MEDI": (8, 10), "HARD": (12, 25)}
    assert len(MAPS) == 30


def test_safe_cells_get_computed_clues():
    m = parse("name: t\nlives: 2\nstart: 2,2\n. . d\n. . .\n. . .\n")
    assert m.tokens == (("0", "1", "d"), ("0", "1", "1"), ("0", "0", "0"))
    assert m.lives == 2 and m.start == (2, 2)
    assert parse(format_map(m)) == m


def test_neighbours():
    table = neighbours(3, 4)
    assert len(table[(0, 0)]) == 3 and len(table[(1, 1)]) == 8 and len(table[(2, 3)]) == 3
    hexes = neighbours(3, 3, "hex")
    assert set(hexes[(1, 1)]) == {(0, 0), (0, 1), (1, 0), (1, 2), (2, 1), (2, 2)}
    assert set(hexes[(0, 0)]) == {(0, 1), (1, 0), (1, 1)}


def test_sweeper_family_headers_round_trip():
    text = ("name: t\npreset: tornado-small\ntopology: hex\nstart: 0,0 2,2\ngold: 0\n"
            ". . d\n. . .\nd . .\n")
    m = parse(text)
    assert m.topology == "hex" and m.starts == ((0, 0), (2, 2)) and m.preset == "tornado-small"
    # hex: [1][1] touches neither [0][2] nor [2][0]; on a square grid it would show 2
    assert m.tokens[1] == ("1", "0", "1")
    assert parse(format_map(m)) == m
    rect = parse(". . . . d\n. . . . .\n")
    assert (rect.height, rect.width) == (2, 5)


@pytest.mark.parametrize(
    "text,where,words",
    [
        ("0 1\n0 x\n", ":2:3:", "bad cell"),
        ("0 0 0\n0 0\n", ":2:4:", "row has 2 cells"),
        ("0 1 d\n0 1 1 1\n", ":2:7:", "row has 4 cells"),
        ("0 2 d\n0 1 1\n", ":1:3:", "clue 2"),
        ("g d\n1 1\n", ":1:1:", "gold"),
        ("d 1\n1 1\n", ":1:1:", "start cell"),
        ("colour: red\n0 0\n", ":1:1:", "unknown header"),
        ("lives: zero\n0 0\n", ":1:1:", "lives"),
        ("start: 5,5\n0 0\n", ":1:1:", "off the"),
        ("0 0\nname: late\n", ":2:1:", "after the grid"),
        ("# only a comment\n", ":0:0:", "no grid"),
        ("01 0\n", ":1:1:", "bad cell"),
        ("topology: triangle\n0 0\n", ":1:1:", "topology"),
        ("gold: 2\n0 0\n", ":1:1:", "gold"),
        ("start: 0,0 x\n0 0\n", ":1:1:", "start"),
        ("topology: hex\n7 d\n", ":2:1:", "clue 7"),
    ],
)
def test_bad_maps_are_located(text, where, words):
    with pytest.raises(FormatError) as err:
        parse(text, "m.txt")
    assert str(err.value).startswith("m.txt" + where), str(err.value)
    assert words in str(err.value)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(FormatError, match="no such map"):
        load(tmp_path / "none.txt")
    with pytest.raises(FormatError, match="directory"):
        load(tmp_path)
