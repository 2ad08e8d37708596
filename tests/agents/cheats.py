"""Agents that cheat, one per attack on fair play (issues 38 and 52), written the way a student
who wants a better grade would write them; tests/test_fair_play.py and
tests/test_fair_play_two.py play them. All play Daggers but PredictsThePieces (Ooze).

Each plays exactly as spx does whenever its trick finds nothing, and counts in its own stats
(`found`) what the trick gave it, so a test can tell "it cheated" from "it played blind": a
cheat that gains nothing has spx's rows, game for game.
"""

import gc
import hashlib
import inspect
import json
import os
import random
import signal
import socket
import subprocess
import sys
from pathlib import Path

from logic_agents.games.daggers.agents import RandomProbeAgent, SinglePointAgent
from logic_agents.games.daggers.board import DAGGER, DaggersMap, parse
from logic_agents.games.daggers.world import DaggersAction
from logic_agents.games.ooze.agents import GreedyOozeAgent
from logic_agents.games.ooze.rules import GLYPHS
from logic_agents.world.core import Outcome


class Cheat(SinglePointAgent):
    """spx, plus a trick that may find the board's hidden contents."""

    name = "cheat"

    def reset(self, seed=None):
        super().reset(seed)
        self.found = 0
        self.board = None

    def act(self, obs):
        if self.board is None:
            self.board = self.peek(obs)
        if self.board is not None:
            self.found += 1
            for r, c in obs.unknown_cells():
                if self.board.tokens[r][c] != DAGGER:
                    return DaggersAction("probe", (r, c))
        return super().act(obs)

    def peek(self, obs):
        return None

    def tried(self, trick):
        """Count the trick in `found` when the operating system let it through."""
        try:
            trick()
            self.found += 1
        except OSError:
            pass

    def stats(self):
        return {**super().stats(), "found": self.found}


def _board_among(values, obs):
    for value in values:
        if isinstance(value, DaggersMap) and (value.height, value.width) == (obs.height,
                                                                             obs.width):
            return value
        board = getattr(value, "map", None) or getattr(value, "board", None)
        if isinstance(board, DaggersMap):
            return board
    return None


class PeeksThroughGc(Cheat):
    name = "peek-gc"

    def peek(self, obs):
        return _board_among(gc.get_objects(), obs)


class PeeksThroughFrames(Cheat):
    name = "peek-frames"

    def peek(self, obs):
        frame = sys._getframe(1)
        while frame is not None:
            found = _board_among(list(frame.f_locals.values()), obs)
            if found is not None:
                return found
            frame = frame.f_back
        return None


class PeeksThroughInspect(Cheat):
    name = "peek-inspect"

    def peek(self, obs):
        for info in inspect.stack():
            found = _board_among(list(info.frame.f_locals.values()), obs)
            if found is not None:
                return found
        return None


class DeclaresItsWin(Cheat):
    """Finds the world and ends it as won, with a million lives."""

    name = "declare-win"

    def act(self, obs):
        for value in gc.get_objects():
            # a world object, not a class or a typing alias of one (WorldBase[Obs, Act])
            if not isinstance(value, type) and not hasattr(value, "__origin__") \
                    and callable(getattr(value, "end", None)) and hasattr(value, "hidden_state"):
                value.lives = 10**6
                value.end(Outcome.WON)
                self.found += 1
        return super().act(obs)


class PatchesTheFramework(Cheat):
    """Makes the step loop, the rows and the world say it won, and the others lost."""

    name = "patch-framework"

    def __init__(self):
        super().__init__()
        from logic_agents.games.daggers import world
        from logic_agents.study import batch
        from logic_agents.world import runner

        def won(*args, **kwargs):
            raise SystemExit("never reached in a sandbox: nobody plays here")

        runner.run_episode = won
        batch.play_job = won
        batch.seed_for = lambda *args: 0
        world.DaggersWorld.step = won


class ReseedsTheOthers(Cheat):
    name = "reseed"

    def __init__(self):
        super().__init__()
        import random

        random.seed(0)
        from logic_agents.study import batch

        batch.Jobs.__getitem__ = lambda self, index: None


class ForgesThePipe(Cheat):
    """Writes a forged answer (and a forged row) to every descriptor it has."""

    name = "forge-pipe"

    def act(self, obs):
        forged = json.dumps({"op": "action", "game_id": "x", "step": 1,
                             "action": "probe 0 0"}).encode()
        frame = len(forged).to_bytes(4, "big") + forged
        for fd in range(3, 64):
            self.tried(lambda fd=fd: os.write(fd, frame))
        return super().act(obs)


