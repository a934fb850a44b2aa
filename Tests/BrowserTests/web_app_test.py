#!/usr/bin/python3
"""Drives the daemon's web app in a real headless Chromium (Debian's chromium, chromium-driver and
python3-selenium). Run by WebAppBrowserTests, which starts the daemon with Tampere and passes a
JSON file of what to open and what to expect; prints one line per check and exits 1 on the first
failure, naming it. Screenshots of each view go to the folder given."""
import json
import re
import sys
import time

from browser_session import fail, umctl_for
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait

setup = json.load(open(sys.argv[1]))
shots = setup["screenshots"]


umctl = umctl_for(setup)


# Generous: a loaded 2-core CI machine draws the first squares slowly; a wait ends as soon as the condition holds.
def wait(driver, what, condition, seconds=120):
    try:
        # A view redrawn between finding an element and reading it is looked at again.
        return WebDriverWait(driver, seconds, poll_frequency=0.1, ignored_exceptions=[NoSuchElementException, StaleElementReferenceException]) \
            .until(lambda d: condition(d))
    except Exception:
        driver.save_screenshot(f"{shots}/failed.png")
        fail(f"{what} (page said: {driver.find_element(By.ID, 'status').text!r}; events "
             f"{driver.find_element(By.ID, 'live').get_attribute('data-state')}, last {driver.execute_script('return document.body.dataset.lastEvent')})")


def answer_dialog(driver, text=None, accept=True):
    """Answers the page's prompt (with `text`) or confirm."""
    wait(driver, "no dialog opened", expected_conditions.alert_is_present(), seconds=10)
    dialog = driver.switch_to.alert
    if text is not None:
        dialog.send_keys(text)
    dialog.accept() if accept else dialog.dismiss()


def retry(action):
    """Runs an action on the page again when the view was redrawn under it (a recompute after an
    edit draws the plan again); a few times at most."""
    for _ in range(10):
        try:
            return action()
        except StaleElementReferenceException:
            time.sleep(0.2)
    fail("the view kept being redrawn under an action")


def click(driver, by, selector):
    retry(lambda: driver.find_element(by, selector).click())


def settle_plan(driver, plan_id):
    """Waits until the page shows the plan, at the generation that umctl shows (another plan
    shown before it may have the same generation)."""
    def caught_up(d):
        summary = d.execute_script("return document.querySelector('article.plan .summary')?.textContent ?? ''")
        if not summary.startswith(f"Plan {plan_id} "):
            return False
        shown = d.execute_script("return document.querySelector('article.plan')?.dataset.generation ?? -1")
        return int(shown) == json.loads(umctl("plan", "show", str(plan_id), "--json"))["generation"]
    wait(driver, "the page did not catch up with umctl's plan", caught_up)


def shown_plan():
    return json.loads(umctl("plan", "show", str(setup["plan_id"]), "--json"))


