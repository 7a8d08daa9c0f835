"""Task domains; each module defines one task and ends with its SPECS."""