FORGED_ROW = "forge-results,EASY1,2018,0,1,won,True,1,0,,0.1,{},{},,0.1,x\n"


class ForgesTheResults(Cheat):
    """Appends won rows to every results file it can find."""

    name = "forge-results"

    def act(self, obs):
        for path in _results_files():
            self.tried(lambda path=path: _append(path, FORGED_ROW))
        return super().act(obs)


def _append(path, text):
    with open(path, "a") as f:
        f.write(text)


def _results_files():
    found = set()
    for pid in (os.getppid(), *_ancestors()):
        try:
            words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        for i, word in enumerate(words[:-1]):
            if word == b"--out":
                found.add(words[i + 1].decode())
    return found | {str(p) for p in Path(os.environ.get("CHEAT_RESULTS", "/nonexistent"))
                    .parent.glob("*.csv")}


def _ancestors():
    pid, out = os.getppid(), []
    for _ in range(6):
        pid = _parent(pid)
        if pid < 0:
            break
        out.append(pid)
    return out


class OverridesTheScore(Cheat):
    name = "override-score"

    def stats(self):
        return {**super().stats(), "lives_left": 999, "score": 99999, "steps": 1}


class CountsNegativeGuesses(Cheat):
    name = "negative-guesses"

    def stats(self):
        return {**super().stats(), "guesses": -5}


class ReadsTheMaps(Cheat):
    """Reads the study's map files and the shipped ones, and plays the one that fits."""

    name = "read-maps"

    def peek(self, obs):
        folders = [Path(os.environ.get("CHEAT_MAPS", "maps/daggers/2018"))]
        import logic_agents

        folders.append(Path(logic_agents.__file__).parent / "maps" / "daggers" / "2018")
        for folder in folders:
            try:
                files = sorted(folder.glob("*.txt"))
            except OSError:
                continue
            for path in files:
                try:
                    board = parse(path.read_text(), str(path))
                except Exception:
                    continue
                if (board.height, board.width) == (obs.height, obs.width) and all(
                        board.tokens[r][c] != DAGGER
                        for r, row in enumerate(obs.grid) for c, shown in enumerate(row)
                        if shown.isdigit() or shown == "g"):
                    return board
        return None


class OpensASocket(Cheat):
    """Sends its observations to a server of its friend's (CHEAT_PORT on loopback)."""

    name = "open-socket"

    def act(self, obs):
        port = int(os.environ.get("CHEAT_PORT", "0") or 0)
        if port:
            self.tried(lambda: socket.create_connection(("127.0.0.1", port), timeout=0.5)
                       .sendall(b"hello"))
        return super().act(obs)


class LeavesChildren(Cheat):
    """Starts a child and a double-forked daemon, each meant to outlive the study."""

    name = "leave-children"

    def act(self, obs):
        mark = os.environ.get("CHEAT_MARK", "987.654")
        try:
            subprocess.Popen(["sleep", mark], start_new_session=True)
            pid = os.fork()
            if pid == 0:
                os.setsid()
                if os.fork() == 0:
                    os.execvp("sleep", ["sleep", mark])
                os._exit(0)
            os.waitpid(pid, 0)
            self.found += 1
        except OSError:
            pass
        return super().act(obs)


class KillsItsSiblings(Cheat):
    """Kills every other worker of the study (the referee's processes beside its own)."""

    name = "kill-siblings"

    def act(self, obs):
        ancestors = _ancestors()
        ancestry = {os.getpid(), os.getppid(), *ancestors}
        for level in ancestors[:2]:  # its player's parent (a referee), and the one above it
            for pid in _processes():
                if pid not in ancestry and _parent(pid) == level:
                    try:
                        os.kill(pid, signal.SIGKILL)
                        self.found += 1
                    except OSError:
                        pass
        return super().act(obs)


class KillsTheReferee(Cheat):
    """Kills the process that keeps the score, and every other process of the study."""

    name = "kill-referee"

    def act(self, obs):
        for pid in reversed([os.getppid(), *_ancestors()]):  # the top first
            try:
                if b"logic_agents" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    os.kill(pid, signal.SIGKILL)
                    self.found += 1
            except OSError:
                pass
        return super().act(obs)


def _processes():
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def _parent(pid):
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError):
        return -1


