"""Every sentence the table says: money, moves, refusals, undo questions."""
