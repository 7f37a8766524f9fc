// The push button of the notification settings page (decision 29): registers /sw.js, subscribes this browser with
// the site's VAPID key and registers the subscription through the API (or the reverse).  Words come from the
// panel's data-* attributes, in the page's language.
(function () {
  "use strict";
  const panel = document.getElementById("push-panel");
  if (!panel) return;
  const button = panel.querySelector("[data-push-toggle]");
  const status = panel.querySelector("[data-push-status]");
  const words = panel.dataset;
  const say = (text) => {
    status.textContent = text;
  };
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !words.publicKey) {
    button.disabled = true;
    say(words.publicKey ? words.unsupported : words.notSetUp);
    return;
  }
  const keyBytes = (text) => {
    const padded = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  };
  const api = async (method, url, body) => {
    const answer = await fetch(url, {
      method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": words.csrf },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (!answer.ok) {
      let detail = String(answer.status);
      try {
        detail = (await answer.json()).detail || detail;
      } catch (error) {
        /* not JSON */
      }
      throw new Error(detail);
    }
    return answer.status === 204 ? null : answer.json();
  };
  const current = async () => {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    return [registration, await registration.pushManager.getSubscription()];
  };
  const show = async () => {
    const [, subscription] = await current();
    button.textContent = subscription ? words.turnOff : words.turnOn;
    panel.dataset.state = subscription ? "on" : "off";
  };
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const [registration, subscription] = await current();
      if (subscription) {
        const mine = await api("GET", words.api);
        const found = mine.find((s) => s.endpoint === subscription.endpoint);
        if (found) await api("DELETE", words.api + found.id + "/");
        await subscription.unsubscribe();
        say(words.saidOff);
      } else {
        if ((await Notification.requestPermission()) !== "granted") {
          say(words.denied);
          return;
        }
        const made = await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(words.publicKey),
        });
        const json = made.toJSON();
        await api("POST", words.api, { endpoint: json.endpoint, keys: json.keys, user_agent: navigator.userAgent.slice(0, 200) });
        say(words.saidOn);
      }
      window.location.reload();
    } catch (error) {
      say(words.failed + " " + (error.message || error));
    } finally {
      button.disabled = false;
      show().catch(() => {});
    }
  });
  show().catch((error) => say(words.failed + " " + (error.message || error)));
})();
