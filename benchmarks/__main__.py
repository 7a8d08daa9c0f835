"""``python -m benchmarks <command>``: demo, speed."""

from benchmarks.cli import main

raise SystemExit(main())
