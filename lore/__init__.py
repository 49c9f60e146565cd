"""lore: what else in this codebase is like this symbol?"""

__version__ = "0.1.0"
