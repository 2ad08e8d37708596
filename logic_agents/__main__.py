"""`python -m logic_agents` runs the command line (logic_agents.console)."""

import sys

from logic_agents.console import main

sys.exit(main())
