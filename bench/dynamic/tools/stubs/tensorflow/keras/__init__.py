"""Stand-in for tensorflow.keras (see ../__init__.py)."""
