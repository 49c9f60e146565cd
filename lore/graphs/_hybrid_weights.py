"""The hybrid ranker's shipped default weights, written by ``benchmarks/structural/loo.py --write-defaults``.

Do not edit by hand: refit so that the numbers stay traceable to the corpora and objective
recorded in ``PROVENANCE``.
"""

DEFAULT_WEIGHTS = {'structure': 1.0,
 'structure_abs': -0.25,
 'pagerank': 1.0,
 'same_class': -0.25,
 'same_file': 0.5,
 'line_near': 1.0,
 'line_rank': -0.5,
 'adjacent': 1.0,
 'same_dir': 0.05,
 'package_near': -0.25,
 'name_tokens': 1.0,
 'text': 0.25,
 'text_abs': 0.5,
 'same_kind': -0.25,
 'decorators': 1.0,
 'params': 0.05,
 'private_helper': -1.0}

PROVENANCE = {'corpora': ['flask', 'geopandas', 'httpx', 'networkx', 'numpy', 'requests', 'scipy', 'xarray'],
 'objective': 'mean of MRR@10 and Recall@10; See-Also and co-change weigh the same in total',
 'method': 'coordinate ascent, structure fixed at 1.0',
 'objective_value': 0.631,
 'queries': 2784,
 'command': 'python benchmarks/structural/loo.py --write-defaults'}
