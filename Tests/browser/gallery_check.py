#!/usr/bin/env python3
"""Drives headless Chromium through a running `photosync serve` (ServeBrowserTests).

    gallery_check.py SCENARIO BASE_URL ARTIFACTS_DIR EXPECTATIONS_JSON

Scenarios: navigation, search, pagination, hostile, layout, dark. Each checks the pages in the real
browser's DOM, saves screenshots under ARTIFACTS_DIR, prints one JSON object and exits 1 with the
reason when a check fails.
"""
import json
import sys
import urllib.parse

from cdp import Browser

# Images in the viewport (lazy ones below it are not loaded yet).
VISIBLE_IMAGES = "[...document.images].filter(i => i.getBoundingClientRect().top < innerHeight)"

OVERFLOW = """(() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > width + 1)
    .map(e => e.tagName + '.' + e.className);
  return {scrollWidth: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5)};
})()"""

# The page's background luminance and the text element with the least contrast against the
# background it is drawn on (WCAG 2 relative luminance and contrast ratio).
CONTRAST = """(() => {
  const rgba = e => getComputedStyle(e).backgroundColor.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map(v => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const behind = e => { for (; e; e = e.parentElement) { const c = rgba(e); if (c.length < 4 || c[3] > 0) return c; } return [255, 255, 255]; };
  const ratio = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  const texts = [...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null &&
    [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
  const rated = texts.map(e => ({what: e.tagName + '.' + e.className + ' ' + e.textContent.trim().slice(0, 20),
    ratio: ratio(luminance(getComputedStyle(e).color.match(/[\\d.]+/g).map(Number)), luminance(behind(e)))}));
  rated.sort((a, b) => a.ratio - b.ratio);
  return {background: luminance(behind(document.body)), texts: rated.length, worst: rated[0] || null};
})()"""


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def ids_on_page(browser):
    return browser.evaluate("[...document.querySelectorAll('.grid a')].map(a => decodeURIComponent(a.pathname.split('/').pop()))")


def navigation(browser, base, out, expect):
    browser.goto(base)
    check(browser.evaluate("document.querySelector('h1').textContent") == "Photographers", "the home page has no Photographers heading")
    browser.screenshot(out + "/navigation-home.png")
    browser.click(".people h2 a")
    name = browser.evaluate("document.querySelector('h1').textContent")
    check(name == expect["first_photographer"], f"the first photographer link led to {name!r}")
    browser.click(".grid a")
    check("/photos/" in browser.evaluate("location.pathname"), "a photo card did not lead to a photo page")
    fields = browser.evaluate("[...document.querySelectorAll('dl.fields dt')].map(e => e.textContent)")
    check({"id", "title", "photographer", "page"} <= set(fields), f"the photo page lacks show's fields: {fields}")
    browser.screenshot(out + "/navigation-photo.png")
    browser.evaluate("history.back()")
    browser.wait_until(f"document.querySelector('h1')?.textContent === {json.dumps(name)}")
    return {"photographer": name, "fields": fields}


def search(browser, base, out, expect):
    browser.goto(base)
    browser.evaluate("document.querySelector('input[name=q]').focus()")
    browser.call("Input.insertText", session=True, text=expect["query"])
    browser.click("form.search button")
    found = ids_on_page(browser)
    check(sorted(found) == sorted(expect["ids"]), f"search found {sorted(found)}, list --search {sorted(expect['ids'])}")
    browser.screenshot(out + "/search.png")
    return {"found": len(found)}


def pagination(browser, base, out, expect):
    browser.goto(base + "photographers/" + urllib.parse.quote(expect["photographer"], safe=""))
    seen, pages = [], 1
    seen += ids_on_page(browser)
    while browser.evaluate("document.querySelector('a[rel=next]') !== null"):
        check(pages < 100, "more than 100 pages")
        browser.click("a[rel=next]")
        pages += 1
        seen += ids_on_page(browser)
    browser.screenshot(out + "/pagination-last.png")
    check(len(seen) == len(set(seen)), "a photo showed on two pages")
    check(sorted(seen) == sorted(expect["ids"]), f"pages showed {len(seen)} photos, the catalog has {len(expect['ids'])}")
    check(pages == expect["pages"], f"{pages} pages, expected {expect['pages']}")
    return {"pages": pages, "photos": len(seen)}


