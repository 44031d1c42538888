#!/usr/bin/env python3
"""The live view in a real browser: headless Chromium (Debian's chromium and chromium-driver,
driven by Selenium) opens the page of a running `reflector-emu ... --view` and checks what it
shows against what the same run printed.

usage: view_browser.py URL JSONL_FILE SUMMARY_TEXT [SCREENSHOT.png]
       view_browser.py --stream URL JSONL_FILE      (check 1 only, no browser)

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


def main():
    stream_only = sys.argv[1] == "--stream"
    args = sys.argv[2:] if stream_only else sys.argv[1:]
    url, jsonl = args[0], args[1]
    summary_text = None if stream_only else args[2]
    screenshot = args[3] if len(args) > 3 else None
    lines = [l for l in open(jsonl, encoding="utf-8").read().split("\n") if l]
    records = [l for l in lines if not l.startswith('{"summary"')]
    # A command whose JSON Lines end in a summary record (loopback) streams the same summary.
    summaries = [json.loads(l) for l in lines if l.startswith('{"summary"')]
    rows = [json.loads(l) for l in records]
    failures = []

    # 1. The stream, octet for octet.
    events = read_stream(url)
    streamed = [d for n, d in events if n == "procedure"]
    if streamed != records:
        failures.append(f"the stream's {len(streamed)} procedure events are not the {len(records)} JSON lines")
    summary_event = json.loads([d for n, d in events if n == "summary"][-1])
    if summaries and summary_event["json"] != summaries[-1]:
        failures.append("the stream's summary JSON differs from the JSON Lines' summary")
    result = {"events": len(events), "summary": summary_event["text"]}
    if stream_only:
        result.update(ok=not failures, failures=failures)
        print(json.dumps(result))
        return 0 if not failures else 1

    # 2.-4. The page.
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,2000"]:
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.set_page_load_timeout(TIMEOUT)
        driver.get(url)
        wait = WebDriverWait(driver, TIMEOUT)
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#trace-points circle")) >= len(rows)
                   and d.find_element(By.ID, "summary").text.startswith("summary"))
        points = driver.execute_script(
            "return [...document.querySelectorAll('#trace-points circle')].map(c => c.dataset)")
        result["points"] = len(points)
        if len(points) != len(rows):
            failures.append(f"the trace has {len(points)} points, not {len(rows)}")
        for i, (p, r) in enumerate(zip(points, rows)):
            for attr, key in [("counter", "procedure_counter"), ("time", "time_s"), ("distance", "distance_m"),
                              ("smoothed", "smoothed_distance_m"), ("quality", "quality")]:
                v = None if p[attr] in ("null", "undefined") else p[attr]
                if not same(v, r.get(key)):
                    failures.append(f"point {i}: {attr} {p[attr]} is not the record's {key} {r.get(key)}")

        def plots_drawn(which):
            for svg in ["amplitude", "phase", "impulse"]:
                ds = driver.execute_script(f"return [...document.querySelectorAll('#{svg} path')].map(p => p.getAttribute('d') || '')")
                if not any(len(d) > 20 for d in ds):
                    failures.append(f"{which}: the {svg} plot has no drawn path")
            cells = len(driver.find_elements(By.CSS_SELECTOR, "#steps rect[class^=q]"))
            if cells == 0:
                failures.append(f"{which}: no tone-quality cells")
            return cells

        trace_paths = driver.execute_script("return [...document.querySelectorAll('#trace path')].map(p => p.getAttribute('d') || '')")
        if not any(len(d) > 20 for d in trace_paths):
            failures.append("the trace has no drawn line")
        result["cells_latest"] = plots_drawn("latest")
        latest = driver.find_element(By.ID, "chosen-row").text
        if not re.match(f"procedure {rows[-1]['procedure_counter']}[ :]", latest):
            failures.append(f"the latest procedure is not chosen: {latest!r}")
        # The slider: the first procedure with plots.
        slider = driver.find_element(By.ID, "chosen")
        slider.send_keys(Keys.HOME)
        wait.until(lambda d: re.match(f"procedure {rows[0]['procedure_counter']}[ :]", d.find_element(By.ID, "chosen-row").text))
        result["cells_first"] = plots_drawn("first")
        if driver.find_element(By.ID, "follow").is_selected():
            failures.append("moving the slider back did not stop following the latest")

        shown = driver.find_element(By.ID, "summary").text
        if shown != summary_text:
            failures.append(f"the page's summary {shown!r} is not the command's {summary_text!r}")
        setup = driver.find_element(By.ID, "setup").text
        if not setup or setup.startswith("waiting"):
            failures.append("the set-up panel is empty")
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        if errors:
            failures.append(f"the browser's console has errors: {errors}")
        if screenshot:
            slider.send_keys(Keys.END)
            wait.until(lambda d: d.find_element(By.ID, "follow").is_selected())
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.set_window_size(1400, min(4000, height + 20))
            driver.save_screenshot(screenshot)
    finally:
        driver.quit()
    result.update(ok=not failures, failures=failures)
    print(json.dumps(result))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
