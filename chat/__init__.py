"""Chat at every table (decision 17, point 1), an app of one shape: its models (models), writes (services), who sees
which message (selectors), telling the players in the worker (effects, tasks), the API (api, api_urls), the table
page's panel (views, urls, templates/chat/, static/chat/chat.js), the moderators' admin (admin) and her data
(account_data).  Games, the feed and the notifications never import it: it fills their hooks (apps.py)."""
