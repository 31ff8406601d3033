"""Offline resources: the WordNet 3.0 database behind the synonym-replacement perturbation (SYR).

NLTK's ordinary route, ``nltk.download("wordnet")``, needs a network this project cannot count on. Debian ships the
same WordNet 3.0 database (packages ``wordnet-base`` and ``wordnet-sense-index``, in ``/usr/share/wordnet``), so the
set-up copies those files into an ``nltk_data`` folder as ``corpora/wordnet/`` and adds the one file NLTK's reader
needs that Debian does not ship: ``lexnames``, the 45 lexicographer file names.

The files must sit under a folder on ``nltk.data.path``: NLTK 3.10's reader refuses paths outside it.

Set-up (the Makefile's ``install`` target runs it; idempotent, ``apt-get`` only when the Debian files are missing)::

    python -m promptanatomy_core.resources            # install into the default folder, then load once to check
    python -m promptanatomy_core.resources --check    # only report where WordNet is found

At run time, :func:`ensure_wordnet` finds the data (project-local folder, ``NLTK_DATA``, or any ordinary NLTK install)
and :func:`wordnet` returns the loaded ``nltk.corpus.wordnet`` reader.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

#: Where Debian's ``wordnet-base`` / ``wordnet-sense-index`` put the database.
DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")
#: The Debian packages that hold it.
DEBIAN_PACKAGES = ("wordnet-base", "wordnet-sense-index")

#: The files NLTK's WordNet reader opens, less ``lexnames`` (written by us). ``index.sense`` is in wordnet-sense-index.
WORDNET_FILES = (
    "cntlist.rev",
    "index.sense",
    "index.adj",
    "index.adv",
    "index.noun",
    "index.verb",
    "data.adj",
    "data.adv",
    "data.noun",
    "data.verb",
    "adj.exc",
    "adv.exc",
    "noun.exc",
    "verb.exc",
)

#: WordNet 3.0's lexicographer files (lexnames(5WN)): number, name, syntactic category
#: (1 noun, 2 verb, 3 adjective, 4 adverb). The number is the ``lex_filenum`` field of every synset in ``data.*``.
LEXNAMES = (
    ("adj.all", 3),
    ("adj.pert", 3),
    ("adv.all", 4),
    ("noun.Tops", 1),
    ("noun.act", 1),
    ("noun.animal", 1),
    ("noun.artifact", 1),
    ("noun.attribute", 1),
    ("noun.body", 1),
    ("noun.cognition", 1),
    ("noun.communication", 1),
    ("noun.event", 1),
    ("noun.feeling", 1),
    ("noun.food", 1),
    ("noun.group", 1),
    ("noun.location", 1),
    ("noun.motive", 1),
    ("noun.object", 1),
    ("noun.person", 1),
    ("noun.phenomenon", 1),
    ("noun.plant", 1),
    ("noun.possession", 1),
    ("noun.process", 1),
    ("noun.quantity", 1),
    ("noun.relation", 1),
    ("noun.shape", 1),
    ("noun.state", 1),
    ("noun.substance", 1),
    ("noun.time", 1),
    ("verb.body", 2),
    ("verb.change", 2),
    ("verb.cognition", 2),
    ("verb.communication", 2),
    ("verb.competition", 2),
    ("verb.consumption", 2),
    ("verb.contact", 2),
    ("verb.creation", 2),
    ("verb.emotion", 2),
    ("verb.motion", 2),
    ("verb.perception", 2),
    ("verb.possession", 2),
    ("verb.social", 2),
    ("verb.stative", 2),
    ("verb.weather", 2),
    ("adj.ppl", 3),
)

SETUP_HINT = ("run `make install` (or `make test`), or `python -m promptanatomy_core.resources`, which installs "
              "Debian's wordnet-base and wordnet-sense-index when missing and copies them into an nltk_data folder; "
              "where the network allows, `python -c \"import nltk; nltk.download('wordnet')\"` works too")

_load_lock = threading.Lock()


def lexnames_text() -> str:
    """The ``lexnames`` file NLTK's reader expects: ``NN<TAB>name<TAB>pos-number`` per line."""
    return "".join(f"{i:02d}\t{name}\t{pos}\n" for i, (name, pos) in enumerate(LEXNAMES))


