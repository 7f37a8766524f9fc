"""Notifications: what happened at your tables, in the site always and by email as you choose (decision 5).
An app of its own (label `notifications`), owning its models (decision 15), after games and feed in the apps' order.

    models.py           Notification, NotificationDelivery, NotificationPreference (and the events to choose from)
    tasks.py            the Celery tasks: an email to send, the deadline reminders, the daily digest
    texts.py            the words of every event, from the recipient's view and public facts only
    services.py         writes: create a notification once, mark read, preferences, send emails and digests
    selectors.py        reads: unread count, a person's list, her email choices
    events.py           turning committed game changes into notifications (the effects cursor)
    emails.py           rendering the emails
    channels.py         the registry of channels beside email (push and webhooks, the outbound app; decision 29)
    views.py, urls.py   the list page (/notifications/) and the settings page (/accounts/notifications/)
    api.py, api_urls.py /api/notifications/… and /api/me/notification-preferences/ (decision 12, point 4)
    receivers.py        what it answers of games' hooks (games.hooks): a move, a start, an invitation, a block
    account_data.py     its part of her data export and of deleting her account (ruling S8)
Who is looking at a table (presence, ruling S6) is the feed's: feed/presence.py, read here.
"""
