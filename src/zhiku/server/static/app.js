// zhiku web UI: chat with streamed answers, citations that open their source, library, upload.
// No build step; every piece of server data is put in the page with textContent.
"use strict";

const L = {
  zh: {
    apiKey: "API 密钥", subindexes: "子库", documents: "文档", upload: "上传文档", uploadBtn: "上传",
    subindexName: "子库名（默认 uploads）", askPlaceholder: "输入问题，例如：试用期最长多久？", send: "提问",
    clear: "清空对话", reader: "原文", allSubindexes: "全部子库", confidence: "置信度", route: "路由与追踪",
    stage: "阶段", seconds: "秒", detail: "详情", uploading: "上传中", indexing: "索引中", done: "完成",
    failed: "失败", noFile: "请先选择文件", refused: "未找到", sources: "引用", thinking: "检索中…",
    chunks: "块", whole: "全文", scope: "范围",
  },
  en: {
    apiKey: "API key", subindexes: "Sub-indexes", documents: "Documents", upload: "Upload documents",
    uploadBtn: "Upload", subindexName: "sub-index (default uploads)", askPlaceholder: "Ask a question, e.g. 试用期最长多久？",
    send: "Ask", clear: "Clear chat", reader: "Source", allSubindexes: "All sub-indexes", confidence: "Confidence",
    route: "Route and trace", stage: "Stage", seconds: "s", detail: "Detail", uploading: "Uploading",
    indexing: "Indexing", done: "Done", failed: "Failed", noFile: "Choose a file first", refused: "Not found",
    sources: "Sources", thinking: "Searching…", chunks: "chunks", whole: "Whole text", scope: "Scope",
  },
};
let lang = localStorage.getItem("zhiku.lang") || "zh";
const t = (k) => (L[lang] && L[lang][k]) || k;
const $ = (id) => document.getElementById(id);
let session = sessionStorage.getItem("zhiku.session") || "";

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of kids) if (c != null) e.append(c instanceof Node ? c : String(c));
  return e;
}

function applyLang() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = t(n.dataset.i18n); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((n) => { n.placeholder = t(n.dataset.i18nPlaceholder); });
  $("lang").textContent = lang === "zh" ? "English" : "中文";
  document.dispatchEvent(new CustomEvent("zhiku:lang"));
}

const headers = (json = true) => zhikuAuth.headers(json);  // key, X-Zhiku-Request (auth.js)

async function api(path, opts = {}, retried = false) {
  const r = await fetch(path, { ...opts, headers: { ...headers(!!opts.body), ...(opts.headers || {}) } });
  const data = await r.json().catch(() => ({ error: r.statusText }));
  if (r.status === 401 && !retried && await zhikuAuth.prompt()) return api(path, opts, true);
  if (!r.ok) throw new Error(zhikuAuth.message(r.status, data.error || r.statusText));
  return data;
}

// -- library -------------------------------------------------------------------------------
async function loadLibrary(sub) {
  try {
    const subs = await api("/api/subindexes");
    const ul = $("subindexes"); ul.replaceChildren();
    const scope = $("scope"); const keep = scope.value;
    scope.replaceChildren(el("option", { value: "", "data-i18n": "allSubindexes" }, t("allSubindexes")));
    for (const s of subs) {
      ul.append(el("li", { class: s.name === sub ? "active" : "", onclick: () => loadLibrary(s.name) },
        s.name, el("span", { class: "count" }, `${s.documents}`)));
      scope.append(el("option", { value: s.name }, s.name));
    }
    scope.value = keep;
    const docs = await api("/api/documents" + (sub ? `?subindex=${encodeURIComponent(sub)}` : ""));
    const dl = $("documents"); dl.replaceChildren();
    for (const d of docs) {
      dl.append(el("li", { title: d.path, "data-doc": d.doc_id, onclick: () => openDoc(d.doc_id) },
        d.title || d.path, d.version_date ? el("span", { class: "count" }, d.version_date) : null));
    }
  } catch (e) { $("documents").replaceChildren(el("li", { class: "error" }, e.message)); }
}

function treeList(docId, nodes) {
  const ul = el("ul");
  for (const n of nodes) {
    const li = el("li", { "data-section": n.id }, n.label);
    li.addEventListener("click", (ev) => { ev.stopPropagation(); openSection(docId, n.id); });
    if (n.children.length) li.append(treeList(docId, n.children));
    ul.append(li);
  }
  return ul;
}

