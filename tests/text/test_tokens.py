"""The code tokenizer: its identifier splitting is the reference pattern's, part for part."""

from __future__ import annotations

import random
import re

from lore.text.tokens import _CAMEL, body_text, split_identifier, tokenize

# the splitting as first written: an acronym before a word, a capitalized or lowercase word, an
# acronym, digits (the shipped pattern reorders it for speed)
REFERENCE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def test_the_shipped_pattern_splits_as_the_reference_does():
    rng = random.Random(0)
    alphabet = "aAbByYzZ019_ .-é"
    for _ in range(50_000):
        s = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        assert _CAMEL.findall(s) == REFERENCE.findall(s), s


def test_acronyms_words_and_digits():
    assert split_identifier("HTTPServer_v2") == ["http", "server", "v", "2"]
    assert split_identifier("XMLHttpRequest") == ["xml", "http", "request"]
    assert split_identifier("IOError") == ["io", "error"]
    assert split_identifier("URLs") == ["ur", "ls"]  # as the reference: an acronym's plural is not special
    assert split_identifier("aBCDe") == ["a", "bc", "de"]
    assert body_text("return self.getUserById(user_id)") == "return self get user by id user id"
    assert tokenize("the prepare_request body") == ["prepare", "request", "body"]
