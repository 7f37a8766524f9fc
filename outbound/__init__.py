"""Outbound channels (decision 29, point 3): Web Push and signed webhooks beside the site and email.

    models.py        PushSubscription, PushChoice (which events by push), WebhookEndpoint, WebhookDelivery (the log)
    safe_http.py     the one way out: http(s) only, public addresses only after DNS, connected to the address checked
    vapid.py         the site's VAPID key pair (settings, or a file beside the SQLite database)
    payloads.py      what a notification may say outside the site: her own view's words, the table, its link
    push.py          encrypting and sending one push to each of her devices
    webhooks.py      the body formats (generic signed JSON, Discord, Slack, Matrix, ntfy), signing, delivering
    services.py      writes: devices, choices, endpoints, test events; the channels registered with notifications
    tasks.py         Celery: one webhook delivery (retried with backoff), the sweep of those left behind
    views.py, api.py the pages (/accounts/notifications/...) and /api/me/push/, /api/me/webhooks/

Notifications reach these channels through notifications.channels (registered in apps.py), so they follow
ruling S6 exactly as an email does.  docs/webhooks.md tells the whole story.
"""
