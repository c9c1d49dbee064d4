"""The composition root: the command line, `companion run` and the wiring of the parts."""
