"""Regenerate the screenshots in docs/images: one game page per game (`logic-agents view`,
drawn by headless Chromium at a chosen step), human play in the terminal (Textual's own
screenshot, drawn by Chromium) and a study page (`compare --html`).

    .venv/bin/python scripts/docs_screenshots.py      # needs chromium (apt-get install chromium)
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
# game: (instance, agent, extra flags, step to show)
PAGES = {
    "daggers": ("maps/daggers/2018/HARD10.txt", "prob", [], 24),
    "daggers-proof": ("maps/daggers/2018/HARD10.txt", "prob", [], 4),
    "sudoku": ("norvig_top95:1", "logic", [], 5),
    "undead": ("4x4de:1", "logic", [], 5),
    "mazes": ("eom-6x6-01", "sat", [], 6),
    "ooze": ("ooze", "sat", ["--max-ticks", "60"], 12),
    "akari": ("akari-7x7-a", "sat", [], 5),
}


def shoot(browser: str, url: str, target: Path, size: str = "1000,620") -> None:
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={size}", f"--screenshot={target}", url],
                   check=True, capture_output=True, timeout=120)
    print(f"wrote {target.relative_to(ROOT)}")


def human_play(browser: str, work: Path) -> None:
    from logic_agents.display.tui import Session, play_app
    from logic_agents.world.registry import get_game
    from logic_agents.world.resolve import resolve

    spec = get_game("daggers")
    instance = resolve("HARD1", spec)[1][0]
    session = Session(spec, instance, {}, 0, lambda: spec.make_agent("prob", explain=print))
    app = play_app(session, "daggers HARD1")
    svg = work / "human.svg"

    async def drive() -> None:
        async with app.run_test(size=(90, 26)) as pilot:
            await pilot.press("down", "down", "right", "h")
            await pilot.pause()
            app.save_screenshot(str(svg))

    asyncio.run(drive())
    shoot(browser, svg.as_uri(), OUT / "human-daggers.png", "980,620")
    # the ? screen: the game's rules over the board, the keys in the footer
    rules_app = play_app(Session(get_game("undead"), resolve("4x4de:1", get_game("undead"))[1][0],
                                 {}, 0, None), "undead 4x4de:1")
    rules_svg = work / "rules.svg"

    async def show_rules() -> None:
        async with rules_app.run_test(size=(90, 26)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            rules_app.save_screenshot(str(rules_svg))

    asyncio.run(show_rules())
    shoot(browser, rules_svg.as_uri(), OUT / "human-rules.png", "980,620")


def main() -> int:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("needs chromium: apt-get install chromium", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name, (instance, agent, extra, step) in PAGES.items():
            page = work / f"{name}.html"
            subprocess.run([sys.executable, "-m", "logic_agents", "view", instance, "--agent",
                            agent, "-o", str(page), *extra], check=True, cwd=ROOT,
                           capture_output=True)
            shoot(browser, f"{page.as_uri()}#step={step}", OUT / f"view-{name}.png")
        human_play(browser, work)
        study = work / "study.html"
        subprocess.run([sys.executable, "-m", "logic_agents", "compare", "2018", "--agents",
                        "spx,satx,prob", "--runs", "10", "--html", str(study)], check=True,
                       cwd=ROOT, capture_output=True)
        shoot(browser, study.as_uri(), OUT / "study-daggers.png", "1100,1500")
    return 0


if __name__ == "__main__":
    sys.exit(main())
