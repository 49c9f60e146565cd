"""Node kinds and helpers the JavaScript extractor's modules share."""

from __future__ import annotations

from ...parsers import _ts

FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
EXPORTS = ("module.exports", "exports")
# the names the runtime defines (ECMAScript, the web platform, Node): never a project definition unless bound
JS_GLOBALS = frozenset({
    "console", "JSON", "Math", "Object", "Array", "Promise", "String", "Number", "Boolean", "Symbol", "Date",
    "RegExp", "Error", "TypeError", "Map", "Set", "WeakMap", "WeakSet", "Reflect", "Proxy", "parseInt",
    "parseFloat", "isNaN", "isFinite", "setTimeout", "clearTimeout", "setInterval", "clearInterval",
    "setImmediate", "queueMicrotask", "structuredClone", "fetch", "require", "process", "Buffer", "globalThis",
    "window", "document", "encodeURIComponent", "decodeURIComponent", "BigInt", "Intl", "URL", "alert",
    # the web platform (browsers, Node >= 18, Deno, Bun) and the rest of ECMAScript's globals
    "Headers", "Request", "Response", "FormData", "Blob", "File", "URLSearchParams", "AbortController",
    "AbortSignal", "TextEncoder", "TextDecoder", "ReadableStream", "WritableStream", "TransformStream",
    "Event", "EventTarget", "CustomEvent", "WebSocket", "Worker", "MessageChannel", "BroadcastChannel",
    "DOMException", "crypto", "performance", "navigator", "location", "history", "localStorage",
    "sessionStorage", "atob", "btoa", "XMLHttpRequest", "requestAnimationFrame", "cancelAnimationFrame",
    "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError", "WeakRef",
    "FinalizationRegistry", "ArrayBuffer", "SharedArrayBuffer", "DataView", "Uint8Array", "Int8Array",
    "Uint16Array", "Int16Array", "Uint32Array", "Int32Array", "Float32Array", "Float64Array",
    "BigInt64Array", "BigUint64Array", "Uint8ClampedArray", "Function", "escape", "unescape",
    "encodeURI", "decodeURI", "clearImmediate", "__dirname", "__filename",
})


def key(node: _ts.Node) -> tuple[int, int]:
    """A node's identity within one parse: its byte span."""
    return node.start_byte, node.end_byte


def private_clashes(body: _ts.Node, memo: dict) -> frozenset[str]:
    """The private names (``#serialize``) that class body ``body`` declares beside a public member of the same
    name (``serialize``), read once per class body (``memo``: the extractor's)."""
    seen: dict[tuple[int, int], frozenset[str]] = memo.setdefault("_private_clashes", {})
    k = (body.start_byte, body.end_byte)
    if k not in seen:
        private: set[str] = set()
        public: set[str] = set()
        for member in body.named_children:
            name = member.child_by_field_name("name") or member.child_by_field_name("property")
            if name is not None:
                (private if name.type == "private_property_identifier" else public).add(_ts.text(name))
        seen[k] = frozenset(n for n in private if n[1:] in public)
    return seen[k]