def hostile(browser, base, out, expect):
    """Every page showing the hostile photos: each title shown as text, nothing injected, no dialog."""
    pages = {base + "photographers/" + urllib.parse.quote(expect["photographer"], safe=""): expect["shown"],
             base + "search?q=" + urllib.parse.quote(expect["query"], safe=""): expect["shown"]}
    for photo_id, title in zip(expect["ids"], expect["shown"]):
        pages[base + "photos/" + urllib.parse.quote(photo_id, safe="")] = [title]
    for url, titles in pages.items():
        browser.goto(url)
        text = browser.evaluate("document.body.innerText")
        for title in titles:
            check(title in text, f"{url}: the title {title!r} is not shown as text")
        injected = browser.evaluate("document.querySelectorAll('[onerror], [onload], script, img[src=x], a[href^=\"javascript\"]').length")
        check(injected == 0, f"{url}: {injected} injected elements in the DOM")
        check(browser.evaluate("typeof window.pwned") == "undefined", f"{url}: an injected script ran")
    browser.screenshot(out + "/hostile.png")
    browser.call("Page.navigate", session=True, url="about:blank")
    check(browser.dialogs == [], f"dialogs opened: {browser.dialogs}")
    return {"pages": len(pages), "dialogs": browser.dialogs}


def layout(browser, base, out, expect):
    results = {}
    for name, path in expect["pages"].items():
        browser.goto(base + path.lstrip("/"))
        browser.wait_until(VISIBLE_IMAGES + ".every(i => i.complete)")
        broken = browser.evaluate(VISIBLE_IMAGES + ".filter(i => i.naturalWidth === 0).map(i => i.src)")
        check(not broken, f"{path}: images that did not decode: {broken[:3]}")
        metrics = browser.evaluate(OVERFLOW)
        browser.screenshot(f"{out}/layout-{expect['label']}-{name}.png")
        check(metrics["scrollWidth"] <= metrics["width"] and not metrics["wide"],
              f"{path} at {expect['label']}: overflows horizontally {metrics}")
        results[name] = metrics
    return results


def dark(browser, base, out, expect):
    """`prefers-color-scheme: dark` (emulated): a dark background and every text readable on what it
    is drawn on (contrast at least 4.5, WCAG AA); light as the control, so the scheme is what changed."""
    results = {}
    for scheme in ["light", "dark"]:
        browser.call("Emulation.setEmulatedMedia", session=True, features=[{"name": "prefers-color-scheme", "value": scheme}])
        for name, path in expect["pages"].items():
            browser.goto(base + path.lstrip("/"))
            metrics = browser.evaluate(CONTRAST)
            browser.screenshot(f"{out}/{scheme}-{name}.png")
            if scheme == "dark":
                check(metrics["background"] < 0.05, f"{path} in dark mode: background luminance {metrics['background']:.3f}")
            else:
                check(metrics["background"] > 0.8, f"{path} in light mode: background luminance {metrics['background']:.3f}")
            check(metrics["texts"] > 0 and metrics["worst"]["ratio"] >= 4.5, f"{path} in {scheme} mode: hard to read {metrics['worst']}")
            results[f"{scheme}-{name}"] = metrics
    return results


def main():
    scenario, base, out, expect = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
    width, height = expect.get("viewport", [1440, 900])
    browser = Browser(width, height)
    try:
        result = globals()[scenario](browser, base, out, expect)
        print(json.dumps({"scenario": scenario, "ok": True, "result": result}))
    except AssertionError as failure:
        print(json.dumps({"scenario": scenario, "ok": False, "failure": str(failure)}))
        sys.exit(1)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