async function openDoc(docId) {
  const d = await api(`/api/documents/${encodeURIComponent(docId)}`);
  $("tree").replaceChildren(el("ul", {}, el("li", { onclick: () => openSection(docId, "") },
    `${t("whole")} · ${d.title}`)), treeList(docId, d.tree));
  await openSection(docId, "");
}

// Show a section; highlight `quote` (or the chunk's passage) when given.
async function openSection(docId, sectionId, quote, chunkId) {
  const path = sectionId ? `/api/documents/${encodeURIComponent(docId)}/sections/${encodeURIComponent(sectionId)}`
    : `/api/documents/${encodeURIComponent(docId)}/text`;
  let s;
  try { s = await api(path); } catch (e) {
    if (!sectionId) throw e;
    s = await api(`/api/documents/${encodeURIComponent(docId)}/text`);
  }
  $("reader-title").textContent = s.title || s.path;
  $("reader-path").textContent = [s.path, ...s.section_path].join(" › ");
  const box = $("reader-text"); box.replaceChildren();
  let [a, b] = findQuote(s.text, quote);
  if (a < 0 && chunkId) {
    const p = s.passages.find((x) => x.chunk_id === chunkId);
    if (p) [a, b] = [p.start, p.end];
  }
  if (a < 0) { box.textContent = s.text; return; }
  const mark = el("mark", { id: "highlight" }, s.text.slice(a, b));
  box.append(s.text.slice(0, a), mark, s.text.slice(b));
  mark.scrollIntoView({ block: "center" });
}

function findQuote(text, quote) {
  if (!quote) return [-1, -1];
  const q = quote.trim();
  let i = text.indexOf(q);
  if (i >= 0) return [i, i + q.length];
  const head = q.replace(/[。！？；\s]+$/u, "").slice(0, 40);  // quotes may be trimmed
  i = head ? text.indexOf(head) : -1;
  if (i < 0) return [-1, -1];
  const end = text.slice(i).search(/[。！？\n]/u);
  return [i, end < 0 ? text.length : i + end + 1];
}

async function openCitation(c) {
  const ch = await api(`/api/chunks/${encodeURIComponent(c.chunk_id)}`);
  await openDoc(ch.doc_id).catch(() => {});
  await openSection(ch.doc_id, ch.section_id === "0" ? "" : ch.section_id, c.quote, c.chunk_id);
  if (window.showCitedPage) await window.showCitedPage(ch, c.quote).catch(() => {});  // pages.js
}

// -- chat ----------------------------------------------------------------------------------
function renderAnswer(box, ans) {
  box.classList.toggle("refused", ans.refused);
  const text = box.querySelector(".text"); text.replaceChildren();
  const byMarker = Object.fromEntries(ans.citations.map((c) => [c.marker, c]));
  for (const part of ans.answer.split(/(\[\d+\])/)) {
    const m = part.match(/^\[(\d+)\]$/);
    if (m && byMarker[m[1]]) {
      const c = byMarker[m[1]];
      text.append(el("button", { class: "cite", type: "button", title: c.label, "data-marker": m[1],
        onclick: () => openCitation(c) }, m[1]));
    } else text.append(part);
  }
  if (ans.citations.length) {
    box.append(el("ul", { class: "cites" }, ...ans.citations.map((c) =>
      el("li", { onclick: () => openCitation(c) }, `[${c.marker}] ${c.label}`))));
  }
  box.append(el("div", { class: "meta" }, `${t("confidence")} ${ans.confidence.toFixed(2)}`,
    ans.refused ? ` · ${t("refused")}: ${ans.reason}` : ` · ${ans.reason || ""}`));
  const rows = ans.trace.map((s) => el("tr", {}, el("td", {}, s.stage), el("td", {}, s.seconds.toFixed(3)),
    el("td", {}, el("code", {}, JSON.stringify(s.detail)))));
  const route = ans.route ? el("p", {}, el("code", {}, JSON.stringify(ans.route))) : null;
  const th = (k) => el("th", { "data-i18n": k }, t(k));
  box.append(el("details", { class: "trace" }, el("summary", { "data-i18n": "route" }, t("route")), route,
    el("table", {}, el("tr", {}, th("stage"), th("seconds"), th("detail")), ...rows)));
  document.dispatchEvent(new CustomEvent("zhiku:answer", { detail: { box, ans } }));
}

