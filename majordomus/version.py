"""The version of majordomus: a leaf that imports nothing, so anything may read it."""

__version__ = "0.1.0"