def wait_for_generation(driver, what, generation):
    """Waits until the page shows a plan newer than `generation` (an edit's answer redrawn)."""
    wait(driver, what, lambda d: int(d.execute_script("return document.querySelector('article.plan')?.dataset.generation ?? -1")) > generation)


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
    # Times and durations agree as umctl's do: a duration is the difference of the times shown.
    for option in driver.find_elements(By.CSS_SELECTOR, ".option[data-mode]"):
        times = option.find_elements(By.CSS_SELECTOR, ".times")
        if not times:
            continue
        start, end = [part.strip()[:5] for part in times[0].text.split("→")]
        minutes = (int(end[:2]) * 60 + int(end[3:])) - (int(start[:2]) * 60 + int(start[3:]))
        minutes += 24 * 60 if minutes < 0 else 0
        expected = f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"
        if minutes == 0 and float(option.find_element(By.CSS_SELECTOR, ".duration").get_attribute("data-seconds") or 0) > 0:
            expected = "< 1 min"  # two times in one shown minute, seconds apart
        shown = option.find_element(By.CSS_SELECTOR, ".duration").text
        if shown != expected:
            fail(f"compare shows {shown!r} for {times[0].text!r}; the times shown give {expected!r}")
    settle(driver)
    driver.save_screenshot(f"{shots}/compare.png")
    print("ok: compare durations equal umctl's", flush=True)

    # The plan deep link: rides by stop name and line.
    plan_id = setup["plan_id"]
    origin = "/".join(setup["login_url"].split("/")[:3])
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
    # A pin made in the page shows in umctl plan show, and it is the ride the page showed (the
    # button sends the ride's departure: a pin's time is when its ride leaves its stop).
    before = json.loads(umctl("plan", "show", str(plan_id), "--json"))
    rides = [ride.get("trip_id") for ride in (before["segments"][segment - 1].get("leg") or {}).get("rides", [])]
    click(driver, By.XPATH, f"//li[@data-segment='{segment}']//button[text()='Pin this ride']")
    wait(driver, "the pin did not show", lambda d: d.find_elements(By.CSS_SELECTOR, f"li[data-segment='{segment}'] .tag.pin"))
    shown = json.loads(umctl("plan", "show", str(plan_id), "--json"))
    if segment not in shown["pinned_segments"]:
        fail(f"umctl plan show has no pin on segment {segment}: {shown['pinned_segments']}")
    pinned = [ride.get("trip_id") for ride in (shown["segments"][segment - 1].get("leg") or {}).get("rides", [])]
    if pinned != rides:
        fail(f"the page pinned another ride than it showed: {rides} became {pinned}")
    print("ok: a pin made in the page shows in umctl", flush=True)

    # A choice made in the page shows in umctl plan show.
    settle_plan(driver, plan_id)
    click(driver, By.XPATH, f"//li[@data-segment='{segment}']//button[text()='Alternatives']")
    wait(driver, "no alternatives listed", lambda d: len(d.find_elements(By.CSS_SELECTOR, ".choices li")) >= 2)
    # Each option says when its first ride leaves its stop, the "boards" column of umctl plan
    # alternatives (the time plan pin takes), beside when it leaves and arrives.
    listed = json.loads(umctl("plan", "alternatives", str(plan_id), str(segment), "--count", "5", "--json"))
    wanted = [[option["departure"][11:16], ((option.get("rides") or [{}])[0].get("departure") or "–")[11:16] or "–",
               option["arrival"][11:16]] for option in listed["options"]]
    items = driver.find_elements(By.CSS_SELECTOR, ".choices li")
    shown_times = [[item.find_element(By.CSS_SELECTOR, f".{column}").text for column in ("leaves", "boards", "arrives")]
                   for item in items]
    if shown_times != wanted:
        fail(f"the page lists leaves/boards/arrives {shown_times}, umctl plan alternatives {wanted}")
    headings = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, ".choices-head span")]
    if headings[:5] != ["#", "leaves", "boards", "arrives", "takes"]:
        fail(f"the alternatives' columns are not named as umctl names them: {headings}")
    print("ok: the alternatives say when each first ride boards, as umctl does", flush=True)
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

    # Edits made in the page show in umctl plan show: a stay, a leg's mode, a new title.
    generation = shown_plan()["generation"]
    settle_plan(driver, plan_id)
    click(driver, By.XPATH, "//li[contains(@class,'node')][1]//button[text()='Add stay']")
    answer_dialog(driver, "15")
    wait_for_generation(driver, "the stay did not show", generation)
    shown = shown_plan()
    if shown["nodes"][0].get("stay_s") != 900:
        fail(f"umctl plan show has the first stay {shown['nodes'][0].get('stay_s')}, the page asked for 900 s")
    wait(driver, "the page does not show the stay of 15 min", lambda d: "stay 15 min" in d.find_element(By.CSS_SELECTOR, "li.node .stay").text)
    print("ok: a stay set in the page shows in umctl", flush=True)

    generation = shown["generation"]
    settle_plan(driver, plan_id)
    retry(lambda: Select(driver.find_element(By.CSS_SELECTOR, f"li[data-segment='{segment}'] select")).select_by_value("walk"))
    # The ride walked, the stops the planner inferred for it go with it (docs/planner.md, "A stop
    # no ride uses goes"): the plan walks on, with no ride left.
    wait(driver, "the mode change did not show",
         lambda d: d.find_elements(By.CSS_SELECTOR, "li.segment.walk") and not d.find_elements(By.CSS_SELECTOR, "li.segment.transit"))
    shown = shown_plan()
    if "transit" in [s["mode"] for s in shown["segments"]]:
        fail(f"umctl plan show still rides ({[s['mode'] for s in shown['segments']]}), the page chose walk for segment {segment}")
    print("ok: a mode changed in the page shows in umctl", flush=True)

    generation = shown["generation"]
    settle_plan(driver, plan_id)
    click(driver, By.XPATH, "//article[contains(@class,'plan')]//button[text()='Rename']")
    answer_dialog(driver, "Walk to the concert")
    wait(driver, "the new title did not show", lambda d: d.find_element(By.CSS_SELECTOR, "article.plan h2").text == "Walk to the concert")
    if shown_plan()["title"] != "Walk to the concert":
        fail(f"umctl plan show has the title {shown_plan()['title']!r}")
    print("ok: a rename in the page shows in umctl", flush=True)

    # Dragging the last node moves that place (plan.move): south-west of where it was.
    settle_plan(driver, plan_id)
    shown = shown_plan()
    last = len(shown["nodes"])
    before = shown["nodes"][-1]
    retry(lambda: ActionChains(driver).click_and_hold(driver.find_element(By.CSS_SELECTOR, f".node-marker[data-node='{last}']"))
          .pause(0.2).move_by_offset(10, 10).pause(0.2).move_by_offset(-70, 50).pause(0.3).release().perform())
    wait_for_generation(driver, "the dragged node did not move the plan's place", shown["generation"])
    after = shown_plan()["nodes"][-1]
    if not (after["lat"] < before["lat"] and after["lon"] < before["lon"]):
        fail(f"dragging node {last} down and left moved it from {before['lat']},{before['lon']} to {after['lat']},{after['lon']}")
    driver.save_screenshot(f"{shots}/plan-moved.png")
    print("ok: dragging a node moves it in umctl", flush=True)

    # Dragging from a leg's line inserts a stop there (plan.insert after the leg's first node).
    settle_plan(driver, plan_id)
    shown = shown_plan()
    leg = len(shown["segments"])
    middle = driver.execute_script("""
        const path = document.querySelector(arguments[0]);
        const point = path.getPointAtLength(path.getTotalLength() / 2).matrixTransform(path.getScreenCTM());
        return [Math.round(point.x), Math.round(point.y)];""", f"path.leg-{leg}")
    drag = ActionBuilder(driver)
    drag.pointer_action.move_to_location(*middle).pointer_down().pause(0.2).move_to_location(middle[0] + 10, middle[1] - 10).pause(0.2) \
        .move_to_location(middle[0] + 60, middle[1] - 50).pause(0.3).pointer_up()
    drag.perform()
    wait_for_generation(driver, "dragging a leg's line inserted no stop", shown["generation"])
    inserted = shown_plan()
    if len(inserted["nodes"]) != len(shown["nodes"]) + 1:
        fail(f"after the drag umctl shows {len(inserted['nodes'])} nodes, before {len(shown['nodes'])}")
    wait(driver, f"the map does not show umctl's {len(inserted['nodes'])} places",
         lambda d: len(d.find_elements(By.CSS_SELECTOR, ".node-marker")) == len(inserted["nodes"]))
    driver.save_screenshot(f"{shots}/plan-inserted.png")
    print("ok: dragging a leg's line inserts a stop in umctl", flush=True)

    # The same by keyboard: Move… the last place back to Tampere-talo, Add a stop… on the first leg.
    settle_plan(driver, plan_id)
    shown = shown_plan()
    click(driver, By.XPATH, f"//button[@aria-label='Move place {len(shown['nodes'])}, {shown['nodes'][-1]['name']}']")
    answer_dialog(driver, "Tampere-talo")
    wait_for_generation(driver, "Move… did not move the place", shown["generation"])
    settle_plan(driver, plan_id)
    shown = shown_plan()
    if "Tampere-talo" not in shown["nodes"][-1]["name"]:
        fail(f"after Move… to Tampere-talo umctl has the last place {shown['nodes'][-1]['name']!r}")
    click(driver, By.XPATH, "//button[@aria-label='Add a stop on leg 1']")
    answer_dialog(driver, "61.49860,23.77360")
    wait_for_generation(driver, "Add a stop… inserted nothing", shown["generation"])
    if len(shown_plan()["nodes"]) != len(shown["nodes"]) + 1:
        fail(f"after Add a stop… umctl has {len(shown_plan()['nodes'])} places, before {len(shown['nodes'])}")
    print("ok: Move… and Add a stop… by keyboard show in umctl", flush=True)

    # What is here: a right click on the map asks `where`, as umctl where does.
    ActionChains(driver).move_to_element_with_offset(driver.find_element(By.ID, "map"), 120, -150).context_click().perform()
    wait(driver, "a right click showed no popup", lambda d: d.find_elements(By.CSS_SELECTOR, ".leaflet-popup .popup"))
    popup = driver.find_element(By.CSS_SELECTOR, ".leaflet-popup .popup")
    here = json.loads(umctl("where", popup.get_attribute("data-place"), "--json"))
    if popup.find_element(By.TAG_NAME, "p").text != (here["label"] or "outside every region"):
        fail(f"the popup says {popup.find_element(By.TAG_NAME, 'p').text!r}, umctl where says {here['label']!r}")
    driver.save_screenshot(f"{shots}/where.png")
    print("ok: what is here equals umctl where", flush=True)

    # Saving that place: umctl place list has it, completion offers it, the places view lists it.
    popup.find_element(By.XPATH, ".//button[text()='Save place…']").click()
    answer_dialog(driver, "Browser test corner")
    wait(driver, "saving the place said nothing", lambda d: "Saved" in d.find_element(By.ID, "status").text)
    places = [place["name"] for place in json.loads(umctl("place", "list", "--json"))["places"]]
    if "Browser test corner" not in places:
        fail(f"umctl place list lacks the saved place: {places}")
    box = driver.find_element(By.CSS_SELECTOR, "input[type=search]")
    box.clear()
    box.send_keys("Browser test")
    wait(driver, "completion did not offer the saved place",
         lambda d: any(item.text.startswith("Browser test corner") for item in d.find_elements(By.CSS_SELECTOR, "#suggestions li")))
    box.send_keys(Keys.ESCAPE)
    driver.find_element(By.CSS_SELECTOR, "nav a[href='#/places']").click()
    wait(driver, "the places view lacks the saved place",
         lambda d: any(item.text == "Browser test corner" for item in d.find_elements(By.CSS_SELECTOR, "#panel .list button")))
    print("ok: a place saved in the page shows in umctl and in completion", flush=True)
    driver.get(f"{origin}/#/plan/{plan_id}")
    wait(driver, "the plan view did not show again", lambda d: d.find_elements(By.CSS_SELECTOR, "article.plan"))

    # The page says what umctl plan show says: each segment's mode note under it, and each
    # pending update in the same words (a proposal named by line and time, or that nothing can be caught).
    gave_way = 0
    missed_departures_said = 0
    walk_notes_said = 0
    waits_said = 0
    prices_said = 0
    fares_said = 0
    choices_said = 0
    totals_said = 0
    late_said = 0

    # The same words; a time on another day is marked as each writes every time ("00:40 +1d", "00:40 (1.4.)").
    def clocks(words):
        return re.sub(r" \(\d+\.\d+\.\)| [+-]\d+d", "", words)

    for spoken_plan in setup["spoken_plans"]:
        text = umctl("plan", "show", str(spoken_plan))
        notes = [line.strip() for line in text.splitlines() if line.strip().startswith("mode: ")]
        pending = []
        lines = text.splitlines()
        for index, line in enumerate(lines):
            if line.strip().startswith("pending on segment "):
                answer = line.split(" → ", 1)[1].rsplit(" (umctl plan ", 1)[0]
                named = lines[index + 1].strip() if index + 1 < len(lines) and lines[index + 1].startswith("          ") else None
                # "proposed bus 8 leaves 06:44, arrives 06:46 (2 min)" is the page's "Proposed: bus 8 leaves …",
                # "retimed leaves …" its "Retimed: leaves …"; the naming line is the same.
                for word in ("proposed", "retimed"):
                    if answer.startswith(word + " "):
                        answer = f"{word.capitalize()}: {answer[len(word) + 1:]}"
                pending.append(answer)
                if named and answer.startswith("Proposed: "):
                    pending.append(named)
        # A ride missed on foot: "missed: bus 6 leaves Koskipuisto D at 09:02; the walk gets you there at 10:38, 1 h 36 min too late".
        missed = [found.group(0) for found in (re.search(r"missed: .*?; the walk gets you there at [^,;]+(?:, [^;]*? too late)?", line)
                                               for line in lines) if found]
        driver.get(f"{origin}/#/plan/{spoken_plan}")
        wait(driver, f"plan {spoken_plan} did not show", lambda d: d.find_elements(By.CSS_SELECTOR, "article.plan"))
        settle_plan(driver, spoken_plan)
        shown_missed = [paragraph.get_attribute("textContent") for paragraph in driver.find_elements(By.CSS_SELECTOR, ".missed-ride")]
        for words in missed:
            if words not in shown_missed:
                fail(f"plan {spoken_plan}: umctl plan show says {words!r}, the page {shown_missed}")
        # A missed departure otherwise: "missed: it leaves 08:15 but you get there at 08:17, 2 min too late" (trial 59 F5).
        missed_departures = [found.group(0) for found in (re.search(r"missed: it leaves .*? too late", line) for line in lines) if found]
        shown_departures = [paragraph.get_attribute("textContent") for paragraph in driver.find_elements(By.CSS_SELECTOR, ".missed-departure")]
        for words in missed_departures:
            if words not in shown_departures:
                fail(f"plan {spoken_plan}: umctl plan show says {words!r}, the page {shown_departures}")
        missed_departures_said += len(missed_departures)
        # The engine's note under a journey (trial 59b: the page left it out).
        walk_notes = [line for line in lines if line.strip() == "note: walking the whole way is no slower than this journey"]
        shown_walk_notes = driver.find_elements(By.CSS_SELECTOR, ".walk-note")
        if len(shown_walk_notes) != len(walk_notes):
            fail(f"plan {spoken_plan}: umctl plan show notes walking no slower {len(walk_notes)} times, the page {len(shown_walk_notes)}")
        walk_notes_said += len(walk_notes)
        # The missed leg keeps its ride's times, whose span nobody travels: its summary says
        # "ride missed" (never "< 1 min", trial 50, nor "2 h 23 min", trial 51), as umctl's header,
        # and only there (trial 60 F9: a journey missed at a change read "ride missed" too).
        for item in driver.find_elements(By.CSS_SELECTOR, "li.segment"):
            number = item.get_attribute("data-segment")
            header = next((line for line in lines if re.match(rf"^\s+seg\s+{number}: ", line)), "")
            summary = item.find_element(By.CSS_SELECTOR, ".leg-summary").get_attribute("textContent")
            if bool(re.match(r"^\s+seg\s+\d+: \w+\s+ride missed,", header)) != summary.startswith("ride missed"):
                fail(f"plan {spoken_plan}: umctl plan show says {header.strip()!r}, the page's leg {number} reads {summary!r}")
            # A walk or drive that leaves later than the traveller gets there says when (umctl's ", leaves 08:45").
            leaves = re.search(r", leaves (\d\d:\d\d)", header)
            if bool(leaves) != (", leaves " in summary) or (leaves and f", leaves {leaves.group(1)}" not in summary):
                fail(f"plan {spoken_plan}: umctl plan show says {header.strip()!r}, the page's leg {number} reads {summary!r}")
            # The line choice as umctl marks it ("chose 6", "line choice 6 replaced by bus 9, bus 6", trial 60 F9).
            marked = re.search(r"\[.*?\b((?:chose|line choice) .*?)(?:, (?:pinned|missed|late))*\]$", header)
            choice = [marked.group(1)] if marked else []
            shown_choice = [tag.get_attribute("textContent") for tag in item.find_elements(By.CSS_SELECTOR, ".tag.choice")]
            if shown_choice != choice:
                fail(f"plan {spoken_plan}: umctl plan show marks {choice} on segment {number}, the page {shown_choice}")
            choices_said += len(choice)
        # When each pin leaves, as umctl's header says it ("seg 2 pinned to leave 08:44").
        for number, leaves in re.findall(r"seg (\d+) pinned to leave (\d\d:\d\d)", lines[1]):
            shown_pin = [tag.get_attribute("textContent") for tag in
                         driver.find_elements(By.CSS_SELECTOR, f"li.segment[data-segment='{number}'] .tag.pin")]
            if [clocks(words) for words in shown_pin] != [f"pinned to leave {leaves}"]:
                fail(f"plan {spoken_plan}: umctl plan show says {lines[1].strip()!r}, the page's leg {number} tags {shown_pin}")
        # A plan with no total says why, as umctl's "total: none (a connection is missed)" (trial 60 F9).
        for line in lines:
            found = re.search(r"^  total: ((?:none|incomplete) \([^)]*\))", line)
            if not found:
                continue
            summary = driver.find_element(By.CSS_SELECTOR, "article.plan .summary").get_attribute("textContent")
            if f"total: {found.group(1)}" not in summary:
                fail(f"plan {spoken_plan}: umctl plan show says {line.strip()!r}, the page {summary!r}")
            totals_said += 1
        # A walk's minutes then its wait: umctl's "walk 2 min, 166 m, then wait 9 min" is the page's
        # leg summary "2 min, then wait 9 min · 166 m" (trial 51: "walk 11 min" held the wait).
        for line in lines:
            found = re.search(r"seg\s+(\d+): \w+\s+(.+?), ([\d.]+ k?m), then wait (\d+ h \d+ min|\d+ min|< 1 min)", line)
            if not found:
                continue
            number, moving, length, waiting = found.groups()
            summary = driver.find_element(By.CSS_SELECTOR, f"li.segment[data-segment='{number}'] .leg-summary").get_attribute("textContent")
            if summary != f"{moving}, then wait {waiting} · {length}":
                fail(f"plan {spoken_plan}: umctl plan show says {found.group(0)!r}, the page's leg {number} {summary!r}")
            waits_said += 1
        # What the price counts, beside it: "price 3.50 EUR (the missed ride on segment 2 priced as the one proposed)".
        for line in lines:
            found = re.search(r"^  total: .*, price (\d+\.\d\d [A-Z]{3}) \((.*)\)$", line)
            if not found:
                continue
            summary = driver.find_element(By.CSS_SELECTOR, "article.plan .summary").get_attribute("textContent")
            if f"{found.group(1)} ({found.group(2)})" not in summary:
                fail(f"plan {spoken_plan}: umctl plan show says {found.group(0).strip()!r}, the page {summary!r}")
            prices_said += 1
        # Each segment's fare in umctl's words ("fare 3.50 EUR, bus 6 covered by the ticket bought on
        # segment 1 at 09:06; bus 16 at 10:40 buys a new one, 3.50 EUR"): which ride buys, which is covered.
        for item in driver.find_elements(By.CSS_SELECTOR, "li.segment"):
            number = item.get_attribute("data-segment")
            header = next((line for line in lines if re.match(rf"^\s+seg\s+{number}: ", line)), "")
            umctl_fare = re.search(r"; (fare[ :].*?|cost ≈ .*?)(?:; (?:accessibility unknown|step-free|not accessible)|  \[|$)", header)
            shown_fare = [p.get_attribute("textContent") for p in item.find_elements(By.CSS_SELECTOR, ".fare")]
            if (umctl_fare.group(1) if umctl_fare else None) != (shown_fare[0] if shown_fare else None):
                fail(f"plan {spoken_plan}: umctl plan show says {header.strip()!r}, the page's leg {number} fare {shown_fare}")
            fares_said += 1 if shown_fare else 0
        shown_notes = [note.get_attribute("textContent") for note in driver.find_elements(By.CSS_SELECTOR, ".mode-note")]
        if shown_notes != notes:
            fail(f"plan {spoken_plan}: the page shows the mode notes {shown_notes}, umctl plan show {notes}")
        shown_pending = [paragraph.get_attribute("textContent") for paragraph in driver.find_elements(By.CSS_SELECTOR, ".pending p")]
        for words in pending:
            if clocks(words) not in [clocks(shown) for shown in shown_pending]:
                fail(f"plan {spoken_plan}: umctl plan show says {words!r}, the page {shown_pending}")
        # Which pin gave way and what held: the daemon's `gives_way`, the same sentence in both.
        gives = [line.strip() for line in text.splitlines() if re.match(r"^.* holds?, so .* is (missed|late)$", line.strip())]
        shown_gives = [paragraph.get_attribute("textContent") for paragraph in driver.find_elements(By.CSS_SELECTOR, ".gives-way")]
        if [clocks(words) for words in shown_gives] != [clocks(words) for words in gives]:
            fail(f"plan {spoken_plan}: umctl plan show says {gives}, the page {shown_gives}")
        gave_way += len(gives)
        # A late leg names when the traveller must be at its end: the daemon's `due`, the same time
        # in both (trial 52: the node's shown time, when the late leg gets there, was named).
        def minutes(words):
            return re.sub(r"(\d\d:\d\d):\d\d", r"\1", clocks(words))
        # With how late (trial 60 F9: the page left "1 h 46 min too late" out).
        late = [found.group(1) for found in (re.search(r"(late: it arrives \S+ but you must be .* by [0-9:]+(?:, [^;]*? too late)?)", line)
                                             for line in lines) if found]
        late_said += sum(1 for words in late if words.endswith(" too late"))
        shown_late = [paragraph.get_attribute("textContent") for paragraph in driver.find_elements(By.CSS_SELECTOR, ".late-arrival")]
        if [minutes(words) for words in shown_late] != [minutes(words) for words in late]:
            fail(f"plan {spoken_plan}: umctl plan show says {late}, the page {shown_late}")
        if spoken_plan == setup.get("late_pin_plan"):
            if not late:
                fail(f"plan {spoken_plan}: an arrive-by plan with a late pin says no late leg: {text}")
            if "following the proposal" not in driver.find_element(By.CSS_SELECTOR, "article.plan .summary").get_attribute("textContent"):
                fail(f"plan {spoken_plan}: the page gives no total following the late pin's proposal, umctl: {text}")
        # Each late or missed leg's mark as umctl prints it ("[locked, pinned, late]"): the page's
        # tag says the same word (trial 52: an arrive-by plan's late leg was tagged "missed").
        marks = [found.group(1) for found in (re.search(r"^\s+seg \d+:.*\[.*\b(late|missed)\]$", line) for line in lines) if found]
        shown_marks = [tag.get_attribute("textContent") for tag in driver.find_elements(By.CSS_SELECTOR, "li.segment .tag.late")]
        if shown_marks != marks:
            fail(f"plan {spoken_plan}: umctl plan show marks {marks}, the page tags {shown_marks}")
        # Every node's time as umctl shows it ("10:03", or "--:--" when it has none; the page "–").
        umctl_times = [found.group(1)[:5] for found in (re.match(r"^  \d+\. (\S+) ", line) for line in lines) if found]
        shown_times = [span.get_attribute("textContent")[:5] for span in driver.find_elements(By.CSS_SELECTOR, "li.node .time")]
        if [("--:--" if time == "–" else time) for time in shown_times] != umctl_times:
            fail(f"plan {spoken_plan}: umctl plan show times its nodes {umctl_times}, the page {shown_times}")
        if spoken_plan == setup.get("late_pin_plan") and "--:--" in umctl_times:
            fail(f"plan {spoken_plan}: an arrive-by plan with a late pin shows a node without its time: {umctl_times}")
        if not notes and not pending and not missed and not re.search(r"\[.*\b(chose|line choice) ", text):
            fail(f"plan {spoken_plan} has nothing to compare: {text}")
        ride_missed = driver.find_elements(By.CSS_SELECTOR, ".missed-ride")
        if ride_missed:
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", ride_missed[0])
        driver.save_screenshot(f"{shots}/plan-{spoken_plan}-words.png")
        print(f"ok: plan {spoken_plan} says what umctl plan show says ({len(notes)} notes, {len(pending)} pending, "
              f"{len(missed)} missed on foot, {len(gives)} gives way)", flush=True)
    if gave_way == 0:
        fail("no plan said which pin gave way: the missed pins' plans should")
    if choices_said < 2:
        fail(f"{choices_said} line choices compared: the plans with line 6 pinned mark two")
    if totals_said == 0:
        fail("no missed plan's total compared: the plans with a missed pin have none")
    if late_said == 0:
        fail("no late leg's \"too late\" compared: the arrive-by plan with a late pin says one")
    if walk_notes_said == 0:
        fail("no note of walking no slower compared: the plan from Keskustori to Koskipuisto A says one")
    if missed_departures_said == 0:
        fail("no missed departure compared: a plan with a pin missed at its start should say one")
    if fares_said == 0:
        fail("no leg's fare compared: the plans with rides have fares")
    if waits_said == 0 or prices_said == 0:
        fail(f"{waits_said} walks with a wait and {prices_said} prices with a note compared: the plan with a wait priced as its proposal has both")
    driver.get(f"{origin}/#/plan/{plan_id}")
    wait(driver, "the plan view did not show again", lambda d: d.find_elements(By.CSS_SELECTOR, "article.plan"))

    # A phone-sized window.
    driver.set_window_size(390, 844)
    driver.execute_script("document.getElementById('status').textContent = ''")
    time.sleep(0.3)
    settle(driver)
    driver.save_screenshot(f"{shots}/plan-phone.png")
    driver.get(f"{origin}/#/agenda")  # the session cookie of the first login still holds
    wait(driver, "the agenda did not show", lambda d: d.find_elements(By.CSS_SELECTOR, "#panel .list li"))
    settle(driver)
    driver.save_screenshot(f"{shots}/agenda-phone.png")
    print("ok: agenda of today", flush=True)

    # A pending proposal (a missed pin) accepted in the page, another dismissed: umctl has none left.
    for proposal_plan, action in zip(setup["proposal_plans"], ["Accept", "Dismiss"]):
        before = json.loads(umctl("plan", "show", str(proposal_plan), "--json"))
        proposal = before["pending"][0]
        driver.get(f"{origin}/#/plan/{proposal_plan}")
        wait(driver, f"plan {proposal_plan} shows no proposal", lambda d: d.find_elements(By.CSS_SELECTOR, ".pending"))
        if action == "Accept":
            driver.save_screenshot(f"{shots}/proposal.png")
        click(driver, By.XPATH, f"//div[contains(@class,'pending')]//button[text()='{action}']")
        wait(driver, f"{action} left the proposal on the page", lambda d: not d.find_elements(By.CSS_SELECTOR, ".pending"))
        after = json.loads(umctl("plan", "show", str(proposal_plan), "--json"))
        if after["pending"]:
            fail(f"after {action} in the page umctl still has the proposal {after['pending']}")
        leg = after["segments"][proposal["segment"] - 1]["leg"]
        if action == "Accept" and leg["departure"] != proposal["latest"]["departure"]:
            fail(f"accepted, the leg leaves {leg['departure']}, the proposal {proposal['latest']['departure']}")
        print(f"ok: {action} of a proposal in the page shows in umctl", flush=True)

    # The options plan choose refuses for a pin after the segment are marked in the page, as
    # umctl plan alternatives marks them: no Choose button, the reason instead.
    conflict_plan = setup["pin_conflict_plan"]
    listed = json.loads(umctl("plan", "alternatives", str(conflict_plan), "1", "--json"))
    refused = sorted(conflict["option"] for conflict in listed.get("pin_conflicts") or [])
    if not refused or len(refused) == len(listed["options"]):
        fail(f"plan {conflict_plan}: expected some options and not all refused for the pin: {listed}")
    driver.get(f"{origin}/#/plan/{conflict_plan}")
    wait(driver, f"plan {conflict_plan} did not show", lambda d: d.find_elements(By.CSS_SELECTOR, "article.plan"))
    settle_plan(driver, conflict_plan)
    click(driver, By.XPATH, "//li[@data-segment='1']//button[text()='Alternatives']")
    wait(driver, "no alternatives listed", lambda d: len(d.find_elements(By.CSS_SELECTOR, ".choices li")) == len(listed["options"]))
    items = driver.find_elements(By.CSS_SELECTOR, ".choices li")
    shown_refused = [index + 1 for index, item in enumerate(items) if not item.find_elements(By.TAG_NAME, "button")]
    if shown_refused != refused:
        fail(f"the page offers no Choose for options {shown_refused}, umctl lists {refused} as refused")
    for number in refused:
        if "too late for leg 2" not in items[number - 1].text:
            fail(f"option {number} does not say why it cannot be chosen: {items[number - 1].text!r}")
    driver.save_screenshot(f"{shots}/alternatives-pin-conflicts.png")
    print("ok: options a pin rules out are marked as umctl marks them", flush=True)

    # Delete asks first: dismissed, the plan stays; accepted, umctl no longer has it.
    driver.get(f"{origin}/#/plan/{plan_id}")
    wait(driver, "the plan view did not show for deleting", lambda d: d.find_elements(By.CSS_SELECTOR, "article.plan"))
    click(driver, By.XPATH, "//button[text()='Delete']")
    answer_dialog(driver, accept=False)
    shown_plan()  # still there, or umctl fails the test
    click(driver, By.XPATH, "//button[text()='Delete']")
    answer_dialog(driver)
    wait(driver, "deleting did not go to the plans", lambda d: d.current_url.endswith("#/plans"))
    plans = [plan["id"] for plan in json.loads(umctl("plan", "list", "--json"))["plans"]]
    if plan_id in plans:
        fail(f"umctl plan list still has plan {plan_id} after the page deleted it")
    print("ok: delete asks, then deletes in umctl", flush=True)
    print("ok: all checks", flush=True)
finally:
    driver.quit()
