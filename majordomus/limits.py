"""The size and depth limits every parser input is held to, stated once (ours, not the
interpreter's; docs/RELIABILITY.md lists each surface's answer)."""

from __future__ import annotations

#: Containers (objects and arrays) a JSON value may nest, the outermost one included: an MCP
#: line, an HTTP body, a JSON query value, a record. `[]` is 1 deep, `{"a": []}` 2.
MAX_JSON_DEPTH = 64

#: Levels a layer YAML document may nest blocks (a key opening a block, or a list item
#: holding a mapping, is one level); the rebuilt mapping is then at most two deeper.
MAX_YAML_DEPTH = 32

#: Digits an integer in JSON input may have (the sign not counted): enough for every signed
#: and unsigned 64-bit value, which is what every integer field holds.
MAX_INT_DIGITS = 20

#: Bytes of one reasoning record as it is given (CLI file or standard input) or stored.
MAX_RECORD_BYTES = 1024 * 1024

#: Bytes of an HTTP request body; a longer one is answered 413.
MAX_BODY_BYTES = 1024 * 1024

#: Bytes of one MCP stdio line, its newline not counted; a longer one is answered -32600
#: without being kept.
MAX_LINE_BYTES = 1024 * 1024
