#!/usr/bin/env python3
"""`tally serve` in a real browser: Debian's chromium, headless, driven by
selenium through chromedriver, plays through the page by clicks and
checks what the page shows against `tally score`.

Usage: serve_browser.py [TALLY_BINARY]   (default target/release/tally)

Every wait ends on what it waits for, bounded by a deadline. Prints
"N passed, M failed" and exits non-zero when anything failed.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

TALLY = sys.argv[1] if len(sys.argv) > 1 else "target/release/tally"
WAIT = 30


def start_server():
    proc = subprocess.Popen(
        [TALLY, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    line = proc.stdout.readline()
    if "http://" not in line:
        proc.kill()
        raise RuntimeError("no address from tally serve: %r" % line)
    return proc, line.split("http://", 1)[1].split("/", 1)[0]


def browser(profile):
    opts = webdriver.ChromeOptions()
    for a in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--disable-component-update",
        "--disable-sync",
        "--user-data-dir=" + profile,
        "--window-size=1280,900",
    ]:
        opts.add_argument(a)
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    return webdriver.Chrome(options=opts, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))


def tally_score(variant, moves, fen=None):
    cmd = [TALLY, "score", "-v", variant, "--moves", moves, "--json"]
    if fen:
        cmd += ["--fen", fen]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    total = json.loads(out.strip().splitlines()[-1])["total"]
    return str(total["white"]), str(total["black"])


class Page:
    def __init__(self, driver, base):
        self.d = driver
        self.base = base

    def open(self, query):
        """Opens a link; a link with setup parameters fills the setup in,
        and the game starts when Start is pressed, as a person would."""
        self.d.get("http://%s/%s" % (self.base, query))
        if "game=" not in query and "view=" not in query:
            self.wait(lambda: "press Start" in self.q("#setup-note").text, "the setup from the link")
            self.q('#setup-form button[type="submit"]').click()
            self.wait(lambda: "game=" in self.d.current_url, "the game to start")
        self.wait(lambda: self.d.find_elements(By.CSS_SELECTOR, '[data-square="e2"]'))
        self.wait(lambda: "Loading" not in self.status_text())

    def wait(self, cond, what="a condition"):
        return WebDriverWait(self.d, WAIT).until(lambda _: cond(), "timed out waiting for " + what)

    def q(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def click(self, square):
        self.q('[data-square="%s"]' % square).click()

    def move(self, frm, to):
        n = self.plies()
        self.click(frm)
        self.click(to)
        self.wait(lambda: self.plies() > n, "the move %s%s" % (frm, to))

    def action(self, name):
        n = self.plies()
        button = self.q('[data-action="%s"]' % name)
        assert button.get_attribute("disabled") is None, name + " is disabled"
        button.click()
        self.wait(lambda: self.plies() > n, "the action " + name)

    def enabled(self, name):
        return self.q('[data-action="%s"]' % name).get_attribute("disabled") is None

    def plies(self):
        return len(self.d.find_elements(By.CSS_SELECTOR, "[data-ply]"))

    def ply_text(self, n):
        return self.q('[data-ply="%d"]' % n).text

    def points(self):
        return self.q('[data-points="white"]').text, self.q('[data-points="black"]').text

    def status(self):
        return self.q("[data-status]").get_attribute("data-status")

    def status_text(self):
        return self.q("[data-status]").text

    def piece_on(self, square):
        return bool(self.d.find_elements(By.CSS_SELECTOR, '[data-square="%s"] .piece' % square))


def test_stylish_mate_points_equal_tally_score(p):
    p.open("?variant=stylish&mode=people")
    for frm, to in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")]:
        p.move(frm, to)
    p.wait(lambda: p.status() == "over", "the end")
    assert "Qh4#" in p.ply_text(4), p.ply_text(4)
    expected = tally_score("stylish", "f2f3 e7e5 g2g4 d8h4")
    p.wait(lambda: p.points() == expected, "the points %s" % (expected,))
    assert "checkmate" in p.status_text().lower() or "mate" in p.status_text().lower(), p.status_text()


def test_stylish_mate_against_tally_by_drag(p):
    fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"
    p.open("?variant=stylish&side=white&movetime=100&fen=" + fen.replace(" ", "%20"))
    src = p.q('[data-square="a1"]')
    dst = p.q('[data-square="a8"]')
    ActionChains(p.d).click_and_hold(src).move_by_offset(5, -5).move_to_element(dst).release().perform()
    p.wait(lambda: p.status() == "over", "the end")
    expected = tally_score("stylish", "a1a8", fen)
    assert p.points() == expected, (p.points(), expected)
    assert "Ra8#" in p.ply_text(1)


def test_tiebraker_disk_from_its_button(p):
    p.open("?variant=tiebraker&mode=people&specials=on")
    assert not p.enabled("swap") and not p.enabled("restore") and not p.enabled("claim")
    p.move("e2", "e4")
    assert p.enabled("disk")
    p.action("disk")
    assert "disk" in p.ply_text(2)
    assert p.enabled("swap") and p.enabled("restore") and not p.enabled("disk")
    p.action("swap")
    assert "swap" in p.ply_text(3)
    p.move("e7", "e5")
    expected = tally_score("tiebraker", "e2e4 disk swap e7e5")
    assert p.points() == expected, (p.points(), expected)
    assert p.status() == "playing"


def test_sets_claim(p):
    fen = "4k3/8/8/8/8/8/4n3/R3K3 w - - 0 1"
    p.open("?variant=sets&mode=people&specials=on&fen=" + fen.replace(" ", "%20"))
    p.move("e1", "e2")
    assert not p.enabled("claim")
    p.move("e8", "d7")
    p.action("claim")
    p.wait(lambda: p.status() == "over", "the end")
    expected = tally_score("sets", "e1e2 e8d7 claim", fen)
    assert p.points() == expected, (p.points(), expected)
    assert "claim" in p.ply_text(3)


def test_clock_from_the_url(p):
    # The docs' form: a query string reads the '+' as a space.
    p.open("?mode=people&clock=300+2")
    p.wait(lambda: p.q("#top-clock").text == "05:00", "Black's clock at 05:00")
    assert p.status() == "playing", p.status_text()
    # No clock runs before the first move, and the page says so.
    line = p.q("#variant-line").text
    assert "clock 5+2 (starts with the first move)" in line, line
    assert "running" not in p.q("#bottom-clock").get_attribute("class")
    p.move("e2", "e4")
    p.wait(lambda: "running" in p.q("#top-clock").get_attribute("class"), "Black's clock running")
    line = p.q("#variant-line").text
    assert "starts with" not in line, line


def games_on_server(p):
    with urllib.request.urlopen("http://%s/api/games" % p.base) as r:
        return len(json.loads(r.read()))


def test_a_link_fills_the_setup_in_and_starts_nothing(p):
    before = games_on_server(p)
    p.d.get("http://%s/?variant=wacky&side=black&movetime=300&clock=90+1" % p.base)
    p.wait(lambda: "press Start" in p.q("#setup-note").text, "the setup from the link")
    form = "#setup-form "
    assert p.q(form + '[name="variant"]').get_attribute("value") == "wacky"
    assert p.q(form + '[name="side"]').get_attribute("value") == "black"
    assert p.q(form + '[name="timing"]').get_attribute("value") == "clock"
    assert float(p.q(form + '[name="base"]').get_attribute("value")) == 1.5
    assert games_on_server(p) == before, "a link started a game by itself"
    # A value that cannot be used is named, and nothing starts.
    p.d.get("http://%s/?elo=abc&clock=fast" % p.base)
    p.wait(lambda: "could not be used" in p.q("#setup-error").text, "the link's error")
    text = p.q("#setup-error").text
    assert "elo 'abc'" in text and "clock 'fast'" in text, text
    assert games_on_server(p) == before


def test_a_hint_goes_when_the_position_changes(p):
    p.open("?variant=chess&mode=people&movetime=200")
    p.q("#hint-on").click()
    p.q("#btn-hint").click()
    p.wait(lambda: p.q("#hint").text.startswith("Hint:"), "the hint")
    p.move("e2", "e4")
    assert "hidden" in p.q("#hint").get_attribute("class"), "White's hint stayed for Black"
    # Asked again and the move made before it comes: it never shows.
    p.q("#btn-hint").click()
    p.move("e7", "e5")
    assert "hidden" in p.q("#hint").get_attribute("class")


def test_illegal_click_changes_nothing(p):
    p.open("?variant=chess&mode=people")
    p.move("e2", "e4")
    before = (p.plies(), p.points(), p.status())
    p.click("d7")
    p.click("d4")  # not a legal target
    p.click("a1")  # not the side to move
    p.click("h5")  # an empty square
    assert (p.plies(), p.points(), p.status()) == before
    assert p.piece_on("d7") and not p.piece_on("d4")


def test_reload_mid_game_against_tally(p):
    p.open("?variant=stylish&side=white&movetime=100")
    p.move("e2", "e4")
    p.wait(lambda: p.plies() == 2, "Tally's reply")
    url = p.d.current_url
    assert "game=" in url, url
    texts = [p.ply_text(1), p.ply_text(2)]
    points = p.points()
    p.d.refresh()
    p.wait(lambda: p.plies() == 2, "the game after the reload")
    assert [p.ply_text(1), p.ply_text(2)] == texts
    assert p.points() == points
    assert p.d.current_url == url


def main():
    server, base = start_server()
    profile = tempfile.mkdtemp(prefix="tally-chromium-")
    passed = failed = 0
    driver = None
    try:
        driver = browser(profile)
        page = Page(driver, base)
        tests = [v for k, v in sorted(globals().items()) if k.startswith("test_")]
        for t in tests:
            try:
                t(page)
                passed += 1
                print("ok   " + t.__name__)
            except Exception:
                failed += 1
                print("FAIL " + t.__name__)
                traceback.print_exc()
    finally:
        if driver is not None:
            driver.quit()
        server.kill()
        server.wait()
        shutil.rmtree(profile, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
