// zhiku web UI: the API key (asked for when the server answers 401, kept in sessionStorage
// unless the user ticks "remember"), the header that marks requests as the UI's own, and
// error messages in the UI's language. Loaded before app.js, which calls zhikuAuth.
"use strict";

const zhikuAuth = (() => {
  const KEY = "zhiku.key";
  const T = {
    zh: {
      remember: "记住密钥", prompt: "此服务器需要 API 密钥。请输入您的密钥：", ok: "确定", cancel: "取消",
      401: "需要有效的 API 密钥：请输入密钥后重试。",
      403: "此密钥无权执行该操作（上传、索引和删除需要管理员密钥），或请求来自其他网站。",
      404: "未找到：该文档、章节或会话不存在，或此密钥无权查看。",
      409: "另一个写入操作正在进行，请稍后重试。",
      413: "文件过大：请上传更小或更少的文件。",
      400: "请求有误", 422: "请求有误", 500: "服务器内部错误，请查看服务器日志。",
      network: "无法连接服务器，请检查它是否在运行。",
    },
    en: {
      remember: "Remember key", prompt: "This server needs an API key. Enter your key:", ok: "OK",
      cancel: "Cancel", network: "Cannot reach the server; check that it is running.",
    },
  };
  const lng = () => (typeof lang !== "undefined" && T[lang] ? lang : "zh");
  const tr = (k) => T[lng()][k] ?? T.en[k];
  const input = () => document.getElementById("api-key");

  function stored() { return sessionStorage.getItem(KEY) || localStorage.getItem(KEY) || ""; }

  function save(key, remember) {
    sessionStorage.removeItem(KEY); localStorage.removeItem(KEY);
    if (key) (remember ? localStorage : sessionStorage).setItem(KEY, key);
  }

  function key() { return (input() && input().value.trim()) || stored(); }

  function headers(json) {
    const h = { "X-Zhiku-Request": "1" };
    const k = key();
    if (k) h["X-API-Key"] = k;
    if (json) h["Content-Type"] = "application/json";
    return h;
  }

  // One sentence in the UI's language; English keeps the server's own sentence.
  function message(status, detail) {
    if (lng() === "en") return detail || `HTTP ${status}`;
    const zh = T.zh[status] || T.zh[status >= 500 ? 500 : 400];
    return status === 400 || status === 422 ? `${zh}：${detail || ""}` : zh;
  }

  let asking = null;
  // Ask for the key in a dialog; resolves true when the user gave one.
  function prompt() {
    if (asking) return asking;
    const dlg = document.createElement("dialog");
    dlg.id = "key-dialog";
    const form = document.createElement("form");
    form.method = "dialog";
    const p = document.createElement("p"); p.textContent = tr("prompt");
    const field = document.createElement("input");
    field.type = "password"; field.id = "key-dialog-input"; field.autocomplete = "off";
    const lab = document.createElement("label");
    const box = document.createElement("input"); box.type = "checkbox"; box.id = "key-remember";
    lab.append(box, " ", tr("remember"));
    const ok = document.createElement("button"); ok.value = "ok"; ok.textContent = tr("ok");
    const no = document.createElement("button"); no.value = "cancel"; no.textContent = tr("cancel");
    form.append(p, field, lab, ok, no);
    dlg.append(form);
    document.body.append(dlg);
    asking = new Promise((resolve) => {
      dlg.addEventListener("close", () => {
        const k = field.value.trim();
        const given = dlg.returnValue === "ok" && !!k;
        if (given) { save(k, box.checked); if (input()) input().value = k; }
        dlg.remove(); asking = null; resolve(given);
      });
    });
    dlg.showModal(); field.focus();
    return asking;
  }

  function init() {
    localStorage.removeItem("zhiku.key.plain");
    const field = input();
    if (!field) return;
    field.value = stored();
    field.addEventListener("change", () => save(field.value.trim(), !!localStorage.getItem(KEY)));
  }

  return { key, headers, message, prompt, init, network: () => tr("network") };
})();
