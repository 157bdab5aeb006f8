// zhiku web UI, library part: document management (search, paging, status, delete,
// re-ingest, chunks), the last folder sync, answer details and the trace as a timeline.
// Uses app.js's helpers (api, el, t, L, lang, openDoc); server data goes in with textContent.
"use strict";

Object.assign(L.zh, {
  library: "文档库", libSearch: "搜索标题、路径或 ID", title: "标题", subindex: "子库", version: "版本",
  inForce: "现行", notInForce: "已失效", chunksCol: "块", vectors: "向量", actions: "操作", showChunks: "分块",
  reingest: "重新导入", del: "删除", confirmDelete: "确定删除该文档？", prev: "上一页", next: "下一页",
  pageOf: (a, b, n) => `第 ${a}–${b} 条，共 ${n} 条`, close: "关闭", lastSync: "上次同步",
  neverSynced: "尚未同步文件夹（zhiku sync 或 watch 配置）", watching: "监视中",
  syncSummary: (r) => `新增 ${r.added.length}，修改 ${r.changed.length}，删除 ${r.deleted.length}，重命名 ${r.renamed.length}，未变 ${r.unchanged}`,
  lowConfidence: "置信度低，请核对原文", conflicts: "冲突", removed: "核验删除", flagged: "核验标注",
  searched: "检索范围", timeline: "步骤时间线", rawTrace: "原始数据", deleted: "已删除", kind: "类型",
  noVector: "无向量", article: "条", page: "页", empty: "没有匹配的文档", total: "合计",
  running: "进行中", queued: "排队", finished: "结束",
  phase: {
    reading: "读取文件", chunking: "分块", "writing index": "写入索引", indexes: "建立索引",
    "sub-index summaries": "子库摘要", "routing summaries": "路由向量", embedding: "向量化",
  },
  stageName: {
    resolve: "解析条款", rewrite: "改写追问", synonyms: "同义词扩展", route: "路由子库", chapters: "章节路由",
    keyword: "关键词检索", dense: "向量检索", fuse: "融合排序", focus: "聚焦", rerank: "重排序",
    refuse: "拒答判断", compose: "抽取式作答", generate: "模型生成", verify: "引用核验", cache: "答案缓存",
    structured: "表格查询", web: "网络检索", confidence: "置信度", validate: "检查问题", prepare: "准备检索",
    search: "检索", "routed search": "路由后检索", draft: "起草答案", finish: "定稿", join: "合并答案", store: "写入缓存",
    agent: "智能体",
  },
});
Object.assign(L.en, {
  library: "Library", libSearch: "Search title, path or id", title: "Title", subindex: "Sub-index",
  version: "Version", inForce: "in force", notInForce: "not in force", chunksCol: "Chunks", vectors: "Vectors",
  actions: "Actions", showChunks: "Chunks", reingest: "Re-ingest", del: "Delete",
  confirmDelete: "Delete this document?", prev: "Previous", next: "Next",
  pageOf: (a, b, n) => `${a}–${b} of ${n}`, close: "Close", lastSync: "Last sync",
  neverSynced: "No folder synced yet (zhiku sync, or the watch config)", watching: "watching",
  syncSummary: (r) => `${r.added.length} added, ${r.changed.length} changed, ${r.deleted.length} deleted, ${r.renamed.length} renamed, ${r.unchanged} unchanged`,
  lowConfidence: "low confidence: check the source", conflicts: "Conflicts", removed: "Removed by verification",
  flagged: "Flagged by verification", searched: "What was searched", timeline: "Timeline of steps",
  rawTrace: "Raw data", deleted: "Deleted", kind: "Kind", noVector: "no vector", article: "article",
  page: "page", empty: "No matching documents", total: "total", running: "running", queued: "queued",
  finished: "finished",
  phase: {
    reading: "reading files", chunking: "chunking", "writing index": "writing the index",
    indexes: "indexes", "sub-index summaries": "sub-index summaries",
    "routing summaries": "routing summaries", embedding: "embedding",
  },
  stageName: {
    resolve: "resolve clause", rewrite: "rewrite follow-up", synonyms: "expand synonyms", route: "route sub-index",
    chapters: "route chapters", keyword: "keyword search", dense: "dense search", fuse: "fuse rankings",
    focus: "focus", rerank: "rerank", refuse: "refusal check", compose: "extractive answer", generate: "LLM answer",
    verify: "verify citations", cache: "answer cache", structured: "table query", web: "web search",
    confidence: "confidence", validate: "check question", prepare: "prepare search", search: "search",
    "routed search": "routed search", draft: "draft answer", finish: "finish", join: "join answers",
    store: "store in cache", agent: "agent",
  },
});