def _is_wordnet_dir(path: Path) -> bool:
    return path.is_dir() and all((path / name).is_file() for name in (*WORDNET_FILES, "lexnames"))


def _has_wordnet(root: Path) -> bool:
    """True when ``root`` (an nltk_data folder) holds WordNet as NLTK reads it: unpacked or NLTK's own zip."""
    corpora = root / "corpora"
    return _is_wordnet_dir(corpora / "wordnet") or (corpora / "wordnet.zip").is_file()


def _writable(path: Path) -> bool:
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            return False
        probe = probe.parent
    return os.access(probe, os.W_OK)


def default_data_root() -> Path:
    """The nltk_data folder the set-up writes to: ``<venv>/nltk_data`` (on NLTK's default path) inside a virtual
    environment, otherwise ``<cache dir>/nltk_data`` (``PROMPTANATOMY_CACHE_DIR``, default ``~/.cache/promptanatomy``)."""
    if sys.prefix != sys.base_prefix and _writable(Path(sys.prefix)):
        return Path(sys.prefix) / "nltk_data"
    from .settings import cache_dir

    return cache_dir() / "nltk_data"


def _candidate_roots() -> list[Path]:
    import nltk

    roots: list[Path] = []
    env = os.environ.get("NLTK_DATA", "")
    roots += [Path(p) for p in env.split(os.pathsep) if p]
    roots += [Path(p) for p in nltk.data.path if isinstance(p, (str, os.PathLike))]
    roots.append(Path(sys.prefix) / "nltk_data")
    from .settings import CACHE_ENV

    cache_root = os.environ.get(CACHE_ENV) or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "promptanatomy")
    roots.append(Path(cache_root).expanduser() / "nltk_data")
    seen: set[str] = set()
    unique = []
    for root in roots:
        key = str(root.expanduser())
        if key not in seen:
            seen.add(key)
            unique.append(root.expanduser())
    return unique


def find_wordnet() -> Path | None:
    """The first nltk_data folder that holds WordNet, or None. Looks in ``NLTK_DATA``, ``nltk.data.path``,
    ``<sys.prefix>/nltk_data`` and the project's cache dir."""
    for root in _candidate_roots():
        if _has_wordnet(root):
            return root
    return None


def ensure_wordnet() -> Path:
    """Make WordNet loadable offline and return the nltk_data folder that holds it (``<it>/corpora/wordnet``).

    The folder is appended to ``nltk.data.path`` when not already on it. Raises RuntimeError, naming the fix,
    when no WordNet data is found.
    """
    import nltk

    root = find_wordnet()
    if root is None:
        searched = ", ".join(str(p) for p in _candidate_roots())
        raise RuntimeError(f"WordNet data not found (looked for corpora/wordnet in: {searched}). To fix: {SETUP_HINT}.")
    if str(root) not in [str(p) for p in nltk.data.path]:
        nltk.data.path.append(str(root))
    return root


def wordnet():
    """The loaded ``nltk.corpus.wordnet`` reader (WordNet 3.0), after :func:`ensure_wordnet`."""
    ensure_wordnet()
    from nltk.corpus import wordnet as wn

    with _load_lock:  # LazyCorpusLoader is not safe to load from two threads at once (Streamlit runs several)
        wn.ensure_loaded()
    return wn


# --------------------------------------------------------------------------------------------------------------------
# set-up
# --------------------------------------------------------------------------------------------------------------------

