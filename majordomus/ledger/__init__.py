"""The reasoning ledger: typed records, their admission and the append-only store.

`record` holds the record models, `admission` the rules a record must pass, `service` the
write path (admit, redact with `majordomus.redaction`, stamp, write), `store` the one writer
and reader of `.ai/local/state/reasoning/`. Derived state lives in `majordomus.projections`.
"""
