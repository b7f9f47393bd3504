"""A crawler for ``tests/tuppiliitto/test_crawl.py``: from a few start pages it follows every link (``<a href>``, and the
``hx-get`` of a live part), every GET form (submitted with its default values, and a search box also with
a typical value) and the redirects, within the project's own URLs, with Django's test client; then it
switches the language once through the footer's form (a POST to ``set_language``) and crawls the same
way in English.

Every answer must be 200, 302, 304 or a deliberate 4xx, with the content type its address promises (a
PDF, a workbook); every HTML answer must parse with balanced tags (``html.parser``), a whole page with
its ``<main>``. Pages that are one view with another id count once per id up to ``per_pattern`` ids (a
file: one), resolved by ``django.urls.resolve``; ``cap`` bounds the requests of one crawl. PDFs and
workbooks (WeasyPrint takes seconds) are fetched in one of the two passes, ``files_language``.

Left out: /admin/ (Django's own), /static/, other hosts, logging out and every POST form but the
language switch.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

from django.urls import Resolver404, resolve

ANSWERS = {200, 302, 304, 400, 403, 404, 405, 410, 429}  # 400: a NUL or a bad value, said on purpose
SKIP_PREFIXES = ("/admin/", "/static/", "/i18n/", "/kirjaudu-ulos/")
HOSTS = {"", "testserver"}
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CONTENT_TYPES = {".pdf": "application/pdf", ".xlsx": XLSX, ".ics": "text/calendar", ".json": "application/json"}

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Elements whose end tag HTML lets one leave out (a parser closes them by itself).
OPTIONAL_END = {
    "p", "li", "dt", "dd", "option", "optgroup", "tr", "td", "th", "thead", "tbody", "tfoot", "colgroup",
    "caption", "html", "head", "body", "rt", "rp",
}


@dataclass
class Form:
    method: str
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    searches: list[str] = field(default_factory=list)  # names of its search boxes
    selects: dict[str, list[tuple[str, bool]]] = field(default_factory=dict)
    buttons: list[tuple[str, str, bool]] = field(default_factory=list)  # name, value, disabled

    def query(self, search: str | None = None) -> list[tuple[str, str]]:
        """The values a browser sends with the defaults (a search box filled with ``search`` if given)."""
        out = [(k, search if search is not None and k in self.searches else v) for k, v in self.fields]
        for name, options in self.selects.items():
            chosen = [v for v, selected in options if selected] or [v for v, _s in options[:1]]
            out += [(name, v) for v in chosen[:1]]
        return out


class Page(HTMLParser):
    """One HTML answer read once: its links, live parts, forms, ``<main>`` and what does not balance."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.links: list[str] = []
        self.live: list[str] = []
        self.forms: list[Form] = []
        self.has_main = False
        self.whole = False
        self._form: Form | None = None
        self._select: str | None = None
        self._option: tuple[str, bool] | None = None

    def handle_starttag(self, tag, attrs):
        self._open(tag, dict(attrs))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._open(tag, dict(attrs))  # <br/>, an SVG's <path/>: nothing to close

    def _open(self, tag, attrs):
        attrs = {k: v if v is not None else "" for k, v in attrs.items()}
        if tag == "html":
            self.whole = True
        elif tag == "main":
            self.has_main = True
        elif tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if attrs.get("hx-get"):
            self.live.append(attrs["hx-get"])
        if tag == "form":
            self._form = Form(attrs.get("method", "get").lower(), attrs.get("action", ""))
            self.forms.append(self._form)
        elif self._form is not None:
            self._field(tag, attrs)

    def _field(self, tag, attrs):
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text").lower()
            if kind in ("submit", "image", "button", "reset", "file"):
                if kind == "submit":
                    self._form.buttons.append((name, attrs.get("value", ""), "disabled" in attrs))
            elif kind not in ("checkbox", "radio") or "checked" in attrs:
                self._form.fields.append((name, attrs.get("value", "on" if kind == "checkbox" else "")))
            if kind == "search":
                self._form.searches.append(name)
        elif tag == "button" and name and attrs.get("type", "submit") == "submit":
            self._form.buttons.append((name, attrs.get("value", ""), "disabled" in attrs))
        elif tag == "select" and name:
            self._select = name
            self._form.selects[name] = []
        elif tag == "option" and self._select is not None:
            self._form.selects[self._select].append((attrs.get("value", ""), "selected" in attrs))
        elif tag == "textarea" and name:
            self._form.fields.append((name, ""))

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        if tag in VOID:
            return
        if tag not in self.stack:
            self.errors.append(f"</{tag}> closes nothing open")
            return
        while self.stack:
            top = self.stack.pop()
            if top == tag:
                break
            if top not in OPTIONAL_END:
                self.errors.append(f"<{top}> left open by </{tag}>")

    def finish(self) -> list[str]:
        self.close()
        left = [t for t in self.stack if t not in OPTIONAL_END]
        errors = list(self.errors) + ([f"left open at the end: {', '.join(left)}"] if left else [])
        if self.whole and not self.has_main:
            errors.append("no <main>")
        return errors


def internal(url: str, base: str) -> str | None:
    """``url`` (as written on the page ``base``) as a path with its query, if it is the project's own and
    one to crawl; else None."""
    if url.startswith(("mailto:", "tel:", "javascript:", "data:", "#")):
        return None
    parts = urlsplit(urljoin(base, url))
    if parts.scheme not in ("", "http", "https") or parts.netloc not in HOSTS:
        return None
    if parts.path.startswith(SKIP_PREFIXES):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


