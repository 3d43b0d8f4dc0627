"""Secrets and control characters: what the ledger removes from a record before it touches
disk and `majordomus.egress` from every text before it leaves the process.

`shapes` is the table of secret shapes docs/ledger.md lists; `redactor` matches them.
"""
