"""What a press, a knob turn or a card tap means now, for the screen and the hardware."""
