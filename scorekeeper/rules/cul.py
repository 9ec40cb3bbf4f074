"""Placeholder until the game module lands."""
