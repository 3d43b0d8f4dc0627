"""The command line: a projection of the capability registry plus a few process commands."""
