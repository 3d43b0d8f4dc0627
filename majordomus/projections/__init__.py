"""Projections: the reasoning ledger replayed into state, timeline, report, explanations,
handovers, checks and the export.

State is never stored. Every function here takes the records the store loaded and derives
what the surfaces report. Pure: records in, state out; no clock, and no disk except the
files the checks name through their `root` parameter and the copy the export writes.
"""
