# logic-agents: `make demo` and `make test` are the whole Quick start.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP_RUN := $(VENV)/.installed-run
STAMP_DEV := $(VENV)/.installed-dev

.PHONY: demo test test-fast lint docs bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# setuptools says, at every build, that two tables of pyproject.toml are "still experimental"
# (the C kernels' [tool.setuptools.ext-modules] and the abi3 tag's [tool.distutils]), and, at
# an editable install, to beware of folders named as the package (this checkout's is the
# package): 17 lines that --quiet does not quiet, on a `make demo` that should print the
# demo. The tables are the documented way to declare both in pyproject.toml alone; only those
# three warnings are silenced, by their first words, and nothing else setuptools says.
QUIET_BUILD := PYTHONWARNINGS='ignore:`[tool.distutils],ignore:`[tool.setuptools.ext-modules],ignore:Editable installation'

$(STAMP_RUN): pyproject.toml logic_agents/games/daggers/_enumerate.c logic_agents/games/daggers/_endgame.c logic_agents/games/daggers/_clues.c | $(BIN)/python
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -e .
	$(BYTECODE)
	touch $@

# Bytecode for the checkout (an editable install runs it from here): where
# PYTHONDONTWRITEBYTECODE is set, as on many CI machines, Python never writes it, and every
# fresh interpreter compiles each module it imports again (80 ms of a bare `--help`; the
# suite starts thousands). compileall skips what is current, so this costs little after an
# edit. A student's file in examples/course is left alone: one of them does not compile on
# purpose.
BYTECODE := $(BIN)/python -m compileall -q -j 0 -x 'examples/course/' logic_agents examples tests scripts benchmarks

# (the C files: prob's compiled kernel is built by the install, so an edit reinstalls)
# the tests also drive the example plug-in games through their entry points; Kakurasu is a
# stranger no other test names: the suite must pass beside a game a user installs
$(STAMP_DEV): pyproject.toml logic_agents/games/daggers/_enumerate.c logic_agents/games/daggers/_endgame.c logic_agents/games/daggers/_clues.c examples/plugin-game/pyproject.toml examples/lights-out/pyproject.toml examples/kakurasu/pyproject.toml | $(BIN)/python
	$(QUIET_BUILD) $(BIN)/python -m pip install --quiet -e '.[dev,plot,ray,tui,pandas,gym,notebook,docs,bench,certify]'
	$(BIN)/python -m pip install --quiet --no-deps -e examples/plugin-game
	$(BIN)/python -m pip install --quiet --no-deps -e examples/lights-out
	$(BIN)/python -m pip install --quiet --no-deps -e examples/kakurasu
	$(BYTECODE)
	touch $@ $(STAMP_RUN)

demo: $(STAMP_RUN)
	$(BIN)/logic-agents play maps/daggers/2018/HARD1.txt --agent satx

# one worker per core (at most 4), each test file on one worker (pytest-xdist), the files
# with the most slow tests first (tests/conftest.py orders them; xdist keeps that order)
PARALLEL := -n auto --maxprocesses=4 --dist loadfile --no-loadscope-reorder

test: $(STAMP_DEV)
	$(BYTECODE)
	CI_REQUIRE_PLUGIN=1 CI_REQUIRE_KERNEL=1 $(BIN)/python -m pytest $(PARALLEL)

test-fast: $(STAMP_DEV)
	$(BYTECODE)
	$(BIN)/python -m pytest $(PARALLEL) -m "not slow"

# ruff, then mypy --strict over the whole package and the example plug-ins
# (pyproject.toml, [tool.mypy]); then import-linter: the layers of
# docs/architecture.md and the games' independence ([tool.importlinter])
lint: $(STAMP_DEV)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

# the documentation site in site/ (README as the home page, the API from the docstrings);
# --strict: a broken link, a page missing from the nav or a bad reference fails it
docs: $(STAMP_DEV)
	$(BIN)/mkdocs build --strict --quiet

bench: $(STAMP_RUN)
	$(BIN)/python benchmarks/bench_daggers.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis build site *.egg-info
