"""The game: the session (the one writer), its journal, history and rescue."""
