"""Processes, signals, time limits and progress lines."""
