# The one task runner for people and CI.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
DEMO := .demo

.PHONY: demo test lint install-check schema readme clean

$(INSTALLED): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[dev]'
	touch $(INSTALLED)

# Mine the bundled example repository, then explain the error in examples/inventory/ERROR.txt.
demo: $(INSTALLED)
	rm -rf $(DEMO) && mkdir -p $(DEMO)
	cp -R examples/inventory $(DEMO)/inventory
	cd $(DEMO)/inventory && git init --quiet --initial-branch=main \
		&& git add --all \
		&& git -c user.name=errdex -c user.email=demo@errdex.invalid commit --quiet -m "inventory demo" \
		&& git remote add origin https://github.com/errdex-demo/inventory.git
	$(BIN)/errdex --db $(DEMO)/errdex.sqlite mine $(DEMO)/inventory
	$(BIN)/errdex --db $(DEMO)/errdex.sqlite explain - < examples/inventory/ERROR.txt

test: $(INSTALLED) lint install-check
	bash scripts/install-browser.sh
	bash scripts/install-toolchains.sh
	bash scripts/start-postgres.sh
	$(BIN)/pytest -q -n 2

lint: $(INSTALLED)
	$(BIN)/ruff check src tests scripts benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

# A bare install works: the wheel, errdex[all] without the dev extra in a fresh venv,
# every command run once from it (and against PostgreSQL when one can be started).
install-check:
	PYTHON=$(PYTHON) bash scripts/check-install.sh

# Regenerate the committed JSON Schema from the record model.
schema: $(INSTALLED)
	$(BIN)/python -c "import json, errdex.records.model as r; print(json.dumps(r.json_schema(), indent=2))" > schema/dataset-line.schema.json

clean:
	rm -rf $(VENV) $(DEMO) .pytest_cache .ruff_cache .hypothesis

# Regenerate the CLI reference in README.md from the real --help texts.
readme: $(INSTALLED)
	$(BIN)/python scripts/readme_cli.py
