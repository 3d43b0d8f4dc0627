"""The reasoning ledger: typed records, their admission, the write path and the append-only
store; derived state lives in `majordomus.projections`."""
