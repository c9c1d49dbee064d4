"""What the session tells the table besides the state: the news of each move (the card that
is news, the auction's one clock), the teaching table's lessons, and the game's story."""
