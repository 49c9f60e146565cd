"""Search: BM25 over symbols, files and chunks, rank fusion and graph expansion of hits."""
