"""Secrets and control characters: the shape table (`shapes`) and its matching (`redactor`),
for the ledger before disk and `majordomus.egress` before output."""