IN_GAME = [PeeksThroughGc, PeeksThroughFrames, PeeksThroughInspect, DeclaresItsWin,
           PatchesTheFramework, ReseedsTheOthers, ForgesThePipe, ForgesTheResults,
           OverridesTheScore, CountsNegativeGuesses, ReadsTheMaps, OpensASocket, LeavesChildren]


class ForksWithoutEnd(Cheat):
    """Starts as many processes as it can (a fork bomb, bounded so a test machine lives)."""

    name = "fork-bomb"

    def act(self, obs):
        if self.found == 0:
            started = []
            mark = os.environ.get("CHEAT_MARK", "987.654")
            for _ in range(200):
                try:
                    started.append(subprocess.Popen(["sleep", mark]))
                except OSError:
                    break
            self.found = max(1, len(started))
        return super().act(obs)


GAMES_SEEN = []  # module state: what an agent could remember of the games before


class Remembers(Cheat):
    """Keeps, in its module, how many games it has played before this one."""

    name = "remembers"

    def __init__(self):
        super().__init__()
        GAMES_SEEN.append(1)  # a fresh agent object per game
        self.before = len(GAMES_SEEN) - 1

    def stats(self):
        return {**super().stats(), "remembered": self.before}


# -- the second hostile round (issue 52) ----------------------------------------------------
class PredictsThePieces(GreedyOozeAgent):
    """Draws Ooze's piece queue from its own seed, as the world draws it from its own.

    `found` is 1 while every queue seen so far is the next window of the prediction (the same
    window, or one piece on). The whole game must match, not its first five pieces only: a
    blind guess of five pieces from seven glyphs matches one game in 16,807, which a study of
    six games met once in CI; a whole game of matches by chance is out of reach.
    """

    name = "predict-pieces"

    def reset(self, seed=None):
        super().reset(seed)
        self.pieces_rng = random.Random(seed)  # not self.rng: the greedy agent draws from that
        self.predicted = ""
        self.position = 0
        self.found = 0
        self.first = True

    def _window(self, start):
        while len(self.predicted) < start + 5:
            self.predicted += self.pieces_rng.choice(GLYPHS)
        return self.predicted[start:start + 5]

    def act(self, obs):
        if self.first:
            self.first = False
            self.found = int(obs.queue == self._window(0))
        elif self.found:
            if obs.queue == self._window(self.position + 1):
                self.position += 1  # a piece was placed: the queue moved on by one
            elif obs.queue != self._window(self.position):
                self.found = 0
        return super().act(obs)

    def stats(self):
        return {"found": self.found}


def _seed_for(seed, map_name, run):
    """The study's seed of a game, as logic-agents draws it (the cheat knows the formula)."""
    digest = hashlib.blake2b(f"{seed}:{map_name}:{run}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big")


def _agent_seed(seed):
    """The agent's seed of a game under a public key (the cheat knows that formula too)."""
    key = hashlib.blake2b(str(0).encode(), digest_size=32, person=b"la-study-key").digest()
    digest = hashlib.blake2b(str(seed).encode(), digest_size=4, key=key, person=b"la-agent-seed")
    return int.from_bytes(digest.digest(), "big")


class RebuildsTheBoard(Cheat):
    """Finds (map, run) from its seed under the default study seed (0), then generates the
    board again with the installed generator and plays it knowing every dagger."""

    name = "rebuild-board"

    def reset(self, seed=None):
        super().reset(seed)
        self.seed = seed

    def peek(self, obs):
        from logic_agents.games.daggers.generate import PRESETS, generate_maps

        for preset in PRESETS.values():
            if (preset.height, preset.width) != (obs.height, obs.width):
                continue
            for shown in (True, False):
                for i in range(10):
                    name = f"{preset.name}-s0-{i:04d}" if shown else f"{preset.name}-{i:04d}"
                    for run in range(10):
                        world_seed = _seed_for(0, name, run)
                        if self.seed in (world_seed, _agent_seed(world_seed)):
                            return generate_maps(preset, i + 1, 0, seed_shown=shown)[i]
        return None


class ReadsTheEnvironment(Cheat):
    """Looks for a grader's token in its environment and puts it in its stats."""

    name = "read-env"

    def act(self, obs):
        token = os.environ.get("GRADER_TOKEN", "")
        if token:
            self.found = max(self.found, 1)
            self.token = token
        return super().act(obs)

    def stats(self):
        return {**super().stats(), "token_chars": len(getattr(self, "token", ""))}


