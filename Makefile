# digit-workbench — every entry point a researcher or CI uses.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export PYTHONUNBUFFERED := 1

.DEFAULT_GOAL := help
.PHONY: help setup demo test test-unit test-integration bench lint clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	@echo "==> setting up $(VENV) (CPU torch first, then the package)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP) ## create .venv and install the package (idempotent)

demo: $(STAMP) ## the main job: index the course, audit drift, run the catalogs and specs
	$(BIN)/workbench demo

test: $(STAMP) ## every test tier (unit, integration)
	$(BIN)/python -m pytest tests -q

test-unit: $(STAMP) ## fast tests, no models
	$(BIN)/python -m pytest tests/unit -q

test-integration: $(STAMP) ## tests with the real offline models
	$(BIN)/python -m pytest tests/integration -q

bench: $(STAMP) ## benchmarks with ratios against naive baselines
	$(BIN)/python bench/run_all.py

lint: $(STAMP) ## ruff and mypy
	$(BIN)/ruff check workbench tests bench
	$(BIN)/mypy

clean: ## remove caches and generated results (keeps .venv)
	rm -rf .cache results/*/ .pytest_cache .hypothesis
