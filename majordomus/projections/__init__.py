"""Projections: the reasoning ledger replayed into what the surfaces report; never stored.

Pure: no clock, and no disk but the files the checks name and the copy the export writes."""
