"""Projections: the reasoning ledger replayed into state, timeline, report, explanations, checks.

State is never stored. Every function here takes the records the store loaded and derives
what the surfaces report: standing, views, timeline, totals, the Markdown report, a record's
chain of provenance, the consultation history the circuits read, and the checks of
`reasoning check`. Pure: records in, state out; no clock, and no disk except the files the
checks name through their `root` parameter.
"""
