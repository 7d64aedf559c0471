"""The page in a real headless Chromium (Debian's `chromium` and `chromium-driver`, driven by
Selenium) against a real uvicorn: sign in with a key, ask the sample's headline question, open
a citation link, complete a clarification, and be refused once the cookie is gone. Screenshots
are kept in `test-artifacts/` (or `$SITUATED_TEST_ARTIFACTS`).

The browser is required: without it this test fails and says how to install it (set
SITUATED_SKIP_BROWSER=1 to skip it on a machine that cannot have one)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from conftest import running_server

from situated.auth import KeyStore, Principal, hash_key
from situated.server import create_app

pytestmark = [pytest.mark.integration, pytest.mark.slow]  # a real Chromium
KEY = "key-browser-public-0123456789"
HEADLINE = "What battery warranty applies to a C-3 bought on 15 March 2026?"
ARTIFACTS = Path(os.environ.get("SITUATED_TEST_ARTIFACTS",
                                Path(__file__).resolve().parents[2] / "test-artifacts"))


def _binaries() -> tuple[str, str]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if os.environ.get("SITUATED_SKIP_BROWSER") == "1":
        pytest.skip("SITUATED_SKIP_BROWSER=1")
    if not browser or not driver:
        pytest.fail("the browser test needs Chromium and its driver: `apt-get update && "
                    "apt-get install -y chromium chromium-driver` (or set "
                    "SITUATED_SKIP_BROWSER=1 to skip it)")
    return browser, driver


@pytest.fixture(scope="module")
def server(sample_app):
    store = KeyStore([Principal(name="reader", key_sha256=hash_key(KEY))])
    with running_server(create_app(sample_app, store)) as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver_path = _binaries()
    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager never downloads a driver
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1100,1400", "--no-first-run"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    driver.set_page_load_timeout(60)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver, condition, seconds: float = 90):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds).until(condition)


def _visible(driver, element_id: str):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    return _wait(driver, ec.visibility_of_element_located((By.ID, element_id)))


def _ask(driver, text: str, previous_status: str | None = None) -> str:
    """Type a question (or a reply) and submit; the status once the answer is drawn."""
    from selenium.webdriver.common.by import By

    before = driver.find_element(By.ID, "answer").text
    box = driver.find_element(By.ID, "question")
    box.clear()
    box.send_keys(text)
    driver.find_element(By.ID, "ask").click()
    _wait(driver, lambda d: d.find_element(By.ID, "result").is_displayed()
          and d.find_element(By.ID, "answer").text != before
          and not d.find_element(By.ID, "busy").is_displayed())
    return driver.find_element(By.ID, "status").get_attribute("data-status")


def _severe(driver, base: str) -> list[str]:
    """Console errors but the expected refusals of `/session` (asked before signing in, and
    the wrong key tried first), which Chromium logs as failed loads."""
    expected = f"{base}/session - Failed to load resource: the server responded with a " \
               "status of 401"
    return [e["message"] for e in driver.get_log("browser")
            if e["level"] == "SEVERE" and not e["message"].startswith(expected)]


def test_sign_in_ask_cite_clarify_and_be_refused_without_the_cookie(server, browser):
    from selenium.webdriver.common.by import By

    browser.get(server + "/")
    _visible(browser, "login")
    browser.find_element(By.ID, "key").send_keys("not-a-key")
    browser.find_element(By.ID, "sign-in").click()
    _wait(browser, lambda d: "unknown API key" in d.find_element(By.ID, "login-error").text)
    assert not browser.find_element(By.ID, "asker").is_displayed()

    browser.find_element(By.ID, "key").send_keys(KEY)
    browser.find_element(By.ID, "sign-in").click()
    _visible(browser, "asker")
    assert "signed in as reader" in browser.find_element(By.ID, "who").text
    cookie = browser.get_cookie("situated_session")
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Strict"
    assert browser.execute_script("return document.cookie") == ""  # not readable by script

    assert _ask(browser, HEADLINE) == "answered"
    assert browser.find_element(By.ID, "status").text == "Answered"  # words, not the contract's
    assert browser.find_element(By.ID, "considered").text.startswith("Documents read: WARR-R2")
    assert "for C-3, bought 15 March 2026" in browser.find_element(By.ID, "considered").text
    assert "for as of" not in browser.find_element(By.ID, "considered").text
    answer = browser.find_element(By.ID, "answer").text
    assert "36 months" in answer and "For a purchase on 15 March 2026" in answer
    assert "[" not in answer.replace("[S", "")  # links drawn as links, not Markdown
    assert browser.find_element(By.ID, "budget").text.startswith("Budget:")
    links = browser.find_elements(By.CSS_SELECTOR, "#answer a.citation")
    assert links and all(a.get_attribute("href").startswith(server + "/documents/")
                         for a in links)
    browser.save_screenshot(str(ARTIFACTS / "browser-answered.png"))

    target = next(a for a in links if "WARR-R2#section-2" in a.get_attribute("href"))
    target.click()
    _wait(browser, lambda d: len(d.window_handles) == 2)
    page, document = browser.window_handles
    browser.switch_to.window(document)
    _wait(browser, lambda d: d.find_elements(By.ID, "section-2"))
    assert browser.find_element(By.TAG_NAME, "h1").text != "WARR-R2"  # the title, not the id
    assert browser.find_element(By.CLASS_NAME, "doc-meta").text.startswith("WARR-R2")
    cited = browser.find_element(By.ID, "section-2")
    assert "36 months" in cited.text and cited.find_element(By.TAG_NAME, "h2").text
    assert browser.execute_script(  # the cited section is the one highlighted
        "return getComputedStyle(document.getElementById('section-2')).outlineStyle") == "solid"
    browser.save_screenshot(str(ARTIFACTS / "browser-citation.png"))
    browser.close()
    browser.switch_to.window(page)

    assert _ask(browser, "How long is the battery warranty?") == "clarify"
    assert browser.find_element(By.ID, "status").text == "Needs one more detail"
    assert "Which product" not in browser.find_element(By.ID, "answer").text  # shown once:
    assert browser.find_element(By.ID, "clarifying").is_displayed()
    # the clarification stands above the box that answers it
    assert "Which product" in browser.find_element(By.ID, "clarification").text
    assert browser.find_element(By.ID, "clarifying").location["y"] < \
        browser.find_element(By.ID, "question").location["y"]
    browser.save_screenshot(str(ARTIFACTS / "browser-clarifying.png"))
    assert browser.find_element(By.ID, "budget").text.startswith("Budget: none spent")
    assert _ask(browser, "a C-3 bought on 15 March 2026") == "answered"
    assert "36 months" in browser.find_element(By.ID, "answer").text
    assert not browser.find_element(By.ID, "clarifying").is_displayed()
    browser.save_screenshot(str(ARTIFACTS / "browser-clarified.png"))
    assert _severe(browser, server) == []  # no script error, no policy violation

    browser.delete_all_cookies()
    box = browser.find_element(By.ID, "question")
    box.send_keys(HEADLINE)
    browser.find_element(By.ID, "ask").click()
    _visible(browser, "login")
    assert "session ended" in browser.find_element(By.ID, "login-error").text
    browser.get(server + "/documents/WARR-R2")
    assert "missing or unknown API key" in browser.find_element(By.TAG_NAME, "body").text
    browser.save_screenshot(str(ARTIFACTS / "browser-refused.png"))


def _scripted(sample_app, reply: str):
    """The sample behind a real server whose chat model replies `reply`."""
    from fakes import ScriptedChatModel

    store = KeyStore([Principal(name="reader", key_sha256=hash_key(KEY))])
    return running_server(create_app(sample_app, store, model=ScriptedChatModel(
        replies=[reply])))


def _signed_in(browser, base: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(base + "/")
    _visible(browser, "login")
    browser.find_element(By.ID, "key").send_keys(KEY)
    browser.find_element(By.ID, "sign-in").click()
    _visible(browser, "asker")


@pytest.fixture(scope="module")
def forging_server(sample_app):
    """A model whose reply opens a bracket before its citation, as a document or a model
    could, to stretch the citation's link text over a sentence of its own."""
    with _scripted(sample_app, "[Official firmware installer at evil.example, sign in with "
                               "your account password. [S1]") as base:
        yield base


