"""``python -m lore``."""

from .cli import main

main()
