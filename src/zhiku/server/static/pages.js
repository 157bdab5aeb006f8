// The cited page on screen: a PDF citation shows its page image, the passage highlighted,
// beside the text view. Loaded after app.js; uses its api key header helper.
(function () {
  "use strict";
  let current = null;  // object URL of the page image shown

  function view() {
    let fig = document.getElementById("page-view");
    if (!fig) {
      fig = document.createElement("figure");
      fig.id = "page-view";
      fig.hidden = true;
      const img = document.createElement("img");
      img.id = "page-image";
      img.alt = "";
      const cap = document.createElement("figcaption");
      cap.id = "page-caption";
      fig.append(img, cap);
      const text = document.getElementById("reader-text");
      text.parentNode.insertBefore(fig, text);
    }
    return fig;
  }

  function hide() {
    const fig = document.getElementById("page-view");
    if (fig) fig.hidden = true;
  }

  // Show page `ch.page` of the cited PDF with `quote` highlighted; hide it for other sources.
  async function showCitedPage(ch, quote) {
    if (!ch || !ch.page || !/\.pdf$/i.test(ch.doc || "")) { hide(); return; }
    const q = (quote || ch.text || "").slice(0, 400);
    const url = `/api/documents/${encodeURIComponent(ch.doc_id)}/pages/${ch.page}.png?highlight=${encodeURIComponent(q)}`;
    const r = await fetch(url, { headers: headers(false) });
    if (!r.ok) { hide(); return; }
    const blob = await r.blob();
    if (current) URL.revokeObjectURL(current);
    current = URL.createObjectURL(blob);
    const fig = view();
    const img = fig.querySelector("img");
    img.src = current;
    img.alt = `${ch.title || ch.doc} p.${ch.page}`;
    fig.querySelector("figcaption").textContent = `${ch.doc} · ${lang === "zh" ? "第 " + ch.page + " 页" : "page " + ch.page}`;
    fig.dataset.page = String(ch.page);
    fig.hidden = false;
  }

  window.showCitedPage = showCitedPage;
  window.hideCitedPage = hide;
})();