async function* sse(response) {
  const reader = response.body.getReader();
  const dec = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let i;
    while ((i = buf.indexOf("\n\n")) >= 0) {
      const frame = buf.slice(0, i); buf = buf.slice(i + 2);
      const data = frame.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5)).join("\n");
      if (data) yield JSON.parse(data);
    }
  }
}

async function ask(question) {
  const msgs = $("messages");
  msgs.append(el("div", { class: "msg user" }, question));
  const box = el("div", { class: "msg bot" }, el("div", { class: "text" }, t("thinking")));
  msgs.append(box); box.scrollIntoView();
  const body = { question, session_id: session || null };
  if ($("scope").value) body.subindex = [$("scope").value];
  try {
    const r = await fetch("/api/chat/stream", { method: "POST", headers: headers(), body: JSON.stringify(body) });
    if (r.status === 401) zhikuAuth.prompt();
    if (!r.ok) { const e = await r.json().catch(() => ({})); throw new Error(zhikuAuth.message(r.status, e.error || r.statusText)); }
    const text = box.querySelector(".text"); let started = false;
    for await (const ev of sse(r)) {
      if (ev.type === "delta") { if (!started) { text.textContent = ""; started = true; } text.append(ev.text); }
      else if (ev.type === "answer") {
        session = ev.session_id || session; sessionStorage.setItem("zhiku.session", session);
        renderAnswer(box, ev.answer);
      } else if (ev.type === "error") throw new Error(ev.error);
    }
  } catch (e) { box.replaceChildren(el("div", { class: "text error" }, e.message)); }
  box.scrollIntoView({ block: "end" });
}

async function clearChat() {
  if (session) await api(`/api/chat/${encodeURIComponent(session)}`, { method: "DELETE" }).catch(() => {});
  session = ""; sessionStorage.removeItem("zhiku.session");
  $("messages").replaceChildren();
}

// -- upload --------------------------------------------------------------------------------
function upload() {
  const files = $("file-input").files;
  const status = $("upload-status"), bar = $("upload-progress");
  if (!files.length) { status.textContent = t("noFile"); return; }
  const form = new FormData();
  for (const f of files) form.append("files", f, f.name);
  if ($("upload-subindex").value.trim()) form.append("subindex", $("upload-subindex").value.trim());
  const xhr = new XMLHttpRequest();
  xhr.open("POST", "/api/documents");
  for (const [k, v] of Object.entries(headers(false))) xhr.setRequestHeader(k, v);
  bar.hidden = false; bar.value = 0; status.textContent = t("uploading");
  xhr.upload.onprogress = (e) => { if (e.lengthComputable) bar.value = (100 * e.loaded) / e.total; };
  xhr.onload = () => {
    const data = JSON.parse(xhr.responseText || "{}");
    if (xhr.status === 401) zhikuAuth.prompt();
    if (xhr.status !== 202) { status.textContent = `${t("failed")}: ${zhikuAuth.message(xhr.status, data.error || xhr.statusText)}`; status.className = "error"; return; }
    bar.value = 100; status.className = ""; poll(data.job.id);
  };
  xhr.onerror = () => { status.textContent = `${t("failed")}: ${zhikuAuth.network()}`; };
  xhr.send(form);
}

async function poll(id) {
  const status = $("upload-status");
  const job = await api(`/api/jobs/${id}`);
  status.dataset.state = job.state;
  const fails = job.failed.map((f) => `\n${f.file}: ${f.error}`).join("");
  if (job.state === "running") {
    status.textContent = `${t("indexing")} ${job.done}/${job.total} ${job.current}`;
    setTimeout(() => poll(id), 400);
    return;
  }
  status.textContent = job.state === "done"
    ? `${t("done")}: ${job.done}/${job.total}, ${job.report.chunks || 0} ${t("chunks")}${fails}`
    : `${t("failed")}: ${job.error}${fails}`;
  loadLibrary();
}

// -- start ---------------------------------------------------------------------------------
zhikuAuth.init();
$("api-key").addEventListener("change", () => loadLibrary());
$("lang").addEventListener("click", () => { lang = lang === "zh" ? "en" : "zh"; localStorage.setItem("zhiku.lang", lang); applyLang(); });
$("ask-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const q = $("question").value.trim();
  if (q) { $("question").value = ""; ask(q); }
});
$("question").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); $("ask-form").requestSubmit(); }
});
$("clear").addEventListener("click", clearChat);
$("upload-btn").addEventListener("click", upload);
applyLang();
loadLibrary();
