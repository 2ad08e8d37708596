"""A course, round two (issue 67): a real class's mistakes never end the study's outputs, and
each failure is said at the student's own line.

- `def reset(self):` without `seed` played every game, then ended `--html` with `a 'end'
  record before 'begin'` (no page, no pairs) and named `logic_agents/world/seat.py:96`.
- An error in a library the agent called named the library's file, not the student's line.
- A replay that fails is that student's note; the page is always written.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from logic_agents.cli import main
from logic_agents.errors import SignatureError
from logic_agents.study.rows import read_rows
from logic_agents.world.calls import agent_frames
from logic_agents.world.seat import Seat

BASE = "from logic_agents.games.daggers.agents import SinglePointAgent\n\n\n"
STUDENTS = {
    "ann": BASE + "class Agent(SinglePointAgent):\n    def reset(self):\n        pass\n",
    "bob": BASE + "class Agent(SinglePointAgent):\n    pass\n",
    "cat": BASE + "class Agent(SinglePointAgent):\n    def act(self):\n        return None\n",
    "dan": "import json\n" + BASE + "class Agent(SinglePointAgent):\n"
           "    def act(self, observation):\n        return json.loads('not json')\n",
}


@pytest.fixture
def students(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, source in STUDENTS.items():
        (tmp_path / "students" / name).mkdir(parents=True)
        (tmp_path / "students" / name / "agent.py").write_text(source)
    monkeypatch.chdir(tmp_path)  # as a teacher runs it: relative paths from the course folder
    return tmp_path


@pytest.mark.slow
def test_a_bad_signature_costs_its_student_only_and_is_said_at_their_line(students, capsys):
    code = main(["compare", "EASY1", "EASY2", "--submissions", "students", "--runs", "1",
                 "--out", "runs.csv", "--html", "class.html", "--grades", "grades.csv",
                 "--sandbox", "none"])
    err = capsys.readouterr().err
    assert code == 3, err  # some agents failed; every output was written
    rows = {(r.agent, r.map): r for r in read_rows(Path("runs.csv"))}
    ann, cat, dan = rows["ann", "EASY1"], rows["cat", "EASY1"], rows["dan", "EASY1"]
    assert ann.outcome == cat.outcome == dan.outcome == "error"
    assert ann.error.startswith("SignatureError: reset() must take seed: write "
                                "`def reset(self, seed=None):` (yours is `def reset(self):`)")
    assert "students/ann/agent.py:5 in reset: def reset(self):" in ann.error, ann.error
    assert cat.error.startswith("SignatureError: act() must take the observation: write "
                                "`def act(self, observation):` (yours is `def act(self):`)")
    assert "students/cat/agent.py:5 in act" in cat.error, cat.error
    # the library's error at the student's line, not json/decoder.py's
    assert dan.error.startswith("JSONDecodeError") and "students/dan/agent.py:7 in act" in \
        dan.error, dan.error
    for row in rows.values():
        assert "logic_agents/" not in row.error and str(students) not in row.error
        assert "json/" not in row.error, row.error
    page = Path("class.html").read_text()
    assert "ann" in page and "bob" in page  # the page was written, every student on it
    replays = sorted(p.name for p in Path("class_replays").iterdir())
    assert any("-ann-" in name for name in replays), replays  # replayed up to the failure
    with open("grades.csv", newline="", encoding="utf-8-sig") as f:
        assert {r["agent"] for r in csv.DictReader(f)} == set(STUDENTS)


def test_a_replay_that_fails_is_a_note_and_the_page_is_written(students, capsys, monkeypatch):
    import logic_agents.web.study as study_page

    real = study_page.draw_replay

    def breaks_on_bob(row, *rest, **kw):
        if row.agent == "spx-2":  # bob's SinglePointAgent, renamed
            raise RuntimeError("the replay broke")
        return real(row, *rest, **kw)

    monkeypatch.setattr(study_page, "draw_replay", breaks_on_bob)
    code = main(["compare", "EASY1", "--agents", "spx,students/bob/agent.py:Agent",
                 "--runs", "1", "--html", "class.html", "--sandbox", "none"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert re.search(r"note: spx-2 on EASY1 run 0: no replay page \(RuntimeError: the "
                     r"replay broke\)", err), err
    assert "study page: class.html" in err and Path("class.html").exists()
    assert "the replay broke" in Path("class.html").read_text()


class _NoSeed:
    def reset(self):
        pass

    def act(self, observation):
        return None


class _RaisesTypeError:
    def reset(self, seed=None):
        raise TypeError("my own bug")

    def act(self, observation):
        return None


def test_only_a_call_the_signature_refuses_is_a_signature_error():
    with pytest.raises(SignatureError) as raised:
        Seat(_NoSeed()).reset(3)
    assert str(raised.value) == ("reset() must take seed: write `def reset(self, seed=None):` "
                                 "(yours is `def reset(self):`)")
    file, line, name = raised.value.defined_at
    assert file == __file__ and name == "reset"
    assert "def reset(self):" in Path(file).read_text().splitlines()[line - 1]
    assert f"{Path(__file__).name}\", line {line}, in reset" in agent_frames(raised.value)
    with pytest.raises(TypeError, match="my own bug") as own:
        Seat(_RaisesTypeError()).reset(3)
    assert not isinstance(own.value, SignatureError)


def test_frames_keep_the_agents_lines_not_the_librarys():
    def agent_act():
        return json.loads("not json")

    try:
        agent_act()
    except ValueError as e:
        frames = agent_frames(e)
    assert "in agent_act" in frames and "json" + "/decoder.py" not in frames, frames


def test_a_study_not_on_a_terminal_says_how_far_it_is(capsys, monkeypatch):
    """17.5 minutes of silence in a log: a study whose output is not a terminal now says,
    once a minute (every row here), how many games are done, the rate, what is left and how
    many agents fail so far."""
    import logic_agents.cli.study_progress as study_progress

    monkeypatch.setattr(study_progress, "PROGRESS_LINE_S", 0.0)
    assert main(["compare", "EASY1", "EASY2", "--agents", "spx,rpx", "--runs", "1"]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines()
             if line.startswith("progress: ")]
    assert len(lines) == 4 and lines[-1].startswith("progress: 4 of 4 games (100%), "), lines
    assert lines[-1].endswith("about 0 s left; 0 agent(s) failing so far"), lines


def test_a_progress_line_reads_as_a_person_would_say_it():
    from logic_agents.cli.study_progress import progress_line

    assert progress_line(1000, 4040, 200.0, 3) == (
        "progress: 1,000 of 4,040 games (25%), 5.0 a second, about 10 min left; 3 agent(s) "
        "failing so far")


# -- "play it again" plays it again --------------------------------------------------------------
ODD = BASE + '''class Agent(SinglePointAgent):
    name = "odd"

    def reset(self, seed=None):
        super().reset(seed)
        self.fails = seed is not None and seed % 2 == 1  # its own seed, not the world's

    def act(self, observation):
        if self.fails:
            raise RuntimeError("an odd seed")
        return super().act(observation)
'''


def _played_again(command: str, capsys) -> tuple[str, int]:
    import shlex

    words = shlex.split(command)
    assert words[:2] == ["logic-agents", "play"], command
    main([*words[1:], "--json", "--sandbox", "none"])
    result = json.loads(capsys.readouterr().out)
    return result["outcome"], result["steps"]


@pytest.mark.slow
@pytest.mark.parametrize("with_record", [True, False])
def test_every_play_it_again_command_plays_the_game_again(tmp_path, monkeypatch, capsys,
                                                          with_record):
    """The page's command named a map by its name (which `play` cannot find for a held-out
    file or a generated board), left the caps out and gave the agent another seed. Each
    command is run here and ends as the study's game did: with the results file, from its
    record (a generated board too); without one, from the map's file, caps and agent seed
    spelled out."""
    from logic_agents.cli.common import caps_of
    from logic_agents.cli.study_outputs import play_again
    from logic_agents.referee.clock import Caps
    from logic_agents.study.entries import entries_from_references
    from logic_agents.world.registry import get_game
    from logic_agents.world.seeds import study_key

    monkeypatch.chdir(tmp_path)
    (tmp_path / "held-out").mkdir()
    for name in ("EASY1", "EASY2"):  # a held-out folder: maps play knows by no name
        text = (Path(__file__).resolve().parent.parent / "logic_agents" / "maps" / "daggers" /
                "2018" / f"{name}.txt").read_text()
        (tmp_path / "held-out" / f"hidden-{name.lower()}.txt").write_text(
            text.replace(f"name: {name}", f"name: hidden-{name.lower()}"))
    (tmp_path / "odd.py").write_text(ODD)
    argv = ["compare", "held-out", "--agents", "spx,rpx,odd.py:Agent", "--runs", "3",
            "--seed", "12", "--sandbox", "none", "--move-timeout", "7", "--json"]
    if with_record:
        argv += ["--generate", "beginner", "--count", "1", "--out", "runs.csv"]
    main(argv)
    capsys.readouterr()
    spec = get_game("daggers")
    entries = entries_from_references(["held-out"], spec)
    rows = [r for r in read_rows(Path("runs.csv"))] if with_record else None
    if rows is None:  # no results file: the study's rows, from its JSON's absence, played
        from logic_agents.referee.isolation import Isolation
        from logic_agents.study import batch

        rows = batch.compare(["spx", "rpx", "odd.py:Agent"], entries, runs=3, seed=12,
                             isolation=Isolation(sandbox="none"),
                             caps=Caps(move_timeout=7))
    again = play_again({"odd": "odd.py:Agent"}, "daggers", "runs.csv" if with_record else None,
                       entries, Caps(move_timeout=7), study_key(12))
    assert {r.outcome for r in rows if r.agent == "odd"} >= {"error"}  # some seeds are odd
    assert any(r.outcome == "won" for r in rows if r.agent == "odd")
    for row in rows:
        command = again(row)
        if not with_record:
            assert "--move-timeout 7" in command and "held-out/hidden-" in command, command
        assert _played_again(command, capsys) == (row.outcome, row.steps), (command, row)
    if with_record:
        assert any(r.map.startswith("beginner") or "s0" in r.map for r in rows
                   if r.map not in ("hidden-easy1", "hidden-easy2"))
    del caps_of


# -- feedback to hand back ------------------------------------------------------------------------
def test_each_student_gets_a_folder_of_their_own_feedback(students, capsys):
    """One folder per agent, named in the student's own letters, with their own page (rank
    among the class, never another name; each failure at their line, its replay copied in,
    a command a student can run) and Gradescope's results.json; `report` writes the same
    from the results file alone."""
    (students / "students" / "zoë müller").mkdir()
    (students / "students" / "zoë müller" / "agent.py").write_text(STUDENTS["bob"])
    code = main(["compare", "EASY1", "EASY2", "--submissions", "students", "--runs", "1",
                 "--out", "runs.csv", "--html", "class.html", "--feedback", "feedback",
                 "--sandbox", "none"])
    err = capsys.readouterr().err
    assert code == 3 and "feedback: feedback (5 folders, one per agent)" in err, err
    names = {*STUDENTS, "zoë müller"}
    assert {p.name for p in Path("feedback").iterdir()} == names
    for name in names:
        own = Path("feedback") / name
        page = (own / "index.html").read_text()
        results = json.loads((own / "results.json").read_text())
        assert re.search(r"rank \d of 5; 2 games", page), page
        body = page.split("<body", 1)[1]  # (its style sheet says "truncated")
        for other in names - {name}:  # no other student's name (nor their folder's)
            said = re.compile(rf"\b{re.escape(other)}\b")
            assert not said.search(body) and not said.search(
                json.dumps(results, ensure_ascii=False)), (name, other)
        assert {"score", "output", "visibility", "tests"} <= set(results)
        assert [t["name"] for t in results["tests"]] == ["2018/EASY1", "2018/EASY2"]
        assert all(t["max_score"] == 1 for t in results["tests"])
    ann = (Path("feedback") / "ann" / "index.html").read_text()
    assert "reset() must take seed" in ann and "students/ann/agent.py:5" in ann
    replays = list((Path("feedback") / "ann" / "replays").iterdir())
    assert len(replays) == 2 and all(f'href="replays/{p.name}"' in ann for p in replays)
    assert "Play it again: <code>logic-agents play maps/daggers/2018/EASY1.txt" in ann, ann
    assert "--agent-seed" in ann and "--study" not in ann  # what a student can run
    first = {n: (Path("feedback") / n / "results.json").read_text() for n in names}
    assert main(["report", "runs.csv", "--feedback", "again"]) == 0
    for name in names:  # from the results file: the same results
        again = json.loads((Path("again") / name / "results.json").read_text())
        assert again["score"] == json.loads(first[name])["score"]


@pytest.mark.parametrize("agent, folder", [
    ("zoë_müller", "zoë_müller"), ("a/b", "a_b"), (".hidden", "_hidden"), ("=2+3", "=2+3"),
    ("tab\there", "tab_here"), ("", "_"), ("con:1", "con_1")])
def test_a_feedback_folder_keeps_the_students_letters(agent, folder):
    from logic_agents.study.feedback import folder_name

    assert folder_name(agent) == folder


# -- privacy: a public page names no student -------------------------------------------------------
def test_a_public_page_shows_aliases_and_each_student_learns_their_own(students, capsys):
    """Moodle's folder names carry full names and IDs: --public shows each student under an
    alias, stable for the study (compare and report agree), the game's own agents by name;
    --aliases FILE.csv gives the teacher's own, --real-names the names. Each student's
    feedback says which alias is theirs."""
    common = ["--submissions", "students", "--agents", "spx", "--runs", "1", "--sandbox", "none"]
    assert main(["compare", "EASY1", *common, "--out", "runs.csv", "--html", "public.html",
                 "--public", "--feedback", "feedback"]) == 3
    capsys.readouterr()
    page = Path("public.html").read_text().split("<body", 1)[1]
    shown = sorted(set(re.findall(r"student-[0-9a-f]{6}", page)))
    assert len(shown) == len(STUDENTS) and ">spx<" in page
    for name in STUDENTS:
        assert not re.search(rf"\b{name}\b", page), name
        own = (Path("feedback") / name / "index.html").read_text()
        said = re.search(r"public page you are <b>(student-[0-9a-f]{6})</b>", own)
        assert said and said.group(1) in shown
    assert main(["report", "runs.csv", "--html", "again.html", "--public"]) == 0
    assert sorted(set(re.findall(r"student-[0-9a-f]{6}", Path("again.html").read_text()))) \
        == shown
    Path("aliases.csv").write_text("name,alias\nann,Ada\nbob,Bea\n")
    assert main(["report", "runs.csv", "--html", "chosen.html", "--public", "--aliases",
                 "aliases.csv"]) == 0
    chosen = Path("chosen.html").read_text().split("<body", 1)[1]
    assert ">Ada<" in chosen and ">Bea<" in chosen and not re.search(r"\bann\b", chosen)
    assert main(["report", "runs.csv", "--html", "named.html", "--public",
                 "--real-names"]) == 0
    assert re.search(r"\bann\b", Path("named.html").read_text().split("<body", 1)[1])
    capsys.readouterr()
    Path("bad.csv").write_text("name,alias\nann,Ada\nbob,Ada\n")
    assert main(["report", "runs.csv", "--html", "x.html", "--public", "--aliases",
                 "bad.csv"]) == 2
    assert "bad.csv:3:2: the alias 'Ada' is given on line 2 too" in capsys.readouterr().err
    assert main(["report", "runs.csv", "--aliases", "aliases.csv"]) == 2
    assert "give --public" in capsys.readouterr().err


def test_a_roster_joins_ids_into_the_grades(students, capsys):
    """Grades keyed by folder name could not be joined to an LMS: --roster FILE.csv adds its
    columns (an ID, an e-mail) by name; a roster name without an agent is a note; a bad
    roster is refused at its file:line:col before any game."""
    Path("roster.csv").write_text("\ufeffname,student_id,email\nann,s001,ann@uni.example\n"
                                  "bob,s002,bob@uni.example\nkim,s009,kim@uni.example\n")
    assert main(["compare", "EASY1", "--submissions", "students", "--runs", "1", "--sandbox",
                 "none", "--grades", "grades.csv", "--roster", "roster.csv"]) == 3
    err = capsys.readouterr().err
    assert "note: --roster: 1 name(s) of the roster have no agent in the study: kim" in err
    with open("grades.csv", newline="", encoding="utf-8-sig") as f:
        grades = {g["agent"]: g for g in csv.DictReader(f)}
    assert grades["ann"]["student_id"] == "s001" and grades["bob"]["email"] == "bob@uni.example"
    assert grades["cat"]["student_id"] == ""
    Path("bad.csv").write_text("name,student_id\nann,s001\nann,s002\n")
    assert main(["compare", "EASY1", "--submissions", "students", "--grades", "g.csv",
                 "--roster", "bad.csv"]) == 2
    assert "bad.csv:3:1: 'ann' is on an earlier line too" in capsys.readouterr().err
    assert main(["report", "x.csv", "--roster", "roster.csv"]) == 2
    assert "give --grades" in capsys.readouterr().err


# -- integrity hints -----------------------------------------------------------------------------
COPIES = {
    "eve": "from logic_agents.games.daggers.agents import ProbAgent as Agent\n",
    "fay": "from logic_agents.games.daggers.agents import ProbAgent\n\n\n"
           "class Agent:\n    def __init__(self):\n        self.inner = ProbAgent()\n\n"
           "    def reset(self, seed=None):\n        self.inner.reset(seed)\n\n"
           "    def act(self, observation):\n        return self.inner.act(observation)\n",
    "gus": BASE + "class Agent(SinglePointAgent):\n    \"\"\"Mine.\"\"\"\n    name = 'gus'\n\n"
           "    def act(self, observation):\n        return super().act(observation)\n",
}


def test_a_submission_that_is_a_builtin_agent_is_flagged_for_the_teacher(students, capsys):
    """Five students whose agent was `class Agent(ProbAgent): pass` ranked first and nothing
    said so: the grades and the teacher's page carry an integrity hint (never the public
    page); an agent with code of its own has none."""
    for name, source in COPIES.items():
        (students / "students" / name).mkdir()
        (students / "students" / name / "agent.py").write_text(source)
    main(["compare", "EASY1", "--submissions", "students", "--runs", "1", "--sandbox", "none",
          "--grades", "grades.csv", "--html", "class.html", "--out", "runs.csv"])
    capsys.readouterr()
    with open("grades.csv", newline="", encoding="utf-8-sig") as f:
        hints = {g["agent"]: g["integrity"] for g in csv.DictReader(f)}
    assert hints["bob"] == "class Agent(SinglePointAgent) defines no method: it plays as " \
                           "SinglePointAgent does"
    assert hints["eve"] == "Agent is logic-agents' ProbAgent, imported under another name"
    assert hints["fay"] == "class Agent wraps ProbAgent: each of its methods hands the call on"
    assert hints["gus"].startswith("class Agent(SinglePointAgent): each method it defines "
                                   "only hands the call on")
    assert hints["ann"] == hints["cat"] == hints["dan"] == ""  # code of their own
    page = Path("class.html").read_text()
    assert "eve: Agent is logic-agents&#x27; ProbAgent" in page or \
        "eve: Agent is logic-agents' ProbAgent" in page
    assert main(["report", "runs.csv", "--html", "public.html", "--public"]) == 0
    assert "integrity hint" not in Path("public.html").read_text()


def test_a_hint_never_runs_the_submission(tmp_path):
    from logic_agents.study.integrity import builtin_copy

    bomb = tmp_path / "bomb.py"
    bomb.write_text("raise SystemExit('ran')\nclass Agent:\n    pass\n")
    assert builtin_copy(f"{bomb}:Agent") == ""  # read as text: nothing ran, nothing to say
    (tmp_path / "deep.py").write_text("x = " + "(" * 5000 + ")" * 5000 + "\n")
    assert builtin_copy(f"{tmp_path / 'deep.py'}:Agent") == ""
    assert builtin_copy("no-such.py:Agent") == ""


# -- regrading one student -----------------------------------------------------------------------
@pytest.mark.slow
def test_only_regrades_one_student_reading_their_module_alone(students, capsys):
    """One fix re-read all 200 modules and re-played every student's failures; a changed
    file whose games were losses kept the old file's grade. --only NAME reads that module
    alone and plays that student's games alone (all of them: the file changed); every other
    row stands; the record keeps the regrade's hashes and figures before and after."""
    reads = Path("reads.log")
    (students / "students" / "bob" / "agent.py").write_text(
        f"open({str(reads.resolve())!r}, 'a').write('bob\\n')\n" + STUDENTS["bob"])
    common = ["compare", "EASY1", "EASY2", "--submissions", "students", "--runs", "2",
              "--sandbox", "none", "--out", "runs.csv"]
    assert main(common) == 3
    first = {r.key: r for r in read_rows(Path("runs.csv"))}
    read_before = reads.read_text().count("bob")
    assert read_before >= 1 and all(r.outcome == "error" for r in first.values()
                                    if r.agent == "ann")
    (students / "students" / "ann" / "agent.py").write_text(STUDENTS["bob"])  # ann's fix
    capsys.readouterr()
    # exit 0: the regrade answers for ann alone (cat's failures were said by the study)
    assert main([*common, "--resume", "--only", "ann"]) == 0
    after = {r.key: r for r in read_rows(Path("runs.csv"))}
    assert reads.read_text().count("bob") == read_before  # no other module was read
    assert set(after) == set(first)  # one row a game, every game
    assert all(after[k] == first[k] for k in first if k[0] != "ann")  # the others' stand
    assert all(after[k].outcome in ("won", "lost") for k in first if k[0] == "ann")
    record = json.loads(Path("runs.csv.study.json").read_text())
    (regrade,) = record["regrades"]
    assert regrade["agent"] == "ann" and regrade["file_changed"] is True
    assert regrade["before"] == {"games": 4, "wins": 0, "errors": 4, "timeouts": 0}
    assert regrade["after"]["errors"] == 0 and regrade["after"]["games"] == 4
    assert main(["report", "runs.csv"]) == 0  # the file reads back whole
    # a second fix, whose old games were won or lost (no error): played again all the same
    (students / "students" / "ann" / "agent.py").write_text(
        "class Agent:\n    def reset(self, seed=None):\n        pass\n\n"
        "    def act(self, observation):\n        return None\n")
    assert main([*common, "--resume", "--only", "ann"]) == 0
    again = read_rows(Path("runs.csv"))
    assert sorted(r.outcome for r in again if r.agent == "ann") == ["gave_up"] * 4
    assert len({r.key for r in again}) == len(again)  # its old rows went first: one a game
    assert [g["agent"] for g in json.loads(
        Path("runs.csv.study.json").read_text())["regrades"]] == ["ann", "ann"]
    assert main(["report", "runs.csv"]) == 0
    capsys.readouterr()
    assert main([*common, "--resume", "--only", "nobody"]) == 2
    assert "--only nobody: no agent of this command is named so (it names ann, bob" in \
        capsys.readouterr().err
    assert main([*common[:-2], "--out", "other.csv", "--only", "ann"]) == 2
    assert "give --out FILE --resume" in capsys.readouterr().err


