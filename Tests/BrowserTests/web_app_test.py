#!/usr/bin/python3
"""Drives the daemon's web app in a real headless Chromium (Debian's chromium, chromium-driver and
python3-selenium). Run by WebAppBrowserTests, which starts the daemon with Tampere and passes a
JSON file of what to open and what to expect; prints one line per check and exits 1 on the first
failure, naming it. Screenshots of each view go to the folder given."""
import json
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

setup = json.load(open(sys.argv[1]))
shots = setup["screenshots"]


def umctl(*words):
    return subprocess.run([setup["umctl"], *words, "--socket", setup["socket"]], check=True, capture_output=True, text=True).stdout


def fail(message):
    print(f"FAIL: {message}", flush=True)
    sys.exit(1)


# Generous: a loaded 2-core CI machine draws the first squares slowly; a wait ends as soon as the condition holds.
def wait(driver, what, condition, seconds=120):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.1).until(lambda d: condition(d))
    except Exception:
        driver.save_screenshot(f"{shots}/failed.png")
        fail(f"{what} (page said: {driver.find_element(By.ID, 'status').text!r}; events "
             f"{driver.find_element(By.ID, 'live').get_attribute('data-state')}, last {driver.execute_script('return document.body.dataset.lastEvent')})")


def settle(driver):
    """Waits for every visible map square and the tiles' fade-in: for the pictures only."""
    wait(driver, "the map's squares did not all load", lambda d: d.execute_script("return document.body.dataset.tiles") == "loaded")
    time.sleep(0.5)


options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800",
                 "--force-device-scale-factor=1", "--lang=en"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    # The map and its tiles, drawn by the daemon.
    driver.get(setup["login_url"])
    wait(driver, "no map tile loaded", lambda d: len(d.find_elements(By.CSS_SELECTOR, "img.leaflet-tile-loaded")) >= 4)
    print("ok: tiles loaded", flush=True)

    # Completion in the search box.
    settle(driver)
    box = driver.find_element(By.CSS_SELECTOR, "input[type=search]")
    box.send_keys("Keskus")
    wait(driver, "typing Keskus did not offer Keskustori",
         lambda d: any(item.text.startswith("Keskustori") for item in d.find_elements(By.CSS_SELECTOR, "#suggestions li")))
    driver.save_screenshot(f"{shots}/search.png")
    print("ok: Keskus offers Keskustori", flush=True)

    # The compare deep link: every mode with umctl's duration.
    driver.get(setup["compare_url"])
    wait(driver, "the compare view showed no four modes", lambda d: len(d.find_elements(By.CSS_SELECTOR, ".option[data-mode]")) == 4)
    wait(driver, "the compare view drew no routes", lambda d: len(d.find_elements(By.CSS_SELECTOR, "path.leaflet-interactive")) >= 4)
    wait(driver, "no map tile loaded for compare", lambda d: len(d.find_elements(By.CSS_SELECTOR, "img.leaflet-tile-loaded")) >= 4)
    for mode, seconds in setup["compare_durations"].items():
        shown = driver.find_element(By.CSS_SELECTOR, f".option[data-mode={mode}] .duration").get_attribute("data-seconds")
        if float(shown) != float(seconds):
            fail(f"compare shows {mode} {shown} s, umctl compare --json says {seconds} s")
    settle(driver)
    driver.save_screenshot(f"{shots}/compare.png")
    print("ok: compare durations equal umctl's", flush=True)

    # The plan deep link: rides by stop name and line.
    plan_id = setup["plan_id"]
    driver.get(setup["plan_url"])
    wait(driver, "the plan view did not show", lambda d: d.find_elements(By.CSS_SELECTOR, "article.plan"))
    rides = [ride.text for ride in driver.find_elements(By.CSS_SELECTOR, ".ride")]
    for ride in setup["rides"]:
        if not any(ride["line"] in text and ride["from"] in text and ride["to"] in text for text in rides):
            fail(f"the plan view lacks line {ride['line']} from {ride['from']} to {ride['to']}: {rides}")
    wait(driver, "no map tile loaded for the plan", lambda d: len(d.find_elements(By.CSS_SELECTOR, "img.leaflet-tile-loaded")) >= 4)
    settle(driver)
    driver.save_screenshot(f"{shots}/plan.png")
    print("ok: plan shows its rides by stop and line", flush=True)

    # An edit with umctl shows in the open page without a reload.
    driver.execute_script("window.notReloaded = true")
    wait(driver, "the page is not following the daemon's events", lambda d: d.find_element(By.ID, "live").get_attribute("data-state") == "live")
    umctl("plan", "rename", str(plan_id), "Concert by tram")
    wait(driver, "the page did not show umctl's rename", lambda d: d.find_element(By.CSS_SELECTOR, "article.plan h2").text == "Concert by tram")
    if not driver.execute_script("return window.notReloaded === true"):
        fail("the page was reloaded")
    print("ok: a umctl edit shows live", flush=True)

    segment = setup["transit_segment"]
    # A pin made in the page shows in umctl plan show.
    driver.find_element(By.XPATH, f"//li[@data-segment='{segment}']//button[text()='Pin this ride']").click()
    wait(driver, "the pin did not show", lambda d: d.find_elements(By.CSS_SELECTOR, f"li[data-segment='{segment}'] .tag.pin"))
    shown = json.loads(umctl("plan", "show", str(plan_id), "--json"))
    if segment not in shown["pinned_segments"]:
        fail(f"umctl plan show has no pin on segment {segment}: {shown['pinned_segments']}")
    print("ok: a pin made in the page shows in umctl", flush=True)

    # A choice made in the page shows in umctl plan show.
    driver.find_element(By.XPATH, f"//li[@data-segment='{segment}']//button[text()='Alternatives']").click()
    wait(driver, "no alternatives listed", lambda d: len(d.find_elements(By.CSS_SELECTOR, ".choices li")) >= 2)
    chosen = driver.find_elements(By.CSS_SELECTOR, ".choices li")[1]
    lines = [badge.text for badge in chosen.find_elements(By.CSS_SELECTOR, ".line")]
    driver.save_screenshot(f"{shots}/alternatives.png")
    chosen.find_element(By.TAG_NAME, "button").click()
    wait(driver, f"the choice of lines {lines} did not show",
         lambda d: [b.text for b in d.find_elements(By.CSS_SELECTOR, f"li[data-segment='{segment}'] .ride .line")] == lines)
    shown = json.loads(umctl("plan", "show", str(plan_id), "--json"))
    if shown["segments"][segment - 1].get("chosen_lines") != lines:
        fail(f"umctl plan show has chosen lines {shown['segments'][segment - 1].get('chosen_lines')}, the page chose {lines}")
    print("ok: a choice made in the page shows in umctl", flush=True)

    # A phone-sized window.
    driver.set_window_size(390, 844)
    driver.execute_script("document.getElementById('status').textContent = ''")
    time.sleep(0.3)
    settle(driver)
    driver.save_screenshot(f"{shots}/plan-phone.png")
    origin = "/".join(setup["login_url"].split("/")[:3])
    driver.get(f"{origin}/#/agenda")  # the session cookie of the first login still holds
    wait(driver, "the agenda did not show", lambda d: d.find_elements(By.CSS_SELECTOR, "#panel .list li"))
    settle(driver)
    driver.save_screenshot(f"{shots}/agenda-phone.png")
    print("ok: agenda of today", flush=True)
    print("ok: all checks", flush=True)
finally:
    driver.quit()
