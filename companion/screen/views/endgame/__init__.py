"""The end of a game on the screen: the winner and standings, the net-worth curve rebuilt
from the history, and the game's story under it."""
