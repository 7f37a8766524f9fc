"""Chat at every table (issue 17, point 1): who sees which message (selectors), telling the players (effects),
the moderators' admin (admin).  Writes are games/services/chat.py; the API games/api/chat.py; the page
games/views/chat.py with templates/games/chat/."""