def test_agent_output_keeps_the_students_letters_and_no_empty_files(students, capsys):
    """--agent-output wrote 193 empty files and mangled zoë_müller into zo__m_ller: a file is
    made at an agent's first line, under its own name."""
    (students / "students" / "zoë müller").mkdir()
    (students / "students" / "zoë müller" / "agent.py").write_text(
        BASE + "class Agent(SinglePointAgent):\n    def act(self, observation):\n"
        "        print('thinking')\n        return super().act(observation)\n")
    main(["compare", "EASY1", "--submissions", "students", "--runs", "1", "--sandbox", "none",
          "--agent-output", "said"])
    capsys.readouterr()
    assert sorted(p.name for p in Path("said").iterdir()) == ["zoë müller.txt"]
    assert "thinking" in (Path("said") / "zoë müller.txt").read_text()


def test_the_terminal_and_the_grades_name_the_same_first_failure(students, capsys):
    """The terminal named the first failure to end, the grades the first by map and run:
    both now name the first by map, then run (whatever order the games ended in)."""
    main(["compare", "EASY2", "EASY1", "MEDIUM1", "--submissions", "students", "--runs", "2",
          "--jobs", "2", "--sandbox", "none", "--grades", "grades.csv"])
    err = capsys.readouterr().err
    with open("grades.csv", newline="", encoding="utf-8-sig") as f:
        grades = {g["agent"]: g for g in csv.DictReader(f)}
    for name in ("ann", "cat", "dan"):
        said = re.search(rf"agent {name} failed 6 game\(s\); first on (\S+) run (\d+)", err)
        assert said and grades[name]["first_error"].startswith(
            f"{said.group(1)} run {said.group(2)}: "), (err, grades[name])
        assert said.group(1) == "EASY1" and said.group(2) == "0"


