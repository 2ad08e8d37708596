"""`python -m logic_agents` runs the command line."""

import sys

from logic_agents.cli import main

sys.exit(main())
