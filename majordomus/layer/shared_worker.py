"""The reading worker: a second process that reads chunks of a layer's files for a build
(docs/architecture.md, "Reading a large layer in two processes"; the build's side is
`majordomus.layer.shared_reading`).

Started with `python -S -c`, it imports only the layer's reading modules. It reads through
the root descriptor the build holds (inherited, never the root's path: a root swapped
since cannot redirect it), with a `LayerReader` made from the build's manifest and source
classes, and answers each chunk of (path, class) with the chunk's reads, in order.
"""

from __future__ import annotations

import gc
import os
from pathlib import Path

from majordomus.layer.kinds import load_kinds
from majordomus.layer.model import Manifest, SourceClass
from majordomus.layer.reader import LayerReader, read_entry
from majordomus.layer.shared_wire import Broken, pack, receive, send
from majordomus.safefs import Tree

#: The worker's ends of its two pipes.
_REQUESTS, _ANSWERS = 0, 1


def serve(root_fd: int) -> None:
    """Answer chunks until the build closes the request pipe."""
    gc.disable()  # as in the build (`majordomus.collector.paused`): nothing to collect
    os.fchdir(root_fd)
    root, manifest, sources = receive(_REQUESTS, None)
    classes = [SourceClass(*fields) for fields in sources]
    tree = Tree(Path("."))  # the inherited root: the working directory is now it
    reader = LayerReader(Path(root), Manifest(*manifest), load_kinds(), tree)
    while True:
        try:
            start, chunk = receive(_REQUESTS, None)
        except Broken:
            return
        reads = [pack(read_entry(rel, classes[which], reader)) for rel, which in chunk]
        send(_ANSWERS, (start, reads))
