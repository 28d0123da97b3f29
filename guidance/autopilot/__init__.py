"""autopilot."""