class ResealsTheResults(Cheat):
    """Outside a sandbox: reads --out from its referee, takes the seal key from the study's
    record, seals its own lost rows again as wins and rewrites the file in place."""

    name = "reseal-results"

    def act(self, obs):
        from logic_agents.study.rows import RowSink, read_rows

        for path in _results_files():
            try:
                key = json.loads(Path(f"{path}.study.json").read_text())["seal"]
                rows = read_rows(Path(path), key)
            except Exception:
                continue
            forged = [r if r.agent != self.name else type(r)(**{
                **r.__dict__, "outcome": "won", "won": True}) for r in rows]
            if forged == rows:
                continue
            tmp = Path(f"{path}.{os.getpid()}.forged.csv")
            try:
                tmp.unlink(missing_ok=True)
                sink = RowSink(tmp, key)
                for row in forged:
                    sink.write(row)
                sink.close()
                Path(path).write_bytes(tmp.read_bytes())  # in place: the referee's handle stays
                tmp.unlink()
            except OSError:
                continue
            self.found += 1
        return super().act(obs)


class DrivesTheTerminal(Cheat):
    """Prints a window title, a screen clear and a clipboard write (OSC 52) at every move."""

    name = "drive-terminal"

    def act(self, obs):
        print("\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cHduZWQ=\x07 hello", flush=True)
        return super().act(obs)


class FloodsItsOutput(Cheat):
    """Writes one line of FLOOD_BYTES on its standard output, with no newline, at its first
    move."""

    name = "flood-output"
    FLOOD_BYTES = 64 << 20

    def reset(self, seed=None):
        super().reset(seed)
        self.flooded = False

    def act(self, obs):
        if not self.flooded:
            self.flooded = True
            block = b"x" * (1 << 20)
            for _ in range(self.FLOOD_BYTES >> 20):
                sys.stdout.buffer.write(block)
            sys.stdout.flush()
            self.found = 1
        return super().act(obs)


class SaysASurrogate(SinglePointAgent):
    """Gives a reason whose text holds a lone surrogate (text no file can hold)."""

    name = "say-surrogate"

    @property
    def why(self):
        return "because \ud800"

    @why.setter
    def why(self, value):
        pass


class RandomCopy(RandomProbeAgent):
    """rpx under another name: paired with rpx, it must play every game as rpx does."""

    name = "rpx-copy"


class RemembersInTmp(Cheat):
    """Leaves a file in its temporary folder, and looks for the one its last game left."""

    name = "remembers-in-tmp"
    FOLDER = None  # None: tempfile's folder (TMPDIR); RemembersInSlashTmp: /tmp itself

    def reset(self, seed=None):
        super().reset(seed)
        self.seen = None

    def act(self, obs):
        import tempfile

        if self.seen is None:
            mark = Path(self.FOLDER or tempfile.gettempdir()) / "logic-agents-cheat-memory"
            self.seen = int(mark.exists())
            self.tried(lambda: mark.write_text("seen"))
        return super().act(obs)

    def stats(self):
        return {**super().stats(), "found": self.seen or 0}


class RemembersInSlashTmp(RemembersInTmp):
    name = "remembers-in-slash-tmp"
    FOLDER = "/tmp"


# -- the third hostile round (issue 66) ------------------------------------------------------
class RaisesAfterTheGame(Cheat):
    """Plays as spx, then raises in stats() and close(): once a row with outcome `error` was
    retried by --retry-errors, so raising after each hopeless loss re-rolled it (50% won
    became 85%)."""

    name = "raises-after-the-game"

    def stats(self):
        self.over = True
        raise RuntimeError("stats after a loss")

    def close(self):
        if getattr(self, "over", False):  # spx's reset closes too
            raise RuntimeError("close after a loss")
        super().close()


class ReadsItsNeighbours(Cheat):
    """A single-file submission (students/zed.py) that reads what else is in its folder: the
    other students' code. `found` counts the neighbours it could list or open."""

    name = "reads-neighbours"

    def reset(self, seed=None):
        super().reset(seed)
        here = Path(__file__).resolve().parent
        try:
            neighbours = [p for p in here.iterdir()  # (not its own file, nor its bytecode)
                          if p.name not in (Path(__file__).name, "__pycache__")]
        except OSError:
            neighbours = []
        readable = 0
        for path in neighbours:
            for source in ([path] if path.is_file() else list(path.glob("*.py"))):
                try:
                    source.read_bytes()
                    readable += 1
                except OSError:
                    pass
        self.neighbours = len(neighbours) + readable

    def stats(self):
        return {**super().stats(), "found": self.neighbours}


