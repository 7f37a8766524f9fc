"""Web Push in a real Chromium (decision 29): the notification settings page registers the service worker at the site's
root scope and its button subscribes this browser and registers the subscription through the API.

Headless Chromium has the Push API but will not subscribe: `pushManager.subscribe` is refused with
"Registration failed - permission denied" even with the notifications permission granted (headless mode denies
push; Debian's build also carries no Firebase Cloud Messaging keys, the push service Chromium would use).  So the
test checks that the page says so in her language, and then takes the button's registration path itself: the same
POST the button sends, from the page (her session, the panel's CSRF token), with a subscription made of a real
P-256 key pair generated in the page.  tests/outbound/test_push.py checks the rest: a registered subscription
receives a turn, encrypted and VAPID-signed, at a local push service.

Run with `pytest -m browser tests/browser/test_browser_push.py`; see tests/browser/conftest.py for Chromium.
"""

from __future__ import annotations

import pytest

from outbound.models import PushSubscription
from tests.browser.helpers import WAIT, add_person, expect, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REGISTER_LIKE_THE_BUTTON = """async () => {
  const panel = document.getElementById("push-panel");
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const b64 = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const auth = crypto.getRandomValues(new Uint8Array(16));
  const answer = await fetch(panel.dataset.api, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": panel.dataset.csrf },
    body: JSON.stringify({ endpoint: "https://1.1.1.1/push/chromium", keys: { p256dh: b64(raw), auth: b64(auth) },
                           user_agent: navigator.userAgent }),
  });
  return answer.status;
}"""


def test_the_settings_page_registers_the_worker_and_the_button_subscribes(live_server, pages, settings, tmp_path):
    settings.TOPOS_VAPID_PRIVATE_KEY = ""
    settings.TOPOS_VAPID_KEY_FILE = str(tmp_path / "vapid-private.pem")  # the embedded default's way: made on first use
    add_person("ana")
    page = pages.open(permissions=["notifications"])
    log_in(page, live_server.url, "ana")
    page.goto(f"{live_server.url}/accounts/notifications/")
    button = page.locator("#push-panel [data-push-toggle]")
    expect(button).to_have_text("Turn on push on this device", timeout=WAIT)
    scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
    assert scope == f"{live_server.url}/"
    assert page.evaluate("() => 'PushManager' in window")
    button.click()
    status = page.locator("#push-panel [data-push-status]")
    expect(status).not_to_be_empty(timeout=WAIT)
    said = status.text_content()
    if PushSubscription.objects.filter(user__username="ana").exists():  # a Chromium with a push service
        assert said == "This device will get pushes." or page.url.endswith("/accounts/notifications/")
    else:
        assert said.startswith("Push could not be changed:"), said  # headless: no push service to subscribe with
        assert page.evaluate(REGISTER_LIKE_THE_BUTTON) == 201
        (device,) = PushSubscription.objects.filter(user__username="ana")
        assert device.endpoint == "https://1.1.1.1/push/chromium" and "Chrom" in device.user_agent
        page.reload()
        expect(page.locator(".push-devices li")).to_have_count(1, timeout=WAIT)
    assert not pages.errors, pages.errors
