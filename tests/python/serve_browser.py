#!/usr/bin/env python3
"""`tally serve` in a real browser: Debian's chromium, headless, driven by
selenium through chromedriver, plays through the page by clicks and
checks what the page shows against `tally score`.

Usage: serve_browser.py [TALLY_BINARY [NAME...]]   (default
target/release/tally; with NAMEs, only the tests whose names hold one)

Besides playing, it drives what a player of online chess expects of the
page (stepping through the record with the keys, premoves, the rematch,
the rules cards, the end screen's winner, the analysis board), a contest
(a 2-game stylish series by clicks between two people, ended by the
leader's resignation, its result read from the page), a sets game with
a handicap set up in New game (the person's rating) and one test for
each of the bugs of issue 95 that a browser shows.

Every wait ends on what it waits for, bounded by a deadline (no sleep
stands for a wait). Prints "N passed, M failed" and exits non-zero when
anything failed.
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

TALLY = sys.argv[1] if len(sys.argv) > 1 else "target/release/tally"
WAIT = 30
# The longest an analysis runs (MAX_ANALYSIS_TIME in src/serve/search.rs).
ANALYSIS_ENDS = 60


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


def api(base, path, method="GET"):
    req = urllib.request.Request("http://%s%s" % (base, path), method=method)
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


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
        self.wait(lambda: self.status_text() != "", "the game's status")

    def wait(self, cond, what="a condition", deadline=WAIT):
        return WebDriverWait(self.d, deadline).until(lambda _: cond(), "timed out waiting for " + what)

    def q(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def qa(self, css):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def shown(self, css):
        return any(e.is_displayed() for e in self.qa(css))

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
        # Read in one go: the list is redrawn with every state.
        return self.d.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.innerText : ''", '[data-ply="%d"]' % n)

    def points(self):
        return self.q('[data-points="white"]').text, self.q('[data-points="black"]').text

    def status(self):
        return self.q("[data-status]").get_attribute("data-status")

    def status_text(self):
        return self.q("[data-status]").text

    def piece_on(self, square):
        return bool(self.d.find_elements(By.CSS_SELECTOR, '[data-square="%s"] .piece' % square))

    def game_id(self):
        return re.search(r"game=([0-9a-f]+)", self.d.current_url).group(1)

    def state(self):
        return api(self.base, "/api/games/" + self.game_id())

    def viewing(self):
        return self.q("#board").get_attribute("data-viewing-ply")

    def keys(self, *keys):
        """Presses keys with the page focused (not a form field)."""
        self.q("#variant-line").click()
        ActionChains(self.d).send_keys(*keys).perform()

    def resign(self):
        self.d.execute_script("window.confirm = () => true")
        self.q("#btn-resign").click()
        self.wait(lambda: self.status() == "over", "the resignation")

    def contest_points(self):
        return (self.q('[data-contest-points="first"]').text, self.q('[data-contest-points="second"]').text)

    def contest_game(self):
        e = self.qa("[data-contest-game]")
        return e[0].get_attribute("data-contest-game") if e and e[0].is_displayed() else None

    def alert(self):
        """The open alert or confirm, or None."""
        try:
            return self.d.switch_to.alert
        except NoAlertPresentException:
            return None

    def js_click(self, css):
        """Clicks the first element of `css` as it is now (the ranking's
        rows are replaced at every depth: no stale element)."""
        assert self.d.execute_script("const e = document.querySelector(arguments[0]); if (e) e.click(); return !!e", css), css

    def js_text(self, css):
        return self.d.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : null", css)

    def analyse_view(self):
        self.d.get("http://%s/?view=analyse" % self.base)
        self.wait(lambda: self.shown("#analyse-form"), "the analyse view")

    def analyse_status(self):
        return self.q("#astatus").text

    def form(self, name):
        return self.q('#analyse-form [name="%s"]' % name)


def test_stylish_mate_points_equal_tally_score(p):
    p.open("?variant=stylish&mode=people")
    for frm, to in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")]:
        p.move(frm, to)
    p.wait(lambda: p.status() == "over", "the end")
    assert "Qh4#" in p.ply_text(4), p.ply_text(4)
    expected = tally_score("stylish", "f2f3 e7e5 g2g4 d8h4")
    p.wait(lambda: p.points() == expected, "the points %s" % (expected,))
    assert "checkmate" in p.status_text().lower(), p.status_text()
    # The ply shows what each event paid, as the referee itemised it.
    items = p.state()["plies"][3]["award"]["items"]
    text = " + ".join("%s %s" % (i["event"], i["black"]) for i in items)
    assert text and text in p.ply_text(4), (text, p.ply_text(4))
    assert text in p.q("#lastmove").text, p.q("#lastmove").text


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
    # The swap's countdown is in view, and counts down.
    left = int(re.search(r"(\d+) plies left", p.q("#phase").text).group(1))
    p.move("e7", "e5")
    p.wait(lambda: "%d plies left" % (left - 1) in p.q("#phase").text, "the countdown")
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
    p.wait(lambda: p.q("#top-clock").text == "5:00", "Black's clock at 5:00")
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


def test_step_through_the_record_with_the_keys(p):
    p.open("?variant=chess&mode=people")
    for frm, to in [("e2", "e4"), ("e7", "e5"), ("g1", "f3")]:
        p.move(frm, to)
    assert p.viewing() == "3"
    assert {e.get_attribute("data-square") for e in p.qa("[data-lastmove]")} == {"g1", "f3"}
    assert not p.shown("#viewing")
    p.keys(Keys.ARROW_LEFT)
    p.wait(lambda: p.viewing() == "2", "ply 2 shown")
    assert p.piece_on("g1") and not p.piece_on("f3"), "the board shows the earlier position"
    assert p.shown("#viewing") and "earlier position" in p.q("#viewing").text
    assert {e.get_attribute("data-square") for e in p.qa("[data-lastmove]")} == {"e7", "e5"}
    p.keys(Keys.HOME)
    p.wait(lambda: p.viewing() == "0", "the start shown")
    assert p.piece_on("e2") and p.piece_on("e7") and not p.qa("[data-lastmove]")
    p.keys(Keys.ARROW_RIGHT)
    p.wait(lambda: p.viewing() == "1", "ply 1 shown")
    p.keys(Keys.END)
    p.wait(lambda: p.viewing() == "3", "the live position")
    assert not p.shown("#viewing")
    # A click on a ply shows it; a press on the board goes back to the
    # game, where the next move is played.
    p.q('[data-ply="1"]').click()
    p.wait(lambda: p.viewing() == "1", "ply 1 from the list")
    p.click("b8")
    p.wait(lambda: p.viewing() == "3", "back to the game")
    p.move("b8", "c6")
    assert p.viewing() == "4" and "Nc6" in p.ply_text(4)


def test_premove_is_played_at_its_turn_and_can_be_cancelled(p):
    p.open("?variant=chess&side=white&movetime=4000")
    p.move("e2", "e4")
    p.wait(lambda: p.plies() == 1 and "thinking" in p.status_text(), "Tally thinking")
    p.click("g1")
    p.click("f3")
    premove = {e.get_attribute("data-square"): e.get_attribute("data-premove") for e in p.qa("[data-premove]")}
    assert premove == {"g1": "from", "f3": "to"}, premove
    assert p.plies() == 1, "the premove was set while Tally thought"
    p.wait(lambda: p.plies() == 3, "Tally's reply and the premove")
    assert "Nf3" in p.ply_text(3), p.ply_text(3)
    assert not p.qa("[data-premove]")
    # A premove cancelled (Escape) is not played: the move after Tally's
    # reply is the one made then.
    p.wait(lambda: "thinking" in p.status_text(), "Tally thinking again")
    p.click("b1")
    p.click("c3")
    p.wait(lambda: len(p.qa("[data-premove]")) == 2, "the second premove")
    p.keys(Keys.ESCAPE)
    p.wait(lambda: not p.qa("[data-premove]"), "the premove cancelled")
    p.wait(lambda: p.plies() == 4 and p.status_text().startswith("Your move"), "Tally's second reply")
    p.move("d2", "d3")
    assert "d3" in p.ply_text(5), p.ply_text(5)


def test_rematch_opens_a_new_game_with_the_colours_reversed(p):
    p.open("?variant=stylish&side=white&movetime=100")
    old = p.game_id()
    p.resign()
    p.wait(lambda: p.shown("#btn-rematch"), "the end screen")
    p.q("#btn-rematch").click()
    p.wait(lambda: "game=" in p.d.current_url and p.game_id() != old, "the new game")
    p.wait(lambda: p.status() == "playing", "the new game's state")
    state = p.state()
    assert state["side"] == "black" and state["variant"] == "stylish", state["side"]
    assert not p.shown("#end")
    assert "You" in p.q("#bottom-name").text and "Black" in p.q("#bottom-name").text
    # Tally opens as White.
    p.wait(lambda: p.plies() == 1, "Tally's first move")


def test_the_rules_card_of_each_variant(p):
    catalogue = api(p.base, "/api/variants")
    cards = {v["id"]: v for v in catalogue["variants"]}
    p.d.get("http://%s/" % p.base)
    p.wait(lambda: p.shown('[data-rules="%s"]' % catalogue["default_variant"]), "the default variant's card")
    select = p.q('#setup-form [name="variant"]')
    # Readable names in the menu, with the variant's about line under it.
    names = [o.text for o in select.find_elements(By.TAG_NAME, "option")]
    assert "Stylish chess" in names and "Tiebraker" in names, names
    for o in select.find_elements(By.TAG_NAME, "option"):
        if o.get_attribute("value") == "tiebraker":
            o.click()
    p.wait(lambda: p.shown('[data-rules="tiebraker"]'), "tiebraker's card")
    text = p.q('[data-rules="tiebraker"]').text
    for line in cards["tiebraker"]["card"]["lines"]:
        assert line["value"] in text, line
    for special in cards["tiebraker"]["specials"]:
        assert special["help"] in text, special
    assert "swap" in p.q("#setup-about").text
    # In a game, one click away.
    p.open("?variant=stylish&mode=people")
    assert not p.shown('#view-play [data-rules="stylish"]')
    p.q("#btn-rules").click()
    card = '#view-play [data-rules="stylish"]'
    p.wait(lambda: p.shown(card), "the game's card")
    text = p.q(card).text
    assert "[60, 80]" in text and "resignation" in text.lower(), text


def test_the_end_screen_names_the_winner_of_a_resignation(p):
    # Stylish: the resigner loses whatever the points (issue 95, bug 5).
    p.open("?variant=stylish&mode=people")
    for frm, to in [("e2", "e4"), ("d7", "d5"), ("e4", "d5"), ("d8", "d5")]:
        p.move(frm, to)
    assert p.points() == ("5", "0"), p.points()
    p.resign()
    p.wait(lambda: p.shown("#end"), "the end screen")
    end = p.q("#end")
    assert end.get_attribute("data-winner") == "black", end.get_attribute("data-winner")
    assert p.state()["result"]["winner"] == "black"
    assert "Black wins" in end.text and "White resigned" in end.text, end.text
    assert "Final points: White 5 · Black 0" in end.text, end.text


def test_take_back_is_disabled_once_over(p):
    # Bug 6: Take back stayed enabled and silently undid a resignation.
    p.open("?variant=chess&mode=people")
    p.move("e2", "e4")
    assert p.q("#btn-takeback").get_attribute("disabled") is None
    p.resign()
    p.wait(lambda: p.q("#btn-takeback").get_attribute("disabled") is not None, "Take back disabled")
    assert p.q("#btn-resign").get_attribute("disabled") is not None


def test_a_loss_on_time_names_the_winner(p):
    p.open("?variant=chess&mode=people&clock=1+0")
    p.move("e2", "e4")  # the first move is not timed; Black's second runs
    p.wait(lambda: p.status() == "over", "Black's flag")
    end = p.q("#end")
    assert end.get_attribute("data-winner") == "white"
    assert "time_forfeit" not in end.text and "lost on time" in end.text, end.text
    assert p.shown("#btn-rematch")


def test_the_check_glow_keeps_the_square_colour(p):
    # Bug 1: the glow on a dark square replaced its colour.
    p.open("?variant=chess&mode=people&fen=3k4/8/8/8/8/8/8/R3K3%20w%20-%20-%200%201")
    p.move("a1", "a8")
    king = p.q('[data-square="d8"]')
    p.wait(lambda: "check" in king.get_attribute("class"), "the check mark")
    colour = p.d.execute_script("return getComputedStyle(arguments[0]).backgroundColor", king)
    dark = p.d.execute_script("return getComputedStyle(arguments[0]).backgroundColor", p.q('[data-square="b8"]'))
    assert colour == dark, (colour, dark)


def test_tallys_evaluation_is_not_shown_under_game_over(p):
    # Bug 2: Tally's last evaluation line stayed after its mate.
    p.open("?variant=stylish&side=white&movetime=300&fen=1r4k1/8/8/8/8/8/P5PP/7K%20w%20-%20-%200%201")
    p.move("a2", "a3")
    p.wait(lambda: p.status() == "over", "Tally's mate")
    assert p.state()["think"] is not None, "the server keeps Tally's last report"
    assert p.q("#think").text == "", p.q("#think").text
    assert p.q("#end").get_attribute("data-winner") == "black"


def test_a_line_playing_out_stays_when_a_new_depth_comes(p):
    # Bug 3: each new depth put the board back to the analysed position.
    p.analyse_view()
    p.form("fen").send_keys("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    p.q('#analyse-form button[type="submit"]').click()
    p.wait(lambda: p.qa("#ranking tr"), "the first ranking")
    root = p.q("#aboard").get_attribute("data-fen")
    p.js_click("#ranking tr")
    p.wait(lambda: p.q("#aboard").get_attribute("data-fen") != root, "the line's first ply")
    before = p.analyse_status()
    # The next depth, or at the latest the last ranking: an analysis ends
    # within a minute whatever the machine.
    p.wait(lambda: p.analyse_status() != before, "a new ranking", deadline=ANALYSIS_ENDS + WAIT)
    assert p.q("#aboard").get_attribute("data-fen") != root, "the line jumped back"
    assert p.shown("#aline-back")
    p.q("#aline-back").click()
    p.wait(lambda: p.q("#aboard").get_attribute("data-fen") == root, "back to the position")
    p.q("#analyse-stop").click()


def test_the_chess960_checkbox_sits_beside_its_label(p):
    # Bug 4.
    p.analyse_view()
    box = p.form("chess960")
    label = p.d.execute_script("return arguments[0].closest('label')", box)
    b = box.rect
    t = p.d.execute_script("const r = document.createRange(); r.selectNodeContents(arguments[0]);"
                           "const l = [...r.getClientRects()].pop(); return {x: l.x, y: l.y, h: l.height}", label)
    assert abs((b["y"] + b["height"] / 2) - (t["y"] + t["h"] / 2)) < 6, (b, t)
    assert t["x"] > b["x"] + b["width"] - 1, (b, t)


def test_from_the_game_fills_the_start_and_the_moves_and_the_board_takes_moves(p):
    # Bug 7: the FEN field had the start while the board showed the end.
    p.open("?variant=chess&mode=people")
    p.move("e2", "e4")
    p.move("e7", "e5")
    fen = p.state()["fen"]
    p.q("#tab-analyse").click()
    p.q("#analyse-from-game").click()
    p.wait(lambda: p.q("#aboard").get_attribute("data-fen") == fen, "the game's position")
    assert p.form("fen").get_attribute("value") == p.state()["start_fen"]
    assert p.form("moves").get_attribute("value") == "e2e4 e7e5"
    # The analysis board takes a move; the ranking follows.
    p.wait(lambda: p.qa("#ranking tr") and p.qa("#aboard .sq"), "the ranking")
    p.q('[data-asquare="g1"]').click()
    p.q('[data-asquare="f3"]').click()
    p.wait(lambda: p.form("moves").get_attribute("value") == "e2e4 e7e5 g1f3", "the move analysed")
    p.wait(lambda: "Nf3" in p.q("#apath").text and p.qa("#ranking tr"), "the new ranking")
    # Lines are SAN, not UCI.
    line = p.js_text("#ranking td.line")
    assert line and not re.search(r"\b[a-h][1-8][a-h][1-8]\b", line), line
    p.q("#analyse-stop").click()


def test_a_pgn_names_its_variant(p):
    # Bug 8: a stylish PGN was analysed as chess.
    p.analyse_view()
    p.form("pgn").send_keys('[Variant "stylish"]\n\n1. e4 d5 2. exd5 *\n')
    p.q('#analyse-form button[type="submit"]').click()
    p.wait(lambda: "Stylish chess" in p.analyse_status(), "the variant from the tag")
    assert p.form("moves").get_attribute("value") == "e2e4 d7d5 e4d5"
    # A variant chosen over the tag is said so.
    p.q('#analyse-form [name="variant"] option[value="chess"]').click()
    p.q('#analyse-form button[type="submit"]').click()
    p.wait(lambda: "stylish" in p.q("#anote").text, "the note on the tag")
    assert "Chess" in p.analyse_status()
    p.q("#analyse-stop").click()


def test_stop_says_stopped(p):
    # Bug 9: after Stop the status read "done".
    p.analyse_view()
    p.q('#analyse-form button[type="submit"]').click()
    p.wait(lambda: p.qa("#ranking tr"), "a ranking")
    p.q("#analyse-stop").click()
    p.wait(lambda: "depth" in p.analyse_status() and p.q("#analyse-stop").get_attribute("disabled") is not None
           and "deepening" not in p.analyse_status(), "the last ranking")
    text = p.analyse_status()
    assert "stopped" in text and "done" not in text and "finished" not in text, text


def test_a_page_without_a_game_offers_new_game(p):
    # Bug 10: an empty board and "Loading..." for ever.
    for query in ["", "?game=doesnotexist"]:
        p.d.get("http://%s/%s" % (p.base, query))
        p.wait(lambda: p.shown("#view-setup"), "New game")
        assert not p.shown("#view-play")
        assert "Loading" not in p.d.find_element(By.TAG_NAME, "body").text
    assert "doesnotexist" in p.q("#setup-error").text


def test_the_games_list_tells_games_apart(p):
    # Bug 11: "stylish, 1 plies, over".
    p.open("?variant=sets&side=white&movetime=100")
    gid = p.game_id()
    p.resign()
    p.d.get("http://%s/" % p.base)
    row = '#saved-list tr[data-game="%s"]' % gid
    p.wait(lambda: p.qa(row), "the game in the list")
    text = p.q(row).text
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", text), text
    assert "You" in text and "Tally" in text and "Sets" in text and gid in text, text
    assert "wins" in text, text


def test_a_bad_fen_shows_its_error_alone(p):
    # Bug 12: the link's note stayed beside the red error.
    p.d.get("http://%s/?mode=people&fen=not-a-fen" % p.base)
    p.wait(lambda: "press Start" in p.q("#setup-note").text, "the setup from the link")
    p.q('#setup-form button[type="submit"]').click()
    p.wait(lambda: p.q("#setup-error").text != "", "the error")
    assert "fen" in p.q("#setup-error").text.lower(), p.q("#setup-error").text
    assert not p.shown("#setup-note") and p.q("#setup-note").text == ""


def test_tiebraker_shows_its_phase_and_why_moves_are_limited(p):
    p.open("?variant=tiebraker&mode=people&specials=on")
    assert "No disk yet" in p.q("#phase").text
    disk_row = p.d.execute_script("return arguments[0].closest('.special')", p.q('[data-action="disk"]'))
    assert "frozen disk" in disk_row.text, disk_row.text
    p.move("e2", "e4")
    p.move("d7", "d5")
    assert not p.shown("#limited"), "nothing limits the moves before the disk"
    p.action("disk")
    p.wait(lambda: "played disk" in p.q("#phase").text, "the offered disk")
    # Capture-or-check binds Black's answer: a capture is on, so only
    # captures and checks may be played, and the page says why the other
    # pieces do not move. Black accepts by capturing.
    p.wait(lambda: p.shown("#limited"), "the word on capture-or-check")
    assert "capture-or-check" in p.q("#limited").text, p.q("#limited").text
    p.click("a7")
    assert not p.qa(".sq.dest"), "a7 may not move"
    p.move("d5", "e4")
    p.wait(lambda: "accepted" in p.q("#phase").text, "the accepted disk")
    assert p.qa('[data-square="e1"] .piece.disk'), "the disk is marked"


def test_a_hint_is_an_arrow(p):
    p.open("?variant=chess&mode=people&movetime=200")
    p.q("#hint-on").click()
    p.q("#btn-hint").click()
    p.wait(lambda: p.q("#hint").text.startswith("Hint:"), "the hint")
    arrows = [e.get_attribute("data-arrow") for e in p.qa("#board [data-arrow]")]
    assert len(arrows) == 1 and re.fullmatch(r"[a-h][1-8][a-h][1-8]", arrows[0]), arrows


def test_the_evaluation_bar_and_the_chart_follow_tally(p):
    p.open("?variant=stylish&side=white&movetime=200")
    p.move("e2", "e4")
    p.wait(lambda: p.plies() == 2, "Tally's reply")
    bar = p.q("#evalbar")
    assert bar.is_displayed() and "off" not in bar.get_attribute("class")
    p.wait(lambda: bar.get_attribute("data-margin") is not None, "the bar's margin")
    # White's share stands at White's side of the board (the bottom here).
    white = p.q("#evalbar-white").rect
    outer = bar.rect
    assert abs((white["y"] + white["height"]) - (outer["y"] + outer["height"])) < 1.5, (white, outer)
    assert 0 < white["height"] < outer["height"]
    assert p.qa("#chart polyline.total.white") and p.qa("#chart polyline.total.black")
    assert p.qa("#chart circle.expected-dot"), "Tally's expected margin is charted"


def test_a_stylish_series_by_clicks_ended_by_a_resignation(p):
    # New game: a series of 2 games between two people, chosen in the form.
    p.d.get("http://%s/?variant=stylish&mode=people" % p.base)
    p.wait(lambda: "press Start" in p.q("#setup-note").text, "the setup from the link")
    form = "#setup-form "
    p.q(form + '[name="contest"] option[value="series"]').click()
    games = p.q(form + '[name="games"]')
    p.wait(lambda: games.is_displayed(), "the number of games")
    games.clear()
    games.send_keys("2")
    # Stylish: a resignation ends the series, by default.
    assert p.q(form + '[name="resignation_ends"]').is_selected()
    assert "the resigner loses it whatever the points" in p.q("#resign-label").text, p.q("#resign-label").text
    assert not p.shown(form + '[name="chooser"]'), "who chose colour is for sets"
    p.q(form + 'button[type="submit"]').click()
    p.wait(lambda: "game=" in p.d.current_url and p.contest_game() == "1", "game 1 and the contest's table")
    assert p.contest_points() == ("0", "0"), p.contest_points()
    assert p.status() == "playing"
    assert "Player 1 · White" in p.q("#bottom-name").text, p.q("#bottom-name").text
    # Game 1 by clicks: fool's mate, Black (Player 2) mates, 80.
    for frm, to in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")]:
        p.move(frm, to)
    p.wait(lambda: p.status() == "over", "the end of game 1")
    # The game's own end screen, as for any game.
    assert p.q("#end").get_attribute("data-winner") == "black"
    p.wait(lambda: p.contest_points() == ("0", "80"), "the sums after game 1")
    table = p.q("#contest").text
    assert "Player 2 leads by 80" in table and "Won: Player 1 0 · Player 2 1 · tied 0" in table, table
    row = p.q('[data-contest-row="1"]').text
    assert "Player 1" in row and "80" in row and "checkmate" in row, row
    assert not p.qa("[data-contest-winner]"), "the series goes on"
    assert not p.shown("#btn-rematch"), "the next game is the series'"
    # Next game: colours reversed, Player 2 has White.
    first = p.game_id()
    assert "Game 2: Player 2 has White" in p.q("#contest-after").text, p.q("#contest-after").text
    p.q("[data-contest-next]").click()
    p.wait(lambda: p.game_id() != first and p.contest_game() == "2", "game 2")
    p.wait(lambda: p.status() == "playing" and p.plies() == 0, "game 2's start")
    assert "Player 2 · White" in p.q("#bottom-name").text, p.q("#bottom-name").text
    assert not p.shown("#end") and not p.shown("[data-contest-next]")
    assert p.contest_points() == ("0", "80")
    # Player 2, White and leading, resigns: the Resign button and its
    # confirm, which says what the resignation does to the series.
    p.q("#btn-resign").click()
    confirm = p.wait(lambda: p.alert(), "the confirm")
    assert "Player 2" in confirm.text and "would lose it" in confirm.text, confirm.text
    confirm.accept()
    p.wait(lambda: p.status() == "contest-over", "the end of the series")
    decision = p.q("[data-contest-winner]")
    assert decision.get_attribute("data-contest-winner") == "first"
    assert p.contest_points() == ("0", "80"), p.contest_points()
    assert "Player 1 wins" in decision.text and "Player 2 resigned in game 2" in decision.text, decision.text
    # Game 2's end screen: Black (Player 1) wins the game; no next game.
    assert p.q("#end").get_attribute("data-winner") == "black"
    assert not p.shown("[data-contest-next]")
    # The download offers the whole contest beside the game.
    assert p.shown("#pgn-link") and p.shown("#end-contest-pgn")
    with urllib.request.urlopen(p.q("#end-contest-pgn").get_attribute("href")) as r:
        pgn = r.read().decode()
    assert pgn.count("[Round ") == 2, pgn
    # After a reload the table is there, the result with it.
    p.d.refresh()
    p.wait(lambda: p.contest_game() == "2" and p.status() == "contest-over", "the table after the reload")
    assert p.contest_points() == ("0", "80")
    assert p.q("[data-contest-winner]").get_attribute("data-contest-winner") == "first"
    assert len(p.qa("[data-contest-row]")) == 2
    # Game 1's page, from the table, links to game 2.
    p.q('[data-contest-row="1"] a').click()
    p.wait(lambda: p.game_id() == first and p.contest_game() == "1", "game 1 again")
    assert p.shown("#contest-next-link") and "Game 2" in p.q("#contest-next-link").text


def test_new_game_offers_a_series_a_match_and_the_sets_colour_choice(p):
    p.d.get("http://%s/?variant=chess&mode=people" % p.base)
    p.wait(lambda: "press Start" in p.q("#setup-note").text, "the setup from the link")
    form = "#setup-form "
    variant = p.q(form + '[name="variant"]')
    assert not p.shown(form + '[name="games"]'), "one game: no contest fields"
    # A tie-break match plays dynamic: the variant follows, and comes back.
    p.q(form + '[name="contest"] option[value="tiebreak-match"]').click()
    p.wait(lambda: variant.get_attribute("value") == "dynamic", "the variant following the match")
    assert not variant.is_enabled()
    assert p.q(form + '[name="games"]').get_attribute("max") == "96"
    assert not p.q(form + '[name="resignation_ends"]').is_selected(), "dynamic: a resignation scores its game"
    p.q(form + '[name="contest"] option[value="series"]').click()
    p.wait(lambda: variant.get_attribute("value") == "chess" and variant.is_enabled(), "the variant back")
    # Sets: who chose colour, the first player by default; the other
    # holds the draw advantage all series long, and the page says so.
    p.q(form + '[name="variant"] option[value="sets"]').click()
    chooser = p.q(form + '[name="chooser"]')
    p.wait(lambda: chooser.is_displayed(), "who chose colour")
    assert chooser.get_attribute("value") == "first"
    assert "Player 2 holds the draw advantage" in p.q(form + '[name="chooser"] option[value="first"]').text
    assert "in every game" in p.q("#chooser-about").text
    p.q(form + 'button[type="submit"]').click()
    p.wait(lambda: p.contest_game() == "1", "game 1 of the sets series")
    text = p.q("#contest-advantage").text
    assert "Player 2 holds the draw advantage" in text and "Black in this game" in text, text


def test_a_sets_handicap_from_the_new_game_form(p):
    p.d.get("http://%s/?variant=chess&elo=1800&side=white&movetime=100" % p.base)
    p.wait(lambda: "press Start" in p.q("#setup-note").text, "the setup from the link")
    form = "#setup-form "
    rating = p.q(form + '[name="rating"]')
    assert not rating.is_displayed(), "chess: no handicap field"
    assert not p.shown("#handicap-about")
    p.q(form + '[name="variant"] option[value="sets"]').click()
    p.wait(lambda: rating.is_displayed(), "the rating field in sets")
    assert "empty: no handicap" in p.q("#handicap-about").text
    # Only against Tally at a UCI_Elo, one game.
    p.q(form + '[name="strength"] option[value="full"]').click()
    p.wait(lambda: not rating.is_displayed(), "no rating field against Tally at full strength")
    p.q(form + '[name="strength"] option[value="elo"]').click()
    p.q(form + '[name="contest"] option[value="series"]').click()
    p.wait(lambda: not rating.is_displayed(), "no rating field in a series")
    p.q(form + '[name="contest"] option[value="one"]').click()
    p.wait(lambda: rating.is_displayed(), "the rating field back")
    # A gap beyond the handicap table: the server's word, above the form.
    rating.send_keys("1000")
    p.q(form + 'button[type="submit"]').click()
    p.wait(lambda: "handicap: " in p.q("#setup-error").text, "the refusal of a gap of 800")
    assert "game=" not in p.d.current_url
    rating.clear()
    rating.send_keys("1400")
    p.q(form + 'button[type="submit"]').click()
    p.wait(lambda: "game=" in p.d.current_url, "the game to start")
    p.wait(lambda: p.shown("[data-handicap]"), "the handicap line")
    h = p.state()["handicap"]
    assert (h["rating"], h["gap"], h["weaker"]) == (1400, 400, "white"), h
    line = p.q("[data-handicap]")
    assert line.get_attribute("data-handicap") == "white"
    factor = ("%g" % h["factor"])
    text = line.text
    assert "400 below Tally's 1800" in text and "\u00d7" + factor in text and "draw advantage" in text, (text, factor)
    assert "rated 1400" in text, text
    assert p.state()["draw_advantage"] == "white"


def test_the_handicap_line_fits_a_phone(p):
    p.d.get("http://%s/?variant=sets&elo=1800&side=black&movetime=100&rating=1400" % p.base)
    p.wait(lambda: "press Start" in p.q("#setup-note").text, "the setup from the link")
    assert p.q('#setup-form [name="rating"]').get_attribute("value") == "1400"
    p.q('#setup-form button[type="submit"]').click()
    p.wait(lambda: "game=" in p.d.current_url, "the game to start")
    p.wait(lambda: p.shown("[data-handicap]"), "the handicap line")
    assert p.q("[data-handicap]").get_attribute("data-handicap") == "black"
    p.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        p.wait(lambda: p.d.execute_script("return window.innerWidth") == 390, "the phone's width")
        r = p.q("[data-handicap]").rect
        assert r["x"] >= 0 and r["x"] + r["width"] <= 390, r
        assert r["height"] <= 90, r
    finally:
        p.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_on_a_phone_the_contest_table_stays_in_view(p):
    p.open("?variant=stylish&mode=people&contest=series:3")
    p.move("e2", "e4")
    p.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        p.wait(lambda: p.d.execute_script("return window.innerWidth") == 390, "the phone's width")
        height = p.d.execute_script("return window.innerHeight")
        for css in ['[data-points="white"]', '[data-contest-points="first"]', '[data-contest-points="second"]',
                    "[data-contest-game]", '[data-contest-row="1"]']:
            r = p.q(css).rect
            assert r["y"] + r["height"] <= height and r["x"] + r["width"] <= 390, (css, r, height)
        assert p.q('[data-contest-row="1"]').text.startswith("1"), p.q('[data-contest-row="1"]').text
    finally:
        p.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_on_a_phone_the_points_and_the_last_move_stay_in_view(p):
    p.open("?variant=stylish&mode=people")
    p.move("e2", "e4")
    p.d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    try:
        p.wait(lambda: p.d.execute_script("return window.innerWidth") == 390, "the phone's width")
        height = p.d.execute_script("return window.innerHeight")
        for css in ['[data-points="white"]', '[data-points="black"]', "#lastmove"]:
            r = p.q(css).rect
            assert r["y"] + r["height"] <= height, (css, r, height)
        assert "e4" in p.q("#lastmove").text
        board = p.q("#board").rect
        assert board["x"] >= 0 and board["x"] + board["width"] <= 390, board
        small = [(b.text or b.get_attribute("id"), b.rect["height"]) for b in p.qa("#view-play button, .top button")
                 if b.is_displayed() and b.rect["height"] < 44]
        assert not small, small
    finally:
        p.d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def main():
    server, base = start_server()
    profile = tempfile.mkdtemp(prefix="tally-chromium-")
    passed = failed = 0
    driver = None
    try:
        driver = browser(profile)
        page = Page(driver, base)
        only = sys.argv[2:]
        tests = [v for k, v in sorted(globals().items())
                 if k.startswith("test_") and (not only or any(o in k for o in only))]
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
