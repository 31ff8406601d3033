"""``python -m promptanatomy_core …`` runs the same command line as ``promptanatomy …``."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
