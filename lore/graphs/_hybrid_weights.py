"""The hybrid ranker's shipped default weights, written by ``benchmarks/structural/loo.py --write-defaults``.

Do not edit by hand: refit so that the numbers stay traceable to the corpora and objective
recorded in ``PROVENANCE``.
"""

DEFAULT_WEIGHTS = {'structure': 1.0,
 'pagerank': 0.5,
 'same_class': -0.5,
 'same_file': 0.5,
 'line_near': 2.0,
 'same_dir': -0.25,
 'name_tokens': 1.0,
 'text': 1.0,
 'decorators': 0.25,
 'params': 0.1,
 'shared_base': -0.1,
 'private_helper': -2.0}

PROVENANCE = {'corpora': ['flask', 'geopandas', 'httpx', 'networkx', 'numpy', 'requests', 'scipy', 'xarray'],
 'objective': 'mean of MRR@10 and Recall@10',
 'method': 'coordinate ascent, structure fixed at 1.0',
 'objective_value': 0.664,
 'queries': 3026,
 'command': 'python benchmarks/structural/loo.py --write-defaults'}
