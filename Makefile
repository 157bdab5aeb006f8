# zhiku: two commands matter — `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
export OMP_NUM_THREADS ?= 2

.PHONY: demo test test-slow bench-pdf venv clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[dev]"
	touch $@

venv: $(VENV)/.installed

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

clean:
	rm -rf .zhiku .zhiku-demo

.PHONY: bench-reingest eval-report
bench-reingest: venv
	$(BIN)/python benchmarks/bench_reingest.py

eval-report: venv
	$(BIN)/python benchmarks/eval_report.py