ID_KWARGS = {"slug", "token", "name", "years"}  # beside every number: what names one page of many
# A list's sort order and page (``lib.tables``): the same view of the same rows, one pattern with the plain
# list, so that its ``per_pattern`` addresses are the list and some of its orders and pages, not every one.
LIST_KEYS = {"jarjestys", "sivu"}


def pattern(url: str, live: bool) -> tuple:
    """What makes two addresses the same page with another id: the view's name, its arguments that are
    not ids (a scoresheet printout's stage), and the query's keys."""
    parts = urlsplit(url)
    try:
        found = resolve(parts.path)
    except Resolver404:
        return "?" + parts.path, (), (), live
    kinds = tuple(sorted((k, v) for k, v in found.kwargs.items() if k not in ID_KWARGS and not isinstance(v, int)))
    keys = tuple(sorted({k for k, _v in parse_qsl(parts.query, keep_blank_values=True)} - LIST_KEYS))
    return found.view_name, kinds, keys, live


def is_file(url: str) -> bool:
    return urlsplit(url).path.endswith(tuple(CONTENT_TYPES))


@dataclass
class Crawl:
    """One visitor's crawl: ``client`` (anonymous, or logged in), ``search`` the typical search value."""

    client: object
    search: str = ""
    files_language: str = "fi"  # the pass that fetches the PDFs and workbooks (WeasyPrint takes seconds)
    per_pattern: int = 3
    cap: int = 400
    fetched: int = 0
    failures: list[str] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    views: Counter = field(default_factory=Counter)  # the pages fetched, by view name
    language: str = "fi"  # the pass under way
    # Addresses (with the live flag and the language) fetched by another visitor whose answers are this
    # one's too (anonymous visitors of the same state): not fetched again, and this crawl's added to them.
    shared: set[tuple[str, bool, str]] | None = None
    _language_form: tuple[str, Form] | None = None

    def run(self, starts: list[str]) -> Crawl:
        """Crawl from ``starts`` in the default language, switch the language once, crawl again."""
        self._pass(starts, "fi")
        if self._language_form is None:
            self.failures.append("no language switch found on any page")
            return self
        page, form = self._language_form
        other = [v for name, v, disabled in form.buttons if name == "language" and not disabled]
        data = dict(form.query()) | {"language": other[0]}
        response = self.client.post(form.action or page, data)
        self._check("POST", form.action, response, page)
        lang = self.client.get(starts[0]).content.decode(errors="replace")
        if f'<html lang="{other[0]}"' not in lang:
            self.failures.append(f"the language switch to {other[0]} did not change {starts[0]}")
        self._pass(starts, other[0])
        return self

    def _pass(self, starts: list[str], language: str) -> None:
        self.language = language
        queue = deque((url, False, "start") for url in starts)
        seen: set[tuple[str, bool]] = set()
        per: dict[tuple, set[str]] = {}
        while queue and self.fetched < self.cap:
            url, live, source = queue.popleft()
            if (url, live) in seen or (is_file(url) and self.language != self.files_language):
                continue
            seen.add((url, live))
            if self.shared is not None:
                if (url, live, language) in self.shared:
                    continue
                self.shared.add((url, live, language))
            key = pattern(url, live)
            limit = 1 if is_file(url) else self.per_pattern
            ids = per.setdefault(key, set())
            if len(ids) >= limit:
                continue
            ids.add(url)
            self.views[key[0]] += 1
            for found in self._fetch(url, live, source):
                queue.append(found)

    def _fetch(self, url: str, live: bool, source: str) -> list[tuple[str, bool, str]]:
        self.fetched += 1
        headers = {"HTTP_HX_REQUEST": "true"} if live else {}
        response = self.client.get(url, **headers)
        if not self._check("GET", url + (" (hx)" if live else ""), response, source):
            return []
        if response.status_code in (301, 302):
            target = internal(response["Location"], url)
            return [(target, False, url)] if target else []
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            return []
        return self._read(url, response.content.decode())

    def _check(self, method: str, url: str, response, source: str) -> bool:
        status = response.status_code
        self.statuses[status] += 1
        where = f"{method} {url} [{self.language}] (from {source})"
        if status not in ANSWERS:
            exc = getattr(response, "exc_info", None)
            self.failures.append(f"{where} → {status} {repr(exc[1])[:300] if exc else ''}")
            return False
        if status == 200:
            path = urlsplit(url).path
            want = next((t for ext, t in CONTENT_TYPES.items() if path.endswith(ext)), None)
            got = response.get("Content-Type", "")
            if want and not got.startswith(want):
                self.failures.append(f"{where} → {got}, not {want}")
        return True

    def _read(self, url: str, html: str) -> list[tuple[str, bool, str]]:
        page = Page()
        page.feed(html)
        errors = page.finish()
        if errors:
            self.failures.append(f"GET {url} [{self.language}] does not parse: {'; '.join(errors[:5])}")
        found = [(u, False) for u in page.links] + [(u, True) for u in page.live]
        for form in page.forms:
            if form.method == "post":
                if urlsplit(form.action).path.rstrip("/").endswith("setlang") and self._language_form is None:
                    self._language_form = (url, form)
                continue
            action = urljoin(url, form.action or url).split("#")[0]
            found.append((f"{action.split('?')[0]}?{urlencode(form.query())}", False))
            if form.searches and self.search:
                found.append((f"{action.split('?')[0]}?{urlencode(form.query(self.search))}", False))
        out = []
        for target, live in found:
            path = internal(target, url)
            if path is not None:
                out.append((path, live, url))
        return out

    def summary(self) -> str:
        codes = ", ".join(f"{code}: {n}" for code, n in sorted(self.statuses.items()))
        capped = " (the cap was reached)" if self.fetched >= self.cap else ""
        return f"{self.fetched} requests ({codes}){capped}"
