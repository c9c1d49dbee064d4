"""The engine's typed vocabulary: commands, events, the game state, editions, rule
options and refusal codes; records only, no rules."""
