"""The rules explained in words: our own rulebook (sections by topic), why each money move
was its amount, and the teaching table's lessons."""