def test_agents_that_never_win_are_ranked_by_their_failures():
    """110 of 202 tied at rank 93: a syntax error, a hang and an agent that never wins.
    Among equal win rates, fewer failed games rank first; equal in both, a shared rank."""
    from logic_agents.study.grades import ranks
    from logic_agents.study.rows import Row
    from logic_agents.study.summary import summarize

    def rows(agent, outcomes):
        return [Row(agent, f"M{k}", "g", 0, k, o, o == "won", 1, 0, None, 0.0,
                    error="E: x" if o == "error" else "") for k, o in enumerate(outcomes)]

    played = [*rows("wins", ["won", "lost", "lost"]), *rows("loses", ["lost"] * 3),
              *rows("also-loses", ["lost"] * 3), *rows("crashes", ["error"] * 3),
              *rows("half", ["lost", "error", "lost"])]
    assert ranks(summarize(played)) == [(1, "wins"), (2, "also-loses"), (2, "loses"),
                                        (4, "half"), (5, "crashes")]


def test_play_study_refuses_a_record_it_cannot_read_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["compare", "EASY1", "--agents", "spx", "--runs", "1", "--out", "runs.csv",
                 "--seed", "4"]) == 0
    record = json.loads(Path("runs.csv.study.json").read_text())
    capsys.readouterr()
    for broken, words in [({**record, "seed": "four"}, "keeps no seed"),
                          ({**record, "instances": [1, 2]}, "keeps no maps"),
                          ({**record, "texts": ["not a map"]}, "")]:
        Path("runs.csv.study.json").write_text(json.dumps(broken))
        assert main(["play", "EASY1", "--study", "runs.csv", "--agent", "spx"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("logic-agents: error: ") and \
            words in err, err
