#!/usr/bin/env python3
"""The live view in a real browser: headless Chromium (Debian's chromium and chromium-driver,
driven by Selenium) opens the page of a running `reflector-emu ... --view` and checks what it
shows against what the same run printed.

usage: view_browser.py URL JSONL_FILE SUMMARY_TEXT [SCREENSHOT.png]   (loopback's page)
       view_browser.py --stream URL JSONL_FILE                       (check 1 only, no browser)
       view_browser.py --pages PAGES.json                            (several pages, one browser)

PAGES.json is a list of {"kind", "url", "jsonl", "summary", "screenshot"} (summary and
screenshot may be null; kind is loopback, estimate, range, accessory, nearby or tdoa, and
chooses what is checked of the page beyond the stream and the summary).

JSONL_FILE holds the run's JSON Lines (one record per procedure, then {"summary": ...} where the
command writes one);
SUMMARY_TEXT is the summary line the command prints in text mode. Checks:
  1. the event stream (read first, with a deadline) carries each procedure's record as the
     very octets of its JSON line, in order, and the summary's JSON;
  2. the page's distance trace grows to one point per record, each carrying that record's
     counter, time, distance, smoothed distance and quality;
  3. the chosen procedure's plots are drawn (non-empty SVG paths, one cell per tone), for the
     latest and, through the slider, for the first;
  4. the page's summary line is SUMMARY_TEXT, and the set-up panel is filled.
Prints one JSON object ({"ok": ..., "failures": [...], ...}); exit status 0 when all hold.
"""
import json
import re
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

TIMEOUT = 60


def read_stream(url):
    """The event stream's events until the summary: [(name, data)], each read with a deadline."""
    events, name, data = [], None, []
    deadline = time.monotonic() + TIMEOUT
    with urllib.request.urlopen(url + "events", timeout=10) as stream:
        while time.monotonic() < deadline:
            line = stream.readline()
            if not line:
                break
            line = line.decode("utf-8").rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "":
                if data:
                    events.append((name, "\n".join(data)))
                    if name == "summary":
                        return events
                name, data = None, []
    raise RuntimeError("the stream ended or timed out before its summary")


def same(a, b):
    """Values equal as the JSON numbers they were written as (null for null)."""
    if a is None or b is None:
        return a is None and b is None
    return float(a) == float(b)


def load(jsonl):
    """The records (as their lines and parsed) and the summaries of a JSON Lines file."""
    lines = [l for l in open(jsonl, encoding="utf-8").read().split("\n") if l]
    records = [l for l in lines if not l.startswith('{"summary"')]
    # A command whose JSON Lines end in a summary record streams the same summary.
    summaries = [json.loads(l) for l in lines if l.startswith('{"summary"')]
    return records, [json.loads(l) for l in records], summaries


def check_stream(page, failures):
    """1. The stream, octet for octet; returns its events."""
    records, _, summaries = load(page["jsonl"])
    events = read_stream(page["url"])
    streamed = [d for n, d in events if n == "procedure"]
    if streamed != records:
        failures.append(f"the stream's {len(streamed)} procedure events are not the {len(records)} JSON lines")
    summary_event = json.loads([d for n, d in events if n == "summary"][-1])
    if summaries and summary_event["json"] != summaries[-1]:
        failures.append("the stream's summary JSON differs from the JSON Lines' summary")
    return events


def words(text):
    return " ".join(text.split())


def drawn(driver, selector):
    """Whether an SVG path under `selector` has a drawn line."""
    ds = driver.execute_script(f"return [...document.querySelectorAll('{selector} path')].map(p => p.getAttribute('d') || '')")
    return any(len(d) > 20 for d in ds)


