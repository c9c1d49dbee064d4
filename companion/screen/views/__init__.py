"""The screen's regions and screens, each drawn from the state JSON and the UI state."""
