"""``python -m gymv.benchmarks <command>`` (the same as ``gymv-bench <command>``; see `gymv.benchmarks.cli`)."""

from gymv.benchmarks.cli import main

raise SystemExit(main())
