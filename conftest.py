"""Pytest setup: the rules engine's doctests are collected from its sources only.

A compiled engine (see companion/engine_build.py) shadows the .py files pytest would collect
doctests from; tests/test_engine_build.py runs those doctests against the sources instead.
"""

from companion import engine_build

collect_ignore_glob = ["companion/rules/*.py"] if engine_build.status == "compiled" else []
