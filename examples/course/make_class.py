#!/usr/bin/env python3
"""Make a class of Daggers submissions written the way students write them.

Each submission is one KIND of the mistakes and quirks a real class hands in (a crash on
some maps only, a hang, a `reset` without `seed`, a Moodle folder name, CRLF, numpy, a
helper module, a folder nested in itself, ...), and the working ones are agents of their own
(single-point reasoning, counting their moves). The first len(KINDS) students are each kind
once, in order; a bigger class goes on with a mix in which about one student in three fails,
as in the class issue 67 was found with (73 of 200).

Concepts:
- Kind: a key, what it is in words, the files it writes, and what the study must say of it
  (`expect`: "plays", "error" or "timeout"; `words`: text its first failure holds;
  `integrity`: the teacher's page flags it as a built-in agent).
- make_class(folder, size): writes the class, returns {folder name: Kind}.

Usage: python examples/course/make_class.py FOLDER [--size 44]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

OWN = '''"""My agent: single-point reasoning, counting its moves."""
{imports}from logic_agents.games.daggers.agents import SinglePointAgent


class Agent(SinglePointAgent):
    def reset(self, seed=None):
        super().reset(seed)
        self.moves = 0

    def act(self, observation):
        self.moves += 1
{before}        return super().act(observation)
'''


def own(imports: str = "", before: str = "") -> str:
    """A working agent of the student's own, with `imports` on top and `before` in act."""
    return OWN.format(imports=imports, before=before)


def broken(act_body: str, imports: str = "", signature: str = "self, observation",
           reset: str = "def reset(self, seed=None):") -> str:
    """An agent whose act is `act_body` (indented by 8)."""
    return (f"{imports}from logic_agents.games.daggers import COVERED, probe\n\n\n"
            f"class Agent:\n    {reset}\n        self.moves = 0\n\n"
            f"    def act({signature}):\n{act_body}")


FIRST_COVERED = ("        for r, row in enumerate(observation.grid):\n"
                 "            for c, value in enumerate(row):\n"
                 "                if value == COVERED:\n"
                 "                    return probe(r, c)\n")


@dataclass(frozen=True)
class Kind:
    key: str
    words: str  # what the submission is, for a person
    files: dict[str, str | bytes]  # path inside the student's folder -> its text
    expect: str = "plays"  # "plays", "error" or "timeout" (its every game)
    failure: str = ""  # text the grades' first failure holds
    integrity: bool = False  # the teacher is told it is a built-in agent
    folder: str = ""  # its folder's name, when not the key ("" -> the key)
    single_file: bool = False  # handed in as FOLDER.py, not FOLDER/agent.py
    some_maps: bool = False  # fails on some maps only
    extra: dict[str, str] = field(default_factory=dict)


