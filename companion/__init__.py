"""Table Companion: the banker and rulebook beside a cardboard Monopoly board."""

__version__ = "0.1.0"
