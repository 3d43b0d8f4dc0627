"""Object URIs: `majordomus://<kind>/<identity>`, the identity percent-encoded (RFC 3986)
(docs/layer-internals.md)."""

from __future__ import annotations

import re
from urllib.parse import quote, unquote

SCHEME = "majordomus://"
#: What RFC 3986 lets a path segment hold besides the unreserved characters, plus `/`.
_SAFE = "/!$&'()*+,;=:@"
#: The Unicode categories Cc (control characters) and Cs (surrogates: undecodable bytes).
_UNNAMING = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def encode_identity(identity: str) -> str:
    """The identity as it appears in a URI."""
    return quote(identity, safe=_SAFE, encoding="utf-8", errors="surrogatepass")


def object_uri(kind: str, identity: str) -> str:
    """The canonical URI of an object."""
    return f"{SCHEME}{kind}/{encode_identity(identity)}"


def unnamable(identity: str) -> str | None:
    """Why an identity cannot name an object (its capability id holds it verbatim), else None."""
    if not identity:
        return "its identity is empty"
    if _UNNAMING.search(identity):
        return "its identity holds a control character or an undecodable byte"
    return None


def candidates(uri: str) -> list[str]:
    """The canonical spellings `uri` may stand for, to be tried in order: the text as given,
    its encoding normalised, and the text read as the decoded form."""
    out = [uri]
    if uri.startswith(SCHEME):
        rest = uri[len(SCHEME) :]
        for spelling in (encode_identity(unquote(rest)), encode_identity(rest)):
            spelled = SCHEME + spelling
            if spelled not in out:
                out.append(spelled)
    return out
