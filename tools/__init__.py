"""Developer tools, not installed: benchmarks, probes, golden-game and sound generators."""
