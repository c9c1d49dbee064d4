"""Table Companion: the banker and rulebook beside a cardboard Monopoly board."""

from companion import engine_build

__version__ = "0.1.0"

# before any engine module is imported: the compiled engine only while it matches its sources
engine_build.choose()