def _apt_install(packages: tuple[str, ...] = DEBIAN_PACKAGES) -> None:
    if shutil.which("apt-get") is None:
        raise RuntimeError(f"{DEBIAN_WORDNET_DIR} lacks WordNet and apt-get is not available: install the Debian "
                           f"packages {' '.join(packages)} (or run nltk.download('wordnet')) by hand")
    prefix: list[str] = []
    if os.geteuid() != 0:
        if shutil.which("sudo") is None:
            raise RuntimeError(f"installing {' '.join(packages)} needs root: run "
                               f"`sudo apt-get install -y {' '.join(packages)}` and try again")
        prefix = ["sudo", "-n"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    print(f"resources: installing {' '.join(packages)} with apt-get", flush=True)
    wait = ["-o", "DPkg::Lock::Timeout=600"]  # another apt run (another set-up step) may hold the lock for a while
    subprocess.run([*prefix, "apt-get", *wait, "update"], check=True, env=env, stdin=subprocess.DEVNULL)
    subprocess.run([*prefix, "apt-get", *wait, "install", "-y", "--no-install-recommends", *packages], check=True,
                   env=env, stdin=subprocess.DEVNULL)


def _source_complete(source: Path) -> bool:
    return all((source / name).is_file() for name in WORDNET_FILES)


def install_wordnet(root: Path | None = None, source: Path = DEBIAN_WORDNET_DIR, allow_apt: bool = True) -> Path:
    """Copy Debian's WordNet into ``root/corpora/wordnet`` with a ``lexnames`` file; returns ``root``.

    Idempotent: nothing is done when the folder is already complete and its ``lexnames`` is right. ``apt-get`` runs
    only when ``source`` lacks files (and ``allow_apt``).
    """
    root = Path(root) if root is not None else default_data_root()
    target = root / "corpora" / "wordnet"
    if _is_wordnet_dir(target) and (target / "lexnames").read_text() == lexnames_text():
        return root
    if not _source_complete(source):
        if not allow_apt:
            missing = [n for n in WORDNET_FILES if not (source / n).is_file()]
            raise RuntimeError(f"{source} lacks {', '.join(missing)}; install Debian's {' '.join(DEBIAN_PACKAGES)}")
        _apt_install()
        if not _source_complete(source):
            missing = [n for n in WORDNET_FILES if not (source / n).is_file()]
            raise RuntimeError(f"after apt-get, {source} still lacks {', '.join(missing)}")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".wordnet-", dir=target.parent))
    try:
        staging.chmod(0o755)  # mkdtemp makes it private; the data is public
        for entry in sorted(source.iterdir()):  # every plain file: the reader's and the extras (frames.vrb, ...)
            if entry.is_file():
                shutil.copyfile(entry, staging / entry.name)  # a copy, not a link: the data stays if apt removes it
        (staging / "lexnames").write_text(lexnames_text())
        if target.exists():
            shutil.rmtree(target)
        os.replace(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    print(f"resources: WordNet copied from {source} into {target}", flush=True)
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m promptanatomy_core.resources",
                                     description="Set up WordNet 3.0 for offline use by NLTK.")
    parser.add_argument("--target", type=Path, default=None,
                        help="nltk_data folder to install into (default: <venv>/nltk_data, else the cache dir)")
    parser.add_argument("--source", type=Path, default=DEBIAN_WORDNET_DIR, help="folder holding Debian's WordNet files")
    parser.add_argument("--no-apt", action="store_true", help="never run apt-get; fail when the files are missing")
    parser.add_argument("--check", action="store_true", help="only report where WordNet is found; exit 1 if nowhere")
    args = parser.parse_args(argv)

    if args.check:
        root = find_wordnet()
        if root is None:
            print(f"resources: WordNet not found. To fix: {SETUP_HINT}", file=sys.stderr)
            return 1
        print(root)
        return 0

    root = args.target if args.target is not None else default_data_root()
    try:
        install_wordnet(root, source=args.source, allow_apt=not args.no_apt)
    except (RuntimeError, OSError, subprocess.CalledProcessError) as exc:
        other = find_wordnet()
        if args.target is not None or other is None:
            print(f"resources: WordNet set-up failed: {exc}", file=sys.stderr)
            return 1
        print(f"resources: warning: {exc}; using the WordNet already in {other}", file=sys.stderr)
    import nltk

    if _has_wordnet(root) and str(root) not in [str(p) for p in nltk.data.path]:
        nltk.data.path.append(str(root))
    wn = wordnet()
    print(f"resources: WordNet {wn.get_version()} ready in {ensure_wordnet()}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
