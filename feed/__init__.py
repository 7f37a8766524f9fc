"""The event feed (decision 12, point 2): per-person events read by cursor, and streams of them.

- services.py  writes the events (from the effects dispatch, in the worker; an invitation's with it)
- selectors.py reads them by cursor, and a table's public stamp
- announce.py  tells the streams of other processes through Redis pub/sub (when REDIS_URL is set)
- stream.py    the server-sent-event streams, under a WSGI server (a thread each) or ASGI (none)
- asgi.py      the streams' ASGI app in front of Django (config/asgi.py)
- api.py       GET /api/events/ and the two streams under WSGI (api_urls.py)
- tasks.py     nudging a table's streams after commit, the hourly purge
- receivers.py what the feed answers of games' hooks (games.hooks), connected in apps.py
- presence.py  who is looking at a table (ruling S6): her page and her stream record it, notifications read it
- hooks.py     what later apps add to a table's stream (the chat's stamp)
- models.py    Event (its table still games_event)

After games and ratings in the app order, before notifications and chat (docs/architecture.md).
"""
