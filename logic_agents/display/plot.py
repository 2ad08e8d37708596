"""Plots of comparison summaries (extra `plot`: matplotlib, imported only when asked for).

Concepts: plot_summary follows the study's objective: for `win` games, per map group, one bar
per agent at its win rate with its 95% Wilson interval; for `score` games the mean score with
its 95% interval. It writes a PNG.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from logic_agents.errors import DependencyNotInstalled, FormatError, UsageError
from logic_agents.ground.shapes import Record

FORMATS = (".png", ".pdf", ".svg", ".jpg", ".jpeg", ".webp", ".eps", ".ps", ".tif", ".tiff")


def check_plot_target(path: str | Path) -> None:
    """Before a study plays its first game: the extra is installed and the file is a kind
    matplotlib writes; a usage error now, not after hours of games."""

    if Path(path).suffix.lower() not in FORMATS:
        raise UsageError(f"--plot {path}: name the file with one of {', '.join(FORMATS)}")
    if importlib.util.find_spec("matplotlib") is None:
        raise DependencyNotInstalled(
            "--plot needs the 'plot' extra: pip install 'logic-agents[plot]'")


def plot_summary(summary: Record, path: str | Path) -> Path:
    """The plot that fits the summary's objective (`win` or `score`)."""
    if summary.get("objective") == "score":
        return plot_win_rates(summary, path, "Mean score by map group", scored=True)
    return plot_win_rates(summary, path)


def plot_win_rates(summary: Record, path: str | Path, title: str = "Win rate by map group",
                   scored: bool = False) -> Path:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise DependencyNotInstalled(
            "--plot needs the 'plot' extra: pip install 'logic-agents[plot]'"
        ) from e
    agents = list(summary["agents"])
    groups = list(dict.fromkeys(g for a in agents for g in summary["agents"][a]["groups"]))
    width = 0.8 / max(1, len(agents))
    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(groups) * len(agents) / 2 + 2), 3.2),
                           dpi=100)
    for i, agent in enumerate(agents):
        xs, ys, lo, hi = [], [], [], []
        for j, group in enumerate(groups):
            stats = summary["agents"][agent]["groups"].get(group)
            if stats is None:
                continue
            xs.append(j + (i - (len(agents) - 1) / 2) * width)
            if scored:
                value, (low, high) = stats["score"]["mean"], stats["score"]["ci95"]
            else:
                value, (low, high) = 100 * stats["win_rate"], [100 * b for b in stats["ci95"]]
            ys.append(value)
            # rounding can leave a bound a hair past the value (100% wins): never below zero
            lo.append(max(0.0, value - low))
            hi.append(max(0.0, high - value))
        ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=agent)
    ax.set_xticks(range(len(groups)), groups)
    if scored:
        ax.set_ylabel("mean score (95% CI)")
    else:
        ax.set_ylim(0, 105)
        ax.set_ylabel("win rate, % (95% CI)")
    ax.set_title(title)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=len(agents), fontsize="small",
              frameon=False)
    fig.tight_layout()
    path = Path(path)
    try:
        fig.savefig(path)
    except OSError as e:
        raise FormatError(f"cannot write plot: {e.strerror}", str(path), 0, 0) from None
    finally:
        plt.close(fig)
    return path
