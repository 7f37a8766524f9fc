"""The event feed (issue 12, point 2): per-person events read by cursor, and streams of them.

- services.py  writes the events (from the effects dispatch, in the worker; an invitation's with it)
- selectors.py reads them by cursor, and a table's public stamp
- announce.py  tells the streams of other processes through Redis pub/sub (when REDIS_URL is set)
- stream.py    the server-sent-event streams, under a WSGI server (a thread each) or ASGI (none)
- asgi.py      the streams' ASGI app in front of Django (config/asgi.py)
"""