const lib = { q: "", offset: 0, limit: 10, timer: null };
const tf = (k, ...a) => { const v = t(k); return typeof v === "function" ? v(...a) : v; };
const phaseName = (p) => { const [head, rest] = [p.split(" (")[0], p.includes(" (") ? " (" + p.split(" (")[1] : ""];
  return (t("phase")[head] || head) + rest; };
const stageName = (s) => t("stageName")[s] || s;

function libraryPanel() {
  if ($("library-panel")) return $("library-panel");
  const panel = el("section", { id: "library-panel", hidden: "" },
    el("div", { class: "lib-head" }, el("h2", { "data-i18n": "library" }, t("library")),
      el("input", { id: "lib-q", type: "search", "data-i18n-placeholder": "libSearch", placeholder: t("libSearch") }),
      el("span", { id: "lib-sync", class: "meta" }),
      el("button", { id: "lib-close", type: "button", "data-i18n": "close", onclick: () => { panel.hidden = true; } }, t("close"))),
    el("div", { id: "lib-status", role: "status", class: "meta" }),
    el("table", { id: "lib-table" }, el("thead"), el("tbody")),
    el("div", { class: "lib-pager" },
      el("button", { id: "lib-prev", type: "button", "data-i18n": "prev", onclick: () => libPage(-1) }, t("prev")),
      el("span", { id: "lib-page" }),
      el("select", { id: "lib-size", onchange: (e) => { lib.limit = Number(e.target.value); lib.offset = 0; loadDocs(); } },
        ...[5, 10, 20, 50].map((n) => { const o = el("option", { value: String(n) }, String(n)); o.selected = n === lib.limit; return o; })),
      el("button", { id: "lib-next", type: "button", "data-i18n": "next", onclick: () => libPage(1) }, t("next"))),
    el("div", { id: "lib-chunks" }));
  document.body.append(panel);
  $("lib-q").addEventListener("input", () => {
    clearTimeout(lib.timer);
    lib.timer = setTimeout(() => { lib.q = $("lib-q").value.trim(); lib.offset = 0; loadDocs(); }, 250);
  });
  return panel;
}

function libPage(dir) { lib.offset = Math.max(0, lib.offset + dir * lib.limit); loadDocs(); }

async function loadDocs() {
  const qs = new URLSearchParams({ q: lib.q, offset: lib.offset, limit: lib.limit });
  const head = $("lib-table").tHead, body = $("lib-table").tBodies[0];
  try {
    const page = await api(`/api/library?${qs}`);
    const th = (k) => el("th", { "data-i18n": k }, t(k));
    head.replaceChildren(el("tr", {}, th("title"), th("subindex"), th("version"), th("inForce"),
      th("chunksCol"), th("vectors"), th("actions")));
    body.replaceChildren(...page.items.map(docRow));
    if (!page.items.length) body.append(el("tr", {}, el("td", { colspan: "7", "data-i18n": "empty" }, t("empty"))));
    const a = page.total ? page.offset + 1 : 0, b = page.offset + page.items.length;
    $("lib-page").textContent = tf("pageOf", a, b, page.total);
    $("lib-prev").disabled = page.offset === 0;
    $("lib-next").disabled = b >= page.total;
  } catch (e) { body.replaceChildren(el("tr", {}, el("td", { class: "error", colspan: "7" }, e.message))); }
  loadSync();
}

