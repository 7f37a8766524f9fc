"""Notifications: what happened at your tables, in the site always and by email as you choose (issue 5).
An app of its own (label `notifications`), owning its models (issue 15).

    models.py           Notification, NotificationDelivery, NotificationPreference (and the events to choose from)
    tasks.py            the Celery tasks: an email to send, the deadline reminders, the daily digest
    texts.py            the words of every event, from the recipient's view and public facts only
    services.py         writes: create a notification once, mark read, preferences, send emails and digests
    selectors.py        reads: unread count, a person's list, her email choices
    events.py           turning committed game changes into notifications (the effects cursor)
    emails.py           rendering the emails
    views.py, urls.py   the list page (/notifications/) and the settings page (/accounts/notifications/)
"""
