#!/usr/bin/env python3
"""The page of `egdb serve` in a real browser: headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium) loads /, enters a FEN, clicks a move and a square, and the
board and the move list must change as the JSON API says; a screenshot is saved.

Usage: browser_test.py EGDB_PROGRAM OUTPUT_DIR
Exit code 0 passed, 1 failed, 77 skipped (ctest's SKIP_RETURN_CODE): only when Chromium or its
driver is not installed (scripts/setup.sh installs both, so CI runs this test).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.parse
import urllib.request
from pathlib import Path

SKIP = 77
# A 3-piece position (the database built here holds up to 3 pieces) that White wins, with a
# man and a king to move, so that the move list has several moves of different results.
START_FEN = "W:W32,K47:B9"


def find_browser() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


def start_server(egdb: str, db: Path) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([egdb, "serve", "--db", str(db), "--port", "0", "--threads", "8"],
                              stdout=subprocess.PIPE, text=True)
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(server.stdout.readline()), daemon=True)
    reader.start()
    reader.join(30)
    if not line or "listening on " not in line[0]:
        server.kill()
        raise RuntimeError(f"egdb serve did not start: {line!r}")
    return server, line[0].split("listening on ", 1)[1].strip().rstrip("/")


def api(base: str, fen: str) -> dict:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: no proxy
    with opener.open(f"{base}/international?fen={urllib.parse.quote(fen)}", timeout=30) as r:
        return json.load(r)


def check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def run(egdb: str, out_dir: Path, browser: str, driver_path: str) -> None:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError as e:  # a setup problem, not a reason to skip
        raise RuntimeError(f"selenium is not installed for {sys.executable} (scripts/setup.sh installs it): {e}")

    os.environ["no_proxy"] = os.environ["NO_PROXY"] = "127.0.0.1,localhost"
    with tempfile.TemporaryDirectory(prefix="egdb_browser_") as tmp:
        db = Path(tmp) / "db3"
        built = subprocess.run([egdb, "build", "--pieces", "3", "--out", str(db), "--threads", "2"],
                               capture_output=True, text=True)
        if built.returncode != 0:
            raise RuntimeError(f"egdb build failed ({built.returncode}): {built.stderr}")
        server, base = start_server(egdb, db)
        driver = None
        try:
            options = webdriver.ChromeOptions()
            options.binary_location = browser
            for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--no-proxy-server", "--window-size=1200,1000", f"--user-data-dir={tmp}/profile"):
                options.add_argument(flag)
            driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
            wait = WebDriverWait(driver, 30)

            def board_hub() -> str:
                return driver.find_element(By.ID, "board").get_attribute("data-hub") or ""

            def listed_moves() -> list[str]:
                return [li.get_attribute("data-pdn") for li in driver.find_elements(By.CSS_SELECTOR, "#moves li.move")]

            def expect_shown(report: dict) -> None:
                """The board, the FEN field and the move list show `report` (the API's answer)."""
                wait.until(lambda d: board_hub() == report["hub"] and listed_moves() == [m["pdn"] for m in report["moves"]])
                squares = driver.find_elements(By.CSS_SELECTOR, "#board g.square")
                check(len(squares) == 50, f"{len(squares)} squares drawn")
                pieces = {int(g.get_attribute("data-square")): g.get_attribute("data-piece") for g in squares}
                check(all(pieces[n] == report["hub"][n] for n in range(1, 51)), "squares differ from the hub string")
                discs = driver.find_elements(By.CSS_SELECTOR, "#board circle.white-piece, #board circle.black-piece")
                check(len(discs) == sum(c != "e" for c in report["hub"][1:]), "pieces drawn differ from the position")
                check(driver.find_element(By.ID, "fen").get_attribute("value") == report["fen"], "FEN field not updated")
                mover = {"win": "loss", "loss": "win", "draw": "draw"}
                for li, move in zip(driver.find_elements(By.CSS_SELECTOR, "#moves li.move"), report["moves"]):
                    check(mover[move["category"]] in li.get_attribute("class").split(),
                          f"move {move['pdn']} not coloured {mover[move['category']]}")
                value = driver.find_element(By.ID, "value").text
                check(report["category"] in value, f"value {value!r} does not say {report['category']}")

            driver.get(base + "/")
            wait.until(lambda d: listed_moves())  # the default position has loaded

            # A FEN typed in and loaded.
            start = api(base, START_FEN)
            check(start["category"] == "win" and len(start["moves"]) > 1, f"unexpected start position {start}")
            field = driver.find_element(By.ID, "fen")
            field.clear()
            field.send_keys(START_FEN)
            driver.find_element(By.ID, "load").click()
            expect_shown(start)

            # The best move clicked: the board and the list become those of the position after it.
            best = start["moves"][0]
            check(best["category"] == "loss", "the best move of a win leads to a loss")
            driver.find_element(By.CSS_SELECTOR, "#moves li.move").click()
            after = api(base, best["fen"])
            expect_shown(after)
            wait.until(lambda d: "White wins" in d.find_element(By.ID, "mainline").text)
            out_dir.mkdir(parents=True, exist_ok=True)
            shot = out_dir / "serve_page.png"
            check(driver.save_screenshot(str(shot)) and shot.stat().st_size > 1000, "no screenshot")

            # A square clicked in the editor: a black king on 50 makes 4 pieces, which this
            # 3-piece database does not hold; the board shows it and the page says why.
            driver.find_element(By.CSS_SELECTOR, "input[name=tool][value=B]").click()
            driver.find_element(By.CSS_SELECTOR, '#board g[data-square="50"]').click()
            wait.until(lambda d: board_hub()[50] == "B")
            wait.until(lambda d: "not in the database" in d.find_element(By.ID, "status").text)
            check(listed_moves() == [], "moves of a position the database does not hold")
            driver.save_screenshot(str(out_dir / "serve_page_outside.png"))
            # A link to a position, in both forms the page takes: ?fen= (as syzygy-tables.info and
            # lichess link) and #fen=.
            for link in (f"{base}/?fen={urllib.parse.quote(START_FEN)}", f"{base}/#fen={urllib.parse.quote(START_FEN)}"):
                driver.get("about:blank")
                driver.get(link)
                expect_shown(start)
            # SIGTERM stops the server cleanly.
            server.terminate()
            check(server.wait(30) == 0, f"egdb serve exited with {server.returncode} on SIGTERM")
            print(f"browser test passed; screenshots in {out_dir}")
        finally:
            if driver is not None:
                driver.quit()
            if server.poll() is None:
                server.kill()
                server.wait(30)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 1
    found = find_browser()
    if found is None:
        print("SKIP: Chromium or chromedriver not installed (Debian: chromium chromium-driver; scripts/setup.sh)")
        return SKIP
    try:
        run(sys.argv[1], Path(sys.argv[2]), *found)
    except Exception as e:  # report and fail
        print(f"FAIL: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
