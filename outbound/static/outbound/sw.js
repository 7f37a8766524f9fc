// Topos's service worker (decision 29): shows what the site pushes, opens the table when the notification is clicked.
// Served at /sw.js (outbound.views.service_worker) so that its scope is the whole site.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const options = { body: data.body || "", data: { url: data.url || "/" }, icon: "/favicon.ico" };
  if (data.table) options.tag = "topos-table-" + data.table; // a later turn at a table replaces the earlier one
  event.waitUntil(self.registration.showNotification(data.title || "Topos", options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const open of windows) {
        if (open.url === url && "focus" in open) return open.focus();
      }
      return self.clients.openWindow(url);
    }),
  );
});
