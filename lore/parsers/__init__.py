"""The shared extraction base: source bytes -> :class:`~lore.parsers.records.ParsedFile` records.

* :mod:`.records`: the plain records a parser produces (symbols, calls, type mentions, imports,
  relations, bindings) and their compact wire format;
* :mod:`._ts`: the only module that touches the ``tree_sitter`` API;
* :mod:`._common`: the query-driven :class:`~lore.parsers._common.Extractor` each language subclasses.

Parsers never touch the store. Each language's parser, query and extensions live in its own folder
under :mod:`lore.languages`, whose registry (``lore.languages.language_for`` / ``parse_source``) picks
the parser of a file.
"""
