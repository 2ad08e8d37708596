"""docs/write-an-agent.md, run: the tutorial's agent (examples/my_agent.py) plays and is
compared through `--agent FILE.py:Class`, exactly as the tutorial says."""

import json
import subprocess
import sys

from logic_agents.cli import main

from .conftest import ROOT

AGENT = str(ROOT / "examples" / "my_agent.py")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_file_agent_plays_with_its_options_checked(capsys):
    code, out, _ = run(capsys, "play", str(ROOT / "maps/daggers/2018/EASY2.txt"), "--agent",
                       f"{AGENT}:MyAgent", "--json")
    result = json.loads(out)
    assert code == 0 and result["agent"] == "my-agent" and "queries" not in result
    code, _, err = run(capsys, "play", "EASY1", "--agent", f"{AGENT}:MyAgent", "--solver",
                       "glucose4")
    assert code == 2 and "does not take --solver" in err
    for bad, words in ((f"{AGENT}:Nope", "has no 'Nope'"), ("nofile.py:X", "no such file"),
                       ("no_such_module:X", "no module named"), ("EASY", "unknown agent")):
        code, _, err = run(capsys, "play", "EASY1", "--agent", bad)
        assert code == 2 and words in err and err.count("\n") == 1, (bad, err)


def test_a_wrapper_of_spx_wins_exactly_as_often_as_spx(capsys):
    code, out, _ = run(capsys, "compare", str(ROOT / "maps/daggers/2018"), "--agents",
                       f"spx,{AGENT}:Wrapper", "--runs", "5", "--json")
    agents = json.loads(out)["agents"]
    assert code == 0
    # a file agent is named by its own `name` (issue 27), not its path
    assert agents["spx"]["win_rate"] == agents["wrapper"]["win_rate"]
    assert agents["spx"]["games"] == 150


def test_the_tutorial_compare_runs_from_a_shell(tmp_path):
    out = tmp_path / "runs.csv"
    done = subprocess.run(
        [sys.executable, "-m", "logic_agents", "compare", "maps/daggers/2018", "--agents",
         "spx,satx,examples/my_agent.py:MyAgent", "--runs", "2", "--jobs", "2", "--out",
         str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "my-agent" in done.stdout and "examples/my_agent.py" not in done.stdout
    assert len(out.read_text().splitlines()) == 1 + 30 * 2 * 3


def test_a_file_agent_with_declared_options(capsys, tmp_path):
    source = tmp_path / "careful.py"
    source.write_text(
        "from logic_agents.world import Option\n"
        "from logic_agents.games.daggers import probe\n"
        "class Careful:\n"
        "    options = (Option('corner', bool, False, 'start in the corner'),)\n"
        "    def __init__(self, *, corner=False):\n"
        "        self.corner = corner\n"
        "    def reset(self, seed=None):\n"
        "        pass\n"
        "    def act(self, obs):\n"
        "        cells = obs.unknown_cells()\n"
        "        return probe(*(cells[0] if self.corner else cells[-1])) if cells else None\n")
    code, out, _ = run(capsys, "play", "EASY1", "--agent", f"{source}:Careful", "--corner",
                       "--json")
    assert code == 0 and json.loads(out)["agent"] == f"{source}:Careful"
    code, out, _ = run(capsys, "play", "EASY1", "--agent", f"{source}:Careful", "--help")
    # argparse wraps the help to the terminal: words are compared, not line breaks
    assert code == 0 and "--corner" in out and "start in the corner" in " ".join(out.split())


def test_compare_html_replays_every_kind_of_agent_the_docs_show(capsys, tmp_path):
    """Issue 39, item 1: the study page replays each row's agent; a file agent with its own
    `name`, one without, a module reference, a trusted one and a registered one all get
    their replay pages (the page once looked a row's display name up as an agent)."""
    faulty = f"{ROOT / 'tests' / 'agents' / 'faulty.py'}:Plain"
    trusted = f"{ROOT / 'tests' / 'agents' / 'cheats.py'}:PeeksThroughFrames"
    agents = ["spx", f"{AGENT}:MyAgent", faulty, "tests.agents.cheats:PeeksThroughGc", trusted]
    page = tmp_path / "study.html"
    code, _, err = run(capsys, "compare", "EASY1", "--agents", ",".join(agents), "--runs", "1",
                       "--jobs", "1", "--trust", trusted, "--html", str(page))
    assert code == 0, err
    replays = sorted(p.name for p in (tmp_path / "study_replays").iterdir())
    assert len(replays) == len(agents), replays
    assert "no replay" not in err and "study page:" in err
    text = page.read_text()
    for name in ("spx", "my-agent", "peek-gc", "peek-frames"):
        assert name in text