class RemembersInSharedMemory(Cheat):
    """Keeps a mark of each game in every place a sandboxed game can write or could once:
    /dev/shm, System V shared memory, message queues and semaphores, a POSIX message queue,
    /tmp and the sandbox's root (the folders bubblewrap made for its own file). `found`
    counts the places where its last game's mark was still there; `kept` those it could
    write. With the defaults, /dev/shm alone once won 66.7% against 36.7% blind."""

    name = "remembers-in-shm"
    KEY = 0x1A6E7  # the System V key it uses
    QUEUE = b"/logic-agents-cheat"
    SHM_FILE = "/dev/shm/logic-agents-cheat"
    TMP_FILE = "/tmp/logic-agents-cheat-shm"
    LOCKED = "/tmp/logic-agents-cheat-locked"
    ROOT_FILE = "logic-agents-cheat-root"  # beside this file

    def reset(self, seed=None):
        super().reset(seed)
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.mq_open.restype = ctypes.c_int
        here = Path(__file__).resolve().parent
        places = {
            "shm-file": lambda: _mark_file(Path(self.SHM_FILE)),
            "tmp-file": lambda: _mark_file(Path(self.TMP_FILE)),
            "locked-file": lambda: _mark_locked(Path(self.LOCKED)),
            "root-file": lambda: _mark_file(here / self.ROOT_FILE),
            "sysv-shm": lambda: _mark_ipc(libc.shmget, self.KEY, 4096),
            "sysv-msg": lambda: _mark_ipc(libc.msgget, self.KEY + 1),
            "sysv-sem": lambda: _mark_ipc(libc.semget, self.KEY + 2, 1),
            "mqueue": lambda: _mark_queue(libc, self.QUEUE),
        }
        self.seen, self.kept, self.each = 0, 0, {}
        for place, mark in places.items():
            seen, kept = mark()
            self.seen += seen
            self.kept += kept
            self.each[f"seen {place}"] = int(seen)
        self.found = self.seen

    def stats(self):
        return {**super().stats(), "found": self.seen, "kept": self.kept, **self.each}


class RemembersAcrossStudies(RemembersInSharedMemory):
    """The same marks under names of its own (a test of its own runs it beside the other)."""

    name = "remembers-across-studies"
    KEY = 0x2B7F8
    QUEUE = b"/logic-agents-cheat-studies"
    SHM_FILE = "/dev/shm/logic-agents-cheat-studies"
    TMP_FILE = "/tmp/logic-agents-cheat-studies"
    LOCKED = "/tmp/logic-agents-cheat-studies-locked"
    ROOT_FILE = "logic-agents-cheat-studies-root"


def _mark_file(path):
    seen = path.exists()
    try:
        path.write_text("seen")
        return seen, 1
    except OSError:
        return seen, 0


def _mark_locked(folder):
    """A mark in a folder the game then locks (chmod 500), so that whoever sweeps, without
    capabilities, cannot delete inside it."""
    mark = folder / "mark"
    seen = mark.exists()
    try:
        folder.mkdir(exist_ok=True)
        os.chmod(folder, 0o700)
        mark.write_text("seen")
        os.chmod(folder, 0o500)
        return seen, 1
    except OSError:
        return seen, 0


def _mark_ipc(get, key, *size):
    """(whether the object of `key` was there, whether it could be made)."""
    IPC_CREAT = 0o1000
    seen = (get(key, *([0] * len(size)), 0o600) if size else get(key, 0o600)) != -1
    made = (get(key, *size, IPC_CREAT | 0o600) if size else get(key, IPC_CREAT | 0o600)) != -1
    return seen, int(made)


def _mark_queue(libc, name):
    O_RDONLY, O_CREAT = 0, 0o100
    fd = libc.mq_open(name, O_RDONLY)
    seen = fd != -1
    made = libc.mq_open(name, O_RDONLY | O_CREAT, 0o600, None) != -1
    return seen, int(made)


class HoardsSharedMemory(Cheat):
    """Holds 2 GiB of shared anonymous memory (MAP_SHARED), which RLIMIT_DATA does not
    count: one game once held 3 GiB under --memory-cap 256. `found` is the MiB it held."""

    name = "hoards-shared"
    MIB = 2048

    def reset(self, seed=None):
        super().reset(seed)
        import mmap

        self.hoard = mmap.mmap(-1, self.MIB << 20, flags=mmap.MAP_SHARED)
        for at in range(0, self.MIB << 20, 4096):  # every page touched: really held
            self.hoard[at] = 1
        self.found = self.MIB
