"""``promptanatomy cache``: show or clear the response cache."""
from __future__ import annotations

import argparse
import json

from .common import EXIT_OK, write_out


def add_cache(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "cache",
        help="show or clear the response cache",
        description="info: print where the response cache is, its entries and bytes (JSON); clear: remove every "
                    "cached answer. The folder follows PROMPTANATOMY_CACHE_DIR.",
    )
    p.add_argument("action", choices=("info", "clear"), help="info or clear")
    return p


def cmd_cache(args: argparse.Namespace) -> int:
    from ..models.cache import ResponseCache

    with ResponseCache() as cache:
        if args.action == "info":
            write_out(json.dumps(cache.info(), indent=2))
        else:
            removed = cache.clear()
            write_out(json.dumps({"path": str(cache.path), "removed": removed}, indent=2))
    return EXIT_OK
