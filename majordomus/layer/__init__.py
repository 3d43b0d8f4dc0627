"""The `.ai/` layer: discovery through git, the YAML subset, kinds, diagnostics, the index."""