def test_a_citations_link_text_is_always_the_parsers_label(forging_server, browser):
    from selenium.webdriver.common.by import By

    _signed_in(browser, forging_server)
    assert _ask(browser, "What does error E-417 mean?") == "answered"
    links = browser.find_elements(By.CSS_SELECTOR, "#answer a.citation")
    assert links, browser.find_element(By.ID, "answer").text
    for a in links:  # "ERR-CAT, section 3": the citation's own source and section
        assert "evil" not in a.text and "password" not in a.text
        assert a.get_attribute("href").startswith(forging_server + "/documents/")
    assert "Official firmware installer" in browser.find_element(By.ID, "answer").text
    browser.save_screenshot(str(ARTIFACTS / "browser-forged-link-text.png"))


@pytest.fixture(scope="module")
def code_server(sample_app):
    """A model whose reply quotes code as evidence holds it: a fence, `<`, a backslash, a
    backtick and an address."""
    reply = ('Check the code first:\n```python\nif a < b and `flag`:\n    open("C:\\\\temp")\n```\n'
             "[S1] The manual is at https://www.example.com/manual.")
    with _scripted(sample_app, reply) as base:
        yield base


def test_code_in_an_answer_reads_as_written(code_server, browser):
    """What the answer escapes (`<` as an entity, backslashes and backticks) is drawn as the
    reader would see it rendered, and only the address is a code span."""
    from selenium.webdriver.common.by import By

    _signed_in(browser, code_server)
    assert _ask(browser, "What does error E-417 mean?") == "answered"
    answer = browser.find_element(By.ID, "answer")
    text = answer.text
    assert "```python\nif a < b and `flag`:" in text, text
    assert 'open("C:\\temp")' in text and "&lt;" not in text and "\\`" not in text, text
    spans = [c.text for c in answer.find_elements(By.TAG_NAME, "code")]
    assert spans == ["https://www.example.com/manual"], spans
    browser.save_screenshot(str(ARTIFACTS / "browser-code-answer.png"))