KINDS: tuple[Kind, ...] = (
    # -- agents that play ----------------------------------------------------------------
    Kind("own", "an agent of its own", {"agent.py": own()}),
    Kind("helper", "imports a helper module of its folder",
         {"agent.py": own("from helpers import note\n", "        note(self.moves)\n"),
          "helpers.py": "def note(moves):\n    return moves + 1\n"}),
    Kind("single-file", "a single file, not a folder", {"agent.py": own()}, single_file=True),
    Kind("crlf", "written on Windows (CRLF)",
         {"agent.py": own().replace("\n", "\r\n").encode()}),
    Kind("bom", "saved with a byte-order mark",
         {"agent.py": b"\xef\xbb\xbf" + own().encode()}),
    Kind("moodle", "a Moodle folder name, spaces, ID and all",
         {"agent.py": own()}, folder="Zoë Müller_123456_assignsubmission_file_"),
    Kind("spaces", "a folder name with spaces", {"agent.py": own()}, folder="ann smith"),
    Kind("unicode", "a name out of ASCII", {"agent.py": own()}, folder="zoë_müller"),
    Kind("formula", "a name a spreadsheet would run", {"agent.py": own()}, folder="=2+3"),
    Kind("numpy", "uses numpy", {"agent.py": own("import numpy as np\n",
                                                 "        np.zeros(3)\n")}),
    Kind("escapes", "prints terminal escapes",
         {"agent.py": own(before="        print('\\x1b[31mthinking\\x1b[0m\\r', self.moves)\n")}),
    Kind("flood", "prints a flood", {"agent.py": own(before="        print('x' * 2000)\n")}),
    Kind("slow", "slow, within the caps",
         {"agent.py": own("import time\n", "        time.sleep(0.01)\n")}),
    Kind("data-file", "reads a data file beside it by its own path",
         {"agent.py": own("import json, pathlib\n",
                          "        json.loads((pathlib.Path(__file__).parent / "
                          "'weights.json').read_text())\n"),
          "weights.json": '{"w": 1}\n'}),
    Kind("tmp-cache", "keeps a cache in /tmp",
         {"agent.py": own("import os, tempfile\n",
                          "        with open(os.path.join(tempfile.gettempdir(), "
                          "'cache.txt'), 'a') as f:\n            f.write('.')\n")}),
    Kind("threads", "thinks in a thread",
         {"agent.py": own("import threading\n",
                          "        t = threading.Thread(target=lambda: None)\n"
                          "        t.start()\n        t.join()\n")}),
    Kind("first-covered", "probes the first covered cell, never reasons",
         {"agent.py": broken(FIRST_COVERED)}),
    Kind("stats-raise", "raises in stats(), after its game",
         {"agent.py": own() + "\n    def stats(self):\n        raise ValueError('oops')\n"}),
    # -- a built-in agent under another name -----------------------------------------------
    Kind("subclass", "subclasses a built-in agent and adds nothing",
         {"agent.py": "from logic_agents.games.daggers.prob import ProbAgent\n\n\n"
                      "class Agent(ProbAgent):\n    pass\n"}, integrity=True),
    Kind("wrapper", "wraps a built-in agent and hands each call on",
         {"agent.py": "from logic_agents.games.daggers.prob import ProbAgent\n\n\n"
                      "class Agent:\n    def __init__(self):\n        self.inner = ProbAgent()\n\n"
                      "    def reset(self, seed=None):\n        self.inner.reset(seed)\n\n"
                      "    def act(self, observation):\n"
                      "        return self.inner.act(observation)\n"}, integrity=True),
    Kind("alias", "imports a built-in agent as its class",
         {"agent.py": "from logic_agents.games.daggers.prob import ProbAgent as Agent\n"},
         integrity=True),
    # -- does not read -----------------------------------------------------------------------
    Kind("syntax", "does not parse", {"agent.py": "class Agent\n    pass\n"}, "error",
         "SyntaxError"),
    Kind("python2", "a Python 2 print", {"agent.py": 'print "hello"\n'}, "error",
         "SyntaxError"),
    Kind("tabs", "mixes tabs and spaces",
         {"agent.py": "class Agent:\n    def reset(self, seed=None):\n\tpass\n"}, "error",
         "Error"),
    Kind("no-module", "imports a package the course did not install",
         {"agent.py": "import scipy_never_installed\n" + own()}, "error",
         "ModuleNotFoundError"),
    Kind("import-crash", "raises while its module is read",
         {"agent.py": "raise RuntimeError('half done')\n"}, "error", "half done"),
    Kind("import-hang", "loops while its module is read",
         {"agent.py": "while True:\n    pass\n"}, "error", "in reading its module"),
    Kind("wrong-class", "names its class otherwise",
         {"agent.py": own().replace("class Agent(", "class MyAgent(")}, "error", "MyAgent"),
    Kind("empty", "an empty agent.py", {"agent.py": ""}, "error", "Agent"),
    Kind("main-py", "handed in main.py, not agent.py", {"main.py": own()}, "error", "main.py"),
    Kind("nested", "a folder nested in itself",
         {"nested/agent.py": own()}, "error", "nested/agent.py"),
    Kind("no-files", "an empty folder", {}, "error", "agent.py"),
    # -- breaks while it plays ---------------------------------------------------------------
    Kind("init-raise", "raises in __init__",
         {"agent.py": own().replace("    def reset", "    def __init__(self):\n"
                                    "        raise ValueError('no init')\n\n    def reset")},
         "error", "in __init__"),
    Kind("reset-no-seed", "`def reset(self):`",
         {"agent.py": broken(FIRST_COVERED, reset="def reset(self):")}, "error",
         "reset() must take seed"),
    Kind("act-no-obs", "`def act(self):`", {"agent.py": broken("        return None\n",
                                                               signature="self")},
         "error", "act() must take"),
    Kind("act-extra", "act wants a second argument",
         {"agent.py": broken(FIRST_COVERED, signature="self, observation, info")}, "error",
         "act() must take"),
    Kind("some-maps", "crashes on big maps only",
         {"agent.py": broken("        if len(observation.grid) > 5:\n"
                             "            raise IndexError('my grid is 5 wide')\n"
                             + FIRST_COVERED)}, "error", "IndexError", some_maps=True),
    Kind("act-raise", "indexes past a tuple",
         {"agent.py": broken("        pair = (1, 2)\n        return pair[5]\n")}, "error",
         "IndexError"),
    Kind("illegal", "probes a cell twice", {"agent.py": broken("        return probe(0, 0)\n")},
         "error", "IllegalAction"),
    Kind("returns-text", "returns text, not an action",
         {"agent.py": broken("        return '0 0'\n")}, "error", "act"),
    Kind("library", "fails inside a library it calls",
         {"agent.py": broken("        return json.loads('not json')\n", "import json\n")},
         "error", "JSONDecodeError"),
    Kind("hang", "loops forever in act", {"agent.py": broken("        while True:\n"
                                                             "            pass\n")},
         "timeout", "move cap"),
    Kind("memory", "holds more than the memory cap",
         {"agent.py": broken("        hog = bytearray(2 ** 31)\n        return hog\n")},
         "error", "memory"),
    Kind("pool", "starts a multiprocessing.Pool",
         {"agent.py": broken("        with multiprocessing.Pool(64) as pool:\n"
                             "            pool.map(abs, range(64))\n" + FIRST_COVERED,
                             "import multiprocessing\n")}, "error", "--max-processes"),
    Kind("exit", "calls os._exit", {"agent.py": broken("        os._exit(3)\n", "import os\n")},
         "error", "exit code 3"),
    Kind("recursion", "recurses without end",
         {"agent.py": broken("        return self.act(observation)\n")}, "error",
         "RecursionError"),
    Kind("input", "asks for input()", {"agent.py": broken("        return input()\n")},
         "error", "EOFError"),
)


