"""Reads of the games app (decision 15: views and the API read through selectors, services write).

Each module holds one kind of read: tables (what a person may see of tables and games), lobby, spectating,
vacation, pace, player_stats, replay, export, score_chart, end_of_game, positions, turn_labels, turn_queue,
sweeps.  The table reads (selectors/tables.py) stay importable from here, as before the split into modules;
the names they merely use (models, words, other selectors) are imported from where they live.
"""

from .tables import (  # noqa: F401  (re-exported)
    NO_DEADLINE,
    OWN_SOURCES,
    SEATS_WITH_PLAYERS,
    URGENCY_ORDER,
    abort_standing,
    aborted_summary,
    action_log,
    action_log_entries,
    action_log_latest,
    action_log_rows,
    action_log_since,
    first_turns_pending,
    games_of_user_sorted,
    legal_actions_of,
    legal_game,
    may_abort_alone,
    persons_playing,
    prefetch_seats_with_standing,
    score_breakdown,
    seat_of,
    seat_summary,
    table_detail,
    table_stamp,
    table_summaries,
    table_summary,
    tables_of_user,
    tables_of_user_by_urgency,
    tables_public,
    visible_games,
    visible_q,
)
