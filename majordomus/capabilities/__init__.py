"""The capabilities: declarations beside their handlers, the registry, the executor."""