function docRow(d) {
  const force = d.in_force ? el("span", { class: "badge ok" }, t("inForce")) : el("span", { class: "badge old" }, t("notInForce"));
  const vec = el("span", { class: d.vectors < d.searchable_chunks ? "warn" : "" }, `${d.vectors}/${d.searchable_chunks}`);
  const btn = (k, fn, cls = "") => el("button", { type: "button", class: cls, "data-action": k, onclick: fn }, t(k));
  return el("tr", { "data-doc": d.doc_id },
    el("td", { title: d.path }, el("a", { href: "#", onclick: (e) => { e.preventDefault(); openDoc(d.doc_id); } },
      d.title || d.path), el("div", { class: "meta" }, d.path)),
    el("td", {}, d.subindex), el("td", {}, d.version_date || "–"), el("td", {}, force),
    el("td", {}, String(d.chunks)), el("td", {}, vec),
    el("td", { class: "lib-actions" }, btn("showChunks", () => showChunks(d, 0)),
      btn("reingest", () => reingest(d)), btn("del", () => removeDoc(d), "danger")));
}

async function showChunks(d, offset) {
  const box = $("lib-chunks");
  const page = await api(`/api/documents/${encodeURIComponent(d.doc_id)}/chunks?offset=${offset}&limit=20`);
  const items = page.items.map((c) => el("li", { class: `chunk ${c.kind}`, "data-chunk": c.chunk_id },
    el("div", { class: "meta" }, [c.section.join(" › "), c.article, `${t("kind")}: ${c.kind}`,
      c.page != null ? `${t("page")} ${c.page}` : null, c.vector ? null : t("noVector"), c.chunk_id]
      .filter(Boolean).join(" · ")), el("div", { class: "chunk-text" }, c.text)));
  const more = [];
  if (offset > 0) more.push(el("button", { type: "button", onclick: () => showChunks(d, Math.max(0, offset - 20)) }, t("prev")));
  if (offset + page.items.length < page.total) more.push(el("button", { type: "button", id: "chunks-next", onclick: () => showChunks(d, offset + 20) }, t("next")));
  box.replaceChildren(el("h3", {}, `${page.title || page.path} · ${page.total} ${t("chunks")}`),
    el("ol", { start: String(offset + 1) }, ...items), el("div", { class: "lib-pager" }, ...more));
}

async function reingest(d) {
  const status = $("lib-status");
  try {
    const r = await api(`/api/documents/${encodeURIComponent(d.doc_id)}/reingest`, { method: "POST" });
    await watchJob(r.job.id, status);
  } catch (e) { status.textContent = e.message; status.className = "meta error"; }
}

async function removeDoc(d) {
  if (!window.confirm(t("confirmDelete"))) return;
  const status = $("lib-status");
  try {
    await api(`/api/documents/${encodeURIComponent(d.doc_id)}`, { method: "DELETE" });
    status.className = "meta"; status.dataset.state = "deleted";
    status.textContent = `${t("deleted")}: ${d.path}`;
    $("lib-chunks").replaceChildren();
    await loadDocs(); loadLibrary();
  } catch (e) { status.textContent = e.message; status.className = "meta error"; }
}

// A job's state and phase in the UI language, polled until it ends.
async function watchJob(id, status) {
  for (;;) {
    const job = await api(`/api/jobs/${id}`);
    status.dataset.state = job.state; status.className = "meta";
    const phase = job.phase ? ` · ${phaseName(job.phase)} ${job.phase_total ? `${job.phase_done}/${job.phase_total}` : ""}` : "";
    status.textContent = `${t(job.state === "running" ? "running" : job.state)} ${job.done}/${job.total}${phase}`
      + (job.error ? ` · ${job.error}` : "");
    if (job.state !== "running") { await loadDocs(); return job; }
    await new Promise((r) => setTimeout(r, 400));
  }
}