def check_trace(driver, wait, rows, failures, keys):
    """2. One trace point per record that has a distance, each with the record's values."""
    rows = [r for r in rows if "distance_m" in r]
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#trace-points circle")) >= len(rows))
    points = driver.execute_script("return [...document.querySelectorAll('#trace-points circle')].map(c => c.dataset)")
    if len(points) != len(rows):
        failures.append(f"the trace has {len(points)} points, not {len(rows)}")
    for i, (p, r) in enumerate(zip(points, rows)):
        for attr, key in keys:
            v = None if p[attr] in ("null", "undefined") else p[attr]
            if not same(v, r.get(key)):
                failures.append(f"point {i}: {attr} {p[attr]} is not the record's {key} {r.get(key)}")
    if not drawn(driver, "#trace"):
        failures.append("the trace has no drawn line")
    return len(points)


def plots_drawn(driver, which, failures, svgs=("amplitude", "phase", "impulse")):
    """3. The chosen procedure's plots."""
    for svg in svgs:
        if not drawn(driver, "#" + svg):
            failures.append(f"{which}: the {svg} plot has no drawn path")
    cells = len(driver.find_elements(By.CSS_SELECTOR, "#steps rect[class^=q]"))
    if cells == 0:
        failures.append(f"{which}: no tone-quality cells")
    return cells


TRACE_KEYS = [("counter", "procedure_counter"), ("time", "time_s"), ("distance", "distance_m"),
              ("smoothed", "smoothed_distance_m"), ("quality", "quality")]


def check_page(driver, page, events, failures):
    """2.-4. for one page, by its kind."""
    kind, result = page["kind"], {}
    _, rows, _ = load(page["jsonl"])
    summary_text = page.get("summary") or json.loads([d for n, d in events if n == "summary"][-1])["text"]
    driver.get(page["url"])
    wait = WebDriverWait(driver, TIMEOUT)
    wait.until(lambda d: d.find_element(By.ID, "summary").text.startswith("summary"))
    if kind in ("loopback", "estimate", "range", "nearby"):
        result["points"] = check_trace(driver, wait, rows, failures, TRACE_KEYS if kind != "nearby" else [("time", "time_s"), ("distance", "distance_m")])
    if kind in ("loopback", "estimate", "range"):
        result["cells_latest"] = plots_drawn(driver, "latest", failures)
        latest = driver.find_element(By.ID, "chosen-row").text
        if not re.match(f"procedure {rows[-1]['procedure_counter']}[ :]", latest):
            failures.append(f"the latest procedure is not chosen: {latest!r}")
        # The slider: the first procedure with plots.
        slider = driver.find_element(By.ID, "chosen")
        slider.send_keys(Keys.HOME)
        first = [json.loads(d) for n, d in events if n == "tones"][0]["procedure_id"]
        first_row = json.loads([d for n, d in events if n == "procedure"][0])
        wait.until(lambda d: re.match(f"procedure {first_row['procedure_counter']}[ :]", d.find_element(By.ID, "chosen-row").text))
        result["cells_first"] = plots_drawn(driver, "first", failures)
        if driver.find_element(By.ID, "follow").is_selected():
            failures.append("moving the slider back did not stop following the latest")
        slider.send_keys(Keys.END)
        wait.until(lambda d: d.find_element(By.ID, "follow").is_selected())
        result["first_plotted_id"] = first
    if kind == "nearby":
        if not drawn(driver, "#angles"):
            failures.append("the direction plot has no drawn line")
        if not driver.find_elements(By.CSS_SELECTOR, "#camera g.raw circle"):
            failures.append("nothing in the camera's frame")
    if kind == "tdoa":
        anchors = len(json.loads([d for n, d in events if n == "map"][-1])["anchors"])
        shown = len(driver.find_elements(By.CSS_SELECTOR, "#anchors rect"))
        fixes = len(driver.find_elements(By.CSS_SELECTOR, "#map g.raw circle"))
        result.update(anchors=shown, fixes=fixes)
        if shown != anchors:
            failures.append(f"the floor map has {shown} anchors, not {anchors}")
        if fixes != len(rows):
            failures.append(f"the floor map has {fixes} fixes, not {len(rows)}")
        if not drawn(driver, "#map") or not drawn(driver, "#fix-error"):
            failures.append("the floor map or the fix error has no drawn line")
    if kind == "accessory":
        if driver.find_element(By.ID, "trace").is_displayed():
            failures.append("an accessory's page shows a distance trace")
        # The reflector's own PCTs per channel: amplitude, phase and tone quality, no impulse response.
        result["cells_latest"] = plots_drawn(driver, "the reflector's PCTs", failures, ("amplitude", "phase"))
        if driver.find_element(By.ID, "impulse").is_displayed():
            failures.append("an accessory's page shows an impulse response of one side's PCTs")
        if "reflector's PCT phase" not in driver.find_element(By.ID, "phase-title").text:
            failures.append("the accessory's phase plot is not named the reflector's PCT phase")
        latest = driver.find_element(By.ID, "chosen-row").text
        if not re.match(f"procedure {rows[-1]['procedure_counter']}: the reflector's own PCTs", latest):
            failures.append(f"the latest procedure's PCTs are not chosen: {latest!r}")
    # The set-up: the board's check report (accessory), the reflector checked against iOS's
    # rules and the configuration the link agreed (range).
    wanted = {"accessory": ["iOS requirements:", "compatible: an iPhone can range with this board"],
              "range": ["reflector: LL version 0x11", "iOS requirements:", "an iPhone would range this reflector",
                        "configuration ", "T_FCS", "the reflector's results: "]}.get(kind, [])
    setup_text = driver.find_element(By.ID, "setup").text
    for w in wanted:
        if w not in setup_text:
            failures.append(f"the set-up panel lacks {w!r}: {setup_text!r}")
    if kind in ("range", "accessory"):
        status = driver.find_element(By.ID, "status-lines").text
        if "connected to" not in status:
            failures.append(f"the status lines do not say what the link did: {status!r}")
    # The table: the latest records, newest first.
    table_rows = driver.find_elements(By.CSS_SELECTOR, "#records tbody tr")
    result["table_rows"] = len(table_rows)
    if len(table_rows) != min(50, len(rows)):
        failures.append(f"the table has {len(table_rows)} rows, not {min(50, len(rows))}")
    shown = driver.find_element(By.ID, "summary").text
    if words(shown) != words(summary_text):
        failures.append(f"the page's summary {shown!r} is not the command's {summary_text!r}")
    setup = driver.find_element(By.ID, "setup").text
    if not setup or setup.startswith("waiting"):
        failures.append("the set-up panel is empty")
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    if errors:
        failures.append(f"the browser's console has errors: {errors}")
    if page.get("screenshot"):
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(1400, min(4000, height + 20))
        driver.save_screenshot(page["screenshot"])
        driver.set_window_size(1400, 2000)
    return result


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,2000"]:
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(TIMEOUT)
    return driver


