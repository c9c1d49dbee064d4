"""The table layer: what the table holds above the game (the open offers, the typed view the
faces render), kept by the session's writer (docs/architecture.md)."""