async function loadSync() {
  const box = $("lib-sync");
  try {
    const s = await api("/api/sync");
    const watching = s.watch.length ? ` · ${t("watching")}: ${s.watch.join(", ")}` : "";
    box.textContent = s.last ? `${t("lastSync")}: ${s.last.finished} · ${tf("syncSummary", s.last)}${watching}`
      : `${t("neverSynced")}${watching}`;
  } catch (e) { box.textContent = ""; }
}

// -- answer details and the trace timeline ---------------------------------------------------
function answerDetails(box, ans) {
  const meta = box.querySelector(".meta");
  if (meta && ans.low_confidence) {
    meta.classList.add("low");
    meta.append(el("span", { class: "badge low", "data-i18n": "lowConfidence" }, ` ${t("lowConfidence")}`));
  }
  const parts = [];
  if (ans.refused && ans.searched) parts.push(el("div", { class: "searched" }, el("b", {}, `${t("searched")}: `), ans.searched));
  if (ans.conflicts.length) {
    parts.push(el("div", { class: "conflicts" }, el("b", {}, t("conflicts")), el("ul", {}, ...ans.conflicts.map((c) =>
      el("li", {}, `${c.note} ${c.markers.map((m) => `[${m}]`).join("")}`)))));
  }
  if (ans.removed.length) {
    parts.push(el("div", { class: "removed" }, el("b", {}, t("removed")), el("ul", {}, ...ans.removed.map((r) =>
      el("li", {}, el("s", {}, r.sentence), el("span", { class: "meta" }, ` ${r.action === "dropped" ? "" : t("flagged") + " · "}${r.kind}: ${r.reason}`))))));
  }
  if (parts.length) meta.after(el("div", { class: "answer-details" }, ...parts));
  const trace = box.querySelector("details.trace");
  if (trace) trace.insertBefore(timeline(ans.trace), trace.querySelector("p, table"));
}

function timeline(steps) {
  const total = steps.reduce((s, x) => s + x.seconds, 0) || 1;
  let at = 0;
  const rows = steps.map((s) => {
    const row = el("li", { class: "step", "data-stage": s.stage },
      el("span", { class: "at" }, `${(at * 1000).toFixed(0)} ms`),
      el("span", { class: "name" }, stageName(s.stage)),
      el("span", { class: "bar" }, el("i", { style: `width:${Math.max(2, (100 * s.seconds) / total).toFixed(1)}%` })),
      el("span", { class: "secs" }, `${(s.seconds * 1000).toFixed(1)} ms`),
      el("span", { class: "detail" }, summary(s.detail)));
    at += s.seconds;
    return row;
  });
  return el("div", { class: "timeline" }, el("b", {}, `${t("timeline")} · ${t("total")} ${(total * 1000).toFixed(0)} ms`),
    el("ol", {}, ...rows));
}

function summary(detail) {
  return Object.entries(detail || {}).slice(0, 4).map(([k, v]) => {
    const val = Array.isArray(v) ? (v.length > 3 ? `${v.length}×` : v.map((x) => (typeof x === "object" ? JSON.stringify(x) : x)).join("、"))
      : typeof v === "object" && v !== null ? JSON.stringify(v).slice(0, 60) : String(v);
    return `${k}: ${val.slice(0, 80)}`;
  }).join(" · ");
}

// -- hooks -----------------------------------------------------------------------------------
document.addEventListener("zhiku:answer", (e) => answerDetails(e.detail.box, e.detail.ans));
document.addEventListener("zhiku:lang", () => { if ($("library-panel") && !$("library-panel").hidden) loadDocs(); });
(function start() {
  const btn = el("button", { id: "library-btn", type: "button", "data-i18n": "library" }, t("library"));
  btn.addEventListener("click", () => { const p = libraryPanel(); p.hidden = !p.hidden; if (!p.hidden) loadDocs(); });
  $("lang").before(btn);
})();