def main():
    if sys.argv[1] == "--stream":
        page = {"url": sys.argv[2], "jsonl": sys.argv[3]}
        failures = []
        events = check_stream(page, failures)
        summary = json.loads([d for n, d in events if n == "summary"][-1])
        print(json.dumps({"events": len(events), "summary": summary["text"], "ok": not failures, "failures": failures}))
        return 0 if not failures else 1
    if sys.argv[1] == "--pages":
        pages = json.load(open(sys.argv[2], encoding="utf-8"))
    else:
        pages = [{"kind": "loopback", "url": sys.argv[1], "jsonl": sys.argv[2], "summary": sys.argv[3],
                  "screenshot": sys.argv[4] if len(sys.argv) > 4 else None}]
    failures, results = [], []
    streams = []
    for page in pages:
        f = []
        streams.append(check_stream(page, f))
        failures += [page["kind"] + ": " + x for x in f]
    driver = browser()
    try:
        for page, events in zip(pages, streams):
            f = []
            r = check_page(driver, page, events, f)
            r["events"] = len(events)
            r["kind"] = page["kind"]
            results.append(r)
            failures += [page["kind"] + ": " + x for x in f]
    finally:
        driver.quit()
    out = results[0] if len(results) == 1 else {"pages": results}
    out.update(ok=not failures, failures=failures)
    print(json.dumps(out))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
