"""WordNet loads offline from the project's own set-up (Debian's files + our lexnames)."""
from __future__ import annotations

import re
from pathlib import Path

import nltk
import pytest

from promptanatomy_core import resources


@pytest.fixture(scope="module")
def wn():
    return resources.wordnet()


def test_ensure_wordnet_returns_nltk_data_root_on_path():
    root = resources.ensure_wordnet()
    assert isinstance(root, Path)
    assert (root / "corpora" / "wordnet").is_dir() or (root / "corpora" / "wordnet.zip").is_file()
    assert str(root) in [str(p) for p in nltk.data.path]
    assert resources.ensure_wordnet() == root  # idempotent, no duplicate path entries
    assert [str(p) for p in nltk.data.path].count(str(root)) == 1


def test_wordnet_version_and_lookups(wn):
    assert wn.get_version() == "3.0"
    good = wn.synsets("good")
    assert good
    names = {name for s in good for name in s.lemma_names()}
    assert {"good", "well", "beneficial"} <= names
    assert "dog.n.01" in {s.name() for s in wn.synsets("dog")}
    assert wn.synset("dog.n.01").lexname() == "noun.animal"
    assert wn.synset("run.v.01").lexname() == "verb.motion"
    # index.sense is read for sense keys
    assert wn.lemma_from_key("dog%1:05:00::").synset() == wn.synset("dog.n.01")
    # morphy uses the exception files
    assert wn.morphy("geese", wn.NOUN) == "goose"


def test_lexnames_count_and_reader_agree(wn):
    assert len(resources.LEXNAMES) == 45
    lines = resources.lexnames_text().splitlines()
    assert len(lines) == 45
    assert lines[0] == "00\tadj.all\t3"
    assert lines[3] == "03\tnoun.Tops\t1"
    assert lines[44] == "44\tadj.ppl\t3"
    assert wn._lexnames == [name for name, _ in resources.LEXNAMES]


_POS_NUMBER = {"n": 1, "v": 2, "a": 3, "s": 3, "r": 4}


def test_lexnames_match_every_synset_in_the_data_files():
    """Each synset's lex_filenum (data.* field 2) names a lexicographer file of the synset's own category, and every
    one of the 45 files is used."""
    folder = resources.ensure_wordnet() / "corpora" / "wordnet"
    assert folder.is_dir(), "make install unpacks WordNet into .venv/nltk_data/corpora/wordnet"
    used = set()
    for pos in ("noun", "verb", "adj", "adv"):
        with open(folder / f"data.{pos}", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("  "):  # licence header
                    continue
                _offset, filenum, ss_type, *_ = line.split(" ", 3)
                name, number = resources.LEXNAMES[int(filenum)]
                assert number == _POS_NUMBER[ss_type], line[:60]
                assert name.split(".")[0] == {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}[ss_type]
                used.add(int(filenum))
    assert used == set(range(45))


def test_missing_data_raises_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(resources, "_candidate_roots", lambda: [tmp_path / "nowhere"])
    with pytest.raises(RuntimeError, match=r"make install|promptanatomy_core\.resources"):
        resources.ensure_wordnet()


def test_install_wordnet_copies_and_is_idempotent(tmp_path):
    source = resources.ensure_wordnet() / "corpora" / "wordnet"
    if not source.is_dir():
        source = resources.DEBIAN_WORDNET_DIR
    assert all((source / n).is_file() for n in resources.WORDNET_FILES), "no unpacked WordNet files to copy from"
    root = resources.install_wordnet(tmp_path / "nltk_data", source=source, allow_apt=False)
    target = root / "corpora" / "wordnet"
    assert (target / "lexnames").read_text() == resources.lexnames_text()
    assert all((target / n).is_file() and not (target / n).is_symlink() for n in resources.WORDNET_FILES)
    stamp = (target / "data.noun").stat().st_mtime_ns
    resources.install_wordnet(root, source=source, allow_apt=False)  # second run: nothing copied
    assert (target / "data.noun").stat().st_mtime_ns == stamp
    assert not [p for p in target.parent.iterdir() if p.name.startswith(".wordnet-")]


def test_nltk_data_env_is_honoured(tmp_path, monkeypatch):
    source = resources.ensure_wordnet() / "corpora" / "wordnet"
    assert source.is_dir(), "no unpacked WordNet files to copy from"
    root = resources.install_wordnet(tmp_path / "elsewhere", source=source, allow_apt=False)
    monkeypatch.setenv("NLTK_DATA", str(root))
    monkeypatch.setattr(nltk.data, "path", list(nltk.data.path))  # restored afterwards
    assert resources.find_wordnet() == root
    assert resources.ensure_wordnet() == root
    assert str(root) in nltk.data.path


def test_install_wordnet_without_source_and_apt_fails_clearly(tmp_path):
    with pytest.raises(RuntimeError, match=re.escape("wordnet-base")):
        resources.install_wordnet(tmp_path / "nltk_data", source=tmp_path / "empty", allow_apt=False)
