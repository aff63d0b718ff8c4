"""codegraph: the right source, at the right size, with nothing invented."""

__version__ = "0.1.0"
