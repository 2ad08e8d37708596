"""The referee: who plays where, under which caps, and nothing an agent can touch.

It sits between the study and the world: the world keeps the game contract, the step loop
(world.runner, which calls every agent through a world.calls.Calls guard) and the plug-ins;
the referee decides where each agent plays and keeps the time.

Modules, from the top of its layers down (import-linter holds them, pyproject.toml):
- agents: which agents play in a player process (an untrusted reference, by default) and
  which in the referee's own; their entries.
- pool: compare's worker processes (Pool) and play's child (run_child).
- remote: RemoteFactory / RemoteAgent, an isolated agent as the runner sees it; describe.
- players / player: the player server process (started by the referee, forks one fresh child
  per game) and the code it runs, the only place an agent's module is read.
- containment / output: bubblewrap, process caps, the child subreaper; what an agent prints,
  bounded, escaped and attributed.
- clock: Caps, Clock (a world.calls.Calls that keeps time), Watch.
- wire: the frames between referee and player (JSON only), and protocol: their messages,
  one typed shape each.

This package imports nothing when it is imported: a player process starts light.
"""
