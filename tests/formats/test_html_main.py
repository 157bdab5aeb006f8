"""Web pages as sites publish them: the article kept, comments, recommendations and layout out."""

from __future__ import annotations

import pytest

from zhiku.ingest import load_file
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

ARTICLE = ["国务院常务会议部署进一步优化营商环境的措施，要求各地简化企业开办流程。",
           "会议指出，要在全国推行企业开办一网通办，将开办时间压缩至三个工作日以内。",
           "会议强调，各地区各部门要抓好政策落实，及时回应市场主体关切。"]

PAGE = """<html><head><title>国务院部署优化营商环境_新闻中心</title></head><body>
<div class="top-bar"><a href="/">首页</a> <a href="/news">新闻</a> <a href="/gov">政务</a></div>
<table width="100%"><tr><td class="left">
  <div class="main-text">
    <h1>国务院部署优化营商环境</h1>
    <div class="info">来源：新华社 2024-05-10</div>
    <h2>一、简化开办流程</h2>
    <p>{0}</p><p>{1}</p>
    <h2>二、抓好落实</h2>
    <p>{2}</p>
  </div>
  <div class="recommend-list"><h3>推荐阅读</h3><ul>
    <li><a href="/1">某地出台人才新政，最高补贴百万元</a></li>
    <li><a href="/2">第三季度经济数据发布，增速回升</a></li>
    <li><a href="/3">多地发布高温预警，提醒注意防暑</a></li></ul></div>
  <div id="comment-box"><h3>网友评论</h3>
    <div class="item">用户甲：这个政策太好了，希望尽快落地！</div>
    <div class="item">用户乙：开办企业终于不用跑断腿了。</div></div>
</td><td class="right" width="300">
  <div><h3>热门新闻</h3><a href="/4">新闻一则标题很长很长</a><a href="/5">新闻二则</a>
  <a href="/6">新闻三则</a></div>
</td></tr></table>
<div class="footer">版权所有 © 新闻网 京ICP备00000000号</div>
</body></html>""".format(*ARTICLE)


def test_news_page_keeps_the_article_and_drops_comments_and_recommendations(tmp_path):
    path = tmp_path / "新闻.html"
    path.write_text(PAGE, encoding="utf-8")
    doc = load_file(path, tmp_path)
    assert all(p in doc.body for p in ARTICLE)
    for junk in ("推荐阅读", "人才新政", "网友评论", "跑断腿", "热门新闻", "版权所有", "首页"):
        assert junk not in doc.body, junk
    assert doc.tables == ()  # the page's layout table is not a data table
    labels = [s.label for s in build_tree(doc)]
    assert "一、简化开办流程" in labels and "二、抓好落实" in labels
    assert not any("评论" in lab or "推荐" in lab for lab in labels)


HELP = """<div class="apiDetail"><div>
<h2>setting.view.fontCss</h2>
<h3>概述</h3>
<div class="desc"><div class="longdesc">
<p>个性化文字样式，只针对 zTree 在节点上显示的对象。</p>
<p>默认值：{{}}，表示不设置任何样式，节点名称以默认字体显示。</p>
<p>请注意：样式以 JSON 格式设置，与 jQuery 的 css 方法参数一致。</p></div></div>
<h3>Function 参数说明</h3>
<div class="desc"><h4>treeId</h4><p>对应 zTree 的 treeId，便于用户操控</p>
<h4>返回值</h4><p>JSON 格式的样式对象，例如 {{color:"#ff0011"}}</p></div>
</div></div>"""


def test_a_help_page_is_read_whole_around_its_densest_block(tmp_path):
    """An API help page holds no furniture: the description (its densest paragraphs), the
    parameters and the return value under their own headings are all read."""
    path = tmp_path / "help.html"
    path.write_text(HELP, encoding="utf-8")
    doc = load_file(path, tmp_path)
    assert "个性化文字样式" in doc.body and "便于用户操控" in doc.body and "color" in doc.body
    assert [s.label for s in build_tree(doc)][:3] == ["setting.view.fontCss", "概述", "Function 参数说明"]


