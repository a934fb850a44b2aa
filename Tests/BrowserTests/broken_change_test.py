#!/usr/bin/python3
"""A pinned journey whose change a realtime delay breaks, in the daemon's web app in a headless
Chromium (run by WebAppBrowserTests.testABrokenChangeAndItsAlternativesReadInThePageAsUmctlSaysThem,
which starts the daemon, serves the feed and passes a JSON file of what to open and expect): the
page says what `umctl plan show` says of the missed change and of the proposal, and its
alternatives say when each first ride boards, as `umctl plan alternatives` does. Prints one line
per check, exits 1 on the first failure; its two pictures go to the folder given."""
import json
import sys

from browser_session import fail, umctl_for
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

setup = json.load(open(sys.argv[1]))
shots = setup["screenshots"]
plan_id, segment = setup["plan_id"], setup["segment"]


umctl = umctl_for(setup)


def wait(driver, what, condition, seconds=120):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.1, ignored_exceptions=[NoSuchElementException, StaleElementReferenceException]) \
            .until(lambda d: condition(d))
    except Exception:
        driver.save_screenshot(f"{shots}/broken-change-failed.png")
        fail(what)


options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800",
                 "--force-device-scale-factor=1", "--lang=en"]:
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.get(setup["login_url"])
    wait(driver, "the page did not open", lambda d: d.find_elements(By.ID, "status"))
    origin = driver.current_url.split("#")[0].rstrip("/")
    driver.get(f"{origin}/#/plan/{plan_id}")
    generation = json.loads(umctl("plan", "show", str(plan_id), "--json"))["generation"]
    wait(driver, f"plan {plan_id} did not show at generation {generation}",
         lambda d: int(d.execute_script("return document.querySelector('article.plan')?.dataset.generation ?? -1")) == generation)

    # The missed change and the proposal in umctl's words.
    missed = [p.get_attribute("textContent") for p in driver.find_elements(By.CSS_SELECTOR, ".missed-ride")]
    if setup["missed_words"] not in missed:
        fail(f"umctl plan show says {setup['missed_words']!r}, the page {missed}")
    pending = [p.get_attribute("textContent") for p in driver.find_elements(By.CSS_SELECTOR, ".pending p")]
    if setup["proposal_words"] not in pending:
        fail(f"umctl plan show names the proposal {setup['proposal_words']!r}, the page {pending}")
    text = driver.find_element(By.CSS_SELECTOR, "article.plan").get_attribute("textContent")
    if "cancelled" in text:
        fail(f"nothing is cancelled, the page says so: {text!r}")
    # The times are the proposal's from the start (trial 60 F3: the start showed when the late first
    # ride's walk leaves, above the proposal's arrival): as the wire gives them, leaving with the proposal.
    shown_plan = json.loads(umctl("plan", "show", str(plan_id), "--json"))
    wanted_times = [(node.get("time") or "")[11:16] or "–" for node in shown_plan["nodes"]]
    page_times = [span.text for span in driver.find_elements(By.CSS_SELECTOR, "ol.chain li.node .time")]
    if page_times != wanted_times:
        fail(f"the page shows the node times {page_times}, the plan {wanted_times}")
    leaves = shown_plan["pending"][0]["latest"]["departure"][11:16]
    if page_times[segment - 1] != leaves:
        fail(f"the start of segment {segment} shows {page_times[segment - 1]}, the proposal leaves {leaves}")
    summary = driver.find_element(By.CSS_SELECTOR, "article.plan .summary").text
    if "following the proposal (as pinned a connection is missed)" not in summary:
        fail(f"the total does not follow the proposal: {summary!r}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", driver.find_element(By.CSS_SELECTOR, ".missed-ride"))
    driver.save_screenshot(f"{shots}/broken-change.png")
    print("ok: the broken change and its proposal read as umctl plan show says them, the times the proposal's", flush=True)

    # Its alternatives: each first ride's boarding time, as umctl plan alternatives lists it.
    driver.find_element(By.XPATH, f"//li[@data-segment='{segment}']//button[text()='Alternatives']").click()
    listed = json.loads(umctl("plan", "alternatives", str(plan_id), str(segment), "--count", "5", "--json"))
    wait(driver, "no alternatives listed", lambda d: len(d.find_elements(By.CSS_SELECTOR, ".choices li")) == len(listed["options"]))
    wanted = [[option["departure"][11:16], ((option.get("rides") or [{}])[0].get("departure") or "–")[11:16] or "–",
               option["arrival"][11:16]] for option in listed["options"]]
    items = driver.find_elements(By.CSS_SELECTOR, ".choices li")
    shown = [[item.find_element(By.CSS_SELECTOR, f".{column}").text for column in ("leaves", "boards", "arrives")] for item in items]
    if shown != wanted:
        fail(f"the page lists leaves/boards/arrives {shown}, umctl plan alternatives {wanted}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", driver.find_element(By.CSS_SELECTOR, ".alternatives-list"))
    driver.save_screenshot(f"{shots}/broken-change-alternatives.png")
    print("ok: the alternatives say when each first ride boards, as umctl does", flush=True)

    # Today's agenda says the plan's states in the daemon's words: a missed change, not "cancelled".
    agenda = next(plan for plan in json.loads(umctl("agenda", "--json"))["plans"] if plan["id"] == plan_id)
    driver.get(f"{origin}/#/agenda")
    wait(driver, "the agenda did not show", lambda d: d.find_elements(By.CSS_SELECTOR, "#panel .list li"))
    tags = [tag.text for tag in driver.find_elements(By.CSS_SELECTOR, "#panel .list li .tag")]
    if tags != agenda["state_words"] or not any(word.startswith("missed change at ") for word in tags):
        fail(f"the agenda's tags {tags}, umctl agenda {agenda['state_words']} (a missed change among them)")
    # Its first leg names the ride its times belong to: the proposal's, which the plan leaves with
    # (trial 60 F10: it named the pinned journey beside the proposal's times).
    proposed = shown_plan["pending"][0]["latest"]["rides"][0]
    if f"{proposed['vehicle']} {proposed['line']} at {proposed['departure'][11:16]}" not in agenda["first_leg"] \
            or "proposed" not in agenda["first_leg"]:
        fail(f"umctl agenda's first leg {agenda['first_leg']!r} does not name the proposed {proposed['line']} at {proposed['departure']}")
    first_legs = [p.text for p in driver.find_elements(By.CSS_SELECTOR, "#panel .list li p.muted")]
    if agenda["first_leg"] not in first_legs:
        fail(f"the agenda page's first legs {first_legs}, umctl agenda {agenda['first_leg']!r}")
    driver.save_screenshot(f"{shots}/broken-change-agenda.png")
    print("ok: the agenda says the missed change and names the proposed ride as umctl agenda does", flush=True)
    print("ok: all checks", flush=True)
finally:
    driver.quit()
