"""Decision 12, point 4 (parity): everything a person can do in the browser has its endpoint in the API.

The browser's URLs are read from the URL conf itself (every named pattern outside /api/, /admin/ and the health
checks), so a page added without its endpoint fails here.  Each is mapped below, by URL name, to the API
operation(s) that do the same, or listed among the exceptions with the reason it has no endpoint of its own.
Adding a page: add its row to BROWSER_TO_API (or, with a reason, to NOT_IN_THE_API).
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver

# Browser URL name -> the API URL names that do what it does.
BROWSER_TO_API = {
    # games.urls: the lobby and the tables
    "home": ["api-tables", "api-my-tables", "api-invitations"],
    "table_new": ["api-tables", "api-catalogue", "api-challenges"],  # ?opponent=<name>: a challenge
    "invitation_accept": ["api-invitation-accept"],
    "invitation_decline": ["api-invitation-decline"],
    "watch": ["api-tables-watch"],
    "table": ["api-table", "api-legal-actions", "api-actions"],
    "table_poll": ["api-table-stream", "api-events", "api-table"],  # the page's fallback of its stream
    "table_act": ["api-actions"],
    "table_replay": ["api-position", "api-actions"],
    "table_log_json": ["api-export", "api-actions"],
    "table_join": ["api-join", "api-invitation-accept"],
    "table_leave": ["api-leave"],
    "table_add_bot": ["api-add-bot"],
    "table_invite": ["api-invite"],
    "table_start": ["api-start"],
    "table_abort": ["api-abort"],
    "table_abort_agreement": ["api-abort-agreement"],
    "table_resign": ["api-resign"],
    "table_rematch": ["api-rematch"],
    # chat at a table (decision 17)
    "table_chat": ["api-table-chat"],
    "table_chat_post": ["api-table-chat"],
    "table_chat_delete": ["api-table-chat-message"],
    "table_chat_report": ["api-table-chat-report"],
    "table_chat_mute": ["api-my-mutes", "api-my-mute"],
    # tournaments.urls (decision 17)
    "tournaments": ["api-tournaments"],
    "tournament_new": ["api-tournaments", "api-catalogue"],
    "tournament": ["api-tournament"],
    "tournament_register": ["api-tournament-register"],
    "tournament_withdraw": ["api-tournament-withdraw"],
    "tournament_cancel": ["api-tournament-cancel"],
    "tournament_start_now": ["api-tournament-start"],
    # accounts.urls: the profile and what it edits, player pages
    "profile": ["api-me", "api-my-tables", "api-player-games", "api-my-tokens", "api-my-vacation"],
    "language_time_zone_set": ["api-me"],
    # Decision 29: her turn queue, her forced decisions played for her, her data and deleting her account (ruling S8).
    "turns": ["api-my-turns"],
    "auto_play_set": ["api-me"],
    "account_data": ["api-my-data", "api-my-account-delete"],
    "account_data_download": ["api-my-data"],
    "account_delete": ["api-my-account-delete"],
    "player": ["api-player", "api-player-games", "api-player-ratings"],
    "player_block": ["api-my-blocks", "api-my-block"],
    "vacation_start": ["api-my-vacation"],
    "vacation_end": ["api-my-vacation"],
    "bot_account_make": ["api-my-bot"],
    "token_create": ["api-my-tokens"],
    "token_rename": ["api-my-token"],
    "token_revoke": ["api-my-token-revoke", "api-my-token"],
    # config.urls: the language menu keeps her choice on her account
    "set_language": ["api-me"],
    # ratings.urls
    "leaderboards": ["api-leaderboards"],
    "leaderboard": ["api-leaderboard"],
    # notifications.urls and settings_urls
    "notifications": ["api-notifications"],
    "notifications_read_all": ["api-notifications-read-all"],
    "notification_read": ["api-notification-read"],
    "notification_open": ["api-notification-read", "api-table"],
    # sandbox.urls and notes.urls (decision 29, points 1 and 4)
    "sandbox_new": ["api-table-sandboxes"],
    "sandbox": ["api-sandbox", "api-table-sandboxes"],
    "sandbox_move": ["api-sandbox-moves"],
    "sandbox_undo": ["api-sandbox-undo"],
    "sandbox_goto": ["api-sandbox-goto"],
    "sandbox_bot": ["api-sandbox-bot"],
    "sandbox_delete": ["api-sandbox"],
    "note_save": ["api-table-note", "api-move-note", "api-table-notes"],
    "note_delete": ["api-table-note", "api-move-note"],
    "notification_settings": ["api-my-notification-preferences", "api-my-push"],
    # outbound.urls: push and webhooks (decision 29)
    "push_events": ["api-my-push"],
    "push_device_delete": ["api-my-push-subscription"],
    "webhooks": ["api-my-webhooks", "api-my-webhook-deliveries"],
    "webhook_update": ["api-my-webhook"],
    "webhook_new_secret": ["api-my-webhook"],
    "webhook_delete": ["api-my-webhook"],
    "webhook_test": ["api-my-webhook-test"],
}

# Browser URL name -> why the API has no endpoint for it.
NOT_IN_THE_API = {
    "login": "The browser's own sign-in; a program signs in with a token made on the profile page.",
    "logout": "Ends the browser's session; a program's key is revoked instead (api-my-token).",
    "signup": "Creating an account needs a person, an email confirmation and the sign-up limits: a browser flow.",
    "signup_done": "The page after signing up.",
    "signup_activate": "The link from the confirmation email, followed in a browser.",
    "password_change": "The password stays a browser matter: it would revoke the very token asking (and every "
    "other); a token never changes the password it was made under.",
    "password_change_done": "The page after changing the password.",
    "password_reset": "The reset by email is a browser flow, for people who cannot sign in at all.",
    "password_reset_done": "The page after asking for a reset.",
    "password_reset_confirm": "The link from the reset email, followed in a browser.",
    "password_reset_complete": "The page after a reset.",
    "favicon": "The site's icon.",
    "service_worker": "Web Push's service worker script, which the browser loads itself (decision 29).",
    "rules_index": "Reading matter, not an action: the catalogue (api-catalogue) gives each game's rules_url.",
    "rules_game": "Reading matter, not an action: the catalogue (api-catalogue) gives each game's rules_url.",
    "rules_rulings": "Reading matter: the site's rulings, also in the repository under docs/rules/.",
}

EXCLUDED_PREFIXES = ("api/", "admin/", "static/", "healthz")


def _routes(patterns=None, prefix: str = ""):
    """(route, URL name) of every pattern in the URL conf, includes walked."""
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.name


def browser_urls() -> dict[str, str]:
    """URL name -> route of every page and form the browser uses (a pattern without a name is named by its route)."""
    return {name or route: route for route, name in _routes() if not route.lstrip("^").startswith(EXCLUDED_PREFIXES)}


def api_urls() -> dict[str, str]:
    return {name: route for route, name in _routes() if route.startswith("api/") and name}


def test_the_url_conf_is_read_whole():
    browser, api = browser_urls(), api_urls()
    assert {"home", "table", "profile", "notifications", "leaderboards", "notification_settings"} <= set(browser)
    assert not any(route.startswith(("api/", "admin/")) for route in browser.values())
    assert {"api-tables", "api-notifications", "api-me"} <= set(api)


def test_every_browser_url_has_its_api_operation_or_a_documented_reason():
    missing = sorted(set(browser_urls()) - set(BROWSER_TO_API) - set(NOT_IN_THE_API))
    assert not missing, (
        f"These browser URLs have no API operation mapped in BROWSER_TO_API and no reason in NOT_IN_THE_API: {missing}"
    )


def test_the_mapped_api_operations_exist():
    api = api_urls()
    unknown = {page: sorted(set(names) - set(api)) for page, names in BROWSER_TO_API.items() if set(names) - set(api)}
    assert not unknown, f"These API URL names do not exist: {unknown}"
    assert all(names for names in BROWSER_TO_API.values())


def test_no_row_names_a_page_that_is_gone_or_is_both_mapped_and_excepted():
    browser = set(browser_urls())
    assert not (set(BROWSER_TO_API) - browser), sorted(set(BROWSER_TO_API) - browser)
    assert not (set(NOT_IN_THE_API) - browser), sorted(set(NOT_IN_THE_API) - browser)
    assert not (set(BROWSER_TO_API) & set(NOT_IN_THE_API))
    assert all(len(reason) > 10 for reason in NOT_IN_THE_API.values())