def test_headed_links_around_the_densest_block_are_not_read(tmp_path):
    """The twin: when what holds the densest block's headings is mostly links (a site's
    headed menus), the block alone is read."""
    menus = "".join(f'<h3>栏目{i}</h3><a href="/{i}/a">政策文件汇编第{i}辑</a><a href="/{i}/b">办事指南第{i}辑</a>'
                    f'<a href="/{i}/c">常见问题解答第{i}辑</a>' for i in range(6))
    page = (f'<html><body><div class="wrap">{menus}<div class="box"><div class="text">'
            + "".join(f"<p>{p}</p>" for p in ARTICLE * 2) + "</div></div></div></body></html>")
    path = tmp_path / "menus.html"
    path.write_text(page, encoding="utf-8")
    doc = load_file(path, tmp_path)
    assert all(p in doc.body for p in ARTICLE) and "政策文件汇编" not in doc.body and "栏目" not in doc.body


def test_a_data_table_in_a_page_stays_a_table(tmp_path):
    path = tmp_path / "价目.html"
    path.write_text("<html><body><article><h1>收费标准</h1><p>以下为本年度收费标准，自发布之日起执行。</p>"
                    "<table><tr><th>项目</th><th>单价（元）</th></tr><tr><td>停车</td><td>5</td></tr>"
                    "<tr><td>充电</td><td>1.2</td></tr></table></article></body></html>",
                    encoding="utf-8")
    (table,) = load_file(path, tmp_path).tables
    assert table.columns == ("项目", "单价（元）") and table.rows[1] == ("充电", "1.2")


def test_merged_cells_of_a_page_table_fill_down_and_leave_the_span_across_empty(tmp_path):
    path = tmp_path / "参数.html"
    path.write_text("<html><body><article><h1>命令参数</h1><p>以下为命令及其参数说明。</p><table>"
                    "<tr><td><p>命令</p></td><td><p>参数</p></td><td><p>说明</p></td></tr>"
                    "<tr><td rowspan=2><p>start</p></td><td><p>-p</p></td><td><p>端口</p></td></tr>"
                    "<tr><td><p>-h</p></td><td><p>帮助</p></td></tr>"
                    "<tr><td><p>stop</p></td><td colspan=2><p>无参数</p></td></tr>"
                    "</table></article></body></html>", encoding="utf-8")
    (table,) = load_file(path, tmp_path).tables  # <p> in every cell: still a data table
    assert table.rows == (("start", "-p", "端口"), ("start", "-h", "帮助"), ("stop", "无参数", ""))


def test_html_table_in_markdown_is_read_but_one_in_a_code_fence_is_kept(tmp_path):
    path = tmp_path / "说明.md"
    path.write_text("# 说明\n\n## 参数\n\n<table><tr><td>名称</td><td>默认值</td></tr>"
                    "<tr><td>端口</td><td>8080</td></tr></table>\n\n## 示例\n\n```html\n"
                    "<table><tr><td>原样</td></tr></table>\n```\n", encoding="utf-8")
    doc = load_file(path, tmp_path)
    (table,) = doc.tables
    assert table.columns == ("名称", "默认值") and table.rows == (("端口", "8080"),)
    assert "<table><tr><td>原样</td></tr></table>" in doc.body


def test_zero_width_spaces_a_documentation_site_puts_in_headings_are_not_read(tmp_path):
    # Docusaurus ends every heading with a hash link holding U+200B (&ZeroWidthSpace;):
    # the chapter is 「配置管理」, not 「配置管理\u200b」; a heading without one is unchanged
    page = ("<html><head><title>控制台手册\u200b</title></head><body><article>"
            "<h2 class=\"anchor\" id=\"pz\">配置管理<a href=\"#pz\" class=\"hash-link\">\u200b</a></h2>"
            "<p>配置管理可以对所有的配置进行增删改查、历史版本回滚和监听查询。\u200b</p>"
            "<h2 id=\"fw\">服务管理</h2><p>服务列表展示当前命名空间下的全部服务及其实例数量。</p>"
            "<table><tr><th>参数\u200b</th><th>说明</th></tr><tr><td>dataId\u200b</td><td>配置的标识</td></tr></table>"
            "</article></body></html>")
    p = tmp_path / "控制台手册.html"
    p.write_text(page, encoding="utf-8")
    doc = load_file(p, tmp_path)
    assert doc.title == "控制台手册"
    assert [e.label for e in doc.outline] == ["配置管理", "服务管理"]
    assert "\u200b" not in doc.body
    assert doc.tables[0].columns == ("参数", "说明") and doc.tables[0].rows[0][0] == "dataId"
    assert [s.label for s in build_tree(doc) if s.label][:2] == ["配置管理", "服务管理"]
