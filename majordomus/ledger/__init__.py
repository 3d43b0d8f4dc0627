"""The reasoning ledger: typed records, their admission, redaction and the append-only store.

`record` holds the wire shapes, `admission` the rules a record must pass, `redaction` the
secret shapes removed before anything is written, `store` the one writer and reader of
`.ai/local/state/reasoning/`. Derived state lives in `majordomus.projections`, not here.
"""