def folder_of(kind: Kind) -> str:
    return kind.folder or kind.key


def write_kind(root: Path, kind: Kind, name: str) -> None:
    """Write one student's submission under `root`, as `name`."""
    if kind.single_file:
        text = kind.files["agent.py"]
        path = root / f"{name}.py"
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
        return
    folder = root / name
    folder.mkdir(parents=True)
    for relative, text in kind.files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode())


def make_class(root: Path, size: int = len(KINDS)) -> dict[str, Kind]:
    """Write `size` submissions into `root` (made); {each one's name: its Kind}.

    Students 0 to len(KINDS) - 1 are each kind once; past them, two in three are the kinds
    that play and one in three a kind that fails, in turn, each under a folder of its own.
    """
    root.mkdir(parents=True, exist_ok=True)
    playing = [k for k in KINDS if k.expect == "plays" and not k.folder and not k.integrity]
    failing = [k for k in KINDS if k.expect != "plays"]
    made: dict[str, Kind] = {}
    for index in range(size):
        if index < len(KINDS):
            kind = KINDS[index]
            name = folder_of(kind)
        else:
            extra = index - len(KINDS)
            pool = failing if extra % 3 == 2 else playing
            kind = pool[(extra // 3 if pool is failing else extra - extra // 3) % len(pool)]
            name = f"s{index:03d}-{kind.key}"
        write_kind(root, kind, name)
        made[name] = kind
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="where the class goes (made)")
    parser.add_argument("--size", type=int, default=len(KINDS),
                        help=f"students (default {len(KINDS)}: each kind once)")
    args = parser.parse_args()
    if args.folder.exists() and any(args.folder.iterdir()):
        sys.exit(f"make_class.py: {args.folder} is not empty")
    made = make_class(args.folder, args.size)
    failing = sum(k.expect != "plays" for k in made.values())
    print(f"{len(made)} submissions in {args.folder}, {failing} of them failing")


if __name__ == "__main__":
    main()
