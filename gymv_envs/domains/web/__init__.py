"""Visual web tasks: generated websites served on loopback, driven through Chromium, rubric-scored."""
